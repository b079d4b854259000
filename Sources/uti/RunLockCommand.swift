import ArgumentParser
import AppContainers
import SystemCalls
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension UTI.Apps {
    struct RunLockCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run-lock",
            abstract: "Run a command as the app: holding its run lock, so that `uti purge` leaves its container alone.",
            discussion: """
                Takes a shared flock(2) on <container>/.uti-run.lock (an app may hold it itself, as flock(1) \
                does), then runs COMMAND with it and exits with the command's status (126: not executable, \
                127: not found, 128+N: killed by signal N). The command inherits the lock: it holds it to its \
                end even if uti ends first. Without a command, prints one line once the lock is held and \
                holds it until standard input closes. Exit status 1 with --no-wait when the lock is taken \
                the other way; 2 for an app not registered.
                """)
        @OptionGroup var registryOptions: RegistryOptions
        @Flag(help: "Take the lock exclusively (as purging does) rather than shared.") var exclusive = false
        @Flag(name: .customLong("no-wait"), help: "Fail (exit status 1) rather than wait while the lock is held the other way.") var noWait = false
        @Argument(help: "The bundle identifier.") var bundleIdentifier: String
        @Argument(parsing: .captureForPassthrough, help: "The command to run, and its arguments (after --, if it has options of its own).")
        var command: [String] = []

        func run() throws {
            let held = try reporting { try RunLock.acquire(bundleIdentifier, in: registryOptions.registry, exclusive: exclusive, waiting: !noWait) }
            guard let lock = held else {
                Terminal.error("the run lock of \(bundleIdentifier) is held \(exclusive ? "by a running app" : "exclusively (a purge)")")
                throw ExitCode(1)
            }
            let arguments = command.first == "--" ? Array(command.dropFirst()) : command
            guard let program = arguments.first else {
                let line = "holding the run lock of \(lock.bundleIdentifier) (\(exclusive ? "exclusive" : "shared")): \(lock.path); close standard input to release it"
                // Written at once, unbuffered: whoever waits for it knows the lock is held.
                try? FileDescriptor.standardOutput.writeAll(Array((Terminal.safe(line) + "\n").utf8))
                // Held until standard input ends: what a test, or a shell's coprocess, closes to release it.
                while let chunk = try? FileDescriptor.standardInput.readSome(), !chunk.isEmpty {}
                withExtendedLifetime(lock) {}
                return
            }
            _ = try reporting { try lock.inheritedByChildren() }
            let status = Self.spawn(program, arguments)
            withExtendedLifetime(lock) {}
            if status != 0 { throw ExitCode(status) }
        }

        /// Runs `program` (looked up on `PATH`) and waits for it; its exit status, shell style (126: could not
        /// be run, 127: not found).
        private static func spawn(_ program: String, _ arguments: [String]) -> Int32 {
            do throws(Errno) {
                return try Processes.run(program, arguments: arguments)
            } catch {
                Terminal.error("\(program): \(error)")
                return error == .noSuchFileOrDirectory ? 127 : 126
            }
        }
    }
}
