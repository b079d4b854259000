import Foundation
import Testing
import UniformTypeIdentifiers
import FileIdentification
import SystemPackage
@testable import DocumentRouting

@Suite("Manifests and the registry")
struct ManifestAndRegistryTests {
    @Test(arguments: [false, true])
    func manifestsXMLAndBinary(binary: Bool) throws {
        let workspace = try Workspace()
        let bundle = try workspace.app("com.example.editor", [
            .init(types: ["public.plain-text"], role: "Editor", rank: "Owner"),
            .init(types: [], role: "Viewer", rank: nil, extensions: ["log"]),
        ], inPlace: true, binary: binary)
        let (manifest, plist, _) = try AppManifest.read(contentsOf: bundle)
        #expect(plist.hasSuffix("Contents/Info.plist"))
        #expect(manifest.bundleIdentifier == "com.example.editor")
        #expect(manifest.name == "editor")
        #expect(manifest.supportsOpeningDocumentsInPlace)
        #expect(manifest.documentTypes.count == 2)
        #expect(manifest.documentTypes[0].role == .editor && manifest.documentTypes[0].rank == .owner)
        #expect(manifest.documentTypes[0].claimedTypes == [.plainText])
        #expect(manifest.documentTypes[1].rank == .default, "LSHandlerRank defaults to Default")
        #expect(manifest.documentTypes[1].claimedTypes == [UTType(filenameExtension: "log")!], "legacy extensions when LSItemContentTypes is absent")
    }

    @Test func legacyTagsAreIgnoredBesideContentTypes() throws {
        let plist = """
            <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.legacy</string>
            <key>CFBundleDocumentTypes</key><array><dict>
            <key>LSItemContentTypes</key><array><string>public.png</string></array>
            <key>CFBundleTypeExtensions</key><array><string>txt</string></array></dict></array></dict></plist>
            """
        let manifest = try AppManifest.parse(Array(plist.utf8), file: "Info.plist")
        #expect(manifest.documentTypes[0].claimedTypes == [.png])
    }

