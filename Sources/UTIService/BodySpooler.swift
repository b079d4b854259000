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

    /// The request's body, gathered: 413 before a byte is read when `Content-Length` passes the limit (or
    /// more than the server can ever hold at once, its spool budget and memory together), or as soon as the
    /// bytes do; 503 with `Retry-After` when the spool budget (or the disk) is full for now.
    func spool(_ request: Request) async throws -> SpooledBytes {
        let spool = SpooledBytes(budget: memory, fileBudget: disk)
        // What fits at best: the whole spool budget and a spool's share of memory.
        let ceiling = min(limit, disk.capacity + min(memory.capacity, SpooledBytes.defaultMemoryLimit))
        if let declared = request.headers[.contentLength].flatMap(Int.init) {
            guard declared <= ceiling else { throw tooLarge(declared > limit) }
            spool.expectedCount = declared
        }
        for try await buffer in request.body {
            guard spool.count + buffer.readableBytes <= ceiling else { throw tooLarge(spool.count + buffer.readableBytes > limit) }
            let appended: Result<Void, Errno>
            if spool.count + buffer.readableBytes <= spool.memoryLimit {
                // Still within the body's memory share: a copy, done here.
                appended = buffer.withUnsafeReadableBytes { raw in Result { () throws(Errno) in try spool.append(raw) } }
            } else {
                // Bytes for the temporary file: written on the blocking pool, never on an event loop.
                let handed = HandedOver(value: spool)
                appended = try await BlockingWork.identification.runIfActive {
                    buffer.withUnsafeReadableBytes { raw in Result { () throws(Errno) in try handed.value.append(raw) } }
                }
            }
            // A full spool budget or disk (ENOSPC) is answered 503 by ProblemMiddleware.
            if case .failure(let error) = appended { throw error }
        }
        return spool
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
