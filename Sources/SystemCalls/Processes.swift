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

    /// What a child run by `run(_:arguments:environment:standardInput:standardOutputLimit:onStandardErrorLine:)` did.
    package struct Outcome: Sendable {
        /// Its exit status, as a shell gives it (128 + N when a signal N ended it).
        package var status: Int32
        /// What it wrote on standard output, up to the limit.
        package var standardOutput: [UInt8]
        /// Whether it wrote more than the limit on standard output: it was stopped (SIGKILL) at that point,
        /// and `standardOutput` holds no more than the limit.
        package var exceededStandardOutputLimit = false
    }

    /// The longest standard-error line handed on: the rest of a longer one is dropped (what is kept of a
    /// child's messages is bounded however it writes them).
    package static let standardErrorLineLimit = 64 << 10

    /// Runs `program` (looked up on `PATH`) with `arguments` (its whole `argv`, the name first) and this
    /// process's environment with `environment` added (replacing variables of the same names), standard input
    /// `standardInput` (none: `/dev/null`), and waits for it: what it wrote on standard output, gathered up to
    /// `standardOutputLimit` bytes (past it the child is killed, and the outcome says so: the limit holds
    /// while reading, never after), and on standard error, handed to `onStandardErrorLine` a line at a time
    /// as it comes, each cut to `standardErrorLineLimit` bytes (both read as they come, so that neither pipe
    /// fills). Descriptors this process holds without close-on-exec are inherited (a lock the child should
    /// hold while it runs). Throws when it could not be started (`ENOENT`: not found) or its output could not
    /// be read.
    ///
    /// The corresponding C functions are `posix_spawnp`, `pipe2`, `poll`, `read`, `kill` and `waitpid`.
    package static func run(_ program: String, arguments: [String], environment: [String: String] = [:],
                            standardInput: [UInt8]? = nil, standardOutputLimit: Int = 64 << 20,
                            onStandardErrorLine: (String) -> Void) throws(Errno) -> Outcome {
        // Close-on-exec at once (Glibc's module does not export pipe2): only the child's dup2 copies cross.
        func makePipe() throws(Errno) -> [Int32] {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw Errno.current }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return ends
        }
        let outputPipe = try makePipe()
        let errorPipe: [Int32]
        var inputPipe: [Int32] = [-1, -1]
        do throws(Errno) {
            errorPipe = try makePipe()
        } catch {
            for descriptor in outputPipe { close(descriptor) }
            throw error
        }
        if standardInput != nil {
            do throws(Errno) {
                inputPipe = try makePipe()
            } catch {
                for descriptor in outputPipe + errorPipe { close(descriptor) }
                throw error
            }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if standardInput != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        var variables: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { variables.append(text) }
            index += 1
        }
        variables += environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let spawned = withCStringArray(arguments) { argv in
            withCStringArray(variables) { envp in posix_spawnp(&pid, program, &actions, nil, argv, envp) }
        }
        close(outputPipe[1])
        close(errorPipe[1])
        if standardInput != nil { close(inputPipe[0]) }
        guard spawned == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            if standardInput != nil { close(inputPipe[1]) }
            throw Errno(rawValue: spawned)
        }
        if let standardInput {
            // Small inputs (a file uti hands over); written whole before reading, then closed.
            let input = FileDescriptor(rawValue: inputPipe[1])
            try? input.writeAll(standardInput)
            input.closeQuietly()
        }
        var output: [UInt8] = []
        var exceeded = false
        var pendingLine: [UInt8] = []
        var droppingLine = false
        var open = [outputPipe[0], errorPipe[0]]
        var failure: Errno?
        while !open.isEmpty {
            var pollers = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&pollers, nfds_t(pollers.count), -1) < 0 {
                if errno == EINTR { continue }
                failure = Errno.current
                break
            }
            for poller in pollers where poller.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                let count = retryingInterrupted { read(poller.fd, &buffer, buffer.count) }
                if count <= 0 {
                    close(poller.fd)
                    open.removeAll { $0 == poller.fd }
                    continue
                }
                if poller.fd == outputPipe[0] {
                    guard !exceeded else { continue }  // drained until the killed child's pipe closes
                    guard output.count + count <= standardOutputLimit else {
                        exceeded = true
                        output += buffer[0..<(standardOutputLimit - output.count)]
                        kill(pid, SIGKILL)
                        continue
                    }
                    output += buffer[0..<count]
                } else {
                    var chunk = buffer[0..<count]
                    while !chunk.isEmpty {
                        let newline = chunk.firstIndex(of: 0x0A)
                        let piece = chunk[..<(newline ?? chunk.endIndex)]
                        if !droppingLine {
                            pendingLine += piece.prefix(standardErrorLineLimit - pendingLine.count)
                            if pendingLine.count == standardErrorLineLimit && newline == nil {
                                // A line past the limit: handed on cut, the rest of it dropped.
                                onStandardErrorLine(String(decoding: pendingLine, as: UTF8.self))
                                pendingLine.removeAll(keepingCapacity: true)
                                droppingLine = true
                            }
                        }
                        guard let newline else { break }
                        if !droppingLine { onStandardErrorLine(String(decoding: pendingLine, as: UTF8.self)) }
                        pendingLine.removeAll(keepingCapacity: true)
                        droppingLine = false
                        chunk = chunk[(newline + 1)...]
                    }
                }
            }
        }
        for descriptor in open { close(descriptor) }
        if !pendingLine.isEmpty { onStandardErrorLine(String(decoding: pendingLine, as: UTF8.self)) }
        var status: Int32 = 0
        _ = try retryingOnInterrupt { waitpid(pid, &status, 0) }
        if let failure { throw failure }
        let signal = status & 0x7F
        return Outcome(status: signal == 0 ? (status >> 8) & 0xFF : 128 + signal, standardOutput: output, exceededStandardOutputLimit: exceeded)
    }

    /// Whether a process with this identifier exists and has not exited (it may be another user's).
    ///
    /// A process that has exited but that its parent has not waited for yet (a zombie, state `Z` in
    /// `/proc/<pid>/stat`) still answers `kill`, and is not running: it holds nothing and does nothing more.
    ///
    /// The corresponding C function is `kill` with signal 0.
    package static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        // "pid (command) state ...": the command may hold spaces and parentheses, so the state follows the last ")".
        guard let stat = try? RegularFile.read("/proc/\(pid)/stat", limit: 4096),
              let close = stat.lastIndex(of: UInt8(ascii: ")")), close + 2 < stat.count else { return true }
        let state = stat[close + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }

    /// The arguments a running process was started with, its program's name first (`/proc/<pid>/cmdline`);
    /// `nil` when they cannot be read (no such process, an exited one, or `/proc` hidden or not mounted).
    package static func arguments(of pid: Int32) -> [String]? {
        guard pid > 0, let bytes = try? RegularFile.read("/proc/\(pid)/cmdline", limit: 1 << 20), !bytes.isEmpty else { return nil }
        var arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if bytes.last == 0 { arguments.removeLast() }
        return arguments
    }

    /// This process's identifier.
    ///
    /// The corresponding C function is `getpid`.
    package static var currentIdentifier: Int32 { getpid() }

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
    // On the stack where the runtime finds room (a path's last component, every file of a walk), the bytes up to
    // the first NUL copied at once.
    return try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { (buffer) throws(E) -> R in
        if let pointer = buffer.baseAddress {
            copyNULTerminated(bytes, to: pointer)
            return try body(pointer)
        }
        // Never: a buffer of one element or more has an address. The heap's, then.
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        defer { pointer.deallocate() }
        copyNULTerminated(bytes, to: pointer)
        return try body(pointer)
    }
}

/// `bytes` up to the first NUL, and a NUL, into `pointer` (room for `bytes.count + 1`).
private func copyNULTerminated(_ bytes: [UInt8], to pointer: UnsafeMutablePointer<CChar>) {
    let length = bytes.withUnsafeBufferPointer { source -> Int in
        guard let base = source.baseAddress else { return 0 }
        let length = memchr(base, 0, source.count).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? source.count
        UnsafeMutableRawPointer(pointer).copyMemory(from: base, byteCount: length)
        return length
    }
    pointer[length] = 0
}

/// `withNULTerminated` for any collection of bytes.
package func withNULTerminated<R, E: Error>(_ bytes: some Collection<UInt8>, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
    try withNULTerminated(Array(bytes), body)
}
