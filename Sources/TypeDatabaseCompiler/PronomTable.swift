#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// `TypeDB/pronom.json`, as `make-typedb.py` writes it from DROID's two files: PRONOM's formats and their
/// internal signatures (byte sequences as DROID publishes them: anchored sequences, fragments beside them),
/// and the container signatures (ZIP entry paths and OLE2 stream names with PRONOM patterns to find in them).
package struct PronomTable: Decodable, Sendable {
    package struct SignatureFile: Decodable, Sendable {
        package var version: Int
        package var dateCreated: String
    }

    package struct ContainerFile: Decodable, Sendable {
        package var version: Int
    }

    package struct Format: Decodable, Sendable {
        package var puid: String
        package var name: String
        package var version: String
        package var mimeTypes: [String]
        package var extensions: [String]
        package var signatures: [Int]
        package var priorityOver: [String]
    }

    package struct Fragment: Decodable, Sendable {
        package var position: Int
        package var minOffset: Int
        package var maxOffset: Int
        package var bytes: String
    }

    package struct Subsequence: Decodable, Sendable {
        package var position: Int
        package var minOffset: Int
        package var maxOffset: Int?
        /// DROID's anchor: hex only (internal signatures).
        package var sequence: String?
        /// A whole PRONOM pattern (container signatures).
        package var pattern: String?
        package var left: [Fragment]?
        package var right: [Fragment]?
    }

    package struct ByteSequence: Decodable, Sendable {
        /// `BOF`, `EOF` or `VAR`.
        package var anchor: String
        package var subsequences: [Subsequence]
    }

    package struct Signature: Decodable, Sendable {
        package var id: Int
        package var sequences: [ByteSequence]
    }

    package struct ContainerEntry: Decodable, Sendable {
        package var path: String
        package var sequences: [ByteSequence]
    }

    package struct ContainerSignature: Decodable, Sendable {
        package var id: Int
        /// `ZIP` or `OLE2`.
        package var container: String
        package var description: String
        package var files: [ContainerEntry]
    }

    package struct ContainerFormat: Decodable, Sendable {
        package var puid: String
        package var signature: Int
    }

    package var signatureFile: SignatureFile
    package var containerFile: ContainerFile
    package var formats: [Format]
    package var signatures: [Signature]
    package var containerSignatures: [ContainerSignature]
    package var containerFormats: [ContainerFormat]
}

/// A PRONOM pattern that cannot be compiled, named by where it is.
package struct PronomPatternError: Error, CustomStringConvertible {
    package var place: String
    package var problem: String
    package var description: String { "PRONOM \(place): \(problem)" }
}

