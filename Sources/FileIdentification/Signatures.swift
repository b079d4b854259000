/// Built-in signatures of common binary formats: cheaper than libmagic, and conclusive.
///
/// Only signatures that cannot be mistaken are listed: a few fixed bytes at a fixed offset that no
/// text and no other common format starts with. Everything else goes to libmagic.
enum Signatures {
    /// A signature found: the MIME type it names (shared-mime-info's name) and what was seen.
    struct Match {
        var mimeType: String
        var detail: String
    }

    /// The verdict of the signature `prefix` carries, if any.
    static func verdict(_ prefix: [UInt8], in source: some ByteSource) -> Verdict? {
        match(prefix, in: source).flatMap { Verdict(mimeType: $0.mimeType, detail: $0.detail) }
    }

    private struct Entry {
        var offset: Int
        var bytes: [UInt8]
        var mimeType: String
        var name: String

        init(_ offset: Int, _ bytes: [UInt8], _ mimeType: String, _ name: String) {
            self.offset = offset
            self.bytes = bytes
            self.mimeType = mimeType
            self.name = name
        }

        init(_ offset: Int, _ text: String, _ mimeType: String, _ name: String) {
            self.init(offset, Array(text.utf8), mimeType, name)
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
    ]

    /// The format whose signature `prefix` carries, if any.
    static func match(_ prefix: [UInt8], in source: some ByteSource) -> Match? {
        for entry in table where prefix.count >= entry.offset + entry.bytes.count {
            if prefix[entry.offset..<(entry.offset + entry.bytes.count)].elementsEqual(entry.bytes) {
                if entry.mimeType == "application/x-elf" { return elf(prefix, source) }
                if entry.name == "ID3 tag" { return afterID3(prefix, source) }
                if entry.mimeType == "image/jpeg", prefix.count > 3, prefix[3] == 0xF7 {
                    return Match(mimeType: "image/jls", detail: "JPEG-LS start-of-frame marker (SOF55)")
                }
                if entry.mimeType == "application/vnd.apache.parquet" {
                    // A Parquet file ends with its footer's length and the magic again.
                    guard source.count >= 12, (try? source.bytes(at: source.count - 4, length: 4)) == entry.bytes else { continue }
                }
                if entry.mimeType == "application/x-java" { return javaOrMachO(prefix) }
                if entry.mimeType == "image/png", isAnimatedPNG(prefix) {
                    return Match(mimeType: "image/apng", detail: "PNG signature, acTL chunk before the image data")
                }
                return Match(mimeType: entry.mimeType, detail: entry.name)
            }
        }
        return riffOrBoxed(prefix) ?? appleDiskImage(source)
    }

    /// What follows an ID3v2 tag (its size is syncsafe: seven bits a byte; a footer adds ten bytes): a FLAC
    /// stream or AAC in ADTS frames are tagged as MP3 is, and are not MP3.
    private static func afterID3(_ prefix: [UInt8], _ source: some ByteSource) -> Match {
        let mp3 = Match(mimeType: "audio/mpeg", detail: "ID3 tag")
        guard prefix.count >= 10, prefix[6..<10].allSatisfy({ $0 < 0x80 }) else { return mp3 }
        let size = prefix[6..<10].reduce(0) { $0 << 7 | Int($1) }
        let end = 10 + size + (prefix[5] & 0x10 != 0 ? 10 : 0)
        guard let next = try? source.bytes(at: end, length: 4), next.count == 4 else { return mp3 }
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
    /// version 4 and the trailer's own size, 512, big-endian).
    private static func appleDiskImage(_ source: some ByteSource) -> Match? {
        guard source.count >= 512, let trailer = try? source.bytes(at: source.count - 512, length: 12), trailer.count == 12,
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
