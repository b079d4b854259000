public import AppContainers
public import FileIdentification
public import SystemPackage
internal import SystemCalls
public import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Hands files to the apps that handle their types: identification, handler choice and delivery into the
/// chosen app's `Documents/Inbox`, in one call. `uti route` is a thin caller of this, and so is any other
/// face (a service, a Swift program): they all route the same way.
///
///     let router = try DocumentRouter(registry: Registry(root: Registry.defaultRoot()))
///     let outcome = try router.route(fileAt: "photo.jpg")
///     print(outcome.handler, outcome.location)   // com.example.viewer …/Documents/Inbox/photo.jpg
///
/// A router reads the registry once, when it is made (its apps, their type declarations, the user's
/// defaults); make a new one to see later registrations.
///
/// Writes that would pass the process's file-size limit (`RLIMIT_FSIZE`) fail with `File too large`
/// instead of raising `SIGXFSZ`, whose default action would kill the host process; the library never
/// changes signal dispositions.
public struct DocumentRouter: Sendable {
    /// How to route.
    public struct Options: Sendable, Hashable {
        /// Deliver to this app only (it must open the file's type); otherwise the best handler.
        public var target: String?
        /// Prefer apps in this role.
        public var role: AppManifest.DocumentType.Role?
        /// Remove the source once its copy is delivered and durable.
        public var move: Bool
        /// Hand the file where it is to an app that opens documents in place, without a copy.
        public var inPlace: Bool
        /// Route the file a symbolic link points to; without it, a link given as the file is refused.
        public var followsSymbolicLinks: Bool

        /// Options for a route; by default the best handler in any role gets a copy, the source stays, and a
        /// symbolic link given as the file is refused.
        public init(target: String? = nil, role: AppManifest.DocumentType.Role? = nil, move: Bool = false, inPlace: Bool = false,
                    followsSymbolicLinks: Bool = false) {
            self.target = target
            self.role = role
            self.move = move
            self.inPlace = inPlace
            self.followsSymbolicLinks = followsSymbolicLinks
        }
    }

    /// What happened to one file.
    public struct Outcome: Sendable, Hashable {
        /// How the file reached the app.
        public struct Disposition: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
            /// The disposition's name: `copied`, `moved` or `in-place`.
            public let rawValue: String
            /// The disposition named `rawValue`.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The disposition's name, `rawValue`.
            public var description: String { rawValue }

            /// A read-only copy in the Inbox; the source stays.
            public static let copied = Disposition(rawValue: "copied")
            /// A read-only copy in the Inbox; the source was removed after it.
            public static let moved = Disposition(rawValue: "moved")
            /// Handed over where it is (an app that opens documents in place); nothing was written.
            public static let inPlace = Disposition(rawValue: "in-place")
        }

