import Foundation
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// What uti once said of files on real trees that no peer said, each row's bytes made here: a
/// file's kind bounds its type, and content bounds the name.
@Suite("Real trees: the kind bounds the type, the content bounds the name")
struct RealTreeTests {
    let identifier = FileIdentifier()

    private func identify(_ bytes: [UInt8], _ name: String) throws -> Identification {
        try identifier.identify(data: bytes, filename: name)
    }

    private func identify(_ text: String, _ name: String) throws -> Identification {
        try identify(Array(text.utf8), name)
    }

    @Test("text named for a directory type (a package) is text: Pages templates, Keynote documents, installer packages",
          arguments: [
            ("Makevars.template", "PKG_LIBS = -lm\nCXX_STD = CXX11\n"),
            ("app.yaml.template", "runtime: python\nenv: flex\n"),
            ("normal.dist", "0.0\t0.3989\n0.1\t0.3970\n0.2\t0.3910\n"),
            ("cacert.key", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"),
          ])
    func packagesNeverNameRegularFiles(name: String, text: String) throws {
        let found = try identify(text, name)
        #expect(!found.type.conforms(to: .directory), "\(name): \(found.type.identifier)")
        // Text, or a format with a text form the bytes show (a PEM private key is PKCS #8).
        #expect(found.type.conforms(to: .text) || (FormatFacts.canBeText(found.type) && found.evidence.content?.isConclusive == true),
                "\(name): \(found.type.identifier)")
        #expect(found.mimeType != "inode/directory")
        // The name was set aside, and the evidence says why; but a name whose first sense is a package says
        // nothing sure of a regular file's bytes: no lie.
        #expect(found.evidence.nameOverruled != nil, "the evidence says why the name was set aside")
        #expect(!found.isMismatch, "\(name): a package's extension on a regular file is no lie")
        #expect(found.evidence.name?.candidates.isEmpty == false, "the name's evidence is kept as it was")
    }

    @Test("a regular file named .key takes the flat Keynote format when its bytes are Keynote's (a ZIP), never the package")
    func flatFormsForFiles() throws {
        // The single-file format is a ZIP; the smallest: an empty archive's end record.
        let emptyZip: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        let found = try identify(emptyZip, "talk.key")
        #expect(found.type == UTType("com.apple.iWork.Keynote.sffkey"), "\(found.type.identifier)")
        #expect(!found.isMismatch)
    }

    @Test("a directory named .key is the Keynote package")
    func directoriesKeepPackages() throws {
        let directory = try TemporaryDirectory()
        let package = try directory.makeDirectory("talk.key")
        let found = try identifier.identify(fileAt: package)
        #expect(found.type.conforms(to: .package), "\(found.type.identifier)")
        #expect(found.mimeType == "inode/directory")
    }

    @Test("text under an extension a text format claims in another source (Jetty's .mod, Tcl's .msg) is text, not the binary format the database names, and no lie",
          arguments: [
            ("threadpool.mod", "# DO NOT EDIT - See: https://www.eclipse.org/jetty/documentation/current/startup-modules.html\n[description]\nEnables the Server thread pool.\n"),
            ("it.msg", "namespace eval ::tk {\n    ::msgcat::mcset it \"&Abort\" \"&Interrompi\"\n}\n"),
          ])
    func sharedExtensionsDoNotMakeTextBinary(name: String, text: String) throws {
        let found = try identify(text, name)
        #expect(found.type == .plainText, "\(name): \(found.type.identifier)")
        #expect(found.mimeType == "text/plain")
        #expect(!found.isMismatch && found.evidence.rule == .contentOverrulesName, "\(found.evidence.nameOverruled ?? "-")")
    }

