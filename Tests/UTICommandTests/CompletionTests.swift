import Foundation
import TestSupport
import Testing

/// Tab completion as a shell runs it: the script `uti --generate-completion-script bash` writes, sourced in a
/// bash with no profile, asked for the words after a partial command line.
@Suite("Tab completion")
struct CompletionTests {
    /// What bash completes `line` to (the last word is the one being completed), in `directory`.
    static func completions(_ line: String, in directory: String) throws -> [String] {
        let script = try UTIBinary.run(["--generate-completion-script", "bash"])
        let file = URL(filePath: directory).appending(path: "uti.bash")
        try Data(script.standardOutput.utf8).write(to: file)
        let program = """
            source "$1"; cd "$2"
            function=$(complete -p uti | sed -E 's/.* -F ([^ ]+) .*/\\1/')
            read -ra COMP_WORDS <<< "$3"; [[ "$3" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$3"; COMP_POINT=${#COMP_LINE}
            "$function" uti "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try UTIBinary.run(executable: URL(filePath: "/bin/bash"), ["--norc", "--noprofile", "-c", program, "bash", file.path, directory, line])
        return result.lines.filter { !$0.isEmpty }.sorted()
    }

    @Test("file names complete where a command takes files; options offer their fixed values", .enabled(if: Tools.has("bash"), "needs bash"))
    func filesAndValues() throws {
        let files = try TemporaryDirectory()
        _ = try files.write(Array("x".utf8), to: "readme.txt")
        _ = try files.write(Array("x".utf8), to: "report.pdf")
        _ = try files.write(Array("x".utf8), to: "extra.plist")
        for command in ["uti identify re", "uti classify re", "uti route re", "uti conforms re"] {
            #expect(try Self.completions(command, in: files.path) == ["readme.txt", "report.pdf"], "\(command)")
        }
        #expect(try Self.completions("uti identify --types ", in: files.path) == ["extra.plist"])
        #expect(try Self.completions("uti identify --mime-names ", in: files.path) == ["freedesktop", "libmagic", "magika", "standard", "tika"])
        #expect(try Self.completions("uti classify --format ", in: files.path) == ["csv", "droid", "json", "ndjson", "table", "tsv"])
    }
}
