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

    package var json: JSONValue {
        let type = identification.type
        let evidence = identification.evidence
        var evidenceMembers: [(String, JSONValue)] = [("rule", .string(evidence.rule.rawValue))]
        if let name = evidence.name {
            evidenceMembers.append(("name", .object([
                ("match", .string(name.match.rawValue)),
                ("tag", .string(name.tag)),
                ("candidates", JSONValue(name.candidates.map(\.identifier))),
                ("decidedBy", JSONValue(name.decidedBy)),
            ])))
        } else {
            evidenceMembers.append(("name", .null))
        }
        func reading(_ content: ContentEvidence) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("source", .string(content.source.rawValue)),
                ("mimeType", JSONValue(content.mimeType)),
                ("identifier", .string(content.type.identifier)),
                ("conclusive", .boolean(content.isConclusive)),
                ("detail", .string(content.detail)),
            ]
            // A model's readings carry its score.
            if let score = content.score { members.append(("score", .number(score))) }
            return .object(members)
        }
        evidenceMembers.append(("content", evidence.content.map(reading) ?? .null))
        evidenceMembers.append(("otherReadings", .array(evidence.otherReadings.map(reading))))
        evidenceMembers.append(("nameOverruled", JSONValue(evidence.nameOverruled)))
        var members: [(String, JSONValue)] = [
            ("path", .string(path)),
            ("identifier", .string(type.identifier)),
            ("description", JSONValue(type.localizedDescription)),
            ("mimeType", .string(identification.mimeType)),
            ("preferredMIMEType", JSONValue(type.preferredMIMEType)),
            ("mimeTypes", JSONValue(Self.mimeTypes(of: identification))),
            // The language, by GitHub Linguist's name for it, when the type is one.
            ("language", JSONValue(type.tags(of: .linguistLanguage).first)),
            ("conformsTo", JSONValue(type.orderedSupertypes.map(\.identifier))),
            ("evidence", .object(evidenceMembers)),
            ("confidence", .string(identification.confidence.rawValue)),
            ("mismatch", .boolean(identification.isMismatch)),
            ("encoding", JSONValue(identification.textEncoding?.rawValue)),
        ]
        if let pronom = identification.pronom { members.append(("pronom", Self.json(pronom))) }
        if pathEscaped { members.append(("pathEscaped", .boolean(true))) }
        return .object(members)
    }

    /// PRONOM's answer as JSON: the best PUID first, every format that remains, the warning, and whether a
    /// pattern needed bytes past the scan limit.
    package static func json(_ pronom: PronomIdentification) -> JSONValue {
        .object([
            ("puid", JSONValue(pronom.matches.first?.puid)),
            ("matches", .array(pronom.matches.map { match in
                .object([
                    ("puid", .string(match.puid)),
                    ("name", .string(match.name)),
                    ("version", .string(match.version)),
                    ("mimeType", JSONValue(match.mimeType)),
                    ("identifier", JSONValue(match.type?.identifier)),
                    ("method", .string(match.method.rawValue)),
                    ("basis", .string(match.basis)),
                ])
            })),
            ("warning", JSONValue(pronom.warning)),
            ("scanCutShort", .boolean(pronom.isScanCutShort)),
            ("signatureFile", .integer(PronomIdentification.signatureFileVersion)),
        ])
    }
}
