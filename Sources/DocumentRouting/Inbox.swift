public import AppContainers
public import FileIdentification
public import SystemPackage
internal import Synchronization
internal import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// An app container's `Documents/Inbox/`: where documents handed to the app arrive, whole and read-only.
///
/// Delivery works the way maildir does. The copy is written into the container's `tmp/` under a name
/// no one else uses (and locked while it is written), synced, made read-only (0444, masked by the
/// source's own permissions: a copy is never more readable than its source), then linked into
/// `Documents/Inbox/` with `linkat`, which fails rather than replace an existing name (then
/// `name-1.ext`, `name-2.ext`, ... are tried), and the directory is synced. A crash or `kill -9` at any
/// moment leaves in the Inbox nothing or the complete file; what it leaves in `tmp/` (a temporary no
/// process holds locked) is removed by the next command that touches the container.
///
/// Every directory of the container is opened relative to the one above with `O_NOFOLLOW`, so a
/// symbolic link planted in a container (`Documents/Inbox -> /etc`) is refused, never followed: nothing
/// is written outside it. Names are bytes, kept exactly (a name that is not UTF-8 stays as it is).
/// Deliveries hold the registry's lock shared, so a container is never deleted while a file is
/// delivered into it.
public struct Inbox: Sendable {
    /// The registry that holds the app's container.
    public let registry: Registry
    /// The app whose Inbox this is, as it was given.
    public let bundleIdentifier: String
    /// The container's directory name, when the app is known (else looked up at each call).
    private let knownContainer: String?

    /// The Inbox of the app `bundleIdentifier`, registered or not (the container of an app unregistered
    /// with its data kept stays reachable). The identifier is checked by every call, before any path is
    /// built from it.
    public init(registry: Registry, bundleIdentifier: String) {
        self.registry = registry
        self.bundleIdentifier = bundleIdentifier
        self.knownContainer = nil
    }

    /// The Inbox of a registered app.
    public init(registry: Registry, app: Registry.RegisteredApp) {
        self.registry = registry
        self.bundleIdentifier = app.bundleIdentifier
        self.knownContainer = app.containerName
    }

    /// A file handed to the app.
    public struct Delivery: Sendable, Hashable {
        /// The name it has in the Inbox (`report-1.pdf` when `report.pdf` was taken).
        public var name: RawFilePath
        /// Its full path.
        public var path: RawFilePath
    }

    private static let counter = Atomic<Int>(0)
    /// The most permissions a delivered copy has: read-only, masked by the source's.
    static let deliveredPermissions: FilePermissions = [.ownerRead, .groupRead, .otherRead]

    // MARK: Names

    /// A name a file may have in the Inbox: the file's own name, checked. Names with `/` or NUL, `.`,
    /// `..`, the empty name and names over 255 bytes are refused; so are names that would be hidden
    /// delivery temporaries. Any other bytes are kept as they are.
    public static func safeName(_ name: RawFilePath) throws(DeliveryError) -> RawFilePath {
        let bytes = name.bytes
        func refuse(_ why: String) -> DeliveryError { DeliveryError(path: name.escaped, reason: .refusedName(why)) }
        if bytes.isEmpty { throw refuse("empty") }
        if bytes.contains(UInt8(ascii: "/")) { throw refuse(bytes.first == UInt8(ascii: "/") ? "an absolute path" : "it contains '/'") }
        if bytes.contains(0) { throw refuse("it contains a NUL byte") }
        if bytes == [0x2E] || bytes == [0x2E, 0x2E] { throw refuse("'\(name.escaped)' names a directory") }
        if bytes.count > 255 { throw refuse("longer than 255 bytes") }
        if bytes.count >= DeliveryTemporaries.suffix.count && Array(bytes.suffix(DeliveryTemporaries.suffix.count)) == DeliveryTemporaries.suffix {
            throw refuse("reserved for deliveries in progress")
        }
        return name
    }

    /// `report.pdf`, then `report-1.pdf`, `report-2.pdf`...: the number goes before the extension
    /// (after the last dot; a leading dot starts a hidden name, not an extension).
    static func variant(of name: [UInt8], _ number: Int) -> [UInt8] {
        guard number > 0 else { return name }
        let suffix = Array("-\(number)".utf8)
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex {
            return Array(name[..<dot]) + suffix + Array(name[dot...])
        }
        return name + suffix
    }

