#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
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

    // MARK: Reading

    func readState() throws(RegistryError) -> State {
        let descriptor = open(statePath, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return State() }
            throw RegistryError(path: statePath, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw RegistryError(path: statePath, message: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        do {
            return try JSONDecoder().decode(State.self, from: Data(bytes))
        } catch {
            throw RegistryError(path: statePath, message: "not a registry state file: \(error)")
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
            throw RegistryError(path: path, message: error.description)
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
                throw RegistryError(path: app.manifestPath, message: error.description)
            }
        }
        return apps
    }

    // MARK: Changing

    /// Reads the state, lets `body` change it and writes it back, all under the exclusive lock.
    func change<R>(_ body: (inout State) throws(RegistryError) -> R) throws(RegistryError) -> R {
        try Files.makeDirectories(root)
        let lockPath = root + "/registry.lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw RegistryError(path: lockPath, message: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw RegistryError(path: lockPath, message: String(cString: strerror(errno))) }
        }
        defer { flock(lock, LOCK_UN) }
        var state = try readState()
        let result = try body(&state)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(state)) + [UInt8(ascii: "\n")]
        } catch {
            throw RegistryError(path: statePath, message: "cannot encode the state: \(error)")
        }
        try Files.writeAtomically(bytes, to: statePath)
        return result
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
            throw RegistryError(path: error.file, message: [error.key, error.problem].compactMap { $0 }.joined(separator: ": "))
        }
        // The declarations must fit the type database as it is (no cycle through built-in types).
        do {
            try TypeDatabase(includingBuiltInTypes: true).register(manifest.declarations)
        } catch {
            throw RegistryError(path: path, message: error.description)
        }
        try change { state throws(RegistryError) in
            try Files.makeDirectories(root + "/Apps")
            try Files.writeAtomically(bytes, to: manifestPath(manifest.bundleIdentifier))
            for directory in Self.containerDirectories {
                try Files.makeDirectories(containerPath(manifest.bundleIdentifier) + "/" + directory)
            }
            if !state.apps.contains(manifest.bundleIdentifier) { state.apps.append(manifest.bundleIdentifier) }
        }
        return manifest
    }

    /// Unregisters an app and its defaults; its container stays unless `deleteData`.
    public func unregister(_ bundleIdentifier: String, deleteData: Bool) throws(RegistryError) {
        try change { state throws(RegistryError) in
            guard state.apps.contains(bundleIdentifier) else {
                throw RegistryError(path: statePath, message: "'\(bundleIdentifier)' is not registered")
            }
            state.apps.removeAll { $0 == bundleIdentifier }
            state.defaults.removeAll { $0.bundleIdentifier == bundleIdentifier }
            unlink(manifestPath(bundleIdentifier))
            if deleteData { try Files.removeTree(containerPath(bundleIdentifier)) }
        }
    }

    /// Makes `bundleIdentifier` the default handler for `type` (and subtypes without a default of
    /// their own), for one role or any; like `LSSetDefaultRoleHandlerForContentType`.
    public func setDefault(type: UTType, role: AppManifest.DocumentType.Role?, bundleIdentifier: String) throws(RegistryError) {
        try change { state throws(RegistryError) in
            guard state.apps.contains(bundleIdentifier) else {
                throw RegistryError(path: statePath, message: "'\(bundleIdentifier)' is not registered")
            }
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            state.defaults.append(DefaultHandler(type: type.identifier, role: role?.rawValue, bundleIdentifier: bundleIdentifier))
        }
    }

    /// Removes the default for `type` and `role`; `false` when there was none.
    @discardableResult
    public func unsetDefault(type: UTType, role: AppManifest.DocumentType.Role?) throws(RegistryError) -> Bool {
        try change { state throws(RegistryError) in
            let before = state.defaults.count
            state.defaults.removeAll { $0.type.lowercased() == type.identifier.lowercased() && $0.role == role?.rawValue }
            return state.defaults.count != before
        }
    }
}

/// A registry that could not be read or changed, with the path at fault.
public struct RegistryError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }
    public var description: String { "\(path): \(message)" }
}
