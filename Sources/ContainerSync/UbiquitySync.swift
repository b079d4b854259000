public import AppContainers
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import SystemCalls
public import SystemPackage
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Syncs an app's iCloud containers and key-value store with any rclone remote (a path, SFTP, S3 ...), by
/// driving rclone (Debian's `rclone`), two ways, so that two machines (two registry roots) syncing through
/// one remote converge.
///
/// **The engine.** `rclone bisync` carries the files of each container (`Mobile Documents/<container>` on
/// both sides). uti adds what is Apple's and what rclone 1.60 lacks (the article "Syncing iCloud containers" has the measurements
/// behind each):
///
/// - **Extended attributes** travel in a manifest uti keeps in the remote (`.uti/attributes/<container>.plist`),
///   merged three ways with the local attributes and the last synced manifest (a change on one side wins, on
///   both sides the local one), written and read atomically; rclone carries none over SFTP, and never a change
///   of attributes alone.
/// - **Conflicts** (a file changed on both sides between syncs, which rclone leaves as `X..path1` and
///   `X..path2`): the newer version keeps the name, the other is kept beside it as
///   `X (conflict <date> <time>).ext` (Apple's unresolved conflict versions; `conflicts(of:)` lists them,
///   `resolveConflict` keeps one); two identical versions are one file again, not a conflict.
/// - **The key-value store** is merged key by key, the later change winning (`UbiquitousKeyValueStore`),
///   stored in the remote as `SyncedPreferences/<identifier>.plist`, replaced atomically.
/// - **Crashes.** uti holds a lock for the whole sync that the rclone it runs inherits, so no second sync
///   starts while an orphaned rclone runs. A sync killed at any point (SIGKILL included) is finished by the
///   next one: rclone's listings are backed up before each run and put back after a crash (never
///   `--resync`, which can overwrite the newer side), what was copied before the crash comes back as
///   identical pairs, made one again, and a copy cut short (rclone 1.60 writes in place) as a pair one of
///   whose members is a prefix of the other, which loses to it. The first sync of a container takes the
///   remote's files it lacks and keeps the remote's version of a file both hold differently as a conflict
///   version, then starts rclone's listings.
/// - **Not synced:** `Library/Caches/`, `tmp/`, and items excluded from backup (`BackupExclusion`'s
///   attribute), nor symbolic links.
public struct UbiquitySync: Sendable {
    /// How to reach the remote and rclone.
    public struct Options: Sendable {
        /// An rclone remote and path (`backup:uti`, `:sftp,host=…:uti`) or a local directory (`/srv/uti`).
        public var remote: String
        /// The rclone program: a name looked up on `PATH`, or a path.
        public var rclone: String
        /// An rclone configuration file (`--config`); `nil` for rclone's own choice.
        public var rcloneConfiguration: String?
        /// Sync a container that has lost the file the sync leaves in it (`sentinelName`) since it was last
        /// synced: it was wiped or replaced, and syncing it deletes its files on the remote and on the other
        /// machines. Otherwise such a sync stops with an error before anything is done.
        public var force: Bool
        /// Called with the progress of each transfer, about once a second.
        public var progress: (@Sendable (Progress) -> Void)?

        /// Options for a sync with `remote`: by default rclone from `PATH` with its own configuration, no forced sync and no progress reports.
        public init(remote: String, rclone: String = "rclone", rcloneConfiguration: String? = nil, force: Bool = false,
                    progress: (@Sendable (Progress) -> Void)? = nil) {
            self.remote = remote
            self.rclone = rclone
            self.rcloneConfiguration = rcloneConfiguration
            self.force = force
            self.progress = progress
        }
    }

    /// How far a transfer is.
    public struct Progress: Sendable, Hashable {
        /// The container being synced.
        public var container: String
        /// The bytes transferred so far.
        public var bytes: Int
        /// The bytes of every transfer rclone has queued, done or not.
        public var totalBytes: Int
        /// The files transferred so far.
        public var transfers: Int
        /// The transfers rclone has queued, done or not.
        public var totalTransfers: Int
    }

    /// What a sync did.
    public struct Summary: Sendable, Hashable {
        /// Files copied to the remote.
        public var filesUp = 0
        /// Files copied from the remote.
        public var filesDown = 0
        /// Files deleted on the remote.
        public var deletedUp = 0
        /// Files deleted here.
        public var deletedDown = 0
        /// Bytes rclone moved.
        public var bytes = 0
        /// Conflict versions made (files changed on both sides).
        public var conflicts = 0
        /// Files whose extended attributes were changed here.
        public var attributesDown = 0
        /// Files whose attributes the remote's manifest got from here.
        public var attributesUp = 0
        /// Keys of the key-value store changed here.
        public var keysDown = 0
        /// Keys of the key-value store changed on the remote.
        public var keysUp = 0

