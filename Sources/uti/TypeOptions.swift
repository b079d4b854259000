import ArgumentParser
import FileIdentification
import SystemCalls
import SystemPackage
import UniformTypeIdentifiers
import UTIReports
#if canImport(Glibc)
import Glibc
#endif

/// Options every command that looks types up shares: where extra declarations come from.
struct TypeOptions: ParsableArguments {
    /// How the option is written (the fast path of `identify` and `info` reads it too).
    static let spelling = "--types"

    @Option(name: .customLong(String(spelling.dropFirst(2))), help: ArgumentHelp(
        "A declaration file (plist with UTExportedTypeDeclarations/UTImportedTypeDeclarations, or an app's Info.plist) to add to the database. Repeatable.",
        valueName: "file"), completion: .file(extensions: ["plist"]))
    var typeFiles: [String] = []

    /// Registers the declarations of UTI_TYPES_PATH's directories, then of the --types files.
    ///
    /// - Throws: `ExitCode(2)` after printing the refused declaration, naming the file and the entry.
    func loadDeclarations() throws {
        guard Self.loadDeclarations(typeFiles: typeFiles) else { throw ExitCode(2) }
    }

    /// Registers the declarations of UTI_TYPES_PATH's directories, then of `typeFiles`; on a refused
    /// declaration, prints it (file, entry, problem) and returns false.
    static func loadDeclarations(typeFiles: [String]) -> Bool {
        do {
            try TypeDatabase.shared.registerUserDeclarations(files: typeFiles)
            return true
        } catch {
            Terminal.error(error.description)
            return false
        }
    }
}

/// `--mime-names`: whose names a file's MIME type is reported in.
struct MIMENamesOption: ParsableArguments {
    /// How the option is written (the fast path of `identify` reads it too).
    static let spelling = "--mime-names"

    @Option(name: .customLong(String(spelling.dropFirst(2))), help: ArgumentHelp(
        "Report MIME types in these names: standard (IANA's registered name, else freedesktop's, Tika's, libmagic's; the default), freedesktop, tika, libmagic (libmagic's words for the type; see the Identification article for how they differ from file --mime-type's answers) or magika.",
        valueName: "vocabulary"), completion: .list(MIMENames.allCases.map(\.rawValue)), transform: { text in
            guard let names = MIMENames(rawValue: text) else {
                throw ValidationError("expected one of \(MIMENames.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return names
        })
    var names: MIMENames = .standard
}

/// Standard output, buffered: one `write` per 64 KiB rather than one per line.
struct StandardOutput: ~Copyable {
    /// What waits to be written: storage of its own, appended to without a copy-on-write check per piece (a
    /// classification writes a dozen pieces a record).
    private var buffer = ByteWriter(capacity: Self.flushSize + 4096)
    /// How much is gathered before a write.
    private static let flushSize = 1 << 16

    init() {}

    /// Appends a line, its control characters escaped (see `Terminal.safe`).
    mutating func line(_ text: String) {
        buffer.append(utf8: Terminal.safe(text))
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Appends a line that `write` puts straight into the buffer (valid UTF-8, as from strings): escaped as
    /// `line` would, which it needs only when it holds a byte outside printable ASCII. A record writer that
    /// renders this way makes no string of its own per line.
    mutating func line(writing write: (inout ByteWriter) -> Void) {
        let start = buffer.count
        write(&buffer)
        let needsLook = buffer.withBytes { written in
            !PrintableASCII.test(UnsafeBufferPointer(rebasing: written[start...]), allowingQuotes: true)
        }
        if needsLook {
            let text = buffer.withBytes { String(decoding: UnsafeBufferPointer(rebasing: $0[start...]), as: UTF8.self) }
            buffer.truncate(to: start)
            buffer.append(utf8: Terminal.safe(text))
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.flushSize { flush() }
    }

    /// Appends bytes as they are: names for another program (`-0` output), not for a terminal.
    mutating func raw(_ bytes: [UInt8]) {
        buffer.append(bytes: bytes)
        if buffer.count >= Self.flushSize { flush() }
    }

    mutating func flush() {
        buffer.withBytes(Self.writeAll)
        buffer.truncate(to: 0)
    }

    deinit { buffer.withBytes(Self.writeAll) }

    /// A reader that went away (`EPIPE`) is not an error worth a message: the output is simply not read.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        try? FileDescriptor.standardOutput.writeAll(bytes)
    }
}

enum Terminal {
    /// Prints `uti: message` on standard error.
    static func error(_ message: String) {
        standardError("uti: \(safe(message))\n")
    }

    /// Prints `uti: warning: message` on standard error.
    static func warning(_ message: String) {
        standardError("uti: warning: \(safe(message))\n")
    }

    /// Prints a line of human-readable output on standard output.
    static func output(_ line: String) {
        print(safe(line))
    }

    /// `text` with what a terminal would act on instead of showing written as `\xNN` (control characters,
    /// C1 controls, bidirectional overrides): a name or a manifest's string can neither move the cursor
    /// nor forge a line of output. Paths arrive already escaped (`RawFilePath.escaped`); JSON escapes by
    /// construction, so this changes nothing in a JSON line.
    static func safe(_ text: String) -> String {
        var text = text
        guard !text.withUTF8({ PrintableASCII.test($0, allowingQuotes: true) }) else { return text }
        let escaped = RawFilePath.escape(Array(text.utf8), escapingBackslash: false)
        return escaped.utf8.elementsEqual(text.utf8) ? text : escaped
    }

    /// Writes `text` to standard error, unbuffered.
    static func standardError(_ text: String) {
        try? FileDescriptor.standardError.writeAll(Array(text.utf8))
    }
}
