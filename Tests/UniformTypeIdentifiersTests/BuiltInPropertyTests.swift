import Testing
@testable import UniformTypeIdentifiers

/// The properties of a built-in type read straight from the compiled database (supertypes, description,
/// version, reference URL, tags, the claimants of a tag) agree with what the general path (a snapshot of the
/// registered declarations, `TypeDeclaration`s, ancestors by key) makes of the same database, on every
/// built-in type. An answer taken while another test registered declarations is not compared.
@Suite("Built-in types' properties agree with the general path")
struct BuiltInPropertyTests {
    @Test func everyBuiltInType() throws {
        let database = TypeDatabase.shared
        let builtIn = try #require(database.builtIn)
        var compared = 0
        for index in 0..<builtIn.typeCount {
            let type = UTType(builtIn: builtIn, index: index)
            let generation = database.generation
            let overlay = database.snapshot
            guard !overlay.overridesBuiltIn else { continue }
            let ancestorKeys = database.ancestorKeys(ofParents: database.parentKeys(of: type.key, in: overlay), in: overlay)
            let general = (
                supertypes: ancestorKeys.compactMap { database.canonicalIdentifier(forKey: $0, in: overlay) },
                direct: database.parentKeys(of: type.key, in: overlay).compactMap { database.canonicalIdentifier(forKey: $0, in: overlay) },
                description: ([type.key] + ancestorKeys).lazy.compactMap { database.declaration(forKey: $0, in: overlay)?.typeDescription }.first,
                version: ([type.key] + ancestorKeys).lazy.compactMap { database.declaration(forKey: $0, in: overlay)?.version }.first,
                mimeTypes: database.tags(forKey: type.key, tagClass: .mimeType, in: overlay),
                extensions: database.tags(forKey: type.key, tagClass: .filenameExtension, in: overlay)
            )
            let fast = (
                supertypes: type.orderedSupertypes.map(\.identifier),
                direct: type.directSupertypes.map(\.identifier),
                description: type.localizedDescription,
                version: type.version,
                mimeTypes: type.tags(of: .mimeType),
                extensions: type.tags(of: .filenameExtension)
            )
            guard database.generation == generation else { continue }
            #expect(fast.supertypes == general.supertypes, "\(type.identifier)")
            #expect(fast.direct == general.direct, "\(type.identifier)")
            #expect(fast.description == general.description, "\(type.identifier)")
            #expect(fast.version == general.version, "\(type.identifier)")
            #expect(fast.mimeTypes == general.mimeTypes && fast.extensions == general.extensions, "\(type.identifier)")
            #expect(type.isDeclared)
            for tag in (fast.extensions + fast.mimeTypes).prefix(4) {
                let tagClass: UTTagClass = fast.extensions.contains(tag) ? .filenameExtension : .mimeType
                let claimants = database.declaredTypes(tag: tag, tagClass: tagClass).map(\.identifier)
                let candidates = database.candidates(tagClass: tagClass, tag: tag, in: overlay)
                    .compactMap { database.canonicalIdentifier(forKey: $0, in: overlay) }
                guard database.generation == generation else { continue }
                #expect(claimants == candidates, "\(tagClass.rawValue) \(tag)")
            }
            compared += 1
        }
        #expect(compared > 3_000)
    }
}
