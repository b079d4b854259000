extension Registry {
    /// The directories of a container an app (or a script) asks for by what they are for, as the platform's
    /// `FileManager.urls(for:in:)` hands them out: nobody assembles these paths by hand.
    public enum ContainerDirectory: String, Sendable, CaseIterable {
        /// The container itself.
        case container = ""
        /// `Documents/`: the user's documents.
        case documents = "Documents"
        /// `Documents/Inbox/`: documents handed to the app (see `Inbox`).
        case inbox = "Documents/Inbox"
        /// `Library/`: the app's own files, which are not the user's documents.
        case library = "Library"
        /// `Library/Caches/`: files the app can make again; never backed up, purged when space runs low.
        case caches = "Library/Caches"
        /// `Library/Application Support/`: files the app makes and keeps.
        case applicationSupport = "Library/Application Support"
        /// `Library/Preferences/`: the app's preferences.
        case preferences = "Library/Preferences"
        /// `tmp/`: temporary files; never backed up, purged by `Registry.purgeTemporary`.
        case temporary = "tmp"
    }

    /// Where `directory` of a registered app's container is (the path; nothing is made or opened).
    /// - Throws: `RegistryError` for a bundle identifier that is not one, or an app not registered.
    public func path(of directory: ContainerDirectory, for bundleIdentifier: String) throws(RegistryError) -> String {
        let container = containerPath(of: try app(bundleIdentifier))
        return directory == .container ? container : container + "/" + directory.rawValue
    }
}
