package import AppContainers
import UniformTypeIdentifiers

/// `uti apps show`.
package struct AppReport {
    package let app: Registry.RegisteredApp
    package let registry: Registry

    package init(_ app: Registry.RegisteredApp, registry: Registry) {
        self.app = app
        self.registry = registry
    }

    package var json: JSONValue {
        let manifest = app.manifest
        return .object([
            ("bundleIdentifier", .string(manifest.bundleIdentifier)),
            ("name", .string(manifest.name)),
            ("container", .string(registry.containerPath(of: app))),
            ("supportsOpeningDocumentsInPlace", .boolean(manifest.supportsOpeningDocumentsInPlace)),
            ("fileSharingEnabled", .boolean(manifest.fileSharingEnabled)),
            ("applicationGroups", JSONValue(manifest.applicationGroups)),
            ("ubiquityContainers", JSONValue(manifest.ubiquityContainers)),
            ("ubiquityKeyValueStore", JSONValue(manifest.ubiquityKeyValueStore)),
            ("documentTypes", .array(manifest.documentTypes.map { type in
                .object([
                    ("name", JSONValue(type.name)),
                    ("contentTypes", JSONValue(type.claimedTypes.map(\.identifier))),
                    ("role", .string(type.role.rawValue)),
                    ("rank", .string(type.rank.rawValue)),
                ])
            })),
            ("declaredTypes", JSONValue(manifest.declarations.map(\.identifier))),
        ])
    }

    /// One string per line, each printed (and escaped) on its own.
    package var lines: [String] {
        let manifest = app.manifest
        var lines = ["\(manifest.bundleIdentifier) (\(manifest.name))", "  container:   \(registry.containerPath(of: app))"]
        if manifest.supportsOpeningDocumentsInPlace { lines.append("  opens documents in place") }
        if manifest.fileSharingEnabled { lines.append("  shares its Documents folder") }
        for group in manifest.applicationGroups { lines.append("  group:       \(group)") }
        for container in manifest.ubiquityContainers { lines.append("  iCloud:      \(container)") }
        if let store = manifest.ubiquityKeyValueStore { lines.append("  iCloud KVS:  \(store)") }
        for type in manifest.documentTypes {
            lines.append("  handles:     \(type.claimedTypes.map(\.identifier).joined(separator: ", ")) (\(type.role.rawValue), \(type.rank.rawValue))\(type.name.map { " \"\($0)\"" } ?? "")")
        }
        for declaration in manifest.declarations {
            lines.append("  declares:    \(declaration.identifier) (\(declaration.kind.rawValue))")
        }
        return lines
    }
}