    @Test(arguments: [
        ("<key>CFBundleName</key><string>x</string>", "CFBundleIdentifier", "is missing"),
        ("<key>CFBundleIdentifier</key><string>../evil</string>", "CFBundleIdentifier", "is not a bundle identifier"),
        ("<key>CFBundleIdentifier</key><string>com.x</string><key>CFBundleDocumentTypes</key><array><dict><key>LSHandlerRank</key><string>Best</string></dict></array>",
         "CFBundleDocumentTypes[0].LSHandlerRank", "'Best' is not Owner, Default, Alternate or None"),
        ("<key>CFBundleIdentifier</key><string>com.x</string><key>CFBundleDocumentTypes</key><array><dict><key>LSItemContentTypes</key><array><integer>3</integer></array></dict></array>",
         "CFBundleDocumentTypes[0].LSItemContentTypes[0]", "must be a string"),
        ("<key>CFBundleIdentifier</key><string>com.x</string><key>CFBundleDocumentTypes</key><string>nope</string>",
         "CFBundleDocumentTypes", "must be an array"),
    ])
    func invalidManifests(body: String, key: String, problem: String) throws {
        let error = try #require(throws: ManifestError.self) {
            try AppManifest.parse(Array("<plist version=\"1.0\"><dict>\(body)</dict></plist>".utf8), file: "/apps/X.app/Info.plist")
        }
        #expect(error.file == "/apps/X.app/Info.plist")
        #expect(error.key == key)
        #expect(error.problem.contains(problem), "\(error)")
    }

    @Test func registeringMakesTheContainerAndKeepsDataAcrossUnregistering() throws {
        let workspace = try Workspace()
        let bundle = try workspace.app("com.example.keeper", [.init(types: ["public.data"])])
        try workspace.registry.register(appAt: bundle)
        let container = try workspace.registry.containerPath("com.example.keeper")
        for directory in Registry.containerDirectories {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: container + "/" + directory, isDirectory: &isDirectory) && isDirectory.boolValue, "\(directory)")
        }
        try Data("kept".utf8).write(to: URL(filePath: container + "/Documents/notes.txt"))
        try workspace.registry.unregister("com.example.keeper", deleteData: false)
        #expect(try workspace.registry.apps().isEmpty)
        #expect(FileManager.default.fileExists(atPath: container + "/Documents/notes.txt"))
        try workspace.registry.register(appAt: bundle)
        #expect(try String(contentsOfFile: container + "/Documents/notes.txt", encoding: .utf8) == "kept")
        #expect(try workspace.registry.apps().map(\.bundleIdentifier) == ["com.example.keeper"])
        try workspace.registry.unregister("com.example.keeper", deleteData: true)
        #expect(!FileManager.default.fileExists(atPath: container))
        #expect(throws: RegistryError.self) { try workspace.registry.unregister("com.example.keeper", deleteData: false) }
    }

    @Test func declaredTypesJoinTheDatabase() throws {
        let workspace = try Workspace()
        let bundle = try workspace.app("com.example.notebooks", [.init(types: ["com.example.routing-notebook"], rank: "Owner")], declarations: [[
            "UTTypeIdentifier": "com.example.routing-notebook", "UTTypeConformsTo": ["public.json"],
            "UTTypeTagSpecification": ["public.filename-extension": ["rnb"]],
        ]])
        try workspace.registry.register(appAt: bundle)
        try workspace.registry.loadDeclarations()
        let type = try #require(UTType(filenameExtension: "rnb"))
        #expect(type.identifier == "com.example.routing-notebook")
        #expect(type.conforms(to: .json))
        let candidates = HandlerChoice.candidates(for: type, apps: try workspace.registry.apps(), defaults: [])
        #expect(candidates.map(\.bundleIdentifier) == ["com.example.notebooks"])
    }

    @Test("declarations that close a cycle only together with another app's are refused; the registry keeps working")
    func cycleAcrossApps() throws {
        let workspace = try Workspace()
        let first = try workspace.app("com.example.first", [.init(types: ["com.example.cycle-x"])], declarations: [[
            "UTTypeIdentifier": "com.example.cycle-x", "UTTypeConformsTo": ["com.example.cycle-y"],
        ]])
        let second = try workspace.app("com.example.second", [.init(types: ["com.example.cycle-y"])], declarations: [[
            "UTTypeIdentifier": "com.example.cycle-y", "UTTypeConformsTo": ["com.example.cycle-x"],
        ]])
        try workspace.registry.register(appAt: first)
        let error = try #require(throws: RegistryError.self) { try workspace.registry.register(appAt: second) }
        #expect(error.reason.kind == .declarations)
        #expect(error.reason.declarationError?.problem.kind == .conformanceCycle)
        #expect(error.description.contains("com.example.cycle-x") && error.description.contains("cycle"), "\(error)")
        #expect(try workspace.registry.apps().map(\.bundleIdentifier) == ["com.example.first"])
        // Registering the first app again (its own declarations replace its old ones) still passes.
        try workspace.registry.register(appAt: first)
        #expect(try workspace.registry.loadDeclarations().apps.count == 1)
    }

    @Test("the library checks a bundle identifier before any path is built from it", arguments: ["../x", "/abs", "a/b", "..", ".x", "a..b"])
    func bundleIdentifiersAreCheckedByTheLibrary(identifier: String) throws {
        let workspace = try Workspace()
        let app = #expect(throws: RegistryError.self) { try workspace.registry.app(identifier) }
        #expect(app?.reason.kind == .invalidBundleIdentifier)
        #expect(throws: RegistryError.self) { try workspace.registry.containerPath(identifier) }
        #expect(throws: RegistryError.self) { try workspace.registry.unregister(identifier, deleteData: true) }
        #expect(throws: RegistryError.self) { try workspace.registry.setDefault(type: .data, role: nil, bundleIdentifier: identifier) }
        let inbox = Inbox(registry: workspace.registry, bundleIdentifier: identifier)
        let listed = #expect(throws: DeliveryError.self) { try inbox.list() }
        #expect(listed?.reason.kind == .registry && listed?.reason.registryError?.reason.kind == .invalidBundleIdentifier)
        #expect(throws: DeliveryError.self) { try inbox.deliver(contents: SpooledBytes(contents: [1]), as: "x") }
    }

    @Test("a manifest made in code is checked as a parsed one is")
    func manifestsMadeInCode() throws {
        let workspace = try Workspace()
        let manifest = AppManifest(bundleIdentifier: "com.example.coded", name: "Coded",
                                   documentTypes: [.init(name: nil, contentTypes: ["not a type"], role: .viewer, rank: .default,
                                                         legacyExtensions: [], legacyMIMETypes: [])],
                                   declarations: [], supportsOpeningDocumentsInPlace: false, fileSharingEnabled: false)
        let error = #expect(throws: RegistryError.self) { try workspace.registry.register(manifest) }
        #expect(error?.reason.kind == .manifest)
        #expect(try workspace.registry.apps().isEmpty)
    }
}

@Suite("The routing libraries' errors")
struct RoutingErrorShapeTests {
    @Test func eachDomainDescribesItsReasonsAndKeepsTheirCauses() {
        let registry = RegistryError(path: "/r/state", reason: .notRegistered("com.example.app"))
        #expect(registry.description == "/r/state: 'com.example.app' is not registered")
        #expect(registry.kind == .notRegistered && registry.reason.subject == "com.example.app")

        let delivery = DeliveryError(path: "photo.jpg", reason: .registry(registry))
        #expect(delivery.description == "photo.jpg: 'com.example.app' is not registered")
        #expect(delivery.reason.registryError == registry)

        let backup = BackupError(path: "a/b", reason: .system(.permissionDenied, while: "reading user.uti.backup"))
        #expect(backup.description == "a/b: reading user.uti.backup: \(Errno.permissionDenied)")

        // A routing error names the file's type, which it carries beside its cause.
        let routing = RoutingError(path: "photo.jpg", type: .jpeg, reason: .targetDoesNotOpen("com.example.viewer"))
        #expect(routing.type == .jpeg)
        #expect(routing.description == "photo.jpg: com.example.viewer does not open public.jpeg; nothing delivered")
        let failed = RoutingError(path: "photo.jpg", type: .jpeg, reason: .delivery(delivery, to: "com.example.viewer"))
        #expect(failed.type == .jpeg && failed.reason.deliveryError == delivery && failed.reason.bundleIdentifier == "com.example.viewer")
        #expect(RoutingError(path: "-", type: nil, reason: .noHandler).message == "no registered app opens it; nothing delivered")
    }
}
