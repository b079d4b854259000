import UTIReports
import ArgumentParser
import AppContainers
import FileIdentification

extension UTI {
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "What a backup of apps' containers takes, and items left out of it.",
            discussion: """
                A backup takes each app's Documents/ (with Inbox/) and Library/ but for Library/Caches/; \
                not tmp/, not the app's bundle. An item is left out with `uti backup exclude PATH` (the \
                counterpart of NSURLIsExcludedFromBackupKey), kept as the extended attribute \
                user.uti.exclude-from-backup=1 on the item, so it survives renames. Every directory left \
                out holds a CACHEDIR.TAG (https://bford.info/cachedir/), which tar --exclude-caches-all, \
                borg and restic --exclude-caches honour without knowing uti; those tools see tags of \
                directories only, so an excluded file is left out by `uti backup list` alone.
                """,
            subcommands: [List.self, Exclude.self, Include.self]
        )

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list",
                abstract: "Print what a backup takes: every directory, file and link, one full path a line.",
                discussion: """
                    Of one app's container, or of every registered app's. Depth first, names in byte order; \
                    directories are listed, so hand the list to tar without recursion: \
                    `uti backup list -0 | tar --null --no-recursion -T - -cf apps.tar`. Also writes the \
                    CACHEDIR.TAG of excluded directories that lack one. Exit status 0; 1 when something could \
                    not be read (a backup would miss it; listed on standard error); 2 for an app not registered \
                    or a registry that cannot be read.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Flag(name: .customShort("0"), help: "End each path with a NUL byte instead of a newline, as xargs -0 and tar --null read; paths are written as their bytes.")
            var nulSeparated = false
            @Flag(help: "One JSON object per line: path, kind (directory, file, symbolicLink, other), bundleIdentifier.") var json = false
            @Argument(help: "The bundle identifier (default: every registered app).") var bundleIdentifier: String?

            func validate() throws {
                if nulSeparated && json { throw ValidationError("-0 and --json are exclusive.") }
            }

            func run() throws {
                let listing = try reporting { try registryOptions.registry.backupItems(for: bundleIdentifier) }
                var output = StandardOutput()
                for item in listing.items {
                    if nulSeparated {
                        output.raw(item.path.bytes + [0])
                    } else if json {
                        var members: [(String, JSONValue)] = [("path", .string(item.path.dataText))]
                        if item.path.needsEscaping && !item.path.isValidUTF8 { members.append(("pathEscaped", true)) }
                        members += [("kind", .string(item.kind.rawValue)), ("bundleIdentifier", .string(item.bundleIdentifier))]
                        output.line(JSONValue.object(members).rendered)
                    } else {
                        output.line(item.path.escaped)
                    }
                }
                output.flush()
                for problem in listing.problems { Terminal.error(problem.description) }
                if !listing.problems.isEmpty { throw ExitCode(1) }
            }
        }

        struct Exclude: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "exclude",
                abstract: "Leave a file or directory of an app's container out of backups.",
                discussion: """
                    Sets user.uti.exclude-from-backup=1 on the item; a directory also gets a CACHEDIR.TAG. \
                    The path must be inside a registered app's container (decided by the directories it is \
                    in, not by its spelling); the container itself, an app's bundle, symbolic links and files \
                    with other hard links (which may be outside the container) are refused. Exit status 0; 1 when the item cannot be changed (a file system without user \
                    extended attributes); 2 for a path refused or a registry that cannot be read.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The file or directory.", completion: .file()) var path: String

            func run() throws {
                let outcome = try backupReporting { () throws(BackupError) in try BackupExclusion(registry: registryOptions.registry).exclude(RawArguments.path(for: path)) }
                var line = "excluded from backup: \(outcome.path)"
                if !outcome.changed { line += " (already)" }
                if outcome.isDirectory && !outcome.tagged {
                    Terminal.warning("\(outcome.path)/CACHEDIR.TAG is something else than a tag: tools other than uti will not skip this directory")
                }
                Terminal.output(line)
            }
        }

        struct Include: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "include",
                abstract: "Put an excluded file or directory back into backups.",
                discussion: """
                    Removes user.uti.exclude-from-backup and the CACHEDIR.TAG uti wrote (a tag someone else \
                    wrote stays, with a warning). An item inside an excluded directory stays out with it. \
                    Library/Caches/ and tmp/ are never backed up. Exit statuses as for exclude.
                    """)
            @OptionGroup var registryOptions: RegistryOptions
            @Argument(help: "The file or directory.", completion: .file()) var path: String

            func run() throws {
                let outcome = try backupReporting { () throws(BackupError) in try BackupExclusion(registry: registryOptions.registry).include(RawArguments.path(for: path)) }
                if outcome.isDirectory && outcome.tagged {
                    Terminal.warning("\(outcome.path) still holds a CACHEDIR.TAG uti did not write: backup tools still skip it")
                }
                Terminal.output("included in backup: \(outcome.path)" + (outcome.changed ? "" : " (was not excluded)"))
            }
        }
    }
}

/// Runs `body`, printing a backup error and exiting 1 for what could not be changed, 2 for what was refused.
func backupReporting<R>(_ body: () throws(BackupError) -> R) throws -> R {
    do {
        return try body()
    } catch {
        Terminal.error(error.description)
        switch error.reason.kind {
        case .system, .extendedAttributesUnsupported, .changed: throw ExitCode(1)
        default: throw ExitCode(2)
        }
    }
}
