import ArgumentParser
import FileIdentification
import Hummingbird
import Metrics
import Prometheus
import UTIService
#if canImport(Glibc)
import Glibc
#endif

/// `uti-server` (also started as `uti serve`): the HTTP service.
@main
struct UTIServer: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "uti-server",
        abstract: "Identify files over HTTP; a drop-in for Apache Tika's detector.",
        discussion: "Prints the address it listens on once it does; stops on SIGTERM or SIGINT after the requests in flight.",
        version: version
    )

    @Option(help: "The address to listen on (loopback unless told otherwise).") var host = "127.0.0.1"
    @Option(help: "The port; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("max-body"), help: ArgumentHelp("The largest body accepted, in bytes (413 beyond it).", valueName: "bytes"))
    var maximumBodySize = 4 << 30

    func run() async throws {
        MetricsSystem.bootstrap(PrometheusMetricsFactory())
        let service = UTIService(configuration: .init(host: host, port: port, maximumBodySize: maximumBodySize, version: Self.version))
        let host = self.host
        let application = service.application { port in
            print("uti-server: listening on http://\(host):\(port)")
            fflush(nil)
        }
        try await application.runService()
    }
}
