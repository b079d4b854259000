package import Foundation
package import AppContainers
package import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A registry root and app bundles made for one test, in a temporary directory removed afterwards.
package final class Workspace {
    package let directory: TemporaryDirectory
    package let registry: Registry
    package var path: String { directory.path }

    package init() throws {
        directory = try TemporaryDirectory(prefix: "uti-routing")
        try directory.makeDirectory("apps")
        registry = Registry(root: directory.file("root"))
    }

    /// A document type entry of an Info.plist.
    package struct DocumentType {
        package var types: [String] = []
        package var role = "Editor"
        package var rank: String? = "Default"
        package var extensions: [String] = []

        package init(types: [String] = [], role: String = "Editor", rank: String? = "Default", extensions: [String] = []) {
            self.types = types
            self.role = role
            self.rank = rank
            self.extensions = extensions
        }
    }

    /// Makes `IDENTIFIER.app/Contents/Info.plist` (XML, or binary with `binary`; `bundleName` names the bundle
    /// instead, for identifiers too long for a file name) and returns the bundle's path.
    @discardableResult
    package func app(_ identifier: String, _ documentTypes: [DocumentType], inPlace: Bool = false, binary: Bool = false,
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

    /// Registers a viewer of everything; returns its Inbox's path.
    @discardableResult
    package func registerViewer(_ identifier: String = "com.example.viewer") throws -> String {
        try registry.register(appAt: try app(identifier, [.init(types: ["public.data"])]))
        return try inbox(identifier)
    }

    /// Writes a file to deliver.
    @discardableResult
    package func file(_ name: String, _ contents: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(contents).write(to: URL(filePath: file))
        return file
    }

    package func inbox(_ identifier: String) throws -> String { try registry.containerPath(identifier) + "/Documents/Inbox" }

    /// The Info.plist of an app with iCloud entitlements (`containers`: the iCloud containers' key;
    /// `legacy`: the older ubiquity key; `store`: its key-value store), written in the workspace; its path.
    package func iCloudManifest(_ identifier: String, containers: [String] = [Workspace.iCloudContainer], legacy: [String] = [],
                                store: String? = nil, team: String? = nil, extra: [String: Any] = [:]) throws -> String {
        var plist: [String: Any] = ["CFBundleIdentifier": identifier]
        if !containers.isEmpty { plist["com.apple.developer.icloud-container-identifiers"] = containers }
        if !legacy.isEmpty { plist["com.apple.developer.ubiquity-container-identifiers"] = legacy }
        if let store { plist["com.apple.developer.ubiquity-kvstore-identifier"] = store }
        if let team { plist["com.apple.developer.team-identifier"] = team }
        plist.merge(extra) { $1 }
        let file = path + "/apps/\(identifier).plist"
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: URL(filePath: file))
        return file
    }

    /// The iCloud container `iCloudManifest` names when not told otherwise.
    package static let iCloudContainer = "iCloud.com.example.notes"

    /// The permission bits of what is at `path` (not followed), `nil` when there is nothing.
    package static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    package func inboxNames(_ identifier: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try inbox(identifier)).sorted()
    }
}

package let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
