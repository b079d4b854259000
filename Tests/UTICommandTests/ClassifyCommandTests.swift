import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("uti classify")
struct ClassifyCommandTests {

    private func tree() throws -> TemporaryDirectory {
        // Traversable by others: one test runs the command as nobody.
        let files = try TemporaryDirectory(permissions: 0o755)
        try FileManager.default.createDirectory(atPath: files.path + "/docs", withIntermediateDirectories: true)
        try files.write(IdentifyCommandTests.png, to: "image.png")
        try files.write(Array("# Notes, with a comma\n".utf8), to: "docs/notes.md")
        try files.write(try Array(Data(contentsOf: URL(filePath: "/bin/true"))), to: "docs/photo.jpg")
        try files.write(Array("a\tb\n".utf8), to: "docs/tab\tname.txt")
        return files
    }

    @Test func ndjsonParsesBack() throws {
        let files = try tree()
        let result = try UTIBinary.run(["classify", "--format", "ndjson", "--sorted", files.path])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty, "no progress line when standard error is not a terminal")
        let records = try result.lines.map(jsonObject)
        #expect(records.map { $0["path"] as? String } == [
            files.path, files.path + "/docs", files.path + "/docs/notes.md", files.path + "/docs/photo.jpg",
            files.path + "/docs/tab\tname.txt", files.path + "/image.png",
        ])
        for record in records {
            #expect(Set(record.keys) == ["path", "identifier", "mimeType", "size", "confidence", "mismatch", "error"])
        }
        #expect(records[5]["identifier"] as? String == "public.png")
        #expect(records[5]["size"] as? Int == IdentifyCommandTests.png.count)
        #expect(records[3]["mismatch"] as? Bool == true)
        #expect(records[0]["size"] is NSNull)
    }

    @Test func csvAndTSVParseBack() throws {
        let files = try tree()
        let csv = try UTIBinary.run(["classify", "--format", "csv", "--sorted", files.path])
        let rows = CSV.parse(csv.standardOutput)
        #expect(rows.first == ["path", "identifier", "mimeType", "size", "confidence", "mismatch", "error"])
        #expect(rows.count == 7)
        #expect(rows.contains { $0[0] == files.path + "/docs/notes.md" && $0[1] == "net.daringfireball.markdown" })
        let tsv = try UTIBinary.run(["classify", "--format", "tsv", "--sorted", files.path])
        let lines = tsv.lines
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 7 })
        #expect(lines.contains { $0.hasPrefix(files.path + "/docs/tab\\tname.txt\t") })
    }

    @Test("CSV follows RFC 4180: a line break in a name is one inside quotes, and a name with a backslash and n reads back apart from it")
    func csvCarriesAnyName() throws {
        let files = try TemporaryDirectory()
        let names = ["new\nline.txt", "back\\nslash.txt", "crlf\r\nname.txt", "quote\"comma,.txt"]
        for name in names { _ = try files.write(Array("text\n".utf8), to: name) }
        let csv = try UTIBinary.run(["classify", "--format", "csv", "--sorted", files.path])
        let rows = CSV.parse(csv.standardOutput)
        #expect(rows.count == names.count + 2, "\(rows)")
        let paths = Set(rows.dropFirst().map { $0[0] })
        #expect(paths == Set([files.path] + names.map { files.path + "/" + $0 }), "\(paths)")
    }

    @Test("the table keeps its columns when an identifier or a MIME type is longer than its column: cut with an ellipsis")
    func tableColumnsStay() throws {
        let files = try TemporaryDirectory()
        let kml = try files.write(Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>\n".utf8), to: "map.kml")
        let text = try files.write(Array("plain\n".utf8), to: "notes.txt")
        let table = try UTIBinary.run(["classify", "--sorted", files.path]).lines
        let rows = [files.path, kml, text].map { path in table.first { $0.hasSuffix("  " + path) } }
        let starts = rows.compactMap { $0.map { $0.count - ($0.hasSuffix(kml) ? kml.count : $0.hasSuffix(text) ? text.count : files.path.count) } }
        #expect(starts.count == 3 && Set(starts).count == 1, "the paths start in one column: \(table)")
        #expect(rows[1]?.contains("… ") == true, "the long identifier is cut: \(rows[1] ?? "")")
    }

    @Test func filtersAndSummary() throws {
        let files = try tree()
        let images = try UTIBinary.run(["classify", "--format", "ndjson", "--conforming-to", "public.image", files.path])
        #expect(try images.lines.map { try jsonObject($0)["identifier"] as? String } == ["public.png"])
        let lies = try UTIBinary.run(["classify", "--format", "ndjson", "--mismatches-only", files.path])
        #expect(try lies.lines.map { try jsonObject($0)["path"] as? String } == [files.path + "/docs/photo.jpg"])
        let table = try UTIBinary.run(["classify", "--summary", files.path])
        #expect(table.lines.first?.hasPrefix("TYPE") == true)
        #expect(table.lines.contains { $0.hasPrefix("public.item") && $0.contains(" 6 ") })
        #expect(table.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("public.png") })
        let json = try UTIBinary.run(["classify", "--summary", "--format", "json", files.path])
        let summary = try jsonObject(json.standardOutput)
        #expect(summary["entries"] as? Int == 6)
        let types = try #require(summary["types"] as? [[String: Any]])
        #expect(types.contains { $0["identifier"] as? String == "public.image" && $0["totalCount"] as? Int == 1 })
    }

    @Test func filesFromStandardInput() throws {
        let files = try tree()
        let list = [files.path + "/image.png", files.path + "/gone.txt", files.path + "/docs/tab\tname.txt"].joined(separator: "\0") + "\0"
        let result = try UTIBinary.run(["classify", "--files-from", "-", "-0", "--sorted", "--format", "ndjson"], input: Data(list.utf8))
        #expect(result.status == 1, "one path could not be read")
        let records = try result.lines.map(jsonObject)
        #expect(records.count == 3)
        #expect(records[0]["identifier"] as? String == "public.png")
        #expect(records[1]["error"] as? String == "No such file or directory")
        #expect(records[2]["path"] as? String == files.path + "/docs/tab\tname.txt")
    }

    @Test("--details: each ndjson record is uti identify --json's object, with size and error")
    func details() throws {
        let files = try tree()
        let list = [files.path + "/image.png", files.path + "/gone.txt", files.path + "/docs/photo.jpg"].joined(separator: "\n") + "\n"
        let result = try UTIBinary.run(["classify", "--files-from", "-", "--sorted", "--format", "ndjson", "--details"], input: Data(list.utf8))
        #expect(result.status == 1, "one path could not be read")
        let records = try result.lines.map(jsonObject)
        #expect(records.count == 3)
        for index in [0, 2] {
            let path = try #require(records[index]["path"] as? String)
            let identified = try jsonObject(try UTIBinary.run(["identify", "--json", path]).standardOutput)
            var expected = identified
            expected["size"] = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            expected["error"] = NSNull()
            let canonical = { (object: [String: Any]) in try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) }
            #expect(try canonical(records[index]) == canonical(expected), "\(records[index]) against \(expected)")
        }
        #expect(records[2]["mismatch"] as? Bool == true && records[2]["conformsTo"] is [String])
        #expect(records[1]["error"] as? String == "No such file or directory" && records[1]["identifier"] is NSNull)
        #expect(try UTIBinary.run(["classify", "--details", files.path]).status == 64, "--details goes with ndjson")
    }

    @Test("--jobs N: the same records with one thread as with one per processor; 0 is refused")
    func jobs() throws {
        let files = try tree()
        let one = try UTIBinary.run(["classify", "--format", "ndjson", "--sorted", "--jobs", "1", files.path])
        let every = try UTIBinary.run(["classify", "--format", "ndjson", "--sorted", files.path])
        #expect(one.status == 0 && one.standardOutput == every.standardOutput && !one.lines.isEmpty)
        #expect(try UTIBinary.run(["classify", "--jobs", "0", files.path]).status == 64)
    }

    @Test func namesThatAreNotUTF8AreKeptAndMarked() throws {
        let files = try TemporaryDirectory()
        let raw = Array(files.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".txt".utf8)
        let descriptor = (raw + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        close(descriptor)
        let result = try UTIBinary.run(["classify", "--format", "ndjson", files.path])
        let record = try #require(try result.lines.map(jsonObject).first { ($0["path"] as? String)?.hasSuffix(".txt") == true })
        #expect(record["path"] as? String == files.path + "/caf\\xE9.txt")
        #expect(record["pathEscaped"] as? Bool == true)
    }

    @Test("an unreadable directory is an error record; the walk goes on; exit status 1",
          .enabled(if: Tools.canTakePermissionsAway, "as root, needs setpriv to run as a user without privileges"))
    func unreadableDirectory() throws {
        let files = try tree()
        try FileManager.default.createDirectory(atPath: files.path + "/locked", withIntermediateDirectories: true)
        try files.write(Array("x".utf8), to: "locked/inside.txt")
        chmod(files.path + "/locked", 0)
        defer { chmod(files.path + "/locked", 0o755) }
        let result = try UTIBinary.run(["classify", "--format", "ndjson", files.path], runAs: Tools.isRoot ? "nobody" : nil)
        #expect(result.status == 1)
        let records = try result.lines.map(jsonObject)
        #expect(records.contains { $0["path"] as? String == files.path + "/locked" && $0["error"] as? String == "Permission denied" })
        #expect(records.contains { $0["path"] as? String == files.path + "/image.png" && $0["identifier"] as? String == "public.png" })
    }

    @Test("on a terminal, a progress line on standard error, erased at the end",
          .enabled(if: Tools.has("script"), "needs script(1) to give the command a terminal"))
    func progressOnATerminal() throws {
        let files = try tree()
        // script(1) gives the command a pseudo-terminal; standard output goes to a file, standard error
        // (the progress line) to the terminal, which script copies to its own output.
        let records = files.path + "/records.ndjson"
        let command = "'\(UTIBinary.url.path)' classify --format ndjson '\(files.path)/docs' > '\(records)'"
        let result = try UTIBinary.run(executable: URL(filePath: "/usr/bin/script"), ["-q", "-e", "-c", command, "/dev/null"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("entries/s"))
        #expect(result.standardOutput.hasSuffix("\r\u{1B}[K"), "the last thing written erases the line")
        let written = try String(contentsOfFile: records, encoding: .utf8)
        #expect(!written.contains("entries/s"), "progress never reaches standard output")
        #expect(written.split(separator: "\n").count == 4)
    }

    @Test func usageErrors() throws {
        #expect(try UTIBinary.run(["classify"]).status == 64)
        #expect(try UTIBinary.run(["classify", "-0", "/tmp"]).status == 64)
        #expect(try UTIBinary.run(["classify", "--format", "json", "/tmp"]).status == 64)
        #expect(try UTIBinary.run(["classify", "--max-depth", "-1", "/tmp"]).status == 64)
        #expect(try UTIBinary.run(["classify", "--conforming-to", "com.example.none", "/tmp"]).status == 2)
    }
}

/// RFC 4180 CSV, as a spreadsheet reads it.
enum CSV {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false, index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if quoted {
                if character == "\"" {
                    let next = text.index(after: index)
                    if next < text.endIndex, text[next] == "\"" { field.append("\""); index = next } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(field); field = ""
            } else if character == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.append(character)
            }
            index = text.index(after: index)
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}
