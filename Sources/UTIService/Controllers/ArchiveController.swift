import Hummingbird
import HTTPTypes
import FileIdentification
import UTIReports

/// Archives' members over HTTP: `?archives=true` on `/identify` (`uti identify --json --archives`'s objects, as
/// an array), and Apache Tika's recursive endpoint, `PUT /rmeta` (with `/rmeta/ignore`), answering Tika's
/// JSON for type detection: a Tika client's recursive detection works unchanged. The body is spooled as every
/// upload is; the members are read on the blocking pool, their held members within the server's budgets.
struct ArchiveController<Context: RequestContext>: Sendable {
    let identifier: FileIdentifier
    let body: BodySpooler
    let metrics: ServiceMetrics
    /// The limits of every reading (`uti serve --archive-limit`).
    let limits: ArchiveLimits

    func addRoutes(to routes: some RouterMethods<Context>) {
        routes.put("rmeta") { request, _ in try await rmeta(request) }
        routes.put("rmeta/ignore") { request, _ in try await rmeta(request) }
    }

    /// Whether a request to `/identify` asks for members (`?archives=true`); a value other than `true` or
    /// `false` is refused before the body is read.
    static func asksForMembers(_ query: Responses.Query) throws -> Bool {
        try Responses.booleanQuery(query, "archives")
    }

    /// One upload and its members: the upload's identification, how the reading of its members ended (`nil`
    /// for what is no archive), and the members.
    struct Read {
        var archive: Identification
        var reading: ArchiveReading?
        var members: [ArchiveMember]
        var name: String?
    }

    /// Identifies `spooled` and reads its members (run on the blocking pool by the callers).
    static func read(_ spooled: SpooledBytes, named name: String?, names: MIMENames?, limits: ArchiveLimits, identifier: FileIdentifier,
                     metrics: ServiceMetrics, budgets: (memory: ByteBudget, disk: ByteBudget)) throws -> Read {
        var identification = try identifier.identify(spooled, filename: name)
        if let names { identification.mimeType = identifier.mimeType(of: identification, in: names) }
        metrics.identified(identification.type)
        guard FileIdentifier.holdsMembers(identification) else { return Read(archive: identification, reading: nil, members: [], name: name) }
        var members: [ArchiveMember] = []
        let reading = try identifier.readMembers(of: spooled, filename: name, limits: limits, sharing: budgets) { member in
            var member = member
            if let names, case .success(var found) = member.result {
                found.mimeType = identifier.mimeType(of: found, in: names)
                member.result = .success(found)
            }
            if let type = member.identification?.type { metrics.identified(type) }
            members.append(member)
            return true
        }
        return Read(archive: identification, reading: reading, members: members, name: name)
    }

    /// The body and its members, read on the blocking pool.
    private func read(_ request: Request, named name: String?, names: MIMENames?, limits: ArchiveLimits) async throws -> Read {
        let spooled = HandedOver(value: try await body.spool(request))
        let (identifier, metrics, budgets) = (self.identifier, self.metrics, (memory: body.memory, disk: body.disk))
        let read = try await BlockingWork.identification.runIfActive { () throws -> HandedOver<Read> in
            HandedOver(value: try Self.read(spooled.value, named: name, names: names, limits: limits, identifier: identifier, metrics: metrics, budgets: budgets))
        }
        return read.value
    }

    /// Each part of a `multipart/form-data` body and its members, read on the blocking pool.
    private func readParts(_ request: Request, boundary: String, names: MIMENames?) async throws -> [Read] {
        let parts = HandedOver(value: try await body.parts(request, boundary: boundary))
        let (identifier, metrics, budgets, limits) = (self.identifier, self.metrics, (memory: body.memory, disk: body.disk), self.limits)
        let reads = try await BlockingWork.identification.runIfActive { () throws -> HandedOver<[Read]> in
            HandedOver(value: try parts.value.map { part in
                try Self.read(part.content, named: part.filename, names: names, limits: limits, identifier: identifier, metrics: metrics, budgets: budgets)
            })
        }
        return reads.value
    }

    /// `/identify?archives=true`: a JSON array, the upload's object (with `members`, `truncated`) and each
    /// member's after it (its path `NAME#MEMBER`), as `uti identify --json --archives` prints them; for a
    /// `multipart/form-data` body, each part's so, in order. With `Accept: text/plain`, one MIME type a line.
    func identifyWithMembers(_ request: Request, named name: String?, names: MIMENames?) async throws -> Response {
        let reads: [Read]
        if let contentType = request.headers[.contentType], let boundary = Multipart.boundary(of: contentType) {
            reads = try await readParts(request, boundary: boundary, names: names)
        } else {
            reads = [try await read(request, named: name, names: names, limits: limits)]
        }
        if Responses.acceptsPlainText(request) {
            return Responses.text(reads.flatMap { read in
                [read.archive.mimeType] + read.members.map { $0.identification?.mimeType ?? "application/octet-stream" }
            }.map { $0 + "\n" }.joined())
        }
        var objects: [JSONValue] = []
        for read in reads {
            let shown = RawFilePath(read.name ?? "-")
            var object = IdentificationReport(read.archive, path: read.name ?? "-").json
            if let reading = read.reading { object.append(ArchiveReport.fields(of: reading)) }
            objects.append(object)
            objects += read.members.map { ArchiveReport.object(of: $0, in: shown) }
        }
        return Responses.json(.array(objects))
    }

