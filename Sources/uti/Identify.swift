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

        @Option(name: .customLong(String(IdentifyJob.nameOption.dropFirst(2))),
                help: ArgumentHelp("The name of standard input, so that its extension counts.", valueName: "name"))
        var name: String?

        @Argument(help: "Files to identify; - reads standard input.")
        var paths: [String]

        func validate() throws {
            if let problem = job.usageProblem { throw ValidationError(problem) }
        }

        var job: IdentifyJob {
            IdentifyJob(paths: paths, switches: Set(switches), typeFiles: typeOptions.typeFiles, name: name, mimeNames: mimeNames.names)
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
    /// The options without a value, each one case: its spelling and its help, for both parsers.
    enum Switch: String, EnumerableFlag {
        case mime, json, noContent, followSymlinks, model, framed

        /// How it is written on the command line.
        var spelling: String {
            switch self {
            case .mime: "--mime"
            case .json: "--json"
            case .noContent: "--no-content"
            case .followSymlinks: "-L"
            case .model: "--model"
            case .framed: "--framed"
            }
        }

        static func name(for value: Self) -> NameSpecification {
            value.spelling.hasPrefix("--") ? .customLong(String(value.spelling.dropFirst(2))) : .customShort(Character(String(value.spelling.dropFirst())))
        }

        static func help(for value: Self) -> ArgumentHelp? {
            switch value {
            case .mime: "Print MIME types, like `file --mime-type`."
            case .json: "Print one JSON object per line per file."
            case .noContent: "Decide by name alone; the files need not exist."
            case .followSymlinks: "Follow symbolic links and identify their targets."
            case .model: "Ask Magika's model about text nothing else names, when it is installed (also UTI_MAGIKA=on)."
            case .framed:
                ArgumentHelp(
                    "Read records from standard input (give -): a 4-byte big-endian name length, the name, an 8-byte big-endian content length, the content; print one JSON line per record, in order.",
                    discussion: "For many files through one process when the bytes are at hand rather than a path (Spark's binaryFile rows). See docs/CommandLine.md for the framing.")
            }
        }
    }

    /// The option naming standard input (`--name NAME`).
    static let nameOption = "--name"

    var paths: [String]
    var switches: Set<Switch> = []
    var typeFiles: [String] = []
    var name: String?
    var mimeNames: MIMENames = .standard

    var mime: Bool { switches.contains(.mime) }
    var json: Bool { switches.contains(.json) }
    var nameOnly: Bool { switches.contains(.noContent) }
    var followSymlinks: Bool { switches.contains(.followSymlinks) }
    /// `--model`: ask Magika's model (else as `UTI_MAGIKA` says).
    var model: Bool { switches.contains(.model) }

    /// What is wrong with these options together, in the words a usage error prints; `nil` when nothing is.
    var usageProblem: String? {
        if switches.contains(.framed) {
            guard paths == ["-"] else { return "--framed reads records from standard input: give - and no other file." }
            if mime || nameOnly || followSymlinks || name != nil {
                return "--framed answers in JSON for each record: --mime, --no-content, -L and --name do not apply."
            }
            return nil
        }
        if paths.isEmpty { return "Give at least one file (or - for standard input)." }
        if mime && json { return "--mime and --json cannot be combined." }
        if name != nil && !paths.contains("-") { return "--name names standard input: give - among the files." }
        return nil
    }

    /// Identifies every path and prints the results; the exit status: 0, 1 when a file could not be
    /// read, 2 when a declaration file was refused.
    func run() -> Int32 {
        if switches.contains(.framed) { return FramedIdentifyJob(typeFiles: typeFiles, mimeNames: mimeNames, model: model).run() }
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        let identifier = FileIdentifier(options: .init(followSymlinks: followSymlinks, nameOnly: nameOnly, usesModel: model ? true : nil,
                                                       mimeNames: mimeNames))
        var output = StandardOutput()
        var failed = false
        for argument in paths {
            let shown: String
            var escapedPath = false
            // do/catch, not a Result: a Result of these types is generic metadata the runtime would build at
            // start-up by name, with a search of every protocol conformance in the program (seen in start-up's profile).
            do throws(IdentificationError) {
                let identification: Identification
                if argument == "-" {
                    shown = "-"
                    identification = try identifier.identify(data: StandardInput.read(limit: StandardInput.identificationLimit), filename: name)
                } else {
                    let path = RawArguments.path(for: argument)
                    shown = json ? path.dataText : path.escaped
                    escapedPath = json && !path.isValidUTF8
                    identification = try identifier.identify(fileAt: path)
                }
                output.line(render(identification, path: shown, pathEscaped: escapedPath))
            } catch {
                failed = true
                output.flush()
                Terminal.error(error.description)
                if json {
                    output.line(JSONValue.object([("path", .string(shown)), ("error", .string(error.message))]).rendered)
                }
            }
        }
        output.flush()
        return failed ? 1 : 0
    }

    private func render(_ identification: Identification, path: String, pathEscaped: Bool) -> String {
        let type = identification.type
        if json { return IdentificationReport(identification, path: path, pathEscaped: pathEscaped).json.rendered }
        if mime { return path + ": " + identification.mimeType }
        var line = path + ": " + type.identifier
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
