import ArgumentParser
import UniformTypeIdentifiers

extension UTI {
    struct Types: ParsableCommand {
        static let configuration = CommandConfiguration(
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
            var supertype: UTType?
            if let conformingTo {
                guard let type = UTType(conformingTo) else {
                    Terminal.error("unknown type identifier '\(conformingTo)'")
                    throw ExitCode(2)
                }
                supertype = type
            }
            var types: [UTType]
            if let filenameExtension {
                let tag = filenameExtension.hasPrefix(".") ? String(filenameExtension.dropFirst()) : filenameExtension
                types = try tagged(tag, .filenameExtension)
            } else if let mime {
                types = try tagged(mime, .mimeType)
            } else {
                types = TypeDatabase.shared.declarations.compactMap { UTType($0.identifier) }
            }
            if let mime, filenameExtension != nil {
                let claiming = Set(try tagged(mime, .mimeType))
                types = types.filter { claiming.contains($0) }
            }
            if let supertype {
                types = types.filter { $0.conforms(to: supertype) }
            }
            let needles = words.map { $0.lowercased() }
            if !needles.isEmpty {
                types = types.filter { type in
                    let haystack = (type.identifier + " " + (type.localizedDescription ?? "")).lowercased()
                    return needles.allSatisfy { haystack.contains($0) }
                }
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

        private func tagged(_ tag: String, _ tagClass: UTTagClass) throws -> [UTType] {
            let declared = TypeDatabase.shared.declaredTypes(tag: tag, tagClass: tagClass)
            if !declared.isEmpty { return declared }
            guard let dynamic = UTType(tag: tag, tagClass: tagClass, conformingTo: .data) else {
                Terminal.error("'\(tag)' is not a valid \(tagClass == .filenameExtension ? "filename extension" : "tag")")
                throw ExitCode(2)
            }
            return [dynamic]
        }

        private func line(for type: UTType) -> String {
            var columns = [type.identifier.padding(48)]
            columns.append((type.localizedDescription ?? "").padding(36))
            var tags: [String] = (type.tags[.filenameExtension] ?? []).prefix(4).map { "." + $0 }
            tags += (type.tags[.mimeType] ?? []).prefix(2)
            columns.append(tags.joined(separator: " "))
            var text = columns.joined()
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }
}
