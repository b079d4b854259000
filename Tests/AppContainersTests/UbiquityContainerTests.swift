import Foundation
import AppContainers
import ContainerTestSupport
import TestSupport
import Testing
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// iCloud containers through the library: declaration, sharing, layout, lookup, the storage view. (The
/// key-value store and syncing: ContainerSyncTests; the command line: UbiquityCommandTests.)
@Suite("iCloud containers, in the library")
struct UbiquityTests {
    static let container = Workspace.iCloudContainer

    @Test("an app's containers are made under Mobile Documents with Apple's names (. as ~), private, with Documents/; the first is the primary")
    func layoutAndLookup() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", containers: [Self.container],
                                                                 legacy: ["ABCDE12345.com.example.notes", Self.container], team: "ABCDE12345"))
        let root = workspace.registry.root
        let primary = root + "/Mobile Documents/iCloud~com~example~notes"
        #expect(Workspace.mode(primary) == 0o700 && Workspace.mode(primary + "/Documents") == 0o700 && Workspace.mode(root + "/Mobile Documents") == 0o700)
        #expect(try workspace.registry.path(ofUbiquityContainer: nil, for: "com.example.notes") == primary)
        #expect(try workspace.registry.path(ofUbiquityContainer: "ABCDE12345.com.example.notes", for: "com.example.NOTES")
            == root + "/Mobile Documents/ABCDE12345~com~example~notes")
        let app = try workspace.registry.app("com.example.notes")
        #expect(app.manifest.ubiquityContainers == [Self.container, "ABCDE12345.com.example.notes"], "listed once each, the iCloud key's first")
        let containers = try workspace.registry.ubiquityContainers()
        #expect(containers.map(\.identifier) == [Self.container, "ABCDE12345.com.example.notes"])
        #expect(containers.first?.members == ["com.example.notes"] && containers.first?.path == primary)
    }

    @Test("asking for a container the app does not name, or from an app that names none, is refused with the reason")
    func lookupRefusals() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes"))
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.plain", containers: []))
        for (container, app, kind) in [("iCloud.com.example.other", "com.example.notes", RegistryError.Kind.notAUbiquityMember),
                                       (nil, "com.example.plain", .noUbiquityContainer), ("../../etc", "com.example.notes", .invalidUbiquityIdentifier)] {
            do {
                _ = try workspace.registry.path(ofUbiquityContainer: container, for: app)
                Issue.record("\(app) was given \(container ?? "a container")")
            } catch {
                #expect(error.kind == kind, "\(error)")
            }
        }
    }

    @Test("hostile container and store identifiers refuse the manifest, naming the key, and make nothing", arguments: [
        "iCloud.com.example/../../x", "..", "iCloud..x", "iCloud.com.example/x", "iCloud.com\u{0}x", "$(TeamIdentifierPrefix)com.example.notes",
        "iCloud.com.example." , "nodots", String(repeating: "a.", count: 150) + "x",
    ])
    func hostileIdentifiers(identifier: String) throws {
        for (containers, store, key) in [([identifier], nil as String?, "com.apple.developer.icloud-container-identifiers[0]"),
                                          ([], identifier, "com.apple.developer.ubiquity-kvstore-identifier")] {
            let workspace = try Workspace()
            let plist = try workspace.iCloudManifest("com.example.notes", containers: containers, store: store)
            do throws(RegistryError) {
                try workspace.registry.register(appAt: plist)
                Issue.record("'\(identifier)' was accepted")
            } catch {
                #expect(error.kind == .manifest && error.reason.manifestError?.key == key, "\(error)")
                #expect(error.description.contains("not an iCloud identifier"), "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: workspace.registry.root + "/Mobile Documents"))
            #expect(!FileManager.default.fileExists(atPath: workspace.registry.root + "/registry.json"))
        }
    }

    @Test("two apps of one publisher share a container; another publisher's app is refused; a team's container is its team's")
    func sharing() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes"))
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.reader"))
        #expect(try workspace.registry.ubiquityContainers().first?.members == ["com.example.notes", "com.example.reader"])
        #expect(try workspace.registry.path(ofUbiquityContainer: nil, for: "com.example.reader")
            == workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes")
        let intruder = try workspace.iCloudManifest("org.intruder.app")
        do throws(RegistryError) {
            try workspace.registry.register(appAt: intruder)
            Issue.record("another publisher's app joined the container")
        } catch {
            #expect(error.kind == .manifest && error.description.contains("not this app's to use"), "\(error)")
        }
        // A container made by a team's app is joined only with that team's identifier.
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.team", containers: ["ABCDE12345.shared"], team: "ABCDE12345"))
        let other = try workspace.iCloudManifest("com.example.other", containers: ["ABCDE12345.shared"], team: "ZZZZZ99999")
        do throws(RegistryError) {
            try workspace.registry.register(appAt: other)
            Issue.record("another team's app joined")
        } catch {
            #expect(error.description.contains("belongs to team ABCDE12345"), "\(error)")
        }
        try workspace.registry.register(appAt: try workspace.iCloudManifest("org.partner.app", containers: ["ABCDE12345.shared"], team: "ABCDE12345"))
    }

    @Test("a shared container stays while a member remains or kept its data, and goes with the last member's data")
    func removal() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes", store: "com.example.notes"))
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.reader", store: "com.example.notes"))
        let container = workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes"
        let store = workspace.registry.root + "/SyncedPreferences/com.example.notes"
        try Data("kept".utf8).write(to: URL(filePath: container + "/Documents/a.txt"))
        try Data("a store's file".utf8).write(to: URL(filePath: store + "/values.plist"))
        try workspace.registry.unregister("com.example.notes", deleteData: true)
        #expect(FileManager.default.fileExists(atPath: container + "/Documents/a.txt") && FileManager.default.fileExists(atPath: store + "/values.plist"))
        // Unregistered with its data kept: the container stays for it.
        try workspace.registry.unregister("com.example.reader", deleteData: false)
        #expect(FileManager.default.fileExists(atPath: container + "/Documents/a.txt"))
        #expect(try workspace.registry.ubiquityContainers().first?.keptBy == ["com.example.reader"])
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.reader", store: "com.example.notes"))
        try workspace.registry.unregister("com.example.reader", deleteData: true)
        #expect(!FileManager.default.fileExists(atPath: container) && !FileManager.default.fileExists(atPath: store))
        #expect(try workspace.registry.ubiquityContainers().isEmpty)
        // Nothing is left of the removal either.
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.registry.root + "/Mobile Documents")
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the storage view: each document under Documents/, a package counted once with what is in it, the rest as data")
    func usage() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.iCloudManifest("com.example.notes"))
        let container = workspace.registry.root + "/Mobile Documents/iCloud~com~example~notes"
        let manager = FileManager.default
        try manager.createDirectory(atPath: container + "/Documents/Trip/Slides.key/Data", withIntermediateDirectories: true)
        try Data(repeating: 1, count: 1_000).write(to: URL(filePath: container + "/Documents/Trip/Slides.key/Data/image.png"))
        try Data("<?xml version=\"1.0\"?><x/>".utf8).write(to: URL(filePath: container + "/Documents/Trip/Slides.key/Index.xml"))
        try Data(pngBytes).write(to: URL(filePath: container + "/Documents/photo.png"))
        try Data("note\n".utf8).write(to: URL(filePath: container + "/Documents/Trip/notes.txt"))
        try manager.createDirectory(atPath: container + "/Library/Caches", withIntermediateDirectories: true)
        try Data(repeating: 0, count: 300).write(to: URL(filePath: container + "/Library/state.db"))
        try Data(repeating: 0, count: 20).write(to: URL(filePath: container + "/Library/Caches/c"))
        try manager.createSymbolicLink(atPath: container + "/Documents/link", withDestinationPath: "/etc/passwd")
        let usage = try #require(try workspace.registry.ubiquityUsage(for: "com.example.notes").first)
        #expect(usage.container == Self.container)
        #expect(usage.documents.map(\.path) == ["Documents/Trip/Slides.key", "Documents/Trip/notes.txt", "Documents/link", "Documents/photo.png"])
        let slides = usage.documents[0]
        #expect(slides.isPackage && slides.type.conforms(to: .package) && slides.size == 1_000 + 25, "\(slides)")
        #expect(usage.documents[3].type == .png && usage.documents[3].size == pngBytes.count)
        #expect(usage.documents[2].type == .symbolicLink)
        #expect(usage.dataSize == 320 && usage.totalSize == 320 + 1_025 + pngBytes.count + 5 + usage.documents[2].size)
    }
}
