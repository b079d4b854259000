import Testing
import UniformTypeIdentifiers

/// Apple's rule for who may declare what: the system's declarations win over an app's, and an exported type
/// belongs to the app that exported it first. Each test has a database of its own.
@Suite("Owners of type declarations")
struct DeclarationOwnerTests {
    static func declaration(_ identifier: String, conformsTo: [String] = ["public.data"], extensions: [String] = [],
                            kind: TypeDeclaration.Kind = .exported) -> TypeDeclaration {
        TypeDeclaration(identifier: identifier, conformsTo: conformsTo, tags: extensions.isEmpty ? [:] : [.filenameExtension: extensions], kind: kind)
    }

    @Test("an app's declaration never replaces a built-in type: its conformance and its tags stay the system's")
    func appsNeverReplaceBuiltIns() throws {
        let database = TypeDatabase()
        let effective = try database.register([Self.declaration("com.compuserve.gif", extensions: ["gif"])], owner: .app("com.example.hostile"))
        #expect(effective.isEmpty)
        let gif = try #require(database.declaration(of: UTType("com.compuserve.gif") ?? .data))
        #expect(gif.conformsTo.contains("public.image"), "\(gif.conformsTo)")
        #expect(database.declaredTypes(tag: "gif", tagClass: .filenameExtension).first?.identifier == "com.compuserve.gif")
        let ignored = database.ignoredDeclarations(of: .app("COM.example.HOSTILE"))
        #expect(ignored.map(\.reason) == [.declaredBySystem], "owners compare without case")
        #expect(ignored.first?.description.hasPrefix("UTExportedTypeDeclarations: com.compuserve.gif: ignored") == true)
    }

    @Test("the system may replace a built-in type, as declaration files always could")
    func theSystemMayReplaceBuiltIns() throws {
        let database = TypeDatabase()
        try database.register([Self.declaration("com.compuserve.gif", conformsTo: ["public.data"], extensions: ["gif"])], owner: .system)
        #expect(database.declaration(of: UTType("com.compuserve.gif") ?? .data)?.conformsTo == ["public.data"])
    }

    @Test("an exported type belongs to the app that exported it first; its import by another app, or a rival export, is ignored")
    func firstExporterOwns() throws {
        let database = TypeDatabase()
        try database.register([Self.declaration("com.example.owner.sheet", extensions: ["osheet"])], owner: .app("com.example.owner"))
        try database.register([Self.declaration("com.example.owner.sheet", conformsTo: ["public.image"], extensions: ["osheet"])],
                              owner: .app("com.example.rival"))
        try database.register([Self.declaration("com.example.owner.sheet", conformsTo: ["public.text"], kind: .imported)],
                              owner: .app("com.example.importer"))
        #expect(database.declaration(of: UTType(importedAs: "com.example.owner.sheet"))?.conformsTo == ["public.data"])
        #expect(database.ignoredDeclarations(of: .app("com.example.rival")).map(\.reason) == [.exportedBy(.app("com.example.owner"))])
        #expect(database.ignoredDeclarations(of: .app("com.example.importer")).map(\.reason) == [.exportedBy(.app("com.example.owner"))])
    }

    @Test("an app's export replaces another app's import of the same type; two imports: the first stays")
    func exportsBeatImports() throws {
        let database = TypeDatabase()
        try database.register([Self.declaration("com.example.format", conformsTo: ["public.text"], kind: .imported)], owner: .app("com.example.reader"))
        try database.register([Self.declaration("com.example.format", conformsTo: ["public.json"], kind: .imported)], owner: .app("com.example.other"))
        #expect(database.declaration(of: UTType(importedAs: "com.example.format"))?.conformsTo == ["public.text"])
        #expect(database.ignoredDeclarations(of: .app("com.example.other")).map(\.reason) == [.importedBy(.app("com.example.reader"))])
        try database.register([Self.declaration("com.example.format", conformsTo: ["public.xml"])], owner: .app("com.example.maker"))
        #expect(database.declaration(of: UTType(importedAs: "com.example.format"))?.conformsTo == ["public.xml"])
        #expect(database.ignoredDeclarations(of: .app("com.example.reader")).map(\.reason) == [.exportedBy(.app("com.example.maker"))])
    }

    @Test("an app may not export a public identifier, even one the system does not declare")
    func publicIdentifiersAreTheSystems() throws {
        let database = TypeDatabase()
        try database.register([Self.declaration("public.uti-tests-invented", extensions: ["utiinv"])], owner: .app("com.example.bold"))
        #expect(database.declaredTypes(tag: "utiinv", tagClass: .filenameExtension).isEmpty)
        #expect(database.ignoredDeclarations(of: .app("com.example.bold")).map(\.reason) == [.publicIdentifier])
        // Importing one describes it, which any app may do.
        try database.register([Self.declaration("public.uti-tests-invented", extensions: ["utiinv"], kind: .imported)], owner: .app("com.example.bold"))
        #expect(database.declaredTypes(tag: "utiinv", tagClass: .filenameExtension).map(\.identifier) == ["public.uti-tests-invented"])
    }

    @Test("for a tag claimed by the system's type and an app's, the system's comes first, even when only the app's is exported")
    func theSystemsTypesComeFirstForATag() throws {
        let database = TypeDatabase()
        try database.register([Self.declaration("com.example.sketch", extensions: ["png"])], owner: .app("com.example.sketcher"))
        let claims = database.declaredTypes(tag: "png", tagClass: .filenameExtension).map(\.identifier)
        #expect(claims.first == "public.png" && claims.last == "com.example.sketch", "\(claims)")
        try database.register([Self.declaration("com.example.system-sketch", extensions: ["png"], kind: .imported)], owner: .system)
        let order = database.declaredTypes(tag: "png", tagClass: .filenameExtension).map(\.identifier)
        #expect(order.last == "com.example.sketch", "\(order)")
    }

    @Test("the system's declaration wins over an app's whatever their kinds and whichever came first")
    func theSystemWinsInAnyOrder() throws {
        for systemFirst in [true, false] {
            let database = TypeDatabase()
            let app = Self.declaration("com.example.contested", conformsTo: ["public.image"], kind: .exported)
            let system = Self.declaration("com.example.contested", conformsTo: ["public.text"], kind: .imported)
            if systemFirst {
                try database.register([system], owner: .system)
                try database.register([app], owner: .app("com.example.app"))
            } else {
                try database.register([app], owner: .app("com.example.app"))
                try database.register([system], owner: .system)
            }
            #expect(database.declaration(of: UTType(importedAs: "com.example.contested"))?.conformsTo == ["public.text"], "system first: \(systemFirst)")
            #expect(database.ignoredDeclarations(of: .app("com.example.app")).map(\.reason) == [.declaredBySystem])
        }
    }
}
