internal import SystemCalls
internal import FileIdentification
internal import SystemPackage
public import UniformTypeIdentifiers

extension Registry {
    /// Something wrong with a registry, or something done to put it right.
    public struct Problem: Sendable, Hashable, CustomStringConvertible, ErrorDomain {
        /// The kinds: `ErrorKind`, the known ones in its extension below.
        public typealias Kind = ErrorKind<Registry.Problem>

        /// What kind of problem, or of repair.
        public var kind: Kind
        /// The file or directory concerned.
        public var path: String
        /// The app concerned, when there is one.
        public var bundleIdentifier: String?
        /// What is wrong, or what was done.
        public var detail: String

        /// A problem of `kind` with `path`, for the app `bundleIdentifier` when one is concerned, and what is wrong
        /// or what was done (`detail`).
        public init(_ kind: Kind, path: String, bundleIdentifier: String? = nil, detail: String) {
            self.kind = kind
            self.path = path
            self.bundleIdentifier = bundleIdentifier
            self.detail = detail
        }

        /// `path: detail`.
        public var description: String { "\(path): \(detail)" }
    }

    /// Checks the registry: the records, the defaults, the apps' declarations against each other, every
    /// registered app's container (all its directories there, private), temporaries left by crashes.
    /// With `repairing`, first puts right what can be put right, under the lock: drops unreadable records
    /// and orphan defaults, finishes pending removals, remakes missing container directories, makes them
    /// private, removes abandoned temporaries (`repairs` says what was done); `problems` is then what
    /// remains, which needs a person (an app whose declarations conflict, a directory that is a file).
    public func check(repairing: Bool) throws(RegistryError) -> (problems: [Problem], repairs: [Problem]) {
        var repairs: [Problem] = []
        if repairing {
            let outcome = try change { state, rootDirectory throws(RegistryError) in
                var done: [Problem] = []
                for record in state.records {
                    let before = inspectContainer(record.container, bundleIdentifier: record.bundleIdentifier)
                    if !before.isEmpty {
                        do throws(RegistryError) {
                            try makeContainer(record.container, in: rootDirectory)
                            done += before.map { Problem($0.kind, path: $0.path, bundleIdentifier: $0.bundleIdentifier, detail: "repaired: " + $0.detail) }
                        } catch {
                            // Reported by the check below.
                        }
                    }
                    done += DeliveryTemporaries.removeAbandoned(inContainer: containerPath(of: registeredApp(record)))
                }
                for kind in SharedSpace.allCases {
                    for (space, _) in state.spaces(kind) {
                        let before = inspectSharedSpace(kind, space.identifier)
                        guard !before.isEmpty, (try? makeSharedSpace(kind, space.identifier, in: rootDirectory)) != nil else { continue }
                        done += before.map { Problem($0.kind, path: $0.path, bundleIdentifier: $0.bundleIdentifier, detail: "repaired: " + $0.detail) }
                    }
                }
                return done
            }
            repairs = outcome.repairs + outcome.result
        }
        var snapshot = try snapshot()
        snapshot.problems += registerDeclarations(of: snapshot.apps, in: Self.databaseWithSystemDeclarations())
        for app in snapshot.apps {
            snapshot.problems += inspectContainer(app.containerName, bundleIdentifier: app.bundleIdentifier)
            snapshot.problems += DeliveryTemporaries.abandoned(inContainer: containerPath(of: app)).map { path in
                Problem(.abandonedTemporary, path: path, bundleIdentifier: app.bundleIdentifier, detail: "a delivery a crash interrupted")
            }
        }
        let state = try readState()
        for kind in SharedSpace.allCases {
            for (space, _) in state.spaces(kind) { snapshot.problems += inspectSharedSpace(kind, space.identifier) }
        }
        let leftovers = state.leftovers
        for directory in ["Containers"] + SharedSpace.allCases.map({ $0.parent.joined(separator: "/") }) {
            guard let containers = try? FileDescriptor.open(root + "/" + directory, .readOnly, options: [.directory, .noFollow]) else { continue }
            for entry in (try? containers.directoryEntries()) ?? [] where entry.starts(with: Array(Self.removingPrefix.utf8)) {
                let relative = directory + "/" + String(decoding: entry, as: UTF8.self)
                let detail = leftovers.first { $0.path == relative }.map { "what is left of a deleted container could not be removed (\($0.reason)); tried again by every change" }
                snapshot.problems.append(Problem(.leftoverRemoval, path: root + "/" + directory + "/" + RawFilePath(bytes: entry).escaped,
                                                 detail: detail ?? "what is left of a deleted container, removed by the next change"))
            }
            containers.closeQuietly()
        }
        if (try? FileDescriptor.workingDirectory.status(of: root + "/Apps")) != nil {
            snapshot.problems.append(Problem(.legacyManifests, path: root + "/Apps", detail: "the manifests of a version-1 registry, removed by the next change"))
        }
        return (snapshot.problems, repairs)
    }

