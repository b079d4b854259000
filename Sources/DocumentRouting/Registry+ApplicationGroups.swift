internal import SystemCalls
internal import SystemPackage

/// Application groups: apps whose manifests name the same group in `com.apple.security.application-groups`
/// share one container, `Shared/AppGroup/<group>/` under the root, with `Library/`, `Library/Caches/` and
/// `Library/Application Support/` (as `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`
/// hands out on Apple's platforms). It is made, private (0700) like every container, when the first member
/// registers, and removed only when the last member is unregistered with `--delete-data`; unregistering a
/// member while others remain, or without `--delete-data`, leaves it. Its removal is recorded in the state
/// (`pendingGroupRemovals`) before anything is deleted and finished by every change, so that a crash at any
/// point is completed later, as a container's is.
extension Registry {
    /// The directories of a group's shared container, below `Shared/AppGroup/<group>/`.
    public static let groupContainerDirectories = ["Library", "Library/Caches", "Library/Application Support"]

    /// An application group some registered app belongs to.
    public struct ApplicationGroup: Sendable, Hashable {
        /// `group.com.example.shared`, or a team identifier's `ABCDE12345.com.example.shared`.
        public var identifier: String
        /// Its shared container.
        public var path: String
        /// The bundle identifiers of its members, in registration order.
        public var members: [String]
    }

    /// The application groups of the registered apps, in the order their first members registered.
    public func applicationGroups() throws(RegistryError) -> [ApplicationGroup] {
        try readState().applicationGroups.map { ApplicationGroup(identifier: $0.group, path: groupContainerPath($0.group), members: $0.members) }
    }

    /// Where the shared container of `group` is, for `bundleIdentifier`: only a member gets it, as the
    /// platform hands a group's container only to an app entitled to the group.
    /// - Throws: `RegistryError` for an identifier that is not one, an app not registered, or an app that
    ///   is not a member (`.notAGroupMember`).
    public func path(ofGroup group: String, for bundleIdentifier: String) throws(RegistryError) -> String {
        try Self.validate(bundleIdentifier: bundleIdentifier)
        guard AppManifest.isValidApplicationGroup(group) else {
            throw RegistryError(path: statePath, reason: .invalidApplicationGroup(group))
        }
        let app = try app(bundleIdentifier)
        guard app.manifest.applicationGroups.contains(group) else {
            throw RegistryError(path: statePath, reason: .notAGroupMember(app.bundleIdentifier, group: group))
        }
        return groupContainerPath(group)
    }

    func groupContainerPath(_ group: String) -> String { root + "/Shared/AppGroup/" + group }

    /// Makes (or completes) a group's shared container, private, without following a link planted on the way.
    /// Its `Library/Caches/` holds a `CACHEDIR.TAG`, as an app's does, so that backup tools skip it.
    func makeGroupContainer(_ group: String, in rootDirectory: FileDescriptor) throws(RegistryError) {
        for directory in [""] + Self.groupContainerDirectories {
            let components = ["Shared", "AppGroup", group] + directory.split(separator: "/").map(String.init)
            try openDirectory(components, in: rootDirectory).closeQuietly()
        }
        if let container = try? openDirectory(["Shared", "AppGroup", group], in: rootDirectory) {
            Self.tagDirectory(["Library", "Caches"], in: container)
            container.closeQuietly()
        }
    }

    /// Deletes the shared containers whose removal was decided, as `finishPendingRemovals` does containers
    /// (`Shared/AppGroup/.removing.<random>`); a group that has a member again is not removed.
    func finishPendingGroupRemovals(_ state: inout RegistryState, in rootDirectory: FileDescriptor) throws(RegistryError) {
        try finishRemovals(\.pendingGroupRemovals, below: ["Shared", "AppGroup"], keeping: Set(state.records.flatMap(\.groups)),
                           state: &state, in: rootDirectory)
    }
}
