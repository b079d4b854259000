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

        @Flag(help: "Print MIME types, like `file --mime-type`.")
        var mime = false

        @Flag(help: "Print one JSON object per line per file.")
        var json = false

        @Flag(name: .customLong("no-content"), help: "Decide by name alone; the files need not exist.")
        var noContent = false

        @Flag(name: .customShort("L"), help: "Follow symbolic links and identify their targets.")
        var followSymlinks = false

        @Flag(help: "Ask Magika's model about text nothing else names, when it is installed (also UTI_MAGIKA=on).")
        var model = false

        @Option(help: ArgumentHelp("The name of standard input, so that its extension counts.", valueName: "name"))
        var name: String?

        @Flag(help: ArgumentHelp(
            "Read records from standard input (give -): a 4-byte big-endian name length, the name, an 8-byte big-endian content length, the content; print one JSON line per record, in order.",
            discussion: "For many files through one process when the bytes are at hand rather than a path (Spark's binaryFile rows). See docs/CommandLine.md for the framing."))
        var framed = false

        @Argument(help: "Files to identify; - reads standard input.")
        var paths: [String]

        func validate() throws {
            if framed {
                guard paths == ["-"] else { throw ValidationError("--framed reads records from standard input: give - and no other file.") }
                if mime || noContent || followSymlinks || name != nil {
                    throw ValidationError("--framed answers in JSON for each record: --mime, --no-content, -L and --name do not apply.")
                }
                return
            }
            if paths.isEmpty { throw ValidationError("Give at least one file (or - for standard input).") }
            if mime && json { throw ValidationError("--mime and --json cannot be combined.") }
            if name != nil && !paths.contains("-") { throw ValidationError("--name names standard input: give - among the files.") }
        }

        var job: IdentifyJob {
            IdentifyJob(paths: paths, typeFiles: typeOptions.typeFiles, mime: mime, json: json,
                        nameOnly: noContent, followSymlinks: followSymlinks, name: name, mimeNames: mimeNames.names, model: model)
        }

        func run() throws {
            let status = framed ? FramedIdentifyJob(typeFiles: typeOptions.typeFiles, mimeNames: mimeNames.names, model: model).run() : job.run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// What `uti identify` does once its arguments are parsed.
struct IdentifyJob: Equatable {
    var paths: [String]
    var typeFiles: [String] = []
    var mime = false
    var json = false
    var nameOnly = false
    var followSymlinks = false
    var name: String?
    var mimeNames: MIMENames = .standard
    /// `--model`: ask Magika's model (else as `UTI_MAGIKA` says).
    var model = false

    /// Identifies every path and prints the results; the exit status: 0, 1 when a file could not be
    /// read, 2 when a declaration file was refused.
    func run() -> Int32 {
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
