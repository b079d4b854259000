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
        json.beginObject()
        json.key(Key.path)
        json.string(path)
        json.key(Key.identifier)
        json.string(type.identifier)
        json.key(Key.description)
        json.string(type.localizedDescription)
        json.key(Key.mimeType)
        json.string(identification.mimeType)
        json.key(Key.preferredMIMEType)
        json.string(type.preferredMIMEType)
        json.key(Key.mimeTypes)
        json.strings(Self.mimeTypes(of: identification))
        // The language, by GitHub Linguist's name for it, when the type is one.
        json.key(Key.language)
        json.string(type.tags(of: .linguistLanguage).first)
        json.key(Key.conformsTo)
        json.strings(type.orderedSupertypes.lazy.map(\.identifier))
        json.key(Key.evidence)
        json.beginObject()
        json.key(Key.rule)
        json.string(evidence.rule.rawValue)
        json.key(Key.name)
        if let name = evidence.name {
            json.beginObject()
            json.key(Key.match)
            json.string(name.match.rawValue)
            json.key(Key.tag)
            json.string(name.tag)
            json.key(Key.candidates)
            json.strings(name.candidates.lazy.map(\.identifier))
            json.key(Key.decidedBy)
            json.string(name.decidedBy)
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
        json.key(Key.nameOverruled)
        json.string(evidence.nameOverruled)
        json.endObject()
        json.key(Key.confidence)
        json.string(identification.confidence.rawValue)
        json.key(Key.mismatch)
        json.boolean(identification.isMismatch)
        json.key(Key.encoding)
        json.string(identification.textEncoding?.rawValue)
        if let pronom = identification.pronom {
            json.key(Key.pronom)
            Self.write(pronom, to: &json)
        }
        if pathEscaped {
            json.key(Key.pathEscaped)
            json.boolean(true)
        }
        json.endObject()
    }

    /// A reader's reading: its source, what it named, whether it is conclusive, and the model's score.
    private static func write<Writer: JSONWriter & ~Copyable>(_ content: ContentEvidence, to json: inout Writer) {
        json.beginObject()
        json.key(Key.source)
        json.string(content.source.rawValue)
        json.key(Key.mimeType)
        json.string(content.mimeType)
        json.key(Key.identifier)
        json.string(content.type.identifier)
        json.key(Key.conclusive)
        json.boolean(content.isConclusive)
        json.key(Key.detail)
        json.string(content.detail)
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
        json.key(Key.puid)
        json.string(pronom.matches.first?.puid)
        json.key(Key.matches)
        json.beginArray()
        for match in pronom.matches {
            json.beginObject()
            json.key(Key.puid)
            json.string(match.puid)
            json.key(Key.name)
            json.string(match.name)
            json.key(Key.version)
            json.string(match.version)
            json.key(Key.mimeType)
            json.string(match.mimeType)
            json.key(Key.identifier)
            json.string(match.type?.identifier)
            json.key(Key.method)
            json.string(match.method.rawValue)
            json.key(Key.basis)
            json.string(match.basis)
            json.endObject()
        }
        json.endArray()
        json.key(Key.warning)
        json.string(pronom.warning)
        json.key(Key.scanCutShort)
        json.boolean(pronom.isScanCutShort)
        json.key(Key.signatureFile)
        json.integer(PronomIdentification.signatureFileVersion)
        json.endObject()
    }

    /// The report's keys, quoted once.
    private enum Key {
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
