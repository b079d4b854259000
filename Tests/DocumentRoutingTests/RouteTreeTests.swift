import Foundation
import Testing
import FileIdentification
import AppContainers
import ContainerTestSupport
@testable import DocumentRouting
#if canImport(Glibc)
import Glibc
#endif

@Suite("DocumentRouter.route(treesAt:)")
struct RouteTreeTests {
    @Test("every regular file of the trees, in byte order within each directory; links and hidden names left out; a root that is a file routed as one")
    func routesTheRegularFiles() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.app("com.example.viewer", [.init(types: ["public.item"])]))
        let tree = workspace.path + "/tree"
        try FileManager.default.createDirectory(atPath: tree + "/b/deeper", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tree + "/.hidden", withIntermediateDirectories: true)
        for name in ["a.txt", "b/c.txt", "b/deeper/d.txt", ".hidden/e.txt", ".f.txt"] { _ = try workspace.file("tree/" + name, Array(name.utf8)) }
        let outside = try workspace.file("outside.txt", Array("outside".utf8))
        #expect(symlink(outside, tree + "/b/link.txt") == 0)
        #expect(symlink(workspace.path, tree + "/b/up") == 0)
        #expect(mkfifo(tree + "/fifo", 0o600) == 0)
        let single = try workspace.file("single.txt", Array("one".utf8))
        let router = try DocumentRouter(registry: workspace.registry)
        var outcomes: [String] = []
        var failures: [String] = []
        router.route(treesAt: [RawFilePath(tree), RawFilePath(single)], options: .init(move: true)) { result in
            switch result {
            case .success(let outcome): outcomes.append(outcome.source)
            case .failure(let error): failures.append(error.description)
            }
            return true
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(outcomes == [tree + "/a.txt", tree + "/b/c.txt", tree + "/b/deeper/d.txt", single])
        #expect(try workspace.inboxNames("com.example.viewer").sorted() == ["a.txt", "c.txt", "d.txt", "single.txt"])
        #expect(FileManager.default.fileExists(atPath: outside) && FileManager.default.fileExists(atPath: tree + "/.f.txt"), "moved only what was routed")
        #expect(!FileManager.default.fileExists(atPath: tree + "/a.txt"))
    }

    @Test("the body can stop the walk")
    func stops() throws {
        let workspace = try Workspace()
        try workspace.registry.register(appAt: try workspace.app("com.example.viewer", [.init(types: ["public.item"])]))
        try FileManager.default.createDirectory(atPath: workspace.path + "/tree", withIntermediateDirectories: true)
        for index in 0..<5 { _ = try workspace.file("tree/f\(index).txt", Array("x".utf8)) }
        let router = try DocumentRouter(registry: workspace.registry)
        var seen = 0
        router.route(treesAt: [RawFilePath(workspace.path + "/tree")]) { _ in
            seen += 1
            return seen < 2
        }
        #expect(seen == 2)
        #expect(try workspace.inboxNames("com.example.viewer").count == 2)
    }
}
