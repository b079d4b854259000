import Foundation
import Testing
import TestSupport
import UniformTypeIdentifiers
@testable import FileIdentification

/// Archives' members, read through libarchive without extracting: archives made for each test by bsdtar
/// (libarchive's own writer), 7z and zip, and compared with `identify` of the files they were made from.
@Suite("Archive members are identified as the files they were made from, within limits",
       .enabled(if: Tools.has("bsdtar"), "needs bsdtar (libarchive-tools)"))
struct ArchiveMembersTests {
    let identifier = FileIdentifier()

    /// A tree of files of different kinds, and a ZIP and a gzip stream among them (opened in turn).
    static func sources() throws -> TemporaryDirectory {
        let files = try TemporaryDirectory()
        try files.write("three lines\nof plain\ntext\n", to: "src/notes.txt")
        try files.write(Samples.png + [UInt8](repeating: 0, count: 64), to: "src/pic.png")
        try files.write("#!/bin/sh\necho hello\n", to: "src/run.sh")
        try files.write("{\"a\": [1, 2, {\"b\": null}]}\n", to: "src/data.json")
        try files.write(try Data(contentsOf: URL(filePath: "/bin/true")), to: "src/true")
        let contentTypes = Array("<?xml version=\"1.0\"?><Types/>".utf8)
        let docx = ZipWriter.archive([("[Content_Types].xml", contentTypes), ("word/document.xml", Array("<w:document/>".utf8))])
        try files.write(docx, to: "src/report.docx")
        try files.write(ZipWriter.archive([("inside.txt", Array("words in a zip\n".utf8)), ("inside.png", Samples.png)]), to: "src/inner.zip")
        try files.write([UInt8](repeating: 0x41, count: 100_000), to: "src/big.txt")
        #expect(Tools.run("/bin/sh", ["-c", "gzip -c '\(files.file("src/notes.txt"))' > '\(files.file("src/notes.txt.gz"))'"]))
        return files
    }

    /// The members of the archive at `path`, read with `limits`.
    func members(_ path: String, limits: ArchiveLimits = ArchiveLimits()) throws -> (members: [ArchiveMember], reading: ArchiveReading) {
        var members: [ArchiveMember] = []
        let reading = try identifier.readMembers(ofFileAt: RawFilePath(path), limits: limits) { member in
            members.append(member)
            return true
        }
        return (members, reading)
    }

    /// bsdtar's formats and compressions, each with the name a file of it has.
    static let kinds: [(name: String, arguments: [String])] = [
        ("a.tar", ["--format", "ustar"]), ("a.pax.tar", ["--format", "pax"]), ("a.gnu.tar", ["--format", "gnutar"]),
        ("a.cpio", ["--format", "newc"]), ("a.odc.cpio", ["--format", "cpio"]), ("a.zip", ["--format", "zip"]),
        ("a.7z", ["--format", "7zip"]), ("a.iso", ["--format", "iso9660"]), ("a.xar", ["--format", "xar"]),
        ("a.tar.gz", ["-z"]), ("a.tar.bz2", ["-j"]), ("a.tar.xz", ["-J"]), ("a.tar.zst", ["--zstd"]), ("a.tar.lz4", ["--lz4"]),
        ("a.tar.lz", ["--lzip"]), ("a.tar.lzma", ["--lzma"]),
    ]

