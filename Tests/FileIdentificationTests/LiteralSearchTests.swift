import Testing
@testable import FileIdentification

/// A fixed generator (a linear congruential one): the same numbers every run.
private struct Seeded {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    /// A number from 0 to `bound` - 1.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % bound
    }
}

/// The search every reader's literals go through (CByteScan's `uti_find_literal`, by way of
/// `TextAnalysis.firstOffset`): 32 or 16 places at a time by a needle's first and last bytes, then place by
/// place at the end. Checked against the plain definition (the first place the needle's bytes are), on bytes
/// made so that near misses are everywhere: a small alphabet, needles of every length around the vector
/// widths, hits at the first place, the last place, across the vector and tail boundaries, and none.
@Suite("Searching bytes for a literal")
struct LiteralSearchTests {
    /// The first place `needle` is in `haystack` at or after `start`, one place at a time.
    private func plainSearch(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, needle.count <= haystack.count - start else { return nil }
        return (start...(haystack.count - needle.count)).first { place in haystack[place..<(place + needle.count)].elementsEqual(needle) }
    }

    private func search(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        haystack.withUnsafeBufferPointer { TextAnalysis.firstOffset(of: needle, in: $0, from: start) }
    }

    @Test("the first place, as a search one place at a time finds it, for needles of 1 to 40 bytes")
    func agreesWithThePlainSearch() {
        var random = Seeded(0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let alphabet: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "/"), 0x00, 0xFF]
        var compared = 0, found = 0
        for _ in 0..<3_000 {
            let haystack = (0..<next(200)).map { _ in alphabet[next(alphabet.count)] }
            var needle = (0..<(1 + next(40))).map { _ in alphabet[next(alphabet.count)] }
            // Half the needles taken from the haystack, so that most of those are there (often more than once).
            if next(2) == 0, !haystack.isEmpty {
                let from = next(haystack.count)
                needle = Array(haystack[from..<min(haystack.count, from + 1 + next(40))])
            }
            // From the start half the time, else from anywhere.
            let start = next(2) == 0 ? 0 : next(max(1, haystack.count))
            let expected = plainSearch(needle, in: haystack, from: start)
            #expect(search(needle, in: haystack, from: start) == expected, "needle \(needle) in \(haystack) from \(start)")
            compared += 1
            if expected != nil { found += 1 }
        }
        // The cases are not all misses (or all hits): both ways were compared.
        #expect(compared == 3_000)
        #expect(found > 1_000 && found < 2_900)
    }

    @Test("a needle at the very end, across the last full block, or longer than what is left")
    func edges() {
        for length in [31, 32, 33, 63, 64, 65, 100] {
            var haystack = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            haystack[length - 2] = UInt8(ascii: "x")
            haystack[length - 1] = UInt8(ascii: "y")
            #expect(search([UInt8(ascii: "x"), UInt8(ascii: "y")], in: haystack, from: 0) == length - 2)
            #expect(search([UInt8(ascii: "a"), UInt8(ascii: "x"), UInt8(ascii: "y")], in: haystack, from: 0) == length - 3)
            #expect(search([UInt8(ascii: "y"), UInt8(ascii: "y")], in: haystack, from: 0) == nil)
            #expect(search(haystack + [0], in: haystack, from: 0) == nil)
            #expect(search(haystack, in: haystack, from: 0) == 0)
            #expect(search(haystack, in: haystack, from: 1) == nil)
        }
        #expect(search([], in: [1, 2, 3], from: 0) == nil)
        #expect(search([1], in: [], from: 0) == nil)
    }
}

/// The text scan every sample goes through (CByteScan's `uti_scan_text`, by way of `TextAnalysis.scan`): 32
/// bytes at a time with AVX2, 16 with SSE2, then one at a time. Checked against a count byte by byte.
@Suite("Scanning bytes for text")
struct TextScanTests {
    @Test("control characters, high bytes and NULs as a count byte by byte finds them, at every length to 200")
    func agreesWithAByteByByteCount() {
        var random = Seeded(0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { random.next(bound) }
        // Printable ASCII, the layout controls, the counted ones, high bytes and (rarely) a NUL.
        let alphabet: [UInt8] = [0x41, 0x20, 0x0A, 0x09, 0x0D, 0x0C, 0x1B, 0x08, 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var nuls = 0, highs = 0
        for round in 0..<2_000 {
            let length = round % 201
            var bytes = (0..<length).map { _ in alphabet[next(alphabet.count)] }
            if length > 0, next(10) == 0 { bytes[next(length)] = 0 }
            let counted = bytes.filter { $0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C, 0x1B, 0x08].contains($0) }.count
            let expected: (controls: Int, highBit: Bool)? = bytes.contains(0) ? nil : (counted, bytes.contains { $0 >= 0x80 })
            let scanned = bytes.withUnsafeBufferPointer(TextAnalysis.scan)
            #expect(scanned?.controls == expected?.controls && scanned?.highBit == expected?.highBit, "\(bytes)")
            if expected == nil { nuls += 1 } else if expected?.highBit == true { highs += 1 }
        }
        #expect(nuls > 100 && highs > 100)
    }
}
