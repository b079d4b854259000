public import Hummingbird
public import Prometheus
import HummingbirdCore
import HTTPTypes
import Synchronization
public import FileIdentification
public import DocumentRouting
import UniformTypeIdentifiers
import UTIReports
import SystemPackage

/// The HTTP service: identification (uti's own API and Apache Tika's detector API) over HTTP.
///
/// Every handler identifies exactly as `uti identify` does (the same `FileIdentifier`, the same JSON
/// object); a body is gathered in a `SpooledBytes`, so memory does not grow with its size.
public struct UTIService: Sendable {
    public struct Configuration: Sendable {
        /// Where to listen: loopback unless told otherwise.
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        /// Bodies larger than this are refused (413) while they arrive.
        public var maximumBodySize: Int
        /// The version `GET /version` reports.
        public var version: String
        /// The registry routed into, with the bearer token mutating requests must carry; `nil`: routing off.
        public var routing: (registry: Registry, token: [UInt8])?
        /// Requests handled at once; beyond, 503 with `Retry-After`.
        public var maximumConcurrentRequests: Int
        /// A connection with no byte in either direction for this long is closed.
        public var idleTimeout: Duration
        /// How long a client may take over a request's head and body.
        public var deadlines: RequestDeadlines
        /// The bytes of bodies in flight kept in memory, all requests together (each keeps at most its first
        /// MiB there); the rest go to private temporary files.
        public var bodyMemory: Int
        /// The bytes those temporary files may hold together on disk; a body that would pass it is
        /// answered 503 with `Retry-After` (so is one that meets a full disk).
        public var spoolBudget: Int

        public init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 4 << 30, version: String,
                    routing: (registry: Registry, token: [UInt8])? = nil, maximumConcurrentRequests: Int = 256,
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
    }

    public let configuration: Configuration
    public let identifier: FileIdentifier
    /// Where the metrics are collected, for `GET /metrics`; bootstrap swift-metrics with a
    /// `PrometheusMetricsFactory` on it (as `uti-server` does) for the counters to land there.
    public let metricsRegistry: PrometheusCollectorRegistry
    /// What bodies in flight may keep in memory together.
    let bodyMemory: ByteBudget
    /// How bodies are gathered.
    let body: BodySpooler

    public init(configuration: Configuration, identifier: FileIdentifier = FileIdentifier(),
                metricsRegistry: PrometheusCollectorRegistry = PrometheusMetricsFactory.defaultRegistry) {
        self.configuration = configuration
        self.bodyMemory = ByteBudget(capacity: configuration.bodyMemory)
        self.body = BodySpooler(limit: configuration.maximumBodySize, memory: bodyMemory, disk: ByteBudget(capacity: configuration.spoolBudget))
        self.identifier = identifier
        self.metricsRegistry = metricsRegistry
    }

    /// The HTTP API's description (`Sources/UTIService/openapi.json`, compiled in): the one source of the
    /// routes' documentation; a test holds `routes` and it to each other, and its version to `UTIVersion`.
    package static var openAPIDocument: [UInt8] { PackageResources.openapi_json }

    /// Every route the service has, as (method, path pattern): what the router registers below, what a
    /// wrong method is checked against (405 with `Allow`), and what the OpenAPI document must describe.
    package static let routes: [(method: HTTPRequest.Method, path: String)] = [
        (.get, "/healthz"), (.get, "/version"), (.put, "/identify"), (.post, "/identify"), (.put, "/detect/stream"),
        (.get, "/types/{identifier}"), (.get, "/types"), (.get, "/conforms"), (.get, "/openapi.json"), (.get, "/metrics"),
        (.post, "/route"), (.get, "/apps"), (.get, "/apps/{bundleID}"), (.get, "/apps/{bundleID}/inbox"),
        (.get, "/mime-types"), (.get, "/mime-types/{type}/{subtype}"),
    ]

