public import FileIdentification
public import SystemPackage
public import UniformTypeIdentifiers

/// A registry that could not be read or changed, with the path at fault and why.
public struct RegistryError: LocatedError {
    /// The file or directory at fault (the registry state, a manifest, a container directory).
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Why: compare with the static members (`error.reason.kind == .notRegistered`,
    /// `error.reason.errno == .noSpace`); new reasons may be added.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<RegistryError>

        public let kind: Kind
        public let errno: Errno?
        public let manifestError: ManifestError?
        public let declarationError: TypeDeclarationError?
        /// The bundle identifier, for `.notRegistered` and `.invalidBundleIdentifier`.
        public let bundleIdentifier: String?
        /// The parser's message, for `.corruptState`.
        public let detail: String?

        private init(_ kind: Kind, errno: Errno? = nil, manifestError: ManifestError? = nil, declarationError: TypeDeclarationError? = nil,
                     bundleIdentifier: String? = nil, detail: String? = nil) {
            self.kind = kind
            self.errno = errno
            self.manifestError = manifestError
            self.declarationError = declarationError
            self.bundleIdentifier = bundleIdentifier
            self.detail = detail
        }

        public static func system(_ errno: Errno) -> Reason { Reason(.system, errno: errno) }
        public static func manifest(_ error: ManifestError) -> Reason { Reason(.manifest, manifestError: error) }
        public static func declarations(_ error: TypeDeclarationError) -> Reason { Reason(.declarations, declarationError: error) }
        public static func notRegistered(_ bundleIdentifier: String) -> Reason { Reason(.notRegistered, bundleIdentifier: bundleIdentifier) }
        public static func invalidBundleIdentifier(_ bundleIdentifier: String) -> Reason {
            Reason(.invalidBundleIdentifier, bundleIdentifier: bundleIdentifier)
        }
        public static func corruptState(_ detail: String) -> Reason { Reason(.corruptState, detail: detail) }
        public static let notADirectory = Reason(.notADirectory)
        /// `bundleIdentifier` does not belong to the application group `group`.
        public static func notAGroupMember(_ bundleIdentifier: String, group: String) -> Reason {
            Reason(.notAGroupMember, bundleIdentifier: bundleIdentifier, detail: group)
        }
        public static func invalidApplicationGroup(_ group: String) -> Reason { Reason(.invalidApplicationGroup, detail: group) }
        /// `bundleIdentifier` is `registered` but for case, and that app was registered from another bundle (`from`).
        public static func bundleIdentifierTaken(_ bundleIdentifier: String, by registered: String, from bundle: String?) -> Reason {
            Reason(.bundleIdentifierTaken, bundleIdentifier: bundleIdentifier,
                   detail: "'\(registered)'" + (bundle.map { " (registered from \($0))" } ?? ""))
        }
        /// The group `group` still has these registered members.
        public static func groupInUse(_ group: String, members: [String]) -> Reason {
            Reason(.groupInUse, bundleIdentifier: members.joined(separator: ", "), detail: group)
        }
        public static func unknownApplicationGroup(_ group: String) -> Reason { Reason(.unknownApplicationGroup, detail: group) }
        /// The lock stayed with another process for `waited`.
        public static func lockTimeout(_ waited: Duration) -> Reason { Reason(.lockTimeout, detail: "\(waited)") }

        public var description: String {
            switch kind {
            case .system: errno?.description ?? "system error"
            case .manifest: manifestError.map { [$0.key, $0.problem].compactMap { $0 }.joined(separator: ": ") } ?? "refused manifest"
            case .declarations: declarationError.map { [$0.entry, $0.problem.description].compactMap { $0 }.joined(separator: ": ") } ?? "refused declarations"
            case .notRegistered: "'\(bundleIdentifier ?? "")' is not registered"
            case .invalidBundleIdentifier:
                "'\(bundleIdentifier ?? "")' is not a bundle identifier (letters, digits, '-' and '.', not starting with '.')"
            case .corruptState: "not a registry state file: \(detail ?? "")"
            case .notADirectory: "exists and is not a directory"
            case .notAGroupMember:
                "'\(bundleIdentifier ?? "")' is not a member of the application group '\(detail ?? "")' (its manifest's \(AppManifest.applicationGroupsKey) does not name it)"
            case .invalidApplicationGroup:
                "'\(detail ?? "")' is not an application group ('group.' or a ten-character team identifier and '.', then a name)"
            case .bundleIdentifierTaken:
                "'\(bundleIdentifier ?? "")' differs only in case from the registered \(detail ?? "app"), another bundle: refused (the same identifier in another case is the same app only from the same bundle)"
            case .groupInUse:
                "the application group '\(detail ?? "")' still has registered members (\(bundleIdentifier ?? "")): unregister them first"
            case .unknownApplicationGroup: "no application group '\(detail ?? "")' in the registry"
            case .lockTimeout: "another process holds the registry lock (waited \(detail ?? "the time allowed"))"
            default: kind.rawValue
            }
        }
    }
}

