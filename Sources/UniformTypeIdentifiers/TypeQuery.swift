internal import Synchronization

/// The types a query names, as `uti types` and `GET /types` ask: those claiming an extension or a MIME
/// type (best first; the dynamic type when nobody declares one), else every declared type; kept when they
/// conform to `conformingTo` and hold every word in their identifier or description.
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
        if let filenameExtension {
            types = try tagged(filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension, .filenameExtension)
        } else if let mimeType {
            types = try tagged(mimeType, .mimeType)
        } else if !needles.isEmpty {
            // Every declared type: the folded text first, the types made only for those that hold the words.
            types = SearchIndex.current.entries.compactMap { entry in
                needles.allSatisfy { SearchIndex.contains(entry.text, $0) } ? entry.type : nil
            }
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