        /// The file as it was given (`-` for bytes without a path).
        public var source: String
        /// What the file is.
        public var identification: Identification
        /// The app it went to.
        public var handler: String
        /// Where the app finds it: the delivered copy, or the file's own absolute path in place.
        public var location: RawFilePath
        /// The name it has in the Inbox (`report-1.pdf` when `report.pdf` was taken); `nil` in place.
        public var deliveredName: RawFilePath?
        /// How it reached the app: copied, moved, or handed over in place.
        public var disposition: Disposition
        /// The file's size in bytes, when it was read.
        public var size: Int? { identification.fileSize }
        /// The file's type (`identification.type`).
        public var type: UTType { identification.type }
    }

    /// The registry the router read, and delivers into.
    public let registry: Registry
    /// The registered apps, in registration order, as read when the router was made.
    public let apps: [Registry.RegisteredApp]
    /// The user's default handlers, as read when the router was made.
    public let defaults: [Registry.DefaultHandler]
    /// What is wrong with the registry (records that cannot be read, declarations that conflict ...);
    /// the apps that are intact are served all the same.
    public let problems: [Registry.Problem]
    /// What identifies the files routed.
    public let identifier: FileIdentifier

    /// A router over `registry`: reads its apps and defaults, and registers the apps' type declarations
    /// in `TypeDatabase.shared` so that identification and handler choice see them.
    public init(registry: Registry, identifier: FileIdentifier = FileIdentifier()) throws(RegistryError) {
        self.registry = registry
        let snapshot = try registry.loadDeclarations()
        self.apps = snapshot.apps
        self.defaults = snapshot.defaults
        self.problems = snapshot.problems
        self.identifier = identifier
    }

    /// Whether an app with this bundle identifier is registered (compared without regard to case).
    public func isRegistered(_ bundleIdentifier: String) -> Bool {
        let key = bundleIdentifier.lowercased()
        return apps.contains { $0.bundleIdentifier.lowercased() == key }
    }

    // MARK: Routing

    /// Identifies the file at `path` and routes it: chooses its handler (`options.target`, else the best
    /// one, see `HandlerChoice`), then hands it over in place or delivers a copy into the handler's Inbox
    /// under `name` (its own name by default).
    ///
    /// The file is opened once, relative to its directory (`path`'s directories are followed as given);
    /// what is identified, copied and (with `options.move`) removed is that file, through that descriptor
    /// and its directory's, whatever the path leads to meanwhile. What is not a regular file (a directory,
    /// a package) is typed by its kind and can only be handed over in place.
    ///
    /// - Throws: `RoutingError`, and nothing is delivered: a symbolic link without
    ///   `options.followsSymbolicLinks`, a file that cannot be read, no handler (`.noHandler`), the target
    ///   does not open the type, an in-place handover to an app that does not open documents in place, or
    ///   the delivery failed (it then left nothing behind).
    public func route(fileAt path: RawFilePath, as name: RawFilePath? = nil, options: Options = Options()) throws(RoutingError) -> Outcome {
        let shown = path.escaped
        let file: SourceFile
        do {
            file = try SourceFile(path, followingLinks: options.followsSymbolicLinks)
        } catch {
            guard error.reason.kind == .notARegularFile else { throw Self.openFailure(error, shown: shown) }
            return try routeByKind(path, as: name, options: options)
        }
        defer { file.close() }
        return try route(file, as: name, options: options)
    }

    /// Routes every regular file in the trees at `roots`, in depth-first order with each directory's names
    /// in byte order, handing `body` each file's outcome or error as it is done; `body` returns `false` to
    /// stop. A root that is a file is routed as one.
    ///
    /// The trees are walked through directory descriptors (see `TreeWalk`): every file is opened relative
    /// to the directory the walk visited (`openat` with `O_NOFOLLOW`), checked to be the file the walk
    /// examined (device and inode), identified, copied and (with `options.move`) removed through those
    /// descriptors (`unlinkat`), never by its path string. Whoever can write in a tree (a shared incoming
    /// folder) cannot swap a directory for a link and have a file from elsewhere delivered, or removed.
    /// Symbolic links met in a tree are never followed; `options.followsSymbolicLinks` follows a root
    /// that is one. Names starting with a dot are left out unless `includingHidden`; so is everything
    /// that is not a regular file.
    public func route(treesAt roots: [RawFilePath], options: Options = Options(), includingHidden: Bool = false,
                      _ body: (Result<Outcome, RoutingError>) -> Bool) {
        var walk = TreeWalk()
        walk.sorted = true
        for root in roots {
            var stopped = false
            walk.walk(root.bytes, in: .workingDirectory, path: root.bytes, followingStart: options.followsSymbolicLinks, visit: { entry in
                if entry.depth == 0, entry.status.type != .directory {
                    // A root that is not a directory: routed as the file it is (a link refused, a FIFO typed).
                    stopped = !body(Result { () throws(RoutingError) in try route(fileAt: root, options: options) })
                    return stopped ? .stop : .skipContents
                }
                if entry.depth > 0, !includingHidden, entry.name.first == UInt8(ascii: ".") { return .skipContents }
                guard entry.status.type == .regular else { return .proceed }
                let shown = RawFilePath(bytes: entry.path)
                let result = Result { () throws(RoutingError) -> Outcome in
                    let file: SourceFile
                    do throws(DeliveryError) {
                        file = try SourceFile(entry.name, in: entry.parent, shown: shown, expected: entry.status)
                    } catch {
                        throw Self.openFailure(error, shown: shown.escaped)
                    }
                    defer { file.close() }
                    return try route(file, options: options)
                }
                stopped = !body(result)
                return stopped ? .stop : .proceed
            }, fail: { path, error, _ in
                let shown = RawFilePath(bytes: path).escaped
                stopped = !body(.failure(RoutingError(path: shown, type: nil,
                                                      reason: .identification(IdentificationError(path: shown, reason: .system(error))))))
                return !stopped
            })
            if stopped { return }
        }
    }

    /// Why a file could not be opened to be routed, as a routing error.
    private static func openFailure(_ error: DeliveryError, shown: String) -> RoutingError {
        switch error.reason.kind {
        case .symbolicLink:
            RoutingError(path: shown, type: nil, reason: .symbolicLink)
        case .system:
            RoutingError(path: shown, type: nil, reason: .identification(IdentificationError(path: shown, reason: .system(error.reason.errno ?? .ioError))))
        default:
            // Not the file the walk examined (.sourceChanged), or not a regular file any more.
            RoutingError(path: shown, type: nil, reason: .delivery(error, to: ""))
        }
    }

    /// Identifies the open file and routes it.
    func route(_ file: SourceFile, as name: RawFilePath? = nil, options: Options) throws(RoutingError) -> Outcome {
        let shown = file.shown.escaped
        let identification: Identification
        do {
            identification = try identifier.identify(contentsOf: file.descriptor, name: RawFilePath(bytes: file.name))
        } catch {
            throw RoutingError(path: shown, type: nil, reason: .identification(IdentificationError(path: shown, reason: error.reason)))
        }
        let handler = try self.handler(for: identification.type, shown: shown, options: options)
        if options.inPlace {
            return try handOver(file.shown, identification: identification, to: handler)
        }
        do {
            let delivery = try Inbox(registry: registry, app: handler).deliver(file, as: name, move: options.move)
            return Outcome(source: shown, identification: identification, handler: handler.bundleIdentifier,
                           location: delivery.path, deliveredName: delivery.name, disposition: options.move ? .moved : .copied)
        } catch {
            throw RoutingError(path: shown, type: identification.type, reason: .delivery(error, to: handler.bundleIdentifier))
        }
    }

    /// Routes what is not a regular file (a directory, a package, a FIFO), typed by its kind without
    /// being read: it can only be handed over in place.
    private func routeByKind(_ path: RawFilePath, as name: RawFilePath?, options: Options) throws(RoutingError) -> Outcome {
        let shown = path.escaped
        var identifier = self.identifier
        if options.followsSymbolicLinks != identifier.options.followSymlinks {
            var changed = identifier.options
            changed.followSymlinks = options.followsSymbolicLinks
            identifier = FileIdentifier(options: changed)
        }
        let identification: Identification
        do {
            identification = try identifier.identify(fileAt: path)
        } catch {
            throw RoutingError(path: shown, type: nil, reason: .identification(error))
        }
        let handler = try self.handler(for: identification.type, shown: shown, options: options)
        guard options.inPlace else {
            throw RoutingError(path: shown, type: identification.type,
                               reason: .delivery(DeliveryError(path: shown, reason: .notARegularFile), to: handler.bundleIdentifier))
        }
        return try handOver(path, identification: identification, to: handler)
    }

    /// Hands the file at `path` to `handler` where it is (an app that opens documents in place).
    private func handOver(_ path: RawFilePath, identification: Identification, to handler: Registry.RegisteredApp) throws(RoutingError) -> Outcome {
        guard handler.manifest.supportsOpeningDocumentsInPlace else {
            throw RoutingError(path: path.escaped, type: identification.type, reason: .notOpenedInPlace(handler.bundleIdentifier))
        }
        return Outcome(source: path.escaped, identification: identification, handler: handler.bundleIdentifier,
                       location: Self.absolute(path), deliveredName: nil, disposition: .inPlace)
    }

    /// Identifies bytes that are not a file (an upload, standard input) named `name` and delivers them into
    /// the handler's Inbox under that name, with `permissions` (at most 0444; owner-only by default). The bytes
    /// come gathered in a `SpooledBytes` as they arrived, or already in memory (`SpooledBytes(contents:)`).
    /// Bytes are never moved or handed over in place: `options.move` and `options.inPlace` are ignored.
    public func route(contents: SpooledBytes, named name: RawFilePath, permissions: FilePermissions = .ownerRead,
                      options: Options = Options()) throws(RoutingError) -> Outcome {
        let identification: Identification
        do {
            identification = try identifier.identify(contents, filename: name.string)
        } catch {
            throw RoutingError(path: "-", type: nil, reason: .identification(error))
        }
        let handler = try self.handler(for: identification.type, shown: "-", options: options)
        do {
            let delivery = try Inbox(registry: registry, app: handler).deliver(contents: contents, as: name, permissions: permissions)
            return Outcome(source: "-", identification: identification, handler: handler.bundleIdentifier,
                           location: delivery.path, deliveredName: delivery.name, disposition: .copied)
        } catch {
            throw RoutingError(path: "-", type: identification.type, reason: .delivery(error, to: handler.bundleIdentifier))
        }
    }

    /// The app a file of `type` goes to.
    private func handler(for type: UTType, shown: String, options: Options) throws(RoutingError) -> Registry.RegisteredApp {
        let candidates = HandlerChoice.candidates(for: type, apps: apps, defaults: defaults, role: options.role)
        if let target = options.target {
            guard isRegistered(target) else { throw RoutingError(path: shown, type: type, reason: .targetNotRegistered(target)) }
            guard let chosen = candidates.first(where: { $0.bundleIdentifier.lowercased() == target.lowercased() }) else {
                throw RoutingError(path: shown, type: type, reason: .targetDoesNotOpen(target))
            }
            return chosen.app
        }
        guard let best = candidates.first else { throw RoutingError(path: shown, type: type, reason: .noHandler) }
        return best.app
    }

    /// `path` made absolute against the working directory, as an app handed the file in place needs it.
    private static func absolute(_ path: RawFilePath) -> RawFilePath {
        if path.bytes.first == UInt8(ascii: "/") { return path }
        guard let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return RawFilePath(bytes: Array(String(cString: directory).utf8) + [UInt8(ascii: "/")] + path.bytes)
    }
}