    /// `PUT /rmeta`: Tika's recursive metadata for detection. The container first, then the members with
    /// children before their parent (Tika adds a document when its parsing ends), every value a string.
    /// `maxEmbeddedResources` caps the members, as Tika's header does.
    func rmeta(_ request: Request) async throws -> Response {
        let query = Responses.Query(request.uri)
        let names = try Responses.mimeNames(query) ?? .tika
        var limits = self.limits
        if let cap = request.headers[HTTPField.Name("maxEmbeddedResources")!] {
            let digits = cap.trimmingHeaderWhitespace()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw HTTPError(.badRequest, message: "maxEmbeddedResources: expected a number")
            }
            // A number past what any archive holds caps nothing.
            limits.maxMembers = min(limits.maxMembers, Int(digits) ?? Int.max)
        }
        let started = ContinuousClock.now
        let name = Responses.uploadName(request, query: query)
        let read = try await self.read(request, named: name, names: names, limits: limits)
        let (archive, reading, members) = (read.archive, read.reading, read.members)
        let elapsed = ContinuousClock.now - started
        var container: [(String, JSONValue)] = [
            ("Content-Type", .string(archive.mimeType)),
            ("X-TIKA:Parsed-By", .string("uti")),
            ("X-TIKA:embedded_depth", .string("0")),
            ("X-TIKA:parse_time_millis", .string(String(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))),
        ]
        if let name { container.append(("resourceName", .string(name))) }
        if let length = request.headers[.contentLength] { container.append(("Content-Length", .string(length))) }
        if let truncated = reading?.truncated {
            container.append(("uti:truncated", .string(truncated.rawValue)))
            switch truncated {
            case .members: container.append(("X-TIKA:EXCEPTION:embedded_resource_limit_reached", .string("true")))
            case .encrypted: container.append(("X-TIKA:encrypted", .string("true")))
            default: container.append(("X-TIKA:EXCEPTION:container_exception", .string("uti: the reading stopped (\(truncated.rawValue))" + (reading?.problem.map { ": \($0)" } ?? ""))))
            }
        }
        return Responses.json(.array([.object(container)] + Self.tikaOrder(members)))
    }

    /// Members in Tika's order (children before their parent, siblings in order), each as Tika's object; the
    /// ids count from 1 in the archive's order, and a member's id path is its parents' ids and its own.
    static func tikaOrder(_ members: [ArchiveMember]) -> [JSONValue] {
        var ordered: [JSONValue] = []
        var pending: [(depth: Int, object: JSONValue)] = []
        var idPath: [Int] = []
        for (index, member) in members.enumerated() {
            let id = index + 1
            idPath = Array(idPath.prefix(member.depth - 1)) + [id]
            while let last = pending.last, last.depth >= member.depth {
                ordered.append(last.object)
                pending.removeLast()
            }
            var fields: [(String, JSONValue)] = []
            switch member.result {
            case .success(let identification): fields.append(("Content-Type", .string(identification.mimeType)))
            case .failure(let error): fields.append(("X-TIKA:EXCEPTION:embedded_exception", .string(error.message)))
            }
            fields += [
                ("resourceName", .string(String(decoding: member.names.last?.lastComponent ?? [], as: UTF8.self))),
                ("X-TIKA:embedded_resource_path", .string(member.tikaResourcePath)),
                ("X-TIKA:embedded_depth", .string(String(member.depth))),
                ("X-TIKA:embedded_id", .string(String(id))),
                ("X-TIKA:embedded_id_path", .string(idPath.map { "/\($0)" }.joined())),
            ]
            if let size = member.size { fields.append(("Content-Length", .string(String(size)))) }
            if let modified = member.modified { fields.append(("dcterms:modified", .string(ArchiveReport.time(modified)))) }
            if member.isEncrypted { fields.append(("X-TIKA:encrypted", .string("true"))) }
            if let truncated = member.truncated { fields.append(("uti:truncated", .string(truncated.rawValue))) }
            if member.memberCount != nil {
                pending.append((member.depth, .object(fields)))
            } else {
                ordered.append(.object(fields))
            }
        }
        ordered += pending.reversed().map(\.object)
        return ordered
    }
}
