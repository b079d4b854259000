import Foundation
import Testing
import FileIdentification
import AppContainers
import ContainerTestSupport
@testable import DocumentRouting
#if canImport(Glibc)
import Glibc
#endif

@Suite("Delivery into Documents/Inbox")
struct InboxTests {
    private func viewer(_ workspace: Workspace) throws -> Inbox {
        try workspace.registry.register(appAt: try workspace.app("com.example.viewer", [.init(types: ["public.item"])]))
        return Inbox(registry: workspace.registry, bundleIdentifier: "com.example.viewer")
    }

    @Test func neverOverwritesAndIsReadOnly() throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        let first = try workspace.file("report.pdf", Array("one".utf8))
        #expect(try inbox.deliver(RawFilePath(first)).name == "report.pdf")
        try Data("two".utf8).write(to: URL(filePath: first))
        #expect(try inbox.deliver(RawFilePath(first)).name == "report-1.pdf")
        #expect(try inbox.deliver(contents: SpooledBytes(contents: Array("three".utf8)), as: "report.pdf").name == "report-2.pdf")
        #expect(try inbox.deliver(contents: SpooledBytes(contents: Array("dot".utf8)), as: ".hidden").name == ".hidden")
        #expect(try inbox.deliver(contents: SpooledBytes(contents: Array("dot".utf8)), as: ".hidden").name == ".hidden-1")
        let path = try workspace.inbox("com.example.viewer")
        #expect(try String(contentsOfFile: path + "/report.pdf", encoding: .utf8) == "one")
        #expect(try String(contentsOfFile: path + "/report-1.pdf", encoding: .utf8) == "two")
        var status = stat()
        #expect(stat(path + "/report.pdf", &status) == 0 && status.st_mode & 0o777 == 0o444)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.registry.containerPath("com.example.viewer") + "/tmp").filter { $0 != "CACHEDIR.TAG" }.isEmpty)
        #expect(try inbox.list().map(\.name) == [".hidden", ".hidden-1", "report-1.pdf", "report-2.pdf", "report.pdf"])
    }

    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "a/b", ".", "..", "", "nul\u{0}byte", String(repeating: "x", count: 256)])
    func hostileNamesAreRefused(name: String) throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        #expect(throws: DeliveryError.self) { try inbox.deliver(contents: SpooledBytes(contents: Array("x".utf8)), as: RawFilePath(name)) }
        #expect(try workspace.inboxNames("com.example.viewer").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.registry.containerPath("com.example.viewer") + "/tmp").filter { $0 != "CACHEDIR.TAG" }.isEmpty)
    }

    @Test("a symbolic link planted in the container is refused, never followed")
    func plantedSymlinks() throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        let outside = workspace.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let inboxPath = try workspace.inbox("com.example.viewer")
        try FileManager.default.removeItem(atPath: inboxPath)
        #expect(symlink(outside, inboxPath) == 0)
        let error = try #require(throws: DeliveryError.self) { try inbox.deliver(contents: SpooledBytes(contents: Array("x".utf8)), as: "note.txt") }
        #expect(error.message.contains("not a directory of the container"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        // tmp replaced by a link too.
        let temporary = try workspace.registry.containerPath("com.example.viewer") + "/tmp"
        try FileManager.default.removeItem(atPath: temporary)
        #expect(symlink(outside, temporary) == 0)
        #expect(throws: DeliveryError.self) { try inbox.deliver(contents: SpooledBytes(contents: Array("x".utf8)), as: "note.txt") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test("moving removes the source only after the copy is delivered")
    func move() throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        let source = try workspace.file("image.png", pngBytes)
        let delivery = try inbox.deliver(RawFilePath(source), move: true)
        #expect(!FileManager.default.fileExists(atPath: source))
        #expect(try Array(Data(contentsOf: URL(filePath: delivery.path.string))) == pngBytes)
    }

    @Test("temporaries of a delivery that was killed are removed by the next one")
    func abandonedTemporaries() throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        // A process id that no process has: the highest possible one.
        var maximum = "4194304"
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8) {
            maximum = String(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 4_194_304)
        }
        let temporary = try workspace.registry.containerPath("com.example.viewer") + "/tmp"
        try Data("half a file".utf8).write(to: URL(filePath: temporary + "/\(maximum).1.42.uti-delivery"))
        try Data("the app's own".utf8).write(to: URL(filePath: temporary + "/app-scratch"))
        _ = try inbox.deliver(contents: SpooledBytes(contents: Array("x".utf8)), as: "a.txt")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0 != "CACHEDIR.TAG" } == ["app-scratch"])
    }

    @Test func claimAndRemove() throws {
        let workspace = try Workspace()
        let inbox = try viewer(workspace)
        _ = try inbox.deliver(contents: SpooledBytes(contents: Array("x".utf8)), as: "draft.txt")
        _ = try inbox.deliver(contents: SpooledBytes(contents: Array("y".utf8)), as: "draft.txt")
        let claimed = try inbox.claim("draft.txt")
        #expect(claimed.string.hasSuffix("/Documents/draft.txt"))
        var status = stat()
        #expect(stat(claimed.string, &status) == 0 && status.st_mode & 0o200 != 0, "claimed files are writable")
        try inbox.remove("draft-1.txt")
        #expect(try inbox.list().isEmpty)
        #expect(throws: DeliveryError.self) { try inbox.remove("draft-1.txt") }
        #expect(throws: DeliveryError.self) { try inbox.claim("../secret") }
    }
}