/// PRONOM's patterns compiled into the flat tables `pronom.c` holds and FileIdentification's PRONOM engine reads
/// in place (the layout is `PronomLayout`'s, in CTypeDatabase.h's words).
///
/// A signature is byte sequences, all of which must match. A byte sequence is anchored at the beginning of the
/// file (`BOF`), its end (`EOF`) or nowhere (`VAR`), and is subsequences in order. A subsequence is elements in
/// the file's order, each a gap from the one before it (`min...max`, unbounded when `max` is `UInt32.max`) and
/// alternatives of fixed length, each a run of tests of bytes. The first subsequence's place is counted from its
/// anchor (its first byte from the beginning, its last byte from the end); the others' from the one before it.
package struct PronomCompiler {
    package enum TestKind: UInt32 {
        case literal = 0, notLiteral, range, notRange, maskAll, notMaskAll, maskAny, notMaskAny, any
    }

    package static let unbounded = UInt32.max

    package var tests: [UInt32] = []          // kind, length, byte offset
    package var alternatives: [UInt32] = []   // first test, test count, length in bytes
    package var elements: [UInt32] = []       // first alternative, alternative count, gap min, gap max
    package var subsequences: [UInt32] = []   // first element, element count, offset min, offset max
    package var sequences: [UInt32] = []      // first subsequence, subsequence count, anchor (0 BOF, 1 EOF, 2 VAR)
    package var signatures: [UInt32] = []     // first sequence, sequence count, signature ID
    package var containerSignatures: [UInt32] = [] // kind (0 ZIP, 1 OLE2), first entry, entry count, ID
    package var containerEntries: [UInt32] = []    // path (string), first sequence, sequence count
    package var formats: [UInt32] = []        // puid, name, version, MIME type (strings), first extension ref, count,
                                              // first priority ref, count, first signature ref, count,
                                              // first container signature ref, count
    package var references: [UInt32] = []
    package var bytes: [UInt8] = []
    package var strings: [UInt8] = []
    private var stringOffsets: [String: UInt32] = [:]

    package init(_ table: PronomTable) throws(PronomPatternError) {
        var signatureIndex: [Int: Int] = [:]
        for signature in table.signatures {
            signatureIndex[signature.id] = signatures.count / 3
            let first = sequences.count / 3
            for sequence in signature.sequences {
                try add(sequence, place: "signature \(signature.id)", isInternal: true)
            }
            signatures += [UInt32(first), UInt32(signature.sequences.count), UInt32(signature.id)]
        }
        var containerIndex: [Int: Int] = [:]
        for container in table.containerSignatures {
            containerIndex[container.id] = containerSignatures.count / 4
            let firstEntry = containerEntries.count / 3
            for entry in container.files {
                let first = sequences.count / 3
                for sequence in entry.sequences {
                    try add(sequence, place: "container signature \(container.id) (\(entry.path))", isInternal: false)
                }
                containerEntries += [string(entry.path), UInt32(first), UInt32(entry.sequences.count)]
            }
            containerSignatures += [container.container == "OLE2" ? 1 : 0, UInt32(firstEntry), UInt32(container.files.count), UInt32(container.id)]
        }
        var formatIndex: [String: Int] = [:]
        for (index, format) in table.formats.enumerated() { formatIndex[format.puid] = index }
        var containersOf: [String: [Int]] = [:]
        for mapping in table.containerFormats {
            guard let index = containerIndex[mapping.signature] else {
                throw PronomPatternError(place: mapping.puid, problem: "container signature \(mapping.signature) is not in the table")
            }
            containersOf[mapping.puid, default: []].append(index)
        }
        for format in table.formats {
            let extensions = format.extensions.map { string($0) }
            let priorities = try format.priorityOver.map { (puid) throws(PronomPatternError) -> UInt32 in
                guard let index = formatIndex[puid] else {
                    throw PronomPatternError(place: format.puid, problem: "priority over \(puid), which the table does not hold")
                }
                return UInt32(index)
            }
            let ownSignatures = try format.signatures.map { (id) throws(PronomPatternError) -> UInt32 in
                guard let index = signatureIndex[id] else {
                    throw PronomPatternError(place: format.puid, problem: "signature \(id) is not in the table")
                }
                return UInt32(index)
            }
            let containers = (containersOf[format.puid] ?? []).map { UInt32($0) }
            formats += [string(format.puid), string(format.name), string(format.version),
                        format.mimeTypes.first.map { string($0) } ?? Self.unbounded]
            for list in [extensions, priorities, ownSignatures, containers] {
                formats += [UInt32(references.count), UInt32(list.count)]
                references += list
            }
        }
    }

    private mutating func string(_ text: String) -> UInt32 {
        if let offset = stringOffsets[text] { return offset }
        let offset = UInt32(strings.count)
        strings += Array(text.utf8) + [0]
        stringOffsets[text] = offset
        return offset
    }

    private mutating func add(_ sequence: PronomTable.ByteSequence, place: String, isInternal: Bool) throws(PronomPatternError) {
        let anchor: UInt32
        switch sequence.anchor {
        case "BOF": anchor = 0
        case "EOF": anchor = 1
        case "VAR": anchor = 2
        default: throw PronomPatternError(place: place, problem: "an anchor \(sequence.anchor)")
        }
        let first = subsequences.count / 4
        for (number, sub) in sequence.subsequences.enumerated() {
            var elements: [Element]
            if isInternal {
                guard let anchorText = sub.sequence else {
                    throw PronomPatternError(place: place, problem: "a subsequence with no sequence")
                }
                elements = try Self.parse(anchorText, place: place)
                try Self.addFragments(sub.left ?? [], left: true, to: &elements, place: place)
                try Self.addFragments(sub.right ?? [], left: false, to: &elements, place: place)
            } else {
                guard let pattern = sub.pattern else {
                    throw PronomPatternError(place: place, problem: "a subsequence with no pattern")
                }
                elements = try Self.parse(pattern, place: place)
            }
            // The window: from the anchor for the first subsequence (a missing maximum is the minimum, except
            // for a floating sequence), from the one before for the others (a missing maximum is no bound).
            var low = UInt32(sub.minOffset)
            var high = sub.maxOffset.map { UInt32(max($0, sub.minOffset)) }
                ?? (number == 0 && anchor != 2 ? low : Self.unbounded)
            // A pattern that starts (or, counted from the end, finishes) with a gap moves its window.
            // (From the end, only a gap after the last element counts: an element's own gap lies before it.)
            let edge = anchor == 1 ? elements.last.flatMap { $0.isTrailingGap ? $0 : nil } : elements.first
            if let edge, edge.gapMin != 0 || edge.gapMax != 0 || edge.isTrailingGap {
                low += edge.gapMin
                high = high == Self.unbounded || edge.gapMax == Self.unbounded ? Self.unbounded : high + edge.gapMax
                if anchor == 1 {
                    if edge.isTrailingGap { elements.removeLast() }
                } else {
                    elements[0].gapMin = 0
                    elements[0].gapMax = 0
                }
            }
            guard !elements.isEmpty, !elements.contains(where: \.isTrailingGap) else {
                throw PronomPatternError(place: place, problem: "a subsequence with nothing to match, or one that ends in a gap")
            }
            subsequences += [UInt32(self.elements.count / 4), UInt32(elements.count), low, high]
            for element in elements {
                let firstAlternative = alternatives.count / 3
                for alternative in element.alternatives {
                    let firstTest = tests.count / 3
                    var length: UInt32 = 0
                    for test in alternative {
                        tests += [test.kind.rawValue, UInt32(test.length), UInt32(bytes.count)]
                        bytes += test.bytes
                        length += UInt32(test.length)
                    }
                    alternatives += [UInt32(firstTest), UInt32(alternative.count), length]
                }
                self.elements += [UInt32(firstAlternative), UInt32(element.alternatives.count), element.gapMin, element.gapMax]
            }
        }
        sequences += [UInt32(first), UInt32(sequence.subsequences.count), anchor]
    }

    /// DROID's fragments beside an anchor: fragments of one position are alternatives; a left fragment's gap is
    /// between its end and what is right of it, a right fragment's between what is left of it and its start.
    private static func addFragments(_ fragments: [PronomTable.Fragment], left: Bool, to elements: inout [Element], place: String) throws(PronomPatternError) {
        let positions = Set(fragments.map(\.position)).sorted()
        for position in positions {
            let group = fragments.filter { $0.position == position }
            var alternatives: [[Test]] = []
            for fragment in group {
                let parsed = try parse(fragment.bytes, place: place)
                guard parsed.count == 1, parsed[0].gapMin == 0, parsed[0].gapMax == 0 else {
                    throw PronomPatternError(place: place, problem: "a fragment with a gap: \(fragment.bytes)")
                }
                alternatives += parsed[0].alternatives
            }
            guard let offsets = group.first, group.allSatisfy({ $0.minOffset == offsets.minOffset && $0.maxOffset == offsets.maxOffset }) else {
                throw PronomPatternError(place: place, problem: "fragments of one position with different offsets")
            }
            let gapMin = UInt32(offsets.minOffset), gapMax = UInt32(max(offsets.maxOffset, offsets.minOffset))
            if left {
                // The gap lies right of the fragment: it becomes the gap before the element now first.
                elements[0].gapMin = gapMin
                elements[0].gapMax = gapMax
                elements.insert(Element(gapMin: 0, gapMax: 0, alternatives: alternatives), at: 0)
            } else {
                elements.append(Element(gapMin: gapMin, gapMax: gapMax, alternatives: alternatives))
            }
        }
    }

    package struct Test: Equatable {
        package var kind: TestKind
        package var length: Int
        package var bytes: [UInt8]
    }

    /// A gap, then one of `alternatives` (none: a gap that ends the pattern).
    package struct Element {
        package var gapMin: UInt32
        package var gapMax: UInt32
        package var alternatives: [[Test]]
        var isTrailingGap: Bool { alternatives.isEmpty }
    }

    /// A PRONOM pattern: hex pairs, `'quoted text'`, `??`, `[xx:yy]` and `['a'-'z']` ranges, `[!...]`
    /// negations, `[&xx]` and `[~xx]` masks (every bit, any bit), `(a|b)` alternatives of fixed length, and
    /// gaps `{n}`, `{n-m}`, `{n-*}`, `*`.
    package static func parse(_ text: String, place: String) throws(PronomPatternError) -> [Element] {
        var parser = Parser(bytes: Array(text.utf8), place: place)
        return try parser.pattern()
    }

    private struct Parser {
        var bytes: [UInt8]
        var index = 0
        var place: String

        func fail(_ problem: String) -> PronomPatternError {
            PronomPatternError(place: place, problem: "\(problem) at \(index) in \(String(decoding: bytes, as: UTF8.self))")
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        var next: UInt8? {
            mutating get {
                skipSpace()
                return index < bytes.count ? bytes[index] : nil
            }
        }

        mutating func pattern() throws(PronomPatternError) -> [Element] {
            var elements: [Element] = []
            var gapMin: UInt32 = 0, gapMax: UInt32 = 0
            var run: [Test] = []
            func flush() {
                guard !run.isEmpty else { return }
                elements.append(Element(gapMin: gapMin, gapMax: gapMax, alternatives: [run]))
                run = []
                gapMin = 0
                gapMax = 0
            }
            while let byte = next {
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "*"):
                    flush()
                    let (low, high) = try gap()
                    gapMin += low
                    gapMax = gapMax == PronomCompiler.unbounded || high == PronomCompiler.unbounded ? PronomCompiler.unbounded : gapMax + high
                case UInt8(ascii: "("):
                    flush()
                    index += 1
                    var alternatives: [[Test]] = []
                    var current: [Test] = []
                    while true {
                        guard let inner = next else { throw fail("an unclosed (") }
                        if inner == UInt8(ascii: "|") || inner == UInt8(ascii: ")") {
                            index += 1
                            guard !current.isEmpty else { throw fail("an empty alternative") }
                            alternatives.append(current)
                            current = []
                            if inner == UInt8(ascii: ")") { break }
                        } else {
                            append(try fixed(), to: &current)
                        }
                    }
                    elements.append(Element(gapMin: gapMin, gapMax: gapMax, alternatives: alternatives))
                    gapMin = 0
                    gapMax = 0
                default:
                    append(try fixed(), to: &run)
                }
            }
            flush()
            if gapMin != 0 || gapMax != 0 {
                elements.append(Element(gapMin: gapMin, gapMax: gapMax, alternatives: []))
            }
            return elements
        }

        /// Consecutive literals are one test.
        func append(_ test: Test, to run: inout [Test]) {
            if test.kind == .literal, let last = run.last, last.kind == .literal {
                run[run.count - 1].bytes += test.bytes
                run[run.count - 1].length += test.length
            } else {
                run.append(test)
            }
        }

        mutating func gap() throws(PronomPatternError) -> (UInt32, UInt32) {
            if bytes[index] == UInt8(ascii: "*") {
                index += 1
                return (0, PronomCompiler.unbounded)
            }
            index += 1
            let low = try number()
            var high = low
            if next == UInt8(ascii: "-") {
                index += 1
                if next == UInt8(ascii: "*") {
                    index += 1
                    high = PronomCompiler.unbounded
                } else {
                    high = try number()
                }
            }
            guard next == UInt8(ascii: "}") else { throw fail("a gap without }") }
            index += 1
            guard high >= low else { throw fail("a gap whose maximum is below its minimum") }
            return (low, high)
        }

        mutating func number() throws(PronomPatternError) -> UInt32 {
            skipSpace()
            var value: UInt64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + UInt64(bytes[index] - 0x30)
                guard value < UInt64(UInt32.max) else { throw fail("a number too large") }
                index += 1
            }
            guard index > start else { throw fail("a number expected") }
            return UInt32(value)
        }

        /// One fixed-length item: hex pairs, quoted text, `??` or a bracket.
        mutating func fixed() throws(PronomPatternError) -> Test {
            guard let byte = next else { throw fail("a pattern that ends early") }
            switch byte {
            case UInt8(ascii: "?"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?") else { throw fail("a lone ?") }
                index += 2
                return Test(kind: .any, length: 1, bytes: [])
            case UInt8(ascii: "'"):
                return Test(kind: .literal, length: 0, bytes: []).with(try value())
            case UInt8(ascii: "["):
                index += 1
                var negated = false
                if next == UInt8(ascii: "!") {
                    negated = true
                    index += 1
                }
                let test: Test
                if let mark = next, mark == UInt8(ascii: "&") || mark == UInt8(ascii: "~") {
                    index += 1
                    let mask = try value()
                    guard mask.count == 1 else { throw fail("a mask of more than one byte") }
                    let kind: TestKind = mark == UInt8(ascii: "&") ? (negated ? .notMaskAll : .maskAll) : (negated ? .notMaskAny : .maskAny)
                    test = Test(kind: kind, length: 1, bytes: mask)
                } else {
                    let low = try value()
                    if let separator = next, separator == UInt8(ascii: ":") || separator == UInt8(ascii: "-") {
                        index += 1
                        let high = try value()
                        guard high.count == low.count, !low.isEmpty, !high.lexicographicallyPrecedes(low) else {
                            throw fail("a range whose ends differ in length or order")
                        }
                        test = Test(kind: negated ? .notRange : .range, length: low.count, bytes: low + high)
                    } else {
                        guard !low.isEmpty else { throw fail("an empty bracket") }
                        test = Test(kind: negated ? .notLiteral : .literal, length: low.count, bytes: low)
                    }
                }
                guard next == UInt8(ascii: "]") else { throw fail("a bracket without ]") }
                index += 1
                return test
            default:
                let run = try value()
                return Test(kind: .literal, length: run.count, bytes: run)
            }
        }

        /// Hex pairs or one quoted text.
        mutating func value() throws(PronomPatternError) -> [UInt8] {
            guard let first = next else { throw fail("a value expected") }
            if first == UInt8(ascii: "'") {
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "'") { index += 1 }
                guard index < bytes.count else { throw fail("an unclosed quote") }
                let text = Array(bytes[start..<index])
                index += 1
                return text
            }
            var out: [UInt8] = []
            while index + 1 < bytes.count, let high = Self.hex(bytes[index]), let low = Self.hex(bytes[index + 1]) {
                out.append(high << 4 | low)
                index += 2
            }
            guard !out.isEmpty else { throw fail("hex expected") }
            return out
        }

        static func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
    }
}

