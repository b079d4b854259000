import Testing
@testable import FileIdentification

@Suite("shared-mime-info's magic file is read without trusting its numbers")
struct FreedesktopMagicTests {
    /// A compiled magic file of one section holding `rules`, each `(indent, offset, value, range)`.
    private func magicFile(_ rules: [(indent: String, offset: String, value: String, range: String?)]) -> [UInt8] {
        var bytes = Array("MIME-Magic\0\n[50:text/x-test]\n".utf8)
        for rule in rules {
            let value = Array(rule.value.utf8)
            bytes += Array("\(rule.indent)>\(rule.offset)=".utf8) + [UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
            if let range = rule.range { bytes += Array("+\(range)".utf8) }
            bytes += [0x0A]
        }
        return bytes
    }

    @Test("a well-formed rule matches")
    func wellFormedRule() {
        var magic = FreedesktopMagic()
        let added = magic.add(magicFile([("", "2", "abc", "4")]))
        #expect(added)
        #expect(magic.matches(Array("xxyyabc".utf8)).map(\.mimeType) == ["text/x-test"])
        #expect(magic.matches(Array("abc".utf8)).isEmpty)
    }

    @Test("offsets and ranges past a C int make the file malformed", arguments: [
        ("9223372036854775807", "1"), ("99999999999999999999999", "1"), ("2", "9223372036854775807"),
        ("2147483648", "1"), ("0", "18446744073709551615"),
    ])
    func numbersPastAnInt(offset: String, range: String) {
        var magic = FreedesktopMagic()
        let added = magic.add(magicFile([("", offset, "a", range)]))
        #expect(!added)
        #expect(magic.matches(Array("xxa".utf8)).isEmpty)
    }

    @Test("the largest offset and range a C int holds are read, and match nothing short")
    func largestNumbers() {
        var magic = FreedesktopMagic()
        let added = magic.add(magicFile([("", "2147483647", "a", "2147483647")]))
        #expect(added)
        #expect(magic.matches(Array("xxa".utf8)).isEmpty)
    }

    @Test("rules nested past the deepest indent make the file malformed; up to it they match")
    func deepNesting() {
        let data = Array("a".utf8)
        var deepest = FreedesktopMagic()
        let added = deepest.add(magicFile((0...FreedesktopMagic.deepestIndent).map { ("\($0)", "0", "a", nil) }))
        #expect(added)
        #expect(deepest.matches(data).map(\.mimeType) == ["text/x-test"])
        // Each level would be one more recursion while matching: 100,000 would overflow the stack.
        var tooDeep = FreedesktopMagic()
        let addedTooDeep = tooDeep.add(magicFile((0..<100_000).map { ("\($0)", "0", "a", nil) }))
        #expect(!addedTooDeep)
        #expect(tooDeep.matches(data).isEmpty)
    }
}
