import ArgumentParser
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

    /// The registry and its apps, their type declarations loaded; exits 2 on a broken registry.
    func loadedRegistry() throws -> (registry: Registry, apps: [Registry.RegisteredApp]) {
        let registry = self.registry
        do {
            return (registry, try registry.loadDeclarations())
        } catch {
            Terminal.error(error.description)
            throw ExitCode(2)
        }
    }
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
            abstract: "Register apps (their Info.plist) and their sandbox containers.",
            subcommands: [Register.self, List.self, Show.self, Unregister.self]
        )

        struct Register: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Register an app bundle (Name.app with Info.plist or Contents/Info.plist) or a bare Info.plist, XML or binary.",
                discussion: "Makes the app's container and adds its document types and type declarations. Registering again updates the app; its data stays."
            )
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The app bundle or Info.plist.") var path: String

            func run() throws {
                let manifest = try reporting { try registryOptions.registry.register(appAt: path) }
                let count = manifest.documentTypes.count
                print("registered \(manifest.bundleIdentifier) (\(manifest.name)): \(count) document type\(count == 1 ? "" : "s"), container \(registryOptions.registry.containerPath(manifest.bundleIdentifier))")
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List the registered apps.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "One JSON object per line.") var json = false

            func run() throws {
                for app in try reporting({ try registryOptions.registry.apps() }) {
                    if json {
                        print(AppReport(app, registry: registryOptions.registry).json.rendered)
                    } else {
                        print(app.bundleIdentifier.padding(40) + app.manifest.name)
                    }
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show a registered app: document types, declared types, container.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "Print JSON.") var json = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let app = try reporting { try registryOptions.registry.app(bundleIdentifier) }
                let report = AppReport(app, registry: registryOptions.registry)
                print(json ? report.json.rendered : report.text)
            }
        }

        struct Unregister: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Unregister an app; its container's data stays unless --delete-data.")
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(name: .customLong("delete-data"), help: "Delete the app's container too.") var deleteData = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                try reporting { try registryOptions.registry.unregister(bundleIdentifier, deleteData: deleteData) }
                print("unregistered \(bundleIdentifier)" + (deleteData ? " and deleted its container" : "; its container stays"))
            }
        }
    }

    struct Handlers: ParsableCommand {
        static let configuration = CommandConfiguration(
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
            let (registry, apps) = try registryOptions.loadedRegistry()
            let type = try RouteTarget.type(of: target)
            let candidates = try reporting { HandlerChoice.candidates(for: type, apps: apps, defaults: try registry.defaults(), role: role?.role) }
            guard !candidates.isEmpty else {
                Terminal.error("no registered app opens \(type.identifier)")
                throw ExitCode(3)
            }
            for candidate in candidates {
                print(explain ? "\(candidate.bundleIdentifier): \(candidate.explanation)" : candidate.bundleIdentifier)
            }
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The user's default handlers, like LSSetDefaultRoleHandlerForContentType.",
            subcommands: [Set.self, Show.self, Unset.self]
        )

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Make an app the default for a type and its subtypes without a default of their own.")
            @OptionGroup var registryOptions: RegistryOptions
            @Option(help: "editor or viewer (default: any role).") var role: RoleArgument?
            @Argument(help: "The type identifier.") var type: String
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let registry = try registryOptions.loadedRegistry().registry
                let type = try RouteTarget.declaredType(type)
                try reporting { try registry.setDefault(type: type, role: role?.role, bundleIdentifier: bundleIdentifier) }
                print("\(type.identifier)\(role.map { " (\($0.role.rawValue))" } ?? ""): \(bundleIdentifier)")
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show the defaults (all, or those for a type).")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "A type identifier.") var type: String?

            func run() throws {
                for handler in try reporting({ try registryOptions.registry.defaults() })
                where type == nil || handler.type.lowercased() == type?.lowercased() {
                    print("\(handler.type)\(handler.role.map { " (\($0))" } ?? ""): \(handler.bundleIdentifier)")
                }
            }
        }

        struct Unset: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a default.")
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
            static let configuration = CommandConfiguration(abstract: "List an app's Inbox.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let inbox = Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier)
                for entry in try reporting({ try inbox.list() }) {
                    print(String(entry.size).leftPadded(12) + "  " + entry.name)
                }
            }
        }

        struct Claim: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Move a file out of the Inbox into Documents/ and make it writable, as an app does before editing it.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String
            @Argument(help: "The file's name in the Inbox.") var name: String

            func run() throws {
                let inbox = Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier)
                print(try reporting(status: 1) { try inbox.claim(name) })
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a file from the Inbox.")
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String
            @Argument(help: "The file's name in the Inbox.") var name: String

            func run() throws {
                try reporting(status: 1) { try Inbox(registry: registryOptions.registry, bundleIdentifier: bundleIdentifier).remove(name) }
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
            Terminal.error("unknown type identifier '\(identifier)'")
            throw ExitCode(2)
        }
        return type
    }
}

/// `uti apps show`.
struct AppReport {
    let app: Registry.RegisteredApp
    let registry: Registry

    init(_ app: Registry.RegisteredApp, registry: Registry) {
        self.app = app
        self.registry = registry
    }

    var json: JSONValue {
        let manifest = app.manifest
        return .object([
            ("bundleIdentifier", .string(manifest.bundleIdentifier)),
            ("name", .string(manifest.name)),
            ("container", .string(registry.containerPath(manifest.bundleIdentifier))),
            ("supportsOpeningDocumentsInPlace", .boolean(manifest.supportsOpeningDocumentsInPlace)),
            ("fileSharingEnabled", .boolean(manifest.fileSharingEnabled)),
            ("documentTypes", .array(manifest.documentTypes.map { type in
                .object([
                    ("name", JSONValue(type.name)),
                    ("contentTypes", JSONValue(type.claimedTypes.map(\.identifier))),
                    ("role", .string(type.role.rawValue)),
                    ("rank", .string(type.rank.rawValue)),
                ])
            })),
            ("declaredTypes", JSONValue(manifest.declarations.map(\.identifier))),
        ])
    }

    var text: String {
        let manifest = app.manifest
        var lines = ["\(manifest.bundleIdentifier) (\(manifest.name))", "  container:   \(registry.containerPath(manifest.bundleIdentifier))"]
        if manifest.supportsOpeningDocumentsInPlace { lines.append("  opens documents in place") }
        if manifest.fileSharingEnabled { lines.append("  shares its Documents folder") }
        for type in manifest.documentTypes {
            lines.append("  handles:     \(type.claimedTypes.map(\.identifier).joined(separator: ", ")) (\(type.role.rawValue), \(type.rank.rawValue))\(type.name.map { " \"\($0)\"" } ?? "")")
        }
        for declaration in manifest.declarations {
            lines.append("  declares:    \(declaration.identifier) (\(declaration.kind.rawValue))")
        }
        return lines.joined(separator: "\n")
    }
}
