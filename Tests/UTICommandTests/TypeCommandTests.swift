import Foundation
import TestSupport
import Testing

@Suite("uti info, conforms and types")
struct TypeCommandTests {
    @Test func infoDescribesAType() throws {
        let result = try UTIBinary.run(["info", "public.jpeg"])
        #expect(result.status == 0)
        let text = result.standardOutput
        #expect(text.hasPrefix("public.jpeg\n"))
        #expect(text.contains("description: JPEG image"))
        #expect(text.contains("kind:        declared, public, exported"))
        #expect(text.contains("declared in: TypeDB/"))
        #expect(text.contains("extensions:  jpeg jpg jpe"))
        #expect(text.contains("MIME types:  image/jpeg"))
        #expect(text.contains("└─ public.image"))
        #expect(text.contains("public.item"))
        #expect(text.contains("public.content"))
    }

    @Test func infoAsJSON() throws {
        let result = try UTIBinary.run(["info", "--json", "public.jpeg", "dyn.ah62d4rv4ge8043a"])
        #expect(result.status == 0)
        #expect(result.lines.count == 2)
        let jpeg = try jsonObject(result.lines[0])
        #expect(jpeg["identifier"] as? String == "public.jpeg")
        #expect(jpeg["status"] as? String == "declared")
        #expect(jpeg["preferredMIMEType"] as? String == "image/jpeg")
        #expect((jpeg["supertypes"] as? [String]).map(Set.init) == ["public.image", "public.data", "public.item", "public.content"])
        #expect((jpeg["declaredIn"] as? String)?.hasPrefix("TypeDB/") == true)
        let dynamic = try jsonObject(result.lines[1])
        #expect(dynamic["status"] as? String == "dynamic")
        #expect(dynamic["conformsTo"] as? [String] == ["public.data"])
        #expect((dynamic["tags"] as? [String: [String]]) == ["public.filename-extension": ["md"]])
        #expect(dynamic["description"] is NSNull)
    }

