internal import CTypeDatabase
public import UniformTypeIdentifiers

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
        /// (pattern, must match): each must match somewhere in the text, or nowhere.
        var conditions: [(pattern: String, matches: Bool)]
    }

    private struct Tables: Sendable {
        var further: [String: [String]] = [:]
        var heuristics: [String: [Rule]] = [:]
    }

    private static let tables: Tables = {
        var tables = Tables()
        for line in String(cString: uti_language_further_candidates()).split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let ext = words.first else { continue }
            tables.further[ext] = Array(words.dropFirst())
        }
        var extensions: [String] = []
        var rules: [Rule] = []
        func finish() {
            for ext in extensions { tables.heuristics[ext, default: []] += rules }
            extensions = []
            rules = []
        }
        for line in String(cString: uti_language_heuristics()).split(separator: "\n", omittingEmptySubsequences: true) {
            let kind = line.prefix(2)
            let rest = String(line.dropFirst(2).map { $0 == "\u{1}" ? "\n" : $0 })
            switch kind {
            case "D ":
                finish()
                extensions = rest.split(separator: " ").map(String.init)
            case "R ":
                rules.append(Rule(choices: rest == "-" ? [] : rest.split(separator: " ").map(String.init), conditions: []))
            case "+ ", "- ":
                if !rules.isEmpty { rules[rules.count - 1].conditions.append((rest, kind == "+ ")) }
            default:
                continue
            }
        }
        finish()
        return tables
    }()

    /// The languages Linguist gives the extension `ext` besides the types that claim it, as declared types.
    static func furtherCandidates(forExtension ext: String) -> [UTType] {
        (tables.further[ext.lowercased()] ?? []).compactMap { UTType($0) }
    }

    /// Whether Linguist has heuristics for the extension.
    static func hasHeuristics(forExtension ext: String) -> Bool {
        tables.heuristics[ext.lowercased()] != nil
    }

    /// What Linguist's heuristics choose for a file with the extension `ext` and this text, given the type
    /// the name claims first (`claimed`): the one type of the first rule whose conditions all hold, unless a
    /// rule for `claimed` holds too and the first is not a kind of `claimed` (the database's own claim breaks
    /// the tie: a GDScript file with a comment saying "Declare" stays GDScript, while a manual page is a
    /// manual page before it is Roff), or the rule has no conditions (a fallback says nothing against a claim).
    static func heuristicChoice(forExtension ext: String, text: String, claimed: UTType) -> UTType? {
        guard let rules = tables.heuristics[ext.lowercased()] else { return nil }
        func holds(_ rule: Rule) -> Bool {
            rule.conditions.allSatisfy { condition in
                guard let regex = compiled(condition.pattern) else { return !condition.matches }
                return (text.firstMatch(of: regex) != nil) == condition.matches
            }
        }
        guard let first = rules.first(where: holds), first.choices.count == 1, let chosen = UTType(first.choices[0]) else { return nil }
        if chosen == claimed || chosen.conforms(to: claimed) { return chosen }
        if first.conditions.isEmpty { return nil }
        if rules.contains(where: { $0.choices.contains(claimed.identifier) && !$0.conditions.isEmpty && holds($0) }) { return nil }
        return chosen
    }

    /// Whether `type` is one of the languages Linguist writes in the extension `ext` (a type that claims it,
    /// or a further candidate).
    static func isLanguage(_ type: UTType, ofExtension ext: String) -> Bool {
        type.tags[.linguistLanguage] != nil
            && ((type.tags[.filenameExtension] ?? []).contains { $0.lowercased() == ext.lowercased() }
                || (tables.further[ext.lowercased()] ?? []).contains(type.identifier))
    }

    /// A pattern compiled (`nil` for one Swift's Regex cannot read: a rule that needs it fails). Compiled at
    /// each use: only files under an extension several languages share come here, and a compiled `Regex`
    /// cannot be kept across threads.
    private static func compiled(_ pattern: String) -> Regex<AnyRegexOutput>? {
        // Ruby's `^` and `$` match at every line's start and end.
        (try? Regex(pattern))?.anchorsMatchLineEndings()
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
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines.prefix(5) + lines.suffix(5) {
            if let language = emacsMode(line) ?? vimFiletype(line) { return (language, String(line.prefix(120))) }
        }
        return nil
    }

    private static func emacsMode(_ line: Substring) -> String? {
        guard let start = line.firstRange(of: "-*-"), let end = line[start.upperBound...].firstRange(of: "-*-") else { return nil }
        let inside = line[start.upperBound..<end.lowerBound].trimmingCharacters(in: " \t")
        if !inside.contains(":") { return inside.isEmpty ? nil : inside.lowercased() }
        for setting in inside.split(separator: ";") {
            let parts = setting.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: " \t").lowercased() == "mode" {
                let value = parts[1].trimmingCharacters(in: " \t").lowercased()
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

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
