internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The MIME types of shared-mime-info (see `SharedMIMEInfo`): which names are types (not aliases), and
/// which globs name them. These are the names Linux applications and desktops use.
enum LinuxMIMETypes {
    /// Whether shared-mime-info knows `mimeType` as a type of its own (not an alias).
    static func isKnown(_ mimeType: String) -> Bool { SharedMIMEInfo.isKnownType(mimeType.lowercased()) }

    /// Of a type's MIME types, the one whose shared-mime-info glob matches `filename` with the highest
    /// weight: `x.sdc` is `application/vnd.stardivision.calc` among the MIME types of the OpenOffice
    /// spreadsheet type, which also covers `.sxc`.
    static func globbed(among typeMIMETypes: [String], filename: String) -> String? {
        let mimeTypes = typeMIMETypes.map { $0.lowercased() }
        guard mimeTypes.count > 1 else { return nil }
        let name = filename.lowercased()
        var best: (mimeType: String, weight: Int)?
        for mimeType in mimeTypes {
            for entry in SharedMIMEInfo.globs(of: mimeType) where entry.weight > (best?.weight ?? -1) && fnmatch(entry.glob, name, 0) == 0 {
                best = (mimeType, entry.weight)
            }
        }
        return best?.mimeType
    }

    /// Of a type's MIME types, the first that shared-mime-info knows as a type, else the first.
    static func preferred(among mimeTypes: [String]) -> String? {
        mimeTypes.first(where: isKnown) ?? mimeTypes.first
    }
}
