import Hummingbird
import HTTPTypes
import FileIdentification
import SystemPackage

/// How a request's body is gathered, for every endpoint that takes one: into a `SpooledBytes` whose
/// memory and temporary file come out of the server's budgets.
struct BodySpooler: Sendable {
    /// The largest body accepted (413 beyond it).
    let limit: Int
    /// What bodies in flight keep in memory together.
    let memory: ByteBudget
    /// What their temporary files hold together on disk: past it, 503 with `Retry-After`.
    let disk: ByteBudget
    /// Where their temporary files are made (`$TMPDIR`, else `/tmp`), read once when the service starts.
    let temporaryDirectory: String

    init(limit: Int, memory: ByteBudget, disk: ByteBudget, temporaryDirectory: String = SpooledBytes.defaultTemporaryDirectory) {
        self.limit = limit
        self.memory = memory
        self.disk = disk
        self.temporaryDirectory = temporaryDirectory
    }

    /// The request's body, gathered: 413 before a byte is read when `Content-Length` passes the limit (or
    /// more than the server can ever hold at once, its spool budget and memory together), or as soon as the
    /// bytes do; 503 with `Retry-After` when the spool budget (or the disk) is full for now.
    func spool(_ request: Request) async throws -> SpooledBytes {
        let spool = SpooledBytes(budget: memory, fileBudget: disk, temporaryDirectory: temporaryDirectory)
        let declared = request.headers.value(.contentLength).flatMap(Int.init)
        let ceiling = try self.ceiling(declared: declared)
        if let declared { spool.expectedCount = declared }
        let received = ByteCounter.request
        for try await buffer in request.body {
            received?.add(buffer.readableBytes)
            guard spool.count + buffer.readableBytes <= ceiling else { throw tooLarge(spool.count + buffer.readableBytes > limit) }
            try await Self.append(buffer.readableBytesView, to: spool)
        }
        return spool
    }

    /// A `multipart/form-data` body's parts, each spooled once as its bytes arrive (`Multipart.Splitter`), with
    /// the limits and budgets of `spool(_:)`; a malformed body is a `Multipart.Failure` (400).
    func parts(_ request: Request, boundary: String) async throws -> [Multipart.Part] {
        var splitter = try Multipart.Splitter(boundary: boundary)
        let ceiling = try self.ceiling(declared: request.headers.value(.contentLength).flatMap(Int.init))
        var parts: [Multipart.Part] = []
        var received = 0
        let counter = ByteCounter.request
        for try await buffer in request.body {
            received += buffer.readableBytes
            counter?.add(buffer.readableBytes)
            guard received <= ceiling else { throw tooLarge(received > limit) }
            var events: [Multipart.Splitter.Event] = []
            try buffer.withUnsafeReadableBytes { (raw) throws(Multipart.Failure) in try splitter.feed(raw) { events.append($0) } }
            for event in events {
                switch event {
                case .part(let headers): parts.append(Multipart.Part(headers: headers, content: SpooledBytes(budget: memory, fileBudget: disk,
                                                                                                    temporaryDirectory: temporaryDirectory)))
                case .content(let bytes):
                    guard let part = parts.last else { continue }
                    try await Self.append(bytes, to: part.content)
                }
            }
        }
        try splitter.finish()
        return parts
    }

    /// The most a body may hold (what fits at best: the whole spool budget and a spool's share of memory, and
    /// `limit`); 413 before a byte is read when `Content-Length` passes it.
    private func ceiling(declared: Int?) throws -> Int {
        let ceiling = min(limit, disk.capacity + min(memory.capacity, SpooledBytes.defaultMemoryLimit))
        if let declared, declared > ceiling { throw tooLarge(declared > limit) }
        return ceiling
    }

    /// Appends `bytes` (a receive buffer's, or a part's) to `spool`: in memory where the spool's share allows,
    /// else to its temporary file on the blocking pool, never on an event loop. A full spool budget or disk
    /// (ENOSPC) is answered 503 by ProblemMiddleware.
    private static func append(_ bytes: some Collection<UInt8> & Sendable, to spool: SpooledBytes) async throws {
        let appended: Result<Void, Errno>
        if spool.count + bytes.count <= spool.memoryLimit {
            appended = Result { () throws(Errno) in try spool.append(bytes) }
        } else {
            let handed = HandedOver(value: spool)
            appended = try await BlockingWork.identification.runIfActive { Result { () throws(Errno) in try handed.value.append(bytes) } }
        }
        if case .failure(let error) = appended { throw error }
    }

    /// 413: past `--max-body`, or past what the spool budget can ever hold.
    private func tooLarge(_ pastLimit: Bool) -> HTTPError {
        HTTPError(.contentTooLarge, message: pastLimit ? "the body is larger than \(limit) bytes"
                  : "the body is larger than the server's spool budget (\(disk.capacity) bytes) can ever hold")
    }

    /// 503 with `Retry-After`: the bodies in flight fill the spool budget, or the disk, for now.
    static var outOfSpace: HTTPError {
        var headers = HTTPFields()
        headers[.retryAfter] = "5"
        return HTTPError(.serviceUnavailable, headers: headers, message: "the bodies in flight fill the space set aside for them; try again shortly")
    }
}
