import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

@Suite("ZIP and OLE2 containers are opened, not guessed")
struct ContainerTests {
    let identifier = FileIdentifier()

    /// Identifies an archive whose telling entries come after 120 KB of other entries.
    private func identify(_ telling: [(name: String, data: [UInt8])], name: String? = nil) throws -> Identification {
        let archive = ZipWriter.archive(ZipWriter.filler + telling)
        #expect(archive.count > 100_000)
        return try identifier.identify(data: archive, filename: name)
    }

    @Test func officeOpenXML() throws {
        let contentTypes = Array("<?xml version=\"1.0\"?><Types/>".utf8)
        let docx = try identify([("[Content_Types].xml", contentTypes), ("word/document.xml", Array("<w:document/>".utf8))])
        #expect(docx.type.identifier == "org.openxmlformats.wordprocessingml.document")
        #expect(docx.evidence.content?.source == .container)
        #expect(docx.evidence.content?.detail == "ZIP entries word/")
        let xlsx = try identify([("[Content_Types].xml", contentTypes), ("xl/workbook.xml", [])])
        #expect(xlsx.type.identifier == "org.openxmlformats.spreadsheetml.sheet")
        let pptx = try identify([("[Content_Types].xml", contentTypes), ("ppt/presentation.xml", [])])
        #expect(pptx.type.identifier == "org.openxmlformats.presentationml.presentation")
    }

    @Test("Zip64 end records whose directory size or offset is near or above 2^63 are read without a trap",
          arguments: [(UInt64(0x7FFF_FFFF_FFFF_FFF0), UInt64(0x7FFF_FFFF_FFFF_FF00)), (0xFFFF_FFFF_FFFF_FFF0, 0x8000_0000_0000_0000),
                      (0x10, 0xFFFF_FFFF_FFFF_FFFF), (0x7FFF_FFFF_FFFF_FFFF, 0x7FFF_FFFF_FFFF_FFFF)])
    func zip64Overflow(size: UInt64, offset: UInt64) throws {
        func le(_ value: UInt64, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (UInt64($0) * 8)) } }
        let local: [UInt8] = [0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0, count: 26)
        let record: [UInt8] = [0x50, 0x4B, 0x06, 0x06] + le(44, 8) + le(45, 2) + le(45, 2) + le(0, 4) + le(0, 4) + le(1, 8) + le(1, 8)
            + le(size, 8) + le(offset, 8)
        let locator: [UInt8] = [0x50, 0x4B, 0x06, 0x07] + le(0, 4) + le(UInt64(local.count), 8) + le(1, 4)
        let end: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + le(0, 4) + le(0xFFFF, 2) + le(0xFFFF, 2) + le(0xFFFF_FFFF, 4) + le(0xFFFF_FFFF, 4) + le(0, 2)
        let identification = try identifier.identify(data: local + record + locator + end, filename: "upload.bin")
        #expect(identification.type.conforms(to: .zip))
    }

    @Test func openDocumentByItsMimetypeEntry() throws {
        let odt = try identify([("content.xml", []), ("mimetype", Array("application/vnd.oasis.opendocument.text".utf8))])
        #expect(odt.type.identifier == "org.oasis-open.opendocument.text")
        #expect(odt.mimeType == "application/vnd.oasis.opendocument.text")
        let ods = try identify([("mimetype", Array("application/vnd.oasis.opendocument.spreadsheet".utf8))])
        #expect(ods.type.identifier == "org.oasis-open.opendocument.spreadsheet")
    }

    @Test func epubJarAndAndroid() throws {
        let epub = try identify([("OEBPS/content.opf", []), ("mimetype", Array("application/epub+zip".utf8))])
        #expect(epub.type == .epub)
        let jar = try identify([("com/example/Main.class", [0xCA, 0xFE, 0xBA, 0xBE]), ("META-INF/MANIFEST.MF", Array("Manifest-Version: 1.0\n".utf8))])
        #expect(jar.mimeType == "application/x-java-archive" || jar.mimeType == "application/java-archive")
        let apk = try identify([("classes.dex", []), ("AndroidManifest.xml", [])])
        #expect(apk.mimeType == "application/vnd.android.package-archive")
    }

    @Test func plainZipAndNamesThatRefineIt() throws {
        let plain = try identify([("readme.txt", Array("hello".utf8))])
        #expect(plain.type == .zip)
        // A ZIP-based format the entries do not single out: the name refines the container.
        let named = try identify([("readme.txt", Array("hello".utf8))], name: "book.epub")
        #expect(named.type == .epub)
        #expect(!named.isMismatch)
        #expect(named.evidence.rule == .nameRefinesContent)
        // A ZIP named as a PDF: the content proves otherwise.
        let lying = try identify([("readme.txt", Array("hello".utf8))], name: "report.pdf")
        #expect(lying.type == .zip)
        #expect(lying.isMismatch)
        #expect(lying.evidence.rule == .contentOverrulesName)
    }

    @Test("a ZIP cut short, with no central directory, is read from its local headers")
    func truncatedArchive() throws {
        let archive = ZipWriter.archive([("mimetype", Array("application/epub+zip".utf8)), ("OEBPS/a.xhtml", [UInt8](repeating: 0x41, count: 2_000))])
        let cut = Array(archive.prefix(1_000))
        #expect(try identifier.identify(data: cut).type == .epub)
    }

    @Test("a Zip64 archive's central directory is found through its Zip64 end record")
    func zip64Archive() throws {
        let contentTypes = Array("<?xml version=\"1.0\"?><Types/>".utf8)
        let archive = ZipWriter.zip64Archive(ZipWriter.filler + [("[Content_Types].xml", contentTypes), ("word/document.xml", [])])
        let docx = try identifier.identify(data: archive)
        #expect(docx.type.identifier == "org.openxmlformats.wordprocessingml.document")
        #expect(docx.evidence.content?.detail == "ZIP entries word/")
    }

    /// Values of a Zip64 end record that no archive can hold: sizes and offsets at and past 2^63 (negative
    /// as a 64-bit `Int`), and just below it.
    static let hostileZip64Values: [UInt64] = [0, 0x10, 0x7FFF_FFFF_FFFF_FF00, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000,
                                               0x8000_0000_0000_0100, 0xFFFF_FFFF_FFFF_FFFF]

    @Test("a Zip64 end record with a size or an offset near 2^63 is read without a trap",
          arguments: hostileZip64Values, hostileZip64Values)
    func hostileZip64EndRecord(size: UInt64, offset: UInt64) throws {
        let plain = ZipWriter.archive([("readme.txt", Array("hello".utf8))])
        for count in [1, 0x7FFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF] as [UInt64] {
            let hostile = Array(plain.dropLast(22)) + ZipWriter.zip64End(at: plain.count - 22, count: count, size: size, offset: offset)
            // The local headers still show a ZIP archive.
            #expect(try identifier.identify(data: hostile).type == .zip)
        }
    }

    @Test func oleCompoundFiles() throws {
        #expect(try identifier.identify(data: OLE2Writer.file(streams: ["WordDocument", "1Table"])).mimeType == "application/msword")
        #expect(try identifier.identify(data: OLE2Writer.file(streams: ["Workbook"])).mimeType == "application/vnd.ms-excel")
        #expect(try identifier.identify(data: OLE2Writer.file(streams: ["PowerPoint Document"])).mimeType == "application/vnd.ms-powerpoint")
        #expect(try identifier.identify(data: OLE2Writer.file(streams: ["__substg1.0_0037001F"])).mimeType == "application/vnd.ms-outlook")
        let generic = try identifier.identify(data: OLE2Writer.file(streams: ["Something"]), filename: "sheet.xls")
        #expect(generic.type.identifier == "com.microsoft.excel.xls", "the name refines a compound file the streams do not single out")
        #expect(!generic.isMismatch)
    }
}

