import FileIdentification
import Hummingbird
import UniformTypeIdentifiers
import UTIReports

/// Tika's `GET /mime-types` and `GET /mime-types/{type}/{subtype}`, in the shape Tika's server answers
/// them, from uti's database: each media type some declared type prefers, its other MIME types as
/// aliases, the media type of its nearest supertype that has one (not `application/octet-stream`) as
/// supertype; in the details, the description, the uniform type identifier and the extensions.
struct TikaMimeTypes: Sendable {
    struct MediaType: Sendable {
        var name: String
        var aliases: [String]
        var supertype: String?
        var type: UTType
    }

    let mediaTypes: [MediaType]
    /// Each media type's index in `mediaTypes`, by its name and by each of its aliases (the name's first).
    let byName: [String: Int]
    /// The two listings, rendered once: the database does not change while serving, and a request answers
    /// them without work proportional to it.
    private let textListing: ByteBuffer
    private let jsonListing: ByteBuffer

    init() {
        var mediaTypes: [MediaType] = []
        var byName: [String: Int] = [:]
        var claimed = Set<String>()
        for declaration in TypeDatabase.shared.declarations {
            guard let type = UTType(declaration.identifier), let mimeTypes = type.tags[.mimeType], let preferred = mimeTypes.first?.lowercased(),
                  !claimed.contains(preferred) else { continue }
            let aliases = mimeTypes.dropFirst().map { $0.lowercased() }.filter { $0 != preferred && !claimed.contains($0) }
            claimed.insert(preferred)
            aliases.forEach { claimed.insert($0) }
            // The nearest supertype's media type, what the type's files also are counting (a Word document is a
            // ZIP archive to freedesktop and Tika, though Apple's hierarchy does not make it one).
            let kinds = ([type] + type.orderedSupertypes).flatMap { $0.tags(of: .kindOf) }.compactMap { UTType($0) }
            let supertype = (kinds + type.orderedSupertypes).lazy.compactMap { $0.preferredMIMEType?.lowercased() }
                .first { $0 != preferred && $0 != "application/octet-stream" }
            byName[preferred] = mediaTypes.count
            mediaTypes.append(MediaType(name: preferred, aliases: Array(Set(aliases)).sorted(), supertype: supertype, type: type))
        }
        let sorted = mediaTypes.sorted { $0.name < $1.name }
        self.mediaTypes = sorted
        var index: [String: Int] = [:]
        for (offset, type) in sorted.enumerated() { index[type.name] = offset }
        for (offset, type) in sorted.enumerated() {
            for alias in type.aliases where index[alias] == nil { index[alias] = offset }
        }
        self.byName = index
        var text = ""
        for type in sorted {
            text += type.name + "\n"
            for alias in type.aliases { text += "  alias:     \(alias)\n" }
            if let supertype = type.supertype { text += "  supertype: \(supertype)\n" }
        }
        textListing = ByteBuffer(string: text)
        let object = JSONValue.object(sorted.map { type in
            var members: [(String, JSONValue)] = [("alias", JSONValue(type.aliases))]
            if let supertype = type.supertype { members.append(("supertype", .string(supertype))) }
            return (type.name, .object(members))
        })
        jsonListing = ByteBuffer(string: object.rendered + "\n")
    }

    /// `GET /mime-types`: JSON (`{"type/subtype": {"alias": [...], "supertype": "..."}}`) or, with
    /// `Accept: text/plain`, Tika's text listing.
    func list(plainText: Bool) -> Response {
        if plainText {
            return Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: textListing))
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: jsonListing))
    }

    /// `GET /mime-types/{type}/{subtype}`: one media type's details, as Tika gives them; 404 for one no
    /// declared type prefers (an alias is looked up as the type it is an alias of).
    func details(_ name: String) throws -> Response {
        let key = name.lowercased()
        guard let found = byName[key].map({ mediaTypes[$0] }) else { throw HTTPError(.notFound, message: "no media type registered for \(name)") }
        var members: [(String, JSONValue)] = [("type", .string(found.name)), ("alias", JSONValue(found.aliases))]
        if let supertype = found.supertype { members.append(("supertype", .string(supertype))) }
        if let description = found.type.localizedDescription { members.append(("description", .string(description))) }
        members.append(("uniformTypeIdentifier", .string(found.type.identifier)))
        if let reference = found.type.referenceURL { members.append(("links", JSONValue([reference.absoluteString]))) }
        let extensions = found.type.tags(of: .filenameExtension).map { "." + $0 }
        if let first = extensions.first { members.append(("defaultExtension", .string(first))) }
        if !extensions.isEmpty { members.append(("extensions", JSONValue(extensions))) }
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: JSONValue.object(members).rendered + "\n")))
    }
}
