import ArgumentParser
import DocumentRouting
import FileIdentification
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension UTI {
    struct Route: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hand files to the app that handles their type: a copy in its Documents/Inbox.",
            discussion: """
                Identifies each file, chooses its handler (see `uti handlers`) and delivers a read-only copy into \
                the app's Documents/Inbox under the file's own name (name-1.ext, name-2.ext ... when taken), \
                atomically: never overwriting, never half-written, never outside the container. Exit status: 0 \
                when every file was delivered, 3 when a file had no handler (nothing delivered for it), 1 on \
                another error, 2 on a broken registry.
                """
        )

        @OptionGroup var registryOptions: RegistryOptions

        @Option(name: .customLong("to"), help: ArgumentHelp("Deliver to this app (it must open the file's type).", valueName: "bundle-id"))
        var target: String?

        @Flag(help: "Remove each source once its copy is delivered and durable.")
        var move = false

        @Flag(name: .customLong("in-place"), help: "Hand the file where it is to an app that opens documents in place (LSSupportsOpeningDocumentsInPlace), without a copy.")
        var inPlace = false

        @Flag(help: "Route every regular file under the directories given.")
        var recursive = false

        @Option(help: "editor or viewer: prefer apps in that role.")
        var role: RoleArgument?

        @Option(help: ArgumentHelp("The name to deliver under (with one file, or - for standard input).", valueName: "name"))
        var name: String?

        @Flag(help: "One JSON object per line per file.")
        var json = false

        @Argument(help: "Files (or directories with --recursive); - reads standard input (with --name).")
        var paths: [String]

        func validate() throws {
            if paths.isEmpty { throw ValidationError("Give at least one file.") }
            if inPlace && move { throw ValidationError("--in-place and --move cannot be combined.") }
            if name != nil && (paths.count != 1 || recursive) { throw ValidationError("--name goes with exactly one file.") }
            if paths.contains("-") && (name == nil || inPlace || move) { throw ValidationError("- (standard input) needs --name, and cannot be moved or opened in place.") }
        }

        func run() throws {
            // A write past RLIMIT_FSIZE must fail with EFBIG, not kill the process halfway.
            signal(SIGXFSZ, SIG_IGN)
            let (registry, apps) = try registryOptions.loadedRegistry()
            let defaults = try reporting { try registry.defaults() }
            if let target, !apps.contains(where: { $0.bundleIdentifier == target }) {
                Terminal.error("'\(target)' is not registered")
                throw ExitCode(2)
            }
            var router = Router(registry: registry, apps: apps, defaults: defaults, target: target, role: role?.role,
                                move: move, inPlace: inPlace, name: name, json: json)
            let identifier = FileIdentifier()
            if recursive {
                let classification = identifier.classify(directories: paths.map(RawArguments.path(for:)), options: .init(sorted: true))
                classification.forEachBatch { batch in
                    for entry in batch {
                        switch entry.result {
                        case .success(let identification) where identification.fileSize != nil && identification.evidence.rule != .fileSystem:
                            router.route(entry.path, identification)
                        case .success:
                            continue
                        case .failure(let error):
                            router.fail(entry.path.escaped, error.message, status: 1)
                        }
                    }
                    return true
                }
            } else {
                for argument in paths {
                    if argument == "-" {
                        router.routeStandardInput(identifier)
                        continue
                    }
                    let path = RawArguments.path(for: argument)
                    do {
                        router.route(path, try identifier.identify(fileAt: path))
                    } catch {
                        router.fail(path.escaped, error.message, status: 1)
                    }
                }
            }
            router.finish()
            if router.status != 0 { throw ExitCode(router.status) }
        }
    }
}

/// Chooses handlers and delivers, printing one line (or JSON object) per file, and a summary per app
/// for a recursive route.
struct Router {
    let registry: Registry
    let apps: [Registry.RegisteredApp]
    let defaults: [Registry.DefaultHandler]
    let target: String?
    let role: AppManifest.DocumentType.Role?
    let move: Bool
    let inPlace: Bool
    let name: String?
    let json: Bool
    var status: Int32 = 0
    var delivered: [String: (files: Int, bytes: Int)] = [:]