    // MARK: Directories

    private func containerName() throws(DeliveryError) -> String {
        if let knownContainer { return knownContainer }
        do {
            return try registry.containerName(bundleIdentifier)
        } catch {
            throw DeliveryError(path: error.path, reason: .registry(error))
        }
    }

    private func containerPath(_ name: String) -> String { registry.root + "/Containers/" + name }

    /// Runs `body` with the container's directories `components` open (each relative to the one above,
    /// links refused) and the registry's lock held shared; abandoned deliveries in the container's `tmp/`
    /// are removed first, unless `readOnly` (a listing changes nothing).
    private func withDirectories<R>(_ components: [[String]], readOnly: Bool = false,
                                    _ body: ([FileDescriptor], String) throws(DeliveryError) -> R) throws(DeliveryError) -> R {
        let container = try containerName()
        let outcome: Result<R, DeliveryError>
        do {
            outcome = try registry.withSharedLock { (rootDirectory: FileDescriptor) throws(DeliveryError) -> R in
                let base = try Self.open(["Containers", container], from: rootDirectory, path: registry.root)
                defer { base.closeQuietly() }
                let basePath = containerPath(container)
                if !readOnly, let temporaries = try? base.openDirectory("tmp") {
                    _ = DeliveryTemporaries.removeAbandoned(in: temporaries, path: basePath + "/tmp", removing: true)
                    temporaries.closeQuietly()
                }
                var opened: [FileDescriptor] = []
                defer { opened.forEach { $0.closeQuietly() } }
                for components in components {
                    opened.append(try Self.open(components, from: base, path: basePath))
                }
                return try body(opened, basePath)
            }
        } catch {
            throw DeliveryError(path: error.path, reason: .registry(error))
        }
        return try outcome.get()
    }

    private static func open(_ components: [String], from start: FileDescriptor, path: String) throws(DeliveryError) -> FileDescriptor {
        var current = start
        var owned = false
        var path = path
        for component in components {
            path += "/" + component
            do {
                let next = try current.openDirectory(component)
                if owned { current.closeQuietly() }
                current = next
                owned = true
            } catch {
                if owned { current.closeQuietly() }
                if error == .tooManySymbolicLinkLevels || error == .notDirectory {
                    throw DeliveryError(path: path, reason: .notInContainer)
                }
                throw DeliveryError(path: path, reason: .system(error))
            }
        }
        guard owned else {
            // No component: a descriptor of its own, so that the caller may close it.
            do {
                return try start.openDirectory(".")
            } catch {
                throw DeliveryError(path: path, reason: .system(error))
            }
        }
        return current
    }

    // MARK: Delivering

    /// Copies the file at `source` into the Inbox under `name` (its own name by default), never
    /// replacing anything.
    ///
    /// The directories of `source` are followed as given (a path a user chose); the file itself is opened
    /// once, relative to its directory, and everything after (the copy, the checks, the removal with
    /// `move`) acts on that descriptor and that directory's, never on the path again.
    ///
    /// - Parameters:
    ///   - source: The file to deliver.
    ///   - name: The name to deliver it under, checked as `safeName(_:)` checks it; `nil` for the
    ///     source's own name.
    ///   - move: Remove the source once the copy is durable.
    ///   - followingLinks: Deliver the file a symbolic link at `source` points to; without it a link is
    ///     refused (`.symbolicLink`), so that a link planted where a file was expected never hands over
    ///     a file its owner did not mean to give. With `move`, the link is removed, not its target.
    /// - Throws: `DeliveryError`, and nothing was delivered (or moved): among the reasons, a source that
    ///   changed while it was copied (`.sourceChanged`; it is copied again once first).
    public func deliver(_ source: RawFilePath, as name: RawFilePath? = nil, move: Bool = false,
                        followingLinks: Bool = false) throws(DeliveryError) -> Delivery {
        let file = try SourceFile(source, followingLinks: followingLinks)
        defer { file.close() }
        return try deliver(file, as: name, move: move)
    }

