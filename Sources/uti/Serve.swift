import ArgumentParser
import SystemCalls

extension UTI {
    /// `uti serve`: runs `uti-server`, the HTTP service, which sits beside `uti`. The service is an
    /// executable of its own so that `uti` does not link SwiftNIO (which cost `uti identify` 14 to 24 % of
    /// its start-up, measured in one run); `uti serve` replaces itself with it, arguments and all.
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Identify files over HTTP (runs uti-server; `uti serve --help` shows its options).",
            discussion: "Listens on 127.0.0.1:8080 unless told otherwise (--host, --port; --port 0 picks a free port and prints it). Stops on SIGTERM or SIGINT after the requests in flight."
        )

        @Argument(parsing: .captureForPassthrough, help: "uti-server's options.")
        var arguments: [String] = []

        func run() throws {
            let server = Self.serverPath()
            guard Processes.isExecutable(server) else {
                Terminal.error("\(server): uti-server is not there; build it beside uti (`swift build --product uti-server`)")
                throw ExitCode(2)
            }
            let failure = Processes.replace(with: server, arguments: arguments)
            Terminal.error("\(server): \(failure)")
            throw ExitCode(2)
        }

        /// `uti-server` in the directory of the running `uti`.
        static func serverPath() -> String {
            let executable = Processes.executablePath ?? CommandLine.arguments[0]
            let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            return (directory.isEmpty ? "." : directory) + "/uti-server"
        }
    }
}
