import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// One name per format: `mimeType` is the IANA-registered name when the format has one,
/// else freedesktop's, then Tika's, then libmagic's; `mimeTypes` keeps every name.
@Suite("Reported MIME type: IANA's name first, then freedesktop's, Tika's, libmagic's, Magika's")
struct MediaTypeNamesTests {
    let identifier = FileIdentifier()

    @Test("each vocabulary's names rank in the documented order", arguments: [
        ("font/collection", 0), ("audio/flac", 0), ("image/jls", 0), ("application/vnd.apache.parquet", 0),
        ("application/x-tar", 1), ("audio/x-flac", 2), ("image/x-canon-cr2", 1),
        ("audio/x-hx-aac-adts", 5), ("text/zig", 6), ("application/x-no-vocabulary-has-this", 7),
    ])
    func ranks(name: String, rank: Int) {
        #expect(MediaTypeNames.rank(name) == rank, "\(name): \(MediaTypeNames.vocabularies(of: name))")
    }

    @Test("deprecated IANA names are not preferred; names are looked up in any case")
    func deprecatedAndCase() {
        #expect(!MediaTypeNames.vocabularies(of: "application/font-woff").contains(.iana))
        #expect(MediaTypeNames.vocabularies(of: "font/woff").contains(.iana))
        #expect(MediaTypeNames.rank("Audio/FLAC") == 0)
        #expect(MediaTypeNames.canonical("audio/x-flac") == "audio/flac", "an alias goes by its type")
    }

    @Test("FLAC is audio/flac (RFC 9639), and both names stay in mimeTypes")
    func flac() throws {
        let stream: [UInt8] = Array("fLaC".utf8) + [0x80, 0, 0, 0x22] + [UInt8](repeating: 0, count: 34)
        for name in [nil, "song.flac", "song.FLAC"] {
            let found = try identifier.identify(data: stream, filename: name)
            #expect(found.mimeType == "audio/flac", "\(String(describing: name))")
            #expect(Set(found.type.tags[.mimeType] ?? []).isSuperset(of: ["audio/flac", "audio/x-flac"]))
        }
    }

    @Test("AAC in ADTS frames is audio/aac, and libmagic's and Tika's names are among its names")
    func aac() throws {
        let adts: [UInt8] = Array(repeating: [0xFF, 0xF1, 0x50, 0x80, 0x00, 0xFF, 0xFC], count: 8).flatMap { $0 }
        let found = try identifier.identify(data: FormatSniffingTests.id3(size: 10) + adts)
        #expect(found.mimeType == "audio/aac")
        #expect(Set(found.type.tags[.mimeType] ?? []).isSuperset(of: ["audio/aac", "audio/x-aac", "audio/x-hx-aac-adts"]))
    }

    @Test("a format no IANA name covers reports freedesktop's name")
    func freedesktopWhenNoIANA() throws {
        var tar = [UInt8](repeating: 0, count: 1024)
        tar.replaceSubrange(0..<5, with: Array("a.txt".utf8))
        tar.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        #expect(try identifier.identify(data: tar, filename: "a.tar").mimeType == "application/x-tar")
    }

    @Test("a name that points to one format of a type keeps that format's name")
    func formatOfTheName() throws {
        // The OpenOffice spreadsheet type also covers StarOffice's .sdc; the name says which. (An OLE2 compound
        // file's header: a StarOffice document is one, and bytes without it would rule the name out.)
        let header: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]
        let sdc = try identifier.identify(data: header + [UInt8](repeating: 0, count: 504), filename: "sheet.sdc")
        #expect(sdc.type.tags[.mimeType]?.contains("application/vnd.sun.xml.calc") == true, "the type covers .sxc too: \(sdc.type.identifier)")
        #expect(sdc.mimeType == "application/vnd.stardivision.calc", "\(sdc.type.identifier)")
        let preferred = MediaTypeNames.preferred(among: ["application/vnd.sun.xml.calc", "application/vnd.stardivision.calc"],
                                                 format: "application/vnd.stardivision.calc")
        #expect(preferred == "application/vnd.stardivision.calc")
        #expect(MediaTypeNames.preferred(among: ["audio/x-flac", "audio/flac"], format: "audio/x-flac") == "audio/flac")
        #expect(MediaTypeNames.preferred(among: [], format: nil) == nil)
    }
}

