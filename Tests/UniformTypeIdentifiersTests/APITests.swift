import Foundation
import Testing
import UniformTypeIdentifiers

@Suite("UTType API")
struct APITests {
    @Test func identifiersCompareCaseInsensitively() throws {
        let upper = try #require(UTType("PUBLIC.JPEG"))
        #expect(upper == .jpeg)
        #expect(upper.identifier == "public.jpeg")
        #expect(Set([upper, UTType.jpeg]).count == 1)
        #expect(UTType("com.example.never-declared") == nil)
        #expect(UTType("not an identifier") == nil)
    }

    @Test func conformance() {
        #expect(UTType.jpeg.conforms(to: .image))
        #expect(UTType.jpeg.conforms(to: .data))
        #expect(UTType.jpeg.conforms(to: .item))
        #expect(UTType.jpeg.conforms(to: .content))
        #expect(UTType.jpeg.conforms(to: .jpeg))
        #expect(!UTType.image.conforms(to: .jpeg))
        #expect(UTType.jpeg.isSubtype(of: .image))
        #expect(!UTType.jpeg.isSubtype(of: .jpeg))
        #expect(UTType.image.isSupertype(of: .jpeg))
        #expect(!UTType.jpeg.isSupertype(of: .image))
        #expect(UTType.jpeg.supertypes == [.image, .data, .item, .content])
        #expect(UTType.pythonScript.conforms(to: .script))
        #expect(UTType.pythonScript.conforms(to: .sourceCode))
        #expect(UTType.pythonScript.conforms(to: .plainText))
        #expect(UTType.applicationBundle.conforms(to: .bundle) || UTType.applicationBundle.conforms(to: .package))
        #expect(!UTType.applicationBundle.conforms(to: .data))
    }

    @Test func flags() throws {
        #expect(UTType.jpeg.isPublic)
        #expect(UTType.jpeg.isDeclared)
        #expect(!UTType.jpeg.isDynamic)
        #expect(!UTType.pdf.isPublic)  // com.adobe.pdf
        let dynamic = try #require(UTType(filenameExtension: "no-such-extension-xyz"))
        #expect(dynamic.isDynamic && !dynamic.isDeclared && !dynamic.isPublic)
    }

    @Test func descriptionsAreInheritedDepthFirst() throws {
        #expect(UTType.jpeg.localizedDescription == "JPEG image")
        // Apple declares some types without a description; they take their first supertype's, depth-first.
        let rows = try Reference.table("apple-system-types.tsv")
        var checked = 0
        for row in rows where row["description"]?.isEmpty == true {
            guard let identifier = row["identifier"], let type = UTType(identifier) else { continue }
            let declaration = TypeDatabase.shared.declaration(of: type)
            guard declaration?.typeDescription == nil else { continue }
            let expected = type.orderedSupertypes.lazy.compactMap { TypeDatabase.shared.declaration(of: $0)?.typeDescription }.first
            #expect(type.localizedDescription == expected, "\(identifier)")
            checked += 1
        }
        #expect(checked > 0)
    }

    @Test func exportedAndImportedTypes() {
        #expect(UTType(exportedAs: "public.jpeg") == .jpeg)
        let mine = UTType(exportedAs: "com.example.uti-tests.undeclared", conformingTo: .json)
        #expect(!mine.isDeclared && !mine.isDynamic)
        #expect(mine.conforms(to: .json))
        #expect(mine.conforms(to: .text))
        #expect(mine.identifier == "com.example.uti-tests.undeclared")
        let theirs = UTType(importedAs: "com.example.uti-tests.imported")
        #expect(theirs.supertypes.isEmpty)
        #expect(UTType(identifier: "com.example.x", allowUndeclared: true)?.isDeclared == false)
        #expect(UTType(identifier: "com example", allowUndeclared: true) == nil)
    }

    @Test func codableAndDescription() throws {
        let data = try JSONEncoder().encode([UTType.jpeg, UTType.pdf])
        #expect(String(decoding: data, as: UTF8.self) == #"["public.jpeg","com.adobe.pdf"]"#)
        #expect(try JSONDecoder().decode([UTType].self, from: data) == [.jpeg, .pdf])
        #expect(String(describing: UTType.jpeg) == "public.jpeg")
        #expect(UTTagClass.filenameExtension.rawValue == "public.filename-extension")
        #expect(UTTagClass.mimeType.rawValue == "public.mime-type")
    }

    @Test func urlConveniences() {
        let directory = URL(filePath: "/tmp/uti", directoryHint: .isDirectory)
        #expect(directory.appendingPathComponent("readme", conformingTo: .plainText).path == "/tmp/uti/readme.txt")
        #expect(directory.appendingPathComponent("puppy.jpg", conformingTo: .jpeg).path == "/tmp/uti/puppy.jpg")
        #expect(directory.appendingPathComponent("puppy.png", conformingTo: .jpeg).path == "/tmp/uti/puppy.png.jpeg")
        #expect(URL(filePath: "/tmp/photo").appendingPathExtension(for: .jpeg).path == "/tmp/photo.jpeg")
        #expect(URL(filePath: "/tmp/photo.JPG").appendingPathExtension(for: .image).path == "/tmp/photo.JPG")
        var url = URL(filePath: "/tmp/notes")
        url.appendPathExtension(for: .plainText)
        #expect(url.path == "/tmp/notes.txt")
        var base = directory
        base.appendPathComponent("data", conformingTo: .json)
        #expect(base.path == "/tmp/uti/data.json")
    }
}
