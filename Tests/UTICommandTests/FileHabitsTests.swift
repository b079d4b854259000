import Foundation
import TestSupport
import Testing

/// `uti identify` with file(1)'s options, for the people and scripts that come from it: through the built
/// binary, and beside the `file` binary itself where the machine has it.
@Suite("uti identify with file(1)'s options")
struct FileHabitsTests {
    /// A PNG, ASCII text, UTF-8 text and an empty file, made for one test.
    static func samples() throws -> (TemporaryDirectory, png: String, ascii: String, utf8: String, empty: String) {
        let files = try TemporaryDirectory()
        return (files, try files.write(IdentifyCommandTests.png + [UInt8](repeating: 0, count: 64), to: "image.png"),
                try files.write(Array("three lines\nof plain\ntext\n".utf8), to: "notes.txt"),
                try files.write(Array("Grüße aus Köln\n".utf8), to: "gruss.txt"), try files.write([], to: "empty"))
    }

    @Test("-b, --mime-type, -i and --mime-encoding print what file(1) prints for the same answer")
    func mimeOutputs() throws {
        let (files, png, ascii, utf8, _) = try Self.samples()
        _ = files
        #expect(try UTIBinary.run(["identify", "-b", "--mime-type", png, ascii]).lines == ["image/png", "text/plain"])
        #expect(try UTIBinary.run(["identify", "--brief", "-i", png, ascii, utf8]).lines
                == ["image/png; charset=binary", "text/plain; charset=us-ascii", "text/plain; charset=utf-8"])
        #expect(try UTIBinary.run(["identify", "--mime-encoding", png, utf8]).lines == ["\(png): binary", "\(utf8): utf-8"])
        #expect(try UTIBinary.run(["identify", "--mime-type", ascii]).lines == (try UTIBinary.run(["identify", "--mime", ascii]).lines))
    }

    @Test("beside file(1): the same lines for -b --mime-type, -i and --mime-encoding on files both name alike",
          .enabled(if: Tools.has("file"), "needs file(1)"))
    func besideFile() throws {
        let (files, png, ascii, utf8, _) = try Self.samples()
        _ = files
        for options in [["-b", "--mime-type"], ["-i"], ["--mime-encoding"], ["-b", "-i"]] {
            let theirs = try UTIBinary.run(executable: URL(filePath: "/usr/bin/file"), options + [png, ascii, utf8])
            let ours = try UTIBinary.run(["identify"] + options + [png, ascii, utf8])
            // file(1) pads the names to one column; the words after them are what must agree.
            let words = { (result: CommandResult) in result.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") } }
            #expect(words(ours) == words(theirs), "\(options)")
        }
    }

    @Test("one line per file, a file that cannot be read too, so that lines stay with their files; the exit status says it")
    func errorsInLine() throws {
        let (files, png, ascii, _, _) = try Self.samples()
        let missing = files.file("missing.txt")
        let result = try UTIBinary.run(["identify", "--mime-type", png, missing, ascii])
        #expect(result.status == 1)
        #expect(result.lines == ["\(png): image/png", "\(missing): cannot open (No such file or directory)", "\(ascii): text/plain"])
        #expect(result.standardError.contains("\(missing): No such file or directory"), "the error is also told on standard error")
        #expect(try UTIBinary.run(["identify", "-b", missing]).lines == ["cannot open (No such file or directory)"])
    }

    @Test("-0 writes a NUL after each name and --separator replaces the colon, as file(1)'s do")
    func separators() throws {
        let (files, png, ascii, _, _) = try Self.samples()
        _ = files
        #expect(try UTIBinary.run(["identify", "--mime-type", "-0", png]).standardOutput == "\(png)\u{0}: image/png\n")
        #expect(try UTIBinary.run(["identify", "--mime-type", "--separator", " =>", ascii]).lines == ["\(ascii) => text/plain"])
        let refused = try UTIBinary.run(["identify", "--json", "-b", ascii])
        #expect(refused.status == 64 && refused.standardError.contains("--json writes objects"), "\(refused.standardError)")
    }

    @Test("-f reads the names of files, one per line, from a file or standard input, before the files given")
    func namesFromFile() throws {
        let (files, png, ascii, utf8, _) = try Self.samples()
        let names = try files.write(Array("\(png)\n\(ascii)\n".utf8), to: "names")
        #expect(try UTIBinary.run(["identify", "-b", "--mime-type", "-f", names, utf8]).lines == ["image/png", "text/plain", "text/plain"])
        let piped = try UTIBinary.run(["identify", "--mime-type", "--files-from", "-"], input: Data("\(utf8)\n".utf8))
        #expect(piped.lines == ["\(utf8): text/plain"])
        let missing = try UTIBinary.run(["identify", "-f", files.file("no-names"), ascii])
        #expect(missing.status == 1 && missing.standardError.contains("cannot read the names of files"), "\(missing.standardError)")
        #expect(missing.lines.count == 1, "the files given are still identified")
    }

    @Test("-E is accepted (identify always exits 1 when a file cannot be read); -s is refused with the reason")
    func exitAndSpecialFiles() throws {
        let (files, _, ascii, _, _) = try Self.samples()
        let missing = files.file("missing.txt")
        let errors = try UTIBinary.run(["identify", "-E", ascii, missing])
        #expect(errors.status == 1 && errors.lines.count == 2)
        let special = try UTIBinary.run(["identify", "-s", "/dev/null"])
        #expect(special.status == 64 && special.standardError.contains("names a device"), "\(special.standardError)")
    }
}
