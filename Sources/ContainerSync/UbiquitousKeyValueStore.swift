public import AppContainers
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import SystemCalls
public import SystemPackage
public import UniformTypeIdentifiers

/// An app's iCloud key-value store, with `NSUbiquitousKeyValueStore`'s model and limits: property-list values
/// under string keys, at most `maximumKeyCount` keys of at most `maximumKeyLength` bytes of UTF-8, and
/// `maximumTotalSize` bytes in all (each key's UTF-8 and its value's size, see `Value.size`). A write that
/// would break a limit is refused, naming the limit, and nothing is written. The limits hold on every path
/// that writes the store: `set`, and a sync's merge with another machine's store (`UbiquitySync`), which
/// keeps this store as it was and reports it rather than pass one; and no file is written that the store's
/// reader would refuse.
///
/// The store is the app manifest's `com.apple.developer.ubiquity-kvstore-identifier`, shared with the apps
/// that name the same one (`Registry.keyValueStore(for:)`). It is one file, `values.plist` in
/// `SyncedPreferences/<identifier>/` under the registry's root, replaced atomically (a crash leaves the old
/// store or the new, never a mixture), written under a lock so that two writers lose nothing, private (0600).
/// Each key keeps the time it was last set or removed: `UbiquitySync` merges two machines' stores key by key,
/// the later change winning, as iCloud does.
public struct UbiquitousKeyValueStore: Sendable {
    /// A property-list value.
    public enum Value: Sendable, Hashable {
        /// A string.
        case string(String)
        /// An integer.
        case integer(Int)
        /// A floating-point number.
        case real(Double)
        /// A boolean.
        case boolean(Bool)
        /// Bytes.
        case data([UInt8])
        /// Seconds since 1 January 2001 (UTC), as Foundation's dates count; the store keeps whole seconds, as its
        /// file (an XML property list) holds dates (a fraction is dropped, to the second below, when the value
        /// is set or read from another machine's binary property list).
        case date(Double)
        /// An array of values.
        case array([Value])
        /// Values under string keys.
        case dictionary([String: Value])

        /// What the value counts for against `maximumTotalSize`: a string's or data's bytes, 8 for a number or a
        /// date, 1 for a boolean, and a collection's elements (a dictionary's keys too), each element
        /// `elementOverhead` bytes more: what it costs in the store's file at the least, so that no value
        /// within the limit makes a file past what the store's reader takes (an array of a million empty
        /// strings counts 16 MB, not 0).
        public var size: Int {
            switch self {
            case .string(let text): text.utf8.count
            case .data(let bytes): bytes.count
            case .integer, .real, .date: 8
            case .boolean: 1
            case .array(let values): values.reduce(0) { $0 + Self.elementOverhead + $1.size }
            case .dictionary(let values): values.reduce(0) { $0 + Self.elementOverhead + $1.key.utf8.count + $1.value.size }
            }
        }

        /// What each element of an array or a dictionary counts for in `size` beyond its own contents.
        public static let elementOverhead = 16
    }

    /// At most this many keys (`NSUbiquitousKeyValueStore`'s limit).
    public static let maximumKeyCount = 1_024
    /// A key is at most this many bytes of UTF-8.
    public static let maximumKeyLength = 64
    /// Keys and values together are at most this many bytes (1 MB).
    public static let maximumTotalSize = 1 << 20
    /// At most this many removed keys are remembered (so that a merge knows a removal from a key never set):
    /// past it, the oldest removals are forgotten, the same ones on every machine.
    public static let maximumRemovedKeyCount = 1_024
    /// The largest file the store is read from: its values, with each key's time and the markup around them.
    static let fileSizeLimit = 8 << 20
    /// What the store's reader takes; every writer checks its file against the same.
    static let readerLimits = PropertyListLimits(size: fileSizeLimit, depth: 64)

    /// The store's identifier (`ABCDE12345.com.example.app`).
    public let identifier: String
    /// The directory holding its file.
    public let directory: String
    /// The file.
    public var path: String { directory + "/" + Self.fileName }

    static let fileName = "values.plist"
    static let lockName = ".lock"

