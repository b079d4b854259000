import UTIReports
import ArgumentParser
import AppContainers
import DocumentRouting
import FileIdentification
import UniformTypeIdentifiers
import SystemCalls
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

extension UTI {
    struct Route: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "route",
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

        @Flag(help: "Route every regular file under the directories given (walked through directory descriptors; links in them are never followed, names starting with a dot are left out).")
        var recursive = false

        @Flag(name: [.customShort("L"), .customLong("follow")], help: "Route the file a symbolic link given points to (without it, a link is refused). With --move, the link is removed, not its target.")
        var follow = false

        @Option(help: "editor or viewer: prefer apps in that role.")
        var role: RoleArgument?

        @Option(help: ArgumentHelp("The name to deliver under (with one file, or - for standard input).", valueName: "name"))
        var name: String?

        @Flag(help: "One JSON object per line per file.")
        var json = false

        @Argument(help: "Files (or directories with --recursive); - reads standard input (with --name).", completion: .file())
        var paths: [String]

        func validate() throws {
            if paths.isEmpty { throw ValidationError("Give at least one file.") }
            if inPlace && move { throw ValidationError("--in-place and --move cannot be combined.") }
            if name != nil && (paths.count != 1 || recursive) { throw ValidationError("--name goes with exactly one file.") }
            if paths.contains("-") && (name == nil || inPlace || move) { throw ValidationError("- (standard input) needs --name, and cannot be moved or opened in place.") }
        }

        func run() throws {
            let router: DocumentRouter
            do {
                router = try DocumentRouter(registry: registryOptions.registry, identifier: FileIdentifier(options: .init(followSymlinks: follow)))
            } catch {
                Terminal.error(error.description)
                throw ExitCode(2)
            }
            warn(router.problems)
            if let target, !router.isRegistered(target) {
                Terminal.error("'\(target)' is not registered")
                throw ExitCode(2)
            }
            let options = DocumentRouter.Options(target: target, role: role?.role, move: move, inPlace: inPlace, followsSymbolicLinks: follow)
            let deliveredName = name.map(RawArguments.path(for:))
            var report = RouteReport(json: json)
            if recursive {
                router.route(treesAt: paths.map(RawArguments.path(for:)), options: options) { result in
                    report.add(result)
                    return true
                }
            } else {
                for argument in paths {
                    if argument == "-" {
                        // Gathered as an upload is (its first MiB in memory, the rest in a private temporary file).
                        let contents: SpooledBytes
                        do throws(Errno) {
                            contents = try StandardInput.spool()
                        } catch {
                            Terminal.error("standard input: \(error)")
                            throw ExitCode(2)
                        }
                        // A copy is never more readable than its source: standard input's own permissions.
                        let permissions = (try? FileDescriptor.standardInput.status().permissions) ?? .ownerRead
                        report.add(Result { () throws(RoutingError) in
                            try router.route(contents: contents, named: deliveredName ?? "-", permissions: permissions, options: options)
                        })
                        continue
                    }
                    let path = RawArguments.path(for: argument)
                    report.add(Result { () throws(RoutingError) in try router.route(fileAt: path, as: deliveredName, options: options) })
                }
            }
            report.finish()
            if report.status != 0 { throw ExitCode(report.status) }
        }
    }
}

/// Prints one line (or JSON object) per routed file, and a summary per app for several files; keeps the
/// exit status: 3 when a file had no handler, 1 on any other error (which outranks 3).
struct RouteReport {
    let json: Bool
    var status: Int32 = 0
    var delivered: [String: (files: Int, bytes: Int)] = [:]

    mutating func add(_ result: Result<DocumentRouter.Outcome, RoutingError>) {
        switch result {
        case .success(let outcome):
            delivered[outcome.handler, default: (0, 0)].files += 1
            delivered[outcome.handler, default: (0, 0)].bytes += outcome.size ?? 0
            if json {
                Terminal.output(JSONValue.object([
                    ("path", .string(outcome.source)), ("identifier", .string(outcome.type.identifier)), ("handler", .string(outcome.handler)),
                    ("delivered", .string(outcome.location.escaped)), ("inPlace", .boolean(outcome.disposition == .inPlace)),
                    ("moved", .boolean(outcome.disposition == .moved)), ("error", .null),
                ]).rendered)
            } else {
                Terminal.output("\(outcome.source) -> \(outcome.handler): \(outcome.location.escaped)\(outcome.disposition == .inPlace ? " (in place)" : "")")
            }
        case .failure(let error):
            Terminal.error(error.description)
            if json {
                Terminal.output(JSONValue.object([("path", .string(error.path)), ("identifier", JSONValue(error.type?.identifier)), ("handler", .null),
                                        ("delivered", .null), ("error", .string(error.message))]).rendered)
            }
            let noHandler: [RoutingError.Reason.Kind] = [.noHandler, .targetDoesNotOpen, .notOpenedInPlace]
            // A missing handler (3) gives way to any other error (1).
            if noHandler.contains(error.reason.kind) {
                if status == 0 { status = 3 }
            } else {
                status = 1
            }
        }
    }

    func finish() {
        guard delivered.count > 0, !json, delivered.values.reduce(0, { $0 + $1.files }) > 1 else { return }
        for (handler, tally) in delivered.sorted(by: { $0.key < $1.key }) {
            Terminal.output("\(handler): \(Tally.grouped(tally.files)) file\(tally.files == 1 ? "" : "s"), \(Tally.size(tally.bytes))")
        }
    }
}
