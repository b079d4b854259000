/// The C sources of the generated targets, the one writer of them: byte arrays and tables the library reads in
/// place, nothing parsed at start-up.
package enum CSource {
    /// `Sources/CTypeDatabase/typedb.c`: the compiled type database.
    package static func typeDatabase(_ bytes: [UInt8]) -> String {
        var lines = header(from: "TypeDB/*.plist", include: "CTypeDatabase.h")
        lines += array("database", bytes, aligned: true)
        lines += [
            "const unsigned char *uti_builtin_typedb_bytes(void) { return database; }",
            "size_t uti_builtin_typedb_size(void) { return \(bytes.count); }",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `Sources/CSharedMIMEInfo/sharedmimeinfo.c`: the files of `TypeDB/mime`, by name.
    package static func sharedMIMEInfo(_ files: [(name: String, bytes: [UInt8])]) -> String {
        var lines = header(from: "TypeDB/mime", include: "CSharedMIMEInfo.h")
        lines.append("#include <string.h>")
        lines.append("")
        for (index, file) in files.enumerated() {
            lines += array("mime_file_\(index)", file.bytes, aligned: false)
        }
        lines.append("const unsigned char *uti_builtin_mime_file(const char *name, size_t *size) {")
        for (index, file) in files.enumerated() {
            lines.append("    if (strcmp(name, \"\(file.name)\") == 0) { *size = \(file.bytes.count); return mime_file_\(index); }")
        }
        lines += ["    *size = 0;", "    return NULL;", "}", ""]
        return lines.joined(separator: "\n")
    }

    /// `Sources/CTypeDatabase/mediatypes.c`: the names in byte order beside their vocabularies and the index of
    /// their canonical name, and the extensions in byte order beside their kinds; searched in place.
    package static func mediaTypes(_ table: MediaTypeTable) -> String {
        let names = table.names.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var index: [String: Int] = [:]
        for (position, name) in names.enumerated() { index[name] = position }
        let extensions = table.extensions.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var lines = header(from: "TypeDB/media-types.json", include: "CTypeDatabase.h", about: [
            "Every MIME name the type database or its four vocabularies know, in byte order, and which",
            "vocabularies know it (bits: 1 IANA, 2 freedesktop type, 4 freedesktop alias, 8 Tika type,",
            "16 Tika alias, 32 libmagic, 64 Magika), and the index of the name the format goes by (an alias's type);",
            "and the filename extensions whose name alone settles no format (bits: 1 shared by formats of",
            "different families, 2 carried only from libmagic's extension lists, 4 claimed by a text format in",
            "some source though the database's claimants are binary, 8 the other way).",
        ])
        lines.append("static const char *const names[\(max(names.count, 1))] = {")
        lines += names.map { "    \(literal($0))," }
        lines += ["};", "", "static const unsigned char bits[\(max(names.count, 1))] = {"]
        lines += rows(names.map { Int(table.names[$0]?.vocabularies ?? 0) }, perLine: 24)
        lines += ["};", "", "static const unsigned short canonical[\(max(names.count, 1))] = {"]
        lines += rows(names.map { name in table.names[name].flatMap { index[$0.canonical] } ?? index[name] ?? 0 }, perLine: 16)
        lines += [
            "};", "",
            "size_t uti_media_type_count(void) { return \(names.count); }",
            "size_t uti_media_type_canonical(size_t index) { return index < \(names.count) ? canonical[index] : index; }",
            "const char *uti_media_type_name(size_t index) { return index < \(names.count) ? names[index] : 0; }",
            "unsigned char uti_media_type_vocabularies(size_t index) { return index < \(names.count) ? bits[index] : 0; }", "",
            "static const char *const extensions[\(max(extensions.count, 1))] = {",
        ]
        lines += extensions.map { "    \(literal($0))," }
        lines += ["};", "", "static const unsigned char extension_bits[\(max(extensions.count, 1))] = {"]
        lines += rows(extensions.map { Int(table.extensions[$0] ?? 0) }, perLine: 24)
        lines += [
            "};", "",
            "size_t uti_extension_count(void) { return \(extensions.count); }",
            "const char *uti_extension(size_t index) { return index < \(extensions.count) ? extensions[index] : 0; }",
            "unsigned char uti_extension_kinds(size_t index) { return index < \(extensions.count) ? extension_bits[index] : 0; }",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `Sources/CTypeDatabase/languages.c`: GitHub Linguist's further candidates by extension, and its
    /// disambiguations as tables of rules and conditions (the structures of CTypeDatabase.h), with the
    /// extensions that have one in byte order; a file's identification reads only its own extension's rules.
    package static func languages(_ table: LanguageTable) -> String {
        var lines = header(from: "TypeDB/languages.json", include: "CTypeDatabase.h", about: [
            "GitHub Linguist's further candidates for extensions other types claim, and its heuristics for",
            "ambiguous extensions (disambiguations of rules of conditions), by extension.",
        ])
        /// A static array of strings named `name`, and how to point at it (`NULL` for none).
        func strings(_ values: [String], named name: String) -> String {
            guard !values.isEmpty else { return "0, NULL" }
            lines.append("static const char *const \(name)[] = {\(values.map(literal).joined(separator: ", "))};")
            return "\(values.count), \(name)"
        }
        let further = table.furtherCandidates.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var entries: [String] = []
        for (position, ext) in further.enumerated() {
            entries.append("    {\(literal(ext)), \(strings(table.furtherCandidates[ext] ?? [], named: "further_\(position)"))},")
        }
        lines += ["", "static const struct uti_language_further further[\(max(further.count, 1))] = {"] + entries + ["};", ""]
        var blocks: [String] = []
        var blockOf: [String: Int] = [:]
        for (d, disambiguation) in table.disambiguations.enumerated() {
            var rules: [String] = []
            for (r, rule) in disambiguation.rules.enumerated() {
                var conditions: [String] = []
                for (c, condition) in rule.conditions.enumerated() {
                    let literals = strings(condition.literals ?? [], named: "literals_\(d)_\(r)_\(c)")
                    let folded = strings(condition.foldedLiterals ?? [], named: "folded_\(d)_\(r)_\(c)")
                    conditions.append("    {\(condition.matches ? 1 : 0), \(literal(condition.pattern)), \(literals), \(folded)},")
                }
                let conditionTable: String
                if conditions.isEmpty {
                    conditionTable = "0, NULL"
                } else {
                    lines += ["static const struct uti_language_condition conditions_\(d)_\(r)[] = {"] + conditions + ["};"]
                    conditionTable = "\(conditions.count), conditions_\(d)_\(r)"
                }
                rules.append("    {\(strings(rule.types, named: "types_\(d)_\(r)")), \(conditionTable)},")
            }
            lines += ["static const struct uti_language_rule rules_\(d)[\(max(rules.count, 1))] = {"] + rules + ["};", ""]
            blocks.append("    {\(rules.count), rules_\(d)},")
            for ext in disambiguation.extensions { blockOf[ext] = d }
        }
        lines += ["static const struct uti_language_disambiguation disambiguations[\(max(blocks.count, 1))] = {"] + blocks + ["};", ""]
        let extensions = blockOf.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        lines.append("static const struct uti_language_heuristics heuristics[\(max(extensions.count, 1))] = {")
        lines += extensions.map { "    {\(literal($0)), \(blockOf[$0] ?? 0)}," }
        lines += [
            "};", "",
            "size_t uti_language_further_count(void) { return \(further.count); }",
            "const struct uti_language_further *uti_language_further_at(size_t index) { return index < \(further.count) ? &further[index] : NULL; }",
            "size_t uti_language_heuristics_count(void) { return \(extensions.count); }",
            "const struct uti_language_heuristics *uti_language_heuristics_at(size_t index) { return index < \(extensions.count) ? &heuristics[index] : NULL; }",
            "const struct uti_language_disambiguation *uti_language_disambiguation_at(size_t index) { return index < \(blocks.count) ? &disambiguations[index] : NULL; }",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func header(from input: String, include: String, about: [String] = []) -> [String] {
        ["// Generated by `python3 TypeDB/tools/make-typedb.py` (its last step, `swift run compile-typedb`) from \(input): do not edit."]
            + about.map { "// " + $0 }
            + ["#include \"\(include)\"", ""]
    }

    /// Numbers, `perLine` to a line, each followed by a comma.
    static func rows(_ numbers: [Int], perLine: Int) -> [String] {
        stride(from: 0, to: numbers.count, by: perLine).map { start in
            "    " + numbers[start..<min(start + perLine, numbers.count)].map(String.init).joined(separator: ",") + ","
        }
    }

    /// `text` as a C string literal: UTF-8 as it is, `\\`, `"` and line breaks escaped, other control bytes
    /// as three-digit octal escapes.
    package static func literal(_ text: String) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += Array("\\n".utf8)
            case 0..<0x20, 0x7F:
                bytes += [UInt8(ascii: "\\"), 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7)]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func array(_ name: String, _ bytes: [UInt8], aligned: Bool) -> [String] {
        let digits = Array("0123456789abcdef".utf8)
        var lines = ["static const unsigned char \(name)[\(max(bytes.count, 1))]\(aligned ? " __attribute__((aligned(16)))" : "") = {"]
        var index = 0
        while index < bytes.count {
            let end = min(index + 24, bytes.count)
            var line: [UInt8] = []
            for byte in bytes[index..<end] {
                line += Array("0x".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)], UInt8(ascii: ",")]
            }
            lines.append(String(decoding: line, as: UTF8.self))
            index = end
        }
        if bytes.isEmpty { lines.append("0") }
        return lines + ["};", ""]
    }
}
