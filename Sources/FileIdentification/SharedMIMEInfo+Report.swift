internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension SharedMIMEInfo {
    /// The MIME type to report for `type` decided on `evidence`: one name per format. The format is the one
    /// the file's name points to (the type's MIME type whose shared-mime-info glob matches the name: `x.sdc`
    /// is `application/vnd.stardivision.calc` among the names of the OpenOffice spreadsheet type), else the
    /// one the deciding reader named; of that format's names (a name and its aliases), or of all the type's
    /// names when neither says, the one registered with IANA, else freedesktop's, then Tika's, then
    /// libmagic's (`MediaTypeNames.rank`). A type with no MIME type reports the reader's name, else
    /// `inode/directory`, `inode/symlink`, `text/plain` or `application/octet-stream`, as it conforms.
    /// With a vocabulary other than `standard`, that vocabulary's name for the type where it has one.
    func reportedMIMEType(for type: UTType, evidence: Evidence, names vocabulary: MIMENames = .standard) -> String {
        let mimeTypes = type.tags(of: .mimeType)
        var format: String?
        if let name = evidence.name, name.candidates.contains(type) {
            format = globbed(among: mimeTypes, filename: name.filename)
        }
        if format == nil, let content = evidence.content, content.type == type {
            format = content.mimeType
        }
        if let named = MediaTypeNames.name(of: type, in: vocabulary, format: format) { return named }
        return MediaTypeNames.preferred(among: mimeTypes, format: format) ?? format ?? Self.inheritedMIMEType(for: type)
    }

    /// For a type with no MIME name of its own, its nearest supertype's (a BASIC dialect is reported as
    /// `text/x-basic`, Unix assembly as `text/x-asm`), else what it is at heart.
    static func inheritedMIMEType(for type: UTType) -> String {
        for supertype in type.orderedSupertypes where supertype != type {
            if let preferred = MediaTypeNames.preferred(among: supertype.tags(of: .mimeType), format: nil) { return preferred }
        }
        return fallbackMIMEType(for: type)
    }

    /// What a type with no MIME type of its own is at heart, as file(1) would say.
    static func fallbackMIMEType(for type: UTType) -> String {
        let fallbacks: [(UTType, String)] = [
            (.folder, "inode/directory"), (.directory, "inode/directory"), (.symbolicLink, "inode/symlink"),
            (.text, "text/plain"), (.data, "application/octet-stream"),
        ]
        return fallbacks.first { type.conforms(to: $0.0) }?.1 ?? "application/octet-stream"
    }

    /// Of a type's MIME types, the one whose shared-mime-info glob matches `filename` with the highest
    /// weight: `x.sdc` is `application/vnd.stardivision.calc` among the MIME types of the OpenOffice
    /// spreadsheet type, which also covers `.sxc`. `nil` when two of them match as well (`*.iso` is a CD
    /// image's and a Sega CD ROM's glob: the name does not tell which).
    private func globbed(among typeMIMETypes: [String], filename: String) -> String? {
        let mimeTypes = typeMIMETypes.map { $0.lowercased() }
        guard mimeTypes.count > 1 else { return nil }
        let name = filename.lowercased()
        var best: (mimeType: String, weight: Int)?
        var tied = false
        let found = globs(of: mimeTypes)
        for index in 0..<mimeTypes.count {
            let weight = found[index].filter { fnmatch($0.glob, name, 0) == 0 }.map(\.weight).max() ?? -1
            guard weight >= 0 else { continue }
            if weight > (best?.weight ?? -1) {
                best = (mimeTypes[index], weight)
                tied = false
            } else if weight == best?.weight, let best, !MediaTypeNames.sameFormat(mimeTypes[index], best.mimeType) {
                tied = true
            }
        }
        return tied ? nil : best?.mimeType
    }
}