    init(identifier: String, directory: String) {
        self.identifier = identifier
        self.directory = directory
    }

    /// Every key and its value (`dictionaryRepresentation`).
    /// - Throws: `KeyValueStoreError`: the file cannot be read, or is not a store (edited by hand into something else).
    public func values() throws(KeyValueStoreError) -> [String: Value] {
        try read().values
    }

    /// The value of `key`, `nil` when it has none.
    public func value(forKey key: String) throws(KeyValueStoreError) -> Value? {
        try read().values[key]
    }

    /// Sets `key` to `value`.
    /// - Throws: `KeyValueStoreError` naming the limit a write would break (`.keyTooLong`, `.tooManyKeys`,
    ///   `.tooLarge`), or why the store could not be read or written; nothing is written then.
    public func set(_ value: Value, forKey key: String) throws(KeyValueStoreError) {
        try Self.check(key: key, path: path)
        try update { contents throws(KeyValueStoreError) in
            var changed = contents
            let time = changed.timeOfLocalChange(to: key, now: Self.now())
            changed.values[key] = value.asKept
            changed.removed[key] = nil
            changed.modified[key] = time
            try changed.checkLimits(path: path)
            contents = changed
        }
    }

    /// Removes `key`; `false` when it had no value.
    @discardableResult
    public func removeValue(forKey key: String) throws(KeyValueStoreError) -> Bool {
        try Self.check(key: key, path: path)
        var had = false
        try update { contents throws(KeyValueStoreError) in
            guard contents.values[key] != nil else { return }
            had = true
            let time = contents.timeOfLocalChange(to: key, now: Self.now())
            contents.values[key] = nil
            contents.modified[key] = nil
            contents.removed[key] = time
            contents.forgetOldestRemovals()
        }
        return had
    }

    // MARK: The file

    /// What the file holds: the values, when each key was last set, and when each removed key was removed (so
    /// that a merge knows a removal from a key never set).
    struct Contents: Equatable {
        var values: [String: Value] = [:]
        var modified: [String: Double] = [:]
        var removed: [String: Double] = [:]

        /// The keys and the bytes they hold, against the store's limits (`maximumKeyCount`, `maximumTotalSize`).
        func checkLimits(path: String) throws(KeyValueStoreError) {
            guard values.count <= UbiquitousKeyValueStore.maximumKeyCount else {
                throw KeyValueStoreError(path: path, reason: .tooManyKeys(values.count))
            }
            let total = totalSize
            guard total <= UbiquitousKeyValueStore.maximumTotalSize else { throw KeyValueStoreError(path: path, reason: .tooLarge(total)) }
        }

        /// Keys and values together, as `maximumTotalSize` counts them.
        var totalSize: Int { values.reduce(0) { $0 + $1.key.utf8.count + $1.value.size } }

        /// The time a change of `key` made here now gets: now, and always later than what the store holds
        /// for the key (a time from a clock that ran ahead is taken as now first).
        func timeOfLocalChange(to key: String, now: Double) -> Double {
            guard let held = modified[key] ?? removed[key] else { return now }
            return max(now, min(held, now).nextUp)
        }

        /// Keeps the `maximumRemovedKeyCount` newest removals (by time, then key, so that every machine keeps
        /// the same ones).
        mutating func forgetOldestRemovals() {
            guard removed.count > UbiquitousKeyValueStore.maximumRemovedKeyCount else { return }
            let newest = removed.sorted { lhs, rhs in
                lhs.value != rhs.value ? lhs.value > rhs.value : lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
            }
            removed = Dictionary(uniqueKeysWithValues: newest.prefix(UbiquitousKeyValueStore.maximumRemovedKeyCount).map { ($0.key, $0.value) })
        }