    @Test("every member of every kind of archive is what identify says of the file it was made from", arguments: kinds)
    func membersAsExtracted(kind: (name: String, arguments: [String])) throws {
        let files = try Self.sources()
        let archive = files.file(kind.name)
        let sources = try FileManager.default.contentsOfDirectory(atPath: files.file("src")).sorted()
        // The files by name, not the directory: WARC holds no directories.
        #expect(Tools.run("/usr/bin/bsdtar", ["-c"] + kind.arguments + ["-f", archive, "-C", files.file("src")] + sources))
        let archiveType = try identifier.identify(fileAt: archive)
        #expect(FileIdentifier.holdsMembers(archiveType), "\(kind.name): \(archiveType.type.identifier)")
        let (members, reading) = try members(archive)
        #expect(reading.truncated == nil, "\(kind.name): \(String(describing: reading.truncated)) \(reading.problem ?? "")")
        let top = members.filter { $0.depth == 1 }
        #expect(Set(top.map { String(decoding: $0.names[0].lastComponent, as: UTF8.self) }) == Set(sources), "\(kind.name)")
        for member in top {
            let name = String(decoding: member.names[0].lastComponent, as: UTF8.self)
            let expected = try identifier.identify(fileAt: files.file("src/" + name))
            let found = try member.result.get()
            #expect(found.type == expected.type, "\(kind.name)#\(name): \(found.type.identifier), extracted \(expected.type.identifier)")
            #expect(found.mimeType == expected.mimeType, "\(kind.name)#\(name)")
            #expect(found.isMismatch == expected.isMismatch, "\(kind.name)#\(name)")
            #expect(member.size == (try FileManager.default.attributesOfItem(atPath: files.file("src/" + name))[.size] as? Int), "\(kind.name)#\(name)")
        }
        // The ZIP and the gzip stream in it are opened in turn, their members after them.
        let inner = try #require(members.firstIndex { $0.names.last?.lastComponent == Array("inner.zip".utf8) })
        #expect(members[inner].memberCount == 2)
        #expect(members[(inner + 1)...].prefix(2).map { $0.identification?.type.identifier } == ["public.plain-text", "public.png"])
        #expect(members[(inner + 1)...].prefix(2).allSatisfy { $0.depth == 2 })
        let stream = try #require(members.firstIndex { $0.names.last?.lastComponent == Array("notes.txt.gz".utf8) })
        #expect(members[stream + 1].names.last?.bytes == Array("notes.txt".utf8))
        #expect(members[stream + 1].identification?.type == .plainText)
        // A document built on ZIP is a document: identified whole, not opened.
        let report = try #require(members.first { $0.names.last?.lastComponent == Array("report.docx".utf8) })
        #expect(report.identification?.type.identifier == "org.openxmlformats.wordprocessingml.document")
        #expect(report.memberCount == nil)
        #expect(reading.memberCount == members.count)
    }

    @Test("a web archive's resources are its members (WARC records written here: libarchive 3.6's WARC writer ends a file its reader cannot read)")
    func webArchive() throws {
        let files = try TemporaryDirectory()
        func record(_ uri: String, _ content: [UInt8]) -> [UInt8] {
            Array("WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: \(uri)\r\nWARC-Date: 2024-05-01T12:00:00Z\r\nContent-Length: \(content.count)\r\n\r\n".utf8)
                + content + Array("\r\n\r\n".utf8)
        }
        let archive = try files.write(record("http://example.com/notes.txt", Array("three lines\nof plain\ntext\n".utf8))
                                      + record("http://example.com/pic.png", Samples.png) + record("http://example.com/big.txt", [UInt8](repeating: 0x41, count: 100_000))
                                      + record("http://example.com/last.txt", Array("last\n".utf8)), to: "site.warc")
        #expect(try identifier.identify(fileAt: archive).type.identifier == "uti.mime.application.warc")
        let (members, reading) = try members(archive)
        #expect(reading.truncated == nil, "\(reading.problem ?? "")")
        #expect(members.map { $0.identification?.type.identifier } == ["public.plain-text", "public.png", "public.plain-text", "public.plain-text"])
        #expect(members.map(\.size) == [26, Samples.png.count, 100_000, 5])
        #expect(members.first?.modified == 1_714_564_800)
    }

    @Test("ar archives (which hold no directories) and Debian packages in them")
    func arArchives() throws {
        let files = try Self.sources()
        let archive = files.file("a.a")
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && /usr/bin/bsdtar -c --format arbsd -f '\(archive)' notes.txt pic.png true"]))
        let (members, reading) = try members(archive)
        #expect(reading.truncated == nil)
        #expect(members.map { $0.identification?.type.identifier } == ["public.plain-text", "public.png", "public.unix-executable"])
    }

    @Test("a stream that expands past the ratio stops there, says so, and what came before stays")
    func ratio() throws {
        let files = try TemporaryDirectory()
        try files.write("first\n", to: "src/a.txt")
        // 64 MiB of zeros: gzip makes 64 KiB of it, a ratio of about 1,000.
        #expect(Tools.run("/bin/sh", ["-c", "head -c 67108864 /dev/zero > '\(files.file("src/b.bin"))'"]))
        try files.write("last\n", to: "src/c.txt")
        let archive = files.file("bomb.tar.gz")
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && /usr/bin/bsdtar -czf '\(archive)' a.txt b.bin c.txt"]))
        let (members, reading) = try members(archive)
        #expect(reading.truncated == .ratio)
        #expect(members.first?.identification?.type == .plainText)
        #expect(!members.contains { $0.names.last?.bytes == Array("c.txt".utf8) })
        // The same archive within a higher ratio is read to its end.
        var generous = ArchiveLimits()
        generous.maxRatio = 10_000
        let whole = try self.members(archive, limits: generous)
        #expect(whole.reading.truncated == nil)
        #expect(whole.members.count == 3)
        // And within fewer bytes, the bytes stop it.
        generous.maxExpandedBytes = 1 << 20
        #expect(try self.members(archive, limits: generous).reading.truncated == .bytes)
    }

