import HummingbirdCore
import Logging
import Hummingbird
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// How long a client may take to send a request: the deadlines that cut off slow and stalled clients.
package struct RequestDeadlines: Sendable, Equatable {
    /// A whole request head must arrive within this long of the connection opening, or of the end of the
    /// previous response (so it is also how long an idle kept-alive connection stays open).
    package var header: Duration
    /// A body may take this long before the rate below is asked of it.
    package var body: Duration
    /// After `body`, a body must arrive at this many bytes a second at least: each byte received extends
    /// the body's deadline by 1/rate seconds (as Apache's `mod_reqtimeout` does with `MinRate`).
    package var minimumBodyRate: Int

    package init(header: Duration = .seconds(20), body: Duration = .seconds(20), minimumBodyRate: Int = 500) {
        self.header = header
        self.body = body
        self.minimumBodyRate = minimumBodyRate
    }
}

/// Paces a client's requests, after HTTP decoding, on the connection's event loop:
/// - closes a connection whose client is too slow: no complete request head by the header deadline (a client
///   dribbling header bytes produces no request part, so only this notices it), or a body behind its deadline;
/// - answers `Expect: 100-continue` (what `curl -T` and most HTTP libraries send before an upload's body) with
///   `100 Continue` as the head arrives, so that the client sends its body at once instead of waiting out its own
///   timeout (a second, for curl); a body declared larger than the server takes gets no 100, and the 413 the route
///   answers is then the client's first answer, before a byte of the body was sent. The head passed on no longer
///   carries the expectation it met.
///
/// One handler for both: every part of every request passes each handler of the pipeline, at the cost of a
/// dynamic cast and a call through the context each (two handlers were a fortieth of a small request's work).
final class RequestPacingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let deadlines: RequestDeadlines
    /// The largest body a `100 Continue` is sent for.
    private let maximumBodySize: Int
    /// When the connection is closed unless the client gets on; `nil` while the server has the turn.
    private var deadline: NIODeadline?
    /// The timer that looks at `deadline`; one at a time, moved on when the deadline moved.
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
    private var readingBody = false
    private var responsesOwed = 0

    init(deadlines: RequestDeadlines, maximumBodySize: Int) {
        self.deadlines = deadlines
        self.maximumBodySize = maximumBodySize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitHead(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitHead(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            readingBody = true
            responsesOwed += 1
            arm(context, at: .now() + Self.timeAmount(deadlines.body))
            if let expectation = head.headerFields.value(.expect), expectation.lowercased() == "100-continue" {
                head.headerFields[.expect] = nil
                let declared = head.headerFields.value(.contentLength).flatMap { Int($0) }
                if declared.map({ $0 <= maximumBodySize }) ?? true {
                    context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
                }
                return context.fireChannelRead(wrapInboundOut(.head(head)))
            }
        case .body(let buffer):
            if readingBody, let current = deadline, deadlines.minimumBodyRate > 0 {
                let earned = Int64(buffer.readableBytes) * 1_000_000_000 / Int64(deadlines.minimumBodyRate)
                deadline = current + .nanoseconds(earned)
            }
        case .end:
            // The server's turn: no deadline, but the timer stays (it finds no deadline when it fires, or the next
            // request's, which is later): a request in steady state schedules and cancels nothing.
            readingBody = false
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            responsesOwed = max(0, responsesOwed - 1)
            if responsesOwed == 0 && !readingBody { awaitHead(context) }
        }
        context.write(data, promise: promise)
    }

    /// Bytes that are not an HTTP request, before a request has begun (a header line without a colon, a
    /// `Content-Length` that is not a number, a head past the size limit): a 400 problem document, and the
    /// connection closed, as after any error the client made in the framing. (Errors within a body reach the
    /// handler reading it, which answers them the same way.)
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError, !readingBody, responsesOwed == 0 else {
            context.fireErrorCaught(error)
            return
        }
        disarm()
        let body = ProblemMiddleware<BasicRequestContext>.document(.badRequest, detail: "the request is not HTTP/1.1 (\(parserError))")
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        responsesOwed += 1
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    private func awaitHead(_ context: ChannelHandlerContext) {
        arm(context, at: .now() + Self.timeAmount(deadlines.header))
    }

    private func arm(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        self.deadline = deadline
        if let timer {
            guard deadline < timer.at else { return }
            timer.task.cancel()
        }
        schedule(context, at: deadline)
    }

    private func schedule(_ context: ChannelHandlerContext, at instant: NIODeadline) {
        let loop = context.eventLoop.assumeIsolated()
        let task = loop.scheduleTask(deadline: instant) { [self] in
            timer = nil
            // The server has the turn: the next deadline is armed when it hands it back.
            guard let deadline else { return }
            if deadline <= .now() {
                self.deadline = nil
                context.close(promise: nil)
            } else {
                schedule(context, at: deadline)
            }
        }
        timer = (task, instant)
    }

    private func disarm() {
        deadline = nil
        timer?.task.cancel()
        timer = nil
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}

/// HTTP/1 connections whose reads are at most `maximumRead` bytes. What a connection holds while its
/// request waits for the handler is a few reads (the queues between the socket and the handler count
/// messages, not bytes), so this is what bounds the memory of many uploads at once.
struct BoundedReadHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let inner: HTTP1Channel
    let maximumRead: Int

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.syncOptions?.setOption(
                ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: maximumRead))
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
