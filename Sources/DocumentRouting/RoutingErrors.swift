public import FileIdentification
public import SystemPackage
public import UniformTypeIdentifiers

/// The family of `RegistryError`: a registry that could not be read or changed.
public enum RegistryErrorDomain: ErrorDomain {
    /// What a registry error may come from.
    public enum Cause: Hashable, Sendable {
        /// An app's manifest was refused.
        case manifest(ManifestError)
        /// An app's type declarations do not fit the type database.
        case declarations(TypeDeclarationError)
    }
}

/// A registry that could not be read or changed: the file or directory at fault (the registry state, a
/// manifest, a container directory) and why. Compare by kind (`error.kind == .notRegistered`,
/// `error.reason.errno == .noSpace`); new kinds may be added.
public typealias RegistryError = LocatedError<RegistryErrorDomain>

/// The kinds of `RegistryError`.
extension ErrorKind where Domain == RegistryErrorDomain {
    /// A system call failed.
    public static let system = Self("system") { $0.systemMessage }
    /// An app's manifest was refused (`cause`: which key, and why).
    public static let manifest = Self("manifest") { $0.manifestError.map { [$0.key, $0.problem].compactMap { $0 }.joined(separator: ": ") } ?? "refused manifest" }
    /// An app's type declarations do not fit the type database: a cycle, a bad identifier (`cause`: which, and why).
    public static let declarations = Self("declarations") {
        $0.declarationError.map { [$0.entry, $0.problem.description].compactMap { $0 }.joined(separator: ": ") } ?? "refused declarations"
    }
    /// No app with this bundle identifier (`subject`) is registered.
    public static let notRegistered = Self("not-registered") { "'\($0.subject ?? "")' is not registered" }
    /// A bundle identifier (`subject`) that cannot name a container.
    public static let invalidBundleIdentifier = Self("invalid-bundle-identifier") {
        "'\($0.subject ?? "")' is not a bundle identifier (letters, digits, '-' and '.', not starting with '.')"
    }
    /// The registry's state file is not one (`detail`: the parser's message).
    public static let corruptState = Self("corrupt-state") { "not a registry state file: \($0.detail ?? "")" }
    /// A directory of the registry is something else (a file, a symbolic link).
    public static let notADirectory = Self("not-a-directory") { _ in "exists and is not a directory" }
    /// An app (`subject`) asked for the shared container of an application group (`detail`) it does not belong to.
    public static let notAGroupMember = Self("not-a-group-member") {
        "'\($0.subject ?? "")' is not a member of the application group '\($0.detail ?? "")' (its manifest's \(AppManifest.applicationGroupsKey) does not name it)"
    }
    /// A string (`detail`) that cannot name an application group.
    public static let invalidApplicationGroup = Self("invalid-application-group") {
        "'\($0.detail ?? "")' is not an application group ('group.' or a ten-character team identifier and '.', then a name)"
    }
    /// A bundle identifier (`subject`) that differs only in case from a registered app's (`detail`), from another bundle.
    public static let bundleIdentifierTaken = Self("bundle-identifier-taken") {
        "'\($0.subject ?? "")' differs only in case from the registered \($0.detail ?? "app"), another bundle: refused (the same identifier in another case is the same app only from the same bundle)"
    }
    /// An application group (`detail`) that still has registered members (`subject`): it cannot be removed.
    public static let groupInUse = Self("group-in-use") {
        "the application group '\($0.detail ?? "")' still has registered members (\($0.subject ?? "")): unregister them first"
    }
    /// An application group (`detail`) the registry does not know.
    public static let unknownApplicationGroup = Self("unknown-application-group") { "no application group '\($0.detail ?? "")' in the registry" }
    /// An app (`subject`) asked for an iCloud container (`detail`) its manifest does not name.
    public static let notAUbiquityMember = Self("not-a-ubiquity-member") {
        "'\($0.subject ?? "")' does not use the iCloud container '\($0.detail ?? "")' (its manifest's \(AppManifest.iCloudContainersKey) and \(AppManifest.ubiquityContainersKey) do not name it)"
    }
    /// An app (`subject`) whose manifest names no iCloud container was asked for one.
    public static let noUbiquityContainer = Self("no-ubiquity-container") {
        "'\($0.subject ?? "")' has no iCloud container (its manifest names none in \(AppManifest.iCloudContainersKey) or \(AppManifest.ubiquityContainersKey))"
    }
    /// An app (`subject`) whose manifest names no iCloud key-value store was asked for one.
    public static let noKeyValueStore = Self("no-key-value-store") {
        "'\($0.subject ?? "")' has no iCloud key-value store (its manifest gives no \(AppManifest.ubiquityKeyValueStoreKey))"
    }
    /// A string (`detail`) that cannot name an iCloud container or key-value store.
    public static let invalidUbiquityIdentifier = Self("invalid-ubiquity-identifier") { AppManifest.ubiquityIdentifierProblem($0.detail ?? "") }
    /// Another process held the registry lock for longer than `Registry.lockTimeout` (`detail`: how long).
    public static let lockTimeout = Self("lock-timeout") { "another process holds the registry lock (waited \($0.detail ?? "the time allowed"))" }
}