extension PronomCompiler.Test {
    fileprivate func with(_ literal: [UInt8]) -> Self {
        Self(kind: .literal, length: literal.count, bytes: literal)
    }
}

extension TypeDBDirectory {
    /// PRONOM's table of a TypeDB directory.
    package static func pronom(in directory: String) throws -> PronomTable {
        try decodeTable(PronomTable.self, from: directory + "/pronom.json")
    }
}

extension CSource {
    /// `Sources/CTypeDatabase/pronom.c`: PRONOM's formats and signatures compiled (`PronomCompiler`), as tables of
    /// 32-bit words the library reads in place.
    package static func pronom(_ table: PronomTable) throws -> String {
        let compiled = try PronomCompiler(table)
        var lines = header(from: "TypeDB/pronom.json", include: "CTypeDatabase.h", about: [
            "PRONOM's formats and their internal and container signatures (DROID signature file V\(table.signatureFile.version),",
            "container signature file V\(table.containerFile.version)), compiled into the tables CTypeDatabase.h describes.",
        ])
        let tables: [(String, [UInt32])] = [
            ("tests", compiled.tests), ("alternatives", compiled.alternatives), ("elements", compiled.elements),
            ("subsequences", compiled.subsequences), ("sequences", compiled.sequences), ("signatures", compiled.signatures),
            ("container_signatures", compiled.containerSignatures), ("container_entries", compiled.containerEntries),
            ("formats", compiled.formats), ("references", compiled.references),
        ]
        for (name, words) in tables {
            lines.append("static const uint32_t \(name)[\(max(words.count, 1))] = {")
            lines += rows(words.map(Int.init), perLine: 16)
            if words.isEmpty { lines.append("    0") }
            lines += ["};", ""]
        }
        lines += array("pattern_bytes", compiled.bytes, aligned: false)
        lines += array("strings", compiled.strings, aligned: false)
        lines.append("const uint32_t *uti_pronom_words(unsigned table, size_t *count) {")
        lines.append("    switch (table) {")
        for (index, (name, words)) in tables.enumerated() {
            lines.append("    case \(index): *count = \(words.count); return \(name);")
        }
        lines += [
            "    default: *count = 0; return NULL;",
            "    }",
            "}",
            "const unsigned char *uti_pronom_bytes(size_t *count) { *count = \(compiled.bytes.count); return pattern_bytes; }",
            "const char *uti_pronom_strings(size_t *count) { *count = \(compiled.strings.count); return (const char *)strings; }",
            "unsigned uti_pronom_signature_file_version(void) { return \(table.signatureFile.version); }",
            "unsigned uti_pronom_container_file_version(void) { return \(table.containerFile.version); }",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
