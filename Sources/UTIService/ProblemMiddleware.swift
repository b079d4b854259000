import AppContainers
import DocumentRouting
import FileIdentification
import Hummingbird
import NIOHTTP1
import SystemPackage
import Synchronization
import UniformTypeIdentifiers
import UTIReports

/// Every error as a problem document (RFC 9457, `application/problem+json`): the status, its title and a
/// message saying what was wrong. The one place where the libraries' errors get their HTTP meaning
/// (`status(of:)`): handlers throw them as they come. Any other error is a 500 whose detail is not shown.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The router's routes, to tell a wrong method (405) from an unknown path (404).
    let routes: ServedRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let flaw = Self.flaw(inTarget: request.uri.string) {
            return Self.problem(.badRequest, detail: "the request target \(flaw)", headers: [:])
        }
        do {
            do {
                return try await next(request, context)
            } catch {
                guard let translated = Self.status(of: error) else { throw error }
                throw translated
            }
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            let allowed = routes.methods(matching: request.uri.path)
            if allowed.isEmpty, let endpoint = Self.tikaEndpoint(request.uri.path) {
                return Self.problem(.notImplemented, detail: "\(endpoint) is Apache Tika's, which uti does not offer: uti serves Tika's detection only "
                                    + "(PUT /detect/stream, PUT /rmeta and /rmeta/ignore for archives' members, GET /mime-types), and its own identification (PUT /identify)", headers: [:])
            }
            guard !allowed.isEmpty else { return Self.problem(.notFound, detail: "no such route: \(request.uri.path)", headers: [:]) }
            var headers = HTTPFields()
            headers[.allow] = allowed.joined(separator: ", ")
            return Self.problem(.methodNotAllowed, detail: "\(request.method.rawValue) is not allowed here; \(allowed.joined(separator: ", ")) are", headers: headers)
        } catch let error as HTTPError {
            return Self.problem(error.status, detail: error.body, headers: error.headers)
        } catch let error as HTTPParserError {
            // A body that broke off (the client went away, or was cut off for being too slow) or bytes that are
            // not HTTP: the client's doing, whether or not it is still there to read the answer.
            return Self.problem(.badRequest, detail: "the request is malformed or ended early (\(error))", headers: [:])
        } catch let error as any HTTPResponseError {
            return Self.problem(error.status, detail: nil, headers: [:])
        } catch {
            context.logger.error("unexpected error: \(error)")
            return Self.problem(.internalServerError, detail: "an internal error; the server's log says more", headers: [:])
        }
    }

    /// Apache Tika server's endpoints other than detection (text and metadata extraction, language, unpacking,
    /// translation, its parsers' and detectors' lists): `/rmeta/text` names `/rmeta`, so that a Tika client
    /// pointed at uti fails with a message that says why; `nil` for any other path.
    static func tikaEndpoint(_ path: String) -> String? {
        let first = path.split(separator: "/").first.map(String.init) ?? ""
        return ["tika", "rmeta", "meta", "language", "unpack", "translate", "detectors", "parsers"].contains(first) ? "/" + first : nil
    }

    /// What a domain error means in HTTP; `nil` for an error that is not one of the libraries'.
    static func status(of error: any Error) -> HTTPError? {
        switch error {
        case let error as IdentificationError:
            return HTTPError(.unprocessableContent, message: error.message)
        case let error as Multipart.Failure:
            return error.isOutOfSpace ? BodySpooler.outOfSpace : HTTPError(.badRequest, message: "malformed multipart body: \(error.message)")
        case let error as TypeQuery.Failure:
            return HTTPError(.badRequest, message: error.message)
        case let error as RoutingError:
            switch error.reason.kind {
            case .noHandler, .targetDoesNotOpen: return HTTPError(.unprocessableContent, message: error.message)
            case .targetNotRegistered: return HTTPError(.notFound, message: error.message)
            case .delivery:
                if let delivery = error.reason.deliveryError { return status(of: delivery) }
            default: break
            }
            return HTTPError(.internalServerError, message: error.message)
        case let error as DeliveryError:
            if let registry = error.reason.registryError { return status(of: registry) }
            if error.reason.kind == .refusedName { return HTTPError(.badRequest, message: error.message) }
            return HTTPError(.internalServerError, message: error.message)
        case let error as RegistryError:
            switch error.reason.kind {
            case .invalidBundleIdentifier: return HTTPError(.badRequest, message: error.reason.description)
            case .notRegistered: return HTTPError(.notFound, message: error.reason.description)
            case .lockTimeout:
                var headers = HTTPFields()
                headers[.retryAfter] = "5"
                return HTTPError(.serviceUnavailable, headers: headers, message: "the registry is busy: \(error.reason); try again shortly")
            default: return HTTPError(.internalServerError, message: "the registry cannot be read: \(error.reason)")
            }
        case let error as Errno:
            return error == .noSpace ? BodySpooler.outOfSpace : nil
        default:
            return nil
        }
    }

    /// What is wrong with a request target's percent-encoding: a `%` not followed by two hexadecimal digits,
    /// or escapes that decode to bytes that are not UTF-8 (a name or identifier would be read lossily).
    static func flaw(inTarget target: String) -> String? {
        let bytes = Array(target.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = PercentEncoding.hexValue(bytes[index + 1]),
                      let low = PercentEncoding.hexValue(bytes[index + 2]) else {
                    return "has a '%' not followed by two hexadecimal digits"
                }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self) == nil ? "has percent-escapes that are not UTF-8" : nil
    }

    static func problem(_ status: HTTPResponse.Status, detail: String?, headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: document(status, detail: detail))))
    }

    /// The problem document's bytes, with a final line break.
    static func document(_ status: HTTPResponse.Status, detail: String?) -> [UInt8] {
        var members: [(String, JSONValue)] = [("type", "about:blank"), ("title", .string(status.reasonPhrase)), ("status", .integer(status.code))]
        if let detail { members.append(("detail", .string(detail))) }
        var bytes = JSONValue.object(members).renderedUTF8
        bytes.append(0x0A)
        return bytes
    }
}

