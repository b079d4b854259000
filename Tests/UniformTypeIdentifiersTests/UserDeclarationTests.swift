import Foundation
import TestSupport
import Testing
import UniformTypeIdentifiers

/// These tests register into the shared database (that is what `UTType` reads), each with identifiers
/// and tags of its own, so that they cannot disturb the other tests running beside them.
@Suite("Declarations registered at run time")
struct UserDeclarationTests {
    @Test func newTypesTakePartInEveryLookup() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(declarationPlist(exported: [
            entry("com.example.uti-tests.notebook", conformsTo: ["public.json"], description: "Test notebook",
                  extensions: ["utinb"], mimeTypes: ["application/x-uti-tests-notebook"]),
            entry("com.example.uti-tests.notebook-v2", conformsTo: ["com.example.uti-tests.notebook"], extensions: ["utinb2"]),
        ]), to: "notebook.plist")
        let registered = try TypeDatabase.shared.registerDeclarations(contentsOfFile: path)
        #expect(registered.map(\.identifier) == ["com.example.uti-tests.notebook", "com.example.uti-tests.notebook-v2"])

        let notebook = try #require(UTType("com.example.uti-tests.notebook"))
        #expect(UTType(filenameExtension: "UTINB") == notebook)
        #expect(UTType(mimeType: "application/x-uti-tests-notebook") == notebook)
        #expect(notebook.conforms(to: .json) && notebook.conforms(to: .text) && notebook.conforms(to: .item))
        #expect(notebook.localizedDescription == "Test notebook")
        #expect(TypeDatabase.shared.declaration(of: notebook)?.source == path)
        let v2 = try #require(UTType(filenameExtension: "utinb2"))
        #expect(v2.conforms(to: notebook) && v2.conforms(to: .json))
        #expect(v2.localizedDescription == "Test notebook", "inherited from its supertype")
        #expect(TypeDatabase.shared.declarations.contains { $0.identifier == "com.example.uti-tests.notebook-v2" })

        TypeDatabase.shared.unregisterDeclarations(fromSource: path)
        #expect(UTType("com.example.uti-tests.notebook") == nil)
        #expect(UTType(filenameExtension: "utinb")?.isDynamic == true)
    }

    @Test func anExportedDeclarationOverridesABuiltInImportedOne() throws {
        // com.microsoft.word.wordml is imported by the built-in database (Apple imports Microsoft's types).
        let builtIn = try #require(UTType("com.microsoft.word.wordml"))
        #expect(TypeDatabase.shared.declaration(of: builtIn)?.kind == .imported)
        let database = TypeDatabase()
        try database.register([TypeDeclaration(
            identifier: "com.microsoft.word.wordml", conformsTo: ["public.xml"], typeDescription: "Overridden",
            tags: [.filenameExtension: ["wordml-test"]], kind: .exported, source: "override.plist")])
        #expect(database.declaration(of: builtIn)?.typeDescription == "Overridden")
        #expect(database.declaration(of: builtIn)?.source == "override.plist")
        // An imported declaration does not replace an exported built-in one.
        try database.register([TypeDeclaration(identifier: "public.jpeg", typeDescription: "Imported JPEG", kind: .imported)])
        #expect(database.declaration(of: .jpeg)?.typeDescription == "JPEG image")
    }

    @Test func overridingChangesConformanceAndTags() throws {
        let suffix = "uti-tests-override"
        try TypeDatabase.shared.register([
            TypeDeclaration(identifier: "com.example.\(suffix).base", conformsTo: ["public.data"], tags: [.filenameExtension: ["\(suffix)"]],
                            kind: .imported, source: "first.plist"),
        ])
        #expect(UTType(filenameExtension: suffix)?.identifier == "com.example.\(suffix).base")
        try TypeDatabase.shared.register([
            TypeDeclaration(identifier: "com.example.\(suffix).base", conformsTo: ["public.plain-text"], tags: [.filenameExtension: ["\(suffix)2"]],
                            kind: .imported, source: "second.plist"),
        ])
        let type = try #require(UTType("com.example.\(suffix).base"))
        #expect(type.conforms(to: .plainText), "the later declaration is in force")
        #expect(UTType(filenameExtension: "\(suffix)2") == type)
        #expect(UTType(filenameExtension: suffix)?.isDynamic == true, "the replaced declaration's tags are gone")
        TypeDatabase.shared.unregisterDeclarations(fromSource: "second.plist")
        #expect(UTType(filenameExtension: suffix) == type, "unregistering brings the earlier one back")
        TypeDatabase.shared.unregisterDeclarations(fromSource: "first.plist")
    }

    @Test func aDirectoryOfDeclarationFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write(declarationPlist(exported: [entry("com.example.uti-tests.dir-a", extensions: ["utida"])]), to: "a.plist")
        try directory.write(declarationPlist(imported: [entry("com.example.uti-tests.dir-b", extensions: ["utidb"])]), to: "b.plist")
        try directory.write("ignored", to: "notes.txt")
        let database = TypeDatabase(includingBuiltInTypes: false)
        let types = try database.registerDeclarations(inDirectory: directory.url.path)
        #expect(types.map(\.identifier) == ["com.example.uti-tests.dir-a", "com.example.uti-tests.dir-b"])
        #expect(database.declarations.count == 2)
    }
}
