import Foundation
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// Name against content over the whole type database, not a list someone saw: every filename extension a
/// declared type claims, derived here from the database itself.
///
/// - Three lines of plain text under every extension whose claimants' files can never be text: a text type,
///   and a mismatch (the name lies).
/// - 3,000 random bytes under every extension whose claimants' files are always text: not a text type, and a
///   mismatch.
///
/// The data says where a name promises nothing, and there the answer is still the content's but no mismatch:
/// an extension whose first sense is a package (a regular file named `.key` is no Keynote package, and the
/// name says nothing sure of its bytes), one that only libmagic's lists of extensions seen give a format
/// (`.dat`), one a format of the content's kind claims in another source (Jetty's text `.mod` files, where the
/// database has tracker modules), and one GitHub Linguist writes a language in (text under `.gf` is
/// Grammatical Framework).
@Suite("Name against content, over the whole database")
struct NameAgainstContentTests {
    static let identifier = FileIdentifier(options: .init(usesModel: false))

    /// Every extension (lower-cased) with the declared types claiming it.
    static let extensions: [String: [UTType]] = {
        var claims: [String: [UTType]] = [:]
        for declaration in TypeDatabase.shared.declarations {
            guard let type = UTType(declaration.identifier) else { continue }
            for tag in declaration.tags[.filenameExtension] ?? [] where !tag.contains("/") && !tag.contains(".") {
                claims[tag.lowercased(), default: []].append(type)
            }
        }
        return claims
    }()

    /// Why the name promises nothing about bytes of this kind, `nil` when it does.
    static func exemption(_ ext: String, text: Bool) -> String? {
        let kinds = MediaTypeNames.extensionKinds(ext)
        let claimants = TypeDatabase.shared.declaredTypes(tag: ext, tagClass: .filenameExtension)
        if let first = claimants.first, first.conforms(to: .directory) { return "its first sense is a package" }
        if kinds.contains(.libmagicOnly) { return "only libmagic's lists give it" }
        if text && kinds.contains(.textElsewhere) { return "a text format claims it in another source" }
        if !text && kinds.contains(.binaryElsewhere) { return "a binary format claims it in another source" }
        return nil
    }

