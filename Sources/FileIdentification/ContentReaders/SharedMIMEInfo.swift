#if BuiltInSharedMIMEInfo
internal import CSharedMIMEInfo
#endif
internal import Synchronization
internal import UniformTypeIdentifiers
internal import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// The freedesktop shared-mime-info data identification reads, from two databases: the system's (the
/// `mime` directory of the first data directory that holds one), which desktop applications share and
/// packages extend, and shared-mime-info 2.4's, compiled into the library from `TypeDB/mime` with the
/// `BuiltInSharedMIMEInfo` trait, so that a machine with an older database (Debian 12 ships 2.2) still
/// knows 2.4's rules, and a machine with none still identifies.
///
/// The newer of the two (by its `version` file; a database without one is the older) decides for every
/// type it knows, as a type or as an alias; the older adds only the types the newer does not know at
/// all, such as those a locally installed package declares.
///
/// One value per configuration is kept for the life of the process (`database(for:)`), and each part
/// of it (names, magic, globs, XML namespaces) is read the first time something needs it: most files
/// are settled before any is.
final class SharedMIMEInfo: Sendable {
    /// Which databases take part.
    struct Configuration: Hashable, Sendable {
        /// The data directories whose `mime` subdirectory may hold the system's database, in order.
        var dataDirectories: [String]
        /// Whether the built-in 2.4 data takes part (when the library has it).
        var includesBuiltIn: Bool
    }

    /// Where a database's files come from.
    enum Source: Sendable, Hashable {
        case builtIn
        case directory(String)

        /// Whether the library carries shared-mime-info's data (the `BuiltInSharedMIMEInfo` trait).
        static var builtInIsAvailable: Bool {
            #if BuiltInSharedMIMEInfo
            true
            #else
            false
            #endif
        }

        /// The bytes of one of the database's files (`magic`, `types`, ...); `nil` when it has none.
        func file(_ name: String) -> [UInt8]? {
            switch self {
            case .builtIn:
                #if BuiltInSharedMIMEInfo
                var size = 0
                guard let bytes = name.withCString({ uti_builtin_mime_file($0, &size) }) else { return nil }
                return Array(UnsafeBufferPointer(start: bytes, count: size))
                #else
                return nil
                #endif
            case .directory(let path):
                // A database file larger than 64 MiB is not one.
                return try? RegularFile.read(path + "/" + name, limit: 64 << 20)
            }
        }

        /// Calls `body` with one of the database's files in place: the built-in bytes themselves (static,
        /// never copied), or a file read; `nil` when the database has no such file.
        func withFile<R>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
            switch self {
            case .builtIn:
                #if BuiltInSharedMIMEInfo
                var size = 0
                guard let bytes = name.withCString({ uti_builtin_mime_file($0, &size) }) else { return nil }
                return body(UnsafeBufferPointer(start: bytes, count: size))
                #else
                return nil
                #endif
            case .directory:
                return file(name)?.withUnsafeBufferPointer(body)
            }
        }

        /// The file's lines, split as bytes (fast) and decoded one by one, lower-cased when asked.
        func lines(_ name: String, lowercased: Bool = false) -> [String] {
            guard let bytes = file(name) else { return [] }
            return bytes.split(separator: UInt8(ascii: "\n")).map { line in
                lowercased ? String(decoding: line.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
                    : String(decoding: line, as: UTF8.self)
            }
        }

        var version: [Int] {
            (lines("version").first ?? "").split(separator: ".").compactMap { Int($0) }
        }
    }

    /// A file of lines looked up by their first field (`types`, `aliases`), in place: an index of where each
    /// line starts, in byte order of that field, and a binary search. shared-mime-info writes these files
    /// sorted; a file that is not is sorted here.
    struct SortedLines: Sendable {
        private let bytes: [UInt8]
        /// Each key's start and end in `bytes`, one after the other, in byte order of the keys. Plain `Int`s,
        /// not ranges: an array of a generic type costs a runtime metadata lookup at start-up. Empty when
        /// the file is known to be sorted: then lines are searched in place.
        private let keys: [Int]
        private let indexed: Bool

