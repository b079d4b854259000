extension Registry {
    /// The directories of a container an app (or a script) asks for by what they are for, as the platform's
    /// `FileManager.urls(for:in:)` hands them out: nobody assembles these paths by hand.
    public enum ContainerDirectory: String, Sendable, CaseIterable {
        case container = ""
        case documents = "Documents"
        case inbox = "Documents/Inbox"
        case library = "Library"
        case caches = "Library/Caches"
        case applicationSupport = "Library/Application Support"
        case preferences = "Library/Preferences"
        case temporary = "tmp"
    }

    /// Where `directory` of a registered app's container is (the path; nothing is made or opened).
    /// - Throws: `RegistryError` for a bundle identifier that is not one, or an app not registered.
    public func path(of directory: ContainerDirectory, for bundleIdentifier: String) throws(RegistryError) -> String {
        let container = containerPath(of: try app(bundleIdentifier))
        return directory == .container ? container : container + "/" + directory.rawValue
    }
}
