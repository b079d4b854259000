public import UniformTypeIdentifiers
internal import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension UTTagClass {
    /// Whole file names (`Makefile`, `CMakeLists.txt`), compared case-insensitively: freedesktop's literal globs.
    public static let filename = UTTagClass(rawValue: "uti.filename")
    /// What follows a dot that is not the last (`tar.gz` for `*.tar.gz`): freedesktop's multi-dot globs.
    public static let filenameSuffix = UTTagClass(rawValue: "uti.filename-suffix")
    /// Other freedesktop globs, in `fnmatch` syntax (`*.[1-9]`, `README*`).
    public static let filenameGlob = UTTagClass(rawValue: "uti.filename-glob")
}

/// What a file name says, in freedesktop's order: the whole name, then the longest multi-dot suffix,
/// then the extension (after the last dot), then other patterns.
enum NameMatching {
    /// The patterns (lower-cased) and their types, best type first, kept while the database is unchanged.
    private static let cache = Mutex<(generation: Int, patterns: [(String, UTType)])?>(nil)

    private static func patterns() -> [(String, UTType)] {
        let generation = TypeDatabase.shared.generation
        if let cached = cache.withLock({ $0 }), cached.generation == generation { return cached.patterns }
        var patterns: [(String, UTType)] = []
        for type in TypeDatabase.shared.types(havingTagClass: .filenameGlob) {
            for glob in type.tags[.filenameGlob] ?? [] { patterns.append((glob.lowercased(), type)) }
        }
        cache.withLock { $0 = (generation, patterns) }
        return patterns
    }

    static func evidence(for filename: String) -> NameEvidence? {
        guard !filename.isEmpty else { return nil }
        let declared = { (tag: String, tagClass: UTTagClass) -> [UTType] in
            TypeDatabase.shared.declaredTypes(tag: tag, tagClass: tagClass)
        }
        let literal = declared(filename, .filename)
        if !literal.isEmpty {
            return NameEvidence(filename: filename, match: .filename, tag: filename, candidates: literal)
        }
        // Multi-dot suffixes, longest first: a.b.tar.gz tries b.tar.gz, then tar.gz.
        var dots = filename.indices.filter { filename[$0] == "." }
        if dots.first == filename.startIndex { dots.removeFirst() }
        for dot in dots.dropLast() {
            let suffix = String(filename[filename.index(after: dot)...])
            let types = declared(suffix, .filenameSuffix)
            if !types.isEmpty {
                return NameEvidence(filename: filename, match: .suffix, tag: suffix, candidates: types)
            }
        }
        if let ext = UTType.filenameExtension(ofPath: filename) {
            let types = declared(ext, .filenameExtension)
            if !types.isEmpty {
                return NameEvidence(filename: filename, match: .filenameExtension, tag: ext, candidates: types)
            }
        }
        var matched: [UTType] = []
        var pattern = ""
        let lowercased = filename.lowercased()
        for (glob, type) in patterns() where fnmatch(glob, lowercased, 0) == 0 {
            if matched.isEmpty { pattern = glob }
            if !matched.contains(type) { matched.append(type) }
        }
        if !matched.isEmpty {
            return NameEvidence(filename: filename, match: .pattern, tag: pattern, candidates: matched)
        }
        return nil
    }
}