    @Test("binary bytes under an extension only libmagic's lists give a format, which they do not meet, are data")
    func libmagicsExtensionListsAreNoClaims() throws {
        // Java's tzdb.dat: a version byte, "TZDB", then binary tables; no Inno Setup signature.
        let tzdb: [UInt8] = [0x01] + Array("TZDB".utf8) + [0x00, 0x05] + Array("2024a".utf8) + [0x00, 0x00, 0x02, 0x58, 0x00, 0x0E, 0xFF, 0x80, 0x00, 0x00]
        let found = try identify(tzdb, "tzdb.dat")
        #expect(found.type == .data, "\(found.type.identifier)")
        #expect(found.mimeType == "application/octet-stream")
        #expect(!found.isMismatch, "an extension only libmagic's lists give a format promises nothing")
        #expect(found.evidence.nameOverruled?.contains("libmagic") == true, "\(found.evidence.nameOverruled ?? "-")")
    }

    @Test("a name that says nothing leaves text plain unless its grammar shows: resemblances are not languages", arguments: [
        // GNU ld scripts and rpcgen files start with comments: TypeScript by shared-mime-info's resemblance rules.
        ("elf_i386.xd", "/* Default linker script, for normal executables */\nOUTPUT_FORMAT(\"elf32-i386\")\nSECTIONS\n{\n}\n"),
        // XKB symbols, and a Java policy file: Ruby and TypeScript by resemblance.
        ("us", "default partial alphanumeric_keys modifier_keys\nxkb_symbols \"basic\" {\n    name[Group1]= \"English (US)\";\n};\n"),
        ("exempt_local.policy", "// Exemption policy\ngrant {\n    permission javax.crypto.CryptoAllPermission;\n};\n"),
        ("pc", "class \"pc\" {\n    description= \"Generic PC\";\n};\n"),
        // gettext's ABOUT-NLS: a `<https://...>` line is no XML element.
        ("ABOUT-NLS", "<https://www.gnu.org/software/gettext/manual/html_node/Users.html>\n\n1 Notes on the Free Translation Project\n"),
        // X11's Compose: Julia's keywords are nowhere in it.
        ("Compose", "# UTF-8 (Unicode) compose sequences\ninclude \"%L\"\n<Multi_key> <a> <acute> : \"\u{e1}\" aacute\n"),
    ])
    func resemblancesAreNotLanguages(name: String, text: String) throws {
        let found = try identify(text, name)
        #expect(found.type == .plainText, "\(name): \(found.type.identifier) by \(found.evidence.content?.detail ?? "-")")
        // The same rules at the priorities shared-mime-info 2.2 gave them (C for `/*` and `//` at 30,
        // Modelica for `class` at 50): a keyword is a resemblance at any priority.
        let older = try Self.olderDatabase()
        let system = FileIdentifier(options: .init(sharedMIMEInfoDirectories: [older.path], usesBuiltInSharedMIMEInfo: false))
        let again = try system.identify(data: Array(text.utf8), filename: name)
        #expect(again.type == .plainText, "\(name): \(again.type.identifier) by \(again.evidence.content?.detail ?? "-")")
    }

    @Test("a signature in capitals, or a keyword with more after it, is still evidence at the older priorities")
    func olderDatabaseSignaturesStillCount() throws {
        let older = try Self.olderDatabase()
        let system = FileIdentifier(options: .init(sharedMIMEInfoDirectories: [older.path], usesBuiltInSharedMIMEInfo: false))
        let vtt = try system.identify(data: Array("WEBVTT\n\n00:01.000 --> 00:04.000\nHello\n".utf8), filename: "captions")
        #expect(vtt.mimeType == "text/vtt", "\(vtt.type.identifier)")
        let c = try system.identify(data: Array("#include <stdio.h>\nint main(void) { return 0; }\n".utf8), filename: "main")
        #expect(c.mimeType == "text/x-csrc", "\(c.type.identifier)")
    }

