import Foundation
import Testing
import TypeDatabaseCompiler

/// compile-typedb, the one writer of generated code: what it writes from TypeDB/ is what the repository holds,
/// and its C is right for any string a table may hold.
@Suite("The generated C sources")
struct GeneratedSourcesTests {
    static let typeDB = Reference.packageRoot.appending(path: "TypeDB").path
    static func source(_ path: String) throws -> String {
        try String(contentsOf: Reference.packageRoot.appending(path: "Sources/" + path), encoding: .utf8)
    }

    @Test("mediatypes.c and languages.c are what compile-typedb writes from TypeDB's two tables")
    func tablesCurrent() throws {
        #expect(CSource.mediaTypes(try TypeDBDirectory.mediaTypes(in: Self.typeDB)) == (try Self.source("CTypeDatabase/mediatypes.c")),
                "run `python3 TypeDB/tools/make-typedb.py`")
        #expect(CSource.languages(try TypeDBDirectory.languages(in: Self.typeDB)) == (try Self.source("CTypeDatabase/languages.c")),
                "run `python3 TypeDB/tools/make-typedb.py`")
    }

    @Test("a string is written as a C literal that holds the same bytes")
    func literals() {
        #expect(CSource.literal(#"a"b\c"#) == #""a\"b\\c""#)
        #expect(CSource.literal("line\nbreak\ttab\u{7F}") == #""line\nbreak\011tab\177""#)
        #expect(CSource.literal("(?x) é # ünïcode") == "\"(?x) é # ünïcode\"")
    }

    @Test("a rule without types or conditions, and a condition without literals, point at nothing rather than at empty arrays")
    func emptyLists() throws {
        let json = #"""
            {"furtherCandidates": {"m": ["a.b", "c.d"]},
             "disambiguations": [{"extensions": ["x", "Y"], "rules": [{"types": [], "conditions": []},
                                  {"types": ["a.b"], "conditions": [{"pattern": "p\"q", "matches": false, "literals": ["ab"]}]}]}]}
            """#
        let table = try JSONDecoder().decode(LanguageTable.self, from: Data(json.utf8))
        let text = CSource.languages(table)
        #expect(text.contains("static const char *const further_0[] = {\"a.b\", \"c.d\"};"))
        #expect(text.contains("    {0, NULL, 0, NULL},"), "the first rule: no types, no conditions")
        #expect(text.contains("    {0, \"p\\\"q\", 1, literals_0_1_0, 0, NULL},"), "\(text)")
        #expect(!text.contains("[] = {}"), "no empty array: C has none")
        #expect(text.contains("{\"Y\", 0},") && text.contains("{\"x\", 0},"))
    }
}
