import Testing
import UniformTypeIdentifiers

@Suite("Tag lookups")
struct TagLookupTests {
    @Test func extensionsAreCaseInsensitive() {
        #expect(UTType(filenameExtension: "JPG") == .jpeg)
        #expect(UTType(filenameExtension: "jPeG") == .jpeg)
        #expect(UTType(filenameExtension: "txt") == .plainText)
        #expect(UTType(mimeType: "IMAGE/JPEG") == .jpeg)
        #expect(UTType(mimeType: "application/pdf") == .pdf)
    }

    @Test func aTagWithADotIsInvalid() {
        #expect(UTType(filenameExtension: "tar.gz") == nil)
        #expect(UTType(filenameExtension: "") == nil)
        #expect(UTType.types(tag: "tar.gz", tagClass: .filenameExtension, conformingTo: nil).isEmpty)
    }

    @Test func conformanceFiltersCandidates() throws {
        // `app` names both the bundle (a directory) and com.apple.application-file (data).
        let all = UTType.types(tag: "app", tagClass: .filenameExtension, conformingTo: nil)
        #expect(all.first?.identifier == "com.apple.application-bundle")
        #expect(UTType(filenameExtension: "app", conformingTo: .data)?.identifier == "com.apple.application-file")
        #expect(UTType(filenameExtension: "app", conformingTo: .bundle)?.identifier == "com.apple.application-bundle")
        // A type that claims the tag but does not conform gives way to a dynamic type.
        let dynamic = try #require(UTType(filenameExtension: "jpg", conformingTo: .audio))
        #expect(dynamic.isDynamic)
        #expect(dynamic.conforms(to: .audio))
        #expect(dynamic.tags[.filenameExtension] == ["jpg"])
    }

    @Test func preferredTags() {
        #expect(UTType.jpeg.preferredFilenameExtension == "jpeg")
        #expect(UTType.jpeg.preferredMIMEType == "image/jpeg")
        #expect(UTType.plainText.preferredFilenameExtension == "txt")
        #expect(UTType.item.preferredFilenameExtension == nil)
    }

    @Test func typesListsEveryClaimantBestFirst() {
        let plist = UTType.types(tag: "plist", tagClass: .filenameExtension, conformingTo: nil).map(\.identifier)
        #expect(plist.first == "com.apple.property-list")
        #expect(plist.contains("com.apple.xml-property-list"))
        #expect(plist.contains("com.apple.binary-property-list"))
    }
}

/// The lock-free paths (`UTType(tag:tagClass:conformingTo:)` on the compiled index alone, `conforms(to:)` on
/// precomputed ancestors) agree with the general ones on every built-in type. An answer taken while another
/// test registered declarations (the generation moved) is not compared.
@Suite("Lock-free lookups agree with the general ones")
struct LockFreeLookupTests {
    /// The built-in declarations, from a database of its own: other tests register and unregister
    /// declarations in the shared one while these run, and a type listed there may be gone a moment later.
    static let builtIn = TypeDatabase().declarations

    static let supertypes: [UTType] = [.item, .content, .data, .text, .plainText, .image, .audio, .movie, .archive,
                                       .sourceCode, .script, .xml, .json, .package, .directory, .executable, .font,
                                       .compositeContent, .presentation, .spreadsheet]

