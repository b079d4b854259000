import AppContainers
import DocumentRouting
import FileIdentification
import Hummingbird
import HTTPTypes
import Synchronization
import UTIReports
import SystemPackage

/// The routing endpoints (`--routing`): `POST /route` delivers the body to the app that handles it, as
/// `uti route -` does; `GET /apps`, `/apps/{bundleID}`, `/apps/{bundleID}/inbox` read the registry.
/// Every one is behind `BearerTokenMiddleware`: a route changes apps' data, the apps' records hold their
/// containers' absolute paths, and an Inbox listing the names of their documents. A `GET` changes nothing.
/// With routing off, each answers 404 saying so.
struct RoutingController<Context: RequestContext>: Sendable {
    let routing: UTIService.Configuration.Routing?
    let identifier: FileIdentifier
    let body: BodySpooler

    func addRoutes(to routes: some RouterMethods<Context>) {
        guard let routing else {
            for (method, path) in [(HTTPRequest.Method.post, "route"), (.get, "apps"), (.get, "apps/:bundleID"), (.get, "apps/:bundleID/inbox")] {
                routes.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw HTTPError(.notFound, message: "routing is off; start the server with --routing")
                }
            }
            return
        }
        let handlers = RoutingHandlers(registry: routing.registry, identifier: identifier, body: body)
        // Off the event loops (BlockingWork): what takes the registry lock on the registry's pool; reads of
        // its state file, which need no lock, on the other, so that they never wait behind the lock.
        let authorized = routes.group().add(middleware: BearerTokenMiddleware(token: routing.token))
        authorized.get("apps") { _, _ in try await BlockingWork.identification.runIfActive { try handlers.apps() } }
        authorized.get("apps/:bundleID") { _, context in
            let bundleIdentifier = try context.parameters.require("bundleID")
            return try await BlockingWork.identification.runIfActive { try handlers.app(bundleIdentifier) }
        }
        authorized.post("route") { request, _ in try await handlers.route(request) }
        authorized.get("apps/:bundleID/inbox") { _, context in
            let bundleIdentifier = try context.parameters.require("bundleID")
            return try await BlockingWork.registry.runIfActive { try handlers.inbox(bundleIdentifier) }
        }
    }
}

/// What the routing endpoints do, over one registry; domain errors are thrown as they are (ProblemMiddleware
/// says what each means in HTTP).
final class RoutingHandlers: Sendable {
    let registry: Registry
    let identifier: FileIdentifier
    let body: BodySpooler
    /// The router, made again when the registry's state file changes.
    private let cache = Mutex<(stamp: [Int64], router: DocumentRouter)?>(nil)

    init(registry: Registry, identifier: FileIdentifier, body: BodySpooler) {
        self.registry = registry
        self.identifier = identifier
        self.body = body
    }

    /// The router over the registry as it is now: made again only when `registry.json` changed.
    func currentRouter() throws(RegistryError) -> DocumentRouter {
        let stamp: [Int64] = (try? Stat(FilePath(registry.root + "/registry.json"))).map { status in
            [Int64(status.inode.rawValue), status.size, Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)]
        } ?? []
        return try cache.withLock { cached throws(RegistryError) -> DocumentRouter in
            if let cached, cached.stamp == stamp { return cached.router }
            let router = try DocumentRouter(registry: registry, identifier: identifier)
            cached = (stamp, router)
            return router
        }
    }

    func route(_ request: Request) async throws -> Response {
        let query = Responses.Query(request.uri)
        guard let name = query.get("name"), !name.isEmpty else { throw HTTPError(.badRequest, message: "give the file's name: ?name=") }
        let spooled = HandedOver(value: try await body.spool(request))
        let target = query.get("to")
        let outcome = try await BlockingWork.registry.runIfActive { () throws -> DocumentRouter.Outcome in
            try self.currentRouter().route(contents: spooled.value, named: RawFilePath(name), options: .init(target: target))
        }
        return Responses.json(.object([
            ("identifier", .string(outcome.type.identifier)), ("mimeType", .string(outcome.identification.mimeType)),
            ("handler", .string(outcome.handler)), ("name", JSONValue(outcome.deliveredName?.dataText)),
            ("delivered", .string(outcome.location.dataText)),
        ]), status: .created)
    }

    func apps() throws -> Response {
        Responses.json(.array(try registry.snapshot().apps.map { AppReport($0, registry: registry).json }))
    }

    func app(_ bundleIdentifier: String) throws -> Response {
        Responses.json(AppReport(try registry.app(bundleIdentifier), registry: registry).json)
    }

    func inbox(_ bundleIdentifier: String) throws -> Response {
        let entries = try Inbox(registry: registry, app: try registry.app(bundleIdentifier)).list()
        return Responses.json(.array(entries.map { .object([("name", .string($0.name.dataText)), ("size", .integer($0.size))]) }))
    }
}