        /// - Parameter sorted: Whether the file is known to be sorted (the built-in data, checked by a test);
        ///   a file from elsewhere is indexed, and sorted here if it is not.
        init(_ bytes: [UInt8]?, sorted known: Bool = false) {
            let bytes = bytes ?? []
            if known {
                self.bytes = bytes
                self.keys = []
                self.indexed = false
                return
            }
            var keys: [Int] = []
            keys.reserveCapacity(bytes.count / 12)
            var sorted = true
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var start = 0
                while start < buffer.count {
                    let end = memchr(base + start, 0x0A, buffer.count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                    let keyEnd = memchr(base + start, 0x20, end - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? end
                    if keyEnd > start {
                        if keys.count >= 2 {
                            let lastStart = keys[keys.count - 2], lastLength = keys[keys.count - 1] - lastStart
                            let order = memcmp(base + lastStart, base + start, min(lastLength, keyEnd - start))
                            if order > 0 || (order == 0 && lastLength >= keyEnd - start) { sorted = false }
                        }
                        keys.append(start)
                        keys.append(keyEnd)
                    }
                    start = end + 1
                }
            }
            if !sorted {
                var pairs = stride(from: 0, to: keys.count, by: 2).map { (keys[$0], keys[$0 + 1]) }
                pairs.sort { bytes[$0.0..<$0.1].lexicographicallyPrecedes(bytes[$1.0..<$1.1]) }
                keys = pairs.flatMap { [$0.0, $0.1] }
            }
            self.bytes = bytes
            self.keys = keys
            self.indexed = true
        }

        func contains(_ key: String) -> Bool {
            var key = key
            return key.withUTF8 { key in
                bytes.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress, let keyBase = key.baseAddress else { return false }
                    guard indexed else { return Self.search(bytes, for: UnsafeRawBufferPointer(key)) }
                    var low = 0
                    var high = keys.count / 2
                    while low < high {
                        let middle = (low + high) / 2
                        let start = keys[middle * 2], length = keys[middle * 2 + 1] - start
                        var order = Int(memcmp(base + start, keyBase, min(length, key.count)))
                        if order == 0 { order = length - key.count }
                        if order == 0 { return true }
                        if order < 0 { low = middle + 1 } else { high = middle }
                    }
                    return false
                }
            }
        }

        /// Binary search over the lines of a sorted file in place: each probe finds the line around a byte
        /// offset, and compares its first field.
        private static func search(_ bytes: UnsafeRawBufferPointer, for key: UnsafeRawBufferPointer) -> Bool {
            guard let base = bytes.baseAddress, let keyBase = key.baseAddress else { return false }
            var low = 0
            var high = bytes.count
            while low < high {
                var start = (low + high) / 2
                while start > low, bytes[start - 1] != 0x0A { start -= 1 }
                let end = memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
                let keyEnd = memchr(base + start, 0x20, end - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? end
                let length = keyEnd - start
                var order = Int(memcmp(base + start, keyBase, min(length, key.count)))
                if order == 0 { order = length - key.count }
                if order == 0 { return true }
                if order < 0 { low = end + 1 } else { high = start }
            }
            return false
        }
    }

    /// A database's names: its types and its aliases (lower-case, as shared-mime-info writes them).
    struct Names: Sendable {
        let types: SortedLines
        let aliases: SortedLines

        /// Whether lookups go through an index (built when the names were read) rather than searching the
        /// sorted bytes in place.
        let isIndexed: Bool

        /// - Parameter inPlace: Search the files in place; only for the built-in files, which are written
        ///   sorted (a test checks). A system's files are always indexed.
        init(_ source: Source?, inPlace: Bool) {
            let sorted = inPlace && source == .builtIn
            types = SortedLines(source?.file("types"), sorted: sorted)
            aliases = SortedLines(source?.file("aliases"), sorted: sorted)
            isIndexed = !sorted
        }

        /// Whether the database knows `mimeType` (lower-cased) as a type or as an alias.
        func knows(_ mimeType: String) -> Bool {
            types.contains(mimeType) || aliases.contains(mimeType)
        }
    }

    /// The parts of the databases, each made the first time it is needed. No generic wrapper: a generic class
    /// or a dictionary keyed by a type of ours costs a runtime metadata lookup at start-up.
    private struct Parts {
        var ordered = false
        var newer: Source?
        var older: Source?
        var newerNames: Names?
        var olderNames: Names?
        var magic: MagicRules?
        var namespaces: [String: String]?
        var newerGlobBytes: [UInt8]?
        var olderGlobBytes: [UInt8]?
        var newerGlobs: GlobIndex?
        var olderGlobs: GlobIndex?
        /// How many glob lookups were made without an index (each for all of one type's MIME types), and
        /// how many name lookups; past `lookupsBeforeIndexing`, the databases are indexed.
        var globScans = 0
        var nameLookups = 0
    }

