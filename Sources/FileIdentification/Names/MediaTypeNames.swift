internal import CTypeDatabase
#if canImport(Glibc)
import Glibc
#endif

/// The vocabularies a MIME name belongs to, from the table `make-typedb.py` generates
/// (`Sources/CTypeDatabase/mediatypes.c`; `media_type_vocabularies` in TypeDB/tools/typedb/vocabularies.py):
/// the IANA registry, freedesktop.org's shared-mime-info 2.4, Apache Tika's MIME database and the strings
/// libmagic prints.
struct MediaTypeVocabularies: OptionSet, Sendable {
    let rawValue: UInt8
    static let iana = Self(rawValue: 1)
    static let freedesktop = Self(rawValue: 2)
    static let freedesktopAlias = Self(rawValue: 4)
    static let tika = Self(rawValue: 8)
    static let tikaAlias = Self(rawValue: 16)
    static let libmagic = Self(rawValue: 32)
    static let magika = Self(rawValue: 64)
}

/// What a filename extension says on its own (see `MediaTypeNames.extensionKinds`).
struct ExtensionKinds: OptionSet, Sendable {
    let rawValue: UInt8
    /// Formats of different families claim it.
    static let shared = Self(rawValue: 1)
    /// The types that carry it carry it only from libmagic's lists of extensions seen.
    static let libmagicOnly = Self(rawValue: 2)
    /// The database's claimants are all binary formats, and a text format claims it in some source (a
    /// shared-mime-info glob, libmagic's lists, GitHub Linguist's extensions): Jetty's text `.mod` files.
    static let textElsewhere = Self(rawValue: 4)
    /// The database's claimants are all text formats, and a binary format claims it in some source.
    static let binaryElsewhere = Self(rawValue: 8)
    /// In common use it names binary data of any kind, not one format (`bin`: firmware, ROM and disc images,
    /// where Apple's database has only MacBinary): curated, `TypeDB/sources/curated/content.toml`.
    static let anyBinary = Self(rawValue: 16)
}

/// One name per format: of the MIME names a type carries, the one identification reports.
enum MediaTypeNames {
    /// Where `name` (any case) is in the table, if it is.
    static func index(of name: String) -> Int? {
        GeneratedTable.index(of: name.lowercased(), count: Int(uti_media_type_count())) { uti_media_type_name($0) }
    }

    /// What the filename extension `ext` (any case) says on its own, from the table `make-typedb.py`
    /// generates (`extension_kinds` in TypeDB/tools/typedb/vocabularies.py): whether formats of different
    /// families claim it across the sources (`key`, `mod`, `bin`), and whether the types that carry it carry
    /// it only from libmagic's lists of extensions files of their format were seen with (`dat`).
    static func extensionKinds(_ ext: String) -> ExtensionKinds {
        GeneratedTable.index(of: ext.lowercased(), count: Int(uti_extension_count())) { uti_extension($0) }
            .map { ExtensionKinds(rawValue: uti_extension_kinds($0)) } ?? []
    }

    static func vocabularies(of name: String) -> MediaTypeVocabularies {
        index(of: name).map { MediaTypeVocabularies(rawValue: uti_media_type_vocabularies($0)) } ?? []
    }

    /// The name the format `name` names goes by (an alias's type, lower-case); `name` lower-cased if it is
    /// no alias.
    static func canonical(_ name: String) -> String {
        guard let position = index(of: name), let entry = uti_media_type_name(uti_media_type_canonical(position)) else {
            return name.lowercased()
        }
        return String(cString: entry)
    }

    /// Whether two names name one format (the same name, or one an alias of the other's type).
    static func sameFormat(_ first: String, _ second: String) -> Bool {
        guard let one = index(of: first), let other = index(of: second) else { return first.lowercased() == second.lowercased() }
        return uti_media_type_canonical(one) == uti_media_type_canonical(other)
    }

    /// The order names are preferred in: registered with IANA, then freedesktop's type, a freedesktop alias,
    /// Tika's type, a Tika alias, libmagic's string, Magika's name, and last a name none of them has.
    static func rank(_ name: String) -> Int {
        let known = vocabularies(of: name)
        let order: [MediaTypeVocabularies] = [.iana, .freedesktop, .freedesktopAlias, .tika, .tikaAlias, .libmagic, .magika]
        return order.firstIndex { known.contains($0) } ?? order.count
    }

    /// The name to report among `names` (one type's MIME types, in declaration order): the best-ranked;
    /// when `format` (the name a file's name or a content reader gave) is a freedesktop type among those the
    /// type covers, the best-ranked name of that format (freedesktop's types are formats of their own; other
    /// vocabularies' names for them are not a distinction). Ties keep declaration order. `nil` for no names.
    static func preferred(among names: [String], format: String?) -> String? {
        // One name (most types): nothing to choose, nothing to look up.
        guard names.count > 1 else { return names.first }
        var candidates = names
        if let format, !vocabularies(of: format).isDisjoint(with: [.freedesktop, .freedesktopAlias]) {
            let same = names.filter { sameFormat($0, format) }
            if !same.isEmpty { candidates = same }
        }
        var best: (name: String, rank: Int)?
        for name in candidates {
            let rank = rank(name)
            if rank < best?.rank ?? Int.max { best = (name, rank) }
        }
        return best?.name
    }
}

/// The tables `make-typedb.py` generates in C: sorted by their keys in byte order, so that a key is found by
/// binary search and nothing is parsed before a file needs it. The one search over them.
enum GeneratedTable {
    /// Where `key` (as the table spells its keys: lower case) is among the `count` entries `entryAt` gives.
    static func index(of key: String, count: Int, entryAt: (Int) -> UnsafePointer<CChar>?) -> Int? {
        var low = 0, high = count
        return key.withCString { key -> Int? in
            while low < high {
                let middle = (low + high) / 2
                guard let entry = entryAt(middle) else { return nil }
                let order = strcmp(entry, key)
                if order == 0 { return middle }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }
}