        /// A summary of nothing done: every count 0.
        public init() {}
    }

    /// The registry whose apps are synced.
    public let registry: Registry

    /// A sync of the apps of `registry`.
    public init(registry: Registry) {
        self.registry = registry
    }

    /// The name sync leaves in each container's root on both sides: rclone refuses to sync a side with no
    /// file at all, and a container may hold none.
    public static let sentinelName = ".uti-sync"

    /// Syncs every iCloud container of `bundleIdentifier`, and its key-value store, with `options.remote`.
    /// - Throws: `SyncError`: the app is not registered or has nothing to sync, rclone is missing or failed
    ///   (with its words), the remote is refused (a link out of it), a key-value store is not one.
    @discardableResult
    public func sync(_ bundleIdentifier: String, options: Options) throws(SyncError) -> Summary {
        let app: Registry.RegisteredApp
        do {
            try Registry.validate(bundleIdentifier: bundleIdentifier)
            app = try registry.app(bundleIdentifier)
        } catch {
            throw SyncError(path: error.path, reason: .registry(error))
        }
        let containers = app.manifest.ubiquityContainers
        let store = app.manifest.ubiquityKeyValueStore
        guard !containers.isEmpty || store != nil else {
            throw SyncError(path: registry.statePath, reason: .nothingToSync(app.bundleIdentifier))
        }
        let remote = try Remote(options.remote)
        var session = try Session(registry: registry, remote: remote, options: options)
        defer { session.finish() }
        var summary = Summary()
        for container in containers {
            try session.sync(container: container, into: &summary)
        }
        if let store {
            do {
                try session.sync(keyValueStore: try registry.keyValueStore(for: app.bundleIdentifier), identifier: store, into: &summary)
            } catch let error as SyncError {
                throw error
            } catch let error as RegistryError {
                throw SyncError(path: error.path, reason: .registry(error))
            } catch {
                throw SyncError(path: registry.root, reason: .engine(String(describing: error)))
            }
        }
        session.succeeded()
        return summary
    }

    // MARK: Conflicts

    /// A version of a document kept beside it because both sides changed it between syncs.
    public struct Conflict: Sendable, Hashable {
        /// The container's identifier.
        public var container: String
        /// The document's path in the container (`Documents/Report.pdf`).
        public var path: String
        /// The conflict version's path in the container (`Documents/Report (conflict 2026-11-26 101500).pdf`).
        public var versionPath: String
    }

    /// The unresolved conflict versions in `bundleIdentifier`'s iCloud containers.
    public func conflicts(of bundleIdentifier: String) throws(SyncError) -> [Conflict] {
        var found: [Conflict] = []
        for (container, path) in try containerPaths(of: bundleIdentifier) {
            for (document, version) in ConflictNames.versions(under: path) {
                found.append(Conflict(container: container, path: document, versionPath: version))
            }
        }
        return found
    }

    /// Resolves a conflict: keeps the current version (`keepingVersion: false`: the conflict version is
    /// removed) or the conflict version (it replaces the current one, atomically); the next sync carries it.
    public func resolveConflict(_ conflict: Conflict, of bundleIdentifier: String, keepingVersion: Bool) throws(SyncError) {
        guard let path = try containerPaths(of: bundleIdentifier).first(where: { $0.container == conflict.container })?.path else {
            throw SyncError(path: conflict.versionPath, reason: .notAConflict)
        }
        guard ConflictNames.versions(under: path).contains(where: { $0.document == conflict.path && $0.version == conflict.versionPath }) else {
            throw SyncError(path: path + "/" + conflict.versionPath, reason: .notAConflict)
        }
        let (versionDirectory, versionName) = AtomicFile.split(path + "/" + conflict.versionPath)
        let (documentDirectory, documentName) = AtomicFile.split(path + "/" + conflict.path)
        do throws(Errno) {
            let folder = try FileDescriptor.open(versionDirectory, .readOnly, options: [.directory, .noFollow])
            defer { folder.closeQuietly() }
            if keepingVersion {
                let target = try FileDescriptor.open(documentDirectory, .readOnly, options: [.directory, .noFollow])
                defer { target.closeQuietly() }
                try folder.rename(versionName, to: target, as: documentName)
            } else {
                try folder.remove(versionName)
            }
        } catch {
            throw SyncError(path: path + "/" + conflict.versionPath, reason: .system(error, while: "resolving the conflict"))
        }
    }

