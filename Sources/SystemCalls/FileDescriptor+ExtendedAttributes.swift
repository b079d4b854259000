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

    /// Asks for the size, then reads; again when the value grew in between.
    private static func readAttribute(_ call: (UnsafeMutableRawPointer?, Int) -> Int) throws(Errno) -> [UInt8]? {
        for _ in 0..<8 {
            let size = retrying { call(nil, 0) }
            if size < 0 {
                if errno == ENODATA { return nil }
                throw Errno.current
            }
            if size == 0 { return [] }
            var failure: Errno?
            var absent = false
            let value = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = 0
                let read = retrying { call(buffer.baseAddress, size) }
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
    /// What the file system holding the open file has free: the bytes an unprivileged process may still
    /// allocate (`f_bavail × f_frsize`, not counting the blocks reserved for root) and the whole size.
    ///
    /// The corresponding C function is `fstatvfs`.
    package func fileSystemSpace() throws(Errno) -> (available: Int64, total: Int64) {
        var status = statvfs()
        _ = try retryingOnInterrupt { fstatvfs(rawValue, &status) }
        let unit = Int64(status.f_frsize == 0 ? status.f_bsize : status.f_frsize)
        func bytes(_ blocks: some BinaryInteger) -> Int64 {
            let (product, overflow) = Int64(clamping: blocks).multipliedReportingOverflow(by: unit)
            return overflow ? .max : product
        }
        return (bytes(status.f_bavail), bytes(status.f_blocks))
    }

    /// Whether the close-on-exec flag is set: a descriptor a child process should inherit (a lock it
    /// holds for the child's life) has it cleared.
    ///
    /// The corresponding C function is `fcntl` with `F_SETFD`.
    package func setCloseOnExec(_ closeOnExec: Bool) throws(Errno) {
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFD, closeOnExec ? FD_CLOEXEC : 0) }
    }

    /// Takes a shared advisory lock when no one holds an exclusive one: `false` when someone does.
    ///
    /// The corresponding C function is `flock` with `LOCK_SH | LOCK_NB`.
    package func tryLockShared() throws(Errno) -> Bool {
        do {
            _ = try retryingOnInterrupt { flock(rawValue, LOCK_SH | LOCK_NB) }
            return true
        } catch .resourceTemporarilyUnavailable {
            return false
        }
    }
}

extension FileDescriptor.OpenOptions {
    /// `O_PATH`: a handle on the file that reads nothing and opens nothing that could block (a FIFO, a
    /// device); with `.noFollow`, on a symbolic link itself. Glibc's module does not export the constant;
    /// its value is the same on every Linux architecture Swift supports.
    package static var pathOnly: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: 0o10_000_000) }

    /// `O_NOCTTY`: opening a terminal does not make it the process's controlling terminal.
    package static var noControllingTerminal: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: O_NOCTTY) }
}
