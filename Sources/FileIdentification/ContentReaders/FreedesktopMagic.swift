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
    }

    struct Section: Sendable {
        var priority: Int
        var mimeType: String
        var rules: Range<Int>
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
    }

    /// The longest value a keyword rule has (`function`).
    static let longestKeyword = 8

    private(set) var storage: [UInt8] = []
    private(set) var rules: [Rule] = []
    private(set) var sections: [Section] = []

    /// Which sections a file may match, found without trying each (most of the database compares bytes at a
    /// fixed offset): a section can match only if one of its top-level rules does, and a top-level rule of one
    /// offset and no mask only where the file's byte there is its value's first. `candidateSections` reads it.
    private struct SectionIndex: Sendable {
        /// One bit per section: those with a top-level rule the index does not place (a range, a mask).
        var alwaysTried: [UInt64] = []
        /// For each offset some placed rule looks at: by the byte found there, the sections with such a rule.
        var atOffset: [(offset: Int, byFirstByte: [[Int]])] = []
    }
    private var index = SectionIndex()

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

    private func makeIndex() -> SectionIndex {
        var index = SectionIndex(alwaysTried: Array(repeating: 0, count: sections.count / 64 + 1))
        var byOffset: [Int: [[Int]]] = [:]
        for (number, section) in sections.enumerated() {
            for rule in rules[section.rules] where rule.indent == 0 && !rule.value.isEmpty {  // an empty value matches nothing
                if rule.range == 1, rule.mask == nil {
                    byOffset[rule.offset, default: Array(repeating: [], count: 256)][Int(storage[rule.value.lowerBound])].append(number)
                } else {
                    index.alwaysTried[number / 64] |= 1 << UInt64(number % 64)
                }
            }
        }
        index.atOffset = byOffset.sorted { $0.key < $1.key }.map { (offset: $0.key, byFirstByte: $0.value) }
        return index
    }

    /// The sections that may match `data` (a superset of those that do), as one bit each.
    private func candidateSections(_ data: [UInt8]) -> [UInt64] {
        var candidates = index.alwaysTried
        for (offset, byFirstByte) in index.atOffset {
            guard offset < data.count else { break }
            for number in byFirstByte[Int(data[offset])] { candidates[number / 64] |= 1 << UInt64(number % 64) }
        }
        return candidates
    }

    /// Every section matching `data`, highest priority first (ties in file order).
    func matches(_ data: [UInt8]) -> [Match] {
        var found: [Match] = []
        let candidates = candidateSections(data)
        // Read through buffers: no section (and its MIME type) or rule is copied, or retained, to be tried.
        data.withUnsafeBytes { bytes in
            storage.withUnsafeBytes { storage in
                rules.withUnsafeBufferPointer { rules in
                    sections.withUnsafeBufferPointer { sections in
                        // In file order, as if every section were tried.
                        for (word, bits) in candidates.enumerated() {
                            var bits = bits
                            while bits != 0 {
                                let number = word * 64 + bits.trailingZeroBitCount
                                bits &= bits - 1
                                guard let strength = Self.sectionMatches(sections[number].rules, rules, bytes, storage) else { continue }
                                found.append(Match(mimeType: sections[number].mimeType, priority: sections[number].priority,
                                                   isKeyword: strength == .keyword))
                            }
                        }
                    }
                }
            }
        }
        return found.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }.map(\.element)
    }

    private enum Strength { case keyword, rule }

    /// Whether a top-level rule matches together with a chain of its children, and whether only
    /// keyword rules did; `nil` when none matches.
    private static func sectionMatches(_ range: Range<Int>, _ rules: UnsafeBufferPointer<Rule>, _ data: UnsafeRawBufferPointer,
                                       _ storage: UnsafeRawBufferPointer) -> Strength? {
        var index = range.lowerBound
        var found: Strength?
        while index < range.upperBound {
            let top = index
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
            // Find the first byte with memchr, then compare the rest.
            var start = rule.offset
            while start <= lastStart {
                guard let found = memchr(base + start, Int32(storage[rule.value.lowerBound]), lastStart - start + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(found))
                if memcmp(base + position, needle, length) == 0 { return true }
                start = position + 1
            }
            return false
        }
        for start in rule.offset...lastStart {
            var equal = true
            for position in 0..<length where (data[start + position] ^ storage[rule.value.lowerBound + position]) & storage[mask.lowerBound + position] != 0 {
                equal = false
                break
            }
            if equal { return true }
        }
        return false
    }
}
