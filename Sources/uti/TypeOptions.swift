import ArgumentParser
import UniformTypeIdentifiers
#if canImport(Glibc)
import Glibc
#endif

/// Options every command that looks types up shares: where extra declarations come from.
struct TypeOptions: ParsableArguments {
    @Option(name: .customLong("types"), help: ArgumentHelp(
        "A declaration file (plist with UTExportedTypeDeclarations/UTImportedTypeDeclarations, or an app's Info.plist) to add to the database. Repeatable.",
        valueName: "file"))
    var typeFiles: [String] = []

    /// Registers the declarations of UTI_TYPES_PATH's directories, then of the --types files.
    ///
    /// - Throws: `ExitCode(2)` after printing the refused declaration, naming the file and the entry.
    func loadDeclarations() throws {
        do {
            if let path = getenv("UTI_TYPES_PATH").map({ String(cString: $0) }), !path.isEmpty {
                for directory in path.split(separator: ":") where !directory.isEmpty {
                    try TypeDatabase.shared.registerDeclarations(inDirectory: String(directory))
                }
            }
            for file in typeFiles {
                try TypeDatabase.shared.registerDeclarations(contentsOfFile: file)
            }
        } catch {
            Terminal.error(String(describing: error))
            throw ExitCode(2)
        }
    }
}

enum Terminal {
    /// Prints `uti: message` on standard error.
    static func error(_ message: String) {
        standardError("uti: \(message)\n")
    }

    /// Writes `text` to standard error, unbuffered.
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { break }
                let written = write(STDERR_FILENO, base + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
