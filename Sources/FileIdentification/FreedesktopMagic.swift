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
    struct Rule: Sendable {
        var indent: Int
        var offset: Int
        var range: Int
        var value: [UInt8]
        var mask: [UInt8]?
    }

    struct Section: Sendable {
        var priority: Int
        var mimeType: String
        var rules: [Rule]
    }

    /// A matching type and the priority of its rules.
    struct Match: Sendable {
        var mimeType: String
        var priority: Int
    }

    let sections: [Section]

    init(sections: [Section]) {
        self.sections = sections
    }

    /// Parses a compiled magic file; `nil` when it is not one.
    static func parse(_ bytes: [UInt8]) -> [Section]? {
        let header = Array("MIME-Magic\0\n".utf8)
        guard bytes.starts(with: header) else { return nil }
        var index = header.count
        var sections: [Section] = []
        func number() -> Int? {
            var value = 0
            var digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "[") {
                index += 1
                guard let priority = number(), index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
                guard index + 1 < bytes.count else { return nil }
                let mime = String(decoding: bytes[start..<index], as: UTF8.self)
                index += 2  // "]\n"
                sections.append(Section(priority: priority, mimeType: mime.lowercased(), rules: []))
                continue
            }
            guard !sections.isEmpty else { return nil }
            let indent = number() ?? 0
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { return nil }
            index += 1
            guard let offset = number(), index + 2 < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            guard index + length <= bytes.count else { return nil }
            let value = Array(bytes[index..<(index + length)])
            index += length
            var mask: [UInt8]?
            var wordSize = 1
            var range = 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                switch bytes[index] {
                case UInt8(ascii: "&"):
                    guard index + 1 + length <= bytes.count else { return nil }
                    mask = Array(bytes[(index + 1)..<(index + 1 + length)])
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
            var rule = Rule(indent: indent, offset: offset, range: max(range, 1), value: value, mask: mask)
            // Values of multi-byte words are stored big-endian; on a little-endian machine they are swapped.
            if wordSize > 1, length % wordSize == 0 {
                rule.value = swapped(rule.value, wordSize)
                rule.mask = rule.mask.map { swapped($0, wordSize) }
            }
            sections[sections.count - 1].rules.append(rule)
        }
        return sections
    }

    private static func swapped(_ bytes: [UInt8], _ size: Int) -> [UInt8] {
        guard 1.littleEndian == 1 else { return bytes }
        var result = bytes
        for start in stride(from: 0, to: bytes.count, by: size) {
            result[start..<(start + size)] = bytes[start..<(start + size)].reversed()[...]
        }
        return result
    }

    /// Every section matching `data`, highest priority first (ties in file order).
    func matches(_ data: [UInt8]) -> [Match] {
        var found: [Match] = []
        data.withUnsafeBytes { bytes in
            for section in sections where Self.sectionMatches(section.rules, bytes) {
                found.append(Match(mimeType: section.mimeType, priority: section.priority))
            }
        }
        return found.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Whether a top-level rule matches together with a chain of its children.
    private static func sectionMatches(_ rules: [Rule], _ data: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index < rules.count {
            if matchesTree(rules, at: &index, data) { return true }
        }
        return false
    }

    /// Evaluates the rule at `index` and its subtree, leaving `index` after the subtree.
    private static func matchesTree(_ rules: [Rule], at index: inout Int, _ data: UnsafeRawBufferPointer) -> Bool {
        let rule = rules[index]
        index += 1
        let matched = matches(rule, data)
        var hasChildren = false
        var childMatched = false
        while index < rules.count, rules[index].indent > rule.indent {
            hasChildren = true
            if matched && !childMatched {
                if matchesTree(rules, at: &index, data) { childMatched = true }
            } else {
                index += 1  // skip: the outcome is settled either way
            }
        }
        return matched && (!hasChildren || childMatched)
    }

    /// Whether the rule's value (under its mask) appears at an offset in its range.
    private static func matches(_ rule: Rule, _ data: UnsafeRawBufferPointer) -> Bool {
        let length = rule.value.count
        guard length > 0, let base = data.baseAddress, rule.offset + length <= data.count else { return false }
        let lastStart = min(rule.offset + rule.range - 1, data.count - length)
        guard let mask = rule.mask else {
            return rule.value.withUnsafeBytes { value in
                guard let needle = value.baseAddress else { return false }
                // Find the first byte with memchr, then compare the rest.
                var start = rule.offset
                while start <= lastStart {
                    guard let found = memchr(base + start, Int32(value[0]), lastStart - start + 1) else { return false }
                    let position = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + position, needle, length) == 0 { return true }
                    start = position + 1
                }
                return false
            }
        }
        return rule.value.withUnsafeBytes { value in
            mask.withUnsafeBytes { mask in
                for start in rule.offset...lastStart {
                    var equal = true
                    for position in 0..<length where (data[start + position] ^ value[position]) & mask[position] != 0 {
                        equal = false
                        break
                    }
                    if equal { return true }
                }
                return false
            }
        }
    }
}
