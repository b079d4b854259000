package import SystemPackage
internal import CExtendedAttributes
#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// The value of the extended attribute `name` of the open file, `nil` when it has none
    /// (`ENODATA`). A file system without extended attributes of that namespace throws `ENOTSUP`.
    ///
    /// The corresponding C function is `fgetxattr`.
    package func extendedAttribute(_ name: String) throws(Errno) -> [UInt8]? {
        try Self.readAttribute { buffer, size in fgetxattr(rawValue, name, buffer, size) }
    }

    /// The value of the extended attribute `name` of `entry` in this directory, without following a
    /// symbolic link at `entry` and without opening it (a FIFO or a device is never opened); `nil` when
    /// it has none.
    ///
    /// Linux has no `getxattrat` before 6.13 (and glibc does not wrap it): the entry is reached as
    /// `/proc/self/fd/<this>/<entry>`, so the lookup starts at this descriptor and resolves one name.
    /// `ENOENT` where `/proc` is not mounted.
    ///
    /// The corresponding C function is `lgetxattr`.
    package func extendedAttribute(_ name: String, of entry: [UInt8]) throws(Errno) -> [UInt8]? {
        guard !entry.contains(UInt8(ascii: "/")), !entry.contains(0) else { throw Errno.invalidArgument }
        let path = PathBytes(Array("/proc/self/fd/\(rawValue)/".utf8) + entry)
        return try path.withSystemPath { (pointer) throws(Errno) -> [UInt8]? in
            try Self.readAttribute { buffer, size in lgetxattr(pointer, name, buffer, size) }
        }
    }

    /// Sets the extended attribute `name` of the open file to `value`, replacing any value it had.
    ///
    /// The corresponding C function is `fsetxattr`.
    package func setExtendedAttribute(_ name: String, to value: [UInt8]) throws(Errno) {
        FaultInjection.step()
        // The system call inside, the error outside: withUnsafeBytes rethrows untyped.
        let result = value.withUnsafeBytes { raw in
            Result { () throws(Errno) -> CInt in try retryingOnInterrupt { fsetxattr(rawValue, name, raw.baseAddress, raw.count, 0) } }
        }
        _ = try result.get()
    }

    /// Removes the extended attribute `name` of the open file; `false` when it had none.
    ///
    /// The corresponding C function is `fremovexattr`.
    @discardableResult
    package func removeExtendedAttribute(_ name: String) throws(Errno) -> Bool {
        FaultInjection.step()
        do {
            _ = try retryingOnInterrupt { fremovexattr(rawValue, name) }
            return true
        } catch .noData {
            return false
        }
    }

    /// The names of the open file's extended attributes, in the order the file system lists them.
    ///
    /// The corresponding C function is `flistxattr`.
    package func extendedAttributeNames() throws(Errno) -> [String] {
        let list = try Self.readAttribute { buffer, size in flistxattr(rawValue, buffer?.assumingMemoryBound(to: CChar.self), size) } ?? []
        return list.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names of the extended attributes of `entry` in this directory, without following a link at it and
    /// without opening it (reached as `/proc/self/fd/<this>/<entry>`, as `extendedAttribute(_:of:)` is).
    ///
    /// The corresponding C function is `llistxattr`.
    package func extendedAttributeNames(of entry: [UInt8]) throws(Errno) -> [String] {
        guard !entry.contains(UInt8(ascii: "/")), !entry.contains(0) else { throw Errno.invalidArgument }
        let path = PathBytes(Array("/proc/self/fd/\(rawValue)/".utf8) + entry)
        let list = try path.withSystemPath { (pointer) throws(Errno) -> [UInt8]? in
            try Self.readAttribute { buffer, size in llistxattr(pointer, buffer?.assumingMemoryBound(to: CChar.self), size) }
        } ?? []
        return list.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Asks for the size, then reads; again when the value grew in between.
    private static func readAttribute(_ call: (UnsafeMutableRawPointer?, Int) -> Int) throws(Errno) -> [UInt8]? {
        for _ in 0..<8 {
            let size = retryingInterrupted { call(nil, 0) }
            if size < 0 {
                if errno == ENODATA { return nil }
                throw Errno.current
            }
            if size == 0 { return [] }
            var failure: Errno?
            var absent = false
            let value = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                let read = retryingInterrupted { call(buffer.baseAddress, size) }
                if read >= 0 { count = read; return }
                if errno == ENODATA { absent = true } else if errno != ERANGE { failure = Errno.current }
            }
            if absent { return nil }
            if let failure { throw failure }
            if errno != ERANGE || !value.isEmpty { return value }
        }
        throw Errno.outOfRange
    }
}

extension FileDescriptor {
    /// The identifier of the mount the open file is on, or `nil` where the kernel cannot say: unlike the
    /// device number, it tells a bind mount from the file system it shows.
    ///
    /// The corresponding C function is `statx` with `STATX_MNT_ID`.
    package var mountIdentifier: UInt64? {
        var identifier: UInt64 = 0
        return uti_mount_identifier(rawValue, &identifier) == 0 ? identifier : nil
    }
}
