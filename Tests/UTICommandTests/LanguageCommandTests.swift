import Foundation
import TestSupport
import Testing

/// GitHub Linguist's heuristics as the built binary runs them, with the PCRE2 it links.
@Suite("Languages from the command line")
struct LanguageCommandTests {
    @Test("the built binary chooses among an extension's languages by the text, as Linguist's heuristics do")
    func heuristicsInTheBinary() throws {
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
        let result = try UTIBinary.run(["identify", "--json", "--"] + paths)
        #expect(result.status == 0)
        let identifiers = result.standardOutput.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["identifier"] as? String
        }
        #expect(identifiers == ["uti.mime.text.x-prolog", "public.perl-script", "uti.language.raku", "public.objective-c-source",
                                "uti.mime.text.x-matlab", "uti.language.plpgsql", "net.daringfireball.markdown"])
    }
}