/// `FileIdentifier.Options.mimeNames`: the same type, reported in the names another tool uses.
@Suite("Reported MIME type in another tool's names")
struct MIMENamesTests {
    static func identifier(_ names: MIMENames, nameOnly: Bool = false) -> FileIdentifier {
        FileIdentifier(options: .init(nameOnly: nameOnly, mimeNames: names))
    }

    static let batch = Array("@echo off\r\necho hello\r\n".utf8)
    static let javaClass: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34, 0x00, 0x10, 0x0A, 0x00, 0x03, 0x00, 0x0D, 0x07]
    static let rust = Array("fn main() {\n    println!(\"hello\");\n}\n".utf8)

    @Test("each vocabulary's name for the same type", arguments: [
        // (bytes, file name, vocabulary, expected name)
        (batch, "run.bat", MIMENames.standard, "application/x-bat"),
        (batch, "run.bat", .libmagic, "text/x-msdos-batch"),
        (batch, "run.bat", .magika, "text/x-msdos-batch"),
        (javaClass, "A.class", .standard, "application/x-java"),
        (javaClass, "A.class", .libmagic, "application/x-java-applet"),
        (javaClass, "A.class", .tika, "application/java-vm"),
        (rust, "main.rs", .standard, "text/rust"),
        (rust, "main.rs", .magika, "application/x-rust"),
        ([], "empty", .standard, "application/x-zerosize"),
        ([], "empty", .magika, "inode/x-empty"),
    ])
    func names(bytes: [UInt8], filename: String, vocabulary: MIMENames, expected: String) throws {
        let standard = try Self.identifier(.standard).identify(data: bytes, filename: filename)
        let found = try Self.identifier(vocabulary).identify(data: bytes, filename: filename)
        #expect(found.mimeType == expected, "\(filename) in \(vocabulary)'s names")
        #expect(found.type == standard.type, "only the name changes, never the type")
    }

    @Test("freedesktop names an alias's type: KWord is application/x-kword, not IANA's vnd.kde.kword")
    func freedesktop() throws {
        #expect(try Self.identifier(.standard, nameOnly: true).identify(fileAt: "letter.kwd").mimeType == "application/vnd.kde.kword")
        #expect(try Self.identifier(.freedesktop, nameOnly: true).identify(fileAt: "letter.kwd").mimeType == "application/x-kword")
    }

    @Test("a coarse vocabulary names the nearest supertype it knows; a rich one keeps the standard name")
    func coarseVocabularies() throws {
        // An Ogg Vorbis file: libmagic and Magika say audio/ogg; freedesktop has Vorbis's own name.
        let vorbis = try #require(UTType(mimeType: "audio/x-vorbis+ogg"))
        #expect(MediaTypeNames.name(of: vorbis, in: .libmagic, format: nil) == "audio/ogg")
        #expect(MediaTypeNames.name(of: vorbis, in: .magika, format: nil) == "audio/ogg")
        #expect(MediaTypeNames.name(of: vorbis, in: .freedesktop, format: nil) == "audio/x-vorbis+ogg")
        // Nothing but text/plain above a language Magika does not know: the standard name stays.
        let sas = try #require(UTType(filenameExtension: "sas"))
        #expect(MediaTypeNames.name(of: sas, in: .magika, format: nil) == nil)
        #expect(MediaTypeNames.name(of: vorbis, in: .standard, format: nil) == nil)
    }

    @Test("Magika names an armoured OpenPGP key as its pem and the packets as its pgp; the type is the same")
    func magikaTextForm() throws {
        let key = Array("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmFIEWhdc7RMIKoZIzj0DAQcCAwTCrR7Da5QHqFi/CtJJ6egFb48zR9bn48epqb92\n-----END PGP PUBLIC KEY BLOCK-----\n".utf8)
        let standard = try Self.identifier(.standard).identify(data: key, filename: "key.asc")
        let magika = try Self.identifier(.magika).identify(data: key, filename: "key.asc")
        #expect(standard.mimeType == "application/pgp-keys")
        #expect(magika.mimeType == "application/x-pem-file")
        #expect(magika.type == standard.type)
        // The format's own name in Magika's vocabulary is the binary form's.
        let pgp = try #require(UTType(mimeType: "application/pgp-keys"))
        #expect(MediaTypeNames.name(of: pgp, in: .magika, format: nil) == "application/pgp-keys")
    }
}
