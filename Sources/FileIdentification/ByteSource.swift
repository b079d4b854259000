#if canImport(Glibc)
import Glibc
#endif

/// Bytes that can be read at any offset: an open file or a buffer in memory.
protocol ByteSource {
    /// The total size in bytes.
    var count: Int { get }
    /// Up to `length` bytes starting at `offset`; fewer at the end.
    func bytes(at offset: Int, length: Int) throws(IdentificationError.Reason) -> [UInt8]
}

/// A buffer in memory.
struct MemoryBytes: ByteSource {
    let storage: [UInt8]
    var count: Int { storage.count }

    func bytes(at offset: Int, length: Int) -> [UInt8] {
        guard offset < storage.count, offset >= 0, length > 0 else { return [] }
        return Array(storage[offset..<min(storage.count, offset + length)])
    }
}

/// An open regular file, read with `pread` so that nothing depends on a file position.
struct FileBytes: ByteSource {
    let descriptor: Int32
    let count: Int

    /// The corresponding C function is `pread`.
    func bytes(at offset: Int, length: Int) throws(IdentificationError.Reason) -> [UInt8] {
        guard offset < count, offset >= 0, length > 0 else { return [] }
        let wanted = min(length, count - offset)
        var buffer = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let result = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return pread(descriptor, base + filled, wanted - filled, off_t(offset + filled))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if result == 0 { break }  // the file shrank while we read it
            filled += result
        }
        if filled < wanted { buffer.removeLast(wanted - filled) }
        return buffer
    }
}
