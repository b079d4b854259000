internal import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Built-in signatures of common binary formats: cheaper than libmagic, and conclusive.
///
/// Only signatures that cannot be mistaken are listed: a few fixed bytes at a fixed offset that no
/// text and no other common format starts with. Everything else goes to libmagic.
enum Signatures {
    /// A signature found: the MIME type it names and what was seen; for a format no vocabulary has a MIME
    /// type of its own for, the identifier of its type instead (and the family's MIME type, if any).
    struct Match {
        var mimeType: String?
        var detail: String
        var identifier: String?
        /// Whether the signature proves the format; `false` for a header whose shape other data may have too
        /// (MacBinary I's), which confirms a name that claims the format and names none alone.
        var isConclusive: Bool

        init(mimeType: String?, detail: String, identifier: String? = nil, conclusive: Bool = true) {
            self.mimeType = mimeType
            self.detail = detail
            self.identifier = identifier
            isConclusive = conclusive
        }
    }

    /// The verdict of the signature `prefix` carries, if any, and whether it proves the format.
    static func verdict(_ prefix: [UInt8], in source: some ByteSource) -> (verdict: Verdict, isConclusive: Bool)? {
        guard let match = match(prefix, in: source) else { return nil }
        if let identifier = match.identifier {
            guard let type = UTType(identifier), type.isDeclared else { return nil }
            return (Verdict(type: type, mimeType: match.mimeType, detail: match.detail), match.isConclusive)
        }
        return match.mimeType.flatMap { Verdict(mimeType: $0, detail: match.detail) }.map { ($0, match.isConclusive) }
    }

    private struct Entry {
        var offset: Int
        var bytes: [UInt8]
        var mimeType: String
        var name: String
        /// For a format no vocabulary names: its type's identifier, and what the bytes after the magic
        /// must hold (the detail to report, or `nil` when they do not).
        var identifier: String?
        var confirm: (@Sendable ([UInt8]) -> String?)?
        /// What a match of this entry is checked or refined by, decided once here (not by comparing the
        /// entry's strings at every match).
        var check: Check

        enum Check { case none, elf, id3, jpeg, parquet, arrow, java, png }

        init(_ offset: Int, _ bytes: [UInt8], _ mimeType: String, _ name: String) {
            self.offset = offset
            self.bytes = bytes
            self.mimeType = mimeType
            self.name = name
            check = switch mimeType {
            case "application/x-elf": .elf
            case "audio/mpeg" where name == "ID3 tag": .id3
            case "image/jpeg": .jpeg
            case "application/vnd.apache.parquet": .parquet
            case "application/vnd.apache.arrow.file": .arrow
            case "application/x-java": .java
            case "image/png": .png
            default: .none
            }
        }

        init(_ offset: Int, _ text: String, _ mimeType: String, _ name: String) {
            self.init(offset, Array(text.utf8), mimeType, name)
        }

        init(_ offset: Int, _ text: String, identifier: String, confirm: @escaping @Sendable ([UInt8]) -> String?) {
            self.init(offset, Array(text.utf8), "", "")
            self.identifier = identifier
            self.confirm = confirm
        }
    }

