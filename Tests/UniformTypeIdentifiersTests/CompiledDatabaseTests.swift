import Testing
import TypeDatabaseCompiler
@testable import UniformTypeIdentifiers

@Suite("The compiled database")
struct CompiledDatabaseTests {
    @Test("the compiled database in CTypeDatabase is up to date with TypeDB/")
    func upToDate() throws {
        let compiled = try TypeDBDirectory.compiledDatabase(in: Reference.packageRoot.appending(path: "TypeDB").path)
        #expect(compiled == CompiledTypeDatabase.builtInBytes, "run `python3 TypeDB/tools/make-typedb.py` after changing TypeDB/sources")
        #expect(TypeDatabase.shared.builtInTypeCount > 2_000)
    }

    @Test func writerAndReaderAgree() throws {
        let declarations = [
            TypeDeclaration(identifier: "test.root", typeDescription: "Root", version: 2, kind: .exported, source: "a.plist"),
            TypeDeclaration(identifier: "Test.Child", conformsTo: ["test.root"], referenceURL: "https://example.com",
                            tags: [.filenameExtension: ["chd", "CHILD"], .mimeType: ["application/x-child"]], kind: .imported, source: "b.plist"),
            TypeDeclaration(identifier: "public.child", conformsTo: ["test.root"], tags: [.filenameExtension: ["child"]], kind: .imported, source: "b.plist"),
            TypeDeclaration(identifier: "test.grandchild", conformsTo: ["test.child", "test.root"], kind: .exported, source: "b.plist"),
        ]
        var writer = CompiledTypeDatabase.Writer()
        let database = try #require(CompiledTypeDatabase(bytes: try writer.compile(declarations)))
        #expect(database.typeCount == 4)
        let child = try #require(database.typeIndex(forKey: "test.child"))
        #expect(database.declaration(ofType: child) == declarations[1])
        #expect(database.declaration(ofType: try #require(database.typeIndex(forKey: "test.root"))) == declarations[0])
        #expect(database.typeIndex(forKey: "test.none") == nil)
        let grandchild = try #require(database.typeIndex(forKey: "test.grandchild"))
        #expect(database.ancestors(ofType: grandchild).map { database.identifier(ofType: $0) } == ["Test.Child", "test.root"])
        // public.child beats Test.Child for `child` although it is declared later.
        #expect(database.typeIndices(forTagClassKey: "public.filename-extension", tagKey: "child").map { database.identifier(ofType: $0) }
                == ["public.child", "Test.Child"])
        #expect(database.typeIndices(forTagClassKey: "public.mime-type", tagKey: "application/x-child") == [child])
        #expect(database.typeIndices(forTagClassKey: "public.mime-type", tagKey: "application/x-none").isEmpty)

        // The probes: the two common classes by their id in the header, another class and a folded identifier.
        for (tagClass, tag, expected) in [("public.filename-extension", "CHD", child), ("PUBLIC.MIME-TYPE", "Application/X-Child", child),
                                          ("public.filename-extension", "none", nil)] as [(String, String, Int?)] {
            let probe = database.probe(forTagClass: tagClass)
            let found = Array(tag.utf8).withUnsafeBytes { bytes -> Int? in
                guard let hash = CompiledTypeDatabase.asciiTagHash(probe, tag: bytes) else { return nil }
                return database.firstTypeIndex(probe, tag: bytes, hash: hash, conformingTo: nil)
            }
            #expect(found == expected, "\(tagClass) \(tag)")
            #expect(database.firstTypeIndex(tagClass: tagClass, tag: tag, conformingTo: nil) == expected)
        }
        let probe = database.probe(forTagClass: "public.filename-extension")
        for invalid in ["", "a.b", "a/b", "a\0b", "caf\u{E9}"] {
            #expect(Array(invalid.utf8).withUnsafeBytes { CompiledTypeDatabase.asciiTagHash(probe, tag: $0) } == nil, "\(invalid)")
        }
        #expect(database.typeIndex(foldingASCII: "TEST.CHILD") == child)
        #expect(database.typeIndex(foldingASCII: "test.none") == nil)
        #expect(database.typeIndex(foldingASCII: "test.ch\u{130}ld") == nil)
    }

    @Test("a database whose declarations name no MIME type finds none, by probe or by name")
    func aDatabaseWithoutAClass() throws {
        var writer = CompiledTypeDatabase.Writer()
        let database = try #require(CompiledTypeDatabase(bytes: try writer.compile([
            TypeDeclaration(identifier: "test.only", tags: [.filenameExtension: ["only"], UTTagClass(rawValue: "com.example.code"): ["X1"]]),
        ])))
        let probe = database.probe(forTagClass: "public.mime-type")
        let found = Array("only".utf8).withUnsafeBytes { bytes -> Int? in
            guard let hash = CompiledTypeDatabase.asciiTagHash(probe, tag: bytes) else { return nil }
            return database.firstTypeIndex(probe, tag: bytes, hash: hash, conformingTo: nil)
        }
        #expect(found == nil)
        #expect(database.firstTypeIndex(tagClass: "public.mime-type", tag: "only", conformingTo: nil) == nil)
        #expect(database.firstTypeIndex(tagClass: "public.filename-extension", tag: "ONLY", conformingTo: nil) == 0)
        #expect(database.firstTypeIndex(tagClass: "com.example.CODE", tag: "x1", conformingTo: nil) == 0)
    }

    @Test func theCompilerRefusesCyclesAndUndeclaredParents() throws {
        var writer = CompiledTypeDatabase.Writer()
        #expect(throws: TypeDeclarationError.self) {
            try writer.compile([TypeDeclaration(identifier: "a.b", conformsTo: ["a.c"]), TypeDeclaration(identifier: "a.c", conformsTo: ["a.b"])])
        }
        var other = CompiledTypeDatabase.Writer()
        #expect(throws: TypeDeclarationError.self) {
            try other.compile([TypeDeclaration(identifier: "a.b", conformsTo: ["a.missing"])])
        }
    }
}
