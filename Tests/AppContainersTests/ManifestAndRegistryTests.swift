import Foundation
import Testing
import UniformTypeIdentifiers
import FileIdentification
import SystemPackage
import ContainerTestSupport
@testable import AppContainers

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