/// The routes a router serves, as Hummingbird lists them (`Router.routes`), read once its controllers have
/// registered them: the one list of the service's routes, which `ProblemMiddleware` (added before them, as
/// middleware must be) asks when a path has no route for the request's method.
final class ServedRoutes: Sendable {
    private let routes = Mutex<[(method: String, path: String)]>([])

    /// Takes the router's routes, after every controller has registered its own.
    func record<Context>(_ router: Router<Context>) {
        let served = router.routes.map { (method: $0.method.rawValue, path: $0.path.description) }
        routes.withLock { $0 = served }
    }

    /// The methods served at `path` (`{parameter}` components match any one component), in the router's order,
    /// HEAD after GET (`HeadAsGetResponder` answers it).
    func methods(matching path: String) -> [String] {
        routes.withLock { routes in routes.filter { Self.matches($0.path, path) }.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] } }
    }

    /// The route pattern `path` matches, whatever the method (`/types/{identifier}`); `nil` for none.
    func pattern(matching path: String) -> String? {
        routes.withLock { routes in routes.first { Self.matches($0.path, path) }?.path }
    }

    /// Whether `path` matches a route's pattern, `{name}` standing for one segment.
    private static func matches(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/"), pathParts = path.split(separator: "/")
        guard patternParts.count == pathParts.count else { return false }
        return zip(patternParts, pathParts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}

/// HEAD wherever GET is served (`curl -I`, load balancers and uptime checkers send it): the request is answered
/// as its GET would be, headers and all, without the body (its length kept in Content-Length). Wraps the
/// router, so that a HEAD finds the GET route (and is logged and counted as that GET).
struct HeadAsGetResponder<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        guard request.method == .head else { return try await inner.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
        // A body that writes nothing but declares the GET's length, which the server puts in Content-Length.
        response.body = ResponseBody(contentLength: response.body.contentLength) { _ in }
        return response
    }
}
