import Foundation
import Testing
import FileIdentification
import UniformTypeIdentifiers
import TestSupport
import DocumentRouting
#if canImport(Glibc)
import Glibc
#endif

/// Routing's defences, tested through the library (`Registry`, `DocumentRouter`): what a hostile or odd input
/// does to the registry and the containers. The command line's side of the same cases (exit statuses, the
/// messages it prints) stays in `HardeningTests`.
@Suite("Routing's defences, through the library")
struct HostileInputTests {
    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o7777
    }

    /// A viewer of everything, registered; its Inbox's path.
    private static func viewer(_ workspace: Workspace, _ identifier: String = "com.example.viewer") throws -> String {
        try workspace.registry.register(appAt: try workspace.app(identifier, [.init(types: ["public.data"])]))
        return try workspace.inbox(identifier)
    }

    @Test("bundle identifiers that differ only in case are one app, when it is the same bundle")
    func bundleIdentifiersIgnoreCase() throws {
        let workspace = try Workspace()
        let bundle = try workspace.app("com.example.viewer", [.init(types: ["public.data"])])
        try workspace.registry.register(appAt: bundle)
        // The same bundle, its identifier now spelt in capitals.
        let plist = bundle + "/Contents/Info.plist"
        let text = try String(contentsOfFile: plist, encoding: .utf8).replacingOccurrences(of: "com.example.viewer", with: "COM.Example.VIEWER")
        try text.write(toFile: plist, atomically: true, encoding: .utf8)
        try workspace.registry.register(appAt: bundle)
        #expect(try workspace.registry.apps().map(\.bundleIdentifier) == ["COM.Example.VIEWER"])
        #expect(FileManager.default.fileExists(atPath: workspace.path + "/root/Containers/com.example.viewer/Documents/Inbox"),
                "the container keeps its first spelling")
        let router = try DocumentRouter(registry: workspace.registry)
        _ = try router.route(fileAt: RawFilePath(try workspace.file("a.png", pngBytes)), options: .init(target: "com.EXAMPLE.viewer"))
        #expect(try workspace.inboxNames("Com.Example.Viewer") == ["a.png"])
        _ = try workspace.registry.unregister("com.example.VIEWER", deleteData: true)
        #expect(try workspace.registry.apps().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/root/Containers/com.example.viewer"))
        // Another bundle with the same identifier in another case is another app: refused.
        try workspace.registry.register(appAt: bundle)
        let other = try workspace.app("com.example.VIEWER", [.init(types: ["public.data"])])
        #expect { try workspace.registry.register(appAt: other) } throws: { error in
            (error as? RegistryError)?.reason.kind == .bundleIdentifierTaken
        }
    }

    @Test("bundle identifiers of up to 255 bytes register, route and unregister; a longer one is refused")
    func longBundleIdentifiers() throws {
        let workspace = try Workspace()
        for length in [240, 255] {
            let identifier = "com." + String(repeating: "a", count: length - 4)
            try workspace.registry.register(appAt: try workspace.app(identifier, [.init(types: ["public.plain-text"])], bundleName: "Long\(length)"))
            let router = try DocumentRouter(registry: workspace.registry)
            let text = try workspace.file("note\(length).txt", Array("hello\n".utf8))
            #expect(try router.route(fileAt: RawFilePath(text), options: .init(target: identifier)).handler == identifier)
            #expect(try workspace.inboxNames(identifier) == ["note\(length).txt"])
            _ = try workspace.registry.unregister(identifier, deleteData: true)
        }
        let tooLong = "com." + String(repeating: "a", count: 252)
        #expect { try workspace.registry.register(appAt: try workspace.app(tooLong, [.init(types: ["public.data"])], bundleName: "TooLong")) } throws: { error in
            guard let error = error as? RegistryError else { return false }
            return error.reason.kind == .manifest && error.description.contains("CFBundleIdentifier: '\(tooLong)' is not a bundle identifier")
        }
        #expect(try workspace.registry.apps().isEmpty)
    }

    @Test("containers are private, and a copy is never more readable than its source")
    func privateContainersAndCopies() throws {
        let workspace = try Workspace()
        let inbox = try Self.viewer(workspace)
        let container = try workspace.registry.containerPath("com.example.viewer")
        for directory in ["", "/Documents", "/Documents/Inbox", "/Library", "/Library/Caches", "/tmp"] {
            #expect(Self.mode(container + directory) == 0o700, "\(directory)")
        }
        #expect(Self.mode(workspace.path + "/root/registry.json") == 0o600)
        let router = try DocumentRouter(registry: workspace.registry)
        for (name, permissions, copy) in [("secret.txt", 0o600, 0o400), ("open.txt", 0o644, 0o444), ("group.txt", 0o640, 0o440)] as [(String, mode_t, mode_t)] {
            let source = try workspace.file(name, Array(name.utf8))
            chmod(source, permissions)
            _ = try router.route(fileAt: RawFilePath(source))
            #expect(Self.mode(inbox + "/" + name) == copy, "\(name)")
        }
        // Bytes with no file behind them are the owner's alone unless the caller says otherwise.
        _ = try router.route(contents: SpooledBytes(contents: Array("from a pipe\n".utf8)), named: "piped.txt")
        #expect(Self.mode(inbox + "/piped.txt") & 0o044 == 0)
    }

    @Test("a symbolic link given as the file is refused unless the options say to follow it; a move removes the link, never its target")
    func symbolicLinkSources() throws {
        let workspace = try Workspace()
        _ = try Self.viewer(workspace)
        let target = try workspace.file("target.txt", Array("the target\n".utf8))
        let link = workspace.path + "/link.txt"
        #expect(symlink(target, link) == 0)
        let router = try DocumentRouter(registry: workspace.registry)
        #expect { try router.route(fileAt: RawFilePath(link)) } throws: { error in
            (error as? RoutingError)?.reason.kind == .symbolicLink
        }
        #expect(try workspace.inboxNames("com.example.viewer").isEmpty)
        _ = try router.route(fileAt: RawFilePath(link), options: .init(move: true, followsSymbolicLinks: true))
        #expect(try String(contentsOfFile: try workspace.inbox("com.example.viewer") + "/link.txt", encoding: .utf8) == "the target\n")
        #expect(Self.mode(link) == 0o7777, "the link is gone")
        #expect(FileManager.default.fileExists(atPath: target), "and the file it pointed to stays")
    }

    @Test("a source whose size is not what it holds (it changed during the copy) is refused, nothing delivered, nothing left")
    func sourceThatChanges() throws {
        let workspace = try Workspace()
        _ = try Self.viewer(workspace)
        let router = try DocumentRouter(registry: workspace.registry)
        // /proc files say they are empty and are not: to the copy, a file that changed under it.
        #expect { try router.route(fileAt: "/proc/self/status", as: "status.txt", options: .init(target: "com.example.viewer")) } throws: { error in
            (error as? RoutingError)?.reason.deliveryError?.reason.kind == .sourceChanged
        }
        #expect(try workspace.inboxNames("com.example.viewer").isEmpty)
        let temporary = try workspace.registry.containerPath("com.example.viewer") + "/tmp"
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0 != "CACHEDIR.TAG" }.isEmpty)
    }

    @Test("a manifest too large, nested too deep, or with a reference cycle is refused, naming the file and the limit; nothing is stored")
    func hostileManifests() throws {
        let workspace = try Workspace()
        _ = try Self.viewer(workspace)
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
        _ = try Self.viewer(workspace)
        let caches = try workspace.registry.path(of: .caches, for: "com.example.viewer")
        for (name, date) in [("old", "2001-01-01"), ("future", "2999-01-01"), ("recent", "")] {
            try Data(name.utf8).write(to: URL(filePath: caches + "/" + name))
            if !date.isEmpty { #expect(Tools.run("/usr/bin/touch", ["-d", date, caches + "/" + name])) }
        }
        let report = try workspace.registry.purgeCaches(dryRun: true)
        #expect(report.removed.map { String(decoding: $0.path.lastComponent, as: UTF8.self) } == ["future", "old", "recent"])
    }
}
