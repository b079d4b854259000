package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file reads of regular files, refusing anything else without blocking on it.
package enum RegularFile {
    /// The bytes of the regular file at `path` (relative to `directory` when given).
    ///
    /// Opened non-blocking and checked with `fstat` before anything is read, so a FIFO or a device in its
    /// place is refused (`EISDIR` for a directory, `EINVAL` for anything else) rather than waited on.
    ///
    /// - Parameters:
    ///   - limit: The most bytes accepted; a larger file is refused with `EFBIG`.
    ///   - followingLinks: Whether a symbolic link at `path` itself is followed (else `ELOOP`).
    ///   - check: Called with the open file's status before anything is read; what it throws is thrown.
    package static func read(_ path: some SystemPath, relativeTo directory: FileDescriptor? = nil, limit: Int,
                             followingLinks: Bool = true, check: (Stat) throws(Errno) -> Void = { _ throws(Errno) in }) throws(Errno) -> [UInt8] {
        let file = try FileDescriptor.open(path, relativeTo: directory, .readOnly,
                                           options: followingLinks ? [.nonBlocking] : [.nonBlocking, .noFollow])
        defer { file.closeQuietly() }
        let status = try file.status()
        try check(status)
        switch status.type {
        case .regular: break
        case .directory: throw Errno.isDirectory
        default: throw Errno.invalidArgument
        }
        guard status.size <= Int64(limit) else { throw Errno.fileTooLarge }
        // Sized by fstat, plus one byte to see a file that grew; read to the end all the same.
        var bytes = try file.readSome(limit: Int(status.size) + 1)
        while bytes.count <= limit {
            let more = try file.readSome(limit: min(1 << 16, limit + 1 - bytes.count))
            if more.isEmpty { break }
            bytes += more
        }
        guard bytes.count <= limit else { throw Errno.fileTooLarge }
        return bytes
    }
}
