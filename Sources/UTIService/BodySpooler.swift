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

    /// The request's body, gathered: 413 before a byte is read when `Content-Length` passes the limit, or
    /// as soon as the bytes do; 503 with `Retry-After` when the spool budget (or the disk) is full.
    func spool(_ request: Request) async throws -> SpooledBytes {
        let spool = SpooledBytes(budget: memory, fileBudget: disk)
        if let declared = request.headers[.contentLength].flatMap(Int.init) {
            guard declared <= limit else { throw HTTPError(.contentTooLarge, message: "the body is larger than \(limit) bytes") }
            spool.expectedCount = declared
        }
        for try await buffer in request.body {
            guard spool.count + buffer.readableBytes <= limit else {
                throw HTTPError(.contentTooLarge, message: "the body is larger than \(limit) bytes")
            }
            let appended = buffer.withUnsafeReadableBytes { raw in Result { () throws(Errno) in try spool.append(raw) } }
            if case .failure(let error) = appended {
                guard error == .noSpace else { throw error }
                var headers = HTTPFields()
                headers[.retryAfter] = "5"
                throw HTTPError(.serviceUnavailable, headers: headers,
                                message: "the bodies in flight fill the space set aside for them; try again shortly")
            }
        }
        return spool
    }
}