/// The reasons of `RegistryError`, one for each kind, and what they carry.
extension ErrorReason where Domain == RegistryErrorDomain {
    /// A system call failed with `errno` (`.system`).
    public static func system(_ errno: Errno) -> Self { Self(.system, errno: errno) }
    /// The app's manifest was refused (`.manifest`); `cause` carries `error`.
    public static func manifest(_ error: ManifestError) -> Self { Self(.manifest, cause: .manifest(error)) }
    /// The app's type declarations do not fit the type database (`.declarations`); `cause` carries `error`.
    public static func declarations(_ error: TypeDeclarationError) -> Self { Self(.declarations, cause: .declarations(error)) }
    /// No app `bundleIdentifier` is registered (`.notRegistered`, with it as `subject`).
    public static func notRegistered(_ bundleIdentifier: String) -> Self { Self(.notRegistered, subject: bundleIdentifier) }
    /// `bundleIdentifier` cannot name a container (`.invalidBundleIdentifier`, with it as `subject`).
    public static func invalidBundleIdentifier(_ bundleIdentifier: String) -> Self { Self(.invalidBundleIdentifier, subject: bundleIdentifier) }
    /// The state file is not one (`.corruptState`); `detail` is the parser's message.
    public static func corruptState(_ detail: String) -> Self { Self(.corruptState, detail: detail) }
    /// A directory of the registry is something else: a file, a symbolic link (`.notADirectory`).
    public static let notADirectory = Self(.notADirectory)
    /// `bundleIdentifier` does not belong to the application group `group`.
    public static func notAGroupMember(_ bundleIdentifier: String, group: String) -> Self {
        Self(.notAGroupMember, detail: group, subject: bundleIdentifier)
    }
    /// `group` cannot name an application group (`.invalidApplicationGroup`, with it as `detail`).
    public static func invalidApplicationGroup(_ group: String) -> Self { Self(.invalidApplicationGroup, detail: group) }
    /// `bundleIdentifier` is `registered` but for case, and that app was registered from another bundle (`from`).
    public static func bundleIdentifierTaken(_ bundleIdentifier: String, by registered: String, from bundle: String?) -> Self {
        Self(.bundleIdentifierTaken, detail: "'\(registered)'" + (bundle.map { " (registered from \($0))" } ?? ""), subject: bundleIdentifier)
    }
    /// The group `group` still has these registered members.
    public static func groupInUse(_ group: String, members: [String]) -> Self {
        Self(.groupInUse, detail: group, subject: members.joined(separator: ", "))
    }
    /// The registry does not know the application group `group` (`.unknownApplicationGroup`, with it as `detail`).
    public static func unknownApplicationGroup(_ group: String) -> Self { Self(.unknownApplicationGroup, detail: group) }
    /// `bundleIdentifier` does not use the iCloud container `container`.
    public static func notAUbiquityMember(_ bundleIdentifier: String, container: String) -> Self {
        Self(.notAUbiquityMember, detail: container, subject: bundleIdentifier)
    }
    /// The manifest of `bundleIdentifier` names no iCloud container (`.noUbiquityContainer`, with it as `subject`).
    public static func noUbiquityContainer(_ bundleIdentifier: String) -> Self { Self(.noUbiquityContainer, subject: bundleIdentifier) }
    /// The manifest of `bundleIdentifier` names no iCloud key-value store (`.noKeyValueStore`, with it as `subject`).
    public static func noKeyValueStore(_ bundleIdentifier: String) -> Self { Self(.noKeyValueStore, subject: bundleIdentifier) }
    /// `identifier` cannot name an iCloud container or key-value store (`.invalidUbiquityIdentifier`, with it as `detail`).
    public static func invalidUbiquityIdentifier(_ identifier: String) -> Self { Self(.invalidUbiquityIdentifier, detail: identifier) }
    /// The lock stayed with another process for `waited`.
    public static func lockTimeout(_ waited: Duration) -> Self { Self(.lockTimeout, detail: "\(waited)") }