    /// Copies the open source `file` into the Inbox (see `deliver(_:as:move:followingLinks:)`).
    func deliver(_ file: SourceFile, as name: RawFilePath? = nil, move: Bool) throws(DeliveryError) -> Delivery {
        let source = file.shown
        let finalName = try Self.safeName(name ?? RawFilePath(bytes: file.name))
        let input = file.descriptor
        let before: Stat
        do throws(Errno) {
            before = try input.status()
        } catch {
            throw DeliveryError(path: source.escaped, reason: .system(error))
        }
        guard before.type == .regular else { throw DeliveryError(path: source.escaped, reason: .notARegularFile) }
        let permissions = FilePermissions(rawValue: Self.deliveredPermissions.rawValue & before.permissions.rawValue)

        return try withDirectories([["tmp"], ["Documents", "Inbox"]]) { directories, container throws(DeliveryError) -> Delivery in
            var attempt = 0
            var delivery: Delivery
            var copied: Fingerprint
            while true {
                do throws(DeliveryError) {
                    var fingerprint: Fingerprint?
                    delivery = try Self.deliver(name: finalName.bytes, temporaries: directories[0], inbox: directories[1], container: container,
                                                permissions: permissions) { output, path throws(DeliveryError) in
                        fingerprint = try Self.copy(from: input, source: source, to: output, path: path)
                    }
                    guard let fingerprint else { throw DeliveryError(path: source.escaped, reason: .sourceChanged) }
                    copied = fingerprint
                    break
                } catch where error.reason.kind == .sourceChanged && attempt == 0 {
                    attempt += 1
                }
            }
            if move {
                try Self.removeSource(file, copied: copied, delivery: delivery, inbox: directories[1])
            }
            return delivery
        }
    }

    /// Delivers bytes that are not a file (standard input, an upload) into the Inbox as `name`: gathered in a
    /// `SpooledBytes` as they arrived, or already in memory (`SpooledBytes(contents:)`).
    ///
    /// - Parameters:
    ///   - contents: The bytes to deliver.
    ///   - name: The name to deliver them under, checked as `safeName(_:)` checks it.
    ///   - permissions: The copy's permissions, at most 0444: the source's, where the bytes have
    ///     one (standard input redirected from a file); owner-only by default.
    public func deliver(contents: SpooledBytes, as name: RawFilePath, permissions: FilePermissions = .ownerRead) throws(DeliveryError) -> Delivery {
        let name = try Self.safeName(name)
        let permissions = FilePermissions(rawValue: Self.deliveredPermissions.rawValue & permissions.rawValue)
        return try withDirectories([["tmp"], ["Documents", "Inbox"]]) { directories, container throws(DeliveryError) -> Delivery in
            try Self.deliver(name: name.bytes, temporaries: directories[0], inbox: directories[1], container: container,
                             permissions: permissions) { output, path throws(DeliveryError) in
                do throws(Errno) {
                    try contents.write(to: output)
                } catch {
                    throw DeliveryError(path: path, reason: .system(error, while: "writing the copy"))
                }
            }
        }
    }

