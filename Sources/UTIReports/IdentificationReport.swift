package import FileIdentification
import UniformTypeIdentifiers

/// One identification as a JSON object: what `uti identify --json` prints for a file.
package struct IdentificationReport {
    package let identification: Identification
    package let path: String
    /// Whether `path` holds `\xNN` escapes for bytes that are not UTF-8.
    package let pathEscaped: Bool

    package init(_ identification: Identification, path: String, pathEscaped: Bool = false) {
        self.identification = identification
        self.path = path
        self.pathEscaped = pathEscaped
    }

    /// Every name the format goes by: the type's MIME types in declaration order, and the reported one
    /// when the type has none of its own (MPEG-1 Layer I audio is `audio/mpeg`, a name MP3 owns).
    static func mimeTypes(of identification: Identification) -> [String] {
        let names = identification.type.tags(of: .mimeType)
        guard names.isEmpty, let named = identification.evidence.content?.mimeType, named == identification.mimeType else { return names }
        return [named]
    }

    /// The object as a tree, for a caller that adds members or nests it in another document.
    package var json: JSONValue {
        var tree = JSONTreeBuilder()
        write(to: &tree)
        return tree.value
    }

    /// The object's compact rendering, written without a tree (what `uti identify --json` prints and the
    /// service answers, a line's worth of bytes per file).
    package var renderedUTF8: [UInt8] {
        withRenderedUTF8 { Array($0) }
    }

    /// The compact rendering, to read while `body` runs (a server copies it into its answer as it is).
    package func withRenderedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var bytes = JSONBytes()
        write(to: &bytes)
        return try bytes.withBytes(body)
    }

    /// The object, member by member, in its documented order.
    package func write<Writer: JSONWriter & ~Copyable>(to json: inout Writer) {
        let type = identification.type
        let evidence = identification.evidence
        // What the type alone decides (its identifier, description, MIME types, Linguist's name for its language,
        // supertypes), made once per type.
        let typeMembers = TypeMembers.of(type)
        json.beginObject()
        json.member(Key.path, path)
        json.members(typeMembers.head)
        json.member(Key.mimeType, identification.mimeType)
        if let mimeTypes = typeMembers.mimeTypes {
            json.members(mimeTypes)
        } else {
            json.member(Key.preferredMIMEType, type.preferredMIMEType)
            json.key(Key.mimeTypes)
            json.strings(Self.mimeTypes(of: identification))
        }
        json.members(typeMembers.tail)
        json.key(Key.evidence)
        json.beginObject()
        json.member(Key.rule, evidence.rule.rawValue)
        json.key(Key.name)
        if let name = evidence.name {
            json.beginObject()
            json.member(Key.match, name.match.rawValue)
            json.member(Key.tag, name.tag)
            json.key(Key.candidates)
            json.strings(name.candidates.lazy.map(\.identifier))
            json.member(Key.decidedBy, name.decidedBy)
            json.endObject()
        } else {
            json.null()
        }
        json.key(Key.content)
        if let content = evidence.content { Self.write(content, to: &json) } else { json.null() }
        json.key(Key.otherReadings)
        json.beginArray()
        for reading in evidence.otherReadings { Self.write(reading, to: &json) }
        json.endArray()
        json.member(Key.nameOverruled, evidence.nameOverruled)
        json.endObject()
        json.member(Key.confidence, identification.confidence.rawValue)
        json.member(Key.mismatch, identification.isMismatch)
        json.member(Key.encoding, identification.textEncoding?.rawValue)
        if let pronom = identification.pronom {
            json.key(Key.pronom)
            Self.write(pronom, to: &json)
        }
        if pathEscaped {
            json.member(Key.pathEscaped, true)
        }
        json.endObject()
    }

    /// A reader's reading: its source, what it named, whether it is conclusive, and the model's score.
    private static func write<Writer: JSONWriter & ~Copyable>(_ content: ContentEvidence, to json: inout Writer) {
        json.beginObject()
        json.member(Key.source, content.source.rawValue)
        json.member(Key.mimeType, content.mimeType)
        json.member(Key.identifier, content.type.identifier)
        json.member(Key.conclusive, content.isConclusive)
        json.member(Key.detail, content.detail)
        // A model's readings carry its score.
        if let score = content.score {
            json.key(Key.score)
            json.number(score)
        }
        json.endObject()
    }

    /// PRONOM's answer as JSON: the best PUID first, every format that remains, the warning, and whether a
    /// pattern needed bytes past the scan limit.
    package static func json(_ pronom: PronomIdentification) -> JSONValue {
        var tree = JSONTreeBuilder()
        write(pronom, to: &tree)
        return tree.value
    }

    private static func write<Writer: JSONWriter & ~Copyable>(_ pronom: PronomIdentification, to json: inout Writer) {
        json.beginObject()
        json.member(Key.puid, pronom.matches.first?.puid)
        json.key(Key.matches)
        json.beginArray()
        for match in pronom.matches {
            json.beginObject()
            json.member(Key.puid, match.puid)
            json.member(Key.name, match.name)
            json.member(Key.version, match.version)
            json.member(Key.mimeType, match.mimeType)
            json.member(Key.identifier, match.type?.identifier)
            json.member(Key.method, match.method.rawValue)
            json.member(Key.basis, match.basis)
            json.endObject()
        }
        json.endArray()
        json.member(Key.warning, pronom.warning)
        json.member(Key.scanCutShort, pronom.isScanCutShort)
        json.key(Key.signatureFile)
        json.integer(PronomIdentification.signatureFileVersion)
        json.endObject()
    }

    /// The report's keys, quoted once.
    enum Key {
        static let basis: JSONKey = "basis"
        static let candidates: JSONKey = "candidates"
        static let conclusive: JSONKey = "conclusive"
        static let confidence: JSONKey = "confidence"
        static let conformsTo: JSONKey = "conformsTo"
        static let content: JSONKey = "content"
        static let decidedBy: JSONKey = "decidedBy"
        static let description: JSONKey = "description"
        static let detail: JSONKey = "detail"
        static let encoding: JSONKey = "encoding"
        static let evidence: JSONKey = "evidence"
        static let identifier: JSONKey = "identifier"
        static let language: JSONKey = "language"
        static let match: JSONKey = "match"
        static let matches: JSONKey = "matches"
        static let method: JSONKey = "method"
        static let mimeType: JSONKey = "mimeType"
        static let mimeTypes: JSONKey = "mimeTypes"
        static let mismatch: JSONKey = "mismatch"
        static let name: JSONKey = "name"
        static let nameOverruled: JSONKey = "nameOverruled"
        static let otherReadings: JSONKey = "otherReadings"
        static let path: JSONKey = "path"
        static let pathEscaped: JSONKey = "pathEscaped"
        static let preferredMIMEType: JSONKey = "preferredMIMEType"
        static let pronom: JSONKey = "pronom"
        static let puid: JSONKey = "puid"
        static let rule: JSONKey = "rule"
        static let scanCutShort: JSONKey = "scanCutShort"
        static let score: JSONKey = "score"
        static let signatureFile: JSONKey = "signatureFile"
        static let source: JSONKey = "source"
        static let tag: JSONKey = "tag"
        static let version: JSONKey = "version"
        static let warning: JSONKey = "warning"
    }
}
