import Foundation
import Hummingbird

#if canImport(Glibc)
import Glibc
#endif

/// The baseline of Benchmarks/service.py's part 7: a bare Hummingbird route that reads the body and answers a
/// constant, on the same executor as uti-server (Swift Concurrency's global executor, as Hummingbird has it). What
/// Hummingbird costs with nothing of ours. `BareRoute [--port N]` (0 picks a free port).
@main
enum BareRoute {
    static func main() {
        Task {
            do {
                try await serve(port: port(CommandLine.arguments))
                exit(0)
            } catch {
                FileHandle.standardError.write(Data("BareRoute: \(error)\n".utf8))
                exit(1)
            }
        }
        dispatchMain()
    }

    static func port(_ arguments: [String]) -> Int {
        guard let index = arguments.firstIndex(of: "--port") else { return 8080 }
        guard index + 1 < arguments.count, let port = Int(arguments[index + 1]) else {
            FileHandle.standardError.write(Data("BareRoute: --port needs a number\n".utf8))
            exit(2)
        }
        return port
    }

    static func serve(port: Int) async throws {
        let router = Router()
        let answer: @Sendable (Request, BasicRequestContext) async throws -> String = { request, _ in
            _ = try await request.body.collect(upTo: 64 << 20)
            return "image/png"
        }
        router.put("/identify", use: answer)
        router.put("/detect/stream", use: answer)
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                print("uti-server: listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)")
                fflush(nil)
            }
        )
        try await application.runService()
    }
}
