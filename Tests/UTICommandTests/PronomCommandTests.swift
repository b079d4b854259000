import Foundation
import TestSupport
import Testing

/// PRONOM through the built binary: `identify --json --pronom`, `classify --pronom` (columns, summary by format
/// version), `--format droid` (DROID's CSV) and `--hash`.
@Suite("uti identify --pronom, classify --pronom, --format droid and --hash")
struct PronomCommandTests {
    /// A GIF 89a, a PDF 1.4 named `.doc` and a text file, in a directory `sub` of a temporary directory.
    static func tree() throws -> TemporaryDirectory {
        let files = try TemporaryDirectory()
        try files.write(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], to: "sub/dot.gif")
        try files.write(Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x20, count: 64) + Array("%%EOF\n".utf8), to: "sub/report.doc")
        try files.write("three lines\nof plain\ntext\n", to: "sub/notes.txt")
        return files
    }

    @Test("identify --json --pronom: the PUID, its format and version, where it matched; the type becomes the version's")
    func identifyJSON() throws {
        let files = try Self.tree()
        let result = try UTIBinary.run(["identify", "--json", "--pronom", files.file("sub/dot.gif")])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let pronom = try #require(object["pronom"] as? [String: Any])
        #expect(pronom["puid"] as? String == "fmt/4")
        let first = try #require((pronom["matches"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == "Graphics Interchange Format" && first["version"] as? String == "89a")
        #expect(first["method"] as? String == "signature" && (first["basis"] as? String)?.hasPrefix("byte match at 0, 6") == true)
        #expect(object["identifier"] as? String == "org.nationalarchives.pronom.fmt.4")
        #expect((object["conformsTo"] as? [String])?.contains("com.compuserve.gif") == true)
        #expect(object["mimeType"] as? String == "image/gif")
        // Without --pronom: no pronom object, the type as ever.
        let plain = try UTIBinary.run(["identify", "--json", files.file("sub/dot.gif")])
        let plainObject = try #require(try JSONSerialization.jsonObject(with: Data(plain.standardOutput.utf8)) as? [String: Any])
        #expect(plainObject["pronom"] == nil && plainObject["identifier"] as? String == "com.compuserve.gif")
        // --pronom without --json is a usage error.
        #expect(try UTIBinary.run(["identify", "--pronom", files.file("sub/dot.gif")]).status == 64)
    }

    @Test("classify --pronom: PUID, format name and version columns, the warning; --summary by format version")
    func classifyColumns() throws {
        let files = try Self.tree()
        let result = try UTIBinary.run(["classify", "--pronom", "--format", "csv", "--sorted", files.file("sub")])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.lines
        #expect(lines.first == "path,identifier,mimeType,size,confidence,mismatch,error,puid,formatName,formatVersion,pronomWarning")
        let pdf = try #require(lines.first { $0.contains("report.doc") })
        #expect(pdf.contains(",fmt/18,") && pdf.contains("extension mismatch"))
        let summary = try UTIBinary.run(["classify", "--pronom", "--summary", "--format", "json", files.file("sub")])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8)) as? [String: Any])
        let formats = try #require(object["formats"] as? [[String: Any]])
        #expect(formats.contains { $0["puid"] as? String == "fmt/4" && $0["version"] as? String == "89a" && $0["count"] as? Int == 1 })
        #expect(formats.contains { $0["puid"] as? String == "x-fmt/111" })
    }

    @Test("--format droid: DROID's columns, every field quoted, folders before their files, the hash column named by its algorithm")
    func droidCSV() throws {
        let files = try Self.tree()
        let result = try UTIBinary.run(["classify", "--format", "droid", "--hash", "sha256", files.file("sub")])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.lines
        #expect(lines.first == #""ID","PARENT_ID","URI","FILE_PATH","NAME","METHOD","STATUS","SIZE","TYPE","EXT","LAST_MODIFIED","EXTENSION_MISMATCH","SHA256_HASH","FORMAT_COUNT","PUID","MIME_TYPE","FORMAT_NAME","FORMAT_VERSION""#)
        #expect(lines.count == 5)
        let folder = try #require(lines.dropFirst().first)
        #expect(folder.hasPrefix(#""1","","file:"#) && folder.contains(#""Folder""#))
        let gif = try #require(lines.first { $0.contains("dot.gif") })
        let fields = gif.dropFirst().dropLast().components(separatedBy: "\",\"")
        #expect(fields.count == 18)
        #expect(fields[1] == "1" && fields[5] == "Signature" && fields[6] == "Done" && fields[7] == "14" && fields[8] == "File" && fields[9] == "gif")
        #expect(fields[11] == "false" && fields[13] == "1" && fields[14] == "fmt/4" && fields[15] == "image/gif" && fields[17] == "89a")
        // The digest is SHA-256's of the bytes, as sha256sum gives it.
        let bytes = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        let expected = try UTIBinary.run(executable: URL(filePath: "/usr/bin/sha256sum"), [files.file("sub/dot.gif")]).standardOutput.prefix(64)
        #expect(fields[12] == String(expected) && bytes.count == 14)
        let pdf = try #require(lines.first { $0.contains("report.doc") })
        #expect(pdf.contains(#""true""#), "a PDF named .doc: DROID's extension mismatch")
        // md5 and sha1 too; anything else is refused.
        let md5 = try UTIBinary.run(["classify", "--format", "csv", "--hash", "md5", files.file("sub/notes.txt")])
        #expect(md5.lines.first?.hasSuffix(",md5") == true && md5.lines.last?.hasSuffix(",4c7a5ea081eaf6ff75d91cb43a96230c") == true)
        #expect(try UTIBinary.run(["classify", "--hash", "crc32", files.file("sub")]).status == 64)
    }
}
