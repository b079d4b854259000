internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension SharedMIMEInfo {
    /// The MIME type to report on Linux for `type` decided on `evidence`: for a type the name proposed,
    /// the one of its MIME types whose shared-mime-info glob matches the name; else the one the deciding
    /// reader named, when it named this type and shared-mime-info knows it as a type; else the type's first
    /// MIME type that shared-mime-info knows as a type of its own (what desktop applications expect), else
    /// `type.preferredMIMEType`; for a type with none, `inode/directory`, `inode/symlink`, `text/plain` or
    /// `application/octet-stream`, as it conforms.
    func reportedMIMEType(for type: UTType, evidence: Evidence) -> String {
        let mimeTypes = type.tags[.mimeType] ?? []
        if let name = evidence.name, name.candidates.contains(type),
           let mime = globbed(among: mimeTypes, filename: name.filename) {
            return mime
        }
        if let content = evidence.content, content.type == type, let mime = content.mimeType, isKnownType(mime.lowercased()) {
            return mime
        }
        if let mime = mimeTypes.first(where: { isKnownType($0.lowercased()) }) ?? mimeTypes.first { return mime }
        return Self.fallbackMIMEType(for: type)
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
    /// spreadsheet type, which also covers `.sxc`.
    private func globbed(among typeMIMETypes: [String], filename: String) -> String? {
        let mimeTypes = typeMIMETypes.map { $0.lowercased() }
        guard mimeTypes.count > 1 else { return nil }
        let name = filename.lowercased()
        var best: (mimeType: String, weight: Int)?
        let found = globs(of: mimeTypes)
        for index in 0..<mimeTypes.count {
            for entry in found[index] where entry.weight > (best?.weight ?? -1) && fnmatch(entry.glob, name, 0) == 0 {
                best = (mimeTypes[index], entry.weight)
            }
        }
        return best?.mimeType
    }
}
