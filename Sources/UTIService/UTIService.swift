package import Hummingbird
package import Prometheus
import HummingbirdCore
import NIOCore
import HTTPTypes
import Synchronization
package import FileIdentification
package import AppContainers
import UniformTypeIdentifiers
import UTIReports
import SystemPackage

/// The HTTP service: identification (uti's own API and Apache Tika's detector API) over HTTP.
///
/// Every handler identifies exactly as `uti identify` does (the same `FileIdentifier`, the same JSON
/// object); a body is gathered in a `SpooledBytes`, so memory does not grow with its size.
package struct UTIService: Sendable {
    package struct Configuration: Sendable {
        /// Where to listen: loopback unless told otherwise.
        package var host: String
        /// 0 picks a free port.
        package var port: Int
        /// Bodies larger than this are refused (413) while they arrive.
        package var maximumBodySize: Int
        /// The version `GET /version` reports.
        package var version: String
        /// The registry routed into, with the bearer token mutating requests must carry; `nil`: routing off.
        package var routing: Routing?
        /// Requests handled at once; beyond, 503 with `Retry-After`.
        package var maximumConcurrentRequests: Int
        /// A connection with no byte in either direction for this long is closed.
        package var idleTimeout: Duration
        /// How long a client may take over a request's head and body.
        package var deadlines: RequestDeadlines
        /// The bytes of bodies in flight kept in memory, all requests together (each keeps at most its first
        /// MiB there); the rest go to private temporary files.
        package var bodyMemory: Int
        /// The bytes those temporary files may hold together on disk; a body that would pass it is
        /// answered 503 with `Retry-After` (so is one that meets a full disk).
        package var spoolBudget: Int
        /// The limits of reading archives' members (`/rmeta`, `/identify?archives=true`); what they hold in
        /// memory and spool comes out of `bodyMemory` and `spoolBudget`, with the uploads'.
        package var archiveLimits = ArchiveLimits()

        package init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 4 << 30, version: String,
                    routing: Routing? = nil, maximumConcurrentRequests: Int = 256,
                    idleTimeout: Duration = .seconds(30), deadlines: RequestDeadlines = RequestDeadlines(),
                    bodyMemory: Int = 32 << 20, spoolBudget: Int = 8 << 30) {
            self.host = host
            self.port = port
            self.maximumBodySize = maximumBodySize
            self.version = version
            self.routing = routing
            self.maximumConcurrentRequests = maximumConcurrentRequests
            self.idleTimeout = idleTimeout
            self.deadlines = deadlines
            self.bodyMemory = bodyMemory
            self.spoolBudget = spoolBudget
        }

        /// Routing (`--routing`): the registry routed into, and the bearer token that `POST /route` and the
        /// Inbox listings must carry.
        package struct Routing: Sendable {
            package var registry: Registry
            package var token: [UInt8]

            package init(registry: Registry, token: [UInt8]) {
                self.registry = registry
                self.token = token
            }
        }
    }

    package let configuration: Configuration
    package let identifier: FileIdentifier
    /// The service's metrics, in the registry it was given; `GET /metrics` shows that registry.
    package let metrics: ServiceMetrics
    /// How bodies are gathered.
    let body: BodySpooler
    /// Tika's media types, made once.
    let tikaMimeTypes = TikaMimeTypesCache()

    /// A service; `metricsRegistry` is where its metrics are kept (a registry of its own unless one is given).
    package init(configuration: Configuration, identifier: FileIdentifier = FileIdentifier(),
                metricsRegistry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.configuration = configuration
        self.body = BodySpooler(limit: configuration.maximumBodySize, memory: ByteBudget(capacity: configuration.bodyMemory),
                                disk: ByteBudget(capacity: configuration.spoolBudget))
        self.identifier = identifier
        self.metrics = ServiceMetrics(registry: metricsRegistry)
    }

    /// The HTTP API's description (`Sources/UTIService/openapi.json`, compiled in): the one source of the
    /// routes' documentation; a test holds the router's routes and it to each other, and its version to `UTIVersion`.
    package static var openAPIDocument: [UInt8] { PackageResources.openapi_json }

    /// The routes, one controller for each concern.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        let served = ServedRoutes()
        // One stack of fixed type (each layer calls the next directly), not three layers added one by one, each
        // called through a closure of its own: the log and metrics outside, then errors made problem
        // documents, then the limit on requests at once.
        let limit = configuration.maximumConcurrentRequests
        router.addMiddleware {
            RequestLogMiddleware(metrics: metrics, routes: served)
            ProblemMiddleware(routes: served)
            ConcurrencyLimitMiddleware(limit: limit)
        }
        let archives = ArchiveController<BasicRequestContext>(identifier: identifier, body: body, metrics: metrics, limits: configuration.archiveLimits)
        let identification = IdentificationController<BasicRequestContext>(identifier: identifier, body: body, metrics: metrics, archives: archives)
        OperationsController(version: configuration.version, metrics: metrics).addRoutes(to: router)
        identification.addRoutes(to: router)
        TikaController(identification: identification, tika: tikaMimeTypes).addRoutes(to: router)
        archives.addRoutes(to: router)
        TypesController().addRoutes(to: router)
        RoutingController(routing: configuration.routing, identifier: identifier, body: body).addRoutes(to: router)
        served.record(router)
        return router
    }

    /// Loads now every part that would otherwise load at the first request that needs it, so that no request
    /// does it on an event loop: libmagic's database (a handle for each identification that may run at once:
    /// the event loops' and the blocking pools'), the shared-mime-info databases and their indexes, Magika's
    /// model where it is installed and on, Tika's media types and the types' search index. Call it before the
    /// service listens.
    package func prepare() {
        identifier.prepare(concurrency: 2 * System.coreCount + BlockingWork.modelThreads)
        _ = tikaMimeTypes.value
        _ = TypeQuery.SearchIndex.current
    }

    /// The application, listening where the configuration says; `onRunning` is told the port it got.
    package func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let deadlines = configuration.deadlines, idleTimeout = configuration.idleTimeout, maximumBodySize = configuration.maximumBodySize
        return Application(
            responder: HeadAsGetResponder(inner: router().buildResponder()),
            server: HTTPServerBuilder { responder in
                BoundedReadHTTP1Channel(
                    inner: HTTP1Channel(responder: responder, configuration: HTTP1Channel.Configuration(
                        additionalChannelHandlers: [RequestPacingHandler(deadlines: deadlines, maximumBodySize: maximumBodySize)],
                        idleTimeout: RequestPacingHandler.timeAmount(idleTimeout))),
                    maximumRead: 16 << 10)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "uti/\(configuration.version)"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }
        )
    }
}

/// `TikaMimeTypes`, made once.
final class TikaMimeTypesCache: Sendable {
    private let cached = Mutex<TikaMimeTypes?>(nil)

    var value: TikaMimeTypes {
        cached.withLock { cached in
            if let cached { return cached }
            let made = TikaMimeTypes()
            cached = made
            return made
        }
    }
}
