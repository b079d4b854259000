import ArgumentParser
import AppContainers
import FileIdentification
import SystemCalls
import Hummingbird
import Logging
import ServiceLifecycle
import UTIReports
import UTIService
import UniformTypeIdentifiers
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts `UTIServer`. Request handlers run on Swift Concurrency's global executor, not on SwiftNIO's event
/// loops: with the loops installed as that executor (SwiftNIO's `unsafeTryInstall…`, or its hook set through
/// the linker where the runtime is linked in statically and dlsym cannot find it) a PNG's identification cost
/// more CPU per request and the throughput fell (docs/Performance.md, "The service against a bare route").
@main
enum UTIServerMain {
    static func main() {
        Task {
            await UTIServer.main()
            LogfmtLogHandler.flush()
            exit(0)
        }
        dispatchMain()
    }
}

/// `uti-server` (also started as `uti serve`): the HTTP service.
struct UTIServer: AsyncParsableCommand {
    static let version = UTIVersion.string

    static let configuration = CommandConfiguration(
        commandName: "uti-server",
        abstract: "Identify files over HTTP; a drop-in for Apache Tika's detector.",
        discussion: """
            Prints the address it listens on once it does; stops on SIGTERM or SIGINT after the requests in flight. \
            Exit status: 0 once stopped so, 1 when it cannot listen, 2 when a declaration file is refused, 64 on a \
            usage error or a token file others may read.
            """,
        version: version
    )

    @Option(help: "The address to listen on (loopback unless told otherwise).") var host = "127.0.0.1"
    @Option(help: "The port; 0 picks a free one.") var port = 8080
    @Option(name: .customLong("max-body"), help: ArgumentHelp("The largest body accepted (413 beyond it): bytes, or with K, M, G, T (powers of 1024).", valueName: "size"))
    var maximumBodySize = ByteCount(bytes: 4 << 30)
    @Option(name: .customLong("body-memory"), help: ArgumentHelp(
        "The bytes of request bodies kept in memory, all requests together (each keeps at most its first MiB); the rest go to private temporary files.",
        valueName: "size"))
    var bodyMemory = ByteCount(bytes: 32 << 20)
    @Option(name: .customLong("spool-budget"), help: ArgumentHelp(
        "The bytes request bodies' temporary files may hold on disk, all requests together; a body that would pass it is answered 503 with Retry-After.",
        valueName: "size"))
    var spoolBudget = ByteCount(bytes: 8 << 30)
    @Option(name: .customLong("archive-limit"), help: ArgumentHelp(ArchiveLimitsArgument.help + " For PUT /rmeta and /identify?archives=true; what members hold in memory and spool comes out of --body-memory and --spool-budget.", valueName: "name=value"))
    var archiveLimit: [String] = []
    @Option(name: .customLong("max-concurrent"), help: "Requests handled at once; beyond, 503 with Retry-After.")
    var maximumConcurrentRequests = 256
    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Close a connection silent for this many seconds.", valueName: "seconds"))
    var idleTimeout = 30
    @Option(name: .customLong("header-timeout"), help: ArgumentHelp(
        "Close a connection whose client has not sent a whole request head this many seconds after connecting or after the previous response.",
        valueName: "seconds"))
    var headerTimeout = 20
    @Option(name: .customLong("body-timeout"), help: ArgumentHelp(
        "Seconds a request body may take before --min-body-rate is asked of it.", valueName: "seconds"))
    var bodyTimeout = 20
    @Option(name: .customLong("min-body-rate"), help: ArgumentHelp(
        "After --body-timeout, close a connection whose body arrives slower than this (each byte adds 1/rate seconds; 0: no rate).",
        valueName: "size/s"))
    var minimumBodyRate = ByteCount(bytes: 500)
    @Option(name: .customLong("grace-period"), help: ArgumentHelp(
        "On SIGTERM or SIGINT, how long requests in flight may take to finish before they are cancelled.", valueName: "seconds"))
    var gracePeriod = 30
    @Flag(help: "Serve the routing endpoints (POST /route, GET /apps ...).") var routing = false
    @Flag(help: "Ask Magika's model about text nothing else names, when it is installed (also UTI_MAGIKA=on); loaded before listening.")
    var model = false
    @Option(name: .customLong("token-file"), help: ArgumentHelp("The bearer token mutating requests must carry, in a file readable by the server only (needed with --routing).", valueName: "file"))
    var tokenFile: String?
    @Option(name: .customLong("types"), help: ArgumentHelp(
        "A declaration file (plist with UTExportedTypeDeclarations/UTImportedTypeDeclarations, or an app's Info.plist) to add to the database, after the directories of $UTI_TYPES_PATH. Repeatable.",
        valueName: "file"))
    var typeFiles: [String] = []
    @Option(help: ArgumentHelp("The registry root (default: $UTI_ROOT, else $XDG_DATA_HOME/uti, else ~/.local/share/uti).", valueName: "dir"))
    var root: String?
    @Option(name: .customLong("lock-timeout"), help: ArgumentHelp(
        "How long a route may wait for the registry lock another process holds; then 503 with Retry-After.", valueName: "seconds"))
    var lockTimeout = 10

