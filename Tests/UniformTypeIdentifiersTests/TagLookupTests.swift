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
    static let supertypes: [UTType] = [.item, .content, .data, .text, .plainText, .image, .audio, .movie, .archive,
                                       .sourceCode, .script, .xml, .json, .package, .directory, .executable, .font,
                                       .compositeContent, .presentation, .spreadsheet]

    @Test("UTType(filenameExtension:) and (mimeType:), in any case, with and without a supertype")
    func tags() {
        var compared = 0
        for declaration in TypeDatabase.shared.declarations.prefix(20_000) {
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

    @Test("conforms(to:) is the supertypes' membership, for every built-in type")
    func conformance() throws {
        var compared = 0
        for declaration in TypeDatabase.shared.declarations {
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
