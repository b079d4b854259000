import Foundation
import TestSupport
import Testing

/// `uti identify --archives` and `uti classify --archives`, through the built binary, over archives bsdtar
/// makes for each test.
@Suite("uti identify and classify --archives", .enabled(if: Tools.has("bsdtar"), "needs bsdtar (libarchive-tools)"))
struct ArchiveCommandTests {
    /// A text file, a PNG and a ZIP of a text file, and a tar.gz of the three named `bundle#1.tar.gz`.
    static func archive() throws -> (TemporaryDirectory, archive: String) {
        let files = try TemporaryDirectory()
        try files.write("three lines\nof plain\ntext\n", to: "src/notes.txt")
        try files.write(IdentifyCommandTests.png + [UInt8](repeating: 0, count: 64), to: "src/pic.png")
        try files.write("inside\n", to: "zip/inside.txt")
        #expect(Tools.run("/usr/bin/bsdtar", ["-c", "--format", "zip", "-f", files.file("src/inner.zip"), "-C", files.file("zip"), "inside.txt"]))
        let archive = files.file("tree/bundle#1.tar.gz")
        try files.makeDirectory("tree")
        #expect(Tools.run("/usr/bin/bsdtar", ["-czf", archive, "-C", files.file("src"), "notes.txt", "pic.png", "inner.zip"]))
        return (files, archive)
    }

    @Test("identify: the archive's line says how many members, then one line each, ARCHIVE#MEMBER with # escaped as %23")
    func identifyLines() throws {
        let (files, archive) = try Self.archive()
        _ = files
        let result = try UTIBinary.run(["identify", "--archives", archive])
        #expect(result.status == 0, "\(result.standardError)")
        let escaped = archive.replacingOccurrences(of: "bundle#1", with: "bundle%231")
        #expect(result.lines == [
            "\(archive): org.gnu.gnu-zip-tar-archive (gzip tar archive) [4 members]",
            "\(escaped)#notes.txt: public.plain-text (text)",
            "\(escaped)#pic.png: public.png (PNG image)",
            "\(escaped)#inner.zip: public.zip-archive (Zip archive) [1 member]",
            "\(escaped)#inner.zip#inside.txt: public.plain-text (text)",
        ])
        // Without --archives, the archive alone, as ever.
        #expect(try UTIBinary.run(["identify", archive]).lines == ["\(archive): org.gnu.gnu-zip-tar-archive (gzip tar archive)"])
    }

    @Test("identify --json: the archive's object says members, each member's its depth, size and time")
    func identifyJSON() throws {
        let (files, archive) = try Self.archive()
        _ = files
        let result = try UTIBinary.run(["identify", "--archives", "--json", archive])
        let objects = try result.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.count == 5)
        #expect(objects[0]["members"] as? Int == 4)
        #expect(objects[0]["archiveFormat"] as? String == "POSIX ustar format")
        #expect(objects[1]["identifier"] as? String == "public.plain-text")
        #expect(objects[1]["depth"] as? Int == 1)
        #expect(objects[1]["size"] as? Int == 26)
        #expect((objects[1]["modified"] as? String)?.hasSuffix("Z") == true)
        #expect(objects[4]["depth"] as? Int == 2)
        #expect((objects[4]["path"] as? String)?.hasSuffix("#inner.zip#inside.txt") == true)
    }

    @Test("classify: members follow their archive; plain classify prints the records it always printed")
    func classifyRecords() throws {
        let (files, archive) = try Self.archive()
        let tree = files.file("tree")
        let plain = try UTIBinary.run(["classify", "--format", "ndjson", "--sorted", tree])
        #expect(plain.lines.count == 2)
        #expect(!plain.standardOutput.contains("members"))
        let result = try UTIBinary.run(["classify", "--archives", "--format", "ndjson", "--sorted", tree])
        #expect(result.status == 0, "\(result.standardError)")
        let objects = try result.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.map { $0["path"] as? String } == [tree, archive] + ["notes.txt", "pic.png", "inner.zip", "inner.zip#inside.txt"].map {
            archive.replacingOccurrences(of: "bundle#1", with: "bundle%231") + "#" + $0
        })
        #expect(objects[1]["members"] as? Int == 4)
        #expect(objects[2]["depth"] as? Int == 1 && objects[5]["depth"] as? Int == 2)
        let csv = try UTIBinary.run(["classify", "--archives", "--format", "csv", "--sorted", tree])
        #expect(csv.lines.first == "path,identifier,mimeType,size,confidence,mismatch,error,depth,modified,encrypted,members,truncated")
        // --summary counts members by type.
        let summary = try UTIBinary.run(["classify", "--archives", "--summary", "--format", "json", tree])
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8)) as? [String: Any])
        #expect(counts["entries"] as? Int == 6)
        let types = counts["types"] as? [[String: Any]] ?? []
        #expect(types.first { $0["identifier"] as? String == "public.plain-text" }?["count"] as? Int == 2)
    }

    @Test("standard input with --archives: gathered whole, its name from --name, its members after it")
    func standardInput() throws {
        let (files, archive) = try Self.archive()
        _ = files
        let result = try UTIBinary.run(["identify", "--archives", "--name", "upload.tar.gz", "-"], input: try Data(contentsOf: URL(filePath: archive)))
        #expect(result.lines.first == "-: org.gnu.gnu-zip-tar-archive (gzip tar archive) [4 members]", "\(result.lines) \(result.standardError)")
        #expect(result.lines.dropFirst().first == "upload.tar.gz#notes.txt: public.plain-text (text)")
    }

    @Test("a limit reached is in the record: truncated, and which")
    func truncatedRecord() throws {
        let (files, archive) = try Self.archive()
        _ = files
        let result = try UTIBinary.run(["identify", "--archives", "--archive-limit", "members=2", archive])
        #expect(result.lines.first?.hasSuffix("[2 members, truncated: members]") == true, "\(result.lines)")
        #expect(result.lines.count == 3)
        let depth = try UTIBinary.run(["identify", "--archives", "--archive-limit", "depth=1", archive])
        #expect(depth.lines.last?.hasSuffix("#inner.zip: public.zip-archive (Zip archive) [truncated: depth]") == true, "\(depth.lines)")
    }

    @Test("member names with control characters are printed escaped, as paths are")
    func escapedNames() throws {
        let files = try TemporaryDirectory()
        try files.write("text\n", to: "src/two\nlines.txt")
        let archive = files.file("names.tar")
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && /usr/bin/bsdtar -cf '\(archive)' two*lines.txt"]))
        let result = try UTIBinary.run(["identify", "--archives", archive])
        #expect(result.lines.last == "\(archive)#two\\nlines.txt: public.plain-text (text)")
    }

    @Test("--archive-limit: each name, a value past 0, and only with --archives")
    func limitArguments() throws {
        let (files, archive) = try Self.archive()
        _ = files
        for arguments in [["--archive-limit", "members=2", archive], ["--archives", "--archive-limit", "nope=1", archive],
                          ["--archives", "--archive-limit", "ratio=0", archive], ["--archives", "--archive-limit", "bytes", archive],
                          ["--archives", "--archive-limit", "memory=lots", archive]] {
            let identify = try UTIBinary.run(["identify"] + arguments)
            #expect(identify.status == 64, "identify \(arguments)")
            let classify = try UTIBinary.run(["classify"] + arguments)
            #expect(classify.status == 64, "classify \(arguments)")
        }
        #expect(try UTIBinary.run(["identify", "--archives", "--archive-limit", "bytes=1G", "--archive-limit", "time=5", archive]).status == 0)
    }
}
