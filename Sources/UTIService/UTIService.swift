public import Hummingbird
import HTTPTypes
public import FileIdentification
import UniformTypeIdentifiers
import UTIReports

/// The HTTP service: identification (uti's own API and Apache Tika's detector API) over HTTP.
///
/// Every handler identifies exactly as `uti identify` does (the same `FileIdentifier`, the same JSON
/// object); a body is gathered in a `SpooledBytes`, so memory does not grow with its size.
public struct UTIService: Sendable {
    public struct Configuration: Sendable {
        /// Where to listen: loopback unless told otherwise.
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        /// Bodies larger than this are refused (413) while they arrive.
        public var maximumBodySize: Int
        /// The version `GET /version` reports.
        public var version: String

        public init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 4 << 30, version: String) {
            self.host = host
            self.port = port
            self.maximumBodySize = maximumBodySize
            self.version = version
        }
    }

    public let configuration: Configuration
    public let identifier: FileIdentifier

    public init(configuration: Configuration, identifier: FileIdentifier = FileIdentifier()) {
        self.configuration = configuration
        self.identifier = identifier
    }

    /// The routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("healthz") { _, _ in "ok\n" }
        router.get("version") { _, _ in "uti \(configuration.version)\n" }
        router.put("identify") { request, context in try await identify(request, context: context) }
        router.post("identify") { request, context in try await identify(request, context: context) }
        router.put("detect/stream") { request, context in try await detect(request, context: context) }
        return router
    }

    /// The application, listening where the configuration says; `onRunning` is told the port it got.
    public func application(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "uti/\(configuration.version)"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) }
        )
    }

    // MARK: Handlers

    /// `PUT`/`POST /identify`: the body is the file; its name from `?name=`, `Content-Disposition`, or
    /// Tika's `File-Name` / `resourceName`. Answers `uti identify --json`'s object, or with `Accept:
    /// text/plain` the MIME type alone.
    func identify(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let name = uploadName(request)
        let identification = try await identification(of: request, named: name)
        if acceptsPlainText(request) { return text(identification.mimeType + "\n") }
        let json = IdentificationReport(identification, path: name ?? "-").json.rendered + "\n"
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
    }

    /// Tika's `PUT /detect/stream`: the MIME type as `text/plain`.
    func detect(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let identification = try await identification(of: request, named: uploadName(request))
        return text(identification.mimeType)
    }

    private func identification(of request: Request, named name: String?) async throws -> Identification {
        let spool = SpooledBytes()
        let limit = configuration.maximumBodySize
        for try await buffer in request.body {
            guard spool.count + buffer.readableBytes <= limit else {
                throw HTTPError(.contentTooLarge, message: "the body is larger than \(limit) bytes")
            }
            try spool.append(buffer.readableBytesView)
        }
        do {
            return try identifier.identify(spool, filename: name)
        } catch {
            throw HTTPError(.unprocessableContent, message: error.message)
        }
    }

    /// The name of the uploaded file, as the client gave it.
    func uploadName(_ request: Request) -> String? {
        if let name = request.uri.queryParameters.get("name"), !name.isEmpty { return name }
        if let disposition = request.headers[.contentDisposition], let name = UploadName.fromContentDisposition(disposition) { return name }
        for header in ["File-Name", "resourceName"] {
            if let field = HTTPField.Name(header), let value = request.headers[field], !value.isEmpty { return value }
        }
        return nil
    }

    private func acceptsPlainText(_ request: Request) -> Bool {
        guard let accept = request.headers[.accept] else { return false }
        return accept.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: " ") == "text/plain" }
    }

    private func text(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
