import Foundation
import Testing
import TestSupport
import UniformTypeIdentifiers
@testable import FileIdentification

/// PRONOM's formats in the type database (TypeDB/pronom.json, from DROID's signature file): each PUID names one
/// type, a version conforms to its format, and no PRONOM type claims a name.
@Suite("PRONOM's formats are types, found by their PUIDs")
struct PronomTypesTests {
    @Test("a version is a type of its own that conforms to its format; a format another source names carries its PUID where it is one PRONOM format")
    func versionsAndFormats() throws {
        let pdf14 = try #require(UTType(tag: "fmt/18", tagClass: .pronomPUID, conformingTo: nil))
        #expect(pdf14.identifier == "org.nationalarchives.pronom.fmt.18")
        #expect(pdf14.conforms(to: .pdf))
        #expect(pdf14.localizedDescription == "Acrobat PDF 1.4 - Portable Document Format")
        let pdfA = try #require(UTType(tag: "fmt/354", tagClass: .pronomPUID, conformingTo: .pdf))
        #expect(pdfA.localizedDescription?.contains("PDF/A") == true)
        #expect(UTType(tag: "fmt/11", tagClass: .pronomPUID, conformingTo: nil)?.conforms(to: .png) == true)
        #expect(UTType(tag: "fmt/412", tagClass: .pronomPUID, conformingTo: nil)?.supertypes.contains(UTType("org.openxmlformats.wordprocessingml.document")!) == true)
        // ZIP (x-fmt/263) is one PRONOM format and one type, the one PRONOM's own record names (Apple's
        // com.pkware.zip-archive, which public.zip-archive conforms to): that type carries the PUID.
        let zip = try #require(UTType(tag: "x-fmt/263", tagClass: .pronomPUID, conformingTo: nil))
        #expect(zip.identifier == "com.pkware.zip-archive" && UTType.zip.conforms(to: zip))
        #expect(zip.tags[.pronomPUID] == ["x-fmt/263"])
        // A family PRONOM's record names: Word 97-2003 (fmt/40) within com.microsoft.word.doc.
        #expect(UTType(tag: "fmt/40", tagClass: .pronomPUID, conformingTo: nil)?.conforms(to: UTType("com.microsoft.word.doc")!) == true)
        // A PRONOM type claims no extension and no MIME type: names are decided as before.
        #expect(pdf14.tags[.filenameExtension] == nil && pdf14.tags[.mimeType] == nil)
        #expect(UTType(filenameExtension: "pdf") == .pdf)
    }

    @Test("every PUID of the signature file names exactly one type")
    func everyPUID() throws {
        let data = try Data(contentsOf: Tools.packageRoot.appending(path: "TypeDB/pronom.json"))
        let table = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let formats = try #require(table["formats"] as? [[String: Any]])
        #expect(formats.count > 2_000)
        var missing: [String] = []
        for format in formats {
            guard let puid = format["puid"] as? String else { continue }
            let types = TypeDatabase.shared.declaredTypes(tag: puid, tagClass: .pronomPUID)
            if types.count != 1 { missing.append("\(puid): \(types.count)") }
        }
        #expect(missing.isEmpty, "\(missing.prefix(10))")
    }
}
