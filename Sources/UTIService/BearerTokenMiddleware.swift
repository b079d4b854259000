import Hummingbird
import HTTPTypes

/// Authorization for the routing group (`POST /route`, `GET /apps/{bundleID}/inbox`): `Authorization:
/// Bearer <token>` with the server's token, compared in time that does not depend on where it differs.
/// 401 with `WWW-Authenticate: Bearer` without one, 403 with a wrong one; either way before the body is read.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try authorize(request.headers[.authorization])
        return try await next(request, context)
    }

    func authorize(_ header: String?) throws(HTTPError) {
        guard let header, header.utf8.count >= 7, header.prefix(7).lowercased() == "bearer " else {
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
}
