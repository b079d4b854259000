internal import SystemCalls
internal import SystemPackage

/// Bytes that can be read at any offset: an open file or a buffer in memory.
protocol ByteSource {
    /// The total size in bytes.
    var count: Int { get }
    /// Up to `length` bytes starting at `offset`; fewer at the end.
    func bytes(at offset: Int, length: Int) throws(IdentificationError.Reason) -> [UInt8]
    /// Reads into `buffer` from `offset`, as many bytes as it holds (fewer at the end); how many were read.
    func read(at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(IdentificationError.Reason) -> Int
}

extension ByteSource {
    func read(at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(IdentificationError.Reason) -> Int {
        let bytes = try self.bytes(at: offset, length: buffer.count)
        _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<bytes.count]).initialize(from: bytes)
        return bytes.count
    }
}

/// A buffer in memory.
struct MemoryBytes: ByteSource {
    let storage: [UInt8]
    var count: Int { storage.count }

    func bytes(at offset: Int, length: Int) -> [UInt8] {
        guard offset < storage.count, offset >= 0, length > 0 else { return [] }
        if offset == 0, length >= storage.count { return storage }  // all of it: the array itself, no copy
        // `offset + length` could overflow: the length asked for may be a size read from the data.
        return Array(storage[offset..<(offset + min(length, storage.count - offset))])
    }
}

/// An open regular file, read with `pread` so that nothing depends on a file position.
struct FileBytes: ByteSource {
    let file: FileDescriptor
    let count: Int

    func bytes(at offset: Int, length: Int) throws(IdentificationError.Reason) -> [UInt8] {
        guard offset < count, offset >= 0, length > 0 else { return [] }
        do {
            return try file.read(at: offset, count: min(length, count - offset))
        } catch {
            throw .system(error)
        }
    }

    func read(at offset: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) throws(IdentificationError.Reason) -> Int {
        guard offset < count, offset >= 0, !buffer.isEmpty else { return 0 }
        let length = min(buffer.count, count - offset)
        do {
            return try file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[0..<length]))
        } catch {
            throw .system(error)
        }
    }
}
