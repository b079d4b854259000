import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// Readings, a name's evidence and an identification's evidence keep their fields in boxes that copies share
/// (copying them is a retain, not one per string): each must still behave as a value.
@Suite("evidence is a value: a copy changed leaves the original as it was")
struct EvidenceValueTests {
    @Test("a reading changed through a copy, field by field; equal readings made apart are equal and hash alike")
    func readings() {
        let original = ContentEvidence(type: .png, source: .signature, mimeType: "image/png", isConclusive: true, detail: "PNG signature")
        var copy = original
        copy.detail += " at 0"
        copy.type = .jpeg
        copy.mimeType = nil
        copy.isConclusive = false
        copy.score = 0.5
        copy.source = .libmagic
        copy.isResemblance = true
        #expect(original.detail == "PNG signature" && original.type == .png && original.mimeType == "image/png")
        #expect(original.isConclusive && original.score == nil && original.source == .signature && !original.isResemblance)
        #expect(copy.detail == "PNG signature at 0" && copy.type == .jpeg && copy.mimeType == nil && !copy.isConclusive)
        #expect(copy != original)
        let twin = ContentEvidence(type: .png, source: .signature, mimeType: "image/png", isConclusive: true, detail: "PNG signature")
        #expect(twin == original && twin.hashValue == original.hashValue)
        var resembling = twin
        resembling.isResemblance = true
        #expect(resembling != original)
        #expect(Set([original, twin, resembling]).count == 2)
    }

    @Test("a name's evidence changed through a copy: its candidates reordered, its decision named")
    func names() {
        let original = NameEvidence(filename: "a.m", match: .filenameExtension, tag: "m", candidates: [.objectiveCSource, .sourceCode])
        var copy = original
        copy.candidates.removeAll { $0 == .sourceCode }
        copy.candidates.insert(.sourceCode, at: 0)
        copy.decidedBy = "Linguist"
        copy.filename = "b.m"
        #expect(original.candidates == [.objectiveCSource, .sourceCode] && original.decidedBy == nil && original.filename == "a.m")
        #expect(copy.candidates == [.sourceCode, .objectiveCSource] && copy.decidedBy == "Linguist" && copy.filename == "b.m")
        #expect(copy != original)
        let twin = NameEvidence(filename: "a.m", match: .filenameExtension, tag: "m", candidates: [.objectiveCSource, .sourceCode])
        #expect(twin == original && twin.hashValue == original.hashValue)
    }

    @Test("an identification's evidence changed through a copy")
    func identifications() {
        let reading = ContentEvidence(type: .png, source: .signature, isConclusive: true, detail: "PNG signature")
        let original = Identification(type: .png, evidence: Evidence(name: nil, content: reading, rule: .contentOnly), confidence: .high,
                                      isMismatch: false, textEncoding: nil)
        var copy = original
        copy.evidence.rule = .nameOnly
        copy.evidence.content?.detail = "changed"
        #expect(original.evidence.rule == .contentOnly && original.evidence.content?.detail == "PNG signature")
        #expect(copy.evidence.rule == .nameOnly && copy.evidence.content?.detail == "changed")
    }
}
