import Hummingbird
import UTIReports

/// Every error as a problem document (RFC 9457, `application/problem+json`): the status, its title and a
/// message saying what was wrong. An error that is not an HTTP one is a 500 whose detail is not shown.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The service's routes, to tell a wrong method (405) from an unknown path (404).
    let routes: [(method: HTTPRequest.Method, path: String)]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && error.body == nil {
            let allowed = routes.filter { Self.matches($0.path, request.uri.path) }.map(\.method.rawValue)
            guard !allowed.isEmpty else { return Self.problem(.notFound, detail: "no such route: \(request.uri.path)", headers: [:]) }
            var headers = HTTPFields()
            headers[.allow] = allowed.joined(separator: ", ")
            return Self.problem(.methodNotAllowed, detail: "\(request.method.rawValue) is not allowed here; \(allowed.joined(separator: ", ")) are", headers: headers)
        } catch let error as HTTPError {
            return Self.problem(error.status, detail: error.body, headers: error.headers)
        } catch let error as any HTTPResponseError {
            return Self.problem(error.status, detail: nil, headers: [:])
        } catch {
            context.logger.error("unexpected error: \(error)")
            return Self.problem(.internalServerError, detail: "an internal error; the server's log says more", headers: [:])
        }
    }

    /// Whether `path` matches a route's pattern, `{name}` standing for one segment.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let patternParts = pattern.split(separator: "/"), pathParts = path.split(separator: "/")
        guard patternParts.count == pathParts.count else { return false }
        return zip(patternParts, pathParts).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }

    static func problem(_ status: HTTPResponse.Status, detail: String?, headers: HTTPFields) -> Response {
        var members: [(String, JSONValue)] = [("type", "about:blank"), ("title", .string(status.reasonPhrase)), ("status", .integer(status.code))]
        if let detail { members.append(("detail", .string(detail))) }
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(members).rendered + "\n")))
    }
}
