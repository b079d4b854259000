#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import SystemCalls
internal import SystemPackage
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// The registered apps, their sandbox containers and the user's default handlers, under one root
/// directory (`$UTI_ROOT`, else `$XDG_DATA_HOME/uti`, else `~/.local/share/uti`):
///
///     registry.json            apps (in registration order) and default handlers
///     registry.lock            the lock every change takes (flock)
///     Apps/<bundle-id>.plist   each app's Info.plist, as registered
///     Containers/<bundle-id>/  Documents/, Documents/Inbox/, Library/, Library/Caches/,
///                              Library/Application Support/, Library/Preferences/, tmp/
///
/// Every change reads the state, changes it and writes it back under an exclusive `flock`, the new
/// state written to a temporary file, synced and renamed over the old: several `uti` processes at
/// once lose nothing, and a crash leaves the old state or the new, never half of one.
public struct Registry: Sendable {
    public let root: String

    public init(root: String) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
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

    /// A registered app: its record and its parsed manifest.
    public struct RegisteredApp: Sendable, Hashable {
        public var manifest: AppManifest
        /// The stored copy of its Info.plist.
        public var manifestPath: String
        public var bundleIdentifier: String { manifest.bundleIdentifier }
    }

    /// A user's choice of handler for a type (and its subtypes without one of their own).
    public struct DefaultHandler: Codable, Sendable, Hashable {
        public var type: String
        /// `Editor` or `Viewer`; `nil` for any role.
        public var role: String?
        public var bundleIdentifier: String
    }

    struct State: Codable {
        var apps: [String] = []
        var defaults: [DefaultHandler] = []
    }

    public static let containerDirectories = [
        "Documents", "Documents/Inbox", "Library", "Library/Caches", "Library/Application Support", "Library/Preferences", "tmp",
    ]

    var statePath: String { root + "/registry.json" }
    public func manifestPath(_ bundleIdentifier: String) -> String { root + "/Apps/" + bundleIdentifier + ".plist" }
    public func containerPath(_ bundleIdentifier: String) -> String { root + "/Containers/" + bundleIdentifier }

    /// The largest state file and stored manifest read: far beyond any real registry.
    static let fileSizeLimit = 64 << 20

    // MARK: Reading

