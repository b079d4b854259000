public import FileIdentification
internal import Synchronization
internal import SystemCalls
internal import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// An app container's `Documents/Inbox/`: where documents handed to the app arrive, whole and read-only.
///
/// Delivery works the way maildir does. The copy is written into the container's `tmp/` under a name
/// no one else uses, synced, made read-only (0444), then linked into `Documents/Inbox/` with `linkat`,
/// which fails rather than replace an existing name (then `name-1.ext`, `name-2.ext`, ... are tried),
/// and the directory is synced. A crash or `kill -9` at any moment leaves in the Inbox nothing or the
/// complete file; what it leaves in `tmp/` is removed by the next delivery. Every directory of the
/// container is opened relative to the one above with `O_NOFOLLOW`, so a symbolic link planted in a
/// container (`Documents/Inbox -> /etc`) is refused, never followed: nothing is written outside it.
public struct Inbox: Sendable {
    public let registry: Registry
    public let bundleIdentifier: String

    public init(registry: Registry, bundleIdentifier: String) {
        self.registry = registry
        self.bundleIdentifier = bundleIdentifier
    }

    /// A file handed to the app.
    public struct Delivery: Sendable, Hashable {
        /// The name it has in the Inbox (`report-1.pdf` when `report.pdf` was taken).
        public var name: String
        /// Its full path.
        public var path: String
    }

    static let temporarySuffix = ".uti-delivery"
    private static let counter = Atomic<Int>(0)

    // MARK: Names

    /// A name a file may have in the Inbox: the file's own name, checked. Names with `/` or NUL, `.`,
    /// `..`, the empty name and names over 255 bytes are refused; so are names that would be hidden
    /// delivery temporaries.
    public static func safeName(_ name: String) throws(DeliveryError) -> String {
        func refuse(_ why: String) -> DeliveryError { DeliveryError(path: name, reason: .refusedName(why)) }
        if name.isEmpty { throw refuse("empty") }
        if name.contains("/") { throw refuse(name.hasPrefix("/") ? "an absolute path" : "it contains '/'") }
        if name.utf8.contains(0) { throw refuse("it contains a NUL byte") }
        if name == "." || name == ".." { throw refuse("'\(name)' names a directory") }
        if name.utf8.count > 255 { throw refuse("longer than 255 bytes") }
        if name.hasSuffix(temporarySuffix) { throw refuse("reserved for deliveries in progress") }
        return name
    }

