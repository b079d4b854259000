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

        func run() throws {
            try typeOptions.loadDeclarations()
            var failed = false
            var printed = 0
            for identifier in identifiers {
                guard let type = UTType(identifier) else {
                    Terminal.error("unknown type identifier '\(identifier)'")
                    failed = true
                    continue
                }
                let report = TypeReport(type)
                defer { printed += 1 }
                if json {
                    print(report.json.rendered)
                } else {
                    if printed > 0 { print() }
                    print(report.text)
                }
            }
            if failed { throw ExitCode(2) }
        }
    }
}
