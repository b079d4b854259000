import Foundation
import DocumentRouting
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A registry root and app bundles made for one test, in a temporary directory removed afterwards.
final class Workspace {
    let directory: TemporaryDirectory
    let registry: Registry
    var path: String { directory.path }

    init() throws {
        directory = try TemporaryDirectory(prefix: "uti-routing")
        try directory.makeDirectory("apps")
        registry = Registry(root: directory.file("root"))
    }

    /// A document type entry of an Info.plist.
    struct DocumentType {
        var types: [String] = []
        var role = "Editor"
        var rank: String? = "Default"
        var extensions: [String] = []
    }

    /// Makes `IDENTIFIER.app/Contents/Info.plist` (XML, or binary with `binary`; `bundleName` names the bundle
    /// instead, for identifiers too long for a file name) and returns the bundle's path.
    @discardableResult
    func app(_ identifier: String, _ documentTypes: [DocumentType], inPlace: Bool = false, binary: Bool = false,
             declarations: [[String: Any]] = [], bundleName: String? = nil) throws -> String {
        let bundle = path + "/apps/\(bundleName ?? identifier).app"
        try FileManager.default.createDirectory(atPath: bundle + "/Contents", withIntermediateDirectories: true)
        var plist: [String: Any] = [
            "CFBundleIdentifier": identifier,
            "CFBundleName": identifier.split(separator: ".").last.map(String.init) ?? identifier,
            "LSSupportsOpeningDocumentsInPlace": inPlace,
            "CFBundleDocumentTypes": documentTypes.map { type -> [String: Any] in
                var entry: [String: Any] = ["CFBundleTypeRole": type.role]
                if !type.types.isEmpty { entry["LSItemContentTypes"] = type.types }
                if !type.extensions.isEmpty { entry["CFBundleTypeExtensions"] = type.extensions }
                if let rank = type.rank { entry["LSHandlerRank"] = rank }
                return entry
            },
        ]
        if !declarations.isEmpty { plist["UTExportedTypeDeclarations"] = declarations }
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: binary ? .binary : .xml, options: 0)
        try data.write(to: URL(filePath: bundle + "/Contents/Info.plist"))
        return bundle
    }

    /// Writes a file to deliver.
    @discardableResult
    func file(_ name: String, _ contents: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(contents).write(to: URL(filePath: file))
        return file
    }

    func inbox(_ identifier: String) throws -> String { try registry.containerPath(identifier) + "/Documents/Inbox" }

    func inboxNames(_ identifier: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try inbox(identifier)).sorted()
    }
}

let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
