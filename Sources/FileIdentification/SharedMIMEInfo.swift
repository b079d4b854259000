internal import CTypeDatabase
#if canImport(Glibc)
import Glibc
#endif

/// The freedesktop shared-mime-info data identification reads, from two databases: the system's
/// (`/usr/share/mime`, or the first directory of `$XDG_DATA_DIRS` holding one), which desktop
/// applications share and packages extend, and shared-mime-info 2.4's, compiled into the library from
/// `TypeDB/mime`, so that a machine with an older database (Debian 12 ships 2.2) still knows 2.4's
/// rules, and a machine with none still identifies.
///
/// The newer of the two (by its `version` file; a database without one is the older) decides for every
/// type it knows, as a type or as an alias; the older adds only the types the newer does not know at
/// all, such as those a locally installed package declares.
enum SharedMIMEInfo {
    /// One database: the files `update-mime-database` writes.
    struct Database: Sendable {
        var version: [Int]
        var magic: [FreedesktopMagic.Section]
        /// Canonical MIME types, lower-cased.
        var types: Set<String>
        /// Alias to canonical type, lower-cased.
        var aliases: [String: String]
        /// `namespace-URI local-name` to MIME type: XML documents by their root element.
        var xmlNamespaces: [String: String]
        /// The globs naming each type (lower-cased), with their weights.
        var globs: [String: [(glob: String, weight: Int)]]

        init(file: (String) -> [UInt8]?) {
            func lines(_ name: String) -> [Substring] {
                guard let bytes = file(name) else { return [] }
                return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            }
            version = (lines("version").first ?? "").split(separator: ".").compactMap { Int($0) }
            magic = file("magic").flatMap(FreedesktopMagic.parse) ?? []
            types = Set(lines("types").map { $0.lowercased() })
            var aliases: [String: String] = [:]
            for line in lines("aliases") {
                let fields = line.split(separator: " ")
                if fields.count == 2 { aliases[fields[0].lowercased()] = fields[1].lowercased() }
            }
            self.aliases = aliases
            var namespaces: [String: String] = [:]
            for line in lines("XMLnamespaces") {
                // An element in no namespace has an empty first field.
                let fields = line.split(separator: " ", omittingEmptySubsequences: false)
                if fields.count == 3, namespaces["\(fields[0]) \(fields[1])"] == nil {
                    namespaces["\(fields[0]) \(fields[1])"] = fields[2].lowercased()
                }
            }
            xmlNamespaces = namespaces
            // `weight:type:glob[:flags]`
            var globs: [String: [(glob: String, weight: Int)]] = [:]
            for line in lines("globs2") where !line.hasPrefix("#") {
                let fields = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
                guard fields.count >= 3, let weight = Int(fields[0]) else { continue }
                globs[fields[1].lowercased(), default: []].append((fields[2].lowercased(), weight))
            }
            self.globs = globs
        }

        /// Whether this database knows `mimeType` (lower-cased) as a type or as an alias.
        func knows(_ mimeType: String) -> Bool {
            types.contains(mimeType) || aliases[mimeType] != nil
        }

        /// Whether this database is newer than `other`.
        func isNewer(than other: Database) -> Bool {
            other.version.lexicographicallyPrecedes(version)
        }
    }

    /// shared-mime-info 2.4, compiled into the library.
    static let builtIn = Database { name in
        var size = 0
        guard let bytes = name.withCString({ uti_builtin_mime_file($0, &size) }) else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    /// The system's database; empty when there is none.
    static let system = Database { name in systemDirectory.flatMap { read($0 + "/" + name) } }

    /// The system's `mime` directory: the first of the data directories that holds a compiled database.
    static let systemDirectory: String? = {
        dataDirectories().map { $0 + "/mime" }.first { access($0 + "/magic", R_OK) == 0 || access($0 + "/types", R_OK) == 0 }
    }()

    /// `$XDG_DATA_DIRS` when set, else `/usr/local/share` and `/usr/share`, as the XDG Base Directory
    /// specification says.
    private static func dataDirectories() -> [String] {
        if let value = getenv("XDG_DATA_DIRS").map({ String(cString: $0) }), !value.isEmpty {
            return value.split(separator: ":").map(String.init)
        }
        return ["/usr/local/share", "/usr/share"]
    }

    private static let ordered: (newer: Database, older: Database) =
        system.isNewer(than: builtIn) ? (system, builtIn) : (builtIn, system)

    /// The content rules: the newer database's, and the older's for types the newer does not know.
    static let magic = FreedesktopMagic(
        sections: ordered.newer.magic + ordered.older.magic.filter { !ordered.newer.knows($0.mimeType) })

    /// The MIME types known as types of their own (not aliases).
    static let knownTypes: Set<String> =
        ordered.newer.types.union(ordered.older.types.filter { !ordered.newer.knows($0) })

    /// The globs naming `mimeType` (lower-cased), from the database that decides for it.
    static func globs(of mimeType: String) -> [(glob: String, weight: Int)] {
        ordered.newer.knows(mimeType) ? ordered.newer.globs[mimeType] ?? [] : ordered.older.globs[mimeType] ?? []
    }

    /// The MIME type of XML documents whose root element is `localName` in the namespace `namespace`.
    static func xmlType(namespace: String, localName: String) -> String? {
        let key = "\(namespace) \(localName)"
        return ordered.newer.xmlNamespaces[key] ?? ordered.older.xmlNamespaces[key]
    }

    /// A regular file's bytes; `nil` when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? FileBytes(descriptor: descriptor, count: Int(status.st_size)).bytes(at: 0, length: Int(status.st_size))
    }
}
