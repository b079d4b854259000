import UTIReports
import ArgumentParser
import AppContainers
import DocumentRouting
import FileIdentification
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Where the registry lives.
struct RegistryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The registry root (default: $UTI_ROOT, else $XDG_DATA_HOME/uti, else ~/.local/share/uti).", valueName: "dir"))
    var root: String?

    var registry: Registry { Registry(root: root ?? Registry.defaultRoot()) }

    /// The registry and what it holds, its apps' type declarations loaded; what is wrong with it is
    /// printed as warnings (the intact apps are served); exits 2 when the registry cannot be read at all.
    func loadedRegistry() throws -> (registry: Registry, snapshot: Registry.Snapshot) {
        let registry = self.registry
        do {
            let snapshot = try registry.loadDeclarations()
            warn(snapshot.problems)
            return (registry, snapshot)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(2)
        }
    }
}

/// Prints what is wrong with the registry as warnings, with the way to repair it.
func warn(_ problems: [Registry.Problem]) {
    for problem in problems { Terminal.warning(problem.description) }
    if !problems.isEmpty { Terminal.warning("`uti apps check --repair` repairs what can be repaired") }
}

/// `--role editor|viewer`.
enum RoleArgument: String, ExpressibleByArgument, CaseIterable {
    case editor, viewer

    var role: AppManifest.DocumentType.Role { self == .editor ? .editor : .viewer }
}

/// Runs `body`, printing a registry or delivery error and exiting with `status` when it throws one.
func reporting<R>(status: Int32 = 2, _ body: () throws -> R) throws -> R {
    do {
        return try body()
    } catch let error as RegistryError {
        Terminal.error(error.description)
        throw ExitCode(status)
    } catch let error as DeliveryError {
        Terminal.error(error.description)
        throw ExitCode(status)
    }
}

