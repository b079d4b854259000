#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whole-file reads with the system's own error, so that a message can say why a file was refused.
enum FileContents {
    /// An `errno` from a failed read.
    struct ReadError: Error, CustomStringConvertible {
        var code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    /// Reads the regular file at `path`; a directory or a FIFO is refused without being read.
    ///
    /// The corresponding C functions are `open`, `fstat` and `read`.
    static func read(_ path: String) throws(ReadError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw ReadError(code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReadError(code: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ReadError(code: (status.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(code: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
        }
        return data
    }
}

extension FileContents {
    /// Replaces the file at `path` atomically: writes a temporary file beside it, then renames it.
    static func write(_ bytes: [UInt8], to path: String) throws(ReadError) {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ReadError(code: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw ReadError(code: code)
            }
            written += count
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw ReadError(code: code)
        }
    }
}