    /// Searching in place costs nothing to set up and a little each time; an index the other way round.
    /// A command identifying a few files searches; a classification indexes.
    static let lookupsBeforeIndexing = 64

    let configuration: Configuration
    private let parts = Mutex(Parts())

    /// What `reportedMIMEType` decided for a type, a format and a vocabulary (the name a file's name or a
    /// reader gave): the same for every file of that format, so a classification decides it once. Used only
    /// after `lookupsBeforeIndexing` reports (one command on a few files never builds it), and emptied when
    /// the type database changes. Keyed by strings, not a struct of ours (see `Parts`).
    struct ReportCache {
        var reports = 0
        var generation = 0
        var names: [Report: String] = [:]
        /// A type's MIME types, lower-cased, and their globs: what choosing among them by a file's name reads.
        var globs: [UTType: NameGlobs] = [:]
    }

    /// A type's MIME types (lower-cased) and the globs naming each, made ready to match a name many times: a
    /// glob that is `*` and a literal suffix (nearly all) compared as bytes, any other given to `fnmatch` as
    /// the C string made here once. One object, so that a lookup retains one reference, not every string.
    final class NameGlobs: Sendable {
        enum Glob: Sendable {
            /// `*` then these bytes (no `*`, `?`, `[` or `\\` among them): what `fnmatch` matches as a suffix.
            case suffix([UInt8], weight: Int)
            case pattern(ContiguousArray<CChar>, weight: Int)
        }

        let mimeTypes: [String]
        let globs: [[Glob]]

        init(mimeTypes: [String], globs: [[(glob: String, weight: Int)]]) {
            self.mimeTypes = mimeTypes
            self.globs = globs.map { list in
                list.map { glob, weight in
                    let bytes = Array(glob.utf8)
                    let literal = bytes.dropFirst()
                    if bytes.first == UInt8(ascii: "*"),
                       !literal.contains(where: { [UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "\\")].contains($0) }) {
                        return .suffix(Array(literal), weight: weight)
                    }
                    return .pattern(glob.utf8CString, weight: weight)
                }
            }
        }

        /// The highest weight of the globs of `mimeTypes[index]` that match `name` (lower-cased, its bytes), -1
        /// for none; `cString` is the name made a C string, when a glob first needs one.
        func weight(_ index: Int, matching name: UnsafeBufferPointer<UInt8>, cString: inout ContiguousArray<CChar>?) -> Int {
            var best = -1
            for glob in globs[index] {
                switch glob {
                case .suffix(let suffix, let weight):
                    guard weight > best, suffix.count <= name.count else { continue }
                    let matches = suffix.withUnsafeBufferPointer { suffix in
                        guard let base = name.baseAddress, let bytes = suffix.baseAddress else { return suffix.isEmpty }
                        return memcmp(base + (name.count - suffix.count), bytes, suffix.count) == 0
                    }
                    if matches { best = weight }
                case .pattern(let pattern, let weight):
                    guard weight > best else { continue }
                    let subject = cString ?? ContiguousArray(name.lazy.map { CChar(bitPattern: $0) }) + [0]
                    cString = subject
                    let matches = pattern.withUnsafeBufferPointer { pattern in
                        subject.withUnsafeBufferPointer { fnmatch(pattern.baseAddress, $0.baseAddress, 0) == 0 }
                    }
                    if matches { best = weight }
                }
            }
            return best
        }
    }

    /// What a reported name is decided by: the type (hashed by its place in the built-in database when it
    /// has one), the format the evidence names, and the vocabulary.
    struct Report: Hashable {
        var type: UTType
        var format: String?
        var vocabulary: MIMENames
    }
    let reportCache = Mutex(ReportCache())

    private init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// One value per configuration, for the life of the process (a few at most: a list is enough).
    private static let databases = Mutex<[SharedMIMEInfo]>([])

    /// The databases of a configuration, shared by every identifier configured alike.
    static func database(for configuration: Configuration) -> SharedMIMEInfo {
        databases.withLock { databases in
            if let database = databases.first(where: { $0.configuration == configuration }) { return database }
            let database = SharedMIMEInfo(configuration)
            databases.append(database)
            return database
        }
    }