        /// The two stores key by key, the later change winning (a removal too); on a tie, the larger value in
        /// the file's own encoding, so that both machines choose the same. A time after `now` (a clock that
        /// ran ahead, or a crafted store) is taken as `now`, so that no change wins every merge to come.
        static func merged(_ one: Contents, _ other: Contents, now: Double) -> Contents {
            var result = Contents()
            let keys = Set(one.values.keys).union(one.removed.keys).union(other.values.keys).union(other.removed.keys)
            for key in keys {
                func change(_ contents: Contents) -> (time: Double, value: Value?)? {
                    if let value = contents.values[key] { return (min(contents.modified[key] ?? 0, now), value) }
                    if let time = contents.removed[key] { return (min(time, now), nil) }
                    return nil
                }
                let candidates = [change(one), change(other)].compactMap { $0 }
                guard let winner = candidates.max(by: { lhs, rhs in
                    if lhs.time != rhs.time { return lhs.time < rhs.time }
                    return (lhs.value.map { UbiquitousKeyValueStore.encoded($0) } ?? []).lexicographicallyPrecedes(
                        rhs.value.map { UbiquitousKeyValueStore.encoded($0) } ?? [])
                }) else { continue }
                if let value = winner.value {
                    result.values[key] = value
                    result.modified[key] = winner.time
                } else {
                    result.removed[key] = winner.time
                }
            }
            result.forgetOldestRemovals()
            return result
        }
    }

    static func check(key: String, path: String) throws(KeyValueStoreError) {
        guard !key.isEmpty, key.utf8.count <= maximumKeyLength else { throw KeyValueStoreError(path: path, reason: .keyTooLong(key)) }
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    /// The contents of the file, empty when there is none yet.
    func read() throws(KeyValueStoreError) -> Contents {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: Self.fileSizeLimit)
        } catch .noSuchFileOrDirectory {
            return Contents()
        } catch .fileTooLarge {
            throw KeyValueStoreError(path: path, reason: .corrupt("larger than \(Self.fileSizeLimit >> 20) MiB"))
        } catch {
            throw KeyValueStoreError(path: path, reason: .system(error, while: "reading the store"))
        }
        return try Self.decode(bytes, path: path)
    }

    /// The contents of a store file's bytes (this machine's, or another's from a sync).
    static func decode(_ bytes: [UInt8], path: String) throws(KeyValueStoreError) -> Contents {
        let root: [String: PropertyListValue]
        do {
            root = try PropertyListValue.dictionary(from: bytes, limits: readerLimits)
        } catch {
            throw KeyValueStoreError(path: path, reason: .corrupt("not a property list with a dictionary at its top: \(error.message)"))
        }
        var contents = Contents()
        func dictionary(_ key: String) throws(KeyValueStoreError) -> [String: PropertyListValue] {
            switch root[key] {
            case nil: return [:]
            case .dictionary(let values): return values
            case .some(let other): throw KeyValueStoreError(path: path, reason: .corrupt("'\(key)' is \(other.typeName), not a dictionary"))
            }
        }
        func times(_ key: String) throws(KeyValueStoreError) -> [String: Double] {
            var result: [String: Double] = [:]
            for (name, value) in try dictionary(key) {
                try check(key: name, path: path)
                switch value {
                case .real(let time) where time.isFinite: result[name] = time
                case .integer(let time): result[name] = Double(time)
                default: throw KeyValueStoreError(path: path, reason: .corrupt("'\(key)' of '\(name)' is \(value.typeName), not a time"))
                }
            }
            return result
        }
        for (key, value) in try dictionary("values") {
            try check(key: key, path: path)
            contents.values[key] = Value(value)
        }
        contents.modified = try times("modified")
        contents.removed = try times("removed")
        return contents
    }

    /// The bytes of a store file holding `contents`, refused (naming `path`) when the store's reader would
    /// refuse them: the one way a store file is made, here and on a remote.
    static func encode(_ contents: Contents, path: String) throws(KeyValueStoreError) -> [UInt8] {
        do {
            return try PropertyListValue.dictionary([
                "values": .dictionary(contents.values.mapValues(\.propertyList)),
                "modified": .dictionary(contents.modified.mapValues { .real($0) }),
                "removed": .dictionary(contents.removed.mapValues { .real($0) }),
            ]).xmlDocument(readableWithin: readerLimits)
        } catch {
            throw KeyValueStoreError(path: path, reason: .unreadable(error.message))
        }
    }

    static func encoded(_ value: Value) -> [UInt8] { value.propertyList.xmlDocument }

    /// Reads, changes and writes the store under its lock; nothing is written when `change` throws.
    func update(_ change: (inout Contents) throws(KeyValueStoreError) -> Void) throws(KeyValueStoreError) {
        let folder: FileDescriptor
        do {
            folder = try FileDescriptor.open(directory, .readOnly, options: [.directory, .noFollow])
        } catch {
            throw KeyValueStoreError(path: directory, reason: .system(error, while: "opening the store's directory"))
        }
        defer { folder.closeQuietly() }
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open(Self.lockName, relativeTo: folder, .readWrite, options: [.create, .noFollow, .closeOnExec],
                                           permissions: [.ownerReadWrite])
            try lock.lockExclusively()
        } catch {
            throw KeyValueStoreError(path: directory + "/" + Self.lockName, reason: .system(error, while: "locking the store"))
        }
        defer {
            lock.unlock()
            lock.closeQuietly()
        }
        var contents = try read()
        let before = contents
        try change(&contents)
        guard contents != before else { return }
        try write(contents, in: folder)
    }

    /// Replaces the file with `contents`, atomically.
    func write(_ contents: Contents, in folder: FileDescriptor) throws(KeyValueStoreError) {
        let bytes = try Self.encode(contents, path: path)
        do {
            try AtomicFile.replace(Self.fileName, in: folder, with: bytes, permissions: [.ownerReadWrite])
        } catch {
            throw KeyValueStoreError(path: path, reason: .system(error, while: "writing the store"))
        }
    }
}