    private func containerPaths(of bundleIdentifier: String) throws(SyncError) -> [(container: String, path: String)] {
        do throws(RegistryError) {
            try Registry.validate(bundleIdentifier: bundleIdentifier)
            let app = try registry.app(bundleIdentifier)
            guard !app.manifest.ubiquityContainers.isEmpty else {
                throw RegistryError(path: registry.statePath, reason: .noUbiquityContainer(app.bundleIdentifier))
            }
            return app.manifest.ubiquityContainers.map { ($0, registry.sharedSpacePath(.ubiquityContainer, $0)) }
        } catch {
            throw SyncError(path: error.path, reason: .registry(error))
        }
    }
}

/// The family of `SyncError`: a sync that did not finish (what it did stays done, and the next sync goes on
/// from there). A reason may carry the `RegistryError` it comes from.
public enum SyncErrorDomain: ErrorDomain {
    /// A sync error's cause: the `RegistryError` it comes from.
    public typealias Cause = RegistryError
}

/// A sync that did not finish: the path or remote at fault and why (compare by kind: `error.kind ==
/// .engineMissing`; new kinds may be added).
public typealias SyncError = LocatedError<SyncErrorDomain>

/// The kinds of `SyncError`.
extension ErrorKind where Domain == SyncErrorDomain {
    /// A system call failed (`detail`: what was being done).
    public static let system = Self("system") { $0.systemMessage }
    /// The registry could not be read, or the app is not registered (`cause`: why).
    public static let registry = Self("registry") { $0.cause?.message ?? "the registry cannot be read" }
    /// The app names no iCloud container and no key-value store (`subject`).
    public static let nothingToSync = Self("nothing-to-sync") {
        "'\($0.subject ?? "")' names no iCloud container and no key-value store: nothing to sync"
    }
    /// rclone could not be started (`detail`: the program asked for).
    public static let engineMissing = Self("engine-missing") {
        "rclone ('\($0.detail ?? "rclone")') cannot be run: install it (Debian's rclone package) or say where it is"
    }
    /// rclone failed (`detail`: what it was doing and what it said).
    public static let engine = Self("engine") { "rclone failed: \($0.detail ?? "")" }
    /// The remote is refused (`detail`: why).
    public static let remoteRefused = Self("remote-refused") { "refused as a remote: \($0.detail ?? "")" }
    /// A key-value store (here or on the remote) is not one (`detail`: what is wrong).
    public static let keyValueStore = Self("key-value-store") { $0.detail ?? "not a key-value store" }
    /// The container lost the sync's sentinel since its last sync: wiped or replaced.
    public static let containerReplaced = Self("container-replaced") { _ in
        "the container has lost the file \(UbiquitySync.sentinelName) since it was last synced: it was wiped or replaced, and a sync "
            + "would delete its files on the remote and on every other machine; nothing done (sync with force to do it)"
    }
    /// Not a conflict version of the app's containers.
    public static let notAConflict = Self("not-a-conflict") { _ in "not a conflict version of the app's iCloud containers" }
}

/// The reasons of `SyncError`, one for each kind.
extension ErrorReason where Domain == SyncErrorDomain {
    /// A system call failed with `errno` (`.system`) while doing `operation`, kept as `detail`.
    public static func system(_ errno: Errno, while operation: String? = nil) -> Self { Self(.system, errno: errno, detail: operation) }
    /// The registry could not be read, or the app is not registered (`.registry`); `cause` carries `error`.
    public static func registry(_ error: RegistryError) -> Self { Self(.registry, cause: error) }
    /// `bundleIdentifier` names no iCloud container and no key-value store (`.nothingToSync`, with it as `subject`).
    public static func nothingToSync(_ bundleIdentifier: String) -> Self { Self(.nothingToSync, subject: bundleIdentifier) }
    /// rclone could not be started as `program` (`.engineMissing`, with it as `detail`).
    public static func engineMissing(_ program: String) -> Self { Self(.engineMissing, detail: program) }
    /// rclone failed (`.engine`); `detail` says what it was doing and what it said.
    public static func engine(_ detail: String) -> Self { Self(.engine, detail: detail) }
    /// The remote is refused (`.remoteRefused`); `detail` says why.
    public static func remoteRefused(_ detail: String) -> Self { Self(.remoteRefused, detail: detail) }
    /// A key-value store, here or on the remote, is not one (`.keyValueStore`); `detail` says what is wrong.
    public static func keyValueStore(_ detail: String) -> Self { Self(.keyValueStore, detail: detail) }
    /// Not a conflict version of the app's iCloud containers (`.notAConflict`).
    public static let notAConflict = Self(.notAConflict)
    /// The container lost the sync's sentinel since its last sync: wiped or replaced (`.containerReplaced`).
    public static let containerReplaced = Self(.containerReplaced)
}
