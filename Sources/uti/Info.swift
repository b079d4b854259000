import UTIReports
import ArgumentParser
import UniformTypeIdentifiers

extension UTI {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe types: description, status, where declared, tags and conformance tree.",
            discussion: "Exit status: 0 when every identifier is known, 2 when one is not (the others are still described)."
        )

        @OptionGroup var typeOptions: TypeOptions

        @Flag(help: "Print one JSON object per line per type.")
        var json = false

        @Argument(help: "Type identifiers (public.jpeg, dyn.ah62d4rv4ge8043a, ...).")
        var identifiers: [String]

        func validate() throws {
            if identifiers.isEmpty { throw ValidationError("Give at least one type identifier.") }
        }

        var job: InfoJob { InfoJob(identifiers: identifiers, typeFiles: typeOptions.typeFiles, json: json) }

        func run() throws {
            let status = job.run()
            if status != 0 { throw ExitCode(status) }
        }
    }
}

/// What `uti info` does once its arguments are parsed.
struct InfoJob: Equatable {
    var identifiers: [String]
    var typeFiles: [String] = []
    var json = false

    /// Describes every type; the exit status: 0, or 2 when an identifier is unknown or a
    /// declaration file was refused.
    func run() -> Int32 {
        guard TypeOptions.loadDeclarations(typeFiles: typeFiles) else { return 2 }
        var output = StandardOutput()
        var failed = false
        var printed = 0
        for identifier in identifiers {
            guard let type = UTType(identifier) else {
                output.flush()
                Terminal.error("unknown type identifier '" + identifier + "'")
                failed = true
                continue
            }
            let report = TypeReport(type)
            if json {
                output.line(report.json.rendered)
            } else {
                if printed > 0 { output.line("") }
                for line in report.lines { output.line(line) }
            }
            printed += 1
        }
        output.flush()
        return failed ? 2 : 0
    }
}
