import Foundation
import Testing
import FileIdentification
import UniformTypeIdentifiers
import TestSupport
import AppContainers
import ContainerTestSupport

/// The registry's defences, tested through the library: what a hostile manifest or an odd container does to
/// the registry. Delivery's side is DocumentRoutingTests' `HostileInputTests`; the command line's, `HardeningTests`.
@Suite("The registry's defences, through the library")
struct HostileManifestTests {
    @Test("a manifest too large, nested too deep, or with a reference cycle is refused, naming the file and the limit; nothing is stored")
    func hostileManifests() throws {
        let workspace = try Workspace()
        _ = try workspace.registerViewer()
        func manifest(_ identifier: String, extra: String) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>\(identifier)</string>\(extra)</dict></plist>"
        }
        var cyclic: [UInt8] = Array("bplist00".utf8) + [0xD1, 0x01, 0x00, 0x51, 0x6B]
        cyclic += [8, 11] + [0, 0, 0, 0, 0, 1, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 13]
        let cases: [(String, [UInt8], String)] = [
            ("Large.plist", Array(manifest("com.example.large", extra: "<key>Padding</key><string>" + String(repeating: "x", count: 2 << 20) + "</string>").utf8), "larger than 1 MiB"),
            ("Deep.plist", Array(manifest("com.example.deep", extra: "<key>Deep</key>" + String(repeating: "<array>", count: 1_500) + String(repeating: "</array>", count: 1_500)).utf8), "nested deeper than 32 levels"),
            ("Deeper.plist", Array(manifest("com.example.deeper", extra: "<key>Deep</key>" + String(repeating: "<array>", count: 100_000)).utf8), "nested deeper than 32 levels"),
            ("Cyclic.plist", cyclic, "cycle"),
        ]
        for (name, bytes, message) in cases {
            let file = try workspace.file(name, bytes)
            #expect { try workspace.registry.register(appAt: file) } throws: { error in
                guard let error = error as? RegistryError else { return false }
                return error.reason.kind == .manifest && error.description.contains(name) && error.description.contains(message)
            }
        }
        #expect(try workspace.registry.apps().map(\.bundleIdentifier) == ["com.example.viewer"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path + "/root/Containers") == ["com.example.viewer"])
    }

    /// An exported type declaration of a manifest.
    private static func exporting(_ identifier: String, conformsTo: [String], extensions: [String]) -> [String: Any] {
        ["UTTypeIdentifier": identifier, "UTTypeConformsTo": conformsTo,
         "UTTypeTagSpecification": ["public.filename-extension": extensions]]
    }

    @Test("a manifest exporting a public identifier is refused, naming the key; nothing is registered")
    func exportingAPublicTypeIsRefused() throws {
        let workspace = try Workspace()
        let hostile = try workspace.app("com.example.hostile", [.init(types: ["public.jpeg"], rank: "Alternate")],
                                        declarations: [Self.exporting("public.jpeg", conformsTo: ["public.data"], extensions: ["jpg"])])
        #expect { try workspace.registry.register(appAt: hostile) } throws: { error in
            guard let error = error as? RegistryError else { return false }
            return error.description.contains("UTExportedTypeDeclarations[0].UTTypeIdentifier") && error.description.contains("public.jpeg")
        }
        #expect(try workspace.registry.apps().isEmpty)
    }

    @Test("an exported type belongs to the app that exported it first: a later app's export is ignored and reported, and the first app registered again keeps it")
    func exportsBelongToTheFirstExporter() throws {
        let workspace = try Workspace()
        let owner = try workspace.app("com.example.owner", [.init(types: ["com.example.owner.sheet"], rank: "Owner")],
                                      declarations: [Self.exporting("com.example.owner.sheet", conformsTo: ["public.data"], extensions: ["osheet"])])
        let rival = try workspace.app("com.example.rival", [.init(types: ["com.example.owner.sheet"], rank: "Owner")],
                                      declarations: [Self.exporting("com.example.owner.sheet", conformsTo: ["public.image"], extensions: ["osheet"])])
        #expect(try workspace.registry.register(appAt: owner).warnings.isEmpty)
        let rivalWarnings = try workspace.registry.register(appAt: rival).warnings
        #expect(rivalWarnings.contains { $0.kind == .ignoredDeclaration && $0.bundleIdentifier == "com.example.rival" && $0.detail.contains("exported by com.example.owner") },
                "\(rivalWarnings)")
        let database = TypeDatabase(includingBuiltInTypes: false)
        _ = try workspace.registry.loadDeclarations(into: database)
        let sheet = try #require(database.declarations.first { $0.identifier == "com.example.owner.sheet" })
        #expect(sheet.conformsTo == ["public.data"], "the owner's declaration is in force")
        #expect(try workspace.registry.register(appAt: owner).warnings.isEmpty, "registered again, the owner is not told its export is another's")
        #expect(try workspace.registry.check(repairing: false).problems.contains { $0.kind == .ignoredDeclaration && $0.bundleIdentifier == "com.example.rival" })
    }

    @Test("a cache entry dated in the future ranks as the oldest for purging, not the newest")
    func futureDatesRankOldest() throws {
        let workspace = try Workspace()
        _ = try workspace.registerViewer()
        let caches = try workspace.registry.path(of: .caches, for: "com.example.viewer")
        for (name, date) in [("old", "2001-01-01"), ("future", "2999-01-01"), ("recent", "")] {
            try Data(name.utf8).write(to: URL(filePath: caches + "/" + name))
            if !date.isEmpty { #expect(Tools.run("/usr/bin/touch", ["-d", date, caches + "/" + name])) }
        }
        let report = try workspace.registry.purgeCaches(dryRun: true)
        #expect(report.removed.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } == ["future", "old", "recent"])
    }
}
