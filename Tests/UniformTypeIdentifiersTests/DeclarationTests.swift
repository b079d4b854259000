import Foundation
import TestSupport
import Testing
import SystemPackage
import UniformTypeIdentifiers

@Suite("Declarations")
struct DeclarationTests {
    /// The error that registering `plist` (written to a file) throws, with the file's path.
    private func refusal(_ plist: String) throws -> (TypeDeclarationError, String) {
        let directory = try TemporaryDirectory()
        let path = try directory.write(plist, to: "bad.plist")
        let database = TypeDatabase()
        let error = try #require(throws: TypeDeclarationError.self) {
            try database.registerDeclarations(contentsOfFile: path)
        }
        return (error, path)
    }

    @Test func missingIdentifier() throws {
        let (error, path) = try refusal(declarationPlist(exported: [entry("com.example.fine"), entry(nil)]))
        #expect(error.problem == .missingIdentifier)
        #expect(error.file == path)
        #expect(error.entry == "UTExportedTypeDeclarations[1]")
        #expect(error.description.contains(path) && error.description.contains("UTTypeIdentifier is missing"))
    }

    @Test(arguments: ["image/foo", "com.example:foo", "com.example foo", ".leading", "trailing.", "a..b", ""])
    func invalidIdentifier(identifier: String) throws {
        let (error, _) = try refusal(declarationPlist(imported: [entry(identifier)]))
        #expect(error.problem == .invalidIdentifier(identifier))
        #expect(error.entry?.hasPrefix("UTImportedTypeDeclarations[0]") == true)
    }

    @Test func tagOfTheWrongType() throws {
        let bad = "<dict><key>UTTypeIdentifier</key><string>com.example.bad-tag</string>"
            + "<key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><integer>7</integer></dict></dict>"
        let (error, _) = try refusal(declarationPlist(exported: [bad]))
        #expect(error.problem == .wrongType(key: "UTTypeTagSpecification.public.filename-extension",
                                            expected: "a string or an array of strings", found: "an integer"))
        #expect(error.entry == "UTExportedTypeDeclarations[0] (com.example.bad-tag)")
        #expect(error.description.contains("public.filename-extension must be a string or an array of strings, not an integer"))
    }

    @Test func conformanceCycle() throws {
        let plist = declarationPlist(exported: [
            entry("com.example.cycle-a", conformsTo: ["com.example.cycle-b"]),
            entry("com.example.cycle-b", conformsTo: ["com.example.cycle-c"]),
            entry("com.example.cycle-c", conformsTo: ["com.example.cycle-a"]),
        ])
        let (error, path) = try refusal(plist)
        #expect(error.problem.kind == .conformanceCycle)
        let cycle = try #require(error.problem.cycle, "expected a cycle, got \(error)")
        #expect(cycle.count == 4 && cycle.first == cycle.last)
        #expect(Set(cycle) == ["com.example.cycle-a", "com.example.cycle-b", "com.example.cycle-c"])
        #expect(error.file == path)
    }

    @Test func cycleThroughTheBuiltInDatabase() throws {
        // public.image is built in; declaring it under a new type of ours closes a loop.
        let plist = declarationPlist(exported: [
            entry("public.image", conformsTo: ["com.example.loop"]),
            entry("com.example.loop", conformsTo: ["public.jpeg"]),
        ])
        let (error, _) = try refusal(plist)
        #expect(error.problem.kind == .conformanceCycle, "expected a cycle, got \(error)")
    }

    @Test func notAPropertyList() throws {
        let (error, path) = try refusal("this is not a plist")
        #expect(error.problem.kind == .notAPropertyList, "expected notAPropertyList, got \(error)")
        #expect(error.description.hasPrefix(path))
    }

    @Test func missingFile() throws {
        let error = try #require(throws: TypeDeclarationError.self) {
            try TypeDatabase().registerDeclarations(contentsOfFile: "/nonexistent/uti/types.plist")
        }
        #expect(error.problem == .unreadable(.noSuchFileOrDirectory))
        #expect(error.description == "/nonexistent/uti/types.plist: cannot read the file: No such file or directory")
    }

    @Test func duplicateIdentifierInOneFile() throws {
        let (error, _) = try refusal(declarationPlist(exported: [entry("com.example.twice"), entry("com.example.twice")]))
        #expect(error.problem == .duplicateIdentifier("com.example.twice"))
    }

    @Test func dynamicIdentifiersCannotBeDeclared() throws {
        let (error, _) = try refusal(declarationPlist(exported: [entry("dyn.ah62d4rv4ge8043a")]))
        #expect(error.problem == .dynamicIdentifier("dyn.ah62d4rv4ge8043a"))
    }

    @Test func binaryPropertyLists() throws {
        struct Declarations: Encodable {
            struct Entry: Encodable {
                var UTTypeIdentifier: String
                var UTTypeConformsTo: [String]
                var UTTypeDescription: String
                var UTTypeTagSpecification: [String: [String]]
            }
            var UTExportedTypeDeclarations: [Entry]
        }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data = try encoder.encode(Declarations(UTExportedTypeDeclarations: [
            .init(UTTypeIdentifier: "com.example.binary-plist", UTTypeConformsTo: ["public.json"],
                  UTTypeDescription: "binary declared", UTTypeTagSpecification: ["public.filename-extension": ["bpl"]]),
        ]))
        #expect(data.starts(with: Array("bplist".utf8)))
        let declarations = try TypeDeclaration.declarations(fromPropertyList: data, source: "binary.plist")
        #expect(declarations == [TypeDeclaration(
            identifier: "com.example.binary-plist", conformsTo: ["public.json"], typeDescription: "binary declared",
            tags: [.filenameExtension: ["bpl"]], kind: .exported, source: "binary.plist")])
    }

    @Test func singleStringsAreAcceptedWhereArraysAre() throws {
        let plist = declarationPlist(exported: [
            "<dict><key>UTTypeIdentifier</key><string>com.example.strings</string><key>UTTypeConformsTo</key><string>public.text</string>"
                + "<key>UTTypeTagSpecification</key><dict><key>public.filename-extension</key><string>strx</string></dict>"
                + "<key>UTTypeVersion</key><integer>3</integer><key>UTTypeReferenceURL</key><string>https://example.com/strx</string></dict>",
        ])
        let declarations = try TypeDeclaration.declarations(fromPropertyList: Data(plist.utf8), source: nil)
        #expect(declarations.first?.conformsTo == ["public.text"])
        #expect(declarations.first?.tags[.filenameExtension] == ["strx"])
        #expect(declarations.first?.version == 3)
        #expect(declarations.first?.referenceURL == "https://example.com/strx")
    }
}
