"""typedb.linguist: Linguist's heuristics as languages.json's disambiguations, and where a new language type sits."""

import unittest
from unittest import mock

from typedb import linguist
from tests.helpers import make_db

HEURISTICS = {
    "named_patterns": {"cpp": [r"^\s*#include <", r"^class\b"]},
    "disambiguations": [
        {"extensions": [".h", ".HPP"], "rules": [
            {"language": "Objective-C", "pattern": r"^\s*@interface"},
            {"language": "C++", "named_pattern": "cpp"},
            {"language": ["C", "Unknown"], "and": [{"negative_pattern": r"(?m)x\h"},
                                                   {"pattern": "(?x)\n  foo # a comment\n  bar"}]},
            {"language": "Nobody"},
        ]},
        {"extensions": [".pl"], "rules": [{"language": "Perl", "pattern": ["use strict", "my \\$"]}]},
    ],
}
LANGUAGES = {"Objective-C": "public.objective-c-source", "C++": "public.c-plus-plus-header",
             "C": "public.c-header", "Perl": "public.perl-script"}


class DisambiguationsTests(unittest.TestCase):
    def blocks(self):
        with mock.patch.object(linguist, "read_yaml", return_value=HEURISTICS) as read:
            blocks = linguist.disambiguations(LANGUAGES)
        self.assertTrue(read.call_args.args[0].endswith("linguist-heuristics.yml"))
        return blocks

    def test_disambiguations_rules_and_conditions(self):
        first = self.blocks()[0]
        self.assertEqual(first["extensions"], ["h", "hpp"])
        self.assertEqual(first["rules"][:2], [
            {"types": ["public.objective-c-source"],
             "conditions": [{"pattern": r"^\s*+@interface", "matches": True, "literals": ["@interface"], "foldedLiterals": []}]},
            {"types": ["public.c-plus-plus-header"],         # a named pattern's list: the union
             "conditions": [{"pattern": r"(?:^\s*#include <)|(?:^class\b)", "matches": True,
                             "literals": ["#include <", "class"], "foldedLiterals": []}]},
        ])

    def test_and_negative_and_free_spacing(self):
        third, fourth = self.blocks()[0]["rules"][2:]
        self.assertEqual(third, {"types": ["public.c-header"], "conditions": [   # a language the table lacks is left out
            {"pattern": "(?s)x[0-9A-Fa-f]", "matches": False},                   # PCRE2's syntax; no literal of 2 bytes
            {"pattern": "(?x)\n  foo # a comment\n  bar", "matches": True, "literals": ["foobar"], "foldedLiterals": []},
        ]})
        self.assertEqual(fourth, {"types": [], "conditions": []})                # no known language: the rule chooses none

    def test_a_list_of_patterns_is_their_union(self):
        self.assertEqual(self.blocks()[1], {"extensions": ["pl"], "rules": [{"types": ["public.perl-script"], "conditions": [
            {"pattern": r"(?:use strict)|(?:my \$)", "matches": True, "literals": ["my $", "use strict"], "foldedLiterals": []}]}]})


class LanguageParentsTests(unittest.TestCase):
    def test_programming_languages_are_source_code_or_scripts(self):
        db = make_db()
        self.assertEqual(linguist.language_parents(db, "Zig", {"type": "programming"}), ["public.source-code"])
        self.assertEqual(linguist.language_parents(db, "Tcl", {"type": "programming", "interpreters": ["tclsh"]}),
                         ["public.script"])

    def test_data_languages_by_their_textmate_scope(self):
        db = make_db()
        self.assertEqual(linguist.language_parents(db, "X", {"type": "data", "tm_scope": "source.json.comments"}),
                         ["public.json"])
        self.assertEqual(linguist.language_parents(db, "X", {"type": "data", "tm_scope": "text.xml.svg"}), ["public.xml"])
        self.assertEqual(linguist.language_parents(db, "X", {"type": "prose"}), ["public.plain-text"])

    def test_yaml_only_where_the_database_has_it(self):
        entry = {"type": "data", "tm_scope": "source.yaml"}
        self.assertEqual(linguist.language_parents(make_db(), "X", entry), ["public.plain-text"])
        self.assertEqual(linguist.language_parents(make_db({"public.yaml": ["public.text"]}), "X", entry), ["public.yaml"])


if __name__ == "__main__":
    unittest.main()