extension UbiquitousKeyValueStore.Value {
    /// The top value of a property list's bytes (XML or binary), bounded as the store's own file is.
    public init(propertyList bytes: [UInt8]) throws(KeyValueStoreError) {
        do {
            self.init(try PropertyListParser.parse(bytes, limits: PropertyListLimits(size: UbiquitousKeyValueStore.fileSizeLimit, depth: 64)))
        } catch {
            throw KeyValueStoreError(path: "-", reason: .corrupt("not a property list: \(error.message)"))
        }
    }

    init(_ value: PropertyListValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .boolean(let flag): self = .boolean(flag)
        case .data(let bytes): self = .data(Array(bytes))
        case .date(let date): self = .date(Self.keptSeconds(date.timeIntervalSinceReferenceDate))
        case .array(let values): self = .array(values.map(Self.init))
        case .dictionary(let values): self = .dictionary(values.mapValues(Self.init))
        }
    }

    /// The value as the store keeps it: dates to the whole second below, as the store's file writes them, so
    /// that what is set or merged reads back from the file the same.
    var asKept: UbiquitousKeyValueStore.Value {
        switch self {
        case .date(let seconds): .date(Self.keptSeconds(seconds))
        case .array(let values): .array(values.map(\.asKept))
        case .dictionary(let values): .dictionary(values.mapValues(\.asKept))
        case .string, .integer, .real, .boolean, .data: self
        }
    }

    /// A date's seconds as an XML property list writes them (`ISO8601Dates.string`: the second below).
    static func keptSeconds(_ seconds: Double) -> Double { seconds.isFinite ? seconds.rounded(.down) : seconds }

    var propertyList: PropertyListValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .boolean(let flag): .boolean(flag)
        case .data(let bytes): .data(Data(bytes))
        case .date(let seconds): .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .array(let values): .array(values.map(\.propertyList))
        case .dictionary(let values): .dictionary(values.mapValues(\.propertyList))
        }
    }
}

extension Registry {
    /// The iCloud key-value store of `bundleIdentifier` (its manifest's `com.apple.developer.ubiquity-kvstore-identifier`).
    /// - Throws: `RegistryError` for an app not registered, or one whose manifest names no store (`.noKeyValueStore`).
    public func keyValueStore(for bundleIdentifier: String) throws(RegistryError) -> UbiquitousKeyValueStore {
        let (identifier, path) = try keyValueStoreDirectory(for: bundleIdentifier)
        return UbiquitousKeyValueStore(identifier: identifier, directory: path)
    }
}

