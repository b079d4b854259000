internal import SystemCalls
internal import SystemPackage

/// The rules every shared space follows (`SharedSpace`: application groups, iCloud containers, iCloud
/// key-value stores): who may name one, making it, and removing it when no app may hold data in it any more.
extension Registry {
    /// A container the registry keeps for every app that names it: an application group's shared container
    /// (`ApplicationGroup`) or an iCloud container (`UbiquityContainer`).
    public struct SharedContainer: Sendable, Hashable {
        /// `group.com.example.shared`, `iCloud.com.example.app`, or a team identifier's `ABCDE12345.com.example.shared`.
        public var identifier: String
        /// Its directory.
        public var path: String
        /// The bundle identifiers of the registered apps that name it, in registration order.
        public var members: [String]
        /// The team identifier of the app that made it, when it gave one: a later app names it only with the same.
        public var team: String?
        /// Apps that are not registered members and may hold data in it (unregistered with their data kept, or
        /// registered again without it): it stays while any of them remains.
        public var keptBy: [String]
        /// Whether no registered app names it: an application group then stays until
        /// ``Registry/removeApplicationGroup(_:)``.
        public var isOrphaned: Bool { members.isEmpty }
    }

    /// The shared containers of `kind` the registry keeps, in the order they were made.
    func sharedContainers(_ kind: SharedSpace) throws(RegistryError) -> [SharedContainer] {
        try readState().spaces(kind).map { space, members in
            SharedContainer(identifier: space.identifier, path: sharedSpacePath(kind, space.identifier), members: members,
                            team: space.team, keptBy: space.keptBy)
        }
    }

    /// Where the directory of a shared space is.
    package func sharedSpacePath(_ kind: SharedSpace, _ identifier: String) -> String {
        root + "/" + (kind.parent + [kind.directoryName(identifier)]).joined(separator: "/")
    }

    /// Why `manifest` may not name `identifier`, a shared space of `kind`, or `nil` when it may (see
    /// `SharedSpace`, "Who may name one").
    static func refusal(_ kind: SharedSpace, _ identifier: String, for manifest: AppManifest, in state: RegistryState) -> String? {
        let team = manifest.teamIdentifier
        if let known = state.spaces(kind).first(where: { $0.space.identifier == identifier }), let spaceTeam = known.space.team {
            if team == spaceTeam { return nil }
            return "'\(identifier)' belongs to team \(spaceTeam): only apps whose \(AppManifest.teamIdentifierKey) is \(spaceTeam) may use it"
                + (team.map { " (this app's is \($0))" } ?? " (this app gives none)")
        }
        if let team, identifier.hasPrefix(team + ".") { return nil }
        let domain = AppManifest.publisherDomain(of: manifest.bundleIdentifier)
        if identifier.lowercased().hasPrefix(kind.ownPrefix.lowercased()), let domain {
            let name = identifier.dropFirst(kind.ownPrefix.count).lowercased()
            let own = domain.lowercased()
            if name == own || name.hasPrefix(own + ".") { return nil }
        }
        let own = domain.map { "\(kind.ownPrefix)\($0) or \(kind.ownPrefix)\($0).<name>" }
        return "'\(identifier)' is not this app's to use: an \(kind.noun) is named under the app's own domain ("
            + (own ?? "its bundle identifier has too few components for one") + ")"
            + (team.map { ", or \($0).<name> for its team" } ?? "")
            + ", or joined with the team identifier of the apps that use it (\(AppManifest.teamIdentifierKey))"
    }

    /// Makes (or completes) a shared space's directories, private, without following a link planted on the way.
    /// An application group's `Library/Caches/` holds a `CACHEDIR.TAG`, as an app's does, so that backup tools
    /// skip it.
    func makeSharedSpace(_ kind: SharedSpace, _ identifier: String, in rootDirectory: FileDescriptor) throws(RegistryError) {
        let own = kind.parent + [kind.directoryName(identifier)]
        for directory in [""] + kind.subdirectories {
            try openDirectory(own + directory.split(separator: "/").map(String.init), in: rootDirectory).closeQuietly()
        }
        if kind == .applicationGroup, let container = try? openDirectory(own, in: rootDirectory) {
            Self.tagDirectory(["Library", "Caches"], in: container)
            container.closeQuietly()
        }
    }

