import Foundation
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

@Suite("Content: text, signatures, libmagic, and how they meet the name")
struct ContentTests {
    let identifier = FileIdentifier()

    private func identify(_ text: String, name: String? = nil) throws -> Identification {
        try identifier.identify(data: Array(text.utf8), filename: name)
    }

    @Test func textEncodings() throws {
        let utf8 = try identify("Grüße aus Köln\n")
        #expect(utf8.type == .plainText)
        #expect(utf8.textEncoding == .utf8)
        #expect(try identify("plain ascii\n").textEncoding == .ascii)
        let latin1 = try identifier.identify(data: Array("caf".utf8) + [0xE9] + Array(" cr\u{E8}me\n".utf8.map { $0 }))
        #expect(latin1.type.conforms(to: .text), "a high-bit byte never makes text binary")
        let utf16: [UInt8] = [0xFF, 0xFE] + "hello\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let sixteen = try identifier.identify(data: utf16)
        #expect(sixteen.textEncoding == .utf16LittleEndian)
        #expect(sixteen.type.conforms(to: .text))
        let binary = try identifier.identify(data: [0x00, 0x01, 0x02, 0xFF, 0x00, 0x13, 0x37, 0x00])
        #expect(binary.type == .data)
        #expect(binary.evidence.rule == .textOrBinary)
    }

    @Test func textFormatsFromContentAlone() throws {
        #expect(try identify("#!/usr/bin/env python3\nprint('hi')\n").type.conforms(to: .pythonScript))
        #expect(try identify("#!/bin/sh\necho hi\n").type.conforms(to: .shellScript))
        #expect(try identify("#!/usr/bin/perl -w\nprint 1;\n").type.conforms(to: .perlScript))
        #expect(try identify("{\"name\": \"uti\", \"list\": [1, 2, {\"a\": null}]}\n").type.conforms(to: .json))
        #expect(try identify("<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n").type == .svg)
        #expect(try identify("<?xml version=\"1.0\"?>\n<catalog><item/></catalog>\n").type == .xml)
        #expect(try identify("<!DOCTYPE html>\n<html><body>hi</body></html>\n").type == .html)
        #expect(try identify("<?xml version=\"1.0\"?>\n<!DOCTYPE plist>\n<plist version=\"1.0\"><dict/></plist>\n").type.conforms(to: .propertyList))
        #expect(try identify("name,size,kind\nuti,1,tool\nfile,2,tool\n").type.conforms(to: .commaSeparatedText))
    }

    @Test func signatures() throws {
        let png = try identifier.identify(data: Samples.png)
        #expect(png.type == .png)
        #expect(png.evidence.content?.source == .signature)
        #expect(png.confidence == .high)
        #expect(try identifier.identify(data: Array("%PDF-1.7\n%âãÏÓ\n".utf8)).type == .pdf)
        #expect(try identifier.identify(data: [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 3]).type == .gzip)
    }

    @Test("a name more specific than the content is not a mismatch")
    func nameRefinesContent() throws {
        let markdown = try identify("# Title\n\nSome *notes*.\n", name: "notes.md")
        #expect(markdown.type.identifier == "net.daringfireball.markdown")
        #expect(!markdown.isMismatch)
        #expect(markdown.evidence.rule == .nameRefinesContent)
        #expect(markdown.evidence.name?.match == .filenameExtension)
        // Text formats nest: PHP holds HTML; the name says more than the bytes.
        let php = try identify("<html><body><?php echo 1; ?></body></html>\n", name: "index.php")
        #expect(php.type == .phpScript)
        #expect(!php.isMismatch)
    }

    @Test("strong content overrules the name, and says so")
    func mismatches() throws {
        let exe = try identifier.identify(data: Samples.windowsExecutable, filename: "photo.jpg")
        #expect(exe.isMismatch)
        #expect(exe.type != .jpeg)
        #expect(exe.type.conforms(to: .executable))
        #expect(exe.evidence.name?.candidates.first == .jpeg)
        #expect(exe.evidence.rule == .contentOverrulesName)
        let elf = try identifier.identify(fileAt: "/bin/true")
        #expect(elf.type.conforms(to: .unixExecutable))
        let scratch = try TemporaryDirectory()
        let renamed = scratch.file("readme.txt")
        try Data(contentsOf: URL(filePath: "/bin/true")).write(to: URL(filePath: renamed))
        let lying = try identifier.identify(fileAt: renamed)
        #expect(lying.isMismatch)
        #expect(lying.type.conforms(to: .executable))
        // Binary bytes under a name that promises plain text.
        let garbage = try identifier.identify(data: [0, 1, 2, 3, 0, 0xFF, 0xFE, 0], filename: "notes.txt")
        #expect(garbage.isMismatch)
        #expect(garbage.type == .data)
        // A name promising a text format that may hold binary bytes (encoded VBScript) stands.
        let encoded = try identifier.identify(data: Array("#@~^GAAAAA==\\ko$K6".utf8) + [0x7F, 0, 0x0A], filename: "hello.vbe")
        #expect(encoded.mimeType == "text/vbscript.encode")
        #expect(!encoded.isMismatch)
    }

