import FileIdentification

/// Command-line arguments as the bytes the shell passed: a file name that is not valid UTF-8 reaches
/// swift-argument-parser with replacement characters, and only the raw `argv` still names the file.
enum RawArguments {
    /// The raw bytes of the argument that decodes to `parsed`, or `parsed` itself.
    static func path(for parsed: String) -> RawFilePath {
        guard parsed.unicodeScalars.contains("\u{FFFD}") else { return RawFilePath(parsed) }
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let length = strlen(argument)
            let bytes = UnsafeRawBufferPointer(start: argument, count: length)
            if String(decoding: bytes, as: UTF8.self) == parsed { return RawFilePath(bytes: bytes) }
        }
        return RawFilePath(parsed)
    }
}

#if canImport(Glibc)
import Glibc
#endif
