import ArgumentParser
import FileIdentification
import UniformTypeIdentifiers

extension UTI {
    struct Conforms: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conforms",
            abstract: "Tell whether a type, or a file, conforms to another type.",
            discussion: """
                TYPE is a type identifier, or a file, which is identified (by name and content, as identify does) and                 its type asked about: `uti conforms -q upload.bin public.image` says by its exit status whether an                 upload is an image. A word that is a type identifier is taken as one (write ./public.jpeg for a file                 of that name). Exit status: 0 when it conforms to SUPERTYPE, 1 when it does not, 2 for an unknown                 identifier, a file that cannot be read, or another error.
                """
        )

        @OptionGroup var typeOptions: TypeOptions

        @Flag(name: .shortAndLong, help: "Print nothing; answer with the exit status only.")
        var quiet = false

        @Argument(help: "The type's identifier (public.jpeg), or a file to identify.", completion: .file())
        var type: String

        @Argument(help: "The identifier of the supposed supertype, e.g. public.image.")
        var supertype: String

        func run() throws {
            try typeOptions.loadDeclarations()
            guard let supertype = UTType(supertype) else {
                Terminal.error(UnknownIdentifier.message(self.supertype))
                throw ExitCode(2)
            }
            let subject: String
            let found: UTType
            if let declared = UTType(type) {
                (subject, found) = (declared.identifier, declared)
            } else {
                let path = RawArguments.path(for: type)
                do throws(IdentificationError) {
                    let identification = try FileIdentifier().identify(fileAt: path)
                    (subject, found) = (path.escaped + " (" + identification.type.identifier + ")", identification.type)
                } catch where error.reason.errno == .noSuchFileOrDirectory {
                    Terminal.error(UnknownIdentifier.message(type) + "; nor is it a file")
                    throw ExitCode(2)
                } catch {
                    Terminal.error(error.description)
                    throw ExitCode(2)
                }
            }
            let conforms = found.conforms(to: supertype)
            if !quiet {
                Terminal.output("\(subject) \(conforms ? "conforms" : "does not conform") to \(supertype.identifier)")
            }
            if !conforms { throw ExitCode(1) }
        }
    }
}