/// A delivery that did not happen (and left nothing behind), with the path at fault and why.
public struct DeliveryError: LocatedError {
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The reason, in words.
    public var message: String { reason.description }

    /// Why: compare with the static members (`error.reason.kind == .refusedName`,
    /// `error.reason.errno == .fileTooLarge`); new reasons may be added.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<DeliveryError>

        public let kind: Kind
        public let errno: Errno?
        /// Why a name was refused, or where the copy went when the source stayed.
        public let detail: String?
        /// What the system was doing: `reading the source`, `writing the copy` ...
        public let operation: String?
        /// For `.registry`.
        public let registryError: RegistryError?

        private init(_ kind: Kind, errno: Errno? = nil, detail: String? = nil, operation: String? = nil, registryError: RegistryError? = nil) {
            self.kind = kind
            self.errno = errno
            self.detail = detail
            self.operation = operation
            self.registryError = registryError
        }

        public static let symbolicLink = Reason(.symbolicLink)
        public static let sourceChanged = Reason(.sourceChanged)
        public static func sourceChangedAfterMove(deliveredTo path: String) -> Reason { Reason(.sourceChangedAfterMove, detail: path) }
        public static func registry(_ error: RegistryError) -> Reason { Reason(.registry, registryError: error) }

        public static func system(_ errno: Errno, while operation: String? = nil) -> Reason { Reason(.system, errno: errno, operation: operation) }
        public static func refusedName(_ why: String) -> Reason { Reason(.refusedName, detail: why) }
        public static let notInContainer = Reason(.notInContainer)
        public static let notARegularFile = Reason(.notARegularFile)
        public static let noFreeName = Reason(.noFreeName)
        public static func sourceNotRemoved(deliveredTo path: String, _ errno: Errno) -> Reason {
            Reason(.sourceNotRemoved, errno: errno, detail: path)
        }

        public var description: String {
            switch kind {
            case .system: (operation.map { $0 + ": " } ?? "") + (errno?.description ?? "system error")
            case .refusedName: "refused as a file name: \(detail ?? "")"
            case .notInContainer: "refused: not a directory of the container (a symbolic link or a file stands there)"
            case .notARegularFile: "not a regular file; only files are delivered"
            case .noFreeName: "no free name in the Inbox"
            case .sourceNotRemoved: "delivered to \(detail ?? "the Inbox"), but not removed: \(errno?.description ?? "")"
            case .symbolicLink: "a symbolic link; refused (follow it with -L/--follow)"
            case .sourceChanged: "changed while it was being delivered; nothing delivered, nothing removed"
            case .sourceChangedAfterMove:
                "written to while it was being removed, and not linked back: the copy in \(detail ?? "the Inbox") may lack the last writes"
            case .registry: registryError?.reason.description ?? "the registry cannot be read"
            default: kind.rawValue
            }
        }
    }
}

/// A file that was not routed (and of which nothing was delivered), and why.
public struct RoutingError: LocatedError {
    /// The file as it was given (`-` for bytes without a path).
    public var path: String
    /// What the file is, when it was identified.
    public var type: UTType?
    public var reason: Reason

    public init(path: String, type: UTType?, reason: Reason) {
        self.path = path
        self.type = type
        self.reason = reason
    }

    public var description: String { "\(path): \(message)" }

    /// The reason in words, naming the type.
    public var message: String {
        let named = type?.identifier ?? "its type"
        switch reason.kind {
        case .noHandler: return "no registered app opens \(named); nothing delivered"
        case .targetDoesNotOpen: return "\(reason.bundleIdentifier ?? "the app") does not open \(named); nothing delivered"
        default: return reason.description
        }
    }

    /// Why: compare with the static members; new reasons may be added.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<RoutingError>

        public let kind: Kind
        public let identificationError: IdentificationError?
        public let deliveryError: DeliveryError?
        /// The app concerned: the one asked for, or the handler that was chosen.
        public let bundleIdentifier: String?

        private init(_ kind: Kind, identificationError: IdentificationError? = nil, deliveryError: DeliveryError? = nil,
                     bundleIdentifier: String? = nil) {
            self.kind = kind
            self.identificationError = identificationError
            self.deliveryError = deliveryError
            self.bundleIdentifier = bundleIdentifier
        }

