package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension Errno {
    /// The calling thread's `errno`.
    package static var current: Errno { Errno(rawValue: errno) }
}

/// Calls `body` until it does not fail with `EINTR`: its last result, negative with `errno` set when it failed.
/// The one retry loop; for a system call inside a closure that cannot throw.
package func retryingInterrupted<Result: BinaryInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result >= 0 || errno != EINTR { return result }
    }
}

/// Calls `body` until it does not fail with `EINTR`; a negative result is thrown as the current `errno`.
package func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) throws(Errno) -> Result {
    let result = retryingInterrupted(body)
    if result < 0 { throw Errno.current }
    return result
}

extension FileDescriptor {
    /// Opens `path`, relative to `directory` when it is relative and a directory is given, else to the
    /// working directory; retried on `EINTR`.
    ///
    /// The corresponding C function is `openat`.
    package static func open(
        _ path: some SystemPath, relativeTo directory: FileDescriptor? = nil, _ mode: AccessMode,
        options: OpenOptions = [], permissions: FilePermissions? = nil
    ) throws(Errno) -> FileDescriptor {
        let flags = mode.rawValue | options.rawValue | O_CLOEXEC
        if options.contains(.create) { FaultInjection.step() }
        let base = directory?.rawValue ?? AT_FDCWD
        let descriptor = try path.withSystemPath { (pointer) throws(Errno) -> CInt in
            try retryingOnInterrupt { openat(base, pointer, flags, permissions?.rawValue ?? 0) }
        }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Closes the descriptor, ignoring the outcome: for cleanup after an error or after reading, where
    /// nothing could be done about a failure. (Where written data depends on it, use `closeChecked`.)
    ///
    /// The corresponding C function is `close`.
    package func closeQuietly() {
        _ = Glibc.close(rawValue)
    }

    /// Closes the descriptor; a failure (a delayed write error on some file systems) is thrown.
    package func closeChecked() throws(Errno) {
        guard Glibc.close(rawValue) == 0 else { throw Errno.current }
    }

    /// Up to `count` bytes starting at `offset`; fewer at the end of the file (or when it shrank meanwhile).
    ///
    /// The corresponding C function is `pread`.
    package func read(at offset: Int, count: Int) throws(Errno) -> [UInt8] {
        guard offset >= 0, count > 0 else { return [] }
        var failure: Errno?
        // The system call inside, the error outside: closures of the standard library rethrow untyped.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            let result = Result { () throws(Errno) -> Int in try read(at: offset, into: UnsafeMutableRawBufferPointer(buffer)) }
            switch result {
            case .success(let count): filled = count
            case .failure(let error):
                filled = 0
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads into `buffer` from `offset` until it is full or the file ends; how many bytes were read.
    package func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard offset >= 0, let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let result = retryingInterrupted { Glibc.pread(rawValue, base + filled, buffer.count - filled, off_t(offset + filled)) }
            if result < 0 { throw Errno(rawValue: errno) }
            if result == 0 { break }  // the end of the file, or it shrank while read
            filled += result
        }
        return filled
    }

    /// Everything from the current position to the end, at most `limit` bytes (`nil`: no limit).
    /// A non-blocking descriptor with nothing to read yet is waited for, a little at a time.
    ///
    /// The corresponding C function is `read`.
    package func readToEnd(limit: Int? = nil) throws(Errno) -> [UInt8] {
        var data: [UInt8] = []
        while limit.map({ data.count < $0 }) ?? true {
            let chunk = try readSome(limit: min(1 << 16, limit.map { $0 - data.count } ?? 1 << 16))
            if chunk.isEmpty { break }
            data += chunk
        }
        return data
    }

    /// Writes all of `bytes` at the current position, retrying short writes and `EINTR`.
    ///
    /// A process's file-size limit (`RLIMIT_FSIZE`) is honoured without `SIGXFSZ`: the kernel sends that
    /// signal, whose default action kills the process, for a write that starts at or beyond the limit, so
    /// such a write is never made and `EFBIG` ("File too large") is thrown instead, whatever the process's
    /// signal dispositions. A write that crosses the limit comes back short from the kernel, without a signal.
    ///
    /// The corresponding C function is `write`.
    package func writeAll(_ bytes: some Collection<UInt8>) throws(Errno) {
        // The error is carried out of the standard library's closures (which rethrow untyped) in an
        // optional, not a `Result`: `Result<_, Errno>` is generic metadata the runtime builds by name, with a
        // search of every conformance in the program, the first time a process needs it.
        var failure: Errno?
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(Errno) { try writeAll(UnsafeRawBufferPointer(buffer)) } catch { failure = error }
        }
        if done == nil {
            ContiguousArray(bytes).withUnsafeBytes { raw in
                do throws(Errno) { try writeAll(raw) } catch { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// Writes all of `raw`, as `writeAll(_:)` does, without copying it first.
    package func writeAll(_ raw: UnsafeRawBufferPointer) throws(Errno) {
        FaultInjection.step()
        guard let base = raw.baseAddress else { return }
        let limit = Self.fileSizeLimit
        var offset = 0
        while offset < raw.count {
            if let limit {
                let position = Glibc.lseek(rawValue, 0, SEEK_CUR)
                if position >= 0 && position >= limit { throw .fileTooLarge }
            }
            let written = retryingInterrupted { Glibc.write(rawValue, base + offset, raw.count - offset) }
            if written < 0 { throw Errno(rawValue: errno) }
            offset += written
        }
    }

    /// The soft `RLIMIT_FSIZE` in bytes, `nil` when there is none.
    private static var fileSizeLimit: off_t? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return off_t(clamping: limit.rlim_cur)
    }

    /// Flushes the file's data and metadata to the device.
    ///
    /// The corresponding C function is `fsync`.
    package func sync() throws(Errno) {
        FaultInjection.step()
        if let injected = FaultInjection.syncFailure() { throw injected }
        _ = try retryingOnInterrupt { fsync(rawValue) }
    }

    /// Sets the file's permission bits.
    ///
    /// The corresponding C function is `fchmod`.
    package func setPermissions(_ permissions: FilePermissions) throws(Errno) {
        FaultInjection.step()
        _ = try retryingOnInterrupt { fchmod(rawValue, permissions.rawValue) }
    }

    /// The file's status.
    ///
    /// The corresponding C function is `fstat`.
    package func status() throws(Errno) -> Stat {
        try stat()
    }

    /// Takes an exclusive advisory lock on the whole file, waiting for it.
    ///
    /// The corresponding C function is `flock`.
    package func lockExclusively() throws(Errno) {
        _ = try retryingOnInterrupt { flock(rawValue, LOCK_EX) }
    }

    /// Takes a shared advisory lock on the whole file, waiting for it.
    ///
    /// The corresponding C function is `flock`.
    package func lockShared() throws(Errno) {
        _ = try retryingOnInterrupt { flock(rawValue, LOCK_SH) }
    }

    /// Takes an exclusive advisory lock when no one holds one: `false` when someone does.
    ///
    /// The corresponding C function is `flock` with `LOCK_NB`.
    package func tryLockExclusively() throws(Errno) -> Bool {
        do {
            _ = try retryingOnInterrupt { flock(rawValue, LOCK_EX | LOCK_NB) }
            return true
        } catch .resourceTemporarilyUnavailable {
            return false
        }
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

    /// Releases an advisory lock.
    package func unlock() {
        _ = flock(rawValue, LOCK_UN)
    }
}

extension FileDescriptor {
    /// What one read returns at the current position (at most `limit` bytes; empty at the end), retried
    /// on `EINTR`, waiting for a non-blocking descriptor that has nothing yet.
    ///
    /// The corresponding C function is `read`.
    package func readSome(limit: Int = 1 << 16) throws(Errno) -> [UInt8] {
        while true {
            var failure: Errno?
            // Uninitialised: a 64 KiB buffer zeroed for a read of four bytes costs more than the read.
            let chunk = [UInt8](unsafeUninitializedCapacity: max(limit, 0)) { buffer, count in
                guard let base = buffer.baseAddress else { count = 0; return }
                let result = retryingInterrupted { Glibc.read(rawValue, base, buffer.count) }
                if result < 0 { failure = Errno(rawValue: errno); count = 0 } else { count = result }
            }
            guard let failure else { return chunk }
            guard failure == .resourceTemporarilyUnavailable else { throw failure }
            var poller = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, 100)
        }
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
}

extension FileDescriptor.OpenOptions {
    /// `O_PATH`: a handle on the file that reads nothing and opens nothing that could block (a FIFO, a
    /// device); with `.noFollow`, on a symbolic link itself. Glibc's module does not export the constant;
    /// its value is the same on every Linux architecture Swift supports.
    package static var pathOnly: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: 0o10_000_000) }

    /// `O_NOCTTY`: opening a terminal does not make it the process's controlling terminal.
    package static var noControllingTerminal: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: O_NOCTTY) }
}
