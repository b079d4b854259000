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

    /// A compiled magic file of several sections, each `(priority, type, rules)` with rules
    /// `(indent, offset, value, mask, range)`.
    private func magicFile(sections: [(priority: Int, type: String, rules: [(indent: Int, offset: Int, value: [UInt8], mask: [UInt8]?, range: Int)])]) -> [UInt8] {
        var bytes = Array("MIME-Magic\0\n".utf8)
        for section in sections {
            bytes += Array("[\(section.priority):\(section.type)]\n".utf8)
            for rule in section.rules {
                bytes += Array("\(rule.indent == 0 ? "" : String(rule.indent))>\(rule.offset)=".utf8)
                bytes += [UInt8(rule.value.count >> 8), UInt8(rule.value.count & 0xFF)] + rule.value
                if let mask = rule.mask { bytes += [UInt8(ascii: "&")] + mask }
                if rule.range > 1 { bytes += Array("+\(rule.range)".utf8) }
                bytes += [0x0A]
            }
        }
        return bytes
    }

    @Test("the section index finds what trying every section finds, in the same order (random databases and data)")
    func indexAgreesWithEverySection() {
        // What a section matching means, written out plainly: a top-level rule matches at an offset in its
        // range (under its mask), and if it has children, one of them does too, recursively.
        typealias Rule = (indent: Int, offset: Int, value: [UInt8], mask: [UInt8]?, range: Int)
        var data: [UInt8] = []
        func ruleMatches(_ rule: Rule, _ data: [UInt8]) -> Bool {
            guard !rule.value.isEmpty else { return false }
            for start in rule.offset..<(rule.offset + rule.range) where start + rule.value.count <= data.count {
                if rule.value.indices.allSatisfy({ (data[start + $0] ^ rule.value[$0]) & (rule.mask?[$0] ?? 0xFF) == 0 }) { return true }
            }
            return false
        }
        func treeMatches(_ rules: ArraySlice<Rule>) -> Bool {
            guard let top = rules.first, ruleMatches(top, data) else { return false }
            var children: [ArraySlice<Rule>] = []
            var index = rules.startIndex + 1
            while index < rules.endIndex {
                var end = index + 1
                while end < rules.endIndex, rules[end].indent > rules[index].indent { end += 1 }
                children.append(rules[index..<end])
                index = end
            }
            return children.isEmpty || children.contains(where: treeMatches)
        }
        var generator = SplitMix(seed: 29)
        let alphabet: [UInt8] = Array("abcXY\0\u{1}".utf8)
        for round in 0..<300 {
            var sections: [(priority: Int, type: String, rules: [Rule])] = []
            for number in 0..<Int(generator.next() % 12 + 1) {
                var rules: [Rule] = []
                for _ in 0..<Int(generator.next() % 3 + 1) {
                    let value = (0..<Int(generator.next() % 3 + 1)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
                    // A quarter of the rules masked (the first byte case-folded, cut to its top bit, ignored or
                    // all but its lowest bit kept; the second case-folded or kept), a third searched over a range.
                    let masks: [UInt8] = [0xDF, 0x80, 0x00, 0xFE]
                    let mask: [UInt8]? = generator.next() % 4 == 0
                        ? ([masks[Int(generator.next() % 4)], generator.next() % 2 == 0 ? 0xDF : 0xFF] + Array(repeating: 0xFF, count: 2))
                            .prefix(value.count).map { $0 }
                        : nil
                    let range = generator.next() % 3 == 0 ? Int(generator.next() % 5 + 2) : 1
                    // A tenth of the rules near the end of the window the index looks for pairs in, or past it.
                    let offset = generator.next() % 10 == 0 ? FreedesktopMagic.keyedWindow - 7 + Int(generator.next() % 6) : Int(generator.next() % 6)
                    rules.append((0, offset, value, mask, range))
                    for _ in 0..<Int(generator.next() % 3) {
                        rules.append((1, Int(generator.next() % 6), [alphabet[Int(generator.next() % UInt64(alphabet.count))]], nil, 1))
                    }
                }
                sections.append((priority: [20, 50, 80][Int(generator.next() % 3)], type: "text/x-\(round)-\(number)", rules: rules))
            }
            var magic = FreedesktopMagic()
            let added = magic.add(magicFile(sections: sections))
            #expect(added)
            for _ in 0..<20 {
                // Mostly a few bytes; a fifth as long as the index's window or a little longer, the alphabet's
                // bytes scattered over a filler that matches nothing.
                let long = generator.next() % 5 == 0
                let count = long ? FreedesktopMagic.keyedWindow - 8 + Int(generator.next() % 16) : Int(generator.next() % 10)
                data = (0..<count).map { _ in
                    long && generator.next() % 8 != 0 ? UInt8(ascii: "z") : alphabet[Int(generator.next() % UInt64(alphabet.count))]
                }
                // Every section's top-level rules, each with the children indented under it.
                let expected = sections.enumerated().filter { _, section in
                    var starts = section.rules.indices.filter { section.rules[$0].indent == 0 }
                    starts.append(section.rules.endIndex)
                    return zip(starts, starts.dropFirst()).contains { treeMatches(section.rules[$0..<$1]) }
                }.sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
                    .map(\.element.type)
                #expect(magic.matches(data).map(\.mimeType) == expected, "round \(round), data \(data)")
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so that a failure reproduces.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
