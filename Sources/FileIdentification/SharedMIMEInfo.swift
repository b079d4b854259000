#if BuiltInSharedMIMEInfo
internal import CSharedMIMEInfo
#endif
internal import Synchronization
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
        private let keys: [Range<Int>]

        init(_ bytes: [UInt8]?) {
            let bytes = bytes ?? []
            var keys: [Range<Int>] = []
            var sorted = true
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var start = 0
                while start < buffer.count {
                    let end = memchr(base + start, 0x0A, buffer.count - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                    let keyEnd = memchr(base + start, 0x20, end - start).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? end
                    if keyEnd > start {
                        if let last = keys.last {
                            let order = memcmp(base + last.lowerBound, base + start, min(last.count, keyEnd - start))
                            if order > 0 || (order == 0 && last.count >= keyEnd - start) { sorted = false }
                        }
                        keys.append(start..<keyEnd)
                    }
                    start = end + 1
                }
            }
            if !sorted { keys.sort { bytes[$0].lexicographicallyPrecedes(bytes[$1]) } }
            self.bytes = bytes
            self.keys = keys
        }

        func contains(_ key: String) -> Bool {
            var key = key
            return key.withUTF8 { key in
                bytes.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress, let keyBase = key.baseAddress else { return false }
                    var low = 0
                    var high = keys.count
                    while low < high {
                        let middle = (low + high) / 2
                        let range = keys[middle]
                        let common = min(range.count, key.count)
                        var order = Int(memcmp(base + range.lowerBound, keyBase, common))
                        if order == 0 { order = range.count - key.count }
                        if order == 0 { return true }
                        if order < 0 { low = middle + 1 } else { high = middle }
                    }
                    return false
                }
            }
        }
    }

    /// A database's names: its types and its aliases (lower-case, as shared-mime-info writes them).
    struct Names: Sendable {
        let types: SortedLines
        let aliases: SortedLines

        init(_ source: Source?) {
            types = SortedLines(source?.file("types"))
            aliases = SortedLines(source?.file("aliases"))
        }

        /// Whether the database knows `mimeType` (lower-cased) as a type or as an alias.
        func knows(_ mimeType: String) -> Bool {
            types.contains(mimeType) || aliases.contains(mimeType)
        }
    }

    /// A value made the first time it is asked for, then kept.
    final class Lazy<Value: Sendable>: Sendable {
        private let value = Mutex<Value?>(nil)
        private let make: @Sendable () -> Value

        init(_ make: @escaping @Sendable () -> Value) {
            self.make = make
        }

        func callAsFunction() -> Value {
            value.withLock { value in
                if let value { return value }
                let made = make()
                value = made
                return made
            }
        }
    }

    let configuration: Configuration
    /// The newer database first; the built-in one when they are as new (or neither says).
    private let order: Lazy<(newer: Source?, older: Source?)>
    private let newerNames: Lazy<Names>
    private let olderNames: Lazy<Names>
    private let magicRules: Lazy<FreedesktopMagic>
    private let namespaces: Lazy<[String: String]>
    private let globTable: Lazy<[String: [(glob: String, weight: Int)]]>

    private init(_ configuration: Configuration) {
        self.configuration = configuration
        let order = Lazy<(newer: Source?, older: Source?)> {
            let system = Self.systemDirectory(in: configuration.dataDirectories).map(Source.directory)
            let builtIn: Source? = configuration.includesBuiltIn && Source.builtInIsAvailable ? .builtIn : nil
            guard let system else { return (builtIn, nil) }
            guard let builtIn else { return (system, nil) }
            return builtIn.version.lexicographicallyPrecedes(system.version) ? (system, builtIn) : (builtIn, system)
        }
        let newerNames = Lazy { Names(order().newer) }
        let olderNames = Lazy { Names(order().older) }
        self.order = order
        self.newerNames = newerNames
        self.olderNames = olderNames
        magicRules = Lazy {
            var magic = FreedesktopMagic()
            if let newer = order().newer?.file("magic") { magic.add(newer) }
            if let older = order().older?.file("magic") {
                let names = newerNames()
                magic.add(older, where: { !names.knows($0) })
            }
            return magic
        }
        namespaces = Lazy {
            // `namespace-URI local-name` to MIME type, the newer database's entries first.
            var namespaces: [String: String] = [:]
            for source in [order().newer, order().older].compactMap({ $0 }) {
                for line in source.lines("XMLnamespaces") {
                    // An element in no namespace has an empty first field.
                    let fields = line.split(separator: " ", omittingEmptySubsequences: false)
                    if fields.count == 3, namespaces["\(fields[0]) \(fields[1])"] == nil {
                        namespaces["\(fields[0]) \(fields[1])"] = fields[2].lowercased()
                    }
                }
            }
            return namespaces
        }
        globTable = Lazy {
            // The globs naming each type (`weight:type:glob[:flags]`), from the database that decides for it.
            var globs: [String: [(glob: String, weight: Int)]] = [:]
            let sources: [(Source?, Names?)] = [(order().newer, nil), (order().older, newerNames())]
            for case (let source?, let names) in sources {
                for line in source.lines("globs2", lowercased: true) where !line.hasPrefix("#") {
                    let fields = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
                    guard fields.count >= 3, let weight = Int(fields[0]) else { continue }
                    let type = String(fields[1])
                    if let names, names.knows(type) { continue }
                    globs[type, default: []].append((String(fields[2]), weight))
                }
            }
            return globs
        }
    }

    private static let databases = Mutex<[Configuration: SharedMIMEInfo]>([:])

    /// The databases of a configuration, shared by every identifier configured alike.
    static func database(for configuration: Configuration) -> SharedMIMEInfo {
        databases.withLock { databases in
            if let database = databases[configuration] { return database }
            let database = SharedMIMEInfo(configuration)
            databases[configuration] = database
            return database
        }
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
        dataDirectories.map { $0 + "/mime" }.first { access($0 + "/magic", R_OK) == 0 || access($0 + "/types", R_OK) == 0 }
    }

    /// The databases that take part, the newer first.
    var sources: [Source] { [order().newer, order().older].compactMap { $0 } }

    // MARK: Questions

    /// The content rules: the newer database's, and the older's for types the newer does not know.
    var magic: FreedesktopMagic { magicRules() }

    /// Whether `mimeType` (lower-cased) is known as a type of its own (not an alias): a type of the newer
    /// database, or of the older one that the newer does not know.
    func isKnownType(_ mimeType: String) -> Bool {
        let newer = newerNames()
        return newer.types.contains(mimeType) || (olderNames().types.contains(mimeType) && !newer.knows(mimeType))
    }

    /// The globs naming `mimeType` (lower-cased), with their weights.
    func globs(of mimeType: String) -> [(glob: String, weight: Int)] {
        globTable()[mimeType] ?? []
    }

    /// The MIME type of XML documents whose root element is `localName` in the namespace `namespace`.
    func xmlType(namespace: String, localName: String) -> String? {
        namespaces()["\(namespace) \(localName)"]
    }
}