extension UTI {
    struct Apps: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apps",
            abstract: "Register apps (their Info.plist) and their sandbox containers.",
            subcommands: [Register.self, List.self, Show.self, Container.self, Groups.self, RemoveGroup.self, Unregister.self, Check.self, RunLockCommand.self]
        )

        struct Register: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "register",
                abstract: "Register an app bundle (Name.app with Info.plist or Contents/Info.plist) or a bare Info.plist, XML or binary.",
                discussion: "Makes the app's container and adds its document types and type declarations. Registering again updates the app; its data stays."
            )
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The app bundle or Info.plist.", completion: .file()) var path: String

            func run() throws {
                let registry = registryOptions.registry
                let registration = try reporting { try registry.register(appAt: path) }
                let manifest = registration.manifest
                for warning in registration.warnings { Terminal.warning(warning.description) }
                let count = manifest.documentTypes.count
                let container = (try? registry.containerPath(manifest.bundleIdentifier)) ?? "?"
                Terminal.output("registered \(manifest.bundleIdentifier) (\(manifest.name)): \(count) document type\(count == 1 ? "" : "s"), container \(container)")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the registered apps.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "One JSON object per line.") var json = false

            func run() throws {
                let snapshot = try reporting { try registryOptions.registry.snapshot() }
                warn(snapshot.problems)
                for app in snapshot.apps {
                    if json {
                        Terminal.output(AppReport(app, registry: registryOptions.registry).json.rendered)
                    } else {
                        Terminal.output(app.bundleIdentifier.padding(40) + app.manifest.name)
                    }
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a registered app: document types, declared types, container.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "Print JSON.") var json = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let app = try reporting { try registryOptions.registry.app(bundleIdentifier) }
                let report = AppReport(app, registry: registryOptions.registry)
                if json {
                    Terminal.output(report.json.rendered)
                } else {
                    report.lines.forEach(Terminal.output)
                }
            }
        }

        struct Container: ParsableCommand {
            enum Directory: String, EnumerableFlag {
                case documents, inbox, library, caches, support, tmp

                var containerDirectory: Registry.ContainerDirectory {
                    switch self {
                    case .documents: .documents
                    case .inbox: .inbox
                    case .library: .library
                    case .caches: .caches
                    case .support: .applicationSupport
                    case .tmp: .temporary
                    }
                }

                static func help(for value: Directory) -> ArgumentHelp? {
                    switch value {
                    case .documents: "Documents/, the user's documents."
                    case .inbox: "Documents/Inbox/, where routed files are delivered."
                    case .library: "Library/."
                    case .caches: "Library/Caches/, what can be made again (not backed up)."
                    case .support: "Library/Application Support/."
                    case .tmp: "tmp/."
                    }
                }
            }

            static let configuration = CommandConfiguration(
                commandName: "container",
                abstract: "Print where a registered app's container, or one of its directories, is.",
                discussion: """
                    For scripts: the path, one line, as uti made it (exit status 2 for an app not registered). With \
                    --group, the shared container of an application group the app belongs to (its manifest's \
                    com.apple.security.application-groups names it); for any other app, exit status 2. With \
                    --ubiquity, one of the app's iCloud containers (its manifest's \
                    com.apple.developer.icloud-container-identifiers or ubiquity-container-identifiers): the one \
                    named after it, else the first listed (exit status 2 for an app that names none).
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(exclusivity: .exclusive) var directory: Directory?
            @Option(help: ArgumentHelp("The shared container of this application group instead (Library/, Library/Caches/ and Library/Application Support/ in it).",
                                       valueName: "group"))
            var group: String?
            @Flag(help: "An iCloud container of the app instead (Documents/ in it): CONTAINER, or the app's first.")
            var ubiquity = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String
            @Argument(help: ArgumentHelp("With --ubiquity: the iCloud container (iCloud.com.example.app).", valueName: "container"))
            var container: String?

            func validate() throws {
                if group != nil, let directory, ![.library, .caches, .support].contains(directory) {
                    throw ValidationError("--\(directory.rawValue) is not a directory of a group's shared container (it has --library, --caches and --support).")
                }
                if container != nil && !ubiquity { throw ValidationError("A container is named only with --ubiquity.") }
                if ubiquity && group != nil { throw ValidationError("--ubiquity and --group cannot be combined.") }
                if ubiquity, let directory, directory != .documents {
                    throw ValidationError("--\(directory.rawValue) is not a directory of an iCloud container (it has --documents).")
                }
            }

            func run() throws {
                let registry = registryOptions.registry
                let path = try reporting { () throws -> String in
                    if ubiquity {
                        let found = try registry.path(ofUbiquityContainer: container, for: bundleIdentifier)
                        return directory == .documents ? found + "/Documents" : found
                    }
                    guard let group else {
                        return try registry.path(of: directory?.containerDirectory ?? .container, for: bundleIdentifier)
                    }
                    let shared = try registry.path(ofGroup: group, for: bundleIdentifier)
                    return directory.map { shared + "/" + $0.containerDirectory.rawValue } ?? shared
                }
                Terminal.output(path)
            }
        }

        struct Groups: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "groups",
                abstract: "List the application groups: the shared container and the members of each, and orphaned groups.",
                discussion: """
                    A group is orphaned when no registered app is a member: its shared container stays (an app \
                    unregistered with its data kept, or registered again without the group, may hold data in it) \
                    until `uti apps remove-group` removes it.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "One JSON object per line.") var json = false

            func run() throws {
                let groups = try reporting { try registryOptions.registry.applicationGroups() }
                for group in groups {
                    if json {
                        Terminal.output(JSONValue.object([
                            ("identifier", .string(group.identifier)), ("path", .string(group.path)),
                            ("members", JSONValue(group.members)), ("team", JSONValue(group.team)),
                            ("keptBy", JSONValue(group.keptBy)), ("orphaned", .boolean(group.isOrphaned)),
                        ]).rendered)
                    } else {
                        let who = group.isOrphaned
                            ? "orphaned" + (group.keptBy.isEmpty ? "" : "; data kept by " + group.keptBy.joined(separator: ", "))
                            : group.members.joined(separator: ", ")
                        Terminal.output(group.identifier.padding(40) + group.path + "  (" + who + ")")
                    }
                }
            }
        }

        struct RemoveGroup: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove-group",
                abstract: "Remove an orphaned application group and its shared container, with what is in it.",
                discussion: "Refused (exit status 2) while a registered app is a member of the group.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The application group.") var group: String

            func run() throws {
                try reporting { try registryOptions.registry.removeApplicationGroup(group) }
                Terminal.output("removed the application group \(group) and its shared container")
            }
        }

        struct Unregister: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "unregister", abstract: "Unregister an app; its container's data stays unless --delete-data.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(name: .customLong("delete-data"), help: "Delete the app's container too.") var deleteData = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let warnings = try reporting { try registryOptions.registry.unregister(bundleIdentifier, deleteData: deleteData) }
                for warning in warnings { Terminal.warning(warning.description) }
                Terminal.output("unregistered \(bundleIdentifier)" + (deleteData ? " and deleted its container" : "; its container stays"))
            }
        }

        struct Check: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "check",
                abstract: "Check the registry: its records, defaults, declarations, containers and what crashes left behind.",
                discussion: "Prints one line per problem and exits 1 when there is any (0 when there is none). With --repair, first repairs what can be repaired (prints what it did) and reports only what is left."
            )
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "Repair what can be repaired: drop unreadable records and orphan defaults, finish deletions, remake container directories and make them private, remove abandoned temporaries.")
            var repair = false

            func run() throws {
                let (problems, repairs) = try reporting { try registryOptions.registry.check(repairing: repair) }
                for repaired in repairs { Terminal.output("repaired: \(repaired)") }
                for problem in problems { Terminal.output("\(problem.kind): \(problem)") }
                if !problems.isEmpty { throw ExitCode(1) }
            }
        }
    }

    struct Handlers: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "handlers",
            abstract: "List the apps that can open a file or a type, best first.",
            discussion: """
                The order: a user default for the type or its nearest supertype; then apps claiming the most \
                specific type (public.jpeg before public.image before public.data); then rank Owner, Default, \
                Alternate (None never opens); then Editor before Viewer (the asked role first); then registration order.
                """
        )
        @OptionGroup var registryOptions: RegistryOptions
        @Flag(help: "Say why each app is where it is.") var explain = false
        @Option(help: "editor or viewer.") var role: RoleArgument?
        @Argument(help: "A file, or a type identifier.") var target: String

        func run() throws {
            let snapshot = try registryOptions.loadedRegistry().snapshot
            let type = try RouteTarget.type(of: target)
            let candidates = HandlerChoice.candidates(for: type, apps: snapshot.apps, defaults: snapshot.defaults, role: role?.role)
            guard !candidates.isEmpty else {
                Terminal.error("no registered app opens \(type.identifier)")
                throw ExitCode(3)
            }
            for candidate in candidates {
                Terminal.output(explain ? "\(candidate.bundleIdentifier): \(candidate.explanation)" : candidate.bundleIdentifier)
            }
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default",
            abstract: "The user's default handlers, like LSSetDefaultRoleHandlerForContentType.",
            subcommands: [Set.self, Show.self, Unset.self]
        )

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set", abstract: "Make an app the default for a type and its subtypes without a default of their own.")
            @OptionGroup var registryOptions: RegistryOptions
            @Option(help: "editor or viewer (default: any role).") var role: RoleArgument?
            @Argument(help: "The type identifier.") var type: String
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let registry = try registryOptions.loadedRegistry().registry
                let type = try RouteTarget.declaredType(type)
                let warnings = try reporting { try registry.setDefault(type: type, role: role?.role, bundleIdentifier: bundleIdentifier) }
                for warning in warnings { Terminal.warning(warning.description) }
                Terminal.output("\(type.identifier)\(role.map { " (\($0.role.rawValue))" } ?? ""): \(bundleIdentifier)")
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the defaults (all, or those for a type).")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "A type identifier.") var type: String?

            func run() throws {
                for handler in try reporting({ try registryOptions.registry.defaults() })
                where type == nil || handler.type.lowercased() == type?.lowercased() {
                    Terminal.output("\(handler.type)\(handler.role.map { " (\($0))" } ?? ""): \(handler.bundleIdentifier)")
                }
            }
        }

        struct Unset: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "unset", abstract: "Remove a default.")
            @OptionGroup var registryOptions: RegistryOptions
            @Option(help: "editor or viewer (default: the any-role default).") var role: RoleArgument?
            @Argument(help: "The type identifier.") var type: String

            func run() throws {
                let registry = try registryOptions.loadedRegistry().registry
                let type = try RouteTarget.declaredType(type)
                guard try reporting({ try registry.unsetDefault(type: type, role: role?.role) }) else {
                    Terminal.error("no default for \(type.identifier)")
                    throw ExitCode(1)
                }
            }
        }
    }

    struct InboxCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inbox",
            abstract: "What an app finds in its Documents/Inbox, and what it does with it.",
            subcommands: [List.self, Claim.self, Remove.self]
        )

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List an app's Inbox.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let inbox = Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier)
                for entry in try reporting({ try inbox.list() }) {
                    Terminal.output(String(entry.size).leftPadded(12) + "  " + entry.name.escaped)
                }
            }
        }

        struct Claim: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "claim", abstract: "Move a file out of the Inbox into Documents/ and make it writable, as an app does before editing it.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String
            @Argument(help: "The file's name in the Inbox.") var name: String

            func run() throws {
                let inbox = Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier)
                Terminal.output(try reporting(status: 1) { try inbox.claim(RawArguments.path(for: name)) }.escaped)
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Delete a file from the Inbox.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String
            @Argument(help: "The file's name in the Inbox.") var name: String

            func run() throws {
                try reporting(status: 1) { try Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier).remove(RawArguments.path(for: name)) }
            }
        }
    }
}

/// The type `uti handlers` and `uti default` are asked about.
enum RouteTarget {
    /// A type identifier, or the type of the file at that path.
    static func type(of target: String) throws -> UTType {
        if let type = UTType(target), !target.contains("/") { return type }
        do {
            return try FileIdentifier().identify(fileAt: RawArguments.path(for: target)).type
        } catch {
            Terminal.error(error.description)
            throw ExitCode(2)
        }
    }

    static func declaredType(_ identifier: String) throws -> UTType {
        guard let type = UTType(identifier) else {
            Terminal.error(UnknownIdentifier.message(identifier))
            throw ExitCode(2)
        }
        return type
    }
}

