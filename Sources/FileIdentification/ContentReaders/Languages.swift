internal import CTypeDatabase
internal import CByteScan
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
public import UniformTypeIdentifiers

/// Tag classes for what identification matches beyond extensions and MIME types: whole file names,
/// multi-dot suffixes and globs, `#!` interpreters, GitHub Linguist's language names, and Magika's
/// labels and MIME names.
extension UTTagClass {
    /// The programs a `#!` line names that run a language (`python3`, `node`): GitHub Linguist's interpreters.
    public static let interpreter = UTTagClass(rawValue: "uti.interpreter")
    /// A language's name in GitHub Linguist, then its aliases (`C++`, `cpp`): what modelines and fenced code
    /// blocks call it.
    public static let linguistLanguage = UTTagClass(rawValue: "uti.linguist-language")
    /// Google Magika's label for the content type (`zig`, `yara`).
    public static let magikaLabel = UTTagClass(rawValue: "uti.magika-label")
}

/// What GitHub Linguist knows of languages beyond the type database's tags, from the tables `make-typedb.py`
/// generates (`Sources/CTypeDatabase/languages.c`): the further languages an extension other types claim
/// may be written in (`.m`: Objective-C, MATLAB, Mercury ...), and Linguist's heuristics that choose among
/// them by the text's content.
enum Languages {
    /// One rule of a disambiguation: the types it chooses when every condition holds.
    struct Rule: Sendable {
        var choices: [String]
        /// Each must match somewhere in the text, or nowhere.
        var conditions: [Condition]
    }

    /// A pattern that must match somewhere in the text (`matches`), or nowhere.
    struct Condition: Sendable {
        var pattern: String
        var matches: Bool
        /// Strings of which the text must hold one for the pattern to match (the generator's parse of it;
        /// both lists empty when none is known): most texts fail this test, and are spared the regular
        /// expression. `foldedLiterals` are lower-case, looked for in the text's ASCII lower-case.
        var literals: [String] = []
        var foldedLiterals: [String] = []

        /// Whether the condition holds for `text` (`lowered`: its ASCII lower-case, made when first needed).
        func holds(in text: String, lowered: inout [UInt8]?) -> Bool {
            if !literals.isEmpty || !foldedLiterals.isEmpty {
                let found = literals.contains { text.utf8.contains(bytes: $0.utf8) } || foldedLiterals.contains { literal in
                    if lowered == nil { lowered = text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
                    return lowered?.contains(bytes: literal.utf8) ?? true
                }
                if !found { return !matches }
            }
            // A pattern PCRE2 does not read, or gave up on, counts as not matching: the rule that needs it fails.
            guard let compiled = PCRE2.pattern(pattern) else { return !matches }
            return (compiled.matches(in: text) ?? false) == matches
        }
    }

    /// The strings of a generated table's array.
    private static func strings(_ pointer: UnsafePointer<UnsafePointer<CChar>?>?, count: Int) -> [String] {
        guard let pointer else { return [] }
        return (0..<count).compactMap { pointer[$0].map { String(cString: $0) } }
    }

    /// The identifiers of the further languages of `ext`.
    private static func further(_ ext: String) -> [String] {
        guard let found = GeneratedTable.index(of: ext.lowercased(), count: uti_language_further_count(),
                                               entryAt: { uti_language_further_at($0)?.pointee.extension }),
              let entry = uti_language_further_at(found)?.pointee else { return [] }
        return strings(entry.types, count: entry.type_count)
    }

    /// The index of the disambiguation of `ext`, if Linguist has one.
    private static func disambiguation(_ ext: String) -> Int? {
        GeneratedTable.index(of: ext.lowercased(), count: uti_language_heuristics_count(),
                             entryAt: { uti_language_heuristics_at($0)?.pointee.extension })
            .flatMap { uti_language_heuristics_at($0)?.pointee.disambiguation }
    }

    /// Linguist's rules for `ext`, in order, read from the generated tables once per disambiguation.
    static func rules(_ ext: String) -> [Rule]? {
        guard let found = disambiguation(ext) else { return nil }
        if let known = readRules.withLock({ $0[found] }) { return known }
        guard let block = uti_language_disambiguation_at(found)?.pointee, let rules = block.rules else { return nil }
        let read = (0..<block.rule_count).map { index in
            let rule = rules[index]
            let conditions = (0..<rule.condition_count).compactMap { index -> Condition? in
                guard let condition = rule.conditions?[index], let pattern = condition.pattern else { return nil }
                return Condition(pattern: String(cString: pattern), matches: condition.matches != 0,
                                 literals: strings(condition.literals, count: condition.literal_count),
                                 foldedLiterals: strings(condition.folded_literals, count: condition.folded_literal_count))
            }
            return Rule(choices: strings(rule.types, count: rule.type_count), conditions: conditions)
        }
        readRules.withLock { $0[found] = read }
        return read
    }