    /// A system database (`mime/magic` only) holding shared-mime-info 2.2's rules for C, Modelica and
    /// WebVTT, as Debian 12 ships them.
    static func olderDatabase() throws -> TemporaryDirectory {
        func rule(_ value: String) -> [UInt8] {
            let bytes = Array(value.utf8)
            return Array(">0=".utf8) + [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes + [0x0A]
        }
        var magic = Array("MIME-Magic\0\n".utf8)
        magic += Array("[50:text/vtt]\n".utf8) + rule("WEBVTT")
        magic += Array("[50:text/x-modelica]\n".utf8) + rule("class")
        magic += Array("[50:text/x-modelica]\n".utf8) + rule("function")
        magic += Array("[30:text/x-csrc]\n".utf8) + rule("/*") + rule("//") + rule("#include")
        magic += Array("[10:text/x-modelica]\n".utf8) + rule("//")
        let directory = try TemporaryDirectory()
        try directory.write(magic, to: "mime/magic")
        return directory
    }

    @Test("text under an extension only binary formats claim is the language Linguist writes in it; the binary format's bytes stay that format")
    func textUnderBinaryExtensionsIsTheLanguage() throws {
        // `.gf`: TeX's generic font files (binary) and Grammatical Framework (text).
        let grammar = try identify("concrete FoodsEng of Foods = {\n  lincat Comment = Str ;\n  lin Pred item quality = item ++ \"is\" ++ quality ;\n}\n", "Foods.gf")
        #expect(grammar.type.tags(of: .linguistLanguage).first == "Grammatical Framework", "\(grammar.type.identifier)")
        #expect(grammar.evidence.name?.decidedBy?.contains("Linguist") == true)
        #expect(!grammar.isMismatch)
        let font = try identify([0xF7, 0x83, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xDF, 0xDF], "cmr10.gf")
        #expect(font.mimeType == "application/x-tex-gf", "\(font.type.identifier)")
    }

    @Test("a resemblance still confirms the language the name names")
    func resemblancesConfirmNames() throws {
        let found = try identify("// a module\nimport { x } from './x';\nexport const y: number = 1;\n", "main.ts")
        #expect(found.type == UTType("com.microsoft.typescript"), "\(found.type.identifier)")
    }

    @Test("no answer carries inode/directory but for a directory, over a made tree of files named for packages")
    func noDirectoryMIMETypeForFiles() throws {
        let directory = try TemporaryDirectory()
        for name in ["a.key", "b.pages", "c.numbers", "d.app", "e.bundle", "f.rtfd", "g.template", "h.dist", "i.framework"] {
            _ = try directory.write("text\n", to: name)
        }
        var files: [(path: String, found: Identification)] = []
        identifier.classify(directories: [RawFilePath(directory.path)], options: .init(sorted: true)).forEachBatch { batch in
            for entry in batch {
                if let found = entry.identification, found.fileSize != nil { files.append((entry.path.string, found)) }
            }
            return true
        }
        #expect(files.count == 9)
        for (path, found) in files {
            #expect(found.mimeType != "inode/directory" && !found.type.conforms(to: .directory), "\(path): \(found.type.identifier)")
        }
    }

    @Test("a format its first line declares, which is no language, overrules another text format's name: a PGP key named .pub; an RSA key named .key is PEM-encoded data, not a PGP key")
    func declaredFormatsDoNotNest() throws {
        let key = "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmFIEWhdc7RMIKoZIzj0DAQcCAwTCrR7Da5QHqFi/CtJJ6egFb48zR9bn48epqb92\n-----END PGP PUBLIC KEY BLOCK-----\n"
        for name in ["signing.pub", "signing.doc"] {
            let found = try identify(key, name)
            #expect(found.mimeType == "application/pgp-keys", "\(name): \(found.type.identifier)")
            #expect(found.isMismatch, "\(name)")
        }
        // OpenPGP's armour is not RFC 7468's PEM, nor is PEM an OpenPGP key, though `.key` names both.
        let rsa = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAwr3Qj5s3m2mY0g6W0yL8nW6b7Qv3cXx4Z5JmQm0r5y8u1bqW\n-----END RSA PRIVATE KEY-----\n"
        let server = try identify(rsa, "server.key")
        #expect(server.mimeType == "application/x-pem-file", "\(server.type.identifier)")
        #expect(!server.isMismatch)
        // A language still holds what its first line looks like: PHP that starts as HTML stays PHP.
        let page = try identify("<html><body><?php echo 1; ?></body></html>\n", "index.php")
        #expect(page.mimeType == "application/x-php", "\(page.type.identifier)")
    }

}
