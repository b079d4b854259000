import Hummingbird
import HTTPTypes
import Logging
import Metrics
import Synchronization
import UniformTypeIdentifiers

/// One structured log line per request (method, route, status, bytes in and out, duration, request id)
/// and the request metrics: requests by route and status, latency, bytes. Headers are never logged (a
/// bearer token stays out of the log).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // The bytes of the body as they are read (a chunked body declares no length).
        let received = ByteCounter()
        var request = request
        request.body = RequestBody(asyncSequence: CountingBody(base: request.body, counter: received))
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let route = context.endpointPath ?? "unmatched"
        let status = response.status.code
        let bytesIn = received.value
        let bytesOut = response.body.contentLength ?? 0
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue), "route": .string(route), "status": .stringConvertible(status),
            "bytesIn": .stringConvertible(bytesIn), "bytesOut": .stringConvertible(bytesOut),
            "durationMs": .string(String(format: "%.3f", Double(nanoseconds) / 1e6)), "requestID": .string(context.id),
        ])
        let metrics = MetricHandles.shared.route(route, status: Int(status))
        metrics.requests.increment()
        metrics.duration.recordNanoseconds(nanoseconds)
        metrics.bytesIn.increment(by: bytesIn)
        metrics.bytesOut.increment(by: bytesOut)
        return response
    }
}

/// The top-level family an identified type belongs to, for the metric of types identified.
enum TypeFamily {
    static let families: [(name: String, type: UTType)] = [
        ("image", .image), ("audio", .audio), ("video", .movie), ("font", .font), ("archive", .archive),
        ("executable", .executable), ("document", .compositeContent), ("text", .text),
    ]

    static func name(of type: UTType) -> String {
        families.first { type.conforms(to: $0.type) }?.name ?? "data"
    }

    static func count(_ type: UTType) {
        MetricHandles.shared.identified(family: name(of: type)).increment()
    }
}

/// The metric objects of each route, status and family, made once: asking the metrics factory for them on
/// every request costs a lookup under its lock for each.
final class MetricHandles: Sendable {
    static let shared = MetricHandles()

    struct Route: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
        let bytesIn: Counter
        let bytesOut: Counter
    }

    private struct Key: Hashable {
        let route: String
        let status: Int
    }

    private let routes = Mutex<[Key: Route]>([:])
    private let families = Mutex<[String: Counter]>([:])

    func route(_ route: String, status: Int) -> Route {
        routes.withLock { cache in
            if let handles = cache[Key(route: route, status: status)] { return handles }
            let handles = Route(
                requests: Counter(label: "uti_http_requests_total", dimensions: [("route", route), ("status", String(status))]),
                duration: Metrics.Timer(label: "uti_http_request_duration_seconds", dimensions: [("route", route)]),
                bytesIn: Counter(label: "uti_http_request_bytes_total", dimensions: [("route", route)]),
                bytesOut: Counter(label: "uti_http_response_bytes_total", dimensions: [("route", route)]))
            cache[Key(route: route, status: status)] = handles
            return handles
        }
    }

    func identified(family: String) -> Counter {
        families.withLock { cache in
            if let counter = cache[family] { return counter }
            let counter = Counter(label: "uti_identified_total", dimensions: [("family", family)])
            cache[family] = counter
            return counter
        }
    }
}

/// Bytes counted as they pass.
final class ByteCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
}

/// A request body that counts its bytes as the handler reads them.
struct CountingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let counter: ByteCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let counter: ByteCounter

        mutating func next() async throws -> ByteBuffer? {
            let buffer = try await base.next()
            if let buffer { counter.add(buffer.readableBytes) }
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), counter: counter)
    }
}
