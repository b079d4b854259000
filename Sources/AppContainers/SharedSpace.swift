/// A place the registry keeps for every app whose manifest names it, shared by all of them: an application
/// group's container, an iCloud (ubiquity) container, an iCloud key-value store. The three follow one set of
/// rules, written once (`Registry+SharedSpaces.swift`):
///
/// - **Who may name one.** One the registry keeps with a team (that of the app that made it) is named only by
///   apps giving the same `com.apple.developer.team-identifier`; any other only under the app's own name: the
///   kind's prefix and the app's publisher domain (`group.com.example…`, `iCloud.com.example…`, and for a
///   key-value store `com.example…`), or the app's own team identifier and a dot. Otherwise the manifest is
///   refused, saying which key and why.
/// - **When it goes.** When no app that may hold data in it remains: no registered app names it, and no app
///   unregistered with its data kept (or registered again without it) does (`StoredGroup.keptBy`). Its
///   removal is recorded in the state before anything is deleted and finished by every change, so that a
///   crash at any point is completed later, as a container's is.
/// - **Where it is.** A private (0700) directory below the root, never reached through a link.
package enum SharedSpace: CaseIterable, Sendable {
    case applicationGroup
    case ubiquityContainer
    case keyValueStore

    /// The directories below the root that hold one of each.
    package var parent: [String] {
        switch self {
        case .applicationGroup: ["Shared", "AppGroup"]
        case .ubiquityContainer: ["Mobile Documents"]
        case .keyValueStore: ["SyncedPreferences"]
        }
    }

    /// The directory of `identifier` in `parent`: the identifier, but for an iCloud container, whose directory
    /// is named as Apple's are (`iCloud.com.example.app` is `iCloud~com~example~app`).
    package func directoryName(_ identifier: String) -> String {
        guard self == .ubiquityContainer else { return identifier }
        return String(identifier.map { $0 == "." ? "~" : $0 })
    }

    /// The identifier a directory of `parent` holds, if it is one's (`nil` for anything else found there).
    func identifier(ofDirectory name: String) -> String? {
        let identifier = self == .ubiquityContainer ? String(name.map { $0 == "~" ? "." : $0 }) : name
        return isValid(identifier) && directoryName(identifier) == name ? identifier : nil
    }

    /// The directories made in each, below its own.
    var subdirectories: [String] {
        switch self {
        case .applicationGroup: Registry.groupContainerDirectories
        case .ubiquityContainer: Registry.ubiquityContainerDirectories
        case .keyValueStore: []
        }
    }

    /// Whether `identifier` is one of this kind's.
    func isValid(_ identifier: String) -> Bool {
        switch self {
        case .applicationGroup: AppManifest.isValidApplicationGroup(identifier)
        case .ubiquityContainer, .keyValueStore: AppManifest.isValidUbiquityIdentifier(identifier)
        }
    }

    /// What the registry keeps of each (who made it, who may still hold data in it), in the order they were made.
    var stored: WritableKeyPath<RegistryState, [StoredGroup]> {
        switch self {
        case .applicationGroup: \.groups
        case .ubiquityContainer: \.ubiquityContainers
        case .keyValueStore: \.keyValueStores
        }
    }

    /// The directories (names in `parent`) whose removal was decided and is not finished.
    var pending: WritableKeyPath<RegistryState, [String]> {
        switch self {
        case .applicationGroup: \.pendingGroupRemovals
        case .ubiquityContainer: \.pendingUbiquityRemovals
        case .keyValueStore: \.pendingKeyValueStoreRemovals
        }
    }

    /// The ones a manifest names, in its order.
    func identifiers(of manifest: AppManifest) -> [String] {
        switch self {
        case .applicationGroup: manifest.applicationGroups
        case .ubiquityContainer: manifest.ubiquityContainers
        case .keyValueStore: manifest.ubiquityKeyValueStore.map { [$0] } ?? []
        }
    }

    /// The ones a stored record names.
    func identifiers(of record: StoredApp) -> [String] {
        switch self {
        case .applicationGroup: record.groups
        case .ubiquityContainer: record.ubiquityContainers ?? []
        case .keyValueStore: record.keyValueStore.map { [$0] } ?? []
        }
    }

    /// The manifest key that names them.
    var manifestKey: String {
        switch self {
        case .applicationGroup: AppManifest.applicationGroupsKey
        case .ubiquityContainer: AppManifest.iCloudContainersKey
        case .keyValueStore: AppManifest.ubiquityKeyValueStoreKey
        }
    }

    /// What an app's own one starts with, before its publisher domain.
    var ownPrefix: String {
        switch self {
        case .applicationGroup: "group."
        case .ubiquityContainer: "iCloud."
        case .keyValueStore: ""
        }
    }

    /// What one is called, in messages.
    var noun: String {
        switch self {
        case .applicationGroup: "application group"
        case .ubiquityContainer: "iCloud container"
        case .keyValueStore: "iCloud key-value store"
        }
    }
}
