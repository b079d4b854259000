package import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// What the running program asks of the system about processes: its own executable, becoming another, running
/// a child and waiting for it, sleeping. (The one place these calls are made.)
package enum Processes {
    /// The running executable's path (`/proc/self/exe`), `nil` when it cannot be read.
    ///
    /// The corresponding C function is `readlink`.
    package static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = retryingInterrupted { readlink("/proc/self/exe", &buffer, buffer.count - 1) }
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `path` names a file this process may execute.
    ///
    /// The corresponding C function is `access`.
    package static func isExecutable(_ path: String) -> Bool {
        access(path, X_OK) == 0
    }

    /// Whether `path` names a file this process may read.
    ///
    /// The corresponding C function is `access`.
    package static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Replaces this process with `executable`, given `arguments` (its `argv[1...]`); returns only when it
    /// could not, with why.
    ///
    /// The corresponding C function is `execv`.
    package static func replace(with executable: String, arguments: [String]) -> Errno {
        withCStringArray([executable] + arguments) { argv in _ = execv(executable, argv) }
        return Errno.current
    }

    /// Runs `program` (looked up on `PATH`) with `arguments` (its whole `argv`, the name first), with this
    /// process's environment and descriptors, and waits for it: its exit status, as a shell gives it (128 + N
    /// when a signal N ended it). Throws when it could not be started (`ENOENT`: not found).
    ///
    /// The corresponding C functions are `posix_spawnp` and `waitpid`.
    package static func run(_ program: String, arguments: [String]) throws(Errno) -> Int32 {
        var pid: pid_t = 0
        let spawned = withCStringArray(arguments) { argv in posix_spawnp(&pid, program, nil, nil, argv, environ) }
        guard spawned == 0 else { throw Errno(rawValue: spawned) }
        var status: Int32 = 0
        _ = try retryingOnInterrupt { waitpid(pid, &status, 0) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Sleeps for `duration`, the whole of it even when a signal interrupts.
    ///
    /// The corresponding C function is `nanosleep`.
    package static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var interval = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&interval, &remaining) == -1 && errno == EINTR { interval = remaining }
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings (an `argv`), valid for the call.
package func withCStringArray<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return body(&pointers)
}

/// Calls `body` with `bytes` as a NUL-terminated C string in a buffer of its own (a NUL inside cuts it short,
/// as the system would read it), so that `body` may throw its typed error straight through (the standard
/// library's `withCString` rethrows untyped errors only). The one copy of bytes into a C string.
package func withNULTerminated<R, E: Error>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
    // An array, by index: a generic collection, called across modules unspecialized, has the runtime look up
    // its associated types by name (a search of every conformance in the program, once per process).
    let count = bytes.count
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: count + 1)
    defer { pointer.deallocate() }
    var length = 0
    while length < count, bytes[length] != 0 {
        pointer[length] = CChar(bitPattern: bytes[length])
        length += 1
    }
    pointer[length] = 0
    return try body(pointer)
}

/// `withNULTerminated` for any collection of bytes.
package func withNULTerminated<R, E: Error>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
    try withNULTerminated(Array(bytes), body)
}
