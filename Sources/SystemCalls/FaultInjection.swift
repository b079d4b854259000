#if canImport(Glibc)
import Glibc
#endif
internal import Synchronization

/// Crash testing: with `UTI_FAULT_INJECTION_KILL_AT=N` in the environment, the process kills itself with
/// `SIGKILL` just before its N-th change to the file system (a file created, written, synced, renamed,
/// linked or removed, a directory made, permissions changed). A test runs a command with N = 1, 2, 3...
/// until it finishes, and checks after each death what a crash at that point leaves: every point where
/// a crash can interrupt a change, without timing.
///
/// Without the variable, a step costs one comparison.
package enum FaultInjection {
    private static let killAt: Int? = {
        guard let text = getenv("UTI_FAULT_INJECTION_KILL_AT"), let step = Int(String(cString: text)), step > 0 else { return nil }
        return step
    }()
    private static let steps = Atomic<Int>(0)

    /// Counts a change about to be made; the N-th kills the process.
    @inline(__always)
    package static func step() {
        guard let killAt else { return }
        if steps.add(1, ordering: .relaxed).newValue == killAt { kill(getpid(), SIGKILL) }
    }
}
