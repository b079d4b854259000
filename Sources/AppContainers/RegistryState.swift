#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import UniformTypeIdentifiers

/// `registry.json`: everything a command needs to know about the registered apps, in one file that is
/// replaced atomically on every change. Readers take no lock and never see half a change; no command
/// parses a manifest again after registration.
///
///     {
///       "version": 2,
///       "apps": [ { "bundleIdentifier": ..., "container": ..., "name": ..., "documentTypes": [...],
///                   "declarations": [...], ... } ],
///       "defaults": [ { "type": ..., "role": ..., "bundleIdentifier": ... } ],
///       "pendingRemovals": [ "com.example.gone" ],
///       "groups": [ { "identifier": "group.com.example.shared", "team": ..., "keptBy": [...] } ],
///       "pendingGroupRemovals": [ "group.com.example.old" ]
///     }
///
/// `pendingRemovals` names containers whose deletion was decided (`unregister --delete-data`) and not yet
/// finished; every change finishes them, so a crash part-way through a deletion is completed later.
/// `groups` lists the application groups whose shared containers the registry made (see `StoredGroup`);
/// `pendingGroupRemovals` does for them what `pendingRemovals` does for containers. A state written before
/// `groups` was kept lacks it: the groups its records name are taken as made then, by no team.
///
/// Version 1 (before 0.2) held only the bundle identifiers and kept each app's Info.plist in
/// `Apps/<bundle-id>.plist`; it is read (those manifests parsed once) and rewritten as version 2 by the
/// next change.
struct RegistryState: Codable {
    static let currentVersion = 2

    var version = currentVersion
    var apps: [Entry] = []
    var defaults: [Registry.DefaultHandler] = []
    var pendingRemovals: [String] = []
    var groups: [StoredGroup] = []
    var pendingGroupRemovals: [String] = []
    /// iCloud containers and key-value stores, kept as `groups` are (`SharedSpace`); pending removals by
    /// directory name.
    var ubiquityContainers: [StoredGroup] = []
    var pendingUbiquityRemovals: [String] = []
    var keyValueStores: [StoredGroup] = []
    var pendingKeyValueStoreRemovals: [String] = []
    /// What is left of deleted containers that a change could not remove, with why (for `check`).
    var leftovers: [Leftover] = []
    /// The containers of apps unregistered with their data kept, with the bundle each came from: another
    /// bundle whose identifier differs only in case does not get them.
    var keptContainers: [KeptContainer] = []

    /// The container of an app unregistered with its data kept.
    struct KeptContainer: Codable, Hashable {
        var bundleIdentifier: String
        var container: String
        var registeredFrom: String?
    }

    /// A `.removing.*` directory that could not be removed: its path below the root, and why.
    struct Leftover: Codable, Hashable {
        var path: String
        var reason: String
    }

    /// One element of `apps`: a record, a version-1 bundle identifier, or something unreadable (kept so
    /// that the others are still served, and reported).
    enum Entry: Codable {
        case app(StoredApp)
        case legacy(String)
        case unreadable(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let identifier = try? container.decode(String.self) {
                self = .legacy(identifier)
                return
            }
            do {
                let app = try container.decode(StoredApp.self)
                try app.validate()
                self = .app(app)
            } catch let error as RecordError {
                self = .unreadable(error.message)
            } catch {
                self = .unreadable(Self.describe(error))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .app(let app): try container.encode(app)
            case .legacy(let identifier): try container.encode(identifier)
            case .unreadable: break
            }
        }

