import Foundation
import TestSupport
import Testing

/// docs/CommandLine.md says every example in it is what `uti` prints: each one (an indented `$ ` line, then
/// what it prints up to the blank line) is run here through the built binary, in a directory holding the files
/// the examples name, and its output compared line for line.
@Suite("The command line's documented examples")
struct DocumentedExamplesTests {
    static let repository = Tools.packageRoot

    struct Example: CustomTestStringConvertible {
        var command: String
        var output: [String]
        var testDescription: String { command }
    }

    /// The examples of docs/CommandLine.md, in order.
    static func examples() throws -> [Example] {
        let text = try String(contentsOf: repository.appending(path: "docs/CommandLine.md"), encoding: .utf8)
        var examples: [Example] = []
        var current: Example?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("    $ ") {
                if let current { examples.append(current) }
                current = Example(command: String(line.dropFirst(6)), output: [])
            } else if current != nil, line.hasPrefix("    ") {
                current?.output.append(String(line.dropFirst(4)))
            } else {
                if let done = current { examples.append(done) }
                current = nil
            }
        }
        if let current { examples.append(current) }
        return examples
    }

    @Test("the document has examples to check")
    func documentHasExamples() throws {
        #expect(try Self.examples().count >= 6)
    }

    @Test("each example prints what the document shows", arguments: try DocumentedExamplesTests.examples())
    func exampleOutput(_ example: Example) throws {
        // The files the examples name: this repository's Package.swift and README.md, an executable named like a
        // photograph, a gzip stream named as a compressed tarball.
        let directory = try TemporaryDirectory()
        for name in ["Package.swift", "README.md"] {
            _ = try directory.write(try Data(contentsOf: Self.repository.appending(path: name)), to: name)
        }
        _ = try directory.write(try Data(contentsOf: URL(filePath: "/bin/true")), to: "photo.jpg")
        // gzip of nothing (RFC 1952: header, an empty stored block, CRC-32 and size 0).
        _ = try directory.write([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0], to: "archive.tar.gz")
        let bin = UTIBinary.url.deletingLastPathComponent().path
        let result = try UTIBinary.run(executable: URL(filePath: "/bin/sh"), ["-c", "cd '\(directory.path)' && \(example.command)"],
                                       environment: ["PATH": bin + ":/usr/bin:/bin"])
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        // A comment after the command (`# ...`) is the document's, not the shell's output.
        #expect(result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) == example.output,
                "\(example.command)\n\(result.standardOutput)")
    }
}
