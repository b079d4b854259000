import Foundation
import Testing
import FileIdentification
import UniformTypeIdentifiers
import TestSupport
import AppContainers
import ContainerTestSupport
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
        let inbox = try workspace.registerViewer()
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
        _ = try workspace.registerViewer()
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
        _ = try workspace.registerViewer()
        let router = try DocumentRouter(registry: workspace.registry)
        // /proc files say they are empty and are not: to the copy, a file that changed under it.
        #expect { try router.route(fileAt: "/proc/self/status", as: "status.txt", options: .init(target: "com.example.viewer")) } throws: { error in
            (error as? RoutingError)?.reason.deliveryError?.reason.kind == .sourceChanged
        }
        #expect(try workspace.inboxNames("com.example.viewer").isEmpty)
        let temporary = try workspace.registry.containerPath("com.example.viewer") + "/tmp"
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0 != "CACHEDIR.TAG" }.isEmpty)
    }
}