    /// The refused manifest's error, for `.manifest`.
    public var manifestError: ManifestError? {
        if case .manifest(let error) = cause { error } else { nil }
    }
    /// The refused declarations' error, for `.declarations`.
    public var declarationError: TypeDeclarationError? {
        if case .declarations(let error) = cause { error } else { nil }
    }
}

/// The family of `DeliveryError`: a delivery that did not happen. A reason may carry the `RegistryError`
/// it comes from.
public enum DeliveryErrorDomain: ErrorDomain {
    /// A delivery error's cause: the `RegistryError` it comes from.
    public typealias Cause = RegistryError
}

/// A delivery that did not happen (and left nothing behind), with the path at fault and why. Compare by
/// kind (`error.kind == .refusedName`, `error.reason.errno == .fileTooLarge`); new kinds may be added.
public typealias DeliveryError = LocatedError<DeliveryErrorDomain>

/// The kinds of `DeliveryError`.
extension ErrorKind where Domain == DeliveryErrorDomain {
    /// A system call failed (`detail`: what was being done: reading the source, writing the copy, linking it ...).
    public static let system = Self("system") { $0.systemMessage }
    /// The name to deliver under is not a name a file may have in the Inbox (`detail`: why).
    public static let refusedName = Self("refused-name") { "refused as a file name: \($0.detail ?? "")" }
    /// A directory of the container is a symbolic link or a file: refused, never followed.
    public static let notInContainer = Self("not-in-container") { _ in
        "refused: not a directory of the container (a symbolic link or a file stands there)"
    }
    /// The source is not a regular file.
    public static let notARegularFile = Self("not-a-regular-file") { _ in "not a regular file; only files are delivered" }
    /// Every variant of the name is taken.
    public static let noFreeName = Self("no-free-name") { _ in "no free name in the Inbox" }
    /// Delivered (the copy, `detail`, is durable), but the source could not be removed after it (`--move`).
    public static let sourceNotRemoved = Self("source-not-removed") {
        "delivered to \($0.detail ?? "the Inbox"), but not removed: \($0.errno?.description ?? "")"
    }
    /// The source is a symbolic link, and following links was not asked for.
    public static let symbolicLink = Self("symbolic-link") { _ in "a symbolic link; refused (follow it with -L/--follow)" }
    /// The source changed while it was copied (twice), or between its copy and its removal
    /// (`--move`): nothing was delivered, nothing removed.
    public static let sourceChanged = Self("source-changed") { _ in
        "changed while it was being delivered; nothing delivered, nothing removed"
    }
    /// `--move`: the source changed in the instant after it was removed, and could not be linked
    /// back; the copy delivered (`detail`) lacks what was written after it.
    public static let sourceChangedAfterMove = Self("source-changed-after-move") {
        "written to while it was being removed, and not linked back: the copy in \($0.detail ?? "the Inbox") may lack the last writes"
    }
    /// The registry could not be read, or the bundle identifier is not one (`cause`).
    public static let registry = Self("registry") { $0.cause?.message ?? "the registry cannot be read" }
}

