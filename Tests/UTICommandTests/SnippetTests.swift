import Foundation
import TestSupport
import Testing

/// The code the documentation shows is code that compiles and runs: `Snippets/` (which `swift build` compiles,
/// and the DocC catalogs show), the README's Swift block being one of them, and the upload handler run for real.
@Suite("Snippets")
struct SnippetTests {
    /// A snippet's code as DocC shows it: without its leading explanation and its hidden lines.
    static func shownCode(of snippet: String) throws -> [String] {
        let text = try String(contentsOf: Tools.packageRoot.appending(path: "Snippets/\(snippet).swift"), encoding: .utf8)
        var lines: [String] = []
        var hidden = false
        var explanation = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if explanation && line.hasPrefix("//") { continue }
            explanation = false
            let marker = line.trimmingCharacters(in: .whitespaces)
            if marker == "// snippet.hide" { hidden = true; continue }
            if marker == "// snippet.show" { hidden = false; continue }
            if !hidden { lines.append(line) }
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    @Test("the README's Swift block is Snippets/GettingStarted.swift, line for line")
    func readmeBlock() throws {
        let readme = try String(contentsOf: Tools.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let block = try #require(blocks.first { $0.hasPrefix("import UniformTypeIdentifiers") }, "no Swift block importing the library")
        #expect(block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == (try Self.shownCode(of: "GettingStarted")))
    }

    @Test("every snippet the catalogs show is built, and each catalog's @Snippet names one that exists")
    func snippetsBuilt() throws {
        let directory = Tools.packageRoot.appending(path: "Snippets")
        let snippets = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .map { String($0.dropLast(".swift".count)) }
        #expect(snippets.count >= 5)
        for snippet in snippets {
            #expect(FileManager.default.isExecutableFile(atPath: Tools.builtProduct(snippet).path), "\(snippet) was not built")
        }
        var references = 0
        for module in ["UniformTypeIdentifiers", "FileIdentification", "DocumentRouting"] {
            let catalog = Tools.packageRoot.appending(path: "Sources/\(module)/\(module).docc")
            for article in try FileManager.default.contentsOfDirectory(atPath: catalog.path) where article.hasSuffix(".md") {
                let text = try String(contentsOf: catalog.appending(path: article), encoding: .utf8)
                for reference in text.components(separatedBy: "@Snippet(path: \"uti/Snippets/").dropFirst() {
                    let name = reference.components(separatedBy: "\"")[0]
                    #expect(snippets.contains(name), "\(module)/\(article) shows the snippet \(name), which is not in Snippets/")
                    references += 1
                }
            }
        }
        #expect(references > 0, "no article shows a snippet: the @Snippet directives were not found")
    }

    @Test("the upload handler, run: a PNG uploaded as holiday.txt is flagged and lands in the viewer's Inbox")
    func uploadHandlerRuns() throws {
        let setup = try RouteCommandTests.Setup()
        let run = try UTIBinary.run(executable: Tools.builtProduct("IdentifyAndRouteUpload"), [], environment: ["UTI_ROOT": setup.root])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("holiday.txt is no public.plain-text: it is public.png"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("com.example.viewer has it: \(setup.inbox)/holiday.txt"), "\(run.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: setup.inbox + "/holiday.txt"))
    }
}
