import UTIReports
import ArgumentParser
import UniformTypeIdentifiers

extension UTI {
    struct Types: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "types",
            abstract: "List and search the type database.",
            discussion: """
                With no option, lists every declared type. --extension and --mime list the types \
                claiming the tag, best first (the dynamic type when none does); --conforming-to keeps \
                the types that conform to an identifier; words search identifiers and descriptions \
                (case-insensitive, every word must match). Filters combine.
                """
        )

        @OptionGroup var typeOptions: TypeOptions

        @Option(name: .customLong("extension"), help: "A filename extension, with or without the dot.")
        var filenameExtension: String?

        @Option(help: "A MIME type.")
        var mime: String?

        @Option(help: "Keep types conforming to this identifier.")
        var conformingTo: String?

        @Flag(help: "Print one JSON object per line per type.")
        var json = false

        @Argument(help: "Words to look for in identifiers and descriptions.")
        var words: [String] = []

        func run() throws {
            try typeOptions.loadDeclarations()
            let types: [UTType]
            do {
                types = try TypeQuery.types(filenameExtension: filenameExtension, mimeType: mime, conformingTo: conformingTo, words: words)
            } catch {
                Terminal.error(error.message)
                throw ExitCode(2)
            }
            for type in types {
                if json {
                    Terminal.output(TypeReport(type).json.rendered)
                } else {
                    Terminal.output(line(for: type))
                }
            }
            if types.isEmpty && !json { Terminal.error("no type matches") }
            if types.isEmpty { throw ExitCode(1) }
        }

        private func line(for type: UTType) -> String {
            var columns = [type.identifier.padding(48)]
            columns.append((type.localizedDescription ?? "").padding(36))
            var tags: [String] = type.tags(of: .filenameExtension).prefix(4).map { "." + $0 }
            tags += type.tags(of: .mimeType).prefix(2)
            columns.append(tags.joined(separator: " "))
            var text = columns.joined()
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }
}
