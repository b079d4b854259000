public import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Pipe {
    /// A pipe whose two descriptors close on exec. The tests run side by side in one process, and the library's
    /// own children (rclone for the sync's tests, started by `Processes.run` with `posix_spawn`, which passes on
    /// every descriptor not marked) would otherwise inherit a pipe another test is using: a child that outlives
    /// its test then holds that pipe open, so that a `uti` waiting for the end of its standard input, or a test
    /// reading a child's output to its end, waits for it. Foundation's `Process` still hands its child its own
    /// end (duplicated onto 0, 1 or 2, where the mark does not follow).
    public static func closingOnExec() -> Pipe {
        let pipe = Pipe()
        for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }
}
