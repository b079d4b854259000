import Hummingbird
import HTTPTypes
import FileIdentification
import UTIReports

/// `PUT`/`POST /identify` (one file, or several as `multipart/form-data`): identification exactly as
/// `uti identify` does it (the same `FileIdentifier`, the same JSON object).
struct IdentificationController<Context: RequestContext>: Sendable {
    let identifier: FileIdentifier
    /// `identifier` without the model: what identifies where the model must not run.
    let withoutModel: FileIdentifier
    let body: BodySpooler
    let metrics: ServiceMetrics
    /// `?archives=true`: the members too.
    let archives: ArchiveController<Context>
    /// `?pronom=true`: `identifier` and `withoutModel` matching PRONOM's signatures too.
    let pronomIdentifier: FileIdentifier
    let pronomWithoutModel: FileIdentifier

    init(identifier: FileIdentifier, body: BodySpooler, metrics: ServiceMetrics, archives: ArchiveController<Context>) {
        self.identifier = identifier
        self.withoutModel = identifier.withoutModel
        pronomIdentifier = identifier.withPronom
        pronomWithoutModel = identifier.withoutModel.withPronom
        self.body = body
        self.metrics = metrics
        self.archives = archives
    }

    func addRoutes(to routes: some RouterMethods<Context>) {
        routes.put("identify") { request, _ in try await identify(request) }
        routes.post("identify") { request, _ in try await identify(request) }
    }

    /// The body is the file; its name from `?name=`, `Content-Disposition`, or Tika's `File-Name` /
    /// `resourceName`. Answers `uti identify --json`'s object, or with `Accept: text/plain` the MIME type alone;
    /// `?mime-names=` names the vocabulary of the MIME type, as `uti identify --mime-names` does.
    func identify(_ request: Request) async throws -> Response {
        let query = Responses.Query(request.uri)
        let names = try Responses.mimeNames(query)  // a bad vocabulary is refused before the body is read
        let pronom = try Self.asksForPronom(query)
        if try ArchiveController<Context>.asksForMembers(query) {
            return try await archives.identifyWithMembers(request, named: Responses.uploadName(request, query: query), names: names)
        }
        if let contentType = request.headers.value(.contentType), let boundary = Multipart.boundary(of: contentType) {
            return try await identifyParts(request, boundary: boundary, names: names, pronom: pronom)
        }
        let name = Responses.uploadName(request, query: query)
        let identification = try await self.identification(of: request, named: name, names: names, pronom: pronom)
        if Responses.acceptsPlainText(request) { return Responses.text(identification.mimeType + "\n") }
        return IdentificationReport(identification, path: name ?? "-").withRenderedUTF8 { Responses.json($0) }
    }

    /// `multipart/form-data` with several files: one object per part, in order, as a JSON array (or, with
    /// `Accept: text/plain`, one MIME type per line).
    func identifyParts(_ request: Request, boundary: String, names: MIMENames?, pronom: Bool = false) async throws -> Response {
        // Each part spooled once, as it arrives; identified on the blocking pool.
        let parts = HandedOver(value: try await body.parts(request, boundary: boundary))
        let (identifier, metrics) = (pronom ? self.pronomIdentifier : self.identifier, self.metrics)
        let identifications = try await BlockingWork.identification.runIfActive { () throws -> [(Identification, String?)] in
            try parts.value.map { part in
                var identification = try identifier.identify(part.content, filename: part.filename)
                if let names { identification.mimeType = identifier.mimeType(of: identification, in: names) }
                metrics.identified(identification.type)
                return (identification, part.filename)
            }
        }
        if Responses.acceptsPlainText(request) { return Responses.text(identifications.map { $0.0.mimeType + "\n" }.joined()) }
        return Responses.json(.array(identifications.map { IdentificationReport($0.0, path: $0.1 ?? "-").json }))
    }

    /// The request's body, gathered and identified; the MIME type in `names` (what `?mime-names=` asks for,
    /// read by the caller before the body).
    ///
    /// Identified first without Magika's model: a small body held in memory where it arrived (no file to
    /// read, and its sample bounds the work: microseconds for most, less than the hop to a pool and back),
    /// any other on the blocking pool. Only when the model would be asked about it (text nothing else names)
    /// does the model read it, on the model's pool, which bounds the inferences at once: an inference never
    /// runs where handlers run.
    func identification(of request: Request, named name: String?, names: MIMENames?, pronom: Bool = false) async throws -> Identification {
        let spooled = HandedOver(value: try await body.spool(request))
        let (identifier, metrics) = (pronom ? self.pronomIdentifier : self.identifier, self.metrics)
        let withoutModel = pronom ? self.pronomWithoutModel : self.withoutModel
        @Sendable func identifyWithoutModel() throws -> (Identification, asksModel: Bool) {
            let identification = try withoutModel.identify(spooled.value, filename: name)
            return (identification, identifier.asksModel(after: identification, of: spooled.value))
        }
        var (identification, asksModel) = !spooled.value.isSpooledToFile && spooled.value.count <= Self.inlineIdentificationLimit
            ? try identifyWithoutModel()
            : try await BlockingWork.identification.runIfActive { try identifyWithoutModel() }
        if asksModel {
            let first = identification
            identification = try await BlockingWork.model.runIfActive { try identifier.refinedByModel(first, of: spooled.value, filename: name) }
        }
        if let names { identification.mimeType = identifier.mimeType(of: identification, in: names) }
        metrics.identified(identification.type)
        return identification
    }

    /// Whether the request asks for PRONOM's formats (`?pronom=true`, as `uti identify --json --pronom`).
    static func asksForPronom(_ query: Responses.Query) throws -> Bool {
        try Responses.booleanQuery(query, "pronom")
    }

    /// The largest body identified where its handler runs (when it is in memory): 16 KiB.
    static var inlineIdentificationLimit: Int { 16 << 10 }
}

/// Apache Tika's detector API: `PUT /detect/stream` (the MIME type as `text/plain`) and the media-type
/// listing, `GET /mime-types` and `/mime-types/{type}/{subtype}`.
struct TikaController<Context: RequestContext>: Sendable {
    let identification: IdentificationController<Context>
    /// The media types, made once (`UTIService.prepare` makes them before the service listens).
    let tika: TikaMimeTypesCache

    func addRoutes(to routes: some RouterMethods<Context>) {
        let identification = self.identification
        routes.put("detect/stream") { request, _ in
            let query = Responses.Query(request.uri)
            let names = try Responses.mimeNames(query)  // a bad vocabulary is refused before the body is read
            return Responses.text(try await identification.identification(of: request, named: Responses.uploadName(request, query: query),
                                                                          names: names).mimeType)
        }
        let tika = self.tika
        routes.get("mime-types") { request, _ in tika.value.list(plainText: Responses.acceptsPlainText(request)) }
        routes.get("mime-types/:type/:subtype") { _, context in
            try tika.value.details(try context.parameters.require("type") + "/" + context.parameters.require("subtype"))
        }
    }
}