        /// A decoding error in a sentence, with the key path.
        static func describe(_ error: any Error) -> String {
            guard let error = error as? DecodingError else { return String(describing: error) }
            func path(_ context: DecodingError.Context) -> String {
                context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            }
            switch error {
            case .keyNotFound(let key, let context): return "\(path(context)).\(key.stringValue) is missing"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(path(context)): \(context.debugDescription)"
            @unknown default: return String(describing: error)
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case version, apps, defaults, pendingRemovals, groups, pendingGroupRemovals, leftovers, keptContainers
        case ubiquityContainers, pendingUbiquityRemovals, keyValueStores, pendingKeyValueStoreRemovals
    }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        apps = try container.decodeIfPresent([Entry].self, forKey: .apps) ?? []
        defaults = try container.decodeIfPresent([Registry.DefaultHandler].self, forKey: .defaults) ?? []
        pendingRemovals = try container.decodeIfPresent([String].self, forKey: .pendingRemovals) ?? []
        groups = try container.decodeIfPresent([StoredGroup].self, forKey: .groups) ?? []
        leftovers = try container.decodeIfPresent([Leftover].self, forKey: .leftovers) ?? []
        keptContainers = try container.decodeIfPresent([KeptContainer].self, forKey: .keptContainers) ?? []
        pendingGroupRemovals = try container.decodeIfPresent([String].self, forKey: .pendingGroupRemovals) ?? []
        ubiquityContainers = try container.decodeIfPresent([StoredGroup].self, forKey: .ubiquityContainers) ?? []
        pendingUbiquityRemovals = try container.decodeIfPresent([String].self, forKey: .pendingUbiquityRemovals) ?? []
        keyValueStores = try container.decodeIfPresent([StoredGroup].self, forKey: .keyValueStores) ?? []
        pendingKeyValueStoreRemovals = try container.decodeIfPresent([String].self, forKey: .pendingKeyValueStoreRemovals) ?? []
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(apps, forKey: .apps)
        try container.encode(defaults, forKey: .defaults)
        try container.encode(pendingRemovals, forKey: .pendingRemovals)
        if !groups.isEmpty { try container.encode(groups, forKey: .groups) }
        if !leftovers.isEmpty { try container.encode(leftovers, forKey: .leftovers) }
        if !keptContainers.isEmpty { try container.encode(keptContainers, forKey: .keptContainers) }
        if !pendingGroupRemovals.isEmpty { try container.encode(pendingGroupRemovals, forKey: .pendingGroupRemovals) }
        if !ubiquityContainers.isEmpty { try container.encode(ubiquityContainers, forKey: .ubiquityContainers) }
        if !pendingUbiquityRemovals.isEmpty { try container.encode(pendingUbiquityRemovals, forKey: .pendingUbiquityRemovals) }
        if !keyValueStores.isEmpty { try container.encode(keyValueStores, forKey: .keyValueStores) }
        if !pendingKeyValueStoreRemovals.isEmpty { try container.encode(pendingKeyValueStoreRemovals, forKey: .pendingKeyValueStoreRemovals) }
    }

    /// Every application group with a shared container, in the order they were made, with its registered
    /// members in registration order (see `spaces(_:)`).
    var applicationGroups: [(group: StoredGroup, members: [String])] {
        spaces(.applicationGroup).map { (group: $0.space, members: $0.members) }
    }

    /// Every shared space of `kind` the registry keeps, in the order they were made, with its registered
    /// members in registration order: those the state keeps, then any a record names that it lacks (a state
    /// written before they were kept).
    func spaces(_ kind: SharedSpace) -> [(space: StoredGroup, members: [String])] {
        var order = self[keyPath: kind.stored]
        var known = Set(order.map(\.identifier))
        var members: [String: [String]] = [:]
        for record in records {
            for identifier in kind.identifiers(of: record) {
                if known.insert(identifier).inserted { order.append(StoredGroup(identifier: identifier)) }
                members[identifier, default: []].append(record.bundleIdentifier)
            }
        }
        return order.map { ($0, members[$0.identifier] ?? []) }
    }

    /// The index in the kept list of `kind` of `identifier`, added (as `spaces` sees it) when it is not there.
    mutating func spaceIndex(_ kind: SharedSpace, _ identifier: String) -> Int {
        if let index = self[keyPath: kind.stored].firstIndex(where: { $0.identifier == identifier }) { return index }
        let space = spaces(kind).first { $0.space.identifier == identifier }?.space ?? StoredGroup(identifier: identifier)
        self[keyPath: kind.stored].append(space)
        return self[keyPath: kind.stored].count - 1
    }