    func validate() throws {
        if maximumConcurrentRequests < 1 { throw ValidationError("--max-concurrent must be at least 1.") }
        if idleTimeout < 1 { throw ValidationError("--idle-timeout must be at least 1 second.") }
        if headerTimeout < 1 { throw ValidationError("--header-timeout must be at least 1 second.") }
        if bodyTimeout < 1 { throw ValidationError("--body-timeout must be at least 1 second.") }
        if gracePeriod < 0 { throw ValidationError("--grace-period cannot be negative.") }
        if lockTimeout < 0 { throw ValidationError("--lock-timeout cannot be negative.") }
        if routing && tokenFile == nil { throw ValidationError("--routing needs --token-file: routing changes apps' data.") }
        if case .failure(let problem) = ArchiveLimitsArgument.parse(archiveLimit) { throw ValidationError(problem.description) }
    }

    func run() async throws {
        // The same extra declarations as the command line reads: UTI_TYPES_PATH's directories, then --types.
        do {
            try TypeDatabase.shared.registerUserDeclarations(files: typeFiles)
        } catch {
            FileHandle.standardError.write(Data("uti-server: \(error)\n".utf8))
            throw ExitCode(2)
        }
        LoggingSystem.bootstrap(LogfmtLogHandler.init)
        var routingSetup: UTIService.Configuration.Routing?
        if routing, let tokenFile {
            let token: [UInt8]
            do {
                token = try TokenFile.read(tokenFile)
            } catch {
                throw ValidationError(error.description)
            }
            routingSetup = .init(registry: Registry(root: root ?? Registry.defaultRoot(), lockTimeout: .seconds(lockTimeout)), token: token)
        }
        var configuration = UTIService.Configuration(host: host, port: port, maximumBodySize: Int(maximumBodySize.bytes), version: Self.version,
                                                      routing: routingSetup, maximumConcurrentRequests: maximumConcurrentRequests,
                                                      idleTimeout: .seconds(idleTimeout),
                                                      deadlines: RequestDeadlines(header: .seconds(headerTimeout), body: .seconds(bodyTimeout),
                                                                                  minimumBodyRate: Int(minimumBodyRate.bytes)),
                                                      bodyMemory: Int(bodyMemory.bytes), spoolBudget: Int(spoolBudget.bytes))
        configuration.archiveLimits = try ArchiveLimitsArgument.parse(archiveLimit).get()
        let service = UTIService(configuration: configuration, identifier: FileIdentifier(options: .init(usesModel: model ? true : nil)))
        // Every lazy part loaded before the service says it listens (libmagic, shared-mime-info, the model).
        service.prepare()
        let host = self.host
        let application = service.application { port in
            print("uti-server: listening on http://\(host):\(port)")
            fflush(nil)
        }
        // SIGTERM and SIGINT: stop accepting, let the requests in flight finish within the grace period, then
        // cancel what is left; exit status 0 either way.
        var group = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: application.logger)
        group.maximumGracefulShutdownDuration = .seconds(gracePeriod)
        try await ServiceGroup(configuration: group).run()
    }
}

/// Sizes as every size option of uti reads them (`--max-body 10M`).
extension ByteCount: ExpressibleByArgument {}