    @Test("a 42.zip-style bomb (ZIPs of ZIPs of 16 MiB of zeros, 16 to a level) stops at the ratio, and so does a ZIP in a tar",
          .enabled(if: Tools.has("zip"), "needs zip"))
    func nestedBomb() throws {
        let files = try TemporaryDirectory()
        #expect(Tools.run("/bin/sh", ["-c", """
            cd '\(files.path)' && head -c 16777216 /dev/zero > zeros && zip -q -9 l0.zip zeros && rm zeros &&
            for level in 1 2 3; do
              previous=l$((level - 1)).zip
              for copy in a b c d e f g h i j k l m n o p; do cp "$previous" "$copy.zip"; done
              zip -q -9 "l$level.zip" [a-p].zip && rm [a-p].zip "$previous"
            done
            """]))
        let bomb = files.file("l3.zip")
        #expect((try FileManager.default.attributesOfItem(atPath: bomb)[.size] as? Int ?? 0) < 20 << 20)
        let (members, reading) = try members(bomb)
        #expect(reading.truncated == .ratio)
        // Stopped long before the 4,096 leaves (64 GiB): the first level's ZIPs and a few of their own.
        #expect(members.count < 4096)
        #expect(members.contains { $0.depth == 3 })
        // The same bomb in a tar: the same stop, and the reading ends where it stopped.
        #expect(Tools.run("/usr/bin/bsdtar", ["-cf", files.file("bomb.tar"), "-C", files.path, "l3.zip"]))
        #expect(try self.members(files.file("bomb.tar")).reading.truncated == .ratio)
    }

    @Test("a nest 20 deep (what a quine such as r.zip unfolds into, for a reader that opens what it finds) stops at the default depth, 8")
    func deepNest() throws {
        var archive = ZipWriter.archive([("leaf.txt", Array("leaf\n".utf8))])
        for level in (1...19).reversed() { archive = ZipWriter.archive([("level\(level).zip", archive)]) }
        let files = try TemporaryDirectory()
        let nest = try files.write(archive, to: "nest.zip")
        let (members, reading) = try members(nest)
        #expect(reading.truncated == nil)
        #expect(members.map(\.depth) == Array(1...8))
        #expect(members.last?.truncated == .depth)
        #expect(members.last?.identification?.type.identifier == "public.zip-archive")
    }

    @Test("members, depth, path length and time each stop a reading where they are reached, and say which")
    func limits() throws {
        let files = try TemporaryDirectory()
        for index in 0..<30 { try files.write("file \(index)\n", to: "src/f\(index).txt") }
        let archive = files.file("many.tar")
        #expect(Tools.run("/usr/bin/bsdtar", ["-cf", archive, "-C", files.file("src"), "."]))
        var limits = ArchiveLimits()
        limits.maxMembers = 10
        let few = try members(archive, limits: limits)
        #expect(few.reading.truncated == .members)
        #expect(few.members.count == 10)

        // A ZIP in a ZIP in a ZIP: with a depth of 2, the second is reported and not opened.
        let deepest = ZipWriter.archive([("leaf.txt", Array("leaf\n".utf8))])
        let middle = ZipWriter.archive([("level3.zip", deepest)])
        let outer = try files.write(ZipWriter.archive([("level2.zip", middle)]), to: "nest.zip")
        limits = ArchiveLimits()
        limits.maxDepth = 2
        let nested = try members(outer, limits: limits)
        #expect(nested.members.map(\.depth) == [1, 2])
        #expect(nested.members.last?.truncated == .depth)
        #expect(try members(outer).members.map(\.depth) == [1, 2, 3])

        limits = ArchiveLimits()
        limits.maxPathLength = 4
        let cut = try members(archive, limits: limits)
        #expect(cut.members.allSatisfy { $0.truncated == .path && $0.names[0].bytes.count <= 4 })

        limits = ArchiveLimits()
        limits.timeLimit = .zero
        let late = try members(archive, limits: limits)
        #expect(late.reading.truncated == .time)
        #expect(late.members.isEmpty)
    }

    @Test("names are data: ../, absolute and control characters are reported, escaped, and nothing is written")
    func hostileNames() throws {
        let files = try TemporaryDirectory()
        try files.write("escaped?\n", to: "src/line\nbreak.txt")
        let archive = files.file("names.tar")
        // bsdtar -P keeps the names as given: ../ and / at the start.
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && /usr/bin/bsdtar -cPf '\(archive)' -s ',^,../../,' line*break.txt && /usr/bin/bsdtar -rPf '\(archive)' -s ',^,/tmp/uti-evil-,' line*break.txt"]))
        let (members, reading) = try members(archive)
        #expect(reading.truncated == nil)
        #expect(members.map { $0.names[0].bytes } == [Array("../../line\nbreak.txt".utf8), Array("/tmp/uti-evil-line\nbreak.txt".utf8)])
        #expect(members.allSatisfy { $0.identification?.type == .plainText })
        #expect(members[0].path(in: RawFilePath("names.tar")).escaped == "names.tar#../../line\\nbreak.txt")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/uti-evil-line\nbreak.txt"))
        #expect(!FileManager.default.fileExists(atPath: files.file("../line\nbreak.txt")))
    }

    @Test("the formats read as they stream out are declared types, and a tar in a tar is read so")
    func streamedFormats() throws {
        for identifier in ArchiveReader.streamedFormatIdentifiers { #expect(UTType(identifier) != nil, "\(identifier)") }
        let files = try Self.sources()
        #expect(Tools.run("/usr/bin/bsdtar", ["-cf", files.file("inner.tar"), "-C", files.file("src"), "notes.txt", "pic.png"]))
        #expect(Tools.run("/usr/bin/bsdtar", ["-cJf", files.file("outer.tar.xz"), "-C", files.path, "inner.tar"]))
        let (members, reading) = try members(files.file("outer.tar.xz"))
        #expect(reading.truncated == nil)
        #expect(members.map { $0.identification?.type.identifier } == ["public.tar-archive", "public.plain-text", "public.png"])
        #expect(members.first?.memberCount == 2)
        #expect(members.first?.size == (try FileManager.default.attributesOfItem(atPath: files.file("inner.tar"))[.size] as? Int))
    }

    @Test("# and % in names are escaped in member paths, so that each # separates archive levels")
    func pathSyntax() {
        let member = ArchiveMember(names: [RawFilePath("dir/a#b.zip"), RawFilePath("100%.txt")], size: 1, modified: nil, isEncrypted: false,
                                   result: .failure(IdentificationError(path: "-", reason: .linkLoop)))
        #expect(member.path(in: RawFilePath("x#y.tar")).bytes == Array("x%23y.tar#dir/a%23b.zip#100%25.txt".utf8))
        #expect(member.tikaResourcePath == "/a#b.zip/100%.txt")
    }

    @Test("a stream cut short: what was read stays, the record says unreadable, and a later archive is read")
    func truncatedStream() throws {
        let files = try Self.sources()
        let archive = files.file("whole.tar.gz")
        #expect(Tools.run("/usr/bin/bsdtar", ["-czf", archive, "-C", files.file("src"), "."]))
        let bytes = try Data(contentsOf: URL(filePath: archive))
        let cut = try files.write(bytes.prefix(bytes.count / 2), to: "cut.tar.gz")
        let (members, reading) = try members(cut)
        #expect(reading.truncated == .unreadable)
        #expect(reading.problem != nil)
        #expect(members.count < (try self.members(archive)).members.count)
        #expect(try self.members(archive).reading.truncated == nil)
    }

    @Test("encrypted members are reported as such, not guessed; an encrypted list of members stops the reading",
          .enabled(if: Tools.has("7z") && Tools.has("zip"), "needs 7z and zip"))
    func encrypted() throws {
        let files = try Self.sources()
        let zip = files.file("secret.zip")
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && zip -q -P secret '\(zip)' notes.txt pic.png"]))
        let zipped = try members(zip)
        #expect(zipped.members.count == 2)
        #expect(zipped.members.allSatisfy { $0.isEncrypted && $0.identification?.type == .data && $0.identification?.confidence == .low })
        let sealed = files.file("sealed.7z")
        #expect(Tools.run("/bin/sh", ["-c", "cd '\(files.file("src"))' && 7z a -bd -psecret -mhe=on '\(sealed)' notes.txt >/dev/null"]))
        let closed = try members(sealed)
        #expect(closed.members.isEmpty)
        #expect(closed.reading.truncated == .encrypted)
    }

    @Test("a member too large for memory is spooled to a file with no name, and past the spool budget is not opened")
    func spool() throws {
        let files = try Self.sources()
        let spoolDirectory = try files.makeDirectory("spool")
        // A ZIP of 200 KB of text that does not compress much, inside a tar.
        var noise = SystemRandomNumberGenerator()
        let text = (0..<200_000).map { _ in UInt8.random(in: 0x61...0x7A, using: &noise) }
        try files.write(ZipWriter.archive([("noise.txt", text)]), to: "outer/inner.zip")
        let archive = files.file("outer.tar")
        #expect(Tools.run("/usr/bin/bsdtar", ["-cf", archive, "-C", files.file("outer"), "inner.zip"]))
        var limits = ArchiveLimits()
        limits.memoryBudget = 64 * 1024
        limits.spoolDirectory = spoolDirectory
        let spooled = try members(archive, limits: limits)
        #expect(spooled.members.map { $0.identification?.type.identifier } == ["public.zip-archive", "public.plain-text"])
        #expect(spooled.members.first?.truncated == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spoolDirectory).isEmpty)
        limits.spoolBudget = 64 * 1024
        let refused = try members(archive, limits: limits)
        #expect(refused.members.count == 1)
        #expect(refused.members.first?.truncated == .spool)
        #expect(refused.members.first?.identification?.type.identifier == "public.zip-archive")
    }

    @Test("bytes in memory and the asynchronous sequence give the same members as the file")
    func entryPoints() async throws {
        let files = try Self.sources()
        let archive = files.file("a.tar.gz")
        #expect(Tools.run("/usr/bin/bsdtar", ["-czf", archive, "-C", files.file("src"), "."]))
        let fromFile = try members(archive).members.map { $0.identification?.type }
        var fromBytes: [UTType?] = []
        _ = try identifier.readMembers(of: Array(try Data(contentsOf: URL(filePath: archive))), filename: "a.tar.gz") { member in
            fromBytes.append(member.identification?.type)
            return true
        }
        #expect(fromBytes == fromFile)
        var streamed: [UTType?] = []
        for try await member in identifier.members(ofFileAt: RawFilePath(archive)) { streamed.append(member.identification?.type) }
        #expect(streamed == fromFile)
        // A consumer that stops early stops the reading.
        var seen = 0
        _ = try identifier.readMembers(ofFileAt: RawFilePath(archive)) { _ in
            seen += 1
            return false
        }
        #expect(seen == 1)
    }

    @Test("a file that is no archive libarchive reads says unsupported; plain bytes are not read as one")
    func notArchives() throws {
        let files = try TemporaryDirectory()
        let text = try files.write("just text\n", to: "plain.txt")
        let reading = try members(text).reading
        #expect(reading.truncated == .unsupported)
        #expect(reading.memberCount == 0)
    }

    @Test("classify with archives: each archive's members follow it, as entries")
    func classification() async throws {
        let files = try Self.sources()
        #expect(Tools.run("/usr/bin/bsdtar", ["-czf", files.file("src/bundle.tar.gz"), "-C", files.file("src"), "notes.txt", "inner.zip"]))
        var options = ClassificationOptions(sorted: true)
        let plain = identifier.classify(directory: RawFilePath(files.file("src")), options: options)
        var count = 0
        for await entry in plain {
            #expect(entry.members.isEmpty && entry.archive == nil)
            count += 1
        }
        options.archives = ArchiveLimits()
        var archives = 0
        for await entry in identifier.classify(directory: RawFilePath(files.file("src")), options: options) {
            if let reading = entry.archive {
                archives += 1
                #expect(reading.memberCount == entry.members.count)
                #expect(entry.members.allSatisfy { $0.path.bytes.starts(with: entry.path.bytes + [UInt8(ascii: "#")]) && $0.member != nil })
            }
        }
        // inner.zip, notes.txt.gz and bundle.tar.gz
        #expect(archives == 3)
        #expect(count == 11)
    }
}