        public static func identification(_ error: IdentificationError) -> Reason { Reason(.identification, identificationError: error) }
        public static let noHandler = Reason(.noHandler)
        public static let symbolicLink = Reason(.symbolicLink)
        public static func targetNotRegistered(_ bundleIdentifier: String) -> Reason { Reason(.targetNotRegistered, bundleIdentifier: bundleIdentifier) }
        public static func targetDoesNotOpen(_ bundleIdentifier: String) -> Reason { Reason(.targetDoesNotOpen, bundleIdentifier: bundleIdentifier) }
        public static func notOpenedInPlace(_ bundleIdentifier: String) -> Reason { Reason(.notOpenedInPlace, bundleIdentifier: bundleIdentifier) }
        public static func delivery(_ error: DeliveryError, to bundleIdentifier: String) -> Reason {
            Reason(.delivery, deliveryError: error, bundleIdentifier: bundleIdentifier)
        }

        public var description: String {
            switch kind {
            case .identification: identificationError?.message ?? "cannot be identified"
            case .noHandler: "no registered app opens it; nothing delivered"
            case .targetNotRegistered: "'\(bundleIdentifier ?? "")' is not registered"
            case .targetDoesNotOpen: "\(bundleIdentifier ?? "the app") does not open it; nothing delivered"
            case .notOpenedInPlace:
                "\(bundleIdentifier ?? "the app") does not open documents in place (LSSupportsOpeningDocumentsInPlace); nothing handed over"
            case .delivery: deliveryError?.description ?? "not delivered"
            case .symbolicLink: "a symbolic link; refused (follow it with -L/--follow); nothing delivered"
            default: kind.rawValue
            }
        }
    }
}

extension ErrorKind where Domain == RegistryError {
    /// A system call failed.
    public static let system: Self = "system"
    /// An app's manifest was refused.
    public static let manifest: Self = "manifest"
    /// An app's type declarations do not fit the type database (a cycle, a bad identifier).
    public static let declarations: Self = "declarations"
    /// No app with this bundle identifier is registered.
    public static let notRegistered: Self = "not-registered"
    /// A bundle identifier that cannot name a container.
    public static let invalidBundleIdentifier: Self = "invalid-bundle-identifier"
    /// The registry's state file is not one.
    public static let corruptState: Self = "corrupt-state"
    /// A directory of the registry is something else (a file, a symbolic link).
    public static let notADirectory: Self = "not-a-directory"
    /// An app asked for the shared container of an application group it does not belong to.
    public static let notAGroupMember: Self = "not-a-group-member"
    /// A string that cannot name an application group.
    public static let invalidApplicationGroup: Self = "invalid-application-group"
    /// A bundle identifier that differs only in case from a registered app's, from another bundle.
    public static let bundleIdentifierTaken: Self = "bundle-identifier-taken"
    /// An application group that still has registered members (it cannot be removed).
    public static let groupInUse: Self = "group-in-use"
    /// An application group the registry does not know.
    public static let unknownApplicationGroup: Self = "unknown-application-group"
    /// Another process held the registry lock for longer than `Registry.lockTimeout`.
    public static let lockTimeout: Self = "lock-timeout"
}

extension ErrorKind where Domain == DeliveryError {
    /// A system call failed (reading the source, writing the copy, linking it ...).
    public static let system: Self = "system"
    /// The name to deliver under is not a name a file may have in the Inbox.
    public static let refusedName: Self = "refused-name"
    /// A directory of the container is a symbolic link or a file: refused, never followed.
    public static let notInContainer: Self = "not-in-container"
    /// The source is not a regular file.
    public static let notARegularFile: Self = "not-a-regular-file"
    /// Every variant of the name is taken.
    public static let noFreeName: Self = "no-free-name"
    /// Delivered (the copy is durable), but the source could not be removed after it (`--move`).
    public static let sourceNotRemoved: Self = "source-not-removed"
    /// The source is a symbolic link, and following links was not asked for.
    public static let symbolicLink: Self = "symbolic-link"
    /// The source changed while it was copied (twice), or between its copy and its removal
    /// (`--move`): nothing was delivered, nothing removed.
    public static let sourceChanged: Self = "source-changed"
    /// `--move`: the source changed in the instant after it was removed, and could not be linked
    /// back; the copy delivered lacks what was written after it.
    public static let sourceChangedAfterMove: Self = "source-changed-after-move"
    /// The registry could not be read, or the bundle identifier is not one.
    public static let registry: Self = "registry"
}

extension ErrorKind where Domain == RoutingError {
    /// The file could not be identified (unreadable, vanished ...).
    public static let identification: Self = "identification"
    /// No registered app opens the file's type.
    public static let noHandler: Self = "no-handler"
    /// The app asked for (`to:`) is not registered.
    public static let targetNotRegistered: Self = "target-not-registered"
    /// The app asked for does not open the file's type.
    public static let targetDoesNotOpen: Self = "target-does-not-open"
    /// Opening in place was asked of an app that does not declare `LSSupportsOpeningDocumentsInPlace`.
    public static let notOpenedInPlace: Self = "not-opened-in-place"
    /// The delivery failed.
    public static let delivery: Self = "delivery"
    /// The file given is a symbolic link, and following links was not asked for.
    public static let symbolicLink: Self = "symbolic-link"
}
