#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import FileIdentification
internal import SystemCalls
package import SystemPackage
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The registered apps, their sandbox containers and the user's default handlers, under one root
/// directory (`$UTI_ROOT`, else `$XDG_DATA_HOME/uti`, else `~/.local/share/uti`):
///
///     registry.json            the apps (what their manifests say, in registration order) and the
///                              default handlers; see `RegistryState`
///     registry.lock            the lock: exclusive for a change, shared for a delivery
///     Containers/<bundle-id>/  Documents/, Documents/Inbox/, Library/, Library/Caches/,
///                              Library/Application Support/, Library/Preferences/, tmp/
///     Shared/AppGroup/<group>/ an application group's shared container: Library/, Library/Caches/,
///                              Library/Application Support/ (see Registry+ApplicationGroups.swift)
///
/// **Changes** (register, unregister, defaults) take the exclusive lock, read the state, write the new
/// state to a temporary file that is synced and renamed over the old one, and only then remove what the
/// new state no longer refers to. A crash at any point leaves the old state or the new, and what it
/// leaves half-done (a temporary, a container being deleted) is finished by the next change or by
/// `check(repairing: true)`.
///
/// **Readers** (`apps()`, `snapshot()`, routing) take no lock: they read the one state file, which is
/// always whole. A record that cannot be read, or an app whose declarations no longer fit the type
/// database, is reported as a `Problem` while the other apps are served.
///
/// **Bundle identifiers** are checked before any path is built from one (ASCII letters, digits, `-` and
/// `.`, 1 to 255 bytes, no leading dot, no `..`) and compared without regard to case, as on Apple's
/// platforms: `com.Example.App` and `com.example.app` are one app.
///
/// **Permissions**: the root, `Containers/` and every container directory are private to their owner
/// (0700); the state and the lock are 0600.
public struct Registry: Sendable {
    /// The root directory, without a trailing slash.
    public let root: String
    /// How long taking the registry lock may wait for another process to release it before the operation
    /// fails with `RegistryError.Reason.Kind.lockTimeout`; `nil` (the default) waits as long as it takes.
    /// A server sets it, so that a request never hangs on a registration in another process.
    public var lockTimeout: Duration?