    /// What is wrong with a container's directories: each must be a directory (not a link), private.
    func inspectContainer(_ name: String, bundleIdentifier: String) -> [Problem] {
        inspect(root + "/Containers/" + name, directories: Self.containerDirectories, bundleIdentifier: bundleIdentifier)
    }

    /// What is wrong with a shared space's directories (an application group's container, an iCloud container,
    /// a key-value store's directory), as `inspectContainer`.
    func inspectSharedSpace(_ kind: SharedSpace, _ identifier: String) -> [Problem] {
        inspect(sharedSpacePath(kind, identifier), directories: kind.subdirectories, bundleIdentifier: nil)
    }

    private func inspect(_ base: String, directories: [String], bundleIdentifier: String?) -> [Problem] {
        var problems: [Problem] = []
        for directory in [""] + directories {
            let path = directory.isEmpty ? base : base + "/" + directory
            guard let status = try? FileDescriptor.workingDirectory.status(of: path), status.type == .directory else {
                problems.append(Problem(.missingContainer, path: path, bundleIdentifier: bundleIdentifier, detail: "missing, or not a directory"))
                continue
            }
            if status.permissions.rawValue & 0o077 != 0 {
                problems.append(Problem(.containerPermissions, path: path, bundleIdentifier: bundleIdentifier,
                                        detail: "readable by others (mode \(String(status.permissions.rawValue & 0o777, radix: 8))), not 700"))
            }
        }
        return problems
    }
}

/// The kinds of `Registry.Problem`.
extension ErrorKind where Domain == Registry.Problem {
    /// A record of the state file (or a version-1 registry's manifest) that cannot be read; the
    /// other apps are served.
    public static let unreadableRecord: Self = "unreadable-record"
    /// The same bundle identifier (in another case) registered twice.
    public static let duplicateApp: Self = "duplicate-app"
    /// A default handler naming an app that is not registered.
    public static let orphanDefault: Self = "orphan-default"
    /// A container whose deletion was decided and not finished (a crash, an undeletable file).
    public static let pendingRemoval: Self = "pending-removal"
    /// An app whose type declarations do not fit the others'; it is served without them.
    public static let conflictingDeclarations: Self = "conflicting-declarations"
    /// An app's exported type declaration that is not in force: a type the system declares, or one
    /// another app exported first. Lookups and routing use the declaration in force.
    public static let ignoredDeclaration: Self = "ignored-declaration"
    /// What is left of a deleted container that could not be removed yet; retried by every change.
    public static let leftoverRemoval: Self = "leftover-removal"

    /// A version-1 registry's `Apps/` directory.
    public static let legacyManifests: Self = "legacy-manifests"
    /// A temporary file a crash left behind.
    public static let abandonedTemporary: Self = "abandoned-temporary"
    /// A registered app's container, or one of its directories, is missing or not a directory.
    public static let missingContainer: Self = "missing-container"
    /// A container directory others may read.
    public static let containerPermissions: Self = "container-permissions"
}