    /// `report.pdf`, then `report-1.pdf`, `report-2.pdf`...: the number goes before the extension
    /// (after the last dot; a leading dot starts a hidden name, not an extension).
    static func variant(of name: String, _ number: Int) -> String {
        guard number > 0 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(name[..<dot]) + "-\(number)" + String(name[dot...])
        }
        return name + "-\(number)"
    }

    // MARK: Directories

    /// The directories of the container, opened one component at a time without following links.
    private func openDirectory(_ components: [String]) throws(DeliveryError) -> FileDescriptor {
        var current: FileDescriptor
        do {
            current = try FileDescriptor.open(registry.root, .readOnly, options: [.directory])
        } catch {
            throw DeliveryError(path: registry.root, reason: .system(error))
        }
        var path = registry.root
        for component in ["Containers", bundleIdentifier] + components {
            path += "/" + component
            do {
                let next = try current.openDirectory(component)
                current.closeQuietly()
                current = next
            } catch {
                current.closeQuietly()
                if error == .tooManySymbolicLinkLevels || error == .notDirectory {
                    throw DeliveryError(path: path, reason: .notInContainer)
                }
                throw DeliveryError(path: path, reason: .system(error))
            }
        }
        return current
    }

    // MARK: Delivering

    /// Copies the file at `source` into the Inbox under `name` (its own name by default), never
    /// replacing anything; with `move`, removes the source once the copy is durable.
    public func deliver(_ source: RawFilePath, as name: String? = nil, move: Bool = false) throws(DeliveryError) -> Delivery {
        let finalName = try Self.safeName(name ?? String(decoding: source.lastComponent, as: UTF8.self))
        let input: FileDescriptor
        do {
            input = try FileDescriptor.open(source, .readOnly, options: [.nonBlocking, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
        } catch {
            throw DeliveryError(path: source.escaped, reason: .system(error))
        }
        defer { input.closeQuietly() }
        let status: Stat
        do throws(Errno) {
            status = try input.status()
        } catch {
            throw DeliveryError(path: source.escaped, reason: .system(error))
        }
        guard status.type == .regular else { throw DeliveryError(path: source.escaped, reason: .notARegularFile) }
        let delivery = try deliver(name: finalName) { output, path throws(DeliveryError) in try Self.copy(from: input, to: output, path: path) }
        if move {
            do {
                try FileDescriptor.workingDirectory.remove(source)
            } catch {
                throw DeliveryError(path: source.escaped, reason: .sourceNotRemoved(deliveredTo: delivery.path, error))
            }
        }
        return delivery
    }

    /// Delivers bytes already in memory (standard input, an upload) into the Inbox as `name`.
    public func deliver(contents: [UInt8], as name: String) throws(DeliveryError) -> Delivery {
        try deliver(name: try Self.safeName(name)) { output, path throws(DeliveryError) in
            do throws(Errno) {
                try output.writeAll(contents)
            } catch {
                throw DeliveryError(path: path, reason: .system(error, while: "writing the copy"))
            }
        }
    }

    private func deliver(name: String, fill: (FileDescriptor, String) throws(DeliveryError) -> Void) throws(DeliveryError) -> Delivery {
        let temporaryDirectory = try openDirectory(["tmp"])
        defer { temporaryDirectory.closeQuietly() }
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { inbox.closeQuietly() }
        removeAbandonedTemporaries(in: temporaryDirectory)

        let temporaryName = "\(getpid()).\(Self.counter.add(1, ordering: .relaxed).newValue).\(UInt32.random(in: 0...UInt32.max))\(Self.temporarySuffix)"
        let temporaryPath = containerPath + "/tmp/" + temporaryName
        let output: FileDescriptor
        do {
            output = try FileDescriptor.open(temporaryName, relativeTo: temporaryDirectory, .writeOnly,
                                             options: [.create, .exclusiveCreate, .noFollow], permissions: .ownerReadWrite)
        } catch {
            throw DeliveryError(path: temporaryPath, reason: .system(error))
        }
        var linked = false
        defer {
            if !linked { try? temporaryDirectory.remove(temporaryName) }
        }
        do throws(DeliveryError) {
            try fill(output, temporaryPath)
            do {
                try output.sync()
                try output.setPermissions([.ownerRead, .groupRead, .otherRead])
            } catch {
                throw DeliveryError(path: temporaryPath, reason: .system(error))
            }
        } catch {
            output.closeQuietly()
            throw error
        }
        do {
            try output.closeChecked()
        } catch {
            throw DeliveryError(path: temporaryPath, reason: .system(error))
        }

        // Link into the Inbox under the first free name; linkat never replaces an existing file.
        var number = 0
        var delivered = ""
        while true {
            let candidate = Self.variant(of: name, number)
            guard candidate.utf8.count <= 255 else { throw DeliveryError(path: name, reason: .noFreeName) }
            do {
                try temporaryDirectory.link(temporaryName, to: inbox, as: candidate)
                delivered = candidate
                break
            } catch .fileExists {
                number += 1
            } catch {
                throw DeliveryError(path: inboxPath + "/" + candidate, reason: .system(error))
            }
        }
        linked = true
        try? inbox.sync()
        try? temporaryDirectory.remove(temporaryName)
        try? temporaryDirectory.sync()
        return Delivery(name: delivered, path: inboxPath + "/" + delivered)
    }

    private static func copy(from input: FileDescriptor, to output: FileDescriptor, path: String) throws(DeliveryError) {
        while true {
            let chunk: [UInt8]
            do {
                chunk = try input.readSome(limit: 1 << 20)
            } catch {
                throw DeliveryError(path: path, reason: .system(error, while: "reading the source"))
            }
            if chunk.isEmpty { return }
            do {
                try output.writeAll(chunk)
            } catch {
                throw DeliveryError(path: path, reason: .system(error, while: "writing the copy"))
            }
        }
    }

    /// Removes delivery temporaries left by processes that no longer run (killed mid-delivery).
    private func removeAbandonedTemporaries(in directory: FileDescriptor) {
        guard let names = try? directory.directoryEntries() else { return }
        for bytes in names {
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.hasSuffix(Self.temporarySuffix), let pid = Int32(name.split(separator: ".").first ?? "") else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && Errno.current == .noSuchProcess { try? directory.remove(PathBytes(bytes)) }
        }
    }

    // MARK: The app's side

    var containerPath: String { registry.containerPath(bundleIdentifier) }
    var inboxPath: String { containerPath + "/Documents/Inbox" }

    /// An Inbox entry.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var size: Int
    }

    /// The files in the Inbox, by name.
    public func list() throws(DeliveryError) -> [Entry] {
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { inbox.closeQuietly() }
        let names: [[UInt8]]
        do {
            names = try inbox.directoryEntries()
        } catch {
            throw DeliveryError(path: inboxPath, reason: .system(error))
        }
        return names.map { name in
            let size = (try? inbox.status(of: PathBytes(name))).map { Int($0.size) } ?? 0
            return Entry(name: String(decoding: name, as: UTF8.self), size: size)
        }.sorted { $0.name < $1.name }
    }

    /// Moves a file out of the Inbox into `Documents/` (under a free name) and makes it writable, as an
    /// app does before editing it; returns its new path.
    public func claim(_ name: String) throws(DeliveryError) -> String {
        let name = try Self.safeName(name)
        let documents = try openDirectory(["Documents"])
        defer { documents.closeQuietly() }
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { inbox.closeQuietly() }
        let status: Stat
        do throws(Errno) {
            status = try inbox.status(of: name)
        } catch {
            throw DeliveryError(path: inboxPath + "/" + name, reason: .system(error))
        }
        guard status.type == .regular else { throw DeliveryError(path: inboxPath + "/" + name, reason: .notARegularFile) }
        var number = 0
        while true {
            let candidate = Self.variant(of: name, number)
            do {
                try inbox.link(name, to: documents, as: candidate)
            } catch .fileExists {
                number += 1
                continue
            } catch {
                throw DeliveryError(path: containerPath + "/Documents/" + candidate, reason: .system(error))
            }
            do {
                try inbox.remove(name)
            } catch {
                throw DeliveryError(path: inboxPath + "/" + name, reason: .system(error))
            }
            if let claimed = try? FileDescriptor.open(candidate, relativeTo: documents, .readOnly, options: [.noFollow]) {
                try? claimed.setPermissions([.ownerReadWrite, .groupRead, .otherRead])
                claimed.closeQuietly()
            }
            try? documents.sync()
            try? inbox.sync()
            return containerPath + "/Documents/" + candidate
        }
    }

    /// Deletes a file from the Inbox.
    public func remove(_ name: String) throws(DeliveryError) {
        let name = try Self.safeName(name)
        let inbox = try openDirectory(["Documents", "Inbox"])
        defer { inbox.closeQuietly() }
        do {
            try inbox.remove(name)
        } catch {
            throw DeliveryError(path: inboxPath + "/" + name, reason: .system(error))
        }
        try? inbox.sync()
    }
}