/// The family of `KeyValueStoreError`: a key-value store that could not be read, or a write it refused.
public enum KeyValueStoreErrorDomain: ErrorDomain {}

/// A key-value store that could not be read or written, or a write that would break one of its limits: the
/// store's file and why (compare by kind: `error.kind == .tooManyKeys`; new kinds may be added).
public typealias KeyValueStoreError = LocatedError<KeyValueStoreErrorDomain>

/// The kinds of `KeyValueStoreError`.
extension ErrorKind where Domain == KeyValueStoreErrorDomain {
    /// A system call failed (`detail`: what was being done).
    public static let system = Self("system") { $0.systemMessage }
    /// A key (`subject`) empty or longer than `maximumKeyLength` bytes of UTF-8.
    public static let keyTooLong = Self("key-too-long") {
        "the key '\($0.subject ?? "")' is \($0.subject?.utf8.count ?? 0) bytes: a key is 1 to \(UbiquitousKeyValueStore.maximumKeyLength) bytes of UTF-8; nothing written"
    }
    /// The write would leave more than `maximumKeyCount` keys (`detail`: how many).
    public static let tooManyKeys = Self("too-many-keys") {
        "the store would hold \($0.detail ?? "more") keys, past its limit of \(UbiquitousKeyValueStore.maximumKeyCount); nothing written"
    }
    /// The write would leave more than `maximumTotalSize` bytes (`detail`: how many).
    public static let tooLarge = Self("too-large") {
        "the store would hold \($0.detail ?? "more") bytes of keys and values, past its limit of \(UbiquitousKeyValueStore.maximumTotalSize) (1 MB); nothing written"
    }
    /// The file is not a store (`detail`: what is wrong): edited by hand, or from elsewhere.
    public static let corrupt = Self("corrupt") { "not a key-value store: \($0.detail ?? "")" }
    /// The write would make a file the store's reader refuses (`detail`: the reader's words).
    public static let unreadable = Self("unreadable") {
        "the store's file would not be readable again (\($0.detail ?? "")); nothing written"
    }
    /// A sync's merge with another store would pass a limit (`detail`: which); this store was kept as it was.
    public static let mergePastLimits = Self("merge-past-limits") {
        "merged with the remote's store, it would hold \($0.detail ?? "more than its limits"); this machine's store is kept as it was "
            + "and the remote's is not changed (remove keys here or on another machine, then sync again)"
    }
}

/// The reasons of `KeyValueStoreError`, one for each kind.
extension ErrorReason where Domain == KeyValueStoreErrorDomain {
    /// A system call failed with `errno` (`.system`) while doing `operation`, kept as `detail`.
    public static func system(_ errno: Errno, while operation: String? = nil) -> Self { Self(.system, errno: errno, detail: operation) }
    /// `key` is empty or longer than `maximumKeyLength` bytes of UTF-8 (`.keyTooLong`, with it as `subject`).
    public static func keyTooLong(_ key: String) -> Self { Self(.keyTooLong, subject: key) }
    /// The write would leave `count` keys, more than `maximumKeyCount` (`.tooManyKeys`, with the count as `detail`).
    public static func tooManyKeys(_ count: Int) -> Self { Self(.tooManyKeys, detail: "\(count)") }
    /// The write would leave `size` bytes, more than `maximumTotalSize` (`.tooLarge`, with the size as `detail`).
    public static func tooLarge(_ size: Int) -> Self { Self(.tooLarge, detail: "\(size)") }
    /// The file is not a store (`.corrupt`); `detail` says what is wrong.
    public static func corrupt(_ detail: String) -> Self { Self(.corrupt, detail: detail) }
    /// The write would make a file the store's reader refuses (`.unreadable`); `detail` gives the reader's words.
    public static func unreadable(_ detail: String) -> Self { Self(.unreadable, detail: detail) }
    /// A merge would pass a limit (`.mergePastLimits`); `detail` says which.
    public static func mergePastLimits(_ detail: String) -> Self { Self(.mergePastLimits, detail: detail) }
}
