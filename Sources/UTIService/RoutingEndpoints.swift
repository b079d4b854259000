import DocumentRouting
import FileIdentification
import Hummingbird
import HTTPTypes
import Synchronization
import UTIReports
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The routing endpoints (`--routing`): `POST /route` delivers the body to the app that handles it, as
/// `uti route -` does; `GET /apps`, `/apps/{bundleID}`, `/apps/{bundleID}/inbox` read the registry.
/// `POST /route` and the Inbox listing (the names of an app's documents) need `Authorization: Bearer
/// <token>`: 401 without, 403 with a wrong one (compared in constant time). A `GET` changes nothing.
final class RoutingEndpoints: Sendable {
    let registry: Registry
    let token: [UInt8]
    let identifier: FileIdentifier
    let body: BodySpooler
    /// The router, made again when the registry's state file changes.
    private let cache = Mutex<(stamp: [Int64], router: DocumentRouter)?>(nil)

    init(registry: Registry, token: [UInt8], identifier: FileIdentifier, body: BodySpooler) {
        self.registry = registry
        self.token = token
        self.identifier = identifier
        self.body = body
    }

    func add(to router: Router<BasicRequestContext>) {
        // Off the event loops (BlockingWork): what takes the registry lock on the registry's pool; reads of
        // its state file, which need no lock, on the other, so that they never wait behind the lock.
        router.post("route") { request, _ in try await self.route(request) }
        router.get("apps") { _, _ in try await BlockingWork.identification.runIfActive { try self.apps() } }
        router.get("apps/:bundleID") { _, context in
            let bundleIdentifier = try context.parameters.require("bundleID")
            return try await BlockingWork.identification.runIfActive { try self.app(bundleIdentifier) }
        }
        router.get("apps/:bundleID/inbox") { request, context in
            try self.authorize(request)
            let bundleIdentifier = try context.parameters.require("bundleID")
            return try await BlockingWork.registry.runIfActive { try self.inbox(bundleIdentifier) }
        }
    }

    /// 503 with `Retry-After` when another process held the registry lock past `--lock-timeout`.
    static func lockTimeout(_ error: RoutingError) -> HTTPError? {
        let registryError = error.reason.deliveryError?.reason.registryError
        guard registryError?.reason.kind == .lockTimeout else { return nil }
        var headers = HTTPFields()
        headers[.retryAfter] = "5"
        return HTTPError(.serviceUnavailable, headers: headers, message: "the registry is busy: \(registryError?.reason.description ?? "locked"); try again shortly")
    }

    // MARK: Authorization

    /// Checks the bearer token, in time that does not depend on where it differs.
    func authorize(_ request: Request) throws {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer"
            throw HTTPError(.unauthorized, headers: headers, message: "this endpoint needs Authorization: Bearer <token>")
        }
        let given = Array(header.utf8.dropFirst(7))
        var difference = given.count ^ token.count
        for index in 0..<token.count {
            difference |= Int(token[index] ^ (index < given.count ? given[index] : 0))
        }
        guard difference == 0 else { throw HTTPError(.forbidden, message: "the token is not the server's") }
    }

    // MARK: Handlers

    /// The router over the registry as it is now: made again only when `registry.json` changed.
    func currentRouter() throws -> DocumentRouter {
        var status = stat()
        let stamp: [Int64] = stat(registry.root + "/registry.json", &status) == 0
            ? [Int64(status.st_ino), Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)] : []
        return try cache.withLock { cached throws -> DocumentRouter in
            if let cached, cached.stamp == stamp { return cached.router }
            do throws(RegistryError) {
                let router = try DocumentRouter(registry: registry, identifier: identifier)
                cached = (stamp, router)
                return router
            } catch {
                throw HTTPError(.internalServerError, message: "the registry cannot be read: \(error.reason)")
            }
        }
    }

    func route(_ request: Request) async throws -> Response {
        try authorize(request)
        let query = request.uri.queryParameters
        guard let name = query.get("name"), !name.isEmpty else { throw HTTPError(.badRequest, message: "give the file's name: ?name=") }
        let spool = HandedOver(value: try await body.spool(request))
        let target = query.get("to")
        let outcome = try await BlockingWork.registry.runIfActive { () throws -> DocumentRouter.Outcome in
            let router = try self.currentRouter()
            if let target, !router.isRegistered(target) {
                throw HTTPError(.notFound, message: "'\(target)' is not registered")
            }
            do throws(RoutingError) {
                return try router.route(spooled: spool.value, named: RawFilePath(name), options: .init(target: target))
            } catch {
                if let busy = Self.lockTimeout(error) { throw busy }
                switch error.reason.kind {
                case .noHandler, .targetDoesNotOpen: throw HTTPError(.unprocessableContent, message: error.message)
                case .delivery where error.reason.deliveryError?.reason.kind == .refusedName: throw HTTPError(.badRequest, message: error.message)
                default: throw HTTPError(.internalServerError, message: error.message)
                }
            }
        }
        let body = JSONValue.object([
            ("identifier", .string(outcome.type.identifier)), ("mimeType", .string(outcome.identification.mimeType)),
            ("handler", .string(outcome.handler)), ("name", JSONValue(outcome.deliveredName?.dataText)),
            ("delivered", .string(outcome.location.dataText)),
        ]).rendered + "\n"
        return Response(status: .created, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    func apps() throws -> Response {
        let snapshot: Registry.Snapshot
        do {
            snapshot = try registry.snapshot()
        } catch {
            throw HTTPError(.internalServerError, message: "the registry cannot be read: \(error.reason)")
        }
        return json(.array(snapshot.apps.map { AppReport($0, registry: registry).json }))
    }

    func app(_ bundleIdentifier: String) throws -> Response {
        json(AppReport(try registeredApp(bundleIdentifier), registry: registry).json)
    }

    func inbox(_ bundleIdentifier: String) throws -> Response {
        let app = try registeredApp(bundleIdentifier)
        do {
            let entries = try Inbox(registry: registry, app: app).list()
            return json(.array(entries.map { .object([("name", .string($0.name.dataText)), ("size", .integer($0.size))]) }))
        } catch {
            throw HTTPError(.internalServerError, message: error.description)
        }
    }

    private func registeredApp(_ bundleIdentifier: String) throws -> Registry.RegisteredApp {
        do {
            return try registry.app(bundleIdentifier)
        } catch {
            switch error.reason.kind {
            case .invalidBundleIdentifier: throw HTTPError(.badRequest, message: error.reason.description)
            case .notRegistered: throw HTTPError(.notFound, message: error.reason.description)
            default: throw HTTPError(.internalServerError, message: "the registry cannot be read: \(error.reason)")
            }
        }
    }

    private func json(_ value: JSONValue) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: value.rendered + "\n")))
    }
}
