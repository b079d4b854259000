internal import SystemCalls
internal import SystemPackage

/// Application groups: apps whose manifests name the same group in `com.apple.security.application-groups`
/// share one container, `Shared/AppGroup/<group>/` under the root, with `Library/`, `Library/Caches/` and
/// `Library/Application Support/` (as `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`
/// hands out on Apple's platforms). It is made, private (0700) like every container, when the first member
/// registers.
///
/// **Who may join.** On Apple's platforms a group belongs to a team, and only that team's apps are entitled
/// to it. Here an app may name a group only with evidence that the group is its publisher's:
///
/// - a group that has a team (the team identifier of the app that made it, `com.apple.developer.team-identifier`)
///   is joined only by apps whose manifests give that same team identifier;
/// - any other group (or a new one) only under the app's own name: `group.<domain>` or `group.<domain>.<name>`,
///   `<domain>` being the bundle identifier without its last component (`group.com.example.shared` for
///   `com.example.viewer`; at least two components), or `<TEAM>.<name>` where `<TEAM>` is the app's own team
///   identifier.
///
/// Otherwise the manifest is refused, with the key and the reason.
///
/// **When it goes.** The shared container goes only when no app that may hold data in it remains: no
/// registered member, and no app unregistered with its data kept (or registered again without the group),
/// which the state remembers (`StoredGroup.keptBy`). Unregistering the last member with `--delete-data`
/// while no such app remains removes it; otherwise the group is orphaned: listed by `applicationGroups()`
/// and removed only by `removeApplicationGroup(_:)`. Its removal is recorded in the state
/// (`pendingGroupRemovals`) before anything is deleted and finished by every change, so that a crash at any
/// point is completed later, as a container's is.
extension Registry {
    /// The directories of a group's shared container, below `Shared/AppGroup/<group>/`.
    public static let groupContainerDirectories = ["Library", "Library/Caches", "Library/Application Support"]

    /// An application group some registered app belongs to (see ``Registry/SharedContainer``).
    public typealias ApplicationGroup = SharedContainer

    /// Every application group whose shared container the registry keeps, in the order they were made:
    /// those of the registered apps, and orphaned ones.
    public func applicationGroups() throws(RegistryError) -> [ApplicationGroup] {
        try sharedContainers(.applicationGroup)
    }

    /// Removes an application group that no registered app is a member of, with its shared container
    /// (through the same crash-safe pending removal as a container); what an unregistered app kept in it
    /// goes with it.
    /// - Throws: `RegistryError`: not an application group, not one the registry keeps
    ///   (`.unknownApplicationGroup`), or one with registered members (`.groupInUse`).
    public func removeApplicationGroup(_ group: String) throws(RegistryError) {
        guard AppManifest.isValidApplicationGroup(group) else {
            throw RegistryError(path: statePath, reason: .invalidApplicationGroup(group))
        }
        try change { state, _ throws(RegistryError) in
            guard let found = state.applicationGroups.first(where: { $0.group.identifier == group }) else {
                throw RegistryError(path: statePath, reason: .unknownApplicationGroup(group))
            }
            guard found.members.isEmpty else { throw RegistryError(path: statePath, reason: .groupInUse(group, members: found.members)) }
            state.groups.removeAll { $0.identifier == group }
            if !state.pendingGroupRemovals.contains(group) { state.pendingGroupRemovals.append(group) }
        }
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

    func groupContainerPath(_ group: String) -> String { sharedSpacePath(.applicationGroup, group) }
}