    // Each part is computed outside the lock (it may need other parts) and kept by the first to finish.

    /// The databases that take part: the newer first; the built-in one when they are as new (or neither says).
    private var order: (newer: Source?, older: Source?) {
        if let known = parts.withLock({ $0.ordered ? ($0.newer, $0.older) : nil }) { return known }
        let system = Self.systemDirectory(in: configuration.dataDirectories).map(Source.directory)
        let builtIn: Source? = configuration.includesBuiltIn && Source.builtInIsAvailable ? .builtIn : nil
        var order: (newer: Source?, older: Source?) = (builtIn, nil)
        if let system {
            if let builtIn {
                order = builtIn.version.lexicographicallyPrecedes(system.version) ? (system, builtIn) : (builtIn, system)
            } else {
                order = (system, nil)
            }
        }
        parts.withLock { parts in
            if !parts.ordered { (parts.ordered, parts.newer, parts.older) = (true, order.newer, order.older) }
        }
        return order
    }

    /// The newer database's names: searched in place for the first lookups of a process (a command that
    /// identifies a few files), indexed after them (a classification).
    private var newerNames: Names {
        let (cached, lookups) = parts.withLock { parts in
            parts.nameLookups += 1
            return (parts.newerNames, parts.nameLookups)
        }
        let wantIndex = lookups > Self.lookupsBeforeIndexing
        if let cached, cached.isIndexed || !wantIndex { return cached }
        let names = Names(order.newer, inPlace: !wantIndex)
        return parts.withLock { parts in
            if parts.newerNames == nil || (names.isIndexed && parts.newerNames?.isIndexed == false) { parts.newerNames = names }
            return parts.newerNames ?? names
        }
    }

    private var olderNames: Names {
        if let names = parts.withLock({ $0.olderNames }) { return names }
        let names = Names(order.older, inPlace: false)
        return parts.withLock { parts in
            if parts.olderNames == nil { parts.olderNames = names }
            return parts.olderNames ?? names
        }
    }

    /// The content rules, made once, in a box: what a file's reading takes from the lock is one reference, not
    /// a copy of the rules' tables (each of them retained, 3,500 instructions a file).
    final class MagicRules: Sendable {
        let rules: FreedesktopMagic
        init(_ rules: FreedesktopMagic) { self.rules = rules }
    }

    /// Every section of the content rules matching `data`, highest priority first (`FreedesktopMagic.matches`).
    func magicMatches(_ data: [UInt8]) -> [FreedesktopMagic.Match] {
        magicRules.rules.matches(data)
    }

    /// The content rules: the newer database's, and the older's for types the newer does not know.
    private var magicRules: MagicRules {
        if let magic = parts.withLock({ $0.magic }) { return magic }
        var magic = FreedesktopMagic()
        let order = order
        if let newer = order.newer?.file("magic") { magic.add(newer) }
        if let older = order.older?.file("magic") {
            let names = newerNames
            magic.add(older, where: { !names.knows($0) })
        }
        let made = MagicRules(magic)
        return parts.withLock { parts in
            if parts.magic == nil { parts.magic = made }
            return parts.magic ?? made
        }
    }

    /// `namespace-URI local-name` to MIME type, the newer database's entries first.
    private var namespaces: [String: String] {
        if let namespaces = parts.withLock({ $0.namespaces }) { return namespaces }
        var namespaces: [String: String] = [:]
        for source in [order.newer, order.older].compactMap({ $0 }) {
            for line in source.lines("XMLnamespaces") {
                // An element in no namespace has an empty first field.
                let fields = line.split(separator: " ", omittingEmptySubsequences: false)
                if fields.count == 3, namespaces["\(fields[0]) \(fields[1])"] == nil {
                    namespaces["\(fields[0]) \(fields[1])"] = fields[2].lowercased()
                }
            }
        }
        return parts.withLock { parts in
            if parts.namespaces == nil { parts.namespaces = namespaces }
            return parts.namespaces ?? namespaces
        }
    }

