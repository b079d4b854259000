import UTIReports
import ArgumentParser
import AppContainers
import FileIdentification

extension UTI {
    struct Purge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Empty apps' Library/Caches/ or tmp/, as the system does when space runs low.",
            discussion: """
                Removes the top-level entries of each app's Library/Caches/ (--caches: the least recently \
                used first, across apps; with --below-free SIZE only until the file system has SIZE \
                available) or tmp/ (--tmp; with --older-than DURATION only entries nothing in which was \
                read or written for that long). An app that is running (a process holds its run lock: \
                `uti apps run-lock`) is left alone and reported. Links are removed as links, never \
                followed; Documents/ and the rest of Library/ are never touched. Prints, per app, what \
                was freed. Exit status 0; 1 when something could not be removed; 2 for an app not \
                registered or a registry that cannot be read; 64 for bad options.
                """
        )
        @OptionGroup var registryOptions: RegistryOptions
        @Flag(help: "Empty Library/Caches/.") var caches = false
        @Flag(help: "Empty tmp/.") var tmp = false
        @Option(name: .customLong("below-free"), help: ArgumentHelp(
            "With --caches: stop once the file system has this much available: bytes, or with K, M, G, T (powers of 1024): 500M, 2G.", valueName: "size"))
        var belowFree: ByteCount?
        @Option(name: .customLong("older-than"), help: ArgumentHelp(
            "With --tmp: only entries unused for this long: seconds, or with s, m, h, d, w: 90s, 30m, 12h, 3d, 1h30m.", valueName: "duration"))
        var olderThan: Age?
        @Flag(name: .customLong("dry-run"), help: "Say what would be removed; remove nothing.") var dryRun = false
        @Flag(name: .shortAndLong, help: "Name every entry removed.") var verbose = false
        @Flag(help: "One JSON object per app and directory.") var json = false
        @Argument(help: "The apps to purge (default: every registered app).") var bundleIdentifiers: [String] = []

        func validate() throws {
            if !caches && !tmp { throw ValidationError("Say what to empty: --caches, --tmp, or both.") }
            if belowFree != nil && !caches { throw ValidationError("--below-free goes with --caches.") }
            if olderThan != nil && !tmp { throw ValidationError("--older-than goes with --tmp.") }
        }

        func run() throws {
            let registry = registryOptions.registry
            let only = bundleIdentifiers.isEmpty ? nil : bundleIdentifiers
            var failed = false
            if caches {
                let report = try reporting { try registry.purgeCaches(belowFree: belowFree?.bytes, apps: only, dryRun: dryRun) }
                failed = show(report, directory: "Library/Caches") || failed
            }
            if tmp {
                let report = try reporting { try registry.purgeTemporary(olderThan: olderThan?.duration, apps: only, dryRun: dryRun) }
                failed = show(report, directory: "tmp") || failed
            }
            if failed { throw ExitCode(1) }
        }

        /// Prints the report; whether anything could not be removed.
        private func show(_ report: PurgeReport, directory: String) -> Bool {
            var apps: [String] = []
            for identifier in report.purgedApps + report.skipped.map(\.bundleIdentifier) where !apps.contains(identifier) {
                apps.append(identifier)
            }
            for identifier in apps {
                let removals = report.removals(of: identifier)
                let skips = report.skipped.filter { $0.bundleIdentifier == identifier }
                let failures = report.failures.filter { $0.bundleIdentifier == identifier }
                let freed = removals.reduce(Int64(0)) { $0 + $1.bytes }
                if json {
                    let object: JSONValue = .object([
                        ("bundleIdentifier", .string(identifier)),
                        ("directory", .string(directory)),
                        ("dryRun", .boolean(report.dryRun)),
                        ("freedBytes", .integer(Int(freed))),
                        ("removed", .array(removals.map { removal in
                            .object([("path", .string(removal.path.dataText)), ("bytes", .integer(Int(removal.bytes))),
                                     ("lastUsed", .integer(Int(removal.lastUsed)))])
                        })),
                        ("skipped", .array(skips.map { skip in
                            .object([("path", .string(skip.path)), ("reason", .string(skip.reason.rawValue)), ("message", .string(skip.message))])
                        })),
                        ("failures", .array(failures.map { failure in
                            .object([("path", .string(failure.path)), ("error", .string(failure.errno.description))])
                        })),
                    ])
                    Terminal.output(object.rendered)
                    continue
                }
                if verbose {
                    for removal in removals {
                        Terminal.output("\(report.dryRun ? "would remove" : "removed") \(removal.path.escaped) (\(ByteCount.describe(removal.bytes)))")
                    }
                }
                for skip in skips { Terminal.output("\(identifier): \(directory) skipped: \(skip.message)") }
                if !skips.isEmpty && removals.isEmpty && failures.isEmpty { continue }
                let count = removals.count
                Terminal.output("\(identifier): \(report.dryRun ? "would free" : "freed") \(ByteCount.describe(freed)) in \(count) entr\(count == 1 ? "y" : "ies") of \(directory)")
            }
            for failure in report.failures { Terminal.error("\(failure.path): not removed: \(failure.errno)") }
            if !json && apps.count > 1 {
                Terminal.output("total: \(report.dryRun ? "would free" : "freed") \(ByteCount.describe(report.freedBytes)) in \(report.removed.count) entries of \(directory)")
            }
            return !report.failures.isEmpty
        }
    }
}

/// `--below-free`: a number of bytes, with an optional K, M, G or T (powers of 1024; `KiB`, `MB`... read the same).
extension ByteCount: ExpressibleByArgument {}

/// `--older-than`: seconds, or numbers with s, m, h, d, w (`90s`, `12h`, `1h30m`).
struct Age: ExpressibleByArgument {
    var duration: Duration

    init?(argument: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        var seconds: Int64 = 0
        var digits = ""
        var sawUnit = false
        for character in argument.lowercased() {
            if character.isASCII && character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let value = Int64(digits) {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                guard !overflow, product <= Int64.max - seconds else { return nil }
                seconds += product
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        if !digits.isEmpty {
            guard !sawUnit, let value = Int64(digits) else { return nil }
            seconds = value
        } else if !sawUnit {
            return nil
        }
        duration = .seconds(seconds)
    }
}
