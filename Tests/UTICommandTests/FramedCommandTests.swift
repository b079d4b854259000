import Foundation
import TestSupport
import Testing

/// `uti identify --framed -`: records of name and bytes on standard input, a JSON line each.
@Suite("uti identify --framed")
struct FramedCommandTests {
    static func record(_ name: [UInt8], _ content: [UInt8]) -> [UInt8] {
        func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] { (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        return bigEndian(UInt64(name.count), bytes: 4) + name + bigEndian(UInt64(content.count), bytes: 8) + content
    }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]

    /// Files of many kinds with awkward names: a newline, not UTF-8, empty content, more than a MiB.
    static let files: [(name: [UInt8], content: [UInt8])] = [
        (Array("photo.png".utf8), png),
        (Array("two\nlines.txt".utf8), Array("words, and more words\n".utf8)),
        (Array("empty.pdf".utf8), []),
        ([0x62, 0x61, 0x64, 0xFF, 0x2E, 0x70, 0x64, 0x66], Array("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n".utf8)),
        (Array("large.docx".utf8), ZipFixture.wordDocument(padding: 3 << 20)),
        (Array("lies.jpg".utf8), Array("#!/bin/sh\necho hello\n".utf8)),
        (Array("no-extension".utf8), Array("<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)),
    ]

    @Test("one JSON line per record, in order, each the object uti identify --json gives the same file")
    func sameAsIdentify() throws {
        let input = Self.files.flatMap { Self.record($0.name, $0.content) }
        let framed = try UTIBinary.run(["identify", "--framed", "-"], input: Data(input))
        #expect(framed.status == 0, "\(framed.standardError)")
        let lines = framed.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == Self.files.count, "\(framed.standardOutput)")
        // The same files on disk, under the same names, through uti identify --json.
        let directory = try TemporaryDirectory()
        for (index, file) in Self.files.enumerated() {
            let path = Array(directory.path.utf8) + [0x2F] + file.name
            #expect(Self.writeFile(file.content, toRawPath: path), "record \(index)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[index].utf8)) as? [String: Any])
            let onDisk = try UTIBinary.run(rawArguments: [Array("identify".utf8), Array("--json".utf8), path])
            let expected = try #require(try JSONSerialization.jsonObject(with: Data(onDisk.standardOutput.utf8)) as? [String: Any])
            #expect(object["identifier"] as? String == expected["identifier"] as? String, "record \(index): \(lines[index]) against \(onDisk.standardOutput)")
            #expect(object["mimeType"] as? String == expected["mimeType"] as? String, "record \(index)")
            #expect(object["mismatch"] as? Bool == expected["mismatch"] as? Bool, "record \(index)")
        }
        let names = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["path"] as? String }
        #expect(names == ["photo.png", "two\nlines.txt", "empty.pdf", "bad\\xFF.pdf", "large.docx", "lies.jpg", "no-extension"])
        let escaped = try #require(try JSONSerialization.jsonObject(with: Data(lines[3].utf8)) as? [String: Any])
        #expect(escaped["pathEscaped"] as? Bool == true)
    }

    @Test("no records: no output, exit 0")
    func empty() throws {
        let result = try UTIBinary.run(["identify", "--framed", "-"], input: Data())
        #expect(result.status == 0 && result.standardOutput.isEmpty)
    }

    @Test("input that is not records: the lines of the whole records before it, then exit 2 naming the record", arguments: [
        (2, "it ends within its name length"),
        (4 + 3, "it ends within its name"),
        (4 + 5 + 3, "it ends within its content length"),
        (4 + 5 + 8 + 19, "it ends within its content"),
    ])
    func cutShort(kept: Int, problem: String) throws {
        let input = Self.record(Array("a.png".utf8), Self.png) + Self.record(Array("b.png".utf8), Self.png).prefix(kept)
        let result = try UTIBinary.run(["identify", "--framed", "-"], input: Data(input))
        #expect(result.status == 2)
        #expect(result.standardError.contains("record 2") && result.standardError.contains(problem), "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").count == 1, "the first record is answered")
    }

