import Hummingbird
import HTTPTypes
import Logging
package import Prometheus
import Synchronization
import UniformTypeIdentifiers

/// One structured log line per request (method, route, status, bytes in and out, duration, request id)
/// and the request metrics: requests by route and status, latency, bytes. Headers are never logged (a
/// bearer token stays out of the log).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics
    /// The routes, to count a wrong method (405) under the route it was sent to.
    let routes: ServedRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        // The bytes of the body as they are read (a chunked body declares no length): every reader of a body
        // (`BodySpooler`) adds what it reads to the request's counter. (Wrapping the body in a counting
        // sequence instead cost a copy of the request and a type-erased iterator: a twentieth of a request.)
        let received = ByteCounter()
        let response = try await ByteCounter.$request.withValue(received) { try await next(request, context) }
        let elapsed = ContinuousClock.now - start
        let status = response.status.code
        // A wrong method's 405 under the route it was sent to (the router calls it NotFound, having matched no route).
        let route = (status == 405 ? routes.pattern(matching: request.uri.path) : nil) ?? context.endpointPath ?? "unmatched"
        let bytesIn = received.value
        let bytesOut = response.body.contentLength ?? 0
        let milliseconds = Self.milliseconds(elapsed)
        if let handler = context.logger.handler as? LogfmtLogHandler {
            // The server's own handler: the line written from the fields at hand (in the order of their keys),
            // without swift-log's dictionaries. Hummingbird's request id is in the handler's metadata, which
            // the line holds too, and `context.id` is it again.
            if handler.logLevel <= .info {
                var metadata: [(key: String, value: String)] = []
                metadata.reserveCapacity(handler.metadata.count)
                var requestID: String?
                for (key, value) in handler.metadata {
                    let text = value.description
                    if key == "hb.request.id" { requestID = text }
                    metadata.append((key, text))
                }
                handler.writeRequest([
                    ("bytesIn", .number(bytesIn)), ("bytesOut", .number(bytesOut)), ("durationMs", .text(milliseconds)),
                    ("method", .text(request.method.rawValue)), ("requestID", .text(requestID ?? context.id)),
                    ("route", .text(route)), ("status", .number(Int(status))),
                ], metadata: metadata)
            }
        } else {
            context.logger.info("request", metadata: [
                "method": .string(request.method.rawValue), "route": .string(route), "status": .stringConvertible(status),
                "bytesIn": .stringConvertible(bytesIn), "bytesOut": .stringConvertible(bytesOut), "durationMs": .string(milliseconds),
                "requestID": .string(context.id),
            ])
        }
        let handles = metrics.route(route, status: Int(status))
        handles.requests.increment()
        handles.duration.record(elapsed)
        handles.bytesIn.increment(by: Int64(bytesIn))
        handles.bytesOut.increment(by: Int64(bytesOut))
        return response
    }

    /// A duration in milliseconds with three decimals (`1.234`), without Foundation's formatting.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        // Digits written from the right into the string's own storage: whole milliseconds, the point, three digits.
        var whole = microseconds / 1000, digits = 1
        while whole >= 10 { whole /= 10; digits += 1 }
        return String(unsafeUninitializedCapacity: digits + 4) { text in
            var rest = microseconds
            for place in stride(from: digits + 3, through: 0, by: -1) {
                if place == digits {
                    text[place] = UInt8(ascii: ".")
                    continue
                }
                text[place] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            return digits + 4
        }
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
}

/// The service's metrics, kept in the one registry it was given (`GET /metrics` shows that registry): no
/// global metrics system is involved, so two services in one process (tests, an embedding program) count
/// apart. The metric objects of each route, status and family are made once: asking the registry for them
/// on every request would cost a lookup under its lock for each.
package final class ServiceMetrics: Sendable {
    /// Where the metrics are kept.
    package let registry: PrometheusCollectorRegistry

    /// Request latencies are mostly under a millisecond; the buckets reach from there to ten seconds.
    static let durationBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .milliseconds(2500), .seconds(5), .seconds(10),
    ]

    /// The metrics' names and help texts.
    enum Name {
        static var requests: MetricNameDescriptor { MetricNameDescriptor(namespace: "uti", subsystem: "http", metricName: "requests", unitName: "total",
                                                   helpText: "HTTP requests answered, by route and status.") }
        static var duration: MetricNameDescriptor { MetricNameDescriptor(namespace: "uti", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                                                   helpText: "Time from a request's head to its response, by route.") }
        static var bytesIn: MetricNameDescriptor { MetricNameDescriptor(namespace: "uti", subsystem: "http", metricName: "request_bytes", unitName: "total",
                                                  helpText: "Request body bytes received, by route.") }
        static var bytesOut: MetricNameDescriptor { MetricNameDescriptor(namespace: "uti", subsystem: "http", metricName: "response_bytes", unitName: "total",
                                                   helpText: "Response body bytes sent, by route.") }
        static var identified: MetricNameDescriptor { MetricNameDescriptor(namespace: "uti", metricName: "identified", unitName: "total",
                                                     helpText: "Files identified, by the family of their type.") }
    }

    struct Route: Sendable {
        let requests: Prometheus.Counter
        let duration: DurationHistogram
        let bytesIn: Prometheus.Counter
        let bytesOut: Prometheus.Counter
    }

    private struct Key: Hashable {
        let route: String
        let status: Int
    }

    private let routes = Mutex<[Key: Route]>([:])
    private let families = Mutex<[String: Prometheus.Counter]>([:])

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    func route(_ route: String, status: Int) -> Route {
        routes.withLock { cache in
            if let handles = cache[Key(route: route, status: status)] { return handles }
            let handles = Route(
                requests: registry.makeCounter(descriptor: Name.requests, labels: [("route", route), ("status", String(status))]),
                duration: registry.makeDurationHistogram(descriptor: Name.duration, labels: [("route", route)],
                                                         buckets: Self.durationBuckets),
                bytesIn: registry.makeCounter(descriptor: Name.bytesIn, labels: [("route", route)]),
                bytesOut: registry.makeCounter(descriptor: Name.bytesOut, labels: [("route", route)]))
            cache[Key(route: route, status: status)] = handles
            return handles
        }
    }

    /// Counts a type identified, by its family.
    func identified(_ type: UTType) {
        let family = TypeFamily.name(of: type)
        families.withLock { cache in
            if let counter = cache[family] { return counter }
            let counter = registry.makeCounter(descriptor: Name.identified, labels: [("family", family)])
            cache[family] = counter
            return counter
        }.increment()
    }
}

/// Bytes counted as they pass.
final class ByteCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }

    /// The counter of the request being handled (`RequestLogMiddleware`'s), to which whatever reads a request's
    /// body adds the bytes it reads; `nil` outside a request.
    @TaskLocal static var request: ByteCounter?
}