    /// The registry under `root` (see `defaultRoot()`), whose lock is waited for at most `lockTimeout`;
    /// nothing is read or made until it is used.
    public init(root: String, lockTimeout: Duration? = nil) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.lockTimeout = lockTimeout
    }

    /// `$UTI_ROOT`, else `$XDG_DATA_HOME/uti`, else `$HOME/.local/share/uti`.
    public static func defaultRoot() -> String {
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let root = variable("UTI_ROOT") { return root }
        if let data = variable("XDG_DATA_HOME") { return data + "/uti" }
        return (variable("HOME") ?? "/tmp") + "/.local/share/uti"
    }

    /// A registered app.
    public struct RegisteredApp: Sendable, Hashable {
        /// What its manifest says, as the registry keeps it.
        public var manifest: AppManifest
        /// Its container's directory under `Containers/`: the bundle identifier as it was spelt when the
        /// container was made.
        public var containerName: String
        /// The `Info.plist` it was registered from.
        public var registeredFrom: String?
        /// Its bundle identifier, from its manifest.
        public var bundleIdentifier: String { manifest.bundleIdentifier }
    }

    /// A user's choice of handler for a type (and its subtypes without one of their own).
    public struct DefaultHandler: Codable, Sendable, Hashable {
        /// The type's identifier.
        public var type: String
        /// `Editor` or `Viewer`; `nil` for any role.
        public var role: String?
        /// The app chosen.
        public var bundleIdentifier: String
    }

    /// What one reading of the registry found.
    public struct Snapshot: Sendable {
        /// The apps that can be served, in registration order.
        public var apps: [RegisteredApp]
        /// The user's default handlers.
        public var defaults: [DefaultHandler]
        /// What is wrong with the rest; empty for a sound registry.
        public var problems: [Problem]
    }

    /// The directories every container has below it, made (private) with the container.
    public static let containerDirectories = [
        "Documents", "Documents/Inbox", "Library", "Library/Caches", "Library/Application Support", "Library/Preferences", "tmp",
    ]

    package var statePath: String { root + "/registry.json" }
    static let stateName = "registry.json"
    static let lockName = "registry.lock"
    /// Where a container being deleted is renamed first: `Containers/.removing.<name>`.
    static let removingPrefix = ".removing."

    /// The largest state file read: far beyond any real registry.
    static let stateSizeLimit = 64 << 20

    static let directoryPermissions: FilePermissions = .ownerReadWriteExecute
    static let filePermissions: FilePermissions = .ownerReadWrite

    // MARK: Bundle identifiers

    /// Checks a bundle identifier before it names anything; every public entry point taking one calls this.
    public static func validate(bundleIdentifier: String) throws(RegistryError) {
        guard AppManifest.isValidBundleIdentifier(bundleIdentifier) else {
            throw RegistryError(path: bundleIdentifier, reason: .invalidBundleIdentifier(bundleIdentifier))
        }
    }

    // MARK: Reading

    /// The registry as it is now, read without a lock from the state file (which is always whole).
    public func snapshot() throws(RegistryError) -> Snapshot {
        let state = try readState()
        var apps: [RegisteredApp] = []
        var problems: [Problem] = []
        var seen = Set<String>()
        for (index, entry) in state.apps.enumerated() {
            switch entry {
            case .app(let record):
                guard seen.insert(record.bundleIdentifier.lowercased()).inserted else {
                    problems.append(Problem(.duplicateApp, path: statePath, bundleIdentifier: record.bundleIdentifier,
                                            detail: "registered twice (bundle identifiers are compared without regard to case)"))
                    continue
                }
                apps.append(registeredApp(record))
            case .legacy(let identifier):
                guard seen.insert(identifier.lowercased()).inserted else { continue }
                do throws(RegistryError) {
                    apps.append(try legacyApp(identifier))
                } catch {
                    problems.append(Problem(.unreadableRecord, path: error.path, bundleIdentifier: identifier, detail: error.reason.description))
                }
            case .unreadable(let detail):
                problems.append(Problem(.unreadableRecord, path: statePath, detail: "apps[\(index)]: \(detail)"))
            }
        }
        let registered = Set(apps.map { $0.bundleIdentifier.lowercased() })
        var defaults: [DefaultHandler] = []
        for handler in state.defaults {
            if registered.contains(handler.bundleIdentifier.lowercased()) {
                defaults.append(handler)
            } else {
                problems.append(Problem(.orphanDefault, path: statePath, bundleIdentifier: handler.bundleIdentifier,
                                        detail: "the default for \(handler.type) names an app that is not registered"))
            }
        }
        for name in state.pendingRemovals {
            problems.append(Problem(.pendingRemoval, path: root + "/Containers/" + name, bundleIdentifier: name,
                                    detail: "the container of an unregistered app, not yet deleted"))
        }
        for group in state.pendingGroupRemovals {
            problems.append(Problem(.pendingRemoval, path: groupContainerPath(group),
                                    detail: "the shared container of an application group without members, not yet deleted"))
        }
        return Snapshot(apps: apps, defaults: defaults, problems: problems)
    }

    /// The registered apps that can be served, in registration order.
    public func apps() throws(RegistryError) -> [RegisteredApp] { try snapshot().apps }

    /// One registered app (the bundle identifier compared without regard to case).
    public func app(_ bundleIdentifier: String) throws(RegistryError) -> RegisteredApp {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        let key = bundleIdentifier.lowercased()
        guard let app = try apps().first(where: { $0.bundleIdentifier.lowercased() == key }) else {
            throw RegistryError(path: statePath, reason: .notRegistered(bundleIdentifier))
        }
        return app
    }

    /// The user's default handlers, the most recently set last.
    public func defaults() throws(RegistryError) -> [DefaultHandler] { try snapshot().defaults }

    /// Registers every registered app's type declarations in `database`, so that lookups see them, and
    /// returns what was read. An app whose declarations do not fit (a cycle with another app's, say, in a
    /// registry written before such cycles were refused) is reported as a problem and served without
    /// its declarations: one app cannot make routing fail for files that are not its types.
    ///
    /// Loading again (a long-running process that sees registrations change) first removes what an earlier
    /// load of this registry added, so declarations never pile up.
    @discardableResult
    public func loadDeclarations(into database: TypeDatabase = .shared) throws(RegistryError) -> Snapshot {
        var snapshot = try snapshot()
        database.unregisterDeclarations(fromSourcesWithPrefix: declarationSourcePrefix)
        snapshot.problems += registerDeclarations(of: snapshot.apps, in: database)
        return snapshot
    }

    /// A database of the built-in types and what the system registered in `TypeDatabase.shared` (declaration
    /// files), in which apps' declarations are checked as lookups will see them.
    static func databaseWithSystemDeclarations() -> TypeDatabase {
        let database = TypeDatabase(includingBuiltInTypes: true)
        _ = try? database.register(TypeDatabase.shared.registeredDeclarations(of: .system), owner: .system)
        return database
    }

    /// Registers the apps' declarations in `database`, each app their owner, in registration order (so
    /// that an exported type belongs to the app that exported it first, and no app's declaration replaces
    /// the system's); returns what is wrong: an app whose declarations do not fit (a conformance cycle
    /// through another's), which is served without them, and each exported declaration kept out of lookups.
    func registerDeclarations(of apps: [RegisteredApp], in database: TypeDatabase) -> [Problem] {
        var problems: [Problem] = []
        for app in apps where !app.manifest.declarations.isEmpty {
            do {
                try database.register(app.manifest.declarations, owner: .app(app.bundleIdentifier))
            } catch {
                problems.append(Problem(.conflictingDeclarations, path: statePath, bundleIdentifier: app.bundleIdentifier,
                                        detail: "its type declarations are ignored: " + RegistryError.Reason.declarations(error).description))
            }
        }
        for ignored in database.ignoredDeclarations() where ignored.owner.isApp && ignored.declaration.kind == .exported
            && ignored.declaration.source?.hasPrefix(declarationSourcePrefix) == true {
            problems.append(Problem(.ignoredDeclaration, path: statePath, bundleIdentifier: ignored.owner.bundleIdentifier,
                                    detail: "\(ignored.owner): \(ignored)"))
        }
        return problems
    }

    /// The path of an app's container: the registered app's, else (an app unregistered with its data
    /// kept, or never registered) `Containers/<bundle-id>` as spelt by an existing container or as given.
    public func containerPath(_ bundleIdentifier: String) throws(RegistryError) -> String {
        root + "/Containers/" + (try containerName(bundleIdentifier))
    }

    /// The path of a registered app's container.
    public func containerPath(of app: RegisteredApp) -> String { root + "/Containers/" + app.containerName }

    package func containerName(_ bundleIdentifier: String) throws(RegistryError) -> String {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        let state = try readState()
        if let index = state.index(of: bundleIdentifier), case .app(let record) = state.apps[index] { return record.container }
        return existingContainerName(for: bundleIdentifier, in: nil) ?? bundleIdentifier
    }

    /// A container already under `Containers/` whose name is `bundleIdentifier` in any case.
    private func existingContainerName(for bundleIdentifier: String, in containers: FileDescriptor?) -> String? {
        let key = Array(bundleIdentifier.lowercased().utf8)
        let directory: FileDescriptor
        if let containers {
            directory = containers
        } else {
            guard let opened = try? FileDescriptor.open(root + "/Containers", .readOnly, options: [.directory]) else { return nil }
            directory = opened
        }
        defer { if containers == nil { directory.closeQuietly() } }
        guard let names = try? directory.directoryEntries() else { return nil }
        if names.contains(Array(bundleIdentifier.utf8)) { return bundleIdentifier }
        let lowered = { (name: [UInt8]) in name.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } }
        return names.first { lowered($0) == key }.map { String(decoding: $0, as: UTF8.self) }
    }

    func readState() throws(RegistryError) -> RegistryState {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(statePath, limit: Self.stateSizeLimit, followingLinks: false)
        } catch .noSuchFileOrDirectory {
            return RegistryState()
        } catch {
            throw RegistryError(path: statePath, reason: .system(error))
        }
        let state: RegistryState
        do {
            state = try JSONDecoder().decode(RegistryState.self, from: Data(bytes))
        } catch {
            throw RegistryError(path: statePath, reason: .corruptState(RegistryState.Entry.describe(error)))
        }
        guard state.version <= RegistryState.currentVersion else {
            throw RegistryError(path: statePath, reason: .corruptState("written by a newer uti (version \(state.version))"))
        }
        return state
    }

    /// What the declarations of this registry's apps name as their source: `<root>/registry.json (<bundle-id>)`.
    var declarationSourcePrefix: String { statePath + " (" }

    func registeredApp(_ record: StoredApp) -> RegisteredApp {
        RegisteredApp(manifest: record.manifest(source: declarationSourcePrefix + record.bundleIdentifier + ")"),
                      containerName: record.container, registeredFrom: record.registeredFrom)
    }

    /// An app of a version-1 registry, from the manifest it kept in `Apps/`.
    private func legacyApp(_ identifier: String) throws(RegistryError) -> RegisteredApp {
        try Self.validate(bundleIdentifier: identifier)
        let path = root + "/Apps/" + identifier + ".plist"
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: AppManifest.sizeLimit, followingLinks: false)
        } catch {
            throw RegistryError(path: path, reason: .system(error))
        }
        do throws(ManifestError) {
            let manifest = try AppManifest.parse(bytes, file: path)
            guard manifest.bundleIdentifier.lowercased() == identifier.lowercased() else {
                throw ManifestError(file: path, key: "CFBundleIdentifier", problem: "is \(manifest.bundleIdentifier), not \(identifier)")
            }
            return registeredApp(StoredApp(manifest, container: identifier, registeredFrom: path))
        } catch {
            throw RegistryError(path: path, reason: .manifest(error))
        }
    }

    // MARK: Changing

    /// The registry's root directory, made (0700) when it is not there and `making`.
    private func openRoot(making: Bool = true) throws(RegistryError) -> FileDescriptor {
        do {
            return try FileDescriptor.openDirectory(atPath: root, making: making ? Self.directoryPermissions : nil)
        } catch .notDirectory {
            throw RegistryError(path: root, reason: .notADirectory)
        } catch {
            throw RegistryError(path: root, reason: .system(error))
        }
    }

    /// Opens the registry lock and takes it, exclusive or shared; the caller unlocks and closes it.
    func lock(in rootDirectory: FileDescriptor, exclusive: Bool) throws(RegistryError) -> FileDescriptor {
        let lock: FileDescriptor
        let taken: Bool
        do throws(Errno) {
            lock = try FileDescriptor.open(Self.lockName, relativeTo: rootDirectory, .readWrite,
                                           options: [.create, .noFollow], permissions: Self.filePermissions)
            do throws(Errno) {
                if let lockTimeout {
                    taken = try Self.lock(lock, exclusive: exclusive, within: lockTimeout)
                } else {
                    if exclusive { try lock.lockExclusively() } else { try lock.lockShared() }
                    taken = true
                }
            } catch {
                lock.closeQuietly()
                throw error
            }
        } catch {
            throw RegistryError(path: root + "/" + Self.lockName, reason: .system(error))
        }
        if taken { return lock }
        // Only a lock with a deadline is ever not taken.
        lock.closeQuietly()
        throw RegistryError(path: root + "/" + Self.lockName, reason: .lockTimeout(lockTimeout ?? .zero))
    }

    /// Tries the lock until it is taken or `timeout` has passed (`false`), pausing 1 ms, then longer, up to
    /// 50 ms, between tries: `flock` itself has no deadline.
    private static func lock(_ lock: FileDescriptor, exclusive: Bool, within timeout: Duration) throws(Errno) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause: Duration = .milliseconds(1)
        while true {
            if exclusive ? try lock.tryLockExclusively() : try lock.tryLockShared() { return true }
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return false }
            Processes.sleep(for: min(pause, left))
            pause = min(pause * 2, .milliseconds(50))
        }
    }

    /// Runs `body` with the registry's root directory open and the lock taken shared: deliveries, so that
    /// no container is deleted while a file is delivered into it.
    package func withSharedLock<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(RegistryError) -> Result<R, E> {
        // A delivery needs a container, which only a registration makes: the root is never made here.
        let rootDirectory = try openRoot(making: false)
        defer { rootDirectory.closeQuietly() }
        let lock = try lock(in: rootDirectory, exclusive: false)
        defer {
            lock.unlock()
            lock.closeQuietly()
        }
        do throws(E) {
            return .success(try body(rootDirectory))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the state, lets `body` change it and writes it back, all under the exclusive lock; then, still
    /// under the lock, removes what the new state no longer refers to (containers pending removal,
    /// abandoned temporaries, a version-1 registry's manifests).
    ///
    /// Housekeeping comes first: a version-1 state is converted, records that cannot be read are dropped
    /// (their containers stay), defaults naming unregistered apps are dropped, temporaries of the state
    /// left by a crash are removed, and removals left pending by a crash are finished.
    @discardableResult
    func change<R>(_ body: (inout RegistryState, FileDescriptor) throws(RegistryError) -> R) throws(RegistryError) -> (result: R, repairs: [Problem]) {
        let rootDirectory = try openRoot()
        defer { rootDirectory.closeQuietly() }
        let lock = try lock(in: rootDirectory, exclusive: true)
        defer {
            lock.unlock()
            lock.closeQuietly()
        }
        var repairs = removeAbandonedStateTemporaries(in: rootDirectory)
        var state = try readState()
        repairs += normalize(&state, in: rootDirectory)
        // Pending removals first (a crash's), so that the change finds their names free; what is left of
        // them is removed after the change, and never stops it.
        try finishPendingRemovals(&state, in: rootDirectory, removingLeftovers: false)
        try finishPendingSpaceRemovals(&state, in: rootDirectory, removingLeftovers: false)
        let result = try body(&state, rootDirectory)
        try write(state, in: rootDirectory)
        repairs += try finishPendingRemovals(&state, in: rootDirectory, removingLeftovers: true)
        repairs += try finishPendingSpaceRemovals(&state, in: rootDirectory, removingLeftovers: true)
        if state.version == RegistryState.currentVersion, (try? rootDirectory.status(of: "Apps")) != nil {
            do throws(TreeRemovalError) {
                try rootDirectory.removeTree(Array("Apps".utf8))
                repairs.append(Problem(.legacyManifests, path: root + "/Apps", detail: "removed: the manifests of a version-1 registry, now in registry.json"))
            } catch {
                repairs.append(Problem(.legacyManifests, path: root + "/" + String(decoding: error.path, as: UTF8.self),
                                       detail: "not removed: \(error.errno)"))
            }
        }
        return (result, repairs)
    }

    /// Converts version-1 entries and drops what cannot be served; returns what it did.
    private func normalize(_ state: inout RegistryState, in rootDirectory: FileDescriptor) -> [Problem] {
        var repairs: [Problem] = []
        var entries: [RegistryState.Entry] = []
        var seen = Set<String>()
        for (index, entry) in state.apps.enumerated() {
            switch entry {
            case .app(let record):
                if seen.insert(record.bundleIdentifier.lowercased()).inserted {
                    entries.append(entry)
                } else {
                    repairs.append(Problem(.duplicateApp, path: statePath, bundleIdentifier: record.bundleIdentifier,
                                           detail: "a second registration, dropped"))
                }
            case .legacy(let identifier):
                guard seen.insert(identifier.lowercased()).inserted else { continue }
                do throws(RegistryError) {
                    let app = try legacyApp(identifier)
                    entries.append(.app(StoredApp(app.manifest, container: identifier, registeredFrom: app.registeredFrom)))
                    // Containers of that time were readable by others: made private (and complete) now.
                    try? makeContainer(identifier, in: rootDirectory)
                } catch {
                    repairs.append(Problem(.unreadableRecord, path: error.path, bundleIdentifier: identifier,
                                           detail: "unregistered (its container stays): \(error.reason)"))
                }
            case .unreadable(let detail):
                repairs.append(Problem(.unreadableRecord, path: statePath, detail: "apps[\(index)] dropped (\(detail))"))
            }
        }
        state.apps = entries
        state.version = RegistryState.currentVersion
        let registered = Set(state.records.map { $0.bundleIdentifier.lowercased() })
        state.defaults.removeAll { handler in
            guard !registered.contains(handler.bundleIdentifier.lowercased()) else { return false }
            repairs.append(Problem(.orphanDefault, path: statePath, bundleIdentifier: handler.bundleIdentifier,
                                   detail: "the default for \(handler.type) dropped: the app is not registered"))
            return true
        }
        state.pendingRemovals.removeAll { !AppManifest.isValidBundleIdentifier($0) }
        // The state may have been edited by hand: a shared space's name becomes a path component.
        Self.normalizeSharedSpaces(&state)
        state.keptContainers.removeAll { !AppManifest.isValidBundleIdentifier($0.bundleIdentifier) || !AppManifest.isValidBundleIdentifier($0.container) }
        return repairs
    }

    func write(_ state: RegistryState, in rootDirectory: FileDescriptor) throws(RegistryError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(state)) + [UInt8(ascii: "\n")]
        } catch {
            throw RegistryError(path: statePath, reason: .corruptState("cannot encode the state: \(error)"))
        }
        do {
            try AtomicFile.replace(Self.stateName, in: rootDirectory, with: bytes, permissions: Self.filePermissions)
        } catch {
            throw RegistryError(path: statePath, reason: .system(error))
        }
    }

    /// Temporaries of the state (`registry.json.PID.tmp`): only a change, under the exclusive lock, writes
    /// one, so any found by a change is a crash's.
    private func removeAbandonedStateTemporaries(in rootDirectory: FileDescriptor) -> [Problem] {
        guard let names = try? rootDirectory.directoryEntries() else { return [] }
        var repairs: [Problem] = []
        let prefix = Array((Self.stateName + ".").utf8), suffix = Array(AtomicFile.temporarySuffix.utf8)
        for name in names where name.starts(with: prefix) && name.reversed().starts(with: suffix.reversed()) && name.count > prefix.count + suffix.count {
            if (try? rootDirectory.remove(PathBytes(name))) != nil {
                repairs.append(Problem(.abandonedTemporary, path: root + "/" + String(decoding: name, as: UTF8.self), detail: "removed"))
            }
        }
        return repairs
    }

    /// Deletes the containers whose removal was decided, each renamed out of the way first (so that a
    /// delivery never finds a half-deleted container under the app's name), then removed through
    /// directory descriptors; also removes what an interrupted deletion left. See `finishRemovals`.
    @discardableResult
    private func finishPendingRemovals(_ state: inout RegistryState, in rootDirectory: FileDescriptor,
                                       removingLeftovers: Bool) throws(RegistryError) -> [Problem] {
        try finishRemovals(\.pendingRemovals, below: ["Containers"], keeping: Set(state.records.map(\.container)),
                           state: &state, in: rootDirectory, removingLeftovers: removingLeftovers)
    }

    /// Deletes the directories of `components` (below the root) that `pending` lists, but for those in
    /// `kept` (registered again): each renamed out of the way first (`.removing.<random>` beside it), the
    /// state written without it, then (with `removingLeftovers`) whatever `.removing.*` is there removed
    /// through directory descriptors, never following a link.
    ///
    /// Nothing here stops the change it is part of: a name that cannot be renamed stays pending, and what
    /// cannot be removed stays as `.removing.*`; each is returned as a problem with the reason (kept in the
    /// state, for `check`) and tried again by the next change. Only a state that cannot be written throws.
    @discardableResult
    func finishRemovals(_ pending: WritableKeyPath<RegistryState, [String]>, below components: [String], keeping kept: Set<String>,
                        state: inout RegistryState, in rootDirectory: FileDescriptor, removingLeftovers: Bool) throws(RegistryError) -> [Problem] {
        var parent: FileDescriptor?
        for component in components {
            let next = try? (parent ?? rootDirectory).openDirectory(component)
            parent?.closeQuietly()
            parent = next
            if next == nil { break }
        }
        let relative = components.joined(separator: "/") + "/"
        guard let parent else {
            // Nothing there to delete.
            if !state[keyPath: pending].isEmpty || state.leftovers.contains(where: { $0.path.hasPrefix(relative) }) {
                state[keyPath: pending] = []
                state.leftovers.removeAll { $0.path.hasPrefix(relative) }
                try write(state, in: rootDirectory)
            }
            return []
        }
        defer { parent.closeQuietly() }
        let parentPath = root + "/" + relative
        var problems: [Problem] = []
        var finished: [String] = []
        for name in state[keyPath: pending] {
            guard !kept.contains(name) else {
                finished.append(name)
                continue
            }
            // A name of its own, short enough for any bundle identifier: `.removing.<random>`.
            let removing = Self.removingPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 16)
            do throws(Errno) {
                try parent.rename(name, to: parent, as: removing)
            } catch .noSuchFileOrDirectory {
            } catch {
                problems.append(Problem(.pendingRemoval, path: parentPath + name, detail: "not removed yet (\(error)); tried again by the next change"))
                continue
            }
            finished.append(name)
        }
        var changed = false
        if !finished.isEmpty {
            // Renamed is as good as removed: no one finds it under its name, and what is left of it is
            // removed below, now or by a later change.
            state[keyPath: pending].removeAll { finished.contains($0) }
            changed = true
        }
        if removingLeftovers {
            var leftovers: [RegistryState.Leftover] = []
            let prefix = Array(Self.removingPrefix.utf8)
            for entry in (try? parent.directoryEntries()) ?? [] where entry.starts(with: prefix) {
                do throws(TreeRemovalError) {
                    try parent.removeTree(entry)
                } catch {
                    let name = String(decoding: entry, as: UTF8.self)
                    let place = String(decoding: error.path, as: UTF8.self)
                    let reason = "\(place == name ? "" : RawFilePath(bytes: error.path.dropFirst(entry.count + 1)).escaped + ": ")\(error.errno)"
                    leftovers.append(.init(path: relative + name, reason: reason))
                    problems.append(Problem(.leftoverRemoval, path: parentPath + name,
                                            detail: "what is left of a deleted container could not be removed (\(reason)); tried again by the next change"))
                }
            }
            let others = state.leftovers.filter { !$0.path.hasPrefix(relative) }
            if others + leftovers != state.leftovers {
                state.leftovers = others + leftovers
                changed = true
            }
        }
        if changed { try write(state, in: rootDirectory) }
        return problems
    }

    /// Opens (making it, 0700, when needed) the directory `components` below the root, one component at a
    /// time without following a symbolic link: a link planted in the registry is refused. A directory the
    /// registry made earlier with wider permissions is made private.
    package func openDirectory(_ components: [String], in rootDirectory: FileDescriptor) throws(RegistryError) -> FileDescriptor {
        var current = rootDirectory
        var path = root
        var opened: FileDescriptor?
        for component in components {
            path += "/" + component
            do {
                let next = try current.openOrMakeDirectory(component, permissions: Self.directoryPermissions)
                opened?.closeQuietly()
                opened = next
                current = next
                if let status = try? next.status(), status.permissions.rawValue & 0o077 != 0 {
                    try next.setPermissions(FilePermissions(rawValue: status.permissions.rawValue & 0o700))
                }
            } catch {
                opened?.closeQuietly()
                if error == .notDirectory || error == .tooManySymbolicLinkLevels {
                    throw RegistryError(path: path, reason: .notADirectory)
                }
                throw RegistryError(path: path, reason: .system(error))
            }
        }
        return current
    }

    /// Makes (or completes) a container: every directory of `containerDirectories`, private; and the
    /// `CACHEDIR.TAG` of `Library/Caches/` and `tmp/`, which backups leave out (see `backupItems`).
    func makeContainer(_ name: String, in rootDirectory: FileDescriptor) throws(RegistryError) {
        for directory in [""] + Self.containerDirectories {
            let components = ["Containers", name] + directory.split(separator: "/").map(String.init)
            try openDirectory(components, in: rootDirectory).closeQuietly()
        }
        if let container = try? openDirectory(["Containers", name], in: rootDirectory) {
            for excluded in [["Library", "Caches"], ["tmp"]] { Self.tagDirectory(excluded, in: container) }
            container.closeQuietly()
        }
    }

    /// What a registration did: the app's manifest, and what it should be told (its exported type
    /// declarations that are not in force, with why).
    public struct Registration: Sendable {
        /// The manifest registered.
        public var manifest: AppManifest
        /// Warnings: each exported declaration kept out of lookups (a type the system declares, another
        /// app's export), as `Problem`s of kind `.ignoredDeclaration`.
        public var warnings: [Problem]
    }

    /// Registers an app bundle or a bare `Info.plist`: stores what its manifest says, makes its container
    /// (data already there stays), and adds it to the registry, replacing in place an earlier
    /// registration of the same bundle identifier.
    ///
    /// - Throws: `RegistryError`, and nothing is stored: an unreadable or invalid manifest (larger than
    ///   `AppManifest.sizeLimit`, nested too deep, exporting a `public.*` type ...), declarations that do
    ///   not fit the type database together with the other registered apps' (a conformance cycle closed
    ///   through them), an application group the app has no evidence it may use (`.notAGroupMember`), or
    ///   a bundle identifier that differs only in case from a registered app's from another bundle
    ///   (`.bundleIdentifierTaken`).
    @discardableResult
    public func register(appAt path: String) throws(RegistryError) -> Registration {
        let manifest: AppManifest
        let infoPlist: String
        do {
            (manifest, infoPlist, _) = try AppManifest.read(contentsOf: path)
        } catch {
            throw RegistryError(path: error.file, reason: .manifest(error))
        }
        // Kept as an absolute path without links: what tells the same bundle from another one.
        let resolved = realpath(infoPlist, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? infoPlist
        let warnings = try register(manifest, from: resolved)
        return Registration(manifest: manifest, warnings: warnings)
    }

    /// Registers an app from its parsed manifest; see `register(appAt:)`. Returns the warnings.
    @discardableResult
    public func register(_ manifest: AppManifest, from infoPlist: String? = nil) throws(RegistryError) -> [Problem] {
        try Self.validate(bundleIdentifier: manifest.bundleIdentifier)
        let file = infoPlist ?? manifest.bundleIdentifier
        // A manifest made in code is checked as a parsed one is, so that the state never holds a record
        // that a later reading would refuse.
        do throws(RecordError) {
            try StoredApp(manifest, container: manifest.bundleIdentifier, registeredFrom: infoPlist).validate()
            for declaration in manifest.declarations where declaration.kind == .exported {
                if let problem = AppManifest.exportProblem(declaration.identifier) { throw RecordError(message: problem) }
            }
        } catch {
            throw RegistryError(path: file, reason: .manifest(ManifestError(file: file, problem: error.message)))
        }
        let outcome = try change { state, rootDirectory throws(RegistryError) -> [Problem] in
            let existing = state.index(of: manifest.bundleIdentifier)
            var previous: StoredApp?
            if let existing, case .app(let record) = state.apps[existing] { previous = record }
            // The same identifier in another case is the same app only when it is the same bundle: otherwise
            // a manifest could take over another app's container, data and defaults by spelling.
            if let previous, previous.bundleIdentifier != manifest.bundleIdentifier,
               previous.registeredFrom == nil || previous.registeredFrom != infoPlist {
                throw RegistryError(path: file, reason: .bundleIdentifierTaken(manifest.bundleIdentifier, by: previous.bundleIdentifier,
                                                                               from: previous.registeredFrom))
            }
            try Self.checkSharedSpaces(of: manifest, previous: previous, file: file, in: state)
            // The declarations must fit the database every lookup will use: the built-in types and the
            // other registered apps' declarations (no cycle closed through either). Checked under the lock,
            // so that two apps registering at once cannot each pass alone and fail together.
            // In registration order, the app in its place (where it was, or last), so that who exported a
            // type first is what lookups will see.
            let database = Self.databaseWithSystemDeclarations()
            var placed = false
            func registerNew() throws(RegistryError) {
                placed = true
                do throws(TypeDeclarationError) {
                    try database.register(manifest.declarations, owner: .app(manifest.bundleIdentifier))
                } catch {
                    throw RegistryError(path: file, reason: .declarations(error))
                }
            }
            for (index, entry) in state.apps.enumerated() {
                if index == existing {
                    try registerNew()
                    continue
                }
                guard case .app(let record) = entry else { continue }
                let declarations = record.manifest(source: statePath + " (" + record.bundleIdentifier + ")").declarations
                // Apps whose declarations do not fit together (a registry from before cycles were
                // refused) are left out: the new app is checked against the rest rather than refused.
                _ = try? database.register(declarations, owner: .app(record.bundleIdentifier))
            }
            if !placed { try registerNew() }
            let warnings = database.ignoredDeclarations(of: .app(manifest.bundleIdentifier)).filter { $0.declaration.kind == .exported }.map {
                Problem(.ignoredDeclaration, path: file, bundleIdentifier: manifest.bundleIdentifier, detail: $0.description)
            }
            let container: String
            if let previous {
                container = previous.container
            } else {
                let containers = try openDirectory(["Containers"], in: rootDirectory)
                defer { containers.closeQuietly() }
                let found = existingContainerName(for: manifest.bundleIdentifier, in: containers)
                // A container kept by an app spelt otherwise is that app's: taken again only from its bundle.
                if let found, found != manifest.bundleIdentifier {
                    let kept = state.keptContainers.first { $0.container == found }
                    guard let kept, let bundle = kept.registeredFrom, bundle == infoPlist else {
                        throw RegistryError(path: file, reason: .bundleIdentifierTaken(manifest.bundleIdentifier, by: kept?.bundleIdentifier ?? found,
                                                                                       from: kept?.registeredFrom))
                    }
                }
                container = found ?? manifest.bundleIdentifier
            }
            state.keptContainers.removeAll { $0.container.lowercased() == container.lowercased() }
            state.pendingRemovals.removeAll { $0.lowercased() == container.lowercased() }
            try makeContainer(container, in: rootDirectory)
            // A shared space the manifest no longer names keeps what the app left in it, until the app's data goes.
            try joinSharedSpaces(of: manifest, previous: previous, state: &state, in: rootDirectory)
            let record = StoredApp(manifest, container: container, registeredFrom: infoPlist)
            if let existing {
                state.apps[existing] = .app(record)
            } else {
                state.apps.append(.app(record))
            }
            return warnings
        }
        return outcome.result + outcome.repairs
    }

    /// Unregisters an app and its defaults; its container stays unless `deleteData`. The new state is
    /// written first, in one step (with the container's removal recorded as pending); the container is
    /// removed after it, through directory descriptors (see `removeTree`), never following a link out of
    /// the registry. Interrupted, the removal is finished by the next change. Returns the warnings: what
    /// the change put right, and what it could not remove yet (tried again by the next change).
    @discardableResult
    public func unregister(_ bundleIdentifier: String, deleteData: Bool) throws(RegistryError) -> [Problem] {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        return try change { state, _ throws(RegistryError) in
            guard let index = state.index(of: bundleIdentifier), case .app(let record) = state.apps[index] else {
                throw RegistryError(path: statePath, reason: .notRegistered(bundleIdentifier))
            }
            // Its shared spaces kept in the state before the record goes (a state from before they were kept).
            for kind in SharedSpace.allCases {
                for identifier in kind.identifiers(of: record) { _ = state.spaceIndex(kind, identifier) }
            }
            state.apps.remove(at: index)
            let key = record.bundleIdentifier.lowercased()
            state.defaults.removeAll { $0.bundleIdentifier.lowercased() == key }
            if deleteData && !state.pendingRemovals.contains(record.container) { state.pendingRemovals.append(record.container) }
            state.keptContainers.removeAll { $0.container.lowercased() == record.container.lowercased() }
            if !deleteData {
                state.keptContainers.append(.init(bundleIdentifier: record.bundleIdentifier, container: record.container,
                                                  registeredFrom: record.registeredFrom))
            }
            // A shared space goes only when no app that may hold data in it remains: no registered app that
            // names it, and no app unregistered with its data kept.
            Self.leaveSharedSpaces(of: record, deleteData: deleteData, state: &state)
        }.repairs
    }

    /// Makes `bundleIdentifier` the default handler for `type` (and subtypes without a default of
    /// their own), for one role or any; like `LSSetDefaultRoleHandlerForContentType`. Returns the warnings,
    /// as `unregister` does.
    @discardableResult
    public func setDefault(type: UTType, role: AppManifest.DocumentType.Role?, bundleIdentifier: String) throws(RegistryError) -> [Problem] {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        return try change { state, _ throws(RegistryError) in
            guard let index = state.index(of: bundleIdentifier), case .app(let record) = state.apps[index] else {
                throw RegistryError(path: statePath, reason: .notRegistered(bundleIdentifier))
            }
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            state.defaults.append(DefaultHandler(type: type.identifier, role: role?.rawValue, bundleIdentifier: record.bundleIdentifier))
        }.repairs
    }

    /// Removes the default for `type` and `role`; `false` when there was none.
    @discardableResult
    public func unsetDefault(type: UTType, role: AppManifest.DocumentType.Role?) throws(RegistryError) -> Bool {
        try change { state, _ throws(RegistryError) in
            let before = state.defaults.count
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            return state.defaults.count != before
        }.result
    }
}