    @Test("a name longer than 4,096 bytes is refused, exit 2")
    func longName() throws {
        let result = try UTIBinary.run(["identify", "--framed", "-"],
                                       input: Data(Self.record([UInt8](repeating: 0x61, count: 5000), Self.png)))
        #expect(result.status == 2 && result.standardError.contains("more than 4096"), "\(result.standardError)")
    }

    @Test("--framed takes - alone, and no option that changes the answer", arguments: [
        ["identify", "--framed", "a.png"], ["identify", "--framed", "-", "b.png"], ["identify", "--framed", "--mime", "-"],
        ["identify", "--framed", "--name", "x.png", "-"],
    ])
    func usage(arguments: [String]) throws {
        #expect(try UTIBinary.run(arguments).status == 64)
    }

    @Test("each line is written before uti waits for the next record", .timeLimit(.minutes(1)))
    func answersBeforeWaiting() throws {
        let process = Process()
        process.executableURL = UTIBinary.url
        process.arguments = ["identify", "--framed", "-"]
        // Close-on-exec (see `closingOnExec`): a child another test starts must not hold standard input open, or uti
        // never sees its end and this test waits out its time limit (seen once in the whole suite, never alone).
        let input = Pipe.closingOnExec(), output = Pipe.closingOnExec()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        for name in ["first.png", "second.png"] {
            input.fileHandleForWriting.write(Data(Self.record(Array(name.utf8), Self.png)))
            // Read the answer while standard input stays open: it must come without more input.
            var line = Data()
            while line.last != 0x0A {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                if byte.isEmpty { break }
                line.append(byte)
            }
            #expect(String(decoding: line, as: UTF8.self).contains("\"path\":\"\(name)\""))
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

extension FramedCommandTests {
    /// Writes a file whose path is bytes that need not be UTF-8.
    static func writeFile(_ content: [UInt8], toRawPath path: [UInt8]) -> Bool {
        let terminated = (path + [0]).map { CChar(bitPattern: $0) }
        let descriptor = terminated.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return open(base, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return content.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == content.count
    }
}

/// A Word document (the parts Word writes), made up to `padding` bytes by a stored entry.
enum ZipFixture {
    static func wordDocument(padding: Int) -> [UInt8] {
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        var count = 0
        func little(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func add(_ name: String, _ content: [UInt8]) {
            let offset = archive.count
            let nameBytes = Array(name.utf8)
            let crc = crc32(content)
            archive += [0x50, 0x4B, 0x03, 0x04] + little(20, 2) + little(0, 2) + little(0, 2) + little(0, 4) + little(Int(crc), 4)
                + little(content.count, 4) + little(content.count, 4) + little(nameBytes.count, 2) + little(0, 2) + nameBytes + content
            directory += [0x50, 0x4B, 0x01, 0x02] + little(20, 2) + little(20, 2) + little(0, 2) + little(0, 2) + little(0, 4)
                + little(Int(crc), 4) + little(content.count, 4) + little(content.count, 4) + little(nameBytes.count, 2)
                + little(0, 2) + little(0, 2) + little(0, 2) + little(0, 2) + little(0, 4) + little(offset, 4) + nameBytes
            count += 1
        }
        add("[Content_Types].xml", Array("<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>".utf8))
        add("_rels/.rels", Array("<?xml version=\"1.0\"?><Relationships/>".utf8))
        add("word/media/padding.bin", (0..<padding).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        add("word/document.xml", Array("<?xml version=\"1.0\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"/>".utf8))
        let directoryOffset = archive.count
        archive += directory
        archive += [0x50, 0x4B, 0x05, 0x06] + little(0, 2) + little(0, 2) + little(count, 2) + little(count, 2)
            + little(directory.count, 4) + little(directoryOffset, 4) + little(0, 2)
        return archive
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