    /// The rules read so far, by disambiguation: each is read from the tables once.
    private static let readRules = Mutex<[Int: [Rule]]>([:])

    /// The languages Linguist gives the extension `ext` besides the types that claim it, as declared types.
    static func furtherCandidates(forExtension ext: String) -> [UTType] {
        further(ext).compactMap { UTType($0) }
    }

    /// The extensions Linguist has heuristics for, in the table's order.
    static var heuristicExtensions: [String] {
        (0..<uti_language_heuristics_count()).compactMap { uti_language_heuristics_at($0)?.pointee.extension.map { String(cString: $0) } }
    }

    /// Whether Linguist has heuristics for the extension.
    static func hasHeuristics(forExtension ext: String) -> Bool {
        disambiguation(ext) != nil
    }

    /// What Linguist's heuristics choose for a file with the extension `ext` and this text, given the type
    /// the name claims first (`claimed`): the one type of the first rule whose conditions all hold, unless a
    /// rule for `claimed` holds too and the first is not a kind of `claimed` (the database's own claim breaks
    /// the tie: a GDScript file with a comment saying "Declare" stays GDScript, while a manual page is a
    /// manual page before it is Roff), or the rule has no conditions (a fallback says nothing against a claim).
    static func heuristicChoice(forExtension ext: String, text: String, claimed: UTType) -> UTType? {
        guard let rules = rules(ext) else { return nil }
        var lowered: [UInt8]?
        var known: [Int: Bool] = [:]
        func holds(_ index: Int) -> Bool {
            if let answer = known[index] { return answer }
            let answer = rules[index].conditions.allSatisfy { $0.holds(in: text, lowered: &lowered) }
            known[index] = answer
            return answer
        }
        // Only a rule with conditions that chooses another language can change the claim (or a fallback
        // choosing a kind of it): when none holds, the rules for the claim itself, often the costliest
        // (Perl's), need not be tried.
        let others = rules.indices.filter { !rules[$0].conditions.isEmpty && rules[$0].choices != [claimed.identifier] }
        let refinesClaim = rules.contains { rule in
            rule.conditions.isEmpty && rule.choices.count == 1 && rule.choices[0] != claimed.identifier
                && UTType(rule.choices[0])?.conforms(to: claimed) == true
        }
        if !refinesClaim, !others.contains(where: holds) { return claimed }
        guard let index = rules.indices.first(where: holds), rules[index].choices.count == 1,
              let chosen = UTType(rules[index].choices[0]) else { return nil }
        if chosen == claimed || chosen.conforms(to: claimed) { return chosen }
        if rules[index].conditions.isEmpty { return nil }
        let claims = rules.indices.filter { rules[$0].choices.contains(claimed.identifier) && !rules[$0].conditions.isEmpty }
        if claims.contains(where: holds) { return nil }
        return chosen
    }

    /// The one of `languages` that Linguist's heuristics for `ext` choose for this text: the single choice
    /// of the first rule with conditions whose conditions hold, when it is one of them.
    static func choice(forExtension ext: String, text: String, among languages: [UTType]) -> UTType? {
        guard let rules = rules(ext) else { return nil }
        var lowered: [UInt8]?
        let identifiers = Set(languages.map(\.identifier))
        for rule in rules where !rule.conditions.isEmpty && rule.conditions.allSatisfy({ $0.holds(in: text, lowered: &lowered) }) {
            guard rule.choices.count == 1, identifiers.contains(rule.choices[0]) else { return nil }
            return UTType(rule.choices[0])
        }
        return nil
    }

    /// Whether `type` is one of the languages Linguist writes in the extension `ext` (a type that claims it,
    /// or a further candidate).
    static func isLanguage(_ type: UTType, ofExtension ext: String) -> Bool {
        !type.tags(of: .linguistLanguage).isEmpty
            && (type.tags(of: .filenameExtension).contains { $0.lowercased() == ext.lowercased() }
                || further(ext).contains(type.identifier))
    }

    /// The type of the language a program in a `#!` line runs (`python3.11` is `python3`'s), by Linguist's
    /// interpreters.
    static func type(ofInterpreter program: String) -> UTType? {
        var name = program
        while true {
            if let type = TypeDatabase.shared.declaredTypes(tag: name, tagClass: .interpreter).first { return type }
            // A version after the name: python3.11, ruby2.7, lua5.4.
            guard let last = name.last, last.isNumber || last == "." else { return nil }
            name.removeLast()
        }
    }

