internal import Synchronization

/// The types a query names, as `uti types` and `GET /types` ask: those claiming an extension or a MIME
/// type (best first; the dynamic type when nobody declares one; a MIME type's parameters, `; charset=binary`
/// as `file -i` prints them, are ignored), else every declared type; kept when they conform to
/// `conformingTo`. Words find types the way people name them, best match first: a word that is one of a
/// type's tags (`docx`, `.docx`, `image/webp`), then one that is a part of its identifier (`word` in
/// `com.microsoft.word.doc`), a whole word of its description, and last anywhere in either.
///
/// A query is bounded (`maximumWords` words of at most `maximumWordLength` characters): what anyone may ask of a
/// service costs at most that many passes over text folded once per database, never more.
package enum TypeQuery {
    package struct Failure: Error {
        package var message: String
    }

    /// The most words a query may hold.
    package static let maximumWords = 16
    /// The longest word, in characters (Unicode scalars, as JSON Schema's `maxLength` counts them).
    package static let maximumWordLength = 64
    /// The longest query as a service receives it, separators included.
    package static let maximumQueryLength = maximumWords * (maximumWordLength + 1)

    /// The words of a query as a service receives it (`q=`, words separated by spaces, or by `+` as HTML
    /// forms and most HTTP libraries send spaces), checked against the bounds before it is split.
    package static func words(in query: String) throws(Failure) -> [String] {
        guard query.unicodeScalars.count <= maximumQueryLength else {
            throw Failure(message: "a query is at most \(maximumQueryLength) characters: \(maximumWords) words of at most \(maximumWordLength)")
        }
        let words = query.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init)
        try check(words)
        return words
    }

    private static func check(_ words: [String]) throws(Failure) {
        guard words.count <= maximumWords else { throw Failure(message: "a query is at most \(maximumWords) words; this one has \(words.count)") }
        if let long = words.first(where: { $0.unicodeScalars.count > maximumWordLength }) {
            throw Failure(message: "a word of a query is at most \(maximumWordLength) characters; '\(long.prefix(16))…' has \(long.unicodeScalars.count)")
        }
    }

    package static func types(filenameExtension: String? = nil, mimeType: String? = nil, conformingTo: String? = nil,
                              words: [String] = []) throws(Failure) -> [UTType] {
        try check(words)
        var supertype: UTType?
        if let conformingTo {
            guard let type = UTType(conformingTo) else { throw Failure(message: "unknown type identifier '\(conformingTo)'") }
            supertype = type
        }
        let needles = words.map { Array($0.lowercased().utf8) }
        var types: [UTType]
        let mimeType = mimeType.map(withoutParameters)
        if let filenameExtension {
            types = try tagged(filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension, .filenameExtension)
        } else if let mimeType {
            types = try tagged(mimeType, .mimeType)
        } else if !needles.isEmpty {
            types = ranked(words)
        } else {
            types = TypeDatabase.shared.declarations.compactMap { UTType($0.identifier) }
        }
        if let mimeType, filenameExtension != nil {
            let claiming = Set(try tagged(mimeType, .mimeType))
            types = types.filter { claiming.contains($0) }
        }
        if let supertype { types = types.filter { $0.conforms(to: supertype) } }
        if !needles.isEmpty && (filenameExtension != nil || mimeType != nil) {
            types = types.filter { type in
                let text = SearchIndex.folded(type)
                return needles.allSatisfy { SearchIndex.contains(text, $0) }
            }
        }
        return types
    }

    /// A MIME type without its parameters (`image/png; charset=binary` is `image/png`).
    package static func withoutParameters(_ mimeType: String) -> String {
        guard let semicolon = mimeType.firstIndex(of: ";") else { return mimeType }
        return String(mimeType[..<semicolon]).trimming(while: { $0 == " " || $0 == "\t" })
    }

    /// How well a word names a type, best first.
    fileprivate enum Match: Int, Comparable {
        case tag, identifierPart, descriptionWord, anywhere
        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Every declared type that each word names (as a tag, or in its identifier or description), the best
    /// named first: by the sum of each word's match, then by the tag's own order of its claimants, then in
    /// the database's order.
    private static func ranked(_ words: [String]) -> [UTType] {
        // The types claiming each word as an extension or a MIME type, in the tag's own order (best first).
        var claimed: [UTType: (word: Set<Int>, place: Int)] = [:]
        for (index, word) in words.enumerated() {
            let bare = word.hasPrefix(".") ? String(word.dropFirst()) : word
            let claimants = TypeDatabase.shared.declaredTypes(tag: bare, tagClass: .filenameExtension)
                + (bare.contains("/") ? TypeDatabase.shared.declaredTypes(tag: withoutParameters(bare), tagClass: .mimeType) : [])
            for (place, type) in claimants.enumerated() {
                var entry = claimed[type] ?? ([], place)
                entry.word.insert(index)
                entry.place = min(entry.place, place)
                claimed[type] = entry
            }
        }
        let needles = words.map { Array($0.lowercased().utf8) }
        var found: [(type: UTType, score: Int, place: Int, order: Int)] = []
        for (order, entry) in SearchIndex.current.entries.enumerated() {
            let tags = claimed[entry.type]
            var score = 0
            var matchesAll = true
            for (index, needle) in needles.enumerated() {
                if tags?.word.contains(index) == true { continue }
                guard let match = SearchIndex.match(needle, in: entry) else {
                    matchesAll = false
                    break
                }
                score += match.rawValue
            }
            if matchesAll { found.append((entry.type, score, tags?.place ?? Int.max, order)) }
        }
        found.sort { ($0.score, $0.place, $0.order) < ($1.score, $1.place, $1.order) }
        return found.map(\.type)
    }

    private static func tagged(_ tag: String, _ tagClass: UTTagClass) throws(Failure) -> [UTType] {
        let declared = TypeDatabase.shared.declaredTypes(tag: tag, tagClass: tagClass)
        if !declared.isEmpty { return declared }
        guard let dynamic = UTType(tag: tag, tagClass: tagClass, conformingTo: .data) else {
            throw Failure(message: "'\(tag)' is not a valid \(tagClass == .filenameExtension ? "filename extension" : "tag")")
        }
        return [dynamic]
    }

    /// Each declared type's identifier and description (its own or inherited), lower-cased once per state
    /// of the database (its `generation`), in declaration order.
    package struct SearchIndex: Sendable {
        let generation: Int
        /// Each type, its folded text (identifier, a space, description) and where its description starts.
        let entries: [(type: UTType, text: [UInt8])]

        private static let cached = Mutex<SearchIndex?>(nil)

        /// The index of `TypeDatabase.shared` as it is now: made again only when its declarations changed.
        package static var current: SearchIndex {
            let generation = TypeDatabase.shared.generation
            if let index = cached.withLock({ $0 }), index.generation == generation { return index }
            let entries = TypeDatabase.shared.declarations.compactMap { declaration in
                UTType(declaration.identifier).map { ($0, folded($0)) }
            }
            let index = SearchIndex(generation: generation, entries: entries)
            cached.withLock { $0 = index }
            return index
        }

        static func folded(_ type: UTType) -> [UInt8] {
            Array((type.identifier + " " + (type.localizedDescription ?? "")).lowercased().utf8)
        }

        /// How `needle` (folded) names the entry: a part of its identifier between dots, a whole word of its
        /// description, anywhere in either; `nil` when it does not occur.
        fileprivate static func match(_ needle: [UInt8], in entry: (type: UTType, text: [UInt8])) -> Match? {
            guard contains(entry.text, needle) else { return nil }
            let text = entry.text
            let space = text.firstIndex(of: UInt8(ascii: " ")) ?? text.count
            if text[..<space].split(separator: UInt8(ascii: ".")).contains(where: { $0.elementsEqual(needle) }) { return .identifierPart }
            let isLetter = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || byte >= 0x80 }
            var start = space
            while start + needle.count <= text.count {
                if text[start..<(start + needle.count)].elementsEqual(needle),
                   start == space || !isLetter(text[start - 1]),
                   start + needle.count == text.count || !isLetter(text[start + needle.count]) {
                    return .descriptionWord
                }
                start += 1
            }
            return .anywhere
        }

        /// Whether `needle` occurs in `haystack`.
        static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            guard let first = needle.first else { return true }
            guard haystack.count >= needle.count else { return false }
            var start = 0
            let last = haystack.count - needle.count
            while start <= last {
                if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
                start += 1
            }
            return false
        }
    }
}