    private static func deliver(name: [UInt8], temporaries: FileDescriptor, inbox: FileDescriptor, container: String, permissions: FilePermissions,
                                fill: (FileDescriptor, String) throws(DeliveryError) -> Void) throws(DeliveryError) -> Delivery {
        // Locked while this process writes it: a temporary nobody holds locked is a crash's, and removable.
        // Another command may take the lock first, between the create and the lock, and remove the name;
        // then the name no longer leads to this file, and another is made.
        var temporaryName: [UInt8] = []
        var temporaryPath = ""
        var made: FileDescriptor?
        for _ in 0..<8 {
            temporaryName = Array("\(getpid()).\(counter.add(1, ordering: .relaxed).newValue).\(UInt32.random(in: 0...UInt32.max))".utf8) + DeliveryTemporaries.suffix
            temporaryPath = container + "/tmp/" + String(decoding: temporaryName, as: UTF8.self)
            let file: FileDescriptor
            do {
                file = try FileDescriptor.open(PathBytes(temporaryName), relativeTo: temporaries, .writeOnly,
                                               options: [.create, .exclusiveCreate, .noFollow], permissions: .ownerReadWrite)
                try file.lockExclusively()
            } catch {
                throw DeliveryError(path: temporaryPath, reason: .system(error))
            }
            if let mine = try? file.status(), let named = try? temporaries.status(of: PathBytes(temporaryName)),
               mine.inode == named.inode, mine.deviceID == named.deviceID {
                made = file
                break
            }
            file.closeQuietly()
        }
        guard let output = made else { throw DeliveryError(path: temporaryPath, reason: .system(.noSuchFileOrDirectory)) }
        var linked = false
        defer {
            if !linked { try? temporaries.remove(PathBytes(temporaryName)) }
            output.closeQuietly()
        }
        try fill(output, temporaryPath)
        do {
            try output.sync()
            try output.setPermissions(permissions)
        } catch {
            throw DeliveryError(path: temporaryPath, reason: .system(error))
        }

        // Link into the Inbox under the first free name; linkat never replaces an existing file.
        let inboxPath = container + "/Documents/Inbox/"
        var number = 0
        var delivered: [UInt8] = []
        while true {
            let candidate = variant(of: name, number)
            guard candidate.count <= 255 else { throw DeliveryError(path: RawFilePath(bytes: name).escaped, reason: .noFreeName) }
            do {
                try temporaries.link(PathBytes(temporaryName), to: inbox, as: PathBytes(candidate))
                delivered = candidate
                break
            } catch .fileExists {
                number += 1
            } catch {
                throw DeliveryError(path: inboxPath + RawFilePath(bytes: candidate).escaped, reason: .system(error))
            }
        }
        // Reported delivered only once the Inbox's new entry is on disk: when its directory cannot be synced,
        // the entry is withdrawn (and the temporary removed), and the delivery fails, nothing delivered.
        do throws(Errno) {
            try inbox.sync()
        } catch {
            try? inbox.remove(PathBytes(delivered))
            throw DeliveryError(path: inboxPath + RawFilePath(bytes: delivered).escaped,
                                reason: .system(error, while: "syncing the Inbox; nothing delivered"))
        }
        linked = true
        // Best effort: the delivery is durable already; a temporary left by a crash here is an abandoned
        // delivery (nobody holds its lock), which the next delivery into the container removes.
        try? temporaries.remove(PathBytes(temporaryName))
        try? temporaries.sync()
        return Delivery(name: RawFilePath(bytes: delivered), path: RawFilePath(bytes: Array(inboxPath.utf8) + delivered))
    }

    /// What identifies a file's contents for the length of a copy: a writer that appends or rewrites
    /// changes its size or its modification time; one that truncates and rewrites, its change time.
    struct Fingerprint: Equatable {
        var device: UInt64, inode: UInt64, size: Int64
        var modified: timespec, changed: timespec

        init(_ status: Stat) {
            device = UInt64(status.deviceID.rawValue)
            inode = UInt64(status.inode.rawValue)
            size = status.size
            modified = status.st_mtim
            changed = status.st_ctim
        }

        /// The same contents, as far as the file's status tells; `ignoringChangeTime` after an unlink,
        /// which changes it.
        func matches(_ other: Fingerprint, ignoringChangeTime: Bool = false) -> Bool {
            device == other.device && inode == other.inode && size == other.size
                && modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec
                && (ignoringChangeTime || (changed.tv_sec == other.changed.tv_sec && changed.tv_nsec == other.changed.tv_nsec))
        }

        static func == (lhs: Fingerprint, rhs: Fingerprint) -> Bool { lhs.matches(rhs) }
    }

    /// Copies the whole source from its start and checks that it did not change meanwhile: the status
    /// before and after the copy agree, and the bytes copied are its size.
    private static func copy(from input: FileDescriptor, source: RawFilePath, to output: FileDescriptor,
                             path: String) throws(DeliveryError) -> Fingerprint {
        let before: Stat
        do throws(Errno) {
            before = try input.status()
        } catch {
            throw DeliveryError(path: source.escaped, reason: .system(error, while: "reading the source"))
        }
        var offset = 0
        while true {
            let chunk: [UInt8]
            do {
                chunk = try input.read(at: offset, count: 1 << 20)
            } catch {
                throw DeliveryError(path: source.escaped, reason: .system(error, while: "reading the source"))
            }
            if chunk.isEmpty { break }
            do {
                try output.writeAll(chunk)
            } catch {
                throw DeliveryError(path: path, reason: .system(error, while: "writing the copy"))
            }
            offset += chunk.count
        }
        let after: Stat
        do throws(Errno) {
            after = try input.status()
        } catch {
            throw DeliveryError(path: source.escaped, reason: .system(error, while: "reading the source"))
        }
        guard Fingerprint(before) == Fingerprint(after), Int64(offset) == after.size else {
            throw DeliveryError(path: source.escaped, reason: .sourceChanged)
        }
        return Fingerprint(after)
    }

