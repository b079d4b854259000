import ArgumentParser
import UniformTypeIdentifiers

extension UTI {
    struct Conforms: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell whether one type conforms to another.",
            discussion: "Exit status: 0 when TYPE conforms to SUPERTYPE, 1 when it does not, 2 for an unknown identifier or another error."
        )

        @OptionGroup var typeOptions: TypeOptions

        @Flag(name: .shortAndLong, help: "Print nothing; answer with the exit status only.")
        var quiet = false

        @Argument(help: "The type's identifier, e.g. public.jpeg.")
        var type: String

        @Argument(help: "The identifier of the supposed supertype, e.g. public.image.")
        var supertype: String

        func run() throws {
            try typeOptions.loadDeclarations()
            var unknown = false
            for identifier in [type, supertype] where UTType(identifier) == nil {
                Terminal.error("unknown type identifier '\(identifier)'")
                unknown = true
            }
            guard !unknown, let type = UTType(type), let supertype = UTType(supertype) else { throw ExitCode(2) }
            let conforms = type.conforms(to: supertype)
            if !quiet {
                Terminal.output("\(type.identifier) \(conforms ? "conforms" : "does not conform") to \(supertype.identifier)")
            }
            if !conforms { throw ExitCode(1) }
        }
    }
}
