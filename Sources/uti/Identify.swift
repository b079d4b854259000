import UTIReports
import ArgumentParser
import FileIdentification
import SystemCalls
import SystemPackage
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

extension UTI {
    struct Identify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "identify",
            abstract: "Tell what files are, from their names and their content, and why.",
            discussion: """
                Prints one line per file: `path: identifier (description)`, with `[mismatch: ...]` when the \
                name claims one type and the content proves another. Directories, bundles, links, FIFOs, \
                sockets and devices are typed without being opened. Exit status: 0 when every file was \
                identified, 1 when one could not be read (the others are still identified), 64 on a usage error.

                With --model (or UTI_MAGIKA=on), text that nothing else names, under a name uti does not know, is \
                given to Magika's model, when Python's magika and onnxruntime packages are installed (found on \
                PYTHONPATH, in VIRTUAL_ENV, the user's and the system's site-packages; UTI_MAGIKA_MODEL and \
                UTI_ONNXRUNTIME_LIBRARY name them; UTI_MAGIKA=off forbids it); the evidence then names the model \
                and its score. Without it the answer is the same on every machine. `uti info` says whether the \
                model is installed.
                """
        )

        @OptionGroup var typeOptions: TypeOptions

        @OptionGroup var mimeNames: MIMENamesOption

        @Flag var switches: [IdentifyJob.Switch] = []

        @Option(name: IdentifyJob.Valued.name.names, help: IdentifyJob.Valued.name.help)
        var name: String?

        @Option(name: IdentifyJob.Valued.separator.names, help: IdentifyJob.Valued.separator.help)
        var separator = IdentifyJob.defaultSeparator

        @Option(name: IdentifyJob.Valued.filesFrom.names, help: IdentifyJob.Valued.filesFrom.help, completion: .file())
        var filesFrom: [String] = []

        @Option(name: IdentifyJob.Valued.archiveLimit.names, help: IdentifyJob.Valued.archiveLimit.help)
        var archiveLimit: [String] = []

        @Argument(help: "Files to identify; - reads standard input.", completion: .file())
        var paths: [String] = []

        func validate() throws {
            if let problem = job.usageProblem { throw ValidationError(problem) }
        }

        var job: IdentifyJob {
            IdentifyJob(paths: paths, switches: Set(switches), typeFiles: typeOptions.typeFiles, name: name, separator: separator,
                        filesFrom: filesFrom, archiveLimits: archiveLimit, mimeNames: mimeNames.names)
        }

        func run() throws {
            let status = job.run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// What `uti identify` does once its arguments are parsed, and its options, each defined once: swift-argument-
/// parser's `UTI.Identify` and the fast path (`FastPath` in Main.swift) read the same switches (`Switch`),
/// spellings and rules (`usageProblem`).
struct IdentifyJob: Equatable {
    /// The options without a value, each one case: its spellings and its help, for both parsers. file(1)'s
    /// spellings are taken where identify does the same job (`-b`, `-i`, `--mime-type`, `--mime-encoding`, `-0`,
    /// `-E`, `-L`); `-s`, which reads devices' contents, is refused with the reason (`usageProblem`).
    enum Switch: String, EnumerableFlag {
        case mime, mimeWithEncoding, mimeEncoding, json, brief, print0, noContent, followSymlinks, model, framed
        case exitOnError, specialFiles, archives, pronom

        /// How it is written on the command line (file(1)'s spelling among them).
        var spellings: [String] {
            switch self {
            case .mime: ["--mime", "--mime-type"]
            case .mimeWithEncoding: ["-i"]
            case .mimeEncoding: ["--mime-encoding"]
            case .json: ["--json"]
            case .brief: ["-b", "--brief"]
            case .print0: ["-0", "--print0"]
            case .noContent: ["--no-content"]
            case .followSymlinks: ["-L", "--dereference"]
            case .model: ["--model"]
            case .framed: ["--framed"]
            case .exitOnError: ["-E"]
            case .specialFiles: ["-s", "--special-files"]
            case .archives: ["--archives"]
            case .pronom: ["--pronom"]
            }
        }

        static func name(for value: Self) -> NameSpecification { IdentifyJob.names(value.spellings) }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .mime: "Print MIME types, as file --mime-type does."
            case .mimeWithEncoding: "Print MIME types with the text's encoding, as file -i does (`text/plain; charset=us-ascii`)."
            case .mimeEncoding: "Print the text's encoding, as file --mime-encoding does (`utf-8`; `binary` for what is not text)."
            case .json: "Print one JSON object per line per file."
            case .brief: "Leave out the file names, as file -b does."
            case .print0: "Write a NUL after each file name, as file -0 does (for cut -d '' and the like)."
            case .noContent: "Decide by name alone; the files need not exist."
            case .followSymlinks: "Follow symbolic links and identify their targets."
            case .model: "Ask Magika's model about text nothing else names, when it is installed (also UTI_MAGIKA=on)."
            case .framed:
                ArgumentHelp(
                    "Read records from standard input (give -): a 4-byte big-endian name length, the name, an 8-byte big-endian content length, the content; print one JSON line per record, in order.",
                    discussion: "For many files through one process when the bytes are at hand rather than a path (Spark's binaryFile rows). See docs/CommandLine.md for the framing.")
            case .exitOnError: "Accepted as file -E is: identify always exits with 1 when a file could not be read."
            case .specialFiles: "Refused: identify names devices without reading them (file -s reads them)."
            case .pronom:
                ArgumentHelp(
                    "With --json: PRONOM's formats and versions too, by DROID's signatures (PUID, name, version, basis, warning); the type becomes the version's where one matched.",
                    discussion: "As DROID and Siegfried identify them; see docs/CommandLine.md.")
            case .archives:
                ArgumentHelp(
                    "Identify the members of archives too (tar, ZIP, 7-Zip, RAR, cpio, ar, ISO 9660, compressed streams...), without extracting: one line each after the archive's, as ARCHIVE#MEMBER.",
                    discussion: "Archives in archives are opened to a depth; --archive-limit sets the limits. See docs/CommandLine.md for the path syntax.")
            }
        }
    }

    /// The options with a value that identify alone has, each one case: its spellings and its help (the
    /// declaration files' `--types` and `--mime-names` are shared with other commands, spelt where declared).
    enum Valued: CaseIterable {
        case name, separator, filesFrom, archiveLimit

        var spellings: [String] {
            switch self {
            case .name: ["--name"]
            case .separator: ["--separator"]
            case .filesFrom: ["-f", "--files-from"]
            case .archiveLimit: ["--archive-limit"]
            }
        }

        var names: NameSpecification { IdentifyJob.names(spellings) }

        var help: ArgumentHelp {
            switch self {
            case .name: ArgumentHelp("The name of standard input, so that its extension counts.", valueName: "name")
            case .separator: ArgumentHelp("What follows each file name, before a space, as file --separator is (default `:`).", valueName: "string")
            case .filesFrom: ArgumentHelp("Read the names of the files to identify from this file, one per line (- for standard input), before the files given; as file -f does. Repeatable.", valueName: "namefile")
            case .archiveLimit: ArgumentHelp(ArchiveLimitsArgument.help, valueName: "name=value")
            }
        }
    }

    /// swift-argument-parser's names for `spellings` (`-b`, `--brief`).
    static func names(_ spellings: [String]) -> NameSpecification {
        NameSpecification(spellings.map { spelling -> NameSpecification.Element in
            spelling.hasPrefix("--") ? .customLong(String(spelling.dropFirst(2))) : .customShort(Character(String(spelling.dropFirst())))
        })
    }

    /// What follows a file name when `--separator` does not say (file(1)'s `:`).
    static let defaultSeparator = ":"
    /// The most a name file (`-f`) holds: 64 MiB of names.
    static let nameFileLimit = 64 << 20

    var paths: [String]
    var switches: Set<Switch> = []
    var typeFiles: [String] = []
    var name: String?
    var separator = IdentifyJob.defaultSeparator
    var filesFrom: [String] = []
    /// `--archive-limit`'s arguments, as given.
    var archiveLimits: [String] = []
    var mimeNames: MIMENames = .standard

    var mime: Bool { switches.contains(.mime) }
    var json: Bool { switches.contains(.json) }
    var nameOnly: Bool { switches.contains(.noContent) }
    var followSymlinks: Bool { switches.contains(.followSymlinks) }
    /// `--model`: ask Magika's model (else as `UTI_MAGIKA` says).
    var model: Bool { switches.contains(.model) }
    /// `--archives`: archives' members too.
    var archives: Bool { switches.contains(.archives) }
    /// `--pronom`: PRONOM's formats in the JSON objects.
    var pronom: Bool { switches.contains(.pronom) }

    /// What is wrong with these options together, in the words a usage error prints; `nil` when nothing is.
    var usageProblem: String? {
        if switches.contains(.specialFiles) {
            return "-s reads the contents of devices, which uti never does: identify names a device (a block or character special file) without opening it."
        }
        let styles = [mime, switches.contains(.mimeWithEncoding), switches.contains(.mimeEncoding), json].filter { $0 }.count
        let shaped = switches.contains(.brief) || switches.contains(.print0) || separator != Self.defaultSeparator
        if !archiveLimits.isEmpty && !archives { return "--archive-limit goes with --archives." }
        if pronom && !json { return "--pronom adds PRONOM's formats to the JSON objects: give --json too." }
        if case .failure(let problem) = ArchiveLimitsArgument.parse(archiveLimits) { return problem.description }
        if switches.contains(.framed) {
            if archives { return "--framed answers one JSON line per record: --archives does not apply." }
            guard paths == ["-"] else { return "--framed reads records from standard input: give - and no other file." }
            if styles > (json ? 1 : 0) || shaped || nameOnly || followSymlinks || name != nil || !filesFrom.isEmpty {
                return "--framed answers in JSON for each record: --mime, -i, --mime-encoding, -b, -0, --separator, --no-content, -L, -f and --name do not apply."
            }
            return nil
        }
        if paths.isEmpty && filesFrom.isEmpty { return "Give at least one file (or - for standard input, or -f NAMEFILE)." }
        if styles > 1 { return "--mime (--mime-type), -i, --mime-encoding and --json each choose what is printed: give one." }
        if json && shaped { return "-b, -0 and --separator shape lines of text; --json writes objects: give one or the other." }
        if name != nil && !paths.contains("-") { return "--name names standard input: give - among the files." }
        if archives && nameOnly { return "--archives reads archives' contents: --no-content does not apply." }
        return nil
    }

    /// Identifies every path and prints the results; the exit status: 0, 1 when a file could not be
    /// read, 2 when a declaration file was refused.
    func run() -> Int32 {
        if switches.contains(.framed) { return FramedIdentifyJob(typeFiles: typeFiles, mimeNames: mimeNames, model: model).run() }
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        var options = FileIdentifier.Options(followSymlinks: followSymlinks, nameOnly: nameOnly, usesModel: model ? true : nil,
                                             mimeNames: mimeNames)
        // The JSON objects carry PRONOM's formats and versions when asked.
        options.pronom = pronom
        let identifier = FileIdentifier(options: options)
        var output = StandardOutput()
        var failed = false
        // The names of -f's files first, as file(1) reads them, then the files given.
        var targets: [RawFilePath] = []
        for nameFile in filesFrom {
            do throws(Errno) {
                let bytes = nameFile == "-" ? try FileDescriptor.standardInput.readToEnd(limit: Self.nameFileLimit)
                    : try RegularFile.read(nameFile, limit: Self.nameFileLimit)
                targets += bytes.split(separator: UInt8(ascii: "\n")).map { RawFilePath(bytes: Array($0)) }
            } catch {
                failed = true
                Terminal.error(RawFilePath(nameFile).escaped + ": cannot read the names of files (" + error.description + ")")
            }
        }
        targets += paths.map { $0 == "-" ? RawFilePath("-") : RawArguments.path(for: $0) }
        let limits = (try? ArchiveLimitsArgument.parse(archiveLimits).get()) ?? ArchiveLimits()
        for path in targets {
            let isStandardInput = path.bytes == [UInt8(ascii: "-")]
            let shown = json ? path.dataText : path.escaped
            let escapedPath = json && !path.isValidUTF8
            // do/catch, not a Result: a Result of these types is generic metadata the runtime would build at
            // start-up by name, with a search of every protocol conformance in the program (seen in start-up's profile).
            do throws(IdentificationError) {
                // With --archives, standard input is gathered whole (its first MiB in memory, the rest in a file
                // without a name), since members lie anywhere in it; without, its first 64 MiB are enough.
                var spooled: SpooledBytes?
                if isStandardInput && archives {
                    do throws(Errno) {
                        spooled = try StandardInput.spool()
                    } catch {
                        throw IdentificationError(path: "-", reason: .system(error))
                    }
                }
                let data = isStandardInput && spooled == nil ? StandardInput.read(limit: StandardInput.identificationLimit) : []
                let identification: Identification
                if let spooled {
                    identification = try identifier.identify(spooled, filename: name)
                } else if isStandardInput {
                    identification = try identifier.identify(data: data, filename: name)
                } else {
                    identification = try identifier.identify(fileAt: path)
                }
                guard archives, FileIdentifier.holdsMembers(identification) else {
                    if json {
                        let report = IdentificationReport(identification, path: shown, pathEscaped: escapedPath)
                        output.line { line in report.withRenderedUTF8 { line.append(bytes: $0) } }
                    } else {
                        emit(shown, result(identification), to: &output)
                    }
                    continue
                }
                // The archive's line says how the reading of its members ended: they are read first.
                var members: [ArchiveMember] = []
                let collect = { (member: ArchiveMember) -> Bool in
                    members.append(member)
                    return true
                }
                let reading = if let spooled {
                    try identifier.readMembers(of: spooled, filename: name, limits: limits, collect)
                } else {
                    try identifier.readMembers(ofFileAt: path, limits: limits, collect)
                }
                if reading.truncated == .unreadable || reading.truncated == .unsupported { failed = true }
                if json {
                    var object = IdentificationReport(identification, path: shown, pathEscaped: escapedPath).json
                    object.append(ArchiveReport.fields(of: reading))
                    output.line(object.rendered)
                } else {
                    emit(shown, result(identification) + ArchiveReport.words(reading), to: &output)
                }
                let archivePath = isStandardInput ? RawFilePath(name ?? "-") : path
                for member in members {
                    if case .failure = member.result { failed = true }
                    if json {
                        output.line(ArchiveReport.object(of: member, in: archivePath).rendered)
                        continue
                    }
                    let memberShown = member.path(in: archivePath).escaped
                    switch member.result {
                    case .success(let identification): emit(memberShown, result(identification) + ArchiveReport.words(member), to: &output)
                    case .failure(let error): emit(memberShown, "cannot read (" + error.message + ")", to: &output)
                    }
                }
            } catch {
                failed = true
                output.flush()
                Terminal.error(error.description)
                // One line for every file, errors too (as file(1) prints them), so that lines stay with their files.
                if json {
                    output.line(JSONValue.object([("path", .string(shown)), ("error", .string(error.message))]).rendered)
                } else {
                    emit(shown, "cannot open (" + error.message + ")", to: &output)
                }
            }
        }
        output.flush()
        return failed ? 1 : 0
    }

    /// A line of text output: the file's name (but with `-b`), a NUL after it with `-0` (the one byte not
    /// escaped: it is there for another program), the separator, a space, and what is printed of the file.
    private func emit(_ path: String, _ result: String, to output: inout StandardOutput) {
        if switches.contains(.brief) { return output.line(result) }
        guard switches.contains(.print0) else { return output.line(path + separator + " " + result) }
        output.raw(Array(Terminal.safe(path).utf8) + [0])
        output.line(separator + " " + result)
    }

    /// What is printed of a file: its MIME type (`--mime`), with its encoding (`-i`), its encoding alone
    /// (`--mime-encoding`), or its type, description and what stands out.
    private func result(_ identification: Identification) -> String {
        let encoding = identification.textEncoding?.rawValue ?? "binary"
        if mime { return identification.mimeType }
        if switches.contains(.mimeWithEncoding) { return identification.mimeType + "; charset=" + encoding }
        if switches.contains(.mimeEncoding) { return encoding }
        let type = identification.type
        var line = type.identifier
        if let description = type.localizedDescription { line += " (" + description + ")" }
        if identification.evidence.rule == .empty { line += " [empty]" }
        if identification.isMismatch, let named = identification.evidence.name?.candidates.first {
            line += " [mismatch: the name says " + named.identifier + "]"
        }
        return line
    }
}

/// Standard input, read to its end.
enum StandardInput {
    /// Everything on standard input, or its first `limit` bytes. What cannot be read ends it early, as an
    /// end of input would (a closed or unreadable standard input is empty).
    static func read(limit: Int? = nil) -> [UInt8] {
        (try? FileDescriptor.standardInput.readToEnd(limit: limit)) ?? []
    }

    /// Everything on standard input, gathered as an upload is: its first MiB in memory, the rest in a private
    /// temporary file. Throws when it cannot be read or the file cannot be written (`ENOSPC`).
    static func spool() throws(Errno) -> SpooledBytes {
        let contents = SpooledBytes()
        while true {
            let chunk = try FileDescriptor.standardInput.readSome()
            if chunk.isEmpty { return contents }
            try contents.append(chunk)
        }
    }

    /// For identification: 64 MiB holds any signature and any container directory worth reading.
    static let identificationLimit = 64 << 20
}
