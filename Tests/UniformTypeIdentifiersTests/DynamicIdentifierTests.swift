import Testing
@testable import UniformTypeIdentifiers

@Suite("Dynamic identifiers")
struct DynamicIdentifierTests {
    @Test("every observed vector encodes to Apple's identifier and decodes back")
    func vectorsRoundTrip() throws {
        let rows = try Reference.table("dyn-uti-vectors.tsv")
        #expect(rows.count >= 24)
        for row in rows {
            let payload = try #require(row["payload"]), identifier = try #require(row["dyn_identifier"])
            let parsed = try #require(DynamicTypeIdentifier(payload: payload), "payload \(payload)")
            #expect(parsed.identifier == identifier, "payload \(payload)")
            let decoded = try #require(DynamicTypeIdentifier(identifier: identifier), "\(identifier)")
            #expect(decoded.payload == payload, "\(identifier)")
        }
    }

    @Test func markdownVector() throws {
        let type = try #require(UTType("dyn.ah62d4rv4ge8043a"))
        #expect(type.isDynamic)
        #expect(!type.isDeclared)
        #expect(type.tags == [.filenameExtension: ["md"]])
        #expect(type.preferredFilenameExtension == "md")
        #expect(type.conforms(to: .data))
        #expect(type.conforms(to: .item))
        #expect(!type.conforms(to: .text))
        #expect(type.supertypes == [.data, .item])
        #expect(type.localizedDescription == nil)
    }

    @Test func unknownExtensionGivesAppleIdentifier() throws {
        // The extension is unknown to every database we build from; Apple's payload is ?0=6:1=<ext>.
        let type = try #require(UTType(filenameExtension: "kicad_pro"))
        #expect(type.identifier == "dyn.ah62d4rv4ge8004pdqfwf86dwr6")
        #expect(type.isDynamic)
        let noConformance = UTType.types(tag: "fooobaar", tagClass: .filenameExtension, conformingTo: nil)
        #expect(noConformance.map(\.identifier) == ["dyn.age80q55tr7vgc2pw"])
        let mime = UTType.types(tag: "application/x-no-such-format", tagClass: .mimeType, conformingTo: nil)
        #expect(mime.first?.tags == [.mimeType: ["application/x-no-such-format"]])
    }

    @Test func malformedDynamicIdentifiersAreRejected() {
        #expect(UTType("dyn.a") == nil)
        #expect(UTType("dyn.a!!!") == nil)
        #expect(UTType("dyn.b62d4rv4ge8043a") == nil)
        #expect(DynamicTypeIdentifier(identifier: "dyn.ah62d4rv4ge8043b") == nil, "non-zero padding bits")
        #expect(DynamicTypeIdentifier(payload: "?1=md") == nil, "? without a conformance")
        #expect(DynamicTypeIdentifier(payload: "") == nil)
    }

    @Test func reservedCharactersRoundTrip() throws {
        let dynamic = DynamicTypeIdentifier(conformsTo: ["public.data"], tags: [("public.mime-type", "text/plain;charset=x:y")])
        let decoded = try #require(DynamicTypeIdentifier(identifier: dynamic.identifier))
        #expect(decoded == dynamic)
    }
}