    /// The globs of each of `mimeTypes` (lower-cased) in the newer database (`older: false`) or the older
    /// one: searched in the bytes for the first lookups, from an index after them.
    private func globs(of mimeTypes: [String], older: Bool) -> [[(glob: String, weight: Int)]] {
        let source = older ? order.older : order.newer
        let cached = parts.withLock { parts -> (index: GlobIndex?, bytes: [UInt8]?, scan: Bool) in
            let index = older ? parts.olderGlobs : parts.newerGlobs
            let bytes = older ? parts.olderGlobBytes : parts.newerGlobBytes
            if index == nil { parts.globScans += 1 }
            return (index, bytes, parts.globScans <= Self.lookupsBeforeIndexing)
        }
        if let index = cached.index { return mimeTypes.map(index.globs(of:)) }
        // The built-in file is written sorted by weight, type and pattern (a test checks): searched in place.
        if cached.scan, let source, source == .builtIn {
            return source.withFile("globs2") { GlobIndex.sortedLookup($0, for: mimeTypes) } ?? mimeTypes.map { _ in [] }
        }
        let bytes = cached.bytes ?? source?.file("globs2") ?? []
        if cached.scan {
            if cached.bytes == nil {
                parts.withLock { parts in
                    if older { parts.olderGlobBytes = parts.olderGlobBytes ?? bytes } else { parts.newerGlobBytes = parts.newerGlobBytes ?? bytes }
                }
            }
            return GlobIndex.scan(bytes, for: mimeTypes)
        }
        let index = GlobIndex(bytes)
        parts.withLock { parts in
            if older { parts.olderGlobs = parts.olderGlobs ?? index } else { parts.newerGlobs = parts.newerGlobs ?? index }
        }
        return mimeTypes.map(index.globs(of:))
    }

    /// `$XDG_DATA_DIRS` when set, else `/usr/local/share` and `/usr/share`, as the XDG Base Directory
    /// specification says.
    static func defaultDataDirectories() -> [String] {
        if let value = getenv("XDG_DATA_DIRS").map({ String(cString: $0) }), !value.isEmpty {
            return value.split(separator: ":").map(String.init)
        }
        return ["/usr/local/share", "/usr/share"]
    }

    /// The system's `mime` directory: the first of the data directories that holds a compiled database.
    static func systemDirectory(in dataDirectories: [String]) -> String? {
        dataDirectories.map { $0 + "/mime" }.first { Processes.isReadable($0 + "/magic") || Processes.isReadable($0 + "/types") }
    }

    /// The databases that take part, the newer first.
    var sources: [Source] { [order.newer, order.older].compactMap { $0 } }

    /// Reads and indexes now what lookups would read and index later: the names, the globs, the content
    /// rules and the XML namespaces of both databases (`FileIdentifier.prepare`).
    func preload() {
        parts.withLock { parts in
            parts.nameLookups = max(parts.nameLookups, Self.lookupsBeforeIndexing)
            parts.globScans = max(parts.globScans, Self.lookupsBeforeIndexing)
        }
        _ = newerNames
        _ = olderNames
        _ = globs(of: [], older: false)
        _ = globs(of: [], older: true)
        _ = magicRules
        _ = namespaces
    }

    // MARK: Questions

    /// Whether `mimeType` (lower-cased) is known as a type of its own (not an alias): a type of the newer
    /// database, or of the older one that the newer does not know.
    func isKnownType(_ mimeType: String) -> Bool {
        let newer = newerNames
        return newer.types.contains(mimeType) || (olderNames.types.contains(mimeType) && !newer.knows(mimeType))
    }

    /// The globs naming each of `mimeTypes` (lower-cased), with their weights, from the database that decides
    /// for it: the newer's, and the older's only for a type the newer does not know.
    func globs(of mimeTypes: [String]) -> [[(glob: String, weight: Int)]] {
        var globs = globs(of: mimeTypes, older: false)
        // The older database is read only for the types the newer does not know.
        let names = newerNames
        var unknown: [Int] = []
        for index in 0..<mimeTypes.count where !names.knows(mimeTypes[index]) { unknown.append(index) }
        if !unknown.isEmpty {
            let older = self.globs(of: unknown.map { mimeTypes[$0] }, older: true)
            for position in 0..<unknown.count { globs[unknown[position]] += older[position] }
        }
        return globs
    }

    /// The MIME type of XML documents whose root element is `localName` in the namespace `namespace`.
    func xmlType(namespace: String, localName: String) -> String? {
        namespaces["\(namespace) \(localName)"]
    }
}
