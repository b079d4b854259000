#if canImport(Glibc)
import Glibc
#endif
internal import Synchronization
package import SystemPackage

/// Crash testing: with `UTI_FAULT_INJECTION_KILL_AT=N` in the environment, the process kills itself with
/// `SIGKILL` just before its N-th change to the file system (a file created, written, synced, renamed,
/// linked or removed, a directory made, permissions changed). A test runs a command with N = 1, 2, 3...
/// until it finishes, and checks after each death what a crash at that point leaves: every point where
/// a crash can interrupt a change, without timing. With `UTI_FAULT_INJECTION_FAIL_SYNC=N`, the N-th `fsync`
/// fails with `EIO` instead, as a failing disk's would: what a command reports durable must then not be.
///
/// With `UTI_FAULT_INJECTION_MODEL_GATE=PATH`, each inference of Magika's model first waits until it can
/// take a shared lock of PATH: a test that holds it exclusively holds every inference there, and sees where
/// they wait (which threads, while what else is answered), without timing.
///
/// Compiled into debug builds only (`UTI_FAULT_INJECTION`, which Package.swift defines for the debug
/// configuration, as swift-system gates its mocking): the tests run the debug build; a release build, the one
/// people install, has no such variable and no step. Without the variable, a step costs one comparison.
package enum FaultInjection {
    #if UTI_FAULT_INJECTION
    private static func setting(_ name: String) -> Int? {
        guard let text = getenv(name), let step = Int(String(cString: text)), step > 0 else { return nil }
        return step
    }

    private static let killAt = setting("UTI_FAULT_INJECTION_KILL_AT")
    private static let failingSync = setting("UTI_FAULT_INJECTION_FAIL_SYNC")
    private static let steps = Atomic<Int>(0)
    private static let syncs = Atomic<Int>(0)

    /// Counts an `fsync` about to be made; the N-th of `UTI_FAULT_INJECTION_FAIL_SYNC` fails.
    @inline(__always)
    package static func syncFailure() -> Errno? {
        guard let failingSync else { return nil }
        return syncs.add(1, ordering: .relaxed).newValue == failingSync ? .ioError : nil
    }

    /// Counts a change about to be made; the N-th kills the process.
    @inline(__always)
    package static func step() {
        guard let killAt else { return }
        if steps.add(1, ordering: .relaxed).newValue == killAt { kill(getpid(), SIGKILL) }
    }

    private static let modelGate: String? = getenv("UTI_FAULT_INJECTION_MODEL_GATE").map { String(cString: $0) }

    /// Waits at the model's gate, if there is one (see above).
    package static func passModelGate() {
        guard let modelGate else { return }
        let descriptor = open(modelGate, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
        close(descriptor)
    }
    #else
    /// Nothing: fault injection is not compiled into this build.
    @inline(__always)
    package static func step() {}

    /// Never: fault injection is not compiled into this build.
    @inline(__always)
    package static func syncFailure() -> Errno? { nil }

    /// Nothing: fault injection is not compiled into this build.
    @inline(__always)
    package static func passModelGate() {}
    #endif
}
