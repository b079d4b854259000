internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The MIME types of shared-mime-info: which names are types (not aliases; see `SharedMIMEInfo`), and
/// which globs name them, from the system's `globs2`. These are the names Linux applications and
/// desktops use.
enum LinuxMIMETypes {
    static var known: Set<String> { SharedMIMEInfo.knownTypes }

    /// `globs2`: `weight:type:glob[:flags]` lines, as (lower-cased glob, weight) by type.
    private static let globs: [String: [(glob: String, weight: Int)]] = {
        guard let bytes = SharedMIMEInfo.systemDirectory.flatMap({ SharedMIMEInfo.read($0 + "/globs2") }) else { return [:] }
        var byType: [String: [(glob: String, weight: Int)]] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let weight = Int(String(decoding: fields[0], as: UTF8.self)) else { continue }
            byType[String(decoding: fields[1], as: UTF8.self).lowercased(), default: []]
                .append((String(decoding: fields[2], as: UTF8.self).lowercased(), weight))
        }
        return byType
    }()

    /// Of a type's MIME types, the one whose shared-mime-info glob matches `filename` with the highest
    /// weight: `x.sdc` is `application/vnd.stardivision.calc` among the MIME types of the OpenOffice
    /// spreadsheet type, which also covers `.sxc`.
    static func globbed(among typeMIMETypes: [String], filename: String) -> String? {
        let mimeTypes = typeMIMETypes.map { $0.lowercased() }
        guard mimeTypes.count > 1 else { return nil }
        let name = filename.lowercased()
        var best: (mimeType: String, weight: Int)?
        for mimeType in mimeTypes {
            for entry in globs[mimeType] ?? [] where entry.weight > (best?.weight ?? -1) && fnmatch(entry.glob, name, 0) == 0 {
                best = (mimeType, entry.weight)
            }
        }
        return best?.mimeType
    }

    /// Of a type's MIME types, the first that shared-mime-info knows as a type, else the first.
    static func preferred(among mimeTypes: [String]) -> String? {
        mimeTypes.first(where: { known.contains($0.lowercased()) }) ?? mimeTypes.first
    }
}