    /// `--move`: removes the source once its copy is in the Inbox, unless it changed since it was copied,
    /// or its name now stands for another file. Should a writer still holding the file open append to it
    /// in the instant between the last check and the unlink, the file is linked back under its name and
    /// the copy withdrawn: what was written is never left on an unlinked file. The name is examined and
    /// removed in the directory the file was opened in (`fstatat`, `unlinkat` on its descriptor).
    private static func removeSource(_ file: SourceFile, copied: Fingerprint, delivery: Delivery, inbox: FileDescriptor) throws(DeliveryError) {
        func withdraw(_ error: DeliveryError) -> DeliveryError {
            try? inbox.remove(PathBytes(delivery.name.bytes))
            try? inbox.sync()
            return error
        }
        let shown = file.shown.escaped
        let input = file.descriptor
        let now: Stat, named: Stat
        do throws(Errno) {
            now = try input.status()
            named = try file.directory.status(of: PathBytes(file.name), followingLinks: file.followsLink)
        } catch {
            throw withdraw(DeliveryError(path: shown, reason: .system(error, while: "checking the source")))
        }
        guard Fingerprint(now) == copied, named.inode == now.inode, named.deviceID == now.deviceID else {
            throw withdraw(DeliveryError(path: shown, reason: .sourceChanged))
        }
        do {
            try file.directory.remove(PathBytes(file.name))
        } catch {
            throw DeliveryError(path: shown, reason: .sourceNotRemoved(deliveredTo: delivery.path.escaped, error))
        }
        if let after = try? input.status(), !Fingerprint(after).matches(copied, ignoringChangeTime: true) {
            if (try? file.directory.link(openFile: input, as: PathBytes(file.name))) != nil {
                throw withdraw(DeliveryError(path: shown, reason: .sourceChanged))
            }
            throw DeliveryError(path: shown, reason: .sourceChangedAfterMove(deliveredTo: delivery.path.escaped))
        }
    }

    // MARK: The app's side

    /// An Inbox entry.
    public struct Entry: Sendable, Hashable {
        /// Its name in the Inbox.
        public var name: RawFilePath
        /// Its size in bytes; 0 when its status cannot be read.
        public var size: Int
    }

    /// The files in the Inbox, by name (byte order). Reading only: nothing is changed, not even the
    /// temporaries a crash left (the next delivery or `Registry.check(repairing:)` removes those).
    public func list() throws(DeliveryError) -> [Entry] {
        try withDirectories([["Documents", "Inbox"]], readOnly: true) { directories, container throws(DeliveryError) -> [Entry] in
            let names: [[UInt8]]
            do throws(Errno) {
                names = try directories[0].directoryEntries()
            } catch {
                throw DeliveryError(path: container + "/Documents/Inbox", reason: .system(error))
            }
            return names.map { name in
                let size = (try? directories[0].status(of: PathBytes(name))).map { Int($0.size) } ?? 0
                return Entry(name: RawFilePath(bytes: name), size: size)
            }.sorted { $0.name.bytes.lexicographicallyPrecedes($1.name.bytes) }
        }
    }