    private static let table: [Entry] = [
        Entry(0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png", "PNG signature"),
        Entry(0, [0xFF, 0xD8, 0xFF], "image/jpeg", "JPEG SOI marker"),
        Entry(0, "GIF87a", "image/gif", "GIF87a"),
        Entry(0, "GIF89a", "image/gif", "GIF89a"),
        Entry(0, [0x49, 0x49, 0x2A, 0x00], "image/tiff", "TIFF little-endian header"),
        Entry(0, [0x4D, 0x4D, 0x00, 0x2A], "image/tiff", "TIFF big-endian header"),
        Entry(0, [0x00, 0x00, 0x01, 0x00, 0x01, 0x00], "image/vnd.microsoft.icon", "ICO header"),
        Entry(0, "8BPS", "image/vnd.adobe.photoshop", "Photoshop 8BPS"),
        Entry(0, [0x76, 0x2F, 0x31, 0x01], "image/x-exr", "OpenEXR magic"),
        Entry(0, [0xFF, 0x0A], "image/jxl", "JPEG XL codestream"),
        Entry(0, [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], "image/jxl", "JPEG XL container"),
        Entry(0, [0x1F, 0x8B], "application/gzip", "gzip header"),
        Entry(0, "BZh", "application/x-bzip2", "bzip2 header"),
        Entry(0, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application/x-xz", "xz header"),
        Entry(0, [0x28, 0xB5, 0x2F, 0xFD], "application/zstd", "Zstandard frame"),
        Entry(0, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "application/x-7z-compressed", "7-Zip signature"),
        Entry(0, [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07], "application/vnd.rar", "RAR signature"),
        Entry(0, [0x04, 0x22, 0x4D, 0x18], "application/x-lz4", "LZ4 frame"),
        Entry(0, "!<arch>\ndebian-binary", "application/vnd.debian.binary-package", "Debian package"),
        Entry(0, [0xED, 0xAB, 0xEE, 0xDB], "application/x-rpm", "RPM lead"),
        Entry(257, "ustar", "application/x-tar", "tar ustar header"),
        Entry(0, [0x7F, 0x45, 0x4C, 0x46], "application/x-elf", "ELF header"),
        Entry(0, "%PDF-", "application/pdf", "%PDF- header"),
        Entry(0, "SQLite format 3\0", "application/vnd.sqlite3", "SQLite header"),
        Entry(0, "wOFF", "font/woff", "WOFF header"),
        Entry(0, "wOF2", "font/woff2", "WOFF2 header"),
        Entry(0, "fLaC", "audio/flac", "FLAC stream marker"),
        Entry(0, "ID3", "audio/mpeg", "ID3 tag"),
        Entry(0, "MThd", "audio/midi", "MIDI header"),
        Entry(0, [0xCA, 0xFE, 0xBA, 0xBE], "application/x-java", "Java class file"),
        Entry(0, [0x00, 0x61, 0x73, 0x6D], "application/wasm", "WebAssembly module"),
        Entry(0, "{\\rtf", "application/rtf", "RTF header"),
        Entry(0, "ttcf", "font/collection", "TrueType collection header"),
        Entry(0, "Creative Voice File\u{1A}", "audio/x-voc", "Creative Voice header"),
        Entry(0, "PAR1", "application/vnd.apache.parquet", "Parquet magic"),
        Entry(0, "ARROW1\0\0", "application/vnd.apache.arrow.file", "Arrow IPC file magic"),
        Entry(0, "Kaydara FBX Binary  \0", "application/vnd.autodesk.fbx", "binary FBX header"),
        Entry(0, [0xFF, 0xFE, 0xFF, 0x0E] + Array("SketchUp Model".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }),
              "application/vnd.sketchup.skp", "SketchUp Model header"),
        // Avro: the header's metadata map follows, its first key `avro.schema` or `avro.codec` after the
        // block count and the key's length (zig-zag varints of one byte for these).
        Entry(0, "Obj\u{01}", identifier: "uti.avro-object-container") { prefix in
            prefix.count >= 17 && (prefix[5] == 22 || prefix[5] == 20) && prefix[6...].starts(with: Array("avro.".utf8))
                ? "Avro object container header" : nil
        },
        // Draco: the major version (1 or 2) and minor version, then the encoder type (0 point cloud, 1 mesh).
        Entry(0, "DRACO", identifier: "uti.draco-mesh") { prefix in
            prefix.count >= 9 && (1...2).contains(prefix[5]) && prefix[7] <= 1 ? "Draco header, version \(prefix[5]).\(prefix[6])" : nil
        },
        // A registry hive: major version 1 (little-endian, at 20), minor version 2 to 6 (at 24).
        Entry(0, "regf", identifier: "uti.windows-registry-hive") { prefix in
            guard prefix.littleEndian32(at: 20) == 1, let minor = prefix.littleEndian32(at: 24), (2...6).contains(minor) else { return nil }
            return "registry hive header, version 1.\(minor)"
        },
    ]

    /// For each first byte of a prefix, the entries it may match, in the table's order: those at offset 0
    /// that start with it, and those at other offsets.
    private static let byFirstByte: [[Int]] = (0..<256).map { byte in
        table.indices.filter { table[$0].offset != 0 || table[$0].bytes.first == UInt8(byte) }
    }

    /// The format whose signature `prefix` carries, if any.
    static func match(_ prefix: [UInt8], in source: some ByteSource) -> Match? {
        for index in prefix.first.map({ byFirstByte[Int($0)] }) ?? [] {
            let offset = table[index].offset, count = table[index].bytes.count
            guard prefix.count >= offset + count, prefix[offset..<(offset + count)].elementsEqual(table[index].bytes) else { continue }
            let entry = table[index]
            switch entry.check {
            case .elf: return elf(prefix, source)
            case .id3: return afterID3(prefix, source)
            case .jpeg where prefix.count > 3 && prefix[3] == 0xF7:
                return Match(mimeType: "image/jls", detail: "JPEG-LS start-of-frame marker (SOF55)")
            case .parquet:
                // A Parquet file ends with its footer's length and the magic again.
                guard source.count >= 12, (try? source.bytes(at: source.count - 4, length: 4)) == entry.bytes else { continue }
            case .arrow:
                // The file ends with the footer's length and the magic again (without the padding).
                guard source.count >= 14, (try? source.bytes(at: source.count - 6, length: 6))?.elementsEqual("ARROW1".utf8) == true else { continue }
            case .java: return javaOrMachO(prefix)
            case .png where isAnimatedPNG(prefix):
                return Match(mimeType: "image/apng", detail: "PNG signature, acTL chunk before the image data")
            default: break
            }
            if let identifier = entry.identifier {
                guard let detail = entry.confirm?(prefix) else { continue }
                return Match(mimeType: nil, detail: detail, identifier: identifier)
            }
            return Match(mimeType: entry.mimeType, detail: entry.name)
        }
        return riffOrBoxed(prefix) ?? terminfo(prefix) ?? pythonBytecode(prefix) ?? timeZoneInformation(prefix) ?? xcursor(prefix)
            ?? mpegAudioLayerI(prefix, at: 0) ?? webArchive(prefix) ?? marc21(prefix, source) ?? macBinary(prefix, source)
            ?? appleDiskImage(prefix, source)
    }

    /// A MacBinary file (a Mac file's forks for other systems): a 128-byte header, then the data fork and the
    /// resource fork, each padded to 128 bytes. Every version's header has zeros at 0, 74 and 82, a name of 1 to
    /// 63 bytes at 1, and the forks' lengths at 83 and 87 (big-endian, below 8 MiB); MacBinary II adds the
    /// CRC-16 of the first 124 bytes at 124 (CRC-CCITT, XMODEM's), MacBinary III `mBIN` at 102. MacBinary I
    /// has no CRC: its bytes 99 to 125 are zero (where II's fields are), and its header is evidence, not proof,
    /// which the name `.bin` may confirm. (`.bin` also names a firmware image, a disc image, a V8 snapshot: their
    /// bytes have no such header, and the name then says nothing.)
    private static func macBinary(_ prefix: [UInt8], _ source: some ByteSource) -> Match? {
        guard prefix.count >= 128, prefix[0] == 0, prefix[74] == 0, prefix[82] == 0, (1...63).contains(prefix[1]),
              let data = prefix.bigEndian32(at: 83), let resource = prefix.bigEndian32(at: 87),
              data < 0x80_0000, resource < 0x80_0000, 128 + data + resource <= source.count,
              !prefix[2..<(2 + Int(prefix[1]))].contains(0) else { return nil }
        var crc: UInt16 = 0
        for byte in prefix[0..<124] {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1 }
        }
        let version: String
        if crc == UInt16(prefix[124]) << 8 | UInt16(prefix[125]) {
            version = prefix[102..<106].elementsEqual("mBIN".utf8) ? "III" : "II"
        } else {
            guard prefix[99..<126].allSatisfy({ $0 == 0 }) else { return nil }
            version = "I"
        }
        let name = String(decoding: prefix[2..<(2 + Int(prefix[1]))], as: UTF8.self)
        return Match(mimeType: "application/x-macbinary", detail: "MacBinary \(version) header, \(name)", conclusive: version != "I")
    }

