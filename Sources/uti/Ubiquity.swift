import UTIReports
import ArgumentParser
import AppContainers
import ContainerSync
import FileIdentification
import SystemCalls
import SystemPackage
import UniformTypeIdentifiers
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension UTI {
    struct Ubiquity: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ubiquity",
            abstract: "iCloud containers: what they hold, the key-value store, syncing them with any rclone remote.",
            discussion: """
                An app's manifest names its iCloud containers (com.apple.developer.icloud-container-identifiers, \
                ubiquity-container-identifiers) and key-value store (ubiquity-kvstore-identifier); \
                `uti apps container ID --ubiquity` prints where a container is. Exit status 2 for an app that is \
                not registered or names none.
                """,
            subcommands: [Usage.self, KeyValue.self, Sync.self, Conflicts.self]
        )

        struct Usage: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "usage",
                abstract: "What the app's iCloud containers hold, as the iCloud settings show it.",
                discussion: """
                    Each document under Documents/ (a file, or a package counted as one item) with its type and size, \
                    and everything else as one "data" entry with its total; a block per container, the primary first.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "One JSON object per container.") var json = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let registry = registryOptions.registry
                _ = try registryOptions.loadedRegistry()
                let usages = try reporting { try registry.ubiquityUsage(for: bundleIdentifier) }
                for usage in usages {
                    if json {
                        Terminal.output(JSONValue.object([
                            ("container", .string(usage.container)), ("path", .string(usage.path)),
                            ("documents", .array(usage.documents.map { document in
                                .object([("path", .string(document.path)), ("type", .string(document.type.identifier)),
                                         ("size", .integer(document.size)), ("package", .boolean(document.isPackage))])
                            })),
                            ("data", .integer(usage.dataSize)), ("total", .integer(usage.totalSize)),
                            ("unreadable", JSONValue(usage.unreadable)),
                        ]).rendered)
                        continue
                    }
                    Terminal.output("\(usage.container)  \(usage.path)")
                    for document in usage.documents {
                        let size = ByteCount.describe(Int64(document.size)) + (document.isPackage ? " (package)" : "")
                        Terminal.output("  " + document.path.padding(44) + " " + document.type.identifier.padding(36) + " " + size)
                    }
                    Terminal.output("  " + "data".padding(44) + " " + "".padding(36) + " " + ByteCount.describe(Int64(usage.dataSize)))
                    Terminal.output("  " + "total".padding(44) + " " + "".padding(36) + " " + ByteCount.describe(Int64(usage.totalSize)))
                    for problem in usage.unreadable { Terminal.warning("not counted: \(problem)") }
                }
            }
        }

        struct KeyValue: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "kv",
                abstract: "The app's iCloud key-value store: get, set, remove and list its values.",
                discussion: """
                    NSUbiquitousKeyValueStore's limits: at most 1,024 keys of at most 64 bytes of UTF-8, 1 MB of \
                    keys and values in all; a write that would break one is refused, naming it (exit status 2), and \
                    nothing is written.
                    """,
                subcommands: [Get.self, Set.self, Remove.self, List.self])

            struct Get: ParsableCommand {
                static let configuration = CommandConfiguration(commandName: "get", abstract: "Print a key's value (exit status 1 when it has none).")
                @OptionGroup var registryOptions: RegistryOptions
                @Flag(help: "Print the value as JSON.") var json = false
                @Argument(help: "The bundle identifier.") var bundleIdentifier: String
                @Argument(help: "The key.") var key: String

                func run() throws {
                    let store = try reporting { try registryOptions.registry.keyValueStore(for: bundleIdentifier) }
                    guard let value = try storing({ () throws(KeyValueStoreError) in try store.value(forKey: key) }) else {
                        Terminal.error("\(store.path): no value for '\(key)'")
                        throw ExitCode(1)
                    }
                    Terminal.output(json ? StoreValues.json(value).rendered : StoreValues.text(value))
                }
            }

            struct Set: ParsableCommand {
                enum Kind: String, ExpressibleByArgument, CaseIterable { case string, integer, real, boolean, date, data }

                static let configuration = CommandConfiguration(
                    commandName: "set",
                    abstract: "Set a key to a value: a string, or --type integer|real|boolean|date|data; --plist FILE for any value.",
                    discussion: "A date is ISO 8601 (2026-11-26T10:00:00Z); data is base64; a property-list file gives arrays and dictionaries.")
                @OptionGroup var registryOptions: RegistryOptions
                @Option(help: "What VALUE is.") var type: Kind = .string
                @Option(help: ArgumentHelp("A property-list file (XML or binary) whose top value is the value.", valueName: "file"))
                var plist: String?
                @Argument(help: "The bundle identifier.") var bundleIdentifier: String
                @Argument(help: "The key.") var key: String
                @Argument(help: "The value (without --plist).") var value: String?

                func validate() throws {
                    if (plist == nil) == (value == nil) { throw ValidationError("Give a VALUE or --plist FILE, not both.") }
                }

                func run() throws {
                    let parsed: UbiquitousKeyValueStore.Value
                    if let plist {
                        do {
                            parsed = try StoreValues.read(plist: plist)
                        } catch {
                            Terminal.error("\(plist): \(error)")
                            throw ExitCode(2)
                        }
                    } else if let value, let converted = StoreValues.parse(value, as: type) {
                        parsed = converted
                    } else {
                        throw ValidationError("'\(value ?? "")' is not a \(type.rawValue) value.")
                    }
                    let store = try reporting { try registryOptions.registry.keyValueStore(for: bundleIdentifier) }
                    try storing { () throws(KeyValueStoreError) in try store.set(parsed, forKey: key) }
                }
            }

            struct Remove: ParsableCommand {
                static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a key (exit status 1 when it had no value).")
                @OptionGroup var registryOptions: RegistryOptions
                @Argument(help: "The bundle identifier.") var bundleIdentifier: String
                @Argument(help: "The key.") var key: String

                func run() throws {
                    let store = try reporting { try registryOptions.registry.keyValueStore(for: bundleIdentifier) }
                    guard try storing({ () throws(KeyValueStoreError) in try store.removeValue(forKey: key) }) else { throw ExitCode(1) }
                }
            }

            struct List: ParsableCommand {
                static let configuration = CommandConfiguration(commandName: "list", abstract: "Print every key and its value, in key order.")
                @OptionGroup var registryOptions: RegistryOptions
                @Flag(help: "One JSON object: every key and its value.") var json = false
                @Argument(help: "The bundle identifier.") var bundleIdentifier: String

                func run() throws {
                    let store = try reporting { try registryOptions.registry.keyValueStore(for: bundleIdentifier) }
                    let values = try storing { () throws(KeyValueStoreError) in try store.values() }
                    let keys = values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                    if json {
                        Terminal.output(JSONValue.object(keys.compactMap { key in values[key].map { (key, StoreValues.json($0)) } }).rendered)
                    } else {
                        for key in keys { if let value = values[key] { Terminal.output("\(key) = \(StoreValues.text(value))") } }
                    }
                }
            }
        }

        struct Sync: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "sync",
                abstract: "Sync the app's iCloud containers and key-value store with an rclone remote, both ways.",
                discussion: """
                    REMOTE is any rclone remote and path (backup:uti, :sftp,host=…:uti) or an absolute directory. \
                    Two machines that sync through one remote converge. Extended attributes travel too; a file \
                    changed on both sides keeps both versions (`uti ubiquity conflicts`). Library/Caches, tmp/ and \
                    items excluded from backup are not synced. Killed at any point, the next sync finishes the \
                    work and loses nothing. Needs rclone (Debian's rclone package). Exit status 1 when rclone \
                    failed, 2 for an app, a remote or a store that is refused.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Option(help: ArgumentHelp("The rclone remote and path, or a directory.", valueName: "remote")) var remote: String
            @Option(help: ArgumentHelp("The rclone program (default: rclone on PATH, or $UTI_RCLONE).", valueName: "path")) var rclone: String?
            @Option(name: .customLong("rclone-config"), help: ArgumentHelp("An rclone configuration file.", valueName: "file"))
            var rcloneConfiguration: String?
            @Flag(help: "Sync a container that lost the sync's .uti-sync file since its last sync (wiped or replaced): its files go everywhere else too.")
            var force = false
            @Flag(help: "Print the summary as JSON.") var json = false
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let registry = registryOptions.registry
                let showProgress = isatty(STDERR_FILENO) == 1
                let engine = rclone ?? getenv("UTI_RCLONE").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "rclone"
                var progress: (@Sendable (UbiquitySync.Progress) -> Void)?
                if showProgress {
                    progress = { (report: UbiquitySync.Progress) in
                        let bytes = ByteCount.describe(Int64(report.bytes)) + " of " + ByteCount.describe(Int64(report.totalBytes))
                        let files = "\(report.transfers)/\(report.totalTransfers) files, "
                        Terminal.standardError("\r\u{1B}[K" + Terminal.safe(report.container) + ": " + files + bytes)
                    }
                }
                let options = UbiquitySync.Options(remote: remote, rclone: engine, rcloneConfiguration: rcloneConfiguration, force: force,
                                                   progress: progress)
                let summary: UbiquitySync.Summary
                do throws(SyncError) {
                    summary = try UbiquitySync(registry: registry).sync(bundleIdentifier, options: options)
                } catch {
                    if showProgress { Terminal.standardError("\r\u{1B}[K") }
                    Terminal.error(error.description)
                    throw ExitCode(error.kind == .engine || error.kind == .system ? 1 : 2)
                }
                if showProgress { Terminal.standardError("\r\u{1B}[K") }
                if json {
                    Terminal.output(JSONValue.object([
                        ("filesUp", .integer(summary.filesUp)), ("filesDown", .integer(summary.filesDown)),
                        ("deletedUp", .integer(summary.deletedUp)), ("deletedDown", .integer(summary.deletedDown)),
                        ("bytes", .integer(summary.bytes)), ("conflicts", .integer(summary.conflicts)),
                        ("attributesUp", .integer(summary.attributesUp)), ("attributesDown", .integer(summary.attributesDown)),
                        ("keysUp", .integer(summary.keysUp)), ("keysDown", .integer(summary.keysDown)),
                    ]).rendered)
                } else {
                    Terminal.output("synced \(bundleIdentifier) with \(remote): \(summary.filesUp) up, \(summary.filesDown) down, "
                        + "\(summary.deletedUp + summary.deletedDown) deleted, \(summary.conflicts) conflict\(summary.conflicts == 1 ? "" : "s"), "
                        + "\(ByteCount.describe(Int64(summary.bytes))); key-value store \(summary.keysUp) up, \(summary.keysDown) down; "
                        + "attributes of \(summary.attributesUp) up, \(summary.attributesDown) down")
                }
            }
        }

        struct Conflicts: ParsableCommand {
            enum Keep: String, ExpressibleByArgument, CaseIterable { case current, conflict }

            static let configuration = CommandConfiguration(
                commandName: "conflicts",
                abstract: "List the conflict versions in the app's iCloud containers, or resolve one.",
                discussion: """
                    A file changed on two machines between syncs keeps the newer version under its name and the \
                    other beside it (`Report (conflict 2026-11-26 101500).pdf`). --resolve VERSION (as listed) keeps \
                    the current version (--keep current, the default: the conflict version is removed) or the conflict \
                    version (--keep conflict: it replaces the current one); the next sync carries the choice.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(help: "One JSON object per conflict version.") var json = false
            @Option(help: ArgumentHelp("The conflict version to resolve, its path as listed.", valueName: "version")) var resolve: String?
            @Option(help: "Which version stays.") var keep: Keep = .current
            @Argument(help: "The bundle identifier.") var bundleIdentifier: String

            func run() throws {
                let sync = UbiquitySync(registry: registryOptions.registry)
                do {
                    let conflicts = try sync.conflicts(of: bundleIdentifier)
                    if let resolve {
                        guard let conflict = conflicts.first(where: { $0.versionPath == resolve }) else {
                            Terminal.error("\(resolve): not a conflict version of \(bundleIdentifier)'s iCloud containers")
                            throw ExitCode(2)
                        }
                        try sync.resolveConflict(conflict, of: bundleIdentifier, keepingVersion: keep == .conflict)
                        return
                    }
                    for conflict in conflicts {
                        if json {
                            Terminal.output(JSONValue.object([("container", .string(conflict.container)), ("path", .string(conflict.path)),
                                                              ("version", .string(conflict.versionPath))]).rendered)
                        } else {
                            Terminal.output("\(conflict.container): \(conflict.path): conflict version \(conflict.versionPath)")
                        }
                    }
                } catch let error as SyncError {
                    Terminal.error(error.description)
                    throw ExitCode(2)
                }
            }
        }
    }
}

/// Runs `body`, printing a key-value store error and exiting with status 2 when it throws one.
private func storing<R>(_ body: () throws(KeyValueStoreError) -> R) throws -> R {
    do {
        return try body()
    } catch {
        Terminal.error(error.description)
        throw ExitCode(2)
    }
}

/// Key-value store values on the command line: parsed from arguments, printed as text and JSON.
enum StoreValues {
    static func parse(_ text: String, as kind: UTI.Ubiquity.KeyValue.Set.Kind) -> UbiquitousKeyValueStore.Value? {
        switch kind {
        case .string: return .string(text)
        case .integer: return Int(text).map { .integer($0) }
        case .real: return Double(text).flatMap { $0.isFinite ? .real($0) : nil }
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: return nil
            }
        case .date: return ISO8601Dates.date(text).map { .date($0.timeIntervalSince1970 - 978_307_200) }
        case .data: return Data(base64Encoded: String(text.filter { !$0.isWhitespace })).map { .data(Array($0)) }
        }
    }

    static func read(plist path: String) throws -> UbiquitousKeyValueStore.Value {
        let bytes = try RegularFile.read(path, limit: UbiquitousKeyValueStore.maximumTotalSize * 4)
        return try UbiquitousKeyValueStore.Value(propertyList: bytes)
    }

    static func text(_ value: UbiquitousKeyValueStore.Value) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .boolean(let flag): flag ? "true" : "false"
        case .data(let bytes): "<\(Data(bytes).base64EncodedString())>"
        case .date(let seconds): ISO8601Dates.string(Date(timeIntervalSince1970: seconds + 978_307_200))
        case .array, .dictionary: json(value).rendered
        }
    }

    static func json(_ value: UbiquitousKeyValueStore.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .real(let number): number.isFinite ? .number(number) : .null
        case .boolean(let flag): .boolean(flag)
        case .data(let bytes): .object([("data", .string(Data(bytes).base64EncodedString()))])
        case .date(let seconds): .object([("date", .string(ISO8601Dates.string(Date(timeIntervalSince1970: seconds + 978_307_200))))])
        case .array(let values): .array(values.map(json))
        case .dictionary(let values):
            .object(values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { key in values[key].map { (key, json($0)) } })
        }
    }
}
