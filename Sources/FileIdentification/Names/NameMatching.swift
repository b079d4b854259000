public import UniformTypeIdentifiers
internal import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Tag classes for what identification matches beyond extensions and MIME types: whole file names,
/// multi-dot suffixes and globs, `#!` interpreters, GitHub Linguist's language names, and Magika's
/// labels and MIME names.
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
    /// A pattern (lower-cased) and its type, with what lets most names pass it by without `fnmatch`.
    private struct Pattern {
        var glob: String
        /// `glob` as the C string `fnmatch` reads, made once.
        var cGlob: ContiguousArray<CChar>
        var type: UTType
        /// The pattern's first byte when it is a literal ASCII character: only a name whose first byte is
        /// that byte (case folded) can match.
        var firstByte: UInt8?
        /// Whether the pattern is a whole name followed by `.*` (`isNameWithAnyExtension`).
        var isNamed: Bool
    }

    /// The patterns and their types, best type first, with the order they are tried in for a name's first
    /// byte, kept while the database is unchanged. A class, so that a file's lookups take one reference to it,
    /// not a copy of every pattern.
    private final class Patterns: Sendable {
        let generation: Int
        let all: [Pattern]
        /// For each ASCII first byte (folded), the patterns a name starting with it can match, in database
        /// order: those starting with that literal byte and those starting with a wildcard.
        let byFirstByte: [[Int32]]
        /// The patterns that are a whole name followed by `.*`, in database order.
        let named: [Int32]
        /// What whole names and multi-dot suffixes the database has tags for, as `TagFilter`s: most names
        /// are neither, and are passed by without a lookup.
        let filenames: TagFilter
        let suffixes: TagFilter

        init(generation: Int, all: [Pattern], filenames: TagFilter, suffixes: TagFilter) {
            self.generation = generation
            self.all = all
            self.filenames = filenames
            self.suffixes = suffixes
            byFirstByte = (0..<128).map { byte in
                all.indices.filter { all[$0].firstByte == nil || all[$0].firstByte == UInt8(byte) }.map { Int32($0) }
            }
            named = all.indices.filter { all[$0].isNamed }.map { Int32($0) }
        }
    }

    private static let cache = Mutex<Patterns?>(nil)

    private static func patterns() -> Patterns {
        let generation = TypeDatabase.shared.generation
        if let cached = cache.withLock({ $0 }), cached.generation == generation { return cached }
        var patterns: [Pattern] = []
        for type in TypeDatabase.shared.types(havingTagClass: .filenameGlob) {
            for glob in type.tags(of: .filenameGlob) {
                let lowercased = glob.lowercased()
                let first = lowercased.utf8.first.flatMap { byte in byte < 0x80 && !"*?[\\".utf8.contains(byte) ? byte : nil }
                patterns.append(Pattern(glob: lowercased, cGlob: lowercased.utf8CString, type: type, firstByte: first, isNamed: isNameWithAnyExtension(lowercased)))
            }
        }
        var filenames = TagFilter(), suffixes = TagFilter()
        for type in TypeDatabase.shared.types(havingTagClass: .filename) {
            for tag in type.tags(of: .filename) { filenames.insert(tag) }
        }
        for type in TypeDatabase.shared.types(havingTagClass: .filenameSuffix) {
            for tag in type.tags(of: .filenameSuffix) { suffixes.insert(tag) }
        }
        let made = Patterns(generation: generation, all: patterns, filenames: filenames, suffixes: suffixes)
        cache.withLock { $0 = made }
        return made
    }

    /// Whether a glob is a literal name followed by `.*`: `Makefile.*`, not `README*` or `*.[1-9]`.
    private static func isNameWithAnyExtension(_ glob: String) -> Bool {
        glob.hasSuffix(".*") && glob.count > 2 && !glob.dropLast(2).contains { "*?[".contains($0) }
    }

    /// Which tags of a class the database may hold, a bit for each length, first and last byte (ASCII, case
    /// folded) of its tags: a name whose bit is clear is no tag of the class, and needs no lookup. Any tag
    /// or name that is not ASCII passes (case folding beyond ASCII can change its bytes).
    struct TagFilter: Sendable {
        private var bits = [UInt64](repeating: 0, count: 64)
        private var passesAll = false

        private static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let first = bytes.first, let last = bytes.last, first < 0x80, last < 0x80 else { return nil }
            let folded = { (byte: UInt8) in Int(CompiledTypeDatabase.folded(byte)) }
            return (bytes.count & 63) << 6 | (folded(first) &* 7 ^ folded(last)) & 63
        }

        mutating func insert(_ tag: String) {
            var tag = tag.lowercased()
            guard let slot = tag.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } ? Self.slot(bytes) : nil }) else {
                passesAll = true
                return
            }
            bits[slot >> 6] |= 1 << UInt64(slot & 63)
        }

        /// Whether a tag of the class may be `name` (its bytes).
        func mayHold(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
            guard !passesAll, name.allSatisfy({ $0 < 0x80 }), let slot = Self.slot(name) else { return true }
            return bits[slot >> 6] & 1 << UInt64(slot & 63) != 0
        }
    }

    static func evidence(for filename: String) -> NameEvidence? {
        guard !filename.isEmpty else { return nil }
        let declared = { (tag: String, tagClass: UTTagClass) -> [UTType] in
            TypeDatabase.shared.declaredTypes(tag: tag, tagClass: tagClass)
        }
        var name = filename
        let filters = patterns()
        let literal = name.withUTF8(filters.filenames.mayHold) ? declared(filename, .filename) : []
        if !literal.isEmpty {
            return NameEvidence(filename: filename, match: .filename, tag: filename, candidates: literal)
        }
        // A shared object's version after its `.so` (`libc.so.6`, `libnghttp2.so.14.24.1`): the name of a
        // shared object, as ld.so names them, not an extension of its own (`.6` is no manual page here).
        if let version = sharedObjectVersion(filename) {
            let types = declared("so", .filenameExtension)
            if !types.isEmpty { return NameEvidence(filename: filename, match: .suffix, tag: "so." + version, candidates: types) }
        }
        // Multi-dot suffixes, longest first: a.b.tar.gz tries b.tar.gz, then tar.gz.
        // By bytes: a dot is ASCII, so each one's index is a character's, and no grapheme is looked for.
        // The offsets of the dots but a leading one and the last, first to last, each tried only when the
        // filter lets what follows it be a suffix tag.
        let offsets: [Int] = name.withUTF8 { bytes in
            var passed: [Int] = []
            var previous: Int?
            for offset in 1..<max(bytes.count, 1) where bytes[offset] == UInt8(ascii: ".") {
                // The dot before this one is not the last: what follows it may be a suffix.
                if let previous, filters.suffixes.mayHold(UnsafeBufferPointer(rebasing: bytes[(previous + 1)...])) { passed.append(previous) }
                previous = offset
            }
            return passed
        }
        let utf8 = filename.utf8
        for offset in offsets {
            let suffix = String(filename[utf8.index(utf8.startIndex, offsetBy: offset + 1)...])
            let types = declared(suffix, .filenameSuffix)
            if !types.isEmpty {
                return NameEvidence(filename: filename, match: .suffix, tag: suffix, candidates: types)
            }
        }
        // Digits after digits are a version (`tclsh8.6`, `linux2.6`, `st-0.8`), not an extension: the patterns
        // below still see them (`*.[1-9]`), as a pattern, which promises nothing.
        if let ext = UTType.filenameExtension(ofPath: filename), !Self.isVersion(ext, in: filename) {
            let types = declared(ext, .filenameExtension)
            if !types.isEmpty {
                // A pattern that is a whole name before `.*` says more (freedesktop's longest glob):
                // `Makefile.gnu` is a Makefile, whatever `.gnu` names.
                if let pattern = longestPattern(matching: filename, namedOnly: true, in: filters) {
                    return NameEvidence(filename: filename, match: .pattern, tag: pattern.glob, candidates: pattern.types)
                }
                return NameEvidence(filename: filename, match: .filenameExtension, tag: ext, candidates: types)
            }
        }
        if let pattern = longestPattern(matching: filename, in: filters) {
            return NameEvidence(filename: filename, match: .pattern, tag: pattern.glob, candidates: pattern.types)
        }
        return nil
    }

    /// Whether `ext`, the extension of `filename`, is the last part of a version number: digits only, after a
    /// digit (`8.6` in `tclsh8.6`), where `b.1`'s `1` is a manual page's section.
    static func isVersion(_ ext: String, in filename: String) -> Bool {
        guard !ext.isEmpty, ext.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
        let before = filename.utf8.dropLast(ext.utf8.count + 1).last
        return before.map { (0x30...0x39).contains($0) } ?? false
    }

    /// The version after a shared object's `.so` in `filename` (`6` in `libc.so.6`, `14.24.1` in
    /// `libnghttp2.so.14.24.1`), `nil` when there is none: digits and dots, a digit first and last.
    static func sharedObjectVersion(_ filename: String) -> String? {
        // Read in the name's own storage: asked of every file, it made two arrays each time.
        var filename = filename
        return filename.withUTF8 { bytes -> String? in
            // The last `.so.` after the first byte with at least a byte after it.
            let count = bytes.count
            guard count > 5 else { return nil }
            var start = count - 5
            while start >= 1, !(bytes[start] == UInt8(ascii: ".") && bytes[start + 1] == UInt8(ascii: "s")
                                && bytes[start + 2] == UInt8(ascii: "o") && bytes[start + 3] == UInt8(ascii: ".")) {
                start -= 1
            }
            guard start >= 1 else { return nil }
            let version = UnsafeBufferPointer(rebasing: bytes[(start + 4)...])
            guard let first = version.first, let last = version.last, (0x30...0x39).contains(first), (0x30...0x39).contains(last),
                  version.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") }) else { return nil }
            return String(decoding: version, as: UTF8.self)
        }
    }

    /// The other patterns (`*.[1-9]`, `Makefile*`) that match `filename`: the first that matches, with the
    /// types of every one that does, in the order of the database; with `namedOnly`, of the patterns that
    /// are a whole name followed by `.*` (`Makefile.*`, `Dockerfile.*`), which are few.
    private static func longestPattern(matching filename: String, namedOnly: Bool = false, in table: Patterns = patterns()) -> (glob: String, types: [UTType])? {
        var matched: [UTType] = []
        var pattern = ""
        // A name whose first byte is ASCII lower-cases to a name starting with that byte folded, and is tried
        // only against the patterns that can start so; one that starts otherwise is tried against every pattern.
        let firstByte = filename.utf8.first.flatMap { byte in byte < 0x80 ? CompiledTypeDatabase.folded(byte) : nil }
        // The name lower-cased and made a C string once, when a pattern first needs it.
        var lowercased: (name: String, cString: ContiguousArray<CChar>)?
        func tried(_ index: Int) {
            if let required = table.all[index].firstByte, let firstByte, required != firstByte { return }
            let name = lowercased ?? { let name = filename.lowercased(); return (name, name.utf8CString) }()
            lowercased = name
            guard !namedOnly || table.all[index].glob.utf8.first == name.name.utf8.first else { return }
            let matches = table.all[index].cGlob.withUnsafeBufferPointer { glob in
                name.cString.withUnsafeBufferPointer { fnmatch(glob.baseAddress, $0.baseAddress, 0) == 0 }
            }
            guard matches else { return }
            if matched.isEmpty { pattern = table.all[index].glob }
            if !matched.contains(table.all[index].type) { matched.append(table.all[index].type) }
        }
        if namedOnly {
            for index in table.named { tried(Int(index)) }
        } else if let firstByte {
            for index in table.byFirstByte[Int(firstByte)] { tried(Int(index)) }
        } else {
            for index in table.all.indices { tried(index) }
        }
        return matched.isEmpty ? nil : (pattern, matched)
    }
}