    /// A WARC file (ISO 28500): its first record's version line, `WARC/`, the version (`1.0`, `1.1`; `0.17`
    /// and `0.18` for the drafts before it) and the line's end. The header lines after it are text, the
    /// payloads anything: only the version line proves the format.
    private static func webArchive(_ prefix: [UInt8]) -> Match? {
        guard prefix.starts(with: Array("WARC/".utf8)) else { return nil }
        let version = prefix.dropFirst(5).prefix(8)
        let digits = { (part: ArraySlice<UInt8>) in !part.isEmpty && part.count <= 2 && part.allSatisfy { (0x30...0x39).contains($0) } }
        guard let end = version.firstIndex(where: { $0 == 0x0D || $0 == 0x0A }),
              let dot = version[..<end].firstIndex(of: UInt8(ascii: ".")),
              digits(version[version.startIndex..<dot]), digits(version[(dot + 1)..<end]) else { return nil }
        return Match(mimeType: "application/warc", detail: "WARC/\(String(decoding: version[..<end], as: UTF8.self)) record")
    }

    /// MARC 21 records (ISO 2709, as the Library of Congress specifies MARC 21): each starts with a 24-byte
    /// leader: the record's length (five digits), its status, type and level, the character coding (blank
    /// or `a`), the indicator and subfield-code counts `22`, the base address of the data (five digits),
    /// three implementation bytes, and the entry map `4500`. The directory after it is 12-digit entries
    /// ending with a field terminator (1E) just before the base address, and the record ends with 1D.
    private static func marc21(_ prefix: [UInt8], _ source: some ByteSource) -> Match? {
        guard prefix.count >= 24 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in prefix[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let length = number(0..<5), let base = number(12..<17),
              prefix[10] == UInt8(ascii: "2"), prefix[11] == UInt8(ascii: "2"), prefix[20..<24].elementsEqual("4500".utf8),
              prefix[9] == UInt8(ascii: " ") || prefix[9] == UInt8(ascii: "a"),
              base >= 24 + 12 + 1, (base - 25) % 12 == 0, length > base, length <= source.count else { return nil }
        // The directory, as far as the head holds it: digits, and its terminator right before the data.
        let directoryEnd = min(base - 1, prefix.count)
        guard prefix[24..<directoryEnd].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        if base - 1 < prefix.count, prefix[base - 1] != 0x1E { return nil }
        if length - 1 < prefix.count, prefix[length - 1] != 0x1D { return nil }
        let kind: String = switch prefix[6] {
        case UInt8(ascii: "z"): "authority"
        case UInt8(ascii: "u"), UInt8(ascii: "v"), UInt8(ascii: "x"), UInt8(ascii: "y"): "holdings"
        case UInt8(ascii: "q"): "community information"
        case UInt8(ascii: "w"): "classification"
        default: "bibliographic"
        }
        return Match(mimeType: "application/marc", detail: "MARC 21 \(kind) record, \(length) bytes")
    }

    /// A compiled terminfo entry (term(5)): the magic (0432 octal, `1A 01`; 01036 for the extended-number
    /// format, `1E 02`), five more little-endian shorts (the size of the names, the counts of booleans,
    /// numbers and strings, the size of the string table), then the names: printable ASCII ending in a NUL,
    /// the first name starting with a letter or a digit. A terminal database holds thousands of them, which
    /// libmagic would otherwise be asked about one by one (and which it sometimes calls a disk image).
    private static func terminfo(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 14, (prefix[0] == 0x1A && prefix[1] == 0x01) || (prefix[0] == 0x1E && prefix[1] == 0x02) else { return nil }
        let shorts = (1..<6).map { Int(prefix[$0 * 2]) | Int(prefix[$0 * 2 + 1]) << 8 }
        let namesSize = shorts[0]
        // Counts above ncurses' own limits (names 4096 bytes at most, 44 booleans, 39 numbers, 414 strings
        // in the standard set plus extensions, a string table under 32 KiB) are not a terminfo entry.
        guard namesSize >= 2, namesSize <= 4096, shorts[1] <= 1024, shorts[2] <= 1024, shorts[3] <= 4096, shorts[4] < 0x8000,
              prefix.count >= 12 + namesSize, prefix[12 + namesSize - 1] == 0 else { return nil }
        let names = prefix[12..<(12 + namesSize - 1)]
        guard let first = names.first, (0x30...0x39).contains(first) || (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first),
              names.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        let name = String(decoding: names.prefix { $0 != UInt8(ascii: "|") }, as: UTF8.self)
        return prefix[0] == 0x1A
            ? Match(mimeType: "application/x-terminfo", detail: "compiled terminfo entry \"\(name)\"")
            : Match(mimeType: "application/x-terminfo2", detail: "compiled terminfo entry \"\(name)\", extended numbers")
    }

    /// Time zone information (RFC 8536, TZif: what `/usr/share/zoneinfo` holds, which libmagic would
    /// otherwise be asked about one by one): `TZif`, the version (NUL, `2`, `3` or `4`), fifteen reserved
    /// bytes, then six big-endian counts: UT/local indicators, standard/wall indicators, leap-second records,
    /// transition times, local time types and designation characters, where at least one type and one
    /// character are declared and each indicator count is 0 or the number of types. Data with leap-second
    /// records is `application/tzif-leap`; from version 2 on, the second header (after the version 1 data)
    /// says, when the head holds it.
    private static func timeZoneInformation(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 44, prefix.starts(with: Array("TZif".utf8)), [0x00, 0x32, 0x33, 0x34].contains(prefix[4]) else { return nil }
        func counts(at offset: Int) -> (indicators: Int, leaps: Int, times: Int, types: Int, characters: Int)? {
            guard let universal = prefix.bigEndian32(at: offset + 20), let standard = prefix.bigEndian32(at: offset + 24),
                  let leaps = prefix.bigEndian32(at: offset + 28), let times = prefix.bigEndian32(at: offset + 32),
                  let types = prefix.bigEndian32(at: offset + 36), let characters = prefix.bigEndian32(at: offset + 40),
                  types >= 1, characters >= 1, universal == 0 || universal == types, standard == 0 || standard == types else { return nil }
            return (universal + standard, leaps, times, types, characters)
        }
        guard let first = counts(at: 0) else { return nil }
        let version = prefix[4] == 0 ? 1 : Int(prefix[4] - 0x30)
        var leaps = first.leaps
        if version >= 2 {
            // The version 1 data: transition times (4 bytes) and their type indices (1), types (6), the
            // designations, leap-second records (8), then the indicators.
            let second = 44 + first.times * 5 + first.types * 6 + first.characters + first.leaps * 8 + first.indicators
            if prefix.count >= second + 44, prefix[second..<(second + 4)].elementsEqual("TZif".utf8), let counts = counts(at: second) {
                leaps = counts.leaps
            }
        }
        return leaps > 0
            ? Match(mimeType: "application/tzif-leap", detail: "TZif version \(version) time zone information, \(leaps) leap-second records")
            : Match(mimeType: "application/tzif", detail: "TZif version \(version) time zone information")
    }

    /// An X cursor (libXcursor's file format: what a cursor theme's `cursors/` directory holds, which libmagic
    /// would otherwise be asked about one by one, twice: it has no MIME type for them, only a description):
    /// `Xcur`, the header's size (16) and the file's version (1.0) as little-endian words, the number of
    /// entries in its table of contents (1 to 0x10000, libXcursor's own limit), then the table, each entry a
    /// chunk's type, subtype and position, the first of them a comment (`FFFE0001`) or an image (`FFFD0002`)
    /// whose position lies past the table.
    private static func xcursor(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 28, prefix.starts(with: Array("Xcur".utf8)), prefix.littleEndian32(at: 4) == 16,
              prefix.littleEndian32(at: 8) == 0x1_0000, let entries = prefix.littleEndian32(at: 12), (1...0x1_0000).contains(entries),
              let type = prefix.littleEndian32(at: 16), type == 0xFFFE_0001 || type == 0xFFFD_0002,
              let position = prefix.littleEndian32(at: 24), position >= 16 + entries * 12 else { return nil }
        let images = (0..<entries).prefix { 16 + $0 * 12 + 4 <= prefix.count }.filter { prefix.littleEndian32(at: 16 + $0 * 12) == 0xFFFD_0002 }.count
        return Match(mimeType: "image/x-xcursor", detail: "X cursor, \(images == 1 ? "1 image" : "\(images) images")")
    }

    /// Python bytecode (a `.pyc` file): a two-byte little-endian magic number for the version, then `\r\n`.
    /// Python 3.7 (magic 3390) and later follow it with a 32-bit flags word whose only bits are 1 (hash-based)
    /// and 2 (checked); earlier files are known by their release's magic alone: each release from 1.5 to 3.6
    /// (none of them two printable ASCII bytes; development magics in between are not taken, since other
    /// formats' headers meet them: a pcapng file starts `0A 0D 0D 0A`, 3.5 alpha's 3338).
    private static func pythonBytecode(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 16, prefix[2] == 0x0D, prefix[3] == 0x0A else { return nil }
        let magic = Int(prefix[0]) | Int(prefix[1]) << 8
        let releases: Set = [20121, 50428, 50823, 60202, 60717, 62011, 62021, 62061, 62131, 62161, 62211,  // 1.5 to 2.7
                             3131, 3151, 3180, 3230, 3310, 3350, 3351, 3379]  // 3.0 to 3.6
        if (3390...3999).contains(magic) {
            guard let flags = prefix.littleEndian32(at: 4), flags & ~3 == 0 else { return nil }
        } else {
            guard releases.contains(magic) else { return nil }
        }
        return Match(mimeType: "application/x-bytecode.python", detail: "Python bytecode, magic \(magic)")
    }

    /// An MPEG-1 Audio Layer I stream at `offset`: three frame headers in a row, each where the previous
    /// frame's length (from its bit rate, sampling rate and padding) says. Layer I is MPEG audio
    /// (`audio/mpeg`), and not MP3.
    private static func mpegAudioLayerI(_ prefix: [UInt8], at offset: Int) -> Match? {
        guard let length = layerIFrameLength(prefix, at: offset), let second = layerIFrameLength(prefix, at: offset + length),
              layerIFrameLength(prefix, at: offset + length + second) != nil else { return nil }
        return Match(mimeType: "audio/mpeg", detail: "MPEG-1 Layer I frames of \(length) bytes", identifier: "uti.mp1-audio")
    }

    /// The length of the MPEG-1 Layer I frame whose header is at `offset`, if one is.
    private static func layerIFrameLength(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, bytes.count >= offset + 4, bytes[offset] == 0xFF,
              bytes[offset + 1] & 0xFE == 0xFE else { return nil }   // sync, MPEG-1 (11), Layer I (11)
        let bitRateIndex = Int(bytes[offset + 2] >> 4), rateIndex = Int(bytes[offset + 2] >> 2 & 0x3)
        guard (1...14).contains(bitRateIndex), rateIndex < 3, bytes[offset + 3] & 0x3 != 2 else { return nil }   // emphasis 10 is reserved
        let bitRate = bitRateIndex * 32_000, sampleRate = [44_100, 48_000, 32_000][rateIndex]
        let padding = Int(bytes[offset + 2] >> 1 & 1)
        return (12 * bitRate / sampleRate + padding) * 4
    }

    /// What follows an ID3v2 tag (its size is syncsafe: seven bits a byte; a footer adds ten bytes): a FLAC
    /// stream or AAC in ADTS frames are tagged as MP3 is, and are not MP3.
    private static func afterID3(_ prefix: [UInt8], _ source: some ByteSource) -> Match {
        let mp3 = Match(mimeType: "audio/mpeg", detail: "ID3 tag")
        guard prefix.count >= 10, prefix[6..<10].allSatisfy({ $0 < 0x80 }) else { return mp3 }
        let size = prefix[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let end = 10 + size + (prefix[5] & 0x10 != 0 ? 10 : 0)
        guard let next = try? source.bytes(at: end, length: 4), next.count == 4 else { return mp3 }
        if let layerI = try? source.bytes(at: end, length: 2048), let match = mpegAudioLayerI(layerI, at: 0) {
            return Match(mimeType: match.mimeType, detail: "\(match.detail) after an ID3v2 tag of \(size) bytes", identifier: match.identifier)
        }
        if next.elementsEqual("fLaC".utf8) {
            return Match(mimeType: "audio/flac", detail: "FLAC stream marker after an ID3v2 tag of \(size) bytes")
        }
        // ADTS: twelve sync bits, then the MPEG version bit, the layer (always 00) and the protection bit.
        if next[0] == 0xFF, next[1] & 0xF6 == 0xF0 {
            return Match(mimeType: "audio/aac", detail: "AAC ADTS frame after an ID3v2 tag of \(size) bytes")
        }
        return mp3
    }

    /// An Apple UDIF disk image: the `koly` trailer fills the last 512 bytes (its signature first, then
    /// version 4 and the trailer's own size, 512, big-endian). Only binary content is asked (a read at the
    /// end of the file): an image starts with a compressed block or a disk's own bytes, never with text.
    private static func appleDiskImage(_ prefix: [UInt8], _ source: some ByteSource) -> Match? {
        // Only binary-looking bytes are worth the read at the end: a NUL anywhere in the prefix (memchr, for text
        // a pass at memory speed), or another control character in its first 512 bytes.
        let hasNUL = prefix.withUnsafeBytes { $0.baseAddress.map { memchr($0, 0, prefix.count) != nil } ?? false }
        guard source.count >= 512,
              hasNUL || prefix.prefix(512).contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x0C && $0 != 0x1B }),
              // A file the prefix holds whole has its trailer there: no read.
              let trailer = source.count <= prefix.count ? Array(prefix[(source.count - 512)..<(source.count - 500)])
                : try? source.bytes(at: source.count - 512, length: 12), trailer.count == 12,
              trailer[0..<4].elementsEqual("koly".utf8), trailer.bigEndian32(at: 4) == 4, trailer.bigEndian32(at: 8) == 512 else { return nil }
        return Match(mimeType: "application/x-apple-diskimage", detail: "UDIF koly trailer")
    }