/// The reasons of `DeliveryError`, one for each kind, and the registry error one carries.
extension ErrorReason where Domain == DeliveryErrorDomain {
    /// The source is a symbolic link, and following links was not asked for (`.symbolicLink`).
    public static let symbolicLink = Self(.symbolicLink)
    /// The source changed while it was copied, or between its copy and its removal (`.sourceChanged`).
    public static let sourceChanged = Self(.sourceChanged)
    /// The source changed in the instant after its removal and could not be linked back (`.sourceChangedAfterMove`); `detail` is the copy delivered, `path`.
    public static func sourceChangedAfterMove(deliveredTo path: String) -> Self { Self(.sourceChangedAfterMove, detail: path) }
    /// The registry could not be read, or the bundle identifier is not one (`.registry`); `cause` carries `error`.
    public static func registry(_ error: RegistryError) -> Self { Self(.registry, cause: error) }
    /// A system call failed with `errno` (`.system`) while doing `operation`, kept as `detail`.
    public static func system(_ errno: Errno, while operation: String? = nil) -> Self { Self(.system, errno: errno, detail: operation) }
    /// The name is not one a file may have in the Inbox (`.refusedName`); `detail` says `why`.
    public static func refusedName(_ why: String) -> Self { Self(.refusedName, detail: why) }
    /// A directory of the container is a symbolic link or a file (`.notInContainer`).
    public static let notInContainer = Self(.notInContainer)
    /// The source is not a regular file (`.notARegularFile`).
    public static let notARegularFile = Self(.notARegularFile)
    /// Every variant of the name is taken (`.noFreeName`).
    public static let noFreeName = Self(.noFreeName)
    /// Delivered to `path` (`detail`), but the source could not be removed: `errno` (`.sourceNotRemoved`).
    public static func sourceNotRemoved(deliveredTo path: String, _ errno: Errno) -> Self { Self(.sourceNotRemoved, errno: errno, detail: path) }

    /// The registry's error, for `.registry`.
    public var registryError: RegistryError? { cause }
}

/// What a `BackupError`'s reason carries from the registry.
extension ErrorReason where Domain == BackupErrorDomain {
    /// The registry's error, for `.registry`.
    public var registryError: RegistryError? { cause }
}

/// The family of `RoutingError`: a file that was not routed.
public enum RoutingErrorDomain: ErrorDomain {
    /// What a routing error carries: the file's type when it was identified, and the error it comes from.
    public struct Cause: Hashable, Sendable {
        /// The file's type, when it was identified.
        public var type: UTType?
        /// The identification's error, for `.identification`.
        public var identificationError: IdentificationError?
        /// The delivery's error, for `.delivery`.
        public var deliveryError: DeliveryError?

        /// A cause with the file's type, when it was identified, and the error it comes from, if any.
        public init(type: UTType? = nil, identificationError: IdentificationError? = nil, deliveryError: DeliveryError? = nil) {
            self.type = type
            self.identificationError = identificationError
            self.deliveryError = deliveryError
        }
    }
}

/// A file that was not routed (and of which nothing was delivered): the file as it was given (`-` for
/// bytes without a path), what it is when it was identified (`type`), and why. New kinds may be added.
public typealias RoutingError = LocatedError<RoutingErrorDomain>

/// What a `RoutingError` adds: the file's type, when it was identified.
extension LocatedError where Domain == RoutingErrorDomain {
    /// The error for `path`, of `type`, for `reason`.
    public init(path: String, type: UTType?, reason: Reason) {
        var cause = reason.cause ?? RoutingErrorDomain.Cause()
        cause.type = type
        self.init(path: path, reason: Reason(reason.kind, errno: reason.errno, detail: reason.detail, subject: reason.subject, cause: cause))
    }