    /// The handler for a type, or nil after reporting why there is none (exit status 3).
    private mutating func handler(for type: UTType, shown: String) -> Registry.RegisteredApp? {
        let candidates = HandlerChoice.candidates(for: type, apps: apps, defaults: defaults, role: role)
        if let target {
            if let chosen = candidates.first(where: { $0.bundleIdentifier == target }) { return chosen.app }
            fail(shown, "\(target) does not open \(type.identifier); nothing delivered", status: 3, type: type)
            return nil
        }
        guard let best = candidates.first else {
            fail(shown, "no registered app opens \(type.identifier); nothing delivered", status: 3, type: type)
            return nil
        }
        return best.app
    }

    mutating func route(_ path: RawFilePath, _ identification: Identification) {
        let shown = path.escaped
        guard let app = handler(for: identification.type, shown: shown) else { return }
        if inPlace {
            guard app.manifest.supportsOpeningDocumentsInPlace else {
                fail(shown, "\(app.bundleIdentifier) does not open documents in place (LSSupportsOpeningDocumentsInPlace); nothing handed over", status: 3, type: identification.type)
                return
            }
            report(shown, identification.type, app.bundleIdentifier, location: absolute(shown), copied: false, size: identification.fileSize)
            return
        }
        do {
            let delivery = try Inbox(registry: registry, bundleIdentifier: app.bundleIdentifier).deliver(path, as: name, move: move)
            report(shown, identification.type, app.bundleIdentifier, location: delivery.path, copied: true, size: identification.fileSize)
        } catch {
            fail(shown, error.description, status: 1, type: identification.type)
        }
    }

    mutating func routeStandardInput(_ identifier: FileIdentifier) {
        let data = StandardInput.read()
        guard let name else { return }
        let identification: Identification
        do {
            identification = try identifier.identify(data: data, filename: name)
        } catch {
            fail("-", error.message, status: 1)
            return
        }
        guard let app = handler(for: identification.type, shown: "-") else { return }
        do {
            let delivery = try Inbox(registry: registry, bundleIdentifier: app.bundleIdentifier).deliver(contents: data, as: name)
            report("-", identification.type, app.bundleIdentifier, location: delivery.path, copied: true, size: data.count)
        } catch {
            fail("-", error.description, status: 1)
        }
    }

    mutating func fail(_ path: String, _ message: String, status: Int32, type: UTType? = nil) {
        Terminal.error("\(path): \(message)")
        if json {
            print(JSONValue.object([("path", .string(path)), ("identifier", JSONValue(type?.identifier)), ("handler", .null),
                                    ("delivered", .null), ("error", .string(message))]).rendered)
        }
        // A missing handler (3) gives way to any other error (1).
        if self.status == 0 || status == 1 { self.status = status }
    }

    private mutating func report(_ path: String, _ type: UTType, _ handler: String, location: String, copied: Bool, size: Int?) {
        delivered[handler, default: (0, 0)].files += 1
        delivered[handler, default: (0, 0)].bytes += size ?? 0
        if json {
            print(JSONValue.object([
                ("path", .string(path)), ("identifier", .string(type.identifier)), ("handler", .string(handler)),
                ("delivered", .string(location)), ("inPlace", .boolean(!copied)), ("moved", .boolean(move && copied)), ("error", .null),
            ]).rendered)
        } else {
            print("\(path) -> \(handler): \(location)\(copied ? "" : " (in place)")")
        }
    }

    private func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let directory = getcwd(nil, 0) else { return path }
        defer { free(directory) }
        return String(cString: directory) + "/" + path
    }

    func finish() {
        guard delivered.count > 0, !json, delivered.values.reduce(0, { $0 + $1.files }) > 1 else { return }
        for (handler, tally) in delivered.sorted(by: { $0.key < $1.key }) {
            print("\(handler): \(Tally.grouped(tally.files)) file\(tally.files == 1 ? "" : "s"), \(Tally.size(tally.bytes))")
        }
    }
}
