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