    /// Moves a file out of the Inbox into `Documents/` (under a free name) and lets its owner write it,
    /// as an app does before editing it (no one else gains any access); returns its new path.
    ///
    /// A file with other hard links (someone linked a file of theirs into the Inbox) is not moved and its
    /// permissions are not touched, since they belong to every name it has: `Documents/` gets a private
    /// copy instead (owner-writable, no more readable than the file), and the Inbox name is removed.
    public func claim(_ name: RawFilePath) throws(DeliveryError) -> RawFilePath {
        let name = try Self.safeName(name)
        return try withDirectories([["Documents"], ["Documents", "Inbox"]]) { directories, container throws(DeliveryError) -> RawFilePath in
            let (documents, inbox) = (directories[0], directories[1])
            let inboxPath = container + "/Documents/Inbox/" + name.escaped
            let file: FileDescriptor
            do throws(Errno) {
                file = try FileDescriptor.open(PathBytes(name.bytes), relativeTo: inbox, .readOnly, options: [.noFollow, .nonBlocking, .noControllingTerminal])
            } catch .tooManySymbolicLinkLevels {
                throw DeliveryError(path: inboxPath, reason: .notARegularFile)
            } catch {
                throw DeliveryError(path: inboxPath, reason: .system(error))
            }
            defer { file.closeQuietly() }
            let status: Stat
            do throws(Errno) {
                status = try file.status()
            } catch {
                throw DeliveryError(path: inboxPath, reason: .system(error))
            }
            guard status.type == .regular else { throw DeliveryError(path: inboxPath, reason: .notARegularFile) }
            let writable = FilePermissions(rawValue: (status.permissions.rawValue & 0o444) | 0o200)
            let shared = status.linkCount > 1
            var number = 0
            while true {
                let candidate = Self.variant(of: name.bytes, number)
                guard candidate.count <= 255 else { throw DeliveryError(path: inboxPath, reason: .noFreeName) }
                let claimedPath = RawFilePath(bytes: Array((container + "/Documents/").utf8) + candidate)
                do throws(DeliveryError) {
                    if shared {
                        try Self.copy(file, source: name, as: candidate, in: documents, path: claimedPath.escaped, permissions: writable)
                    } else {
                        // The file opened, linked by its descriptor: whatever the Inbox name leads to meanwhile.
                        do throws(Errno) {
                            try documents.link(openFile: file, as: PathBytes(candidate))
                        } catch {
                            throw DeliveryError(path: claimedPath.escaped, reason: .system(error))
                        }
                    }
                } catch where error.reason.errno == .fileExists {
                    number += 1
                    continue
                }
                // The Inbox name goes only while it is still this file.
                do throws(Errno) {
                    let named = try inbox.status(of: PathBytes(name.bytes))
                    guard named.deviceID == status.deviceID, named.inode == status.inode else { throw Errno.staleNFSFileHandle }
                    try inbox.remove(PathBytes(name.bytes))
                } catch {
                    try? documents.remove(PathBytes(candidate))
                    if error == .staleNFSFileHandle { throw DeliveryError(path: inboxPath, reason: .sourceChanged) }
                    throw DeliveryError(path: inboxPath, reason: .system(error))
                }
                // The very file, now in Documents/ under its one name, becomes owner-writable; one that gained
                // another name meanwhile keeps its mode, which belongs to that name too.
                if !shared, let now = try? file.status(), now.linkCount == 1 {
                    try? file.setPermissions(writable)
                }
                // Best effort: the claim moved the file within one container, whose copy in the Inbox was durable;
                // a crash before these directories reach the disk leaves it in the Inbox or in Documents, both the
                // app's, never lost.
                try? documents.sync()
                try? inbox.sync()
                return claimedPath
            }
        }
    }

    /// Copies the open file into `directory` as the new file `name` (never replacing one: `EEXIST`), with
    /// `permissions`, synced; nothing is left of it when the copy fails or the file changed meanwhile.
    private static func copy(_ file: FileDescriptor, source: RawFilePath, as name: [UInt8], in directory: FileDescriptor, path: String,
                             permissions: FilePermissions) throws(DeliveryError) {
        let output: FileDescriptor
        do throws(Errno) {
            output = try FileDescriptor.open(PathBytes(name), relativeTo: directory, .writeOnly,
                                             options: [.create, .exclusiveCreate, .noFollow], permissions: .ownerReadWrite)
        } catch {
            throw DeliveryError(path: path, reason: .system(error))
        }
        var done = false
        defer {
            output.closeQuietly()
            if !done { try? directory.remove(PathBytes(name)) }
        }
        _ = try copy(from: file, source: source, to: output, path: path)
        do throws(Errno) {
            try output.sync()
            try output.setPermissions(permissions)
        } catch {
            throw DeliveryError(path: path, reason: .system(error))
        }
        done = true
    }

    /// Deletes a file from the Inbox.
    public func remove(_ name: RawFilePath) throws(DeliveryError) {
        let name = try Self.safeName(name)
        try withDirectories([["Documents", "Inbox"]]) { directories, container throws(DeliveryError) in
            do throws(Errno) {
                try directories[0].remove(PathBytes(name.bytes))
            } catch {
                throw DeliveryError(path: container + "/Documents/Inbox/" + name.escaped, reason: .system(error))
            }
            try? directories[0].sync()
        }
    }
}
