import Foundation
import TestSupport
import Testing

/// GitHub Linguist's heuristics as the built binary runs them: with the system's PCRE2, and
/// without it (`UTI_PCRE2=off`), by Swift's Regex, to the same answers.
@Suite("Languages from the command line")
struct LanguageCommandTests {
    @Test("without PCRE2 (UTI_PCRE2=off) the built binary gives the same answers, by Swift's Regex")
    func swiftRegexFallback() throws {
        let directory = try TemporaryDirectory()
        let files: [(String, String)] = [
            ("family.pl", ":- module(family, [parent/2]).\nparent(tom, bob).\n"),
            ("tool.pl", "use strict;\nuse warnings;\nprint \"hi\\n\";\n"),
            ("Point.pm", "use v6;\nunit class Point;\nhas $.x;\n"),
            ("View.m", "#import \"View.h\"\n@implementation View\n@end\n"),
            ("solve.m", "% solve\nfunction x = solve(a, b)\n  x = a \\ b;\nend\n"),
            ("fn.sql", "CREATE FUNCTION f() RETURNS int AS $$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql;\n"),
            ("notes.md", "# Notes\n\nText.\n"),
        ]
        var paths: [String] = []
        for (name, text) in files { paths.append(try directory.write(text, to: name)) }
        let preferred = try UTIBinary.run(["identify", "--json", "--"] + paths)
        let fallback = try UTIBinary.run(["identify", "--json", "--"] + paths, environment: ["UTI_PCRE2": "off"])
        #expect(preferred.status == 0 && fallback.status == 0)
        let identifiers = { (output: String) in output.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["identifier"] as? String
        } }
        #expect(identifiers(preferred.standardOutput).count == files.count)
        #expect(identifiers(preferred.standardOutput) == identifiers(fallback.standardOutput))
    }
}