    /// Checks that `manifest` may name every shared space it names (those `previous`, its earlier registration,
    /// named stay its own: a registry from before evidence was asked).
    static func checkSharedSpaces(of manifest: AppManifest, previous: StoredApp?, file: String, in state: RegistryState) throws(RegistryError) {
        for kind in SharedSpace.allCases {
            let held = previous.map(kind.identifiers(of:)) ?? []
            for identifier in kind.identifiers(of: manifest) where !held.contains(identifier) {
                if let refusal = refusal(kind, identifier, for: manifest, in: state) {
                    throw RegistryError(path: file, reason: .manifest(ManifestError(file: file, key: kind.manifestKey, problem: refusal)))
                }
            }
        }
    }

    /// Records and makes the shared spaces `manifest` names, and keeps those its earlier registration named
    /// and it no longer does for the data the app left in them.
    func joinSharedSpaces(of manifest: AppManifest, previous: StoredApp?, state: inout RegistryState,
                          in rootDirectory: FileDescriptor) throws(RegistryError) {
        let key = manifest.bundleIdentifier.lowercased()
        for kind in SharedSpace.allCases {
            let named = kind.identifiers(of: manifest)
            for identifier in named {
                state[keyPath: kind.pending].removeAll { $0 == kind.directoryName(identifier) }
                let isNew = !state.spaces(kind).contains { $0.space.identifier == identifier }
                let index = state.spaceIndex(kind, identifier)
                if isNew { state[keyPath: kind.stored][index].team = manifest.teamIdentifier }
                state[keyPath: kind.stored][index].keptBy.removeAll { $0.lowercased() == key }
                try makeSharedSpace(kind, identifier, in: rootDirectory)
            }
            for identifier in previous.map(kind.identifiers(of:)) ?? [] where !named.contains(identifier) {
                let index = state.spaceIndex(kind, identifier)
                if !state[keyPath: kind.stored][index].keptBy.contains(where: { $0.lowercased() == key }) {
                    state[keyPath: kind.stored][index].keptBy.append(manifest.bundleIdentifier)
                }
            }
        }
    }

    /// What unregistering `record` does to the shared spaces it may hold data in: with `deleteData`, a space no
    /// registered app names and no other app keeps data in is removed (pending, then finished by the change);
    /// without, the app keeps its data there.
    static func leaveSharedSpaces(of record: StoredApp, deleteData: Bool, state: inout RegistryState) {
        let key = record.bundleIdentifier.lowercased()
        for kind in SharedSpace.allCases {
            let named = kind.identifiers(of: record)
            let held = state.spaces(kind).filter { space in
                named.contains(space.space.identifier) || space.space.keptBy.contains { $0.lowercased() == key }
            }
            for (space, members) in held {
                let index = state.spaceIndex(kind, space.identifier)
                state[keyPath: kind.stored][index].keptBy.removeAll { $0.lowercased() == key }
                if !deleteData {
                    state[keyPath: kind.stored][index].keptBy.append(record.bundleIdentifier)
                } else if members.isEmpty && state[keyPath: kind.stored][index].keptBy.isEmpty {
                    state[keyPath: kind.stored].remove(at: index)
                    let directory = kind.directoryName(space.identifier)
                    if !state[keyPath: kind.pending].contains(directory) { state[keyPath: kind.pending].append(directory) }
                }
            }
        }
    }

    /// Drops what a hand-edited state could make a path of: names that are not identifiers of their kind, teams
    /// that are not team identifiers, apps that are not bundle identifiers.
    static func normalizeSharedSpaces(_ state: inout RegistryState) {
        for kind in SharedSpace.allCases {
            state[keyPath: kind.pending].removeAll { kind.identifier(ofDirectory: $0) == nil }
            state[keyPath: kind.stored].removeAll { !kind.isValid($0.identifier) }
            for index in state[keyPath: kind.stored].indices {
                if let team = state[keyPath: kind.stored][index].team, !AppManifest.isValidTeamIdentifier(team) {
                    state[keyPath: kind.stored][index].team = nil
                }
                state[keyPath: kind.stored][index].keptBy.removeAll { !AppManifest.isValidBundleIdentifier($0) }
            }
        }
    }

    /// Deletes the shared spaces whose removal was decided, as `finishPendingRemovals` does containers (renamed
    /// to `.removing.<random>` in their parent, then removed through descriptors); one named again is kept.
    @discardableResult
    func finishPendingSpaceRemovals(_ state: inout RegistryState, in rootDirectory: FileDescriptor,
                                    removingLeftovers: Bool) throws(RegistryError) -> [Problem] {
        var problems: [Problem] = []
        for kind in SharedSpace.allCases {
            let kept = Set(state.spaces(kind).map { kind.directoryName($0.space.identifier) })
            problems += try finishRemovals(kind.pending, below: kind.parent, keeping: kept, state: &state, in: rootDirectory,
                                           removingLeftovers: removingLeftovers)
        }
        return problems
    }
}
