internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The MIME types of the system's shared-mime-info database: which names are types (not aliases),
/// read from `/usr/share/mime/types`, and which globs name them, from `/usr/share/mime/globs2`. These
/// are the names Linux applications and desktops use.
enum LinuxMIMETypes {
    static let known: Set<String> = {
        guard let bytes = read("types") else { return [] }
        return Set(bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self).lowercased() })
    }()

    /// `globs2`: `weight:type:glob[:flags]` lines, as (lower-cased glob, weight) by type.
    private static let globs: [String: [(glob: String, weight: Int)]] = {
        guard let bytes = read("globs2") else { return [:] }
        var byType: [String: [(glob: String, weight: Int)]] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") {
            let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count >= 3, let weight = Int(String(decoding: fields[0], as: UTF8.self)) else { continue }
            byType[String(decoding: fields[1], as: UTF8.self).lowercased(), default: []]
                .append((String(decoding: fields[2], as: UTF8.self).lowercased(), weight))
        }
        return byType
    }()

    private static func read(_ name: String) -> [UInt8]? {
        for directory in ["/usr/local/share", "/usr/share"] {
            let descriptor = open(directory + "/mime/" + name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0,
                  let bytes = try? FileBytes(descriptor: descriptor, count: Int(status.st_size)).bytes(at: 0, length: Int(status.st_size))
            else { continue }
            return bytes
        }
        return nil
    }

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