    /// The type of the language a name or alias stands for (`python`, `c++`, `sh`), as a modeline names it.
    static func type(ofLanguageNamed name: String) -> UTType? {
        TypeDatabase.shared.declaredTypes(tag: name, tagClass: .linguistLanguage).first
    }

    /// The language a Vim or Emacs modeline in the text's first or last lines names, with the modeline.
    ///
    ///     # vim: set ft=python:       -> python
    ///     // -*- mode: c++ -*-         -> c++
    ///     ;; -*- lisp -*-              -> lisp
    static func modeline(in text: String) -> (language: String, line: String)? {
        // The first five lines and the last five, as byte ranges found without splitting the whole text.
        var text = text
        let ranges: [Range<Int>] = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return [] }
            let count = bytes.count
            var lines: [Range<Int>] = []
            lines.reserveCapacity(10)
            var start = 0
            while lines.count < 5, start < count {
                let end = memchr(base + start, 0x0A, count - start).map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
                lines.append(start..<end)
                start = end + 1
            }
            let heads = lines.count
            var end = count
            if end > start, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            while lines.count < heads + 5, end > start {
                var lineStart = end
                while lineStart > start, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
                lines.append(lineStart..<end)
                end = lineStart - 1
            }
            lines[heads...].reverse()
            // Most lines hold neither marker: a byte search rules them out before any parse, first over the head's
            // lines and the tail's as two spans (a marker holds no line break: in a span, it is in one line).
            func spans(_ range: Range<Int>) -> Bool {
                let span = UnsafeBufferPointer(rebasing: bytes[range])
                return modelineMarkers.contains { span.contains(bytes: $0) }
            }
            let headSpan = heads > 0 ? lines[0].lowerBound..<lines[heads - 1].upperBound : 0..<0
            let tailSpan = lines.count > heads ? lines[heads].lowerBound..<lines[lines.count - 1].upperBound : 0..<0
            guard spans(headSpan) || spans(tailSpan) else { return [] }
            return lines.filter { range in
                modelineMarkers.contains { UnsafeBufferPointer(rebasing: bytes[range]).contains(bytes: $0) }
            }
        }
        let utf8 = text.utf8
        for range in ranges {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            let upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
            // A range that splits a character (it cannot: line breaks are whole scalars) is skipped.
            guard lower.samePosition(in: text.unicodeScalars) != nil, upper.samePosition(in: text.unicodeScalars) != nil else { continue }
            let line = text[lower..<upper]
            if let language = emacsMode(line) ?? vimFiletype(line) { return (language, String(line.prefix(120))) }
        }
        return nil
    }

    /// What a line with a modeline holds.
    private static let modelineMarkers: [[UInt8]] = [Array("-*-".utf8), Array("vi:".utf8), Array("vim:".utf8), Array("ex:".utf8)]

    private static func emacsMode(_ line: Substring) -> String? {
        guard let start = line.firstRange(of: "-*-"), let end = line[start.upperBound...].firstRange(of: "-*-") else { return nil }
        let inside = line[start.upperBound..<end.lowerBound].trimming { $0 == " " || $0 == "\t" }
        if !inside.contains(":") { return inside.isEmpty ? nil : inside.lowercased() }
        for setting in inside.split(separator: ";") {
            let parts = setting.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimming(while: { $0 == " " || $0 == "\t" }).lowercased() == "mode" {
                let value = parts[1].trimming { $0 == " " || $0 == "\t" }.lowercased()
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    private static func vimFiletype(_ line: Substring) -> String? {
        // `vim:`, `vi:`, `ex:` (after a space or at the start), then settings separated by spaces or colons.
        guard let marker = ["vim:", "vi:", "ex:"].lazy.compactMap({ line.firstRange(of: $0) }).first,
              marker.lowerBound == line.startIndex || line[line.index(before: marker.lowerBound)].isWhitespace else { return nil }
        for setting in line[marker.upperBound...].split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "\t" }) {
            for key in ["filetype=", "ft=", "syntax=", "syn="] where setting.hasPrefix(key) {
                let value = setting.dropFirst(key.count).lowercased()
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}

private extension Collection where Element == UInt8 {
    /// Whether `needle`'s bytes occur in these (CByteScan's `uti_find_literal` where both are contiguous, as a
    /// native string's are).
    func contains(bytes needle: some Collection<UInt8>) -> Bool {
        guard !needle.isEmpty else { return true }
        let found = withContiguousStorageIfAvailable { haystack in
            needle.withContiguousStorageIfAvailable { needle in
                guard let base = haystack.baseAddress, needle.count <= haystack.count else { return false }
                return uti_find_literal(base, haystack.count, needle.baseAddress, needle.count) != nil
            }
        }
        if let found = found ?? nil { return found }
        return Array(self).contains(bytes: Array(needle))
    }
}
