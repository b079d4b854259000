internal import FileIdentification
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

/// What a `BackupError`'s reason carries from the registry.
extension ErrorReason where Domain == BackupErrorDomain {
    /// The registry's error, for `.registry`.
    public var registryError: RegistryError? { cause }
}
