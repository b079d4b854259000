/// iCloud (ubiquity) containers, as Apple's file-system guide describes them: an app has a primary container
/// and may use the others its entitlements list (`AppManifest.ubiquityContainers`). Each is
/// `Mobile Documents/<identifier with . as ~>/` under the root (`iCloud.com.example.app` is
/// `Mobile Documents/iCloud~com~example~app/`), private (0700) like every container, made when the first app
/// that names it registers. Everything under its `Documents/` is the user's, shown as separate documents
/// (`ubiquityUsage(of:)`); everything else is the app's data, shown as one entry. Files are created there as
/// anywhere else; `UbiquitySync` (ContainerSync) carries them, their extended attributes and the key-value store
/// (`UbiquitousKeyValueStore`) to the user's other machines.
///
/// Apps that name the same container share it, and it goes when no app that may hold data in it remains,
/// by the rules application groups follow (`SharedSpace`).
extension Registry {
    /// The directories made in each iCloud container.
    public static let ubiquityContainerDirectories = ["Documents"]

    /// An iCloud container the registry keeps (see ``Registry/SharedContainer``).
    public typealias UbiquityContainer = SharedContainer

    /// Every iCloud container the registry keeps, in the order they were made.
    public func ubiquityContainers() throws(RegistryError) -> [UbiquityContainer] {
        try sharedContainers(.ubiquityContainer)
    }

    /// Where the iCloud container `container` of `bundleIdentifier` is; with `nil`, the app's primary container
    /// (the first its manifest lists), as `FileManager.url(forUbiquityContainerIdentifier: nil)` answers.
    /// - Throws: `RegistryError` for an identifier that is not one, an app not registered, an app that names
    ///   no container (`.noUbiquityContainer`), or a container the app does not name (`.notAUbiquityMember`).
    public func path(ofUbiquityContainer container: String? = nil, for bundleIdentifier: String) throws(RegistryError) -> String {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        if let container, !AppManifest.isValidUbiquityIdentifier(container) {
            throw RegistryError(path: statePath, reason: .invalidUbiquityIdentifier(container))
        }
        let app = try app(bundleIdentifier)
        guard let primary = app.manifest.ubiquityContainers.first else {
            throw RegistryError(path: statePath, reason: .noUbiquityContainer(app.bundleIdentifier))
        }
        guard let container else { return sharedSpacePath(.ubiquityContainer, primary) }
        guard app.manifest.ubiquityContainers.contains(container) else {
            throw RegistryError(path: statePath, reason: .notAUbiquityMember(app.bundleIdentifier, container: container))
        }
        return sharedSpacePath(.ubiquityContainer, container)
    }

    /// Where the directory of an app's iCloud key-value store is (`SyncedPreferences/<identifier>/`).
    /// - Throws: `RegistryError` for an app not registered, or one whose manifest names no store (`.noKeyValueStore`).
    package func keyValueStoreDirectory(for bundleIdentifier: String) throws(RegistryError) -> (identifier: String, path: String) {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        let app = try app(bundleIdentifier)
        guard let store = app.manifest.ubiquityKeyValueStore else {
            throw RegistryError(path: statePath, reason: .noKeyValueStore(app.bundleIdentifier))
        }
        return (store, sharedSpacePath(.keyValueStore, store))
    }
}