    @Test("UTType(filenameExtension:) and (mimeType:), in any case, with and without a supertype")
    func tags() {
        var compared = 0
        for declaration in Self.builtIn.prefix(20_000) {
            for (tagClass, tags) in declaration.tags where tagClass == .filenameExtension || tagClass == .mimeType {
                for tag in tags.prefix(3) {
                    for (spelling, supertype) in [(tag, nil), (tag.uppercased(), nil), (tag, UTType.data), (tag, UTType.text)] as [(String, UTType?)] {
                        let generation = TypeDatabase.shared.generation
                        let fast = UTType(tag: spelling, tagClass: tagClass, conformingTo: supertype)
                        let general = UTType.types(tag: spelling, tagClass: tagClass, conformingTo: supertype).first
                        guard TypeDatabase.shared.generation == generation else { continue }
                        #expect(fast == general, "\(tagClass.rawValue) \(spelling) conforming to \(supertype?.identifier ?? "-")")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 10_000)
    }

    @Test("with declarations registered, the compiled index answers a tag no registration claims, and only such a tag")
    func tagsWithRegistrations() throws {
        let source = "TagLookupTests.tagsWithRegistrations"
        defer { TypeDatabase.shared.unregisterDeclarations(fromSource: source) }
        _ = try TypeDatabase.shared.register([
            TypeDeclaration(identifier: "com.example.lookup-registered", conformsTo: ["public.data"],
                            tags: [.filenameExtension: ["lookupregistered"], .mimeType: ["application/x-lookup-registered"]],
                            kind: .exported, source: source),
        ])
        #expect(UTType(filenameExtension: "LookupRegistered")?.identifier == "com.example.lookup-registered")
        #expect(UTType(mimeType: "application/x-lookup-registered")?.identifier == "com.example.lookup-registered")
        #expect(UTType(tag: "lookupregistered", tagClass: .filenameExtension, conformingTo: .text)?.isDynamic == true)
        var compared = 0
        for declaration in Self.builtIn.prefix(3_000) {
            for tag in declaration.tags[.filenameExtension]?.prefix(2) ?? [] {
                let generation = TypeDatabase.shared.generation
                let fast = UTType(filenameExtension: tag)
                let general = UTType.types(tag: tag, tagClass: .filenameExtension, conformingTo: .data).first
                guard TypeDatabase.shared.generation == generation else { continue }
                #expect(fast == general, "\(tag)")
                compared += 1
            }
        }
        #expect(compared > 500)
        // declaredTypes(tag:tagClass:) on the compiled index (an ASCII tag in any case) and through the overlay.
        var listed = 0
        for declaration in Self.builtIn.prefix(3_000) {
            for (tagClass, tags) in declaration.tags {
                for tag in tags.prefix(2) {
                    for spelling in [tag, tag.uppercased()] {
                        let generation = TypeDatabase.shared.generation
                        let fast = TypeDatabase.shared.declaredTypes(tag: spelling, tagClass: tagClass)
                        let general = UTType.types(tag: spelling, tagClass: tagClass, conformingTo: nil).filter { !$0.isDynamic }
                        guard TypeDatabase.shared.generation == generation else { continue }
                        #expect(fast == general, "\(tagClass.rawValue) \(spelling)")
                        listed += 1
                    }
                }
            }
        }
        #expect(listed > 1_000)
        #expect(TypeDatabase.shared.declaredTypes(tag: "LOOKUPREGISTERED", tagClass: .filenameExtension).map(\.identifier)
                == ["com.example.lookup-registered"])
    }

    @Test("the preferred extension and MIME type are the first of the type's tags, for every built-in type")
    func preferredTags() throws {
        var compared = 0
        for declaration in Self.builtIn {
            let type = try #require(UTType(declaration.identifier))
            let generation = TypeDatabase.shared.generation
            let (mime, ext) = (type.preferredMIMEType, type.preferredFilenameExtension)
            guard TypeDatabase.shared.generation == generation else { continue }
            #expect(mime == type.tags(of: .mimeType).first, "\(type.identifier)")
            #expect(ext == type.tags(of: .filenameExtension).first, "\(type.identifier)")
            compared += 1
        }
        #expect(compared > 3_000)
    }

    @Test("UTType(_:) finds every built-in type in any ASCII case, as its declaration spells it")
    func identifiers() throws {
        var compared = 0
        for declaration in Self.builtIn.prefix(20_000) {
            for spelling in [declaration.identifier, declaration.identifier.uppercased()] {
                let generation = TypeDatabase.shared.generation
                let type = UTType(spelling)
                guard TypeDatabase.shared.generation == generation else { continue }
                #expect(type?.identifier == declaration.identifier, "\(spelling)")
                compared += 1
            }
        }
        #expect(compared > 5_000)
    }

    @Test("the identifier cache gives one string per type however many threads make it at once")
    func identifiersMadeConcurrently() async {
        let cache = IdentifierCache(count: 64)
        let answers = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<64).map { index in cache.identifier(ofType: index) { "com.example.made-concurrently.\(index)" } }
                }
            }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        let expected = (0..<64).map { "com.example.made-concurrently.\($0)" }
        #expect(answers.count == 8)
        for answer in answers { #expect(answer == expected) }
        // Once made, a slot keeps its string: a later maker is not asked.
        #expect(cache.identifier(ofType: 3) { "other" } == expected[3])
    }

    @Test("conforms(to:) is the supertypes' membership, for every built-in type")
    func conformance() throws {
        var compared = 0
        for declaration in Self.builtIn {
            let type = try #require(UTType(declaration.identifier))
            let generation = TypeDatabase.shared.generation
            let supertypes = type.supertypes
            for supertype in Self.supertypes {
                let answer = type.conforms(to: supertype)
                guard TypeDatabase.shared.generation == generation else { continue }
                #expect(answer == (type == supertype || supertypes.contains(supertype)), "\(type.identifier) -> \(supertype.identifier)")
                compared += 1
            }
        }
        #expect(compared > 50_000)
    }
}