    @Test func infoOnAnUnknownIdentifier() throws {
        let result = try UTIBinary.run(["info", "com.example.nothing", "public.png"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("unknown type identifier 'com.example.nothing'"))
        #expect(result.standardOutput.hasPrefix("public.png"), "the other identifiers are still described")
    }

    @Test func conformsExitStatus() throws {
        #expect(try UTIBinary.run(["conforms", "public.jpeg", "public.image"]).status == 0)
        #expect(try UTIBinary.run(["conforms", "PUBLIC.JPEG", "public.item"]).status == 0)
        let no = try UTIBinary.run(["conforms", "public.jpeg", "public.audio"])
        #expect(no.status == 1)
        #expect(no.standardOutput == "public.jpeg does not conform to public.audio\n")
        let unknown = try UTIBinary.run(["conforms", "public.jpeg", "com.example.nothing"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("com.example.nothing"))
        #expect(try UTIBinary.run(["conforms", "-q", "public.jpeg", "public.image"]).standardOutput.isEmpty)
        #expect(try UTIBinary.run(["conforms", "public.jpeg"]).status == 64, "a usage error")
    }

    @Test func typesByExtensionAndMIME() throws {
        let plist = try UTIBinary.run(["types", "--extension", "plist"])
        #expect(plist.status == 0)
        #expect(plist.lines.first?.hasPrefix("com.apple.property-list ") == true)
        let dotted = try UTIBinary.run(["types", "--extension", ".JPG", "--json"])
        #expect(try jsonObject(try #require(dotted.lines.first))["identifier"] as? String == "public.jpeg")
        let mime = try UTIBinary.run(["types", "--mime", "application/x-gzip"])
        #expect(mime.lines.first?.hasPrefix("org.gnu.gnu-zip-archive") == true)
        let unknown = try UTIBinary.run(["types", "--extension", "rmdx"])
        #expect(unknown.lines.count == 1)
        #expect(unknown.lines.first?.hasPrefix("dyn.ah62d4rv4ge81e5peta ") == true)
    }

    @Test func typesSearchAndConformance() throws {
        let images = try UTIBinary.run(["types", "--conforming-to", "public.image", "--json"])
        let identifiers = try images.lines.map { try jsonObject($0)["identifier"] as? String }
        #expect(identifiers.contains("public.png") && identifiers.contains("public.jpeg"))
        #expect(!identifiers.contains("public.mp3"))
        let search = try UTIBinary.run(["types", "jpeg", "image"])
        #expect(search.lines.contains { $0.hasPrefix("public.jpeg ") })
        let nothing = try UTIBinary.run(["types", "no-such-type-anywhere"])
        #expect(nothing.status == 1)
        #expect(try UTIBinary.run(["types", "--conforming-to", "com.example.nothing"]).status == 2)
    }

    @Test("words find types by their tags too, best match first: an extension with or without its dot, a MIME type")
    func typesFoundTheWayPeopleNameThem() throws {
        for word in ["docx", ".docx", "DOCX"] {
            #expect(try UTIBinary.run(["types", word]).lines.first?.hasPrefix("org.openxmlformats.wordprocessingml.document ") == true, "\(word)")
        }
        #expect(try UTIBinary.run(["types", "image/webp"]).lines.first?.hasPrefix("org.webmproject.webp ") == true)
        #expect(try UTIBinary.run(["types", "png"]).lines.first?.hasPrefix("public.png ") == true, "the tag before a word inside another")
        let word = try UTIBinary.run(["types", "word"]).lines
        #expect(word.first?.hasPrefix("com.microsoft.word.") == true, "a part of the identifier before a word of a description: \(word.prefix(3))")
        let games = try #require(word.firstIndex { $0.hasPrefix("public.app-category.word-games") })
        let doc = try #require(word.firstIndex { $0.hasPrefix("com.microsoft.word.doc ") })
        #expect(doc < games, "Word documents before Word Games")
        // A MIME type as file -i prints it: its parameters are not part of the type.
        #expect(try UTIBinary.run(["types", "--mime", "image/png; charset=binary"]).lines.first?.hasPrefix("public.png ") == true)
    }

    @Test("an unknown identifier that is an extension or a MIME type says so, and which command takes it")
    func unknownIdentifierHints() throws {
        let jpeg = try UTIBinary.run(["info", "jpeg"])
        #expect(jpeg.status == 2 && jpeg.standardError.contains("'jpeg' is a filename extension, of public.jpeg (uti types --extension jpeg)"), "\(jpeg.standardError)")
        #expect(try UTIBinary.run(["info", ".jpg"]).standardError.contains("of public.jpeg (uti types --extension jpg)"))
        #expect(try UTIBinary.run(["info", "image/png"]).standardError.contains("is a MIME type, of public.png (uti types --mime 'image/png')"))
        let png = try UTIBinary.run(["conforms", "png", "public.image"])
        #expect(png.status == 2 && png.standardError.contains("'png' is a filename extension") && png.standardError.contains("nor is it a file"))
    }

    @Test("conforms takes a file for its type: identified by name and content, answered by the exit status")
    func conformsForAFile() throws {
        let files = try TemporaryDirectory()
        let image = try files.write(IdentifyCommandTests.png, to: "upload.bin")
        let text = try files.write(Array("hello\n".utf8), to: "photo.png")
        let yes = try UTIBinary.run(["conforms", image, "public.image"])
        #expect(yes.status == 0 && yes.standardOutput == "\(image) (public.png) conforms to public.image\n", "\(yes)")
        #expect(try UTIBinary.run(["conforms", "-q", text, "public.image"]).status == 1, "a text file named .png is no image")
        #expect(try UTIBinary.run(["conforms", "-q", text, "public.text"]).status == 0)
    }

    @Test func userDeclarationsFromFilesAndTheEnvironment() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>UTExportedTypeDeclarations</key><array><dict>
            <key>UTTypeIdentifier</key><string>com.example.cli-notebook</string>
            <key>UTTypeConformsTo</key><array><string>public.json</string></array>
            <key>UTTypeDescription</key><string>CLI notebook</string>
            <key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><array><string>clinb</string></array></dict>
            </dict><dict>
            <key>UTTypeIdentifier</key><string>public.jpeg</string>
            <key>UTTypeConformsTo</key><array><string>public.image</string></array>
            <key>UTTypeDescription</key><string>Overridden JPEG</string>
            </dict></array></dict></plist>
            """
        let file = directory.appending(path: "types.plist")
        try Data(plist.utf8).write(to: file)

        let byFile = try UTIBinary.run(["types", "--types", file.path, "--extension", "clinb"])
        #expect(byFile.lines.first?.hasPrefix("com.example.cli-notebook") == true)
        let conforms = try UTIBinary.run(["conforms", "--types", file.path, "com.example.cli-notebook", "public.text"])
        #expect(conforms.status == 0)
        let overridden = try UTIBinary.run(["info", "public.jpeg"], environment: ["UTI_TYPES_PATH": directory.path])
        #expect(overridden.standardOutput.contains("description: Overridden JPEG"))
        #expect(overridden.standardOutput.contains("declared in: \(file.path)"))
        #expect(try UTIBinary.run(["info", "public.jpeg"]).standardOutput.contains("description: JPEG image"))

        try Data("<plist><dict><key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key><string>bad/id</string></dict></array></dict></plist>".utf8)
            .write(to: directory.appending(path: "bad.plist"))
        let refused = try UTIBinary.run(["info", "public.jpeg"], environment: ["UTI_TYPES_PATH": directory.path])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("bad.plist: UTExportedTypeDeclarations[0] (bad/id): 'bad/id' is not a valid type identifier"))
    }
}