    /// The records, in registration order.
    var records: [StoredApp] {
        apps.compactMap { if case .app(let app) = $0 { app } else { nil } }
    }

    /// The index of the app with this bundle identifier, compared without regard to case (as Apple's
    /// platforms compare them).
    func index(of bundleIdentifier: String) -> Int? {
        let key = bundleIdentifier.lowercased()
        return apps.firstIndex { if case .app(let app) = $0 { app.bundleIdentifier.lowercased() == key } else { false } }
    }
}

struct RecordError: Error {
    var message: String
}

/// What the registry keeps of an app's manifest: what handler choice, routing and `apps show` need.
struct StoredApp: Codable, Hashable {
    var bundleIdentifier: String
    /// The directory under `Containers/`: the bundle identifier as it was spelt when the container was made.
    var container: String
    var name: String
    var registeredFrom: String?
    var supportsOpeningDocumentsInPlace: Bool
    var fileSharingEnabled: Bool
    var documentTypes: [DocumentType]
    var declarations: [Declaration]
    /// The application groups it belongs to; absent when none (and in records written before groups).
    var applicationGroups: [String]?
    /// `com.apple.developer.team-identifier`; absent when the manifest gives none.
    var teamIdentifier: String?
    /// Its iCloud containers, the primary first, and its iCloud key-value store; absent when none.
    var ubiquityContainers: [String]?
    var keyValueStore: String?
    var groups: [String] { applicationGroups ?? [] }

    struct DocumentType: Codable, Hashable {
        var name: String?
        var contentTypes: [String]
        var role: String
        var rank: String
        var extensions: [String]
        var mimeTypes: [String]
    }

    struct Declaration: Codable, Hashable {
        var identifier: String
        var kind: String
        var conformsTo: [String]
        var description: String?
        var referenceURL: String?
        var version: Int?
        var tags: [String: [String]]
    }

    init(_ manifest: AppManifest, container: String, registeredFrom: String?) {
        bundleIdentifier = manifest.bundleIdentifier
        self.container = container
        name = manifest.name
        self.registeredFrom = registeredFrom
        supportsOpeningDocumentsInPlace = manifest.supportsOpeningDocumentsInPlace
        fileSharingEnabled = manifest.fileSharingEnabled
        applicationGroups = manifest.applicationGroups.isEmpty ? nil : manifest.applicationGroups
        teamIdentifier = manifest.teamIdentifier
        ubiquityContainers = manifest.ubiquityContainers.isEmpty ? nil : manifest.ubiquityContainers
        keyValueStore = manifest.ubiquityKeyValueStore
        documentTypes = manifest.documentTypes.map { type in
            DocumentType(name: type.name, contentTypes: type.contentTypes, role: type.role.rawValue, rank: type.rank.rawValue,
                         extensions: type.legacyExtensions, mimeTypes: type.legacyMIMETypes)
        }
        declarations = manifest.declarations.map { declaration in
            Declaration(identifier: declaration.identifier, kind: declaration.kind.rawValue, conformsTo: declaration.conformsTo,
                        description: declaration.typeDescription, referenceURL: declaration.referenceURL, version: declaration.version,
                        tags: Dictionary(uniqueKeysWithValues: declaration.tags.map { ($0.key.rawValue, $0.value) }))
        }
    }

