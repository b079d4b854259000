#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import SystemCalls

/// `TypeDB/media-types.json`, as `make-typedb.py` writes it: every MIME name the type database or its
/// vocabularies know, which vocabularies know it and the name its format goes by; and the filename
/// extensions whose name alone settles no format.
package struct MediaTypeTable: Decodable, Sendable {
    /// One MIME name.
    package struct Name: Decodable, Sendable {
        /// Which vocabularies know it (bits: 1 IANA, 2 freedesktop type, 4 freedesktop alias, 8 Tika type,
        /// 16 Tika alias, 32 libmagic, 64 Magika).
        package var vocabularies: UInt8
        /// The name the format goes by (an alias's type), itself for a name that is no alias; one of `names`.
        package var canonical: String
    }

    /// The names, lower-case.
    package var names: [String: Name]
    /// The extensions, lower-case, with what makes each unfit to settle a format alone (bits: 1 shared by
    /// formats of different families, 2 carried only from libmagic's lists, 4 claimed by a text format in
    /// some source though the database's claimants are binary, 8 the other way).
    package var extensions: [String: UInt8]
}

/// `TypeDB/languages.json`, as `make-typedb.py` writes it from GitHub Linguist: the further languages of
/// extensions other types claim, and Linguist's heuristics, each pattern already in PCRE2's syntax.
package struct LanguageTable: Decodable, Sendable {
    /// A condition of a rule: `pattern` matches somewhere in the text (`matches`), or nowhere.
    package struct Condition: Decodable, Sendable {
        package var pattern: String
        package var matches: Bool
        /// Strings of which the text must hold one for the pattern to match (none: not known).
        package var literals: [String]?
        /// The same, lower-case, looked for in the text's ASCII lower-case.
        package var foldedLiterals: [String]?
    }

    /// A rule: the types it chooses (none: not a language Linguist's database has) when every condition holds.
    package struct Rule: Decodable, Sendable {
        package var types: [String]
        package var conditions: [Condition]
    }

    /// One of Linguist's disambiguations: its extensions (lower-case, no dot) and its rules, in order.
    package struct Disambiguation: Decodable, Sendable {
        package var extensions: [String]
        package var rules: [Rule]
    }

    /// By extension, the language types Linguist also gives it.
    package var furtherCandidates: [String: [String]]
    package var disambiguations: [Disambiguation]
}

extension TypeDBDirectory {
    /// The media types' table of a TypeDB directory.
    package static func mediaTypes(in directory: String) throws -> MediaTypeTable {
        try decodeTable(MediaTypeTable.self, from: directory + "/media-types.json")
    }

    /// The languages' table of a TypeDB directory.
    package static func languages(in directory: String) throws -> LanguageTable {
        try decodeTable(LanguageTable.self, from: directory + "/languages.json")
    }

    static func decodeTable<Table: Decodable>(_ type: Table.Type, from path: String) throws -> Table {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: 64 << 20)
        } catch {
            throw GeneratedTableError(path: path, problem: "cannot be read: \(error)")
        }
        do {
            return try JSONDecoder().decode(Table.self, from: Data(bytes))
        } catch {
            throw GeneratedTableError(path: path, problem: "is not the table compile-typedb reads: \(error)")
        }
    }
}

/// A generated table that could not be read.
package struct GeneratedTableError: Error, CustomStringConvertible {
    package var path: String
    package var problem: String
    package var description: String { "\(path) \(problem)" }
}