    /// Whether a PNG stream is animated: an `acTL` chunk comes before the first `IDAT`, as the APNG
    /// specification requires; chunks are walked by their lengths as far as the prefix reaches.
    private static func isAnimatedPNG(_ prefix: [UInt8]) -> Bool {
        var offset = 8
        while offset + 8 <= prefix.count {
            guard let length = prefix.bigEndian32(at: offset) else { return false }
            let type = prefix[(offset + 4)..<(offset + 8)]
            if type.elementsEqual("acTL".utf8) { return true }
            if type.elementsEqual("IDAT".utf8) { return false }
            offset += 12 + length  // length, type, data, CRC
        }
        return false
    }

    /// ELF files by `e_type`. A shared object is a position-independent executable when it asks for a
    /// program interpreter (a `PT_INTERP` program header), a library otherwise; libmagic cannot tell
    /// them apart from a buffer.
    private static func elf(_ prefix: [UInt8], _ source: some ByteSource) -> Match? {
        guard prefix.count >= 18 else { return nil }
        // e_type: 1 relocatable, 2 executable, 3 shared object (or PIE), 4 core.
        let littleEndian = prefix[5] == 1
        let type = prefix.unsignedInteger(at: 16, size: 2, bigEndian: !littleEndian) ?? 0
        switch type {
        case 1: return Match(mimeType: "application/x-object", detail: "ELF relocatable object")
        case 2: return Match(mimeType: "application/x-executable", detail: "ELF executable")
        case 3 where isPositionIndependentExecutable(prefix, source, littleEndian: littleEndian):
            // shared-mime-info 2.4 calls these programs what they are, executables (2.2 had x-pie-executable).
            return Match(mimeType: "application/x-executable", detail: "ELF position-independent executable (DF_1_PIE)")
        case 3: return Match(mimeType: "application/x-sharedlib", detail: "ELF shared object")
        case 4: return Match(mimeType: "application/x-core", detail: "ELF core dump")
        default: return nil
        }
    }