    @Test("three lines of text under every extension only binary formats claim: a text type, and a mismatch where the name promises a format")
    func textUnderBinaryNames() throws {
        let text = Array("The first line of a note.\nA second line, with a comma, and a number: 42.\nThe last line.\n".utf8)
        var checked = 0, exempt: [String: Int] = [:], wrong: [String] = []
        for (ext, claimants) in Self.extensions where claimants.allSatisfy({ !FormatFacts.canBeText($0) }) {
            let found = try Self.identifier.identify(data: text, filename: "t." + ext)
            checked += 1
            let linguist = found.evidence.name?.decidedBy?.contains("Linguist") == true
            let reason = Self.exemption(ext, text: true)
            if let reason { exempt[reason, default: 0] += 1 }
            let flagRight = found.isMismatch || linguist || reason != nil
            if !found.type.conforms(to: .text) || !flagRight {
                wrong.append("t.\(ext): \(found.type.identifier) (\(found.evidence.rule), mismatch \(found.isMismatch))")
            }
        }
        #expect(checked > 1_000, "\(checked) extensions")
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked) wrong: \(wrong.prefix(12))")
        #expect(exempt.values.reduce(0, +) * 4 < checked, "names that promise nothing: \(exempt)")
    }

    @Test("3,000 random bytes under every extension only text formats claim: no text type, and a mismatch where the name promises a format")
    func bytesUnderTextNames() throws {
        var generator = SplitMix(seed: 42)
        let noise = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var checked = 0, exempt: [String: Int] = [:], wrong: [String] = []
        for (ext, claimants) in Self.extensions where claimants.allSatisfy({ !FormatFacts.canBeBinary($0) }) {
            let found = try Self.identifier.identify(data: noise, filename: "b." + ext)
            checked += 1
            let reason = Self.exemption(ext, text: false)
            if let reason { exempt[reason, default: 0] += 1 }
            if found.type.conforms(to: .text) || !(found.isMismatch || reason != nil) {
                wrong.append("b.\(ext): \(found.type.identifier) (\(found.evidence.rule), mismatch \(found.isMismatch))")
            }
        }
        #expect(checked > 1_000, "\(checked) extensions")
        #expect(wrong.isEmpty, "\(wrong.count) of \(checked) wrong: \(wrong.prefix(12))")
        #expect(exempt.values.reduce(0, +) * 10 < checked, "names that promise nothing: \(exempt)")
    }

    @Test("a shared object's version, a version after digits and a whole name many formats share promise nothing; an extension does")
    func namesThatPromise() throws {
        let elf = Array(try Data(contentsOf: URL(filePath: "/bin/true")))
        for name in ["libc.so.6", "libnghttp2.so.14.24.1", "tclsh8.6", "linux2.6", "login", "rename.ul", "valgrind.bin"] {
            let found = try Self.identifier.identify(data: elf, filename: name)
            #expect(!found.isMismatch, "\(name): \(found.type.identifier), \(found.evidence.nameOverruled ?? "")")
            #expect(!found.type.conforms(to: .text), "\(name): \(found.type.identifier)")
        }
        for name in ["invoice.pdf", "photo.jpg", "notes.txt", "b.1", "tool.exe", "data.json"] {
            let found = try Self.identifier.identify(data: elf, filename: name)
            #expect(found.isMismatch && found.evidence.nameOverruled != nil, "\(name): \(found.type.identifier)")
        }
    }

    @Test("a shared object's version: after the last .so. past the first character, digits and dots, a digit first and last")
    func sharedObjectVersions() {
        let cases: [(String, String?)] = [
            ("libc.so.6", "6"), ("libnghttp2.so.14.24.1", "14.24.1"), ("a.so.so.3", "3"), ("libx.so.1.so.2", "2"),
            (".so.6", nil), ("x.so.6", "6"), ("x.so.", nil), ("x.so.1a", nil), ("x.so.1.", nil), ("x.so..1", nil),
            ("libc.so", nil), ("so.6", nil), ("é.so.12", "12"), ("lib.so.6\u{301}", nil), ("", nil), ("ab.so.9", "9"),
        ]
        for (name, version) in cases {
            #expect(NameMatching.sharedObjectVersion(name) == version, "\(name)")
        }
    }

    @Test("text without a byte-order mark in UTF-16 or UTF-32, either order, is text in that encoding; tables of numbers are not")
    func wideTextWithoutMark() throws {
        let text = "<html><body>Grüße, 𝄞 and plain words.</body></html>\n"
        let units = Array(text.utf16), scalars = text.unicodeScalars.map(\.value)
        let encodings: [(TextEncoding, [UInt8])] = [
            (.utf16LittleEndian, units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
            (.utf16BigEndian, units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }),
            (.utf32LittleEndian, scalars.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 >> 16 & 0xFF), 0] }),
            (.utf32BigEndian, scalars.flatMap { [0, UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }),
        ]
        for (encoding, bytes) in encodings {
            let found = try Self.identifier.identify(data: bytes, filename: "page.html")
            #expect(found.textEncoding == encoding, "\(encoding)")
            #expect(found.type == .html && !found.isMismatch, "\(encoding): \(found.type.identifier)")
        }
        // Little-endian 16-bit numbers with zero high bytes now and then: binary, as before.
        let table = (0..<64).flatMap { index -> [UInt8] in [UInt8(truncatingIfNeeded: index &* 37), UInt8(index % 3 == 0 ? 0 : 0x90)] }
        #expect(try Self.identifier.identify(data: table).type == .data)
    }

    @Test("a few control characters in text (a Vim keymap's ^K) do not prove it binary: the name stands")
    func fewControlsAreNoProof() throws {
        let keymap = Array("\" Croatian keymap\nlet b:keymap_name = \"hr\"\nloadkeymap\n".utf8) + [0x0B, 0x0B] + Array(" a\n".utf8)
        let found = try Self.identifier.identify(data: keymap, filename: "croatian.vim")
        #expect(found.type.conforms(to: .text) && !found.isMismatch, "\(found.type.identifier)")
    }

    /// A MacBinary file of each version: a header naming `Read Me`, a data fork of 130 bytes, padded to 128.
    static func macBinary(version: Int) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 128)
        let name = Array("Read Me".utf8), data = Array(String(repeating: "hello, world\r", count: 10).utf8)
        header[1] = UInt8(name.count)
        header.replaceSubrange(2..<(2 + name.count), with: name)
        header.replaceSubrange(65..<73, with: Array("TEXTttxt".utf8))
        header.replaceSubrange(83..<87, with: withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init))
        if version >= 2 {
            header[122] = version == 3 ? 130 : 129
            header[123] = 129
            if version == 3 { header.replaceSubrange(102..<106, with: Array("mBIN".utf8)) }
            var crc: UInt16 = 0  // CRC-16/XMODEM of the first 124 bytes
            for byte in header[0..<124] {
                crc ^= UInt16(byte) << 8
                for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
            }
            header[124] = UInt8(crc >> 8)
            header[125] = UInt8(crc & 0xFF)
        }
        return header + data + [UInt8](repeating: 0, count: (128 - data.count % 128) % 128)
    }

    @Test("MacBinary by its header: II and III proven by their CRC, I a header .bin confirms; other bytes named .bin are what they read as, and no lie")
    func macBinaryAndBin() throws {
        for version in 1...3 {
            let bytes = Self.macBinary(version: version)
            let named = try Self.identifier.identify(data: bytes, filename: "readme.bin")
            #expect(named.type.identifier == "com.apple.macbinary-archive" && !named.isMismatch, "\(version): \(named.type.identifier)")
            #expect(named.evidence.content?.detail == "MacBinary \(["I", "II", "III"][version - 1]) header, Read Me")
            #expect(named.confidence == (version == 1 ? .medium : .high), "\(version): \(named.confidence)")
            let nameless = try Self.identifier.identify(data: bytes)
            #expect(nameless.type.identifier == "com.apple.macbinary-archive", "\(version), no name: \(nameless.type.identifier)")
        }
        // A CRC one bit off is no MacBinary II, and its bytes 99 to 125 are not MacBinary I's zeros either.
        var broken = Self.macBinary(version: 2)
        broken[125] ^= 1
        #expect(try Self.identifier.identify(data: broken).type == .data)
        // Forks longer than the file: no MacBinary.
        var short = Self.macBinary(version: 2)
        short.removeLast(200)
        #expect(try Self.identifier.identify(data: short).type == .data)
        // Firmware, a V8 snapshot, udev's hwdb: binary data, whose `.bin` names binary data of any kind.
        var generator = SplitMix(seed: 7)
        let noise = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let hwdb = Array("KSLPHHRH".utf8) + [0xFC] + [UInt8](repeating: 0, count: 300) + noise
        for bytes in [noise, hwdb] {
            let found = try Self.identifier.identify(data: bytes, filename: "hwdb.bin")
            #expect(found.type == .data && !found.isMismatch && found.evidence.rule == .contentOverrulesName,
                    "\(found.type.identifier), \(found.evidence.rule), mismatch \(found.isMismatch)")
            #expect(found.evidence.nameOverruled?.contains("com.apple.macbinary-archive") == true)
        }
        // Text under .bin: the name said binary.
        let text = try Self.identifier.identify(data: Array("three\nlines of\ntext\n".utf8), filename: "notes.bin")
        #expect(text.type.conforms(to: .text) && text.isMismatch, "\(text.type.identifier)")
    }
}
