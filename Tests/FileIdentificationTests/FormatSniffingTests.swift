import Foundation
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// Formats content sniffing used to miss, each made here from its specification, identified
/// by content alone (no name) and named as the format's registered media type.
@Suite("Content: formats behind tags, at the end, or a byte away from another")
struct FormatSniffingTests {
    let identifier = FileIdentifier()

    /// An ID3v2.4 tag of `size` bytes (syncsafe), with a footer when `footer`.
    static func id3(size: Int, footer: Bool = false) -> [UInt8] {
        let syncsafe = [UInt8((size >> 21) & 0x7F), UInt8((size >> 14) & 0x7F), UInt8((size >> 7) & 0x7F), UInt8(size & 0x7F)]
        let header = Array("ID3".utf8) + [4, 0, footer ? 0x10 : 0] + syncsafe
        return header + [UInt8](repeating: 0, count: size) + (footer ? Array("3DI".utf8) + [4, 0, 0x10] + syncsafe : [])
    }

    static let flacStream: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 0x22] + [UInt8](repeating: 0, count: 34) + [0xFF, 0xF8, 0x69, 0x08]
    /// ADTS frames: sync, MPEG-4, layer 00, no CRC; AAC LC, 44.1 kHz, stereo, 7-byte frames.
    static let adtsFrames: [UInt8] = Array(repeating: [0xFF, 0xF1, 0x50, 0x80, 0x00, 0xFF, 0xFC], count: 8).flatMap { $0 }
    /// MPEG-1 Layer III frame headers.
    static let mp3Frames: [UInt8] = Array(repeating: [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 413), count: 3).flatMap { $0 }

    private func mime(_ bytes: [UInt8]) throws -> String { try identifier.identify(data: bytes).mimeType }

    @Test("FLAC and AAC behind an ID3v2 tag are FLAC and AAC; MP3 behind one stays MP3", arguments: [false, true])
    func taggedAudio(footer: Bool) throws {
        for size in [0, 100, 5000, 300_000] {
            let tag = Self.id3(size: size, footer: footer)
            let flac = try identifier.identify(data: tag + Self.flacStream)
            #expect(flac.mimeType == "audio/flac" && flac.type.identifier == "org.xiph.flac", "\(size): \(flac.evidence)")
            let aac = try identifier.identify(data: tag + Self.adtsFrames)
            #expect(aac.type == UTType("public.aac-audio") && aac.mimeType == "audio/aac", "\(size): \(aac.evidence)")
            #expect(try identifier.identify(data: tag + Self.mp3Frames).type == .mp3, "\(size)")
        }
        // A tag whose size is not syncsafe, or that runs past the end, leaves the answer at MP3.
        #expect(try mime(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0] + Self.flacStream) == "audio/mpeg")
        #expect(try mime(Self.id3(size: 50).prefix(30) + []) == "audio/mpeg")
    }

    /// A compiled terminfo entry (term(5)): the magic, the five counts, the names, the booleans (then, in a
    /// real entry, the numbers and strings).
    static func terminfo(names: String, extended: Bool = false) -> [UInt8] {
        let nameBytes = Array(names.utf8) + [0]
        let shorts = [nameBytes.count, 2, 1, 1, 4]
        return (extended ? [0x1E, 0x02] : [0x1A, 0x01]) + shorts.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + nameBytes
            + [1, 0, 0, 0x50, 0x00, 0x00, 0x00, 0x41, 0x42, 0x43, 0x00]
    }

    @Test("compiled terminfo entries are known by their header and names, without libmagic (which calls some a disk image)")
    func terminfo() throws {
        let entry = try identifier.identify(data: Self.terminfo(names: "xterm-test|a test terminal"))
        #expect(entry.mimeType == "application/x-terminfo" && entry.evidence.content?.source == .signature, "\(entry.evidence)")
        #expect(entry.evidence.content?.detail == "compiled terminfo entry \"xterm-test\"")
        // The 32-bit format; this entry's counts are what Apple DiskCopy's header holds at those offsets too.
        let extended = try identifier.identify(data: Self.terminfo(names: "mlterm-direct|mlterm with direct colors", extended: true))
        #expect(extended.mimeType == "application/x-terminfo2" && extended.evidence.content?.source == .signature, "\(extended.evidence)")
        // The magic without names of a terminal (control bytes, no NUL at their end, a size past the file) is not one.
        for bytes in [[0x1A, 0x01, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 9], [0x1A, 0x01, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x61, 0x62, 0x63, 0x64, 0x65],
                      [0x1A, 0x01, 0xFF, 0x0F, 0, 0, 0, 0, 0, 0, 0, 0, 0x61, 0x62, 0x00]] as [[UInt8]] {
            let other = try identifier.identify(data: bytes)
            #expect(other.evidence.content?.source != .signature, "\(bytes): \(other.evidence)")
        }
    }

    /// A TZif file (RFC 8536): a version 1 header and data block, then for version 2 and later a second
    /// header and block with 64-bit times; `leaps` leap-second records in both, one local time type, "UTC".
    static func tzif(version: UInt8, leaps: Int, secondHeaderLeaps: Int? = nil) -> [UInt8] {
        func block(leaps: Int, timeSize: Int) -> [UInt8] {
            func word(_ value: Int) -> [UInt8] { [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
            // Counts: UT indicators, standard indicators, leap records, transitions, types, characters.
            let header = Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
                + word(1) + word(1) + word(leaps) + word(0) + word(1) + word(4)
            let data = [0, 0, 0, 0, 0, 0] + Array("UTC".utf8) + [0]
                + [UInt8](repeating: 0, count: leaps * (timeSize + 4)) + [0, 0]
            return header + data
        }
        let first = block(leaps: leaps, timeSize: 4)
        guard version != 0 else { return first }
        return first + block(leaps: secondHeaderLeaps ?? leaps, timeSize: 8) + Array("\nUTC0\n".utf8)
    }

    @Test("time zone information (TZif) by its header, with leap seconds or without, and not a file that merely starts TZif")
    func timeZoneInformation() throws {
        let tzif = try #require(UTType("uti.mime.application.tzif"))
        for (bytes, mime, detail) in [
            (Self.tzif(version: 0x32, leaps: 0), "application/tzif", "TZif version 2 time zone information"),
            (Self.tzif(version: 0, leaps: 0), "application/tzif", "TZif version 1 time zone information"),
            (Self.tzif(version: 0x34, leaps: 27), "application/tzif-leap", "TZif version 4 time zone information, 27 leap-second records"),
            // Version 2 and later: the second header's records decide (a slim file's first block is empty).
            (Self.tzif(version: 0x33, leaps: 0, secondHeaderLeaps: 3), "application/tzif-leap", "TZif version 3 time zone information, 3 leap-second records"),
        ] as [([UInt8], String, String)] {
            let found = try identifier.identify(data: bytes)
            #expect(found.mimeType == mime && found.evidence.content?.source == .signature, "\(found.evidence)")
            #expect(found.evidence.content?.detail == detail)
        }
        #expect(try identifier.identify(data: Self.tzif(version: 0x32, leaps: 1)).type.conforms(to: tzif))
        // No local time type, indicators that are neither none nor one per type, an unknown version: not TZif.
        var noTypes = Self.tzif(version: 0x32, leaps: 0)
        noTypes[39] = 0
        var indicators = Self.tzif(version: 0x32, leaps: 0)
        indicators[23] = 2
        var version = Self.tzif(version: 0x32, leaps: 0)
        version[4] = 0x35
        for bytes in [noTypes, indicators, version, Array(Self.tzif(version: 0x32, leaps: 0).prefix(40))] {
            let other = try identifier.identify(data: bytes)
            #expect(!other.type.conforms(to: tzif), "\(other.evidence)")
        }
    }

    /// An X cursor (libXcursor's format): the header, a table of `images` image entries (and a comment's first
    /// when `comment`), each image a chunk of a 4 x 4 pixel frame.
    static func xcursor(images: Int, comment: Bool = false) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xFF) } }
        let chunks = (comment ? [0xFFFE_0001] : []) + [Int](repeating: 0xFFFD_0002, count: images)
        var table: [UInt8] = [], data: [UInt8] = [], position = 16 + chunks.count * 12
        for type in chunks {
            // An image: header size, type, nominal size, version, width, height, hot spot, delay, ARGB pixels; a
            // comment: header size, type, subtype, version, length, text.
            let chunk = type == 0xFFFE_0001
                ? word(20) + word(type) + word(1) + word(1) + word(5) + Array("hello".utf8)
                : word(36) + word(type) + word(24) + word(1) + word(4) + word(4) + word(1) + word(1) + word(50) + [UInt8](repeating: 0xFF, count: 64)
            table += word(type) + word(type == 0xFFFE_0001 ? 1 : 24) + word(position)
            data += chunk
            position += chunk.count
        }
        return Array("Xcur".utf8) + word(16) + word(0x1_0000) + word(chunks.count) + table + data
    }

    @Test("X cursors by their header and table of contents, which libmagic only describes; not a file that merely starts Xcur")
    func xcursors() throws {
        for (bytes, detail) in [(Self.xcursor(images: 1), "X cursor, 1 image"), (Self.xcursor(images: 3, comment: true), "X cursor, 3 images")] {
            let found = try identifier.identify(data: bytes, filename: "left_ptr")
            #expect(found.mimeType == "image/x-xcursor" && found.evidence.content?.source == .signature, "\(found.evidence)")
            #expect(found.evidence.content?.detail == detail)
        }
        // Another header size or version, no entries, a first entry of another kind, one that points into the
        // table, text after the magic: not this signature.
        var header = Self.xcursor(images: 1)
        header[4] = 12
        var version = Self.xcursor(images: 1)
        version[10] = 2
        var empty = Self.xcursor(images: 1)
        empty[12] = 0
        var kind = Self.xcursor(images: 1)
        kind[16] = 7
        var inside = Self.xcursor(images: 1)
        inside[24] = 20
        for bytes in [header, version, empty, kind, inside, Array("Xcursor themes are listed in index.theme\n".utf8)] {
            let other = try identifier.identify(data: bytes)
            #expect(other.evidence.content?.source != .signature, "\(other.evidence)")
        }
    }

    @Test("Python bytecode by its magic: each release's up to 3.6, any later one with a flags word; a pcapng header is not bytecode")
    func pythonBytecode() throws {
        let python311: [UInt8] = [0xA7, 0x0D, 0x0D, 0x0A, 0, 0, 0, 0, 0x4B, 0x97, 0x97, 0x63, 0xF7, 0x09, 0, 0, 0xE3, 0, 0, 0]
        let python27: [UInt8] = [0x03, 0xF3, 0x0D, 0x0A, 0x4B, 0x97, 0x97, 0x63, 0x63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        for (bytes, version) in [(python311, 3495), (python27, 62211)] {
            let found = try identifier.identify(data: bytes)
            #expect(found.type == UTType("uti.mime.application.x-python-bytecode"), "\(found.evidence)")
            #expect(found.evidence.content?.detail == "Python bytecode, magic \(version)")
        }
        // 3.7 and later with a flags word other than 0 to 3 is not bytecode.
        let badFlags = try identifier.identify(data: [0xA7, 0x0D, 0x0D, 0x0A, 0x10, 0, 0, 0] + [UInt8](repeating: 0, count: 12))
        #expect(badFlags.evidence.content?.source != .signature)
        // A pcapng section header block: `0A 0D 0D 0A`, which a Python 3.5 development build used as its magic.
        let pcapng: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A, 0x1C, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1C, 0, 0, 0]
        let capture = try identifier.identify(data: pcapng)
        #expect(capture.type != UTType("uti.mime.application.x-python-bytecode") && !capture.evidence.otherReadings.contains { $0.source == .signature },
                "\(capture.evidence)")
    }

    @Test("JPEG-LS (an SOF55 marker after SOI) is not JPEG")
    func jpegLS() throws {
        let jls: [UInt8] = [0xFF, 0xD8, 0xFF, 0xF7, 0x00, 0x0B, 0x08, 0x00, 0x10, 0x00, 0x10, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xDA]
        let found = try identifier.identify(data: jls)
        #expect(found.mimeType == "image/jls" && found.type.conforms(to: .image), "\(found.evidence)")
        #expect(try identifier.identify(data: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1]).type == .jpeg)
    }

    @Test("a TrueType collection is one type of its own, font/collection")
    func fontCollection() throws {
        let ttc: [UInt8] = Array("ttcf".utf8) + [0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 20, 0, 0, 0, 40] + [UInt8](repeating: 0, count: 40)
        let found = try identifier.identify(data: ttc)
        #expect(found.mimeType == "font/collection" && found.type.identifier == "public.truetype-collection-font", "\(found.evidence)")
    }

    @Test("Parquet, by its magic at both ends, conclusively")
    func parquet() throws {
        let body = [UInt8](repeating: 0x15, count: 64)
        let found = try identifier.identify(data: Array("PAR1".utf8) + body + [40, 0, 0, 0] + Array("PAR1".utf8))
        #expect(found.mimeType == "application/vnd.apache.parquet", "\(found.evidence)")
        #expect(found.evidence.content?.detail == "Parquet magic", "the signature decides: \(found.evidence)")
    }

    @Test("a Creative Voice file")
    func creativeVoice() throws {
        let voc = Array("Creative Voice File".utf8) + [0x1A, 0x1A, 0x00, 0x0A, 0x01, 0x29, 0x11, 0x01, 0x02, 0x00, 0x00, 0xA5, 0x00, 0x80, 0x80, 0x00]
        #expect(try mime(voc) == "audio/x-voc")
    }

    @Test("an Apple UDIF disk image, by the koly trailer in its last 512 bytes")
    func udif() throws {
        var trailer = Array("koly".utf8) + [0, 0, 0, 4, 0, 0, 2, 0]
        trailer += [UInt8](repeating: 0, count: 512 - trailer.count)
        let image = [0x78, 0xDA, 0x01, 0x00] + [UInt8](repeating: 0x5A, count: 4092) + trailer   // a compressed block first
        let found = try identifier.identify(data: image)
        #expect(found.mimeType == "application/x-apple-diskimage" && found.type.identifier == "com.apple.disk-image-udif", "\(found.evidence)")
        #expect(try mime(image.dropLast()) != "application/x-apple-diskimage", "the trailer must end the file")
        #expect(try mime(Array(repeating: UInt8(ascii: "a"), count: 4096) + trailer) != "application/x-apple-diskimage",
                "text is never a disk image (its end is not read)")
        let binary = [UInt8](repeating: 0, count: 4096) + trailer
        #expect(try mime(binary) == "application/x-apple-diskimage")
    }

    /// MPEG-1 Layer I frames: sync, MPEG-1, Layer I, no CRC; 384 kbit/s at 44.1 kHz, 416-byte frames.
    static let layerIFrames: [UInt8] = Array(repeating: [0xFF, 0xFF, 0xC0, 0x00] + [UInt8](repeating: 0x55, count: 412), count: 4).flatMap { $0 }

    @Test("MPEG-1 Layer I audio, bare or behind an ID3v2 tag, is Layer I (audio/mpeg), not MP3")
    func layerI() throws {
        for bytes in [Self.layerIFrames, Self.id3(size: 200) + Self.layerIFrames] {
            let found = try identifier.identify(data: bytes)
            #expect(found.type.identifier == "uti.mp1-audio" && found.mimeType == "audio/mpeg" && found.type.conforms(to: .audio), "\(found.evidence)")
        }
        // One frame header alone, or a reserved bit rate, is not enough.
        #expect(try identifier.identify(data: Array(Self.layerIFrames.prefix(500))).type.identifier != "uti.mp1-audio")
        var badRate = Self.layerIFrames
        badRate[416 + 2] = 0xF0
        #expect(try identifier.identify(data: badRate).type.identifier != "uti.mp1-audio")
        #expect(try identifier.identify(data: Self.mp3Frames).type == .mp3)
    }

    @Test("an Arrow IPC file, by ARROW1 at both ends")
    func arrow() throws {
        let file = Array("ARROW1".utf8) + [0, 0] + [UInt8](repeating: 0xFF, count: 40) + [24, 0, 0, 0] + Array("ARROW1".utf8)
        let found = try identifier.identify(data: file)
        #expect(found.mimeType == "application/vnd.apache.arrow.file" && found.type.identifier == "uti.mime.application.vnd.apache.arrow.file", "\(found.evidence)")
        #expect(try identifier.identify(data: Array(file.dropLast(6))).mimeType != "application/vnd.apache.arrow.file", "the magic must end the file")
    }

    @Test("an Avro object container file, by Obj 1 and its metadata map")
    func avro() throws {
        // One map block of two entries (zig-zag 4), key "avro.schema" (zig-zag 22), its schema, ...
        let schema = Array(#""string""#.utf8)
        let file = Array("Obj".utf8) + [1, 4, 22] + Array("avro.schema".utf8) + [UInt8(schema.count * 2)] + schema
            + [20] + Array("avro.codec".utf8) + [8] + Array("null".utf8) + [0] + [UInt8](repeating: 0xA7, count: 16)
        let found = try identifier.identify(data: file)
        #expect(found.type.identifier == "uti.avro-object-container", "\(found.evidence)")
        // No vocabulary but Magika's names the format: its name is reported, not application/octet-stream.
        #expect(found.mimeType == "application/x-avro-binary")
        #expect(try identifier.identify(data: Array("Obj".utf8) + [1, 4, 22] + Array("something.x".utf8)).type.identifier != "uti.avro-object-container")
    }

    @Test("a binary FBX scene, a Draco mesh and a SketchUp model are 3D content of their own")
    func threeDimensional() throws {
        let fbx = Array("Kaydara FBX Binary  ".utf8) + [0x00, 0x1A, 0x00, 0xE8, 0x1C, 0x00, 0x00] + [UInt8](repeating: 0, count: 64)
        let foundFBX = try identifier.identify(data: fbx)
        #expect(foundFBX.type.identifier == "uti.mime.application.vnd.autodesk.fbx" && foundFBX.type.conforms(to: UTType("public.3d-content") ?? .data),
                "\(foundFBX.evidence)")
        // "DRACO", version 2.2, encoder type 1 (mesh), method 1 (edgebreaker), flags.
        let draco = Array("DRACO".utf8) + [2, 2, 1, 1, 0, 0] + [UInt8](repeating: 0x3C, count: 32)
        let foundDraco = try identifier.identify(data: draco)
        #expect(foundDraco.type.identifier == "uti.draco-mesh", "\(foundDraco.evidence)")
        #expect(try identifier.identify(data: Array("DRACO".utf8) + [9, 9, 9]).type.identifier != "uti.draco-mesh")
        let skp: [UInt8] = [0xFF, 0xFE, 0xFF, 0x0E] + "SketchUp Model".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            + [0xFF, 0xFE, 0xFF, 0x0E] + [UInt8](repeating: 0, count: 32)
        #expect(try mime(skp) == "application/vnd.sketchup.skp")
    }

    @Test("a Windows registry hive, by regf and its version")
    func registryHive() throws {
        var hive = Array("regf".utf8) + [UInt8](repeating: 0, count: 4092)
        hive[20] = 1
        hive[24] = 5
        hive += Array("hbin".utf8) + [UInt8](repeating: 0, count: 60)
        let found = try identifier.identify(data: hive)
        #expect(found.type.identifier == "uti.windows-registry-hive", "\(found.evidence)")
        hive[20] = 7
        #expect(try identifier.identify(data: hive).type.identifier != "uti.windows-registry-hive")
    }

    @Test("QCP audio, by its RIFF form type QLCM")
    func qcp() throws {
        let qcp = Array("RIFF".utf8) + [0xC2, 0x00, 0x00, 0x00] + Array("QLCMfmt ".utf8) + [0x96, 0, 0, 0, 1, 0] + [UInt8](repeating: 0, count: 150)
        let found = try identifier.identify(data: qcp)
        #expect(found.mimeType == "audio/qcelp" && found.type.conforms(to: .audio), "\(found.evidence)")
    }

    // MARK: Formats peers name: WARC, MARC 21, XML vocabularies, PEM

    /// A MARC 21 record made as the Library of Congress specifies it: a leader, a directory of 12-digit entries,
    /// the fields each ending with 1E, the record with 1D.
    static func marcRecord(type: Character = "a", fields: [(tag: String, data: String)]) -> [UInt8] {
        var directory = "", data: [UInt8] = []
        for field in fields {
            let bytes = Array(field.data.utf8) + [0x1E]
            directory += field.tag + String(format: "%04d%05d", bytes.count, data.count)
            data += bytes
        }
        let base = 24 + directory.utf8.count + 1
        let length = base + data.count + 1
        let leader = String(format: "%05dn", length) + String(type) + "m a22" + String(format: "%05d", base) + "   4500"
        return Array(leader.utf8) + Array(directory.utf8) + [0x1E] + data + [0x1D]
    }

    @Test("a WARC file, by its first record's version line, whether its payloads are text or not")
    func webArchive() throws {
        let record = "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: 2026-11-26T00:00:00Z\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
        for version in ["1.0", "1.1", "0.17"] {
            let found = try identifier.identify(data: Array(record.replacingOccurrences(of: "WARC/1.1", with: "WARC/" + version).utf8))
            #expect(found.mimeType == "application/warc" && found.evidence.content?.isConclusive == true, "\(version): \(found.evidence)")
        }
        let named = try identifier.identify(data: Array(record.utf8) + [0, 0xFF, 0x89], filename: "crawl.warc")
        #expect(named.mimeType == "application/warc" && !named.isMismatch, "\(named.evidence)")
        // Text that only mentions WARC, and text named .warc: no WARC file, and the name lies.
        #expect(try mime(Array("WARC/ is how a record starts\n".utf8)) == "text/plain")
        let lying = try identifier.identify(data: Array("three lines\nof plain\ntext\n".utf8), filename: "crawl.warc")
        #expect(lying.type == .plainText && lying.isMismatch, "\(lying.evidence)")
    }

    @Test("MARC 21 records, bibliographic and authority, by their leader and directory; their name .mrc")
    func marc() throws {
        let fields = [(tag: "001", data: "ocm12345678"), (tag: "245", data: "10\u{1F}aA title that is long enough for a real record /\u{1F}cby someone.")]
        let bibliographic = Self.marcRecord(fields: fields)
        let found = try identifier.identify(data: bibliographic + bibliographic)
        #expect(found.mimeType == "application/marc" && found.evidence.content?.detail.contains("bibliographic") == true, "\(found.evidence)")
        #expect(try identifier.identify(data: Self.marcRecord(type: "z", fields: fields)).evidence.content?.detail.contains("authority") == true)
        #expect(try identifier.identify(data: bibliographic, filename: "catalogue.mrc").mimeType == "application/marc")
        #expect(found.evidence.content?.source == .signature && found.evidence.content?.isConclusive == true)
        // A wrong base address, a record longer than the file, a leader without 4500: no MARC leader for uti's
        // reader (libmagic's looser rules may still call some MARC, as a suggestion).
        var broken = bibliographic
        broken[16] = broken[16] == UInt8(ascii: "7") ? UInt8(ascii: "3") : UInt8(ascii: "7")
        var noMap = bibliographic
        noMap[20] = UInt8(ascii: "5")
        for bytes in [broken, Array(bibliographic.dropLast(10)), noMap] {
            let found = try identifier.identify(data: bytes)
            #expect(found.evidence.content?.source != .signature, "\(found.evidence)")
        }
        // Random bytes named .mrc are no MARC: every MARC file starts with a leader.
        var generator = SystemRandomNumberGenerator()
        let random = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let lying = try identifier.identify(data: random, filename: "catalogue.mrc")
        #expect(lying.type == .data && lying.isMismatch, "\(lying.evidence)")
    }

    @Test("XML vocabularies by their root element: X3D (named .x3d or not), Garmin's TCX; OWL in both syntaxes")
    func xmlVocabularies() throws {
        let x3d = #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE X3D PUBLIC "ISO//Web3D//DTD X3D 3.3//EN" "x3d-3.3.dtd"><X3D profile="Interchange" version="3.3"><Scene/></X3D>"#
        for filename in [nil, "scene.x3d"] {
            let found = try identifier.identify(data: Array(x3d.utf8), filename: filename)
            #expect(found.mimeType == "model/x3d+xml" && found.type.conforms(to: .xml) && !found.isMismatch, "\(filename ?? "-"): \(found.evidence)")
        }
        let tcx = #"<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities/></TrainingCenterDatabase>"#
        for filename in [nil, "run.tcx"] {
            #expect(try identifier.identify(data: Array(tcx.utf8), filename: filename).mimeType == "application/vnd.garmin.tcx+xml")
        }
        let owlXML = #"<?xml version="1.0"?><Ontology xmlns="http://www.w3.org/2002/07/owl#" ontologyIRI="http://example.org/o"/>"#
        #expect(try mime(Array(owlXML.utf8)) == "application/owl+xml")
        // OWL in RDF/XML is RDF/XML (W3C's OWL 2 mapping): the syntax, as Tika and shared-mime-info name it.
        let owlRDF = #"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#"><owl:Ontology/></rdf:RDF>"#
        #expect(try identifier.identify(data: Array(owlRDF.utf8), filename: "o.owl").mimeType == "application/rdf+xml")
    }

    static let pemBody = "MC4CAQAwBQYDK2VwBCIEIGNbZW5X1kzKz0yTn9ZfNfmrAmMnZ4sWJq9m8cZ0Kf0a"

    @Test("PEM blocks by their label: a private key named .pem is a key, not a certificate, and no lie", arguments: [
        ("PRIVATE KEY", "application/pkcs8"), ("ENCRYPTED PRIVATE KEY", "application/pkcs8-encrypted"),
        ("CERTIFICATE", "application/x-x509-ca-cert"), ("CERTIFICATE REQUEST", "application/pkcs10"),
        ("X509 CRL", "application/pkix-crl"), ("RSA PRIVATE KEY", "application/x-pem-file"), ("PUBLIC KEY", "application/x-pem-file"),
    ])
    func pem(label: String, expected: String) throws {
        let block = "-----BEGIN \(label)-----\n\(Self.pemBody)\n-----END \(label)-----\n"
        for filename in [nil, "key.pem"] {
            let found = try identifier.identify(data: Array(block.utf8), filename: filename)
            #expect(found.mimeType == expected && !found.isMismatch && found.evidence.content?.isConclusive == true,
                    "\(filename ?? "-"): \(found.evidence)")
        }
        // After OpenSSL's attribute lines the block still counts (less surely); inside a script it does not.
        let bag = "Bag Attributes\n    localKeyID: 01 02 03\nsubject=CN = example\n" + block
        #expect(try identifier.identify(data: Array(bag.utf8), filename: "bundle.pem").mimeType == expected)
        let script = "import ssl\nKEY = \"\"\"\n" + block + "\"\"\"\n"
        #expect(try identifier.identify(data: Array(script.utf8), filename: "test_keys.py").type == .pythonScript)
        #expect(try identifier.identify(data: Array(script.utf8)).mimeType != expected)
    }

    @Test("a private key named as a certificate (.crt) is flagged: the label says what the block is")
    func pemUnderAnotherName() throws {
        let block = "-----BEGIN PRIVATE KEY-----\n\(Self.pemBody)\n-----END PRIVATE KEY-----\n"
        let found = try identifier.identify(data: Array(block.utf8), filename: "server.crt")
        #expect(found.mimeType == "application/pkcs8" && found.isMismatch, "\(found.evidence)")
    }

    @Test("formats libmagic describes but gives no MIME type reach their types by its description: LLVM bitcode, a GObject typelib, file(1)'s own database")
    func describedByLibmagic() throws {
        // LLVM's bitcode magic ('BC' 0xC0DE) and a first block; GObject Introspection's typelib header.
        let bitcode: [UInt8] = Array("BC".utf8) + [0xC0, 0xDE, 0x35, 0x14, 0, 0, 0x05, 0, 0, 0, 0x62, 0x0C, 0x30, 0x24]
        let found = try identifier.identify(data: bitcode)
        #expect(found.type.identifier == "uti.llvm-bitcode", "\(found.type.identifier)")
        #expect(found.evidence.content?.detail == "libmagic: LLVM IR bitcode")
        #expect(!(try identifier.identify(data: bitcode, filename: "module.bc")).isMismatch)
        let typelib: [UInt8] = Array("GOBJ\nMETADATA\r\n".utf8) + [0x1A, 4, 0] + [UInt8](repeating: 0, count: 60)
        #expect(try identifier.identify(data: typelib).type.identifier == "uti.gobject-introspection-typelib")
        // The database libmagic itself loads.
        let database = try #require(Magic.defaultDatabasePath)
        #expect(try identifier.identify(fileAt: database).type.identifier == "uti.libmagic-database")
        // What libmagic calls data stays data.
        #expect(try identifier.identify(data: [0x01, 0x02, 0x03, 0x04, 0xFF, 0xFE, 0x00, 0x10]).type == .data)
    }
}