/// A minimal OLE2 compound file: header, one FAT sector, one directory sector with the named streams.
enum OLE2Writer {
    static func file(streams: [String]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<8, with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1])
        header[24] = 0x3E; header[26] = 3; header[28] = 0xFE; header[29] = 0xFF
        header[30] = 9  // 512-byte sectors
        header[32] = 6
        header[44] = 1  // one FAT sector
        header[48] = 1  // directory starts at sector 1
        for index in 0..<109 { header.replaceSubrange((76 + index * 4)..<(80 + index * 4), with: [0xFF, 0xFF, 0xFF, 0xFF]) }
        header.replaceSubrange(76..<80, with: [0, 0, 0, 0])  // FAT in sector 0
        var fat = [UInt8](repeating: 0xFF, count: 512)
        fat.replaceSubrange(0..<4, with: [0xFD, 0xFF, 0xFF, 0xFF])  // sector 0: FAT
        fat.replaceSubrange(4..<8, with: [0xFE, 0xFF, 0xFF, 0xFF])  // sector 1: end of directory chain
        var directory = [UInt8](repeating: 0, count: 512)
        for (slot, name) in (["Root Entry"] + streams.prefix(3)).enumerated() {
            let units = Array(name.utf16)
            for (index, unit) in units.enumerated() {
                directory[slot * 128 + index * 2] = UInt8(unit & 0xFF)
                directory[slot * 128 + index * 2 + 1] = UInt8(unit >> 8)
            }
            directory[slot * 128 + 64] = UInt8((units.count + 1) * 2)
            directory[slot * 128 + 66] = slot == 0 ? 5 : 2
        }
        return header + fat + directory
    }
}
