import Hummingbird
import HTTPTypes
import Synchronization

/// At most `limit` requests handled at once; beyond, 503 with `Retry-After` at once, rather than a queue
/// without bound.
final class ConcurrencyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int
    private let running = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard running.add(1, ordering: .relaxed).newValue <= limit else {
            running.subtract(1, ordering: .relaxed)
            var headers = HTTPFields()
            headers[.retryAfter] = "1"
            throw HTTPError(.serviceUnavailable, headers: headers, message: "more than \(limit) requests at once; try again")
        }
        defer { running.subtract(1, ordering: .relaxed) }
        return try await next(request, context)
    }
}