    /// Whether a shared object's dynamic section carries `DF_1_PIE` in `DT_FLAGS_1`, as libmagic
    /// decides it from a file (it cannot from a buffer).
    private static func isPositionIndependentExecutable(_ prefix: [UInt8], _ source: some ByteSource, littleEndian: Bool) -> Bool {
        func read(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int? {
            bytes.unsignedInteger(at: offset, size: size, bigEndian: !littleEndian)
        }
        let is64 = prefix[4] == 2
        let word = is64 ? 8 : 4
        guard let headerOffset = read(prefix, is64 ? 32 : 28, word),
              let entrySize = read(prefix, is64 ? 54 : 42, 2), let count = read(prefix, is64 ? 56 : 44, 2),
              entrySize >= (is64 ? 56 : 32), count <= 256,
              let headers = try? source.bytes(at: headerOffset, length: entrySize * count) else { return false }
        for index in 0..<count where read(headers, index * entrySize, 4) == 2 {  // PT_DYNAMIC
            let base = index * entrySize
            guard let offset = read(headers, base + (is64 ? 8 : 4), word),
                  let size = read(headers, base + (is64 ? 32 : 16), word),
                  let dynamic = try? source.bytes(at: offset, length: min(size, 64 * 1024)) else { return false }
            var cursor = 0
            while cursor + 2 * word <= dynamic.count {
                guard let tag = read(dynamic, cursor, word), tag != 0 else { break }  // DT_NULL ends it
                if tag == 0x6FFF_FFFB, let flags = read(dynamic, cursor + word, word) {  // DT_FLAGS_1
                    return flags & 0x0800_0000 != 0  // DF_1_PIE
                }
                cursor += 2 * word
            }
            return false
        }
        return false
    }

    /// 0xCAFEBABE starts both Java class files and universal Mach-O binaries: a class file's next
    /// word is its version (major 45 and up), a universal binary's the number of architectures.
    private static func javaOrMachO(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 8 else { return nil }
        let next = prefix.bigEndian32(at: 4) ?? 0
        if next > 0 && next < 45 {
            return Match(mimeType: "application/x-mach-binary", detail: "universal Mach-O binary, \(next) architectures")
        }
        return Match(mimeType: "application/x-java", detail: "Java class file")
    }

    /// RIFF and ISO base-media files, told apart by the form type or the major brand.
    private static func riffOrBoxed(_ prefix: [UInt8]) -> Match? {
        guard prefix.count >= 12 else { return nil }
        let fourCC = String(decoding: prefix[8..<12], as: UTF8.self)
        if prefix.starts(with: Array("RIFF".utf8)) {
            switch fourCC {
            case "WAVE": return Match(mimeType: "audio/x-wav", detail: "RIFF WAVE")
            case "AVI ": return Match(mimeType: "video/x-msvideo", detail: "RIFF AVI")
            case "WEBP": return Match(mimeType: "image/webp", detail: "RIFF WEBP")
            case "QLCM": return Match(mimeType: "audio/qcelp", detail: "RIFF QLCM (QCP)")
            default: return nil
            }
        }
        guard prefix[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let brands: [String: String] = [
            "heic": "image/heic", "heix": "image/heic", "mif1": "image/heif", "msf1": "image/heif-sequence",
            "hevc": "image/heic-sequence", "avif": "image/avif", "avis": "image/avif",
            "M4A ": "audio/mp4", "M4B ": "audio/x-m4b", "M4V ": "video/x-m4v", "qt  ": "video/quicktime",
            "3gp4": "video/3gpp", "3gp5": "video/3gpp", "3gp6": "video/3gpp", "3g2a": "video/3gpp2",
            "isom": "video/mp4", "iso2": "video/mp4", "mp41": "video/mp4", "mp42": "video/mp4", "avc1": "video/mp4",
            "dash": "video/mp4", "crx ": "image/x-canon-cr3", "jp2 ": "image/jp2", "f4v ": "video/mp4",
        ]
        guard let mime = brands[fourCC] else { return nil }
        return Match(mimeType: mime, detail: "ISO base media, major brand '\(fourCC)'")
    }
}