    /// What the file is, when it was identified.
    public var type: UTType? { reason.cause?.type }
}

/// The kinds of `RoutingError`.
extension ErrorKind where Domain == RoutingErrorDomain {
    /// The file could not be identified: unreadable, vanished ... (`cause`).
    public static let identification = Self("identification") { $0.identificationError?.message ?? "cannot be identified" }
    /// No registered app opens the file's type.
    public static let noHandler = Self("no-handler") { "no registered app opens \($0.typeNamed); nothing delivered" }
    /// The app asked for (`to:`, `subject`) is not registered.
    public static let targetNotRegistered = Self("target-not-registered") { "'\($0.subject ?? "")' is not registered" }
    /// The app asked for (`subject`) does not open the file's type.
    public static let targetDoesNotOpen = Self("target-does-not-open") {
        "\($0.subject ?? "the app") does not open \($0.typeNamed); nothing delivered"
    }
    /// Opening in place was asked of an app (`subject`) that does not declare `LSSupportsOpeningDocumentsInPlace`.
    public static let notOpenedInPlace = Self("not-opened-in-place") {
        "\($0.subject ?? "the app") does not open documents in place (LSSupportsOpeningDocumentsInPlace); nothing handed over"
    }
    /// The delivery to the app (`subject`) failed (`cause`).
    public static let delivery = Self("delivery") { $0.deliveryError?.description ?? "not delivered" }
    /// The file given is a symbolic link, and following links was not asked for.
    public static let symbolicLink = Self("symbolic-link") { _ in "a symbolic link; refused (follow it with -L/--follow); nothing delivered" }
}

/// The reasons of `RoutingError`, one for each kind, and what they carry.
extension ErrorReason where Domain == RoutingErrorDomain {
    /// The file could not be identified (`.identification`); `cause` carries `error`.
    public static func identification(_ error: IdentificationError) -> Self { Self(.identification, cause: .init(identificationError: error)) }
    /// No registered app opens the file's type (`.noHandler`).
    public static let noHandler = Self(.noHandler)
    /// The file given is a symbolic link, and following links was not asked for (`.symbolicLink`).
    public static let symbolicLink = Self(.symbolicLink)
    /// The app asked for, `bundleIdentifier`, is not registered (`.targetNotRegistered`, with it as `subject`).
    public static func targetNotRegistered(_ bundleIdentifier: String) -> Self { Self(.targetNotRegistered, subject: bundleIdentifier) }
    /// The app asked for, `bundleIdentifier`, does not open the file's type (`.targetDoesNotOpen`, with it as `subject`).
    public static func targetDoesNotOpen(_ bundleIdentifier: String) -> Self { Self(.targetDoesNotOpen, subject: bundleIdentifier) }
    /// Opening in place was asked of `bundleIdentifier`, which does not open documents in place (`.notOpenedInPlace`, with it as `subject`).
    public static func notOpenedInPlace(_ bundleIdentifier: String) -> Self { Self(.notOpenedInPlace, subject: bundleIdentifier) }
    /// The delivery to `bundleIdentifier` (`subject`) failed (`.delivery`); `cause` carries `error`.
    public static func delivery(_ error: DeliveryError, to bundleIdentifier: String) -> Self {
        Self(.delivery, subject: bundleIdentifier, cause: .init(deliveryError: error))
    }

    /// The app concerned: the one asked for, or the handler that was chosen.
    public var bundleIdentifier: String? { subject }
    /// The identification's error, for `.identification`.
    public var identificationError: IdentificationError? { cause?.identificationError }
    /// The delivery's error, for `.delivery`.
    public var deliveryError: DeliveryError? { cause?.deliveryError }
    /// The file's type, or "it".
    fileprivate var typeNamed: String { cause?.type?.identifier ?? "it" }
}
