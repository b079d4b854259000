internal import CByteScan
#if canImport(Glibc)
import Glibc
#endif

/// The content rules of the freedesktop shared-mime-info database, read from a compiled `magic` file
/// (`/usr/share/mime/magic`, or the one built in; see `SharedMIMEInfo`), as GLib's GIO uses them.
///
/// The file is `MIME-Magic\0\n`, then sections `[priority:type]\n`, each a list of rules
/// `[indent]>offset=<length: 2 bytes, big-endian><value>[&<mask>][~word-size][+range]\n`. A rule
/// matches when the value (under the mask) appears at an offset in `offset ..< offset + range`; a
/// rule indented one deeper must match too for its parent to count, and a section matches when one
/// of its top-level rules (with a matching chain of children, if it has any) does.
struct FreedesktopMagic: Sendable {
    /// One rule; its value and mask are ranges of `storage`, so that reading a file allocates little.
    struct Rule: Sendable {
        var indent: Int
        var offset: Int
        var range: Int
        var value: Range<Int>
        var mask: Range<Int>?
        /// For a top-level rule searched over a range near the start: the bytes a file must hold somewhere in
        /// the index's window for the rule to match (see `Key`); `nil` for every other rule.
        var key: Key?
    }

    /// The first bytes of a rule's value that its mask keeps whole: two (`pair`, their big-endian value) or,
    /// where the second is masked or missing, one (`byte`).
    enum Key: Hashable, Sendable {
        case pair(UInt16)
        case byte(UInt8)
    }

    struct Section: Sendable {
        var priority: Int
        var mimeType: String
        var rules: Range<Int>
        /// What a match reports (`Match.detail`), made once with the section.
        var detail: String

        init(priority: Int, mimeType: String, rules: Range<Int>) {
            self.priority = priority
            self.mimeType = mimeType
            self.rules = rules
            detail = "shared-mime-info magic: \(mimeType) (priority \(priority))"
        }
    }

    /// A matching type and the priority of its rules.
    struct Match: Sendable {
        var mimeType: String
        var priority: Int
        /// Whether every rule that matched is a lone keyword or comment opener at the start (`class`,
        /// `function`, `//`, `/*`, `%`): a resemblance whatever the priority. Older databases (2.2) give
        /// such rules priority 30 or 50 where 2.4 gives them 10; a C comment opens ld scripts and Java
        /// policies too.
        var isKeyword: Bool
        /// What the reader saw: `shared-mime-info magic: application/x-perl (priority 40)`.
        var detail: String
    }

    /// The longest value a keyword rule has (`function`).
    static let longestKeyword = 8

    private(set) var storage: [UInt8] = []
    private(set) var rules: [Rule] = []
    private(set) var sections: [Section] = []

    /// Which sections a file may match, found without trying each: a section can match only if one of its
    /// top-level rules does. A rule at one offset is placed there by the first bytes its mask lets match (most
    /// of the database compares bytes at a fixed offset); a rule searched over a range that ends within
    /// `keyedWindow` is keyed by its first bytes (`Key`), which the file must hold somewhere in its first
    /// `window` bytes. `candidateSections` reads it, and `sectionMatches` skips keyed rules whose key is absent.
    private struct SectionIndex: Sendable {
        /// One bit per section: those with a top-level rule the index neither places nor keys.
        var alwaysTried: [UInt64] = []
        /// For each offset some placed rule looks at: by the byte found there, the sections with such a rule.
        var atOffset: [(offset: Int, byFirstByte: [[Int]])] = []
        /// For each key of a keyed rule: the sections with such a rule.
        var byKey: [(key: Key, sections: [Int])] = []
        /// How many of a file's first bytes the keys are looked for in: the end of the furthest keyed rule's key.
        var window = 0
    }
    private var index = SectionIndex()

    /// The furthest a keyed rule's key may end: rules searched further (PDF's `%PDF-` within 1,024 bytes) are
    /// tried for every file, so that the keys are looked for in a few hundred bytes.
    static let keyedWindow = 512

    init() {}

    /// The largest number a magic file may hold (an offset, a range, a priority, an indent): GLib reads
    /// them as C `int`s. Bounded, so that `offset + range` cannot overflow.
    static let largestNumber = Int(Int32.max)

    /// The deepest indent a rule may have: evaluating a rule's children recurses once per level, and no
    /// shared-mime-info package nests rules more than a few levels deep.
    static let deepestIndent = 255