    /// The routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ProblemMiddleware(routes: Self.routes))
        router.add(middleware: ConcurrencyLimitMiddleware(limit: configuration.maximumConcurrentRequests))
        router.get("healthz") { _, _ in "ok\n" }
        router.get("version") { _, _ in "uti \(configuration.version)\n" }
        router.put("identify") { request, context in try await identify(request, context: context) }
        router.post("identify") { request, context in try await identify(request, context: context) }
        router.put("detect/stream") { request, context in try await detect(request, context: context) }
        // Made once, at the first request that needs them: the database does not change while serving.
        let tika = TikaMimeTypesCache()
        router.get("mime-types") { request, _ in tika.value.list(plainText: acceptsPlainText(request)) }
        router.get("mime-types/:type/:subtype") { _, context in
            try tika.value.details(try context.parameters.require("type") + "/" + context.parameters.require("subtype"))
        }
        router.get("types/:identifier") { _, context in try typeInfo(context.parameters.require("identifier")) }
        router.get("types") { request, _ in try types(request) }
        router.get("conforms") { request, _ in try conforms(request) }
        if let routing = configuration.routing {
            RoutingEndpoints(registry: routing.registry, token: routing.token, identifier: identifier, body: body).add(to: router)
        } else {
            // Documented routes that answer, with routing off, what is wrong.
            for (method, path) in [(HTTPRequest.Method.post, "route"), (.get, "apps"), (.get, "apps/:bundleID"), (.get, "apps/:bundleID/inbox")] {
                router.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw HTTPError(.notFound, message: "routing is off; start the server with --routing")
                }
            }
        }
        router.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: ByteBuffer(bytes: metricsRegistry.emitToBuffer())))
        }
        let document = ByteBuffer(bytes: Self.openAPIDocument)
        router.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document))
        }
        return router
    }

    /// The application, listening where the configuration says; `onRunning` is told the port it got.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let deadlines = configuration.deadlines, idleTimeout = configuration.idleTimeout
        return Application(
            router: router(),
            server: HTTPServerBuilder { responder in
                BoundedReadHTTP1Channel(
                    inner: HTTP1Channel(responder: responder, configuration: HTTP1Channel.Configuration(
                        additionalChannelHandlers: [RequestDeadlineHandler(deadlines: deadlines)],
                        idleTimeout: RequestDeadlineHandler.timeAmount(idleTimeout))),
                    maximumRead: 16 << 10)
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "uti/\(configuration.version)"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }
        )
    }

    // MARK: Handlers

    /// `PUT`/`POST /identify`: the body is the file; its name from `?name=`, `Content-Disposition`, or
    /// Tika's `File-Name` / `resourceName`. Answers `uti identify --json`'s object, or with `Accept:
    /// text/plain` the MIME type alone.
    func identify(_ request: Request, context: BasicRequestContext) async throws -> Response {
        if let contentType = request.headers[.contentType], let boundary = Multipart.boundary(of: contentType) {
            return try await identifyParts(request, boundary: boundary)
        }
        let name = uploadName(request)
        let identification = try await identification(of: request, named: name)
        if acceptsPlainText(request) { return text(identification.mimeType + "\n") }
        return json(IdentificationReport(identification, path: name ?? "-").json)
    }

    /// `multipart/form-data` with several files: one object per part, in order, as a JSON array (or, with
    /// `Accept: text/plain`, one MIME type per line).
    func identifyParts(_ request: Request, boundary: String) async throws -> Response {
        let body = HandedOver(value: try await spool(request))
        let (bodyMemory, disk, identifier) = (self.bodyMemory, self.body.disk, self.identifier)
        let identifications = try await BlockingWork.identification.runIfActive { () throws -> [(Identification, String?)] in
            let parts: [Multipart.Part]
            do throws(Multipart.Failure) {
                parts = try Multipart.parts(of: body.value, boundary: boundary, budget: bodyMemory, fileBudget: disk)
            } catch {
                if error.isOutOfSpace { throw BodySpooler.outOfSpace }
                throw HTTPError(.badRequest, message: "malformed multipart body: \(error.message)")
            }
            var identifications: [(Identification, String?)] = []
            for part in parts {
                let name = part.filename
                do throws(IdentificationError) {
                    let identification = try identifier.identify(part.content, filename: name)
                    TypeFamily.count(identification.type)
                    identifications.append((identification, name))
                } catch {
                    throw HTTPError(.unprocessableContent, message: error.message)
                }
            }
            return identifications
        }
        if acceptsPlainText(request) { return text(identifications.map { $0.0.mimeType + "\n" }.joined()) }
        return json(.array(identifications.map { IdentificationReport($0.0, path: $0.1 ?? "-").json }))
    }

    /// Tika's `PUT /detect/stream`: the MIME type as `text/plain`.
    func detect(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let identification = try await identification(of: request, named: uploadName(request))
        return text(identification.mimeType)
    }

    private func spool(_ request: Request) async throws -> SpooledBytes {
        try await body.spool(request)
    }

    private func identification(of request: Request, named name: String?) async throws -> Identification {
        let spool = HandedOver(value: try await spool(request))
        let identifier = self.identifier
        @Sendable func identify() throws -> Identification {
            do throws(IdentificationError) {
                let identification = try identifier.identify(spool.value, filename: name)
                TypeFamily.count(identification.type)
                return identification
            } catch {
                throw HTTPError(.unprocessableContent, message: error.message)
            }
        }
        // A small body held in memory is identified where it arrived: no file to read, and its sample bounds
        // the work (microseconds for most; the hop to the pool and back would cost more than that). Any
        // other goes to the blocking pool.
        if !spool.value.isSpooledToFile && spool.value.count <= Self.inlineIdentificationLimit { return try identify() }
        return try await BlockingWork.identification.runIfActive { try identify() }
    }

    /// The largest body identified on the event loop that received it (when it is in memory): 16 KiB.
    static let inlineIdentificationLimit = 16 << 10

    /// `GET /types/{identifier}`: `uti info --json`'s object; 404 for an identifier nobody declares (a
    /// dynamic identifier is described, as `uti info` describes it).
    func typeInfo(_ identifier: String) throws -> Response {
        guard let type = UTType(identifier), type.isDeclared || type.isDynamic else {
            throw HTTPError(.notFound, message: "unknown type identifier '\(identifier)'")
        }
        return json(TypeReport(type).json)
    }

    /// `GET /types?extension=&mime=&conformingTo=&q=`: `uti types --json`'s objects, as an array.
    func types(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        for name in ["extension", "mime", "conformingTo"] where query.get(name)?.isEmpty == true {
            throw HTTPError(.badRequest, message: "\(name)= needs a value")
        }
        if let conformingTo = query.get("conformingTo"), UTType(conformingTo) == nil {
            throw HTTPError(.notFound, message: "unknown type identifier '\(conformingTo)'")
        }
        let words = query.get("q").map { $0.split(separator: " ").map(String.init) } ?? []
        do {
            let types = try TypeQuery.types(filenameExtension: query.get("extension"), mimeType: query.get("mime"),
                                            conformingTo: query.get("conformingTo"), words: words)
            return json(.array(types.map { TypeReport($0).json }))
        } catch {
            throw HTTPError(.badRequest, message: error.message)
        }
    }

    /// `GET /conforms?type=A&to=B`.
    func conforms(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        guard let identifier = query.get("type"), let supertypeIdentifier = query.get("to") else {
            throw HTTPError(.badRequest, message: "give both type= and to=")
        }
        guard let type = UTType(identifier) else { throw HTTPError(.notFound, message: "unknown type identifier '\(identifier)'") }
        guard let supertype = UTType(supertypeIdentifier) else {
            throw HTTPError(.notFound, message: "unknown type identifier '\(supertypeIdentifier)'")
        }
        return json(.object([("type", .string(type.identifier)), ("to", .string(supertype.identifier)),
                             ("conforms", .boolean(type.conforms(to: supertype)))]))
    }

    private func json(_ value: JSONValue) -> Response {
        var bytes = value.renderedUTF8
        bytes.append(0x0A)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The name of the uploaded file, as the client gave it.
    func uploadName(_ request: Request) -> String? {
        if let name = request.uri.queryParameters.get("name"), !name.isEmpty { return name }
        if let disposition = request.headers[.contentDisposition], let name = UploadName.fromContentDisposition(disposition) { return name }
        for header in ["File-Name", "resourceName"] {
            if let field = HTTPField.Name(header), let value = request.headers[field], !value.isEmpty { return value }
        }
        return nil
    }

    private func acceptsPlainText(_ request: Request) -> Bool {
        guard let accept = request.headers[.accept] else { return false }
        return accept.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: " ") == "text/plain" }
    }

    private func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
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
