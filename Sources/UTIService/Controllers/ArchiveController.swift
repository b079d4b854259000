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
    static func asksForMembers(_ request: Request) throws -> Bool {
        guard let value = request.uri.queryParameters.get("archives") else { return false }
        switch value {
        case "true", "1": return true
        case "false", "0": return false
        default: throw HTTPError(.badRequest, message: "archives: expected true or false")
        }
    }

    /// The body and its members, read on the blocking pool: the archive's identification, then each member.
    private func read(_ request: Request, named name: String?, names: MIMENames?, limits: ArchiveLimits)
        async throws -> (archive: Identification, reading: ArchiveReading?, members: [ArchiveMember]) {
        let spooled = HandedOver(value: try await body.spool(request))
        let (identifier, metrics, budgets) = (self.identifier, self.metrics, (memory: body.memory, disk: body.disk))
        let result = try await BlockingWork.identification.runIfActive { () throws -> (Identification, ArchiveReading?, [ArchiveMember]) in
            var identification = try identifier.identify(spooled.value, filename: name)
            if let names { identification.mimeType = identifier.mimeType(of: identification, in: names) }
            metrics.identified(identification.type)
            guard FileIdentifier.holdsMembers(identification) else { return (identification, nil, []) }
            var members: [ArchiveMember] = []
            let reading = try identifier.readMembers(of: spooled.value, filename: name, limits: limits, sharing: budgets) { member in
                var member = member
                if let names, case .success(var found) = member.result {
                    found.mimeType = identifier.mimeType(of: found, in: names)
                    member.result = .success(found)
                }
                if let type = member.identification?.type { metrics.identified(type) }
                members.append(member)
                return true
            }
            return (identification, reading, members)
        }
        return (result.0, result.1, result.2)
    }

    /// `/identify?archives=true`: a JSON array, the upload's object (with `members`, `truncated`) and each
    /// member's after it (its path `NAME#MEMBER`), as `uti identify --json --archives` prints them.
    func identifyWithMembers(_ request: Request, named name: String?, names: MIMENames?) async throws -> Response {
        let (archive, reading, members) = try await read(request, named: name, names: names, limits: limits)
        let shown = RawFilePath(name ?? "-")
        var objects = [IdentificationReport(archive, path: name ?? "-").json]
        if let reading { objects[0].append(ArchiveReport.fields(of: reading)) }
        for member in members {
            let path = member.path(in: shown)
            var object: JSONValue
            switch member.result {
            case .success(let identification): object = IdentificationReport(identification, path: path.dataText, pathEscaped: !path.isValidUTF8).json
            case .failure(let error): object = .object([("path", .string(path.dataText)), ("error", .string(error.message))])
            }
            object.append(ArchiveReport.fields(of: member))
            objects.append(object)
        }
        return Responses.json(.array(objects))
    }

    /// `PUT /rmeta`: Tika's recursive metadata for detection. The container first, then the members with
    /// children before their parent (Tika adds a document when its parsing ends), every value a string.
    /// `maxEmbeddedResources` caps the members, as Tika's header does.
    func rmeta(_ request: Request) async throws -> Response {
        let names = try Responses.mimeNames(request) ?? .tika
        var limits = self.limits
        if let cap = request.headers[HTTPField.Name("maxEmbeddedResources")!] {
            guard let count = Int(cap.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                throw HTTPError(.badRequest, message: "maxEmbeddedResources: expected a number")
            }
            limits.maxMembers = count
        }
        let started = ContinuousClock.now
        let name = Responses.uploadName(request)
        let (archive, reading, members) = try await read(request, named: name, names: names, limits: limits)
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