    /// Adds the sections of a compiled magic file whose type `include` accepts; `false` (and nothing
    /// added) when the bytes are not a magic file, or hold a number past `largestNumber` or an indent
    /// past `deepestIndent`.
    @discardableResult
    mutating func add(_ bytes: [UInt8], where include: (String) -> Bool = { _ in true }) -> Bool {
        let header = Array("MIME-Magic\0\n".utf8)
        guard bytes.starts(with: header) else { return false }
        let base = storage.count
        var added: [Section] = []
        var addedRules: [Rule] = []
        addedRules.reserveCapacity(bytes.count / 16)
        var extra: [UInt8] = []  // byte-swapped values and masks
        let parsed = bytes.withUnsafeBufferPointer { bytes -> Bool in
            var index = header.count
            var including = false
            var tooLarge = false
            /// A decimal number, `nil` without digits; one past `largestNumber` sets `tooLarge`.
            func number() -> Int? {
                var value = 0
                var digits = 0
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    value = min(value * 10 + Int(bytes[index] - 0x30), Self.largestNumber + 1)
                    index += 1
                    digits += 1
                }
                if value > Self.largestNumber { tooLarge = true }
                return digits > 0 ? value : nil
            }
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "[") {
                    index += 1
                    guard let priority = number(), !tooLarge, index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                    index += 1
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
                    guard index + 1 < bytes.count else { return false }
                    // shared-mime-info's names are lower-case.
                    let mime = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index += 2  // "]\n"
                    including = include(mime)
                    if including {
                        added.append(Section(priority: priority, mimeType: mime, rules: addedRules.count..<addedRules.count))
                    }
                    continue
                }
                let indent = number() ?? 0
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { return false }
                index += 1
                guard let offset = number(), index + 2 < bytes.count, bytes[index] == UInt8(ascii: "=") else { return false }
                index += 1
                let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
                index += 2
                guard index + length <= bytes.count else { return false }
                var value = (base + index)..<(base + index + length)
                index += length
                var mask: Range<Int>?
                var wordSize = 1
                var range = 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                    switch bytes[index] {
                    case UInt8(ascii: "&"):
                        guard index + 1 + length <= bytes.count else { return false }
                        mask = (base + index + 1)..<(base + index + 1 + length)
                        index += 1 + length
                    case UInt8(ascii: "~"):
                        index += 1
                        wordSize = number() ?? 1
                    case UInt8(ascii: "+"):
                        index += 1
                        range = number() ?? 1
                    default:
                        // An unknown extension: skip to the end of the line, as the specification asks.
                        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                    }
                }
                index += 1
                guard !tooLarge, indent <= Self.deepestIndent else { return false }
                guard including, !added.isEmpty else { continue }
                // Values of multi-byte words are stored big-endian; on a little-endian machine they are swapped.
                if wordSize > 1, length % wordSize == 0, 1.littleEndian == 1 {
                    func swapped(_ range: Range<Int>) -> Range<Int> {
                        let start = base + bytes.count + extra.count
                        for word in stride(from: range.lowerBound - base, to: range.upperBound - base, by: wordSize) {
                            extra += bytes[word..<(word + wordSize)].reversed()
                        }
                        return start..<(start + range.count)
                    }
                    value = swapped(value)
                    mask = mask.map(swapped)
                }
                addedRules.append(Rule(indent: indent, offset: offset, range: max(range, 1), value: value, mask: mask))
                added[added.count - 1].rules = added[added.count - 1].rules.lowerBound..<addedRules.count
            }
            return true
        }
        guard parsed else { return false }
        let ruleBase = rules.count
        storage.reserveCapacity(storage.count + bytes.count + extra.count)
        storage += bytes
        storage += extra
        rules += addedRules
        sections += added.map { section in
            var section = section
            section.rules = (section.rules.lowerBound + ruleBase)..<(section.rules.upperBound + ruleBase)
            return section
        }
        index = makeIndex()
        return true
    }

    /// Keys the top-level rules searched over a range (`Rule.key`) and indexes the sections by their top-level
    /// rules (`SectionIndex`).
    private mutating func makeIndex() -> SectionIndex {
        var index = SectionIndex(alwaysTried: Array(repeating: 0, count: sections.count / 64 + 1))
        var byOffset: [Int: [[Int]]] = [:]
        var byKey: [Key: [Int]] = [:]
        for (number, section) in sections.enumerated() {
            for ruleNumber in section.rules where rules[ruleNumber].indent == 0 {
                var rule = rules[ruleNumber]
                rule.key = nil
                defer { rules[ruleNumber] = rule }
                guard !rule.value.isEmpty else { continue }  // an empty value matches nothing
                /// The mask's byte at a place of the value (0xFF without a mask).
                func mask(_ place: Int) -> UInt8 { rule.mask.map { storage[$0.lowerBound + place] } ?? 0xFF }
                let first = storage[rule.value.lowerBound]
                if rule.range == 1 {
                    // Placed at its offset under every byte its mask lets match there.
                    let accepted = (0...255).filter { (UInt8($0) ^ first) & mask(0) == 0 }
                    if accepted.count < 256 {
                        for byte in accepted {
                            byOffset[rule.offset, default: Array(repeating: [], count: 256)][byte].append(number)
                        }
                        continue
                    }
                } else {
                    let pair = rule.value.count > 1 && mask(0) == 0xFF && mask(1) == 0xFF
                    let end = rule.offset + rule.range - 1 + (pair ? 2 : 1)
                    if pair || mask(0) == 0xFF, end <= Self.keyedWindow {
                        let key = pair ? Key.pair(UInt16(first) << 8 | UInt16(storage[rule.value.lowerBound + 1])) : .byte(first)
                        rule.key = key
                        byKey[key, default: []].append(number)
                        index.window = max(index.window, end)
                        continue
                    }
                }
                index.alwaysTried[number / 64] |= 1 << UInt64(number % 64)
            }
        }
        index.atOffset = byOffset.sorted { $0.key < $1.key }.map { (offset: $0.key, byFirstByte: $0.value) }
        // In a fixed order (by first section), so that nothing depends on hashing.
        index.byKey = byKey.map { (key: $0.key, sections: $0.value) }.sorted { $0.sections[0] < $1.sections[0] }
        return index
    }

    /// The pairs and bytes a file holds in its first `SectionIndex.window` bytes, as bits: the bytes exactly
    /// (256 bits), the pairs folded into `pairBits` bits (a superset: two pairs may share a bit).
    private struct Present {
        static let pairBits = 8192
        static let words = pairBits / 64 + 256 / 64
        private let bits: UnsafeMutableBufferPointer<UInt64>

        /// Records the pairs and bytes of `bytes` in `bits` (`words` words, cleared here).
        init(_ bytes: UnsafeRawBufferPointer, in bits: UnsafeMutableBufferPointer<UInt64>) {
            self.bits = bits
            bits.initialize(repeating: 0)
            guard var previous = bytes.first else { return }
            Self.set(Self.pairBits + Int(previous), in: bits)
            for byte in bytes.dropFirst() {
                Self.set(Self.pairBits + Int(byte), in: bits)
                Self.set(Self.slot(UInt16(previous) << 8 | UInt16(byte)), in: bits)
                previous = byte
            }
        }

        /// A pair's bit: its low 13 bits, the first byte's top three folded in.
        private static func slot(_ pair: UInt16) -> Int { Int((pair ^ pair >> 13) & UInt16(pairBits - 1)) }

        private static func set(_ bit: Int, in bits: UnsafeMutableBufferPointer<UInt64>) {
            bits[bit >> 6] |= 1 << UInt64(bit & 63)
        }

        /// Whether the bytes may hold `key` (a pair's bit may be another pair's).
        func holds(_ key: Key) -> Bool {
            let bit = switch key {
            case .pair(let pair): Self.slot(pair)
            case .byte(let byte): Self.pairBits + Int(byte)
            }
            return bits[bit >> 6] & 1 << UInt64(bit & 63) != 0
        }
    }

    /// The sections that may match `data` (a superset of those that do), as one bit each.
    private func candidateSections(_ data: UnsafeRawBufferPointer, _ present: Present) -> [UInt64] {
        var candidates = index.alwaysTried
        for (offset, byFirstByte) in index.atOffset {
            guard offset < data.count else { break }
            for number in byFirstByte[Int(data[offset])] { candidates[number / 64] |= 1 << UInt64(number % 64) }
        }
        for (key, sections) in index.byKey where present.holds(key) {
            for number in sections { candidates[number / 64] |= 1 << UInt64(number % 64) }
        }
        return candidates
    }

    /// Every section matching `data`, highest priority first (ties in file order).
    func matches(_ data: [UInt8]) -> [Match] {
        var found: [Match] = []
        // Read through buffers: no section (and its MIME type) or rule is copied, or retained, to be tried.
        data.withUnsafeBytes { bytes in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Present.words) { bits in
                let present = Present(UnsafeRawBufferPointer(rebasing: bytes.prefix(index.window)), in: bits)
                let candidates = candidateSections(bytes, present)
                storage.withUnsafeBytes { storage in
                    rules.withUnsafeBufferPointer { rules in
                        sections.withUnsafeBufferPointer { sections in
                            // In file order, as if every section were tried.
                            for (word, bits) in candidates.enumerated() {
                                var bits = bits
                                while bits != 0 {
                                    let number = word * 64 + bits.trailingZeroBitCount
                                    bits &= bits - 1
                                    guard let strength = Self.sectionMatches(sections[number].rules, rules, bytes, storage, present) else {
                                        continue
                                    }
                                    found.append(Match(mimeType: sections[number].mimeType, priority: sections[number].priority,
                                                       isKeyword: strength == .keyword, detail: sections[number].detail))
                                }
                            }
                        }
                    }
                }
            }
        }
        guard found.count > 1 else { return found }
        return found.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }.map(\.element)
    }

    private enum Strength { case keyword, rule }

    /// Whether a top-level rule matches together with a chain of its children, and whether only
    /// keyword rules did; `nil` when none matches.
    private static func sectionMatches(_ range: Range<Int>, _ rules: UnsafeBufferPointer<Rule>, _ data: UnsafeRawBufferPointer,
                                       _ storage: UnsafeRawBufferPointer, _ present: Present) -> Strength? {
        var index = range.lowerBound
        var found: Strength?
        while index < range.upperBound {
            let top = index
            if let key = rules[top].key, !present.holds(key) {
                // Its first bytes are nowhere it could match: skip it and its children.
                index += 1
                while index < range.upperBound, rules[index].indent > 0 { index += 1 }
                continue
            }
            guard matchesTree(range, rules, at: &index, data, storage) else { continue }
            let leaf = index == top + 1
            guard leaf, isKeyword(rules[top], storage) else { return .rule }
            found = .keyword
        }
        return found
    }

    /// A rule at offset 0 with no mask whose value is a short word of lowercase ASCII letters (capitals make signatures: `WEBVTT`, `REGEDIT`) or a run of comment
    /// characters (`/`, `*`, `#`, `%`, `;`, `-`): what many languages' files start with.
    private static func isKeyword(_ rule: Rule, _ storage: UnsafeRawBufferPointer) -> Bool {
        guard rule.offset == 0, rule.range <= 1, rule.mask == nil, rule.value.count <= Self.longestKeyword else { return false }
        let value = storage[rule.value]
        func letter(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        func comment(_ byte: UInt8) -> Bool { "/*#%;-".utf8.contains(byte) }
        return value.allSatisfy(letter) || value.allSatisfy(comment)
    }

    /// Evaluates the rule at `index` and its subtree, leaving `index` after the subtree.
    private static func matchesTree(_ range: Range<Int>, _ rules: UnsafeBufferPointer<Rule>, at index: inout Int,
                                    _ data: UnsafeRawBufferPointer, _ storage: UnsafeRawBufferPointer) -> Bool {
        let rule = rules[index]
        index += 1
        let matched = Self.matches(rule, data, storage)
        var hasChildren = false
        var childMatched = false
        while index < range.upperBound, rules[index].indent > rule.indent {
            hasChildren = true
            if matched && !childMatched {
                if matchesTree(range, rules, at: &index, data, storage) { childMatched = true }
            } else {
                index += 1  // skip: the outcome is settled either way
            }
        }
        return matched && (!hasChildren || childMatched)
    }

    /// Whether the rule's value (under its mask) appears at an offset in its range. Offsets and ranges
    /// are at most `largestNumber` and values at most 65,535 bytes (`add` checks): no sum below overflows.
    private static func matches(_ rule: Rule, _ data: UnsafeRawBufferPointer, _ storage: UnsafeRawBufferPointer) -> Bool {
        let length = rule.value.count
        guard length > 0, let base = data.baseAddress, let values = storage.baseAddress, rule.offset + length <= data.count else { return false }
        let lastStart = min(rule.offset + rule.range - 1, data.count - length)
        let needle = values + rule.value.lowerBound
        guard let mask = rule.mask else {
            if lastStart == rule.offset { return memcmp(base + rule.offset, needle, length) == 0 }
            // CByteScan's `uti_find_literal`: the places where the value's first and last bytes both are, many at
            // a time (a search by the first byte stopped at every `/` of a text for `/dts-v1/`, which a
            // device tree's rule looks for in any text's first 4 KiB).
            return uti_find_literal(base + rule.offset, lastStart - rule.offset + length, needle, length) != nil
        }
        let masks = values + mask.lowerBound
        /// Whether the value under the mask is at `start`.
        func equal(at start: Int) -> Bool {
            for position in 0..<length where (data[start + position] ^ needle.load(fromByteOffset: position, as: UInt8.self))
                & masks.load(fromByteOffset: position, as: UInt8.self) != 0 {
                return false
            }
            return true
        }
        guard storage[mask.lowerBound] == 0xFF, lastStart > rule.offset else {
            return (rule.offset...lastStart).contains(where: equal(at:))
        }
        // A whole first byte: found with memchr, the rest compared under the mask.
        var start = rule.offset
        while start <= lastStart {
            guard let found = memchr(base + start, Int32(storage[rule.value.lowerBound]), lastStart - start + 1) else { return false }
            let position = base.distance(to: UnsafeRawPointer(found))
            if equal(at: position) { return true }
            start = position + 1
        }
        return false
    }
}