    func readState() throws(RegistryError) -> State {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(statePath, limit: Self.fileSizeLimit)
        } catch .noSuchFileOrDirectory {
            return State()
        } catch {
            throw RegistryError(path: statePath, reason: .system(error))
        }
        do {
            return try JSONDecoder().decode(State.self, from: Data(bytes))
        } catch {
            throw RegistryError(path: statePath, reason: .corruptState(String(describing: error)))
        }
    }

    /// The registered apps, in registration order.
    public func apps() throws(RegistryError) -> [RegisteredApp] {
        try readState().apps.map { identifier throws(RegistryError) in try app(identifier) }
    }

    /// One registered app.
    public func app(_ bundleIdentifier: String) throws(RegistryError) -> RegisteredApp {
        let path = manifestPath(bundleIdentifier)
        do {
            return RegisteredApp(manifest: try AppManifest.read(contentsOf: path).manifest, manifestPath: path)
        } catch {
            throw RegistryError(path: path, reason: .manifest(error))
        }
    }

    public func defaults() throws(RegistryError) -> [DefaultHandler] { try readState().defaults }

    /// Registers every registered app's type declarations in `TypeDatabase.shared`, so that lookups see
    /// them; returns the apps, read once for both.
    @discardableResult
    public func loadDeclarations() throws(RegistryError) -> [RegisteredApp] {
        let apps = try apps()
        for app in apps where !app.manifest.declarations.isEmpty {
            do {
                try TypeDatabase.shared.register(app.manifest.declarations)
            } catch {
                throw RegistryError(path: app.manifestPath, reason: .declarations(error))
            }
        }
        return apps
    }

    // MARK: Changing

    /// The registry's root directory, made when it is not there.
    private func openRoot() throws(RegistryError) -> FileDescriptor {
        do {
            return try FileDescriptor.openDirectory(atPath: root, making: Self.directoryPermissions)
        } catch .notDirectory {
            throw RegistryError(path: root, reason: .notADirectory)
        } catch {
            throw RegistryError(path: root, reason: .system(error))
        }
    }

    static let directoryPermissions: FilePermissions = [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute]
    static let filePermissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]

    /// Reads the state, lets `body` change it and writes it back, all under the exclusive lock; then, still
    /// under the lock, runs `afterward` (which removes what the new state no longer refers to).
    func change<R>(_ body: (inout State, FileDescriptor) throws(RegistryError) -> R,
                   afterward: (FileDescriptor) throws(RegistryError) -> Void = { _ in }) throws(RegistryError) -> R {
        let rootDirectory = try openRoot()
        defer { rootDirectory.closeQuietly() }
        let lockPath = root + "/registry.lock"
        let lock: FileDescriptor
        do {
            lock = try FileDescriptor.open("registry.lock", relativeTo: rootDirectory, .readWrite,
                                           options: [.create, .noFollow], permissions: Self.filePermissions)
            try lock.lockExclusively()
        } catch {
            throw RegistryError(path: lockPath, reason: .system(error))
        }
        defer {
            lock.unlock()
            lock.closeQuietly()
        }
        var state = try readState()
        let result = try body(&state, rootDirectory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(state)) + [UInt8(ascii: "\n")]
        } catch {
            throw RegistryError(path: statePath, reason: .corruptState("cannot encode the state: \(error)"))
        }
        do {
            try AtomicFile.replace("registry.json", in: rootDirectory, with: bytes, permissions: Self.filePermissions)
        } catch {
            throw RegistryError(path: statePath, reason: .system(error))
        }
        try afterward(rootDirectory)
        return result
    }

    /// Opens (making it when needed) the directory `components` below the root, one component at a time
    /// without following a symbolic link: a link planted in the registry is refused.
    private func openDirectory(_ components: [String], in rootDirectory: FileDescriptor) throws(RegistryError) -> FileDescriptor {
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

    /// Registers an app bundle or a bare `Info.plist`: stores its manifest, makes its container (data
    /// already there stays), and adds it to the registry (replacing an earlier registration of the same
    /// bundle identifier, in place).
    @discardableResult
    public func register(appAt path: String) throws(RegistryError) -> AppManifest {
        let manifest: AppManifest
        let bytes: [UInt8]
        do {
            (manifest, _, bytes) = try AppManifest.read(contentsOf: path)
        } catch {
            throw RegistryError(path: error.file, reason: .manifest(error))
        }
        let bundleIdentifier = manifest.bundleIdentifier
        try change { state, rootDirectory throws(RegistryError) in
            // The declarations must fit the database every lookup will use: the built-in types and the
            // other registered apps' declarations (no cycle closed through either). Checked under the lock,
            // so that two apps registering at once cannot each pass alone and fail together.
            let database = TypeDatabase(includingBuiltInTypes: true)
            for other in state.apps where other != bundleIdentifier {
                let app = try app(other)
                do throws(TypeDeclarationError) {
                    try database.register(app.manifest.declarations)
                } catch {
                    throw RegistryError(path: app.manifestPath, reason: .declarations(error))
                }
            }
            do throws(TypeDeclarationError) {
                try database.register(manifest.declarations)
            } catch {
                throw RegistryError(path: path, reason: .declarations(error))
            }
            let apps = try openDirectory(["Apps"], in: rootDirectory)
            defer { apps.closeQuietly() }
            do throws(Errno) {
                try AtomicFile.replace(bundleIdentifier + ".plist", in: apps, with: bytes, permissions: Self.filePermissions)
            } catch {
                throw RegistryError(path: manifestPath(bundleIdentifier), reason: .system(error))
            }
            let container = try openDirectory(["Containers", bundleIdentifier], in: rootDirectory)
            container.closeQuietly()
            for directory in Self.containerDirectories {
                let opened = try openDirectory(["Containers", bundleIdentifier] + directory.split(separator: "/").map(String.init), in: rootDirectory)
                opened.closeQuietly()
            }
            if !state.apps.contains(bundleIdentifier) { state.apps.append(bundleIdentifier) }
        }
        return manifest
    }

    /// Unregisters an app and its defaults; its container stays unless `deleteData`. The new state is
    /// written first; the manifest and the container are removed after it, through directory descriptors
    /// (see `removeTree`), never following a link out of the registry.
    public func unregister(_ bundleIdentifier: String, deleteData: Bool) throws(RegistryError) {
        try change { state, _ throws(RegistryError) in
            guard state.apps.contains(bundleIdentifier) else {
                throw RegistryError(path: statePath, reason: .notRegistered(bundleIdentifier))
            }
            state.apps.removeAll { $0 == bundleIdentifier }
            state.defaults.removeAll { $0.bundleIdentifier == bundleIdentifier }
        } afterward: { rootDirectory throws(RegistryError) in
            let apps = try openDirectory(["Apps"], in: rootDirectory)
            defer { apps.closeQuietly() }
            do throws(Errno) {
                try apps.remove(bundleIdentifier + ".plist")
            } catch .noSuchFileOrDirectory {
            } catch {
                throw RegistryError(path: manifestPath(bundleIdentifier), reason: .system(error))
            }
            guard deleteData else { return }
            let containers = try openDirectory(["Containers"], in: rootDirectory)
            defer { containers.closeQuietly() }
            do throws(TreeRemovalError) {
                try containers.removeTree(Array(bundleIdentifier.utf8))
            } catch {
                throw RegistryError(path: root + "/Containers/" + String(decoding: error.path, as: UTF8.self), reason: .system(error.errno))
            }
        }
    }

    /// Makes `bundleIdentifier` the default handler for `type` (and subtypes without a default of
    /// their own), for one role or any; like `LSSetDefaultRoleHandlerForContentType`.
    public func setDefault(type: UTType, role: AppManifest.DocumentType.Role?, bundleIdentifier: String) throws(RegistryError) {
        try change { state, _ throws(RegistryError) in
            guard state.apps.contains(bundleIdentifier) else {
                throw RegistryError(path: statePath, reason: .notRegistered(bundleIdentifier))
            }
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            state.defaults.append(DefaultHandler(type: type.identifier, role: role?.rawValue, bundleIdentifier: bundleIdentifier))
        }
    }

    /// Removes the default for `type` and `role`; `false` when there was none.
    @discardableResult
    public func unsetDefault(type: UTType, role: AppManifest.DocumentType.Role?) throws(RegistryError) -> Bool {
        try change { state, _ throws(RegistryError) in
            let before = state.defaults.count
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            return state.defaults.count != before
        }
    }
}
