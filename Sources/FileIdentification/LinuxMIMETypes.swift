internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The MIME types the system's shared-mime-info database names as types (not aliases), read from
/// `/usr/share/mime/types`: the names Linux applications and desktops use.
enum LinuxMIMETypes {
    static let known: Set<String> = {
        for directory in ["/usr/local/share", "/usr/share"] {
            let path = directory + "/mime/types"
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0,
                  let bytes = try? FileBytes(descriptor: descriptor, count: Int(status.st_size)).bytes(at: 0, length: Int(status.st_size))
            else { continue }
            return Set(bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self).lowercased() })
        }
        return []
    }()

    /// The type's first MIME type that shared-mime-info knows as a type, else its preferred one.
    static func preferred(for type: UTType) -> String? {
        let mimeTypes = type.tags[.mimeType] ?? []
        return mimeTypes.first(where: { known.contains($0.lowercased()) }) ?? mimeTypes.first
    }
}
