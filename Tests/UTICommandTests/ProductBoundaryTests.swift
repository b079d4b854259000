import Foundation
import Testing
import TestSupport

/// The apps' side is three products whose dependencies point one way: `AppContainers` knows neither of the
/// others, and `DocumentRouting` and `ContainerSync` each build on it without knowing each other, so that a
/// program that routes uploads does not link a sync engine. Read from the sources' imports, and from what the
/// built service (a routing program) links.
@Suite("The products' boundaries")
struct ProductBoundaryTests {
    /// The modules the Swift files under `Sources/<module>/` import.
    static func imports(of module: String) throws -> Set<String> {
        let directory = Tools.packageRoot.appending(path: "Sources/\(module)")
        let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects as? [URL])
        var found: Set<String> = []
        for file in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                guard let at = words.firstIndex(of: "import"), at <= 1, at + 1 < words.count else { continue }
                if at == 1, !["public", "package", "internal", "private", "fileprivate"].contains(words[0]) { continue }
                found.insert(String(words[at + 1]))
            }
        }
        return found
    }

    @Test("AppContainers imports neither DocumentRouting nor ContainerSync; those two do not import each other")
    func importsPointOneWay() throws {
        let containers = try Self.imports(of: "AppContainers")
        let routing = try Self.imports(of: "DocumentRouting")
        let sync = try Self.imports(of: "ContainerSync")
        #expect(routing.contains("AppContainers") && sync.contains("AppContainers") && containers.contains("FileIdentification"),
                "the imports were read: \(containers), \(routing), \(sync)")
        #expect(containers.isDisjoint(with: ["DocumentRouting", "ContainerSync", "UTIReports", "UTIService"]), "\(containers)")
        #expect(!routing.contains("ContainerSync"), "\(routing)")
        #expect(!sync.contains("DocumentRouting"), "\(sync)")
    }

    @Test("the service, a program that routes, links no part of the sync; the command line, which syncs, does")
    func routingProgramLinksNoSync() throws {
        let module = Data("ContainerSync".utf8)
        let server = try Data(contentsOf: Tools.builtProduct("uti-server"), options: .alwaysMapped)
        let command = try Data(contentsOf: Tools.builtProduct("uti"), options: .alwaysMapped)
        #expect(command.range(of: module) != nil, "uti links ContainerSync, so the search finds a linked module")
        #expect(server.range(of: Data("DocumentRouting".utf8)) != nil)
        #expect(server.range(of: module) == nil, "uti-server links ContainerSync")
    }
}