    @Test("the most specific reading the name agrees with wins")
    func mostSpecificReading() throws {
        // An animated PNG: the PNG signature proves PNG, the acTL chunk (shared-mime-info's rule) says more.
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let length = UInt32(body.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
        let animated = signature + header + chunk("acTL", [0, 0, 0, 2, 0, 0, 0, 0]) + chunk("IEND", [])
        #expect(try identifier.identify(data: animated, filename: "ball.png").mimeType == "image/apng")
        #expect(try identifier.identify(data: signature + header + chunk("IEND", []), filename: "still.png").type == .png)
        // A .txt file holding a news article is the article; a plain-text name says less than the content.
        let article = try identify("Path: news.example.org!not-for-mail\nFrom: a@example.org\nNewsgroups: comp.lang.swift\n\nHello\n", name: "post.txt")
        #expect(article.mimeType == "message/news")
        #expect(!article.isMismatch)
    }

    @Test("shared-mime-info 2.4's names, where the system's database is older", .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func namesOf24() throws {
        // An AWK script by its #! line: 2.2 called it application/x-awk.
        #expect(try identify("#!/usr/bin/awk -f\n{ print $1 }\n", name: "fields.awk").mimeType == "text/x-awk")
        #expect(try identify("#!/usr/bin/gawk -f\n{ print $1 }\n").mimeType == "text/x-gawk")
    }

    @Test("formats only Apache Tika names, by Tika's content rules", .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func tikaContentRules() throws {
        let hfa = try identifier.identify(data: Array("EHFA_HEADER_TAG".utf8) + [0, 0, 0, 1, 0x20, 0])
        #expect(hfa.mimeType == "application/x-erdas-hfa")
        #expect(hfa.evidence.content?.source == .freedesktopMagic)
        let stata = try identify("<stata_dta><header><release>118</release><byteorder>LSF</byteorder></header>")
        #expect(stata.mimeType == "application/x-stata-dta")
    }

    @Test("XML dialects by their root element's namespace (shared-mime-info's XMLnamespaces)",
          .enabled(if: Tools.hasBuiltInSharedMIMEInfo, Tools.needsBuiltInSharedMIMEInfo))
    func xmlNamespaces() throws {
        let bom = try identify("<?xml version=\"1.0\"?>\n<bom xmlns=\"http://cyclonedx.org/schema/bom/1.4\" version=\"1\"/>\n")
        #expect(bom.mimeType == "application/vnd.cyclonedx+xml")
        let prefixed = try identify("<?xml version=\"1.0\"?>\n<c:bom xmlns:c=\"http://cyclonedx.org/schema/bom/1.4\"/>\n")
        #expect(prefixed.mimeType == "application/vnd.cyclonedx+xml")
        // The same local name in another namespace is only XML.
        #expect(try identify("<?xml version=\"1.0\"?>\n<bom xmlns=\"urn:example:bill-of-materials\"/>\n").type == .xml)
    }

    @Test func namesAloneAndCompoundSuffixes() throws {
        let nameOnly = FileIdentifier(options: .init(nameOnly: true))
        #expect(try nameOnly.identify(fileAt: "/no/such/dir/x.rmdx").type.identifier == "dyn.ah62d4rv4ge81e5peta")
        #expect(try nameOnly.identify(fileAt: "/no/such/dir/backup.tar.gz").type.identifier == "org.gnu.gnu-zip-tar-archive")
        #expect(try nameOnly.identify(fileAt: "/no/such/dir/Makefile").type == .makefile)
        let suffix = try nameOnly.identify(fileAt: "x.tar.gz")
        #expect(suffix.evidence.name?.match == .suffix)
        #expect(suffix.evidence.name?.tag == "tar.gz")
        #expect(try nameOnly.identify(fileAt: "PHOTO.JPG").type == .jpeg)
        #expect(try nameOnly.identify(fileAt: ".bashrc").type == .shellScript, "a whole name GitHub Linguist knows")
        #expect(try nameOnly.identify(fileAt: ".uti-test-rc").evidence.name == nil)
    }

    @Test("without a name, libmagic covers the long tail")
    func libmagicLongTail() throws {
        // A Lua bytecode header is in no built-in table; libmagic knows it.
        let sqlite = try identifier.identify(data: Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 100))
        #expect(sqlite.mimeType == "application/vnd.sqlite3")
        let gif = try identifier.identify(data: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0])
        #expect(gif.type == .gif)
        let bmp = try identifier.identify(data: [0x42, 0x4D, 0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 0x28, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0x18, 0] + [UInt8](repeating: 0, count: 28))
        #expect(bmp.type == .bmp)
        #expect(bmp.evidence.content?.source == .libmagic || bmp.evidence.content?.source == .freedesktopMagic)
    }
}