    /// A record is checked as a manifest is: the file may have been edited by hand, and the container
    /// name becomes a path component.
    func validate() throws(RecordError) {
        guard AppManifest.isValidBundleIdentifier(bundleIdentifier) else {
            throw RecordError(message: "'\(bundleIdentifier)' is not a bundle identifier")
        }
        guard AppManifest.isValidBundleIdentifier(container), container.lowercased() == bundleIdentifier.lowercased() else {
            throw RecordError(message: "\(bundleIdentifier): '\(container)' is not its container's name")
        }
        for type in documentTypes {
            guard AppManifest.DocumentType.Role(rawValue: type.role) != nil, AppManifest.DocumentType.Rank(rawValue: type.rank) != nil else {
                throw RecordError(message: "\(bundleIdentifier): role '\(type.role)' or rank '\(type.rank)' is not one")
            }
            for identifier in type.contentTypes where !TypeDeclaration.isValidIdentifier(identifier) {
                throw RecordError(message: "\(bundleIdentifier): '\(identifier)' is not a type identifier")
            }
        }
        if let teamIdentifier, !AppManifest.isValidTeamIdentifier(teamIdentifier) {
            throw RecordError(message: "\(bundleIdentifier): '\(teamIdentifier)' is not a team identifier")
        }
        for group in groups where !AppManifest.isValidApplicationGroup(group) {
            throw RecordError(message: "\(bundleIdentifier): '\(group)' is not an application group")
        }
        for identifier in (ubiquityContainers ?? []) + (keyValueStore.map { [$0] } ?? []) where !AppManifest.isValidUbiquityIdentifier(identifier) {
            throw RecordError(message: "\(bundleIdentifier): '\(identifier)' is not an iCloud identifier")
        }
        for declaration in declarations {
            guard TypeDeclaration.isValidIdentifier(declaration.identifier), TypeDeclaration.Kind(rawValue: declaration.kind) != nil,
                  declaration.conformsTo.allSatisfy(TypeDeclaration.isValidIdentifier) else {
                throw RecordError(message: "\(bundleIdentifier): the declaration of '\(declaration.identifier)' is not valid")
            }
        }
    }

    func manifest(source: String) -> AppManifest {
        AppManifest(
            bundleIdentifier: bundleIdentifier, name: name,
            documentTypes: documentTypes.map { type in
                AppManifest.DocumentType(
                    name: type.name, contentTypes: type.contentTypes,
                    role: AppManifest.DocumentType.Role(rawValue: type.role) ?? .editor,
                    rank: AppManifest.DocumentType.Rank(rawValue: type.rank) ?? .default,
                    legacyExtensions: type.extensions, legacyMIMETypes: type.mimeTypes)
            },
            declarations: declarations.map { declaration in
                TypeDeclaration(
                    identifier: declaration.identifier, conformsTo: declaration.conformsTo, typeDescription: declaration.description,
                    referenceURL: declaration.referenceURL, version: declaration.version,
                    tags: Dictionary(uniqueKeysWithValues: declaration.tags.map { (UTTagClass(rawValue: $0.key), $0.value) }),
                    kind: TypeDeclaration.Kind(rawValue: declaration.kind) ?? .imported, source: source)
            },
            supportsOpeningDocumentsInPlace: supportsOpeningDocumentsInPlace,
            fileSharingEnabled: fileSharingEnabled, applicationGroups: groups, teamIdentifier: teamIdentifier,
            ubiquityContainers: ubiquityContainers ?? [], ubiquityKeyValueStore: keyValueStore)
    }
}

/// An application group whose shared container the registry made, with what decides who may use it and
/// when it goes.
struct StoredGroup: Codable, Hashable {
    var identifier: String
    /// The team identifier of the app that made it, when it gave one: a later app joins only with the same.
    var team: String?
    /// Apps that may hold data in it without being registered members now: unregistered with their data
    /// kept, or registered again without the group. The shared container stays while any of them, or a
    /// registered member, remains.
    var keptBy: [String] = []

    init(identifier: String, team: String? = nil, keptBy: [String] = []) {
        self.identifier = identifier
        self.team = team
        self.keptBy = keptBy
    }

    private enum CodingKeys: String, CodingKey { case identifier, team, keptBy }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try container.decode(String.self, forKey: .identifier)
        team = try container.decodeIfPresent(String.self, forKey: .team)
        keptBy = try container.decodeIfPresent([String].self, forKey: .keptBy) ?? []
    }
}
