"""typedb.rubyregex: Linguist's Ruby patterns in PCRE2's syntax, and the literals a pattern needs."""

import unittest

from typedb.rubyregex import required_literals, ruby_pattern


class RubyPatternTests(unittest.TestCase):
    def test_ruby_multiline_flag_is_dot_all(self):
        self.assertEqual(ruby_pattern("(?m)a.b"), "(?s)a.b")
        self.assertEqual(ruby_pattern("(?i-m:x)"), "(?i-s:x)")
        self.assertEqual(ruby_pattern("(?mix)y"), "(?six)y")

    def test_hex_digit_escapes(self):
        self.assertEqual(ruby_pattern(r"\h+"), "[0-9A-Fa-f]+")
        self.assertEqual(ruby_pattern(r"[\h_]"), "[0-9A-Fa-f_]")    # inside a class: the range alone
        self.assertEqual(ruby_pattern(r"\H"), "[^0-9A-Fa-f]")
        self.assertEqual(ruby_pattern(r"\\h"), r"\\h")              # an escaped backslash, then the letter h

    def test_open_lower_bound_of_a_repeat(self):
        self.assertEqual(ruby_pattern("a{,3}"), "a{0,3}")
        self.assertEqual(ruby_pattern("[{,]"), "[{,]")              # not a repeat inside a class

    def test_class_intersection_becomes_a_lookahead(self):
        self.assertEqual(ruby_pattern("[a-z&&[^aeiou]]"), "(?:(?![aeiou])[a-z])")
        self.assertEqual(ruby_pattern("[a-z&&[xyz]]"), "(?:(?=[xyz])[a-z])")

    def test_what_both_read_alike_is_left_alone(self):
        # Named groups, possessive repeats, atomic groups and escaped parentheses are PCRE2's syntax too.
        for pattern in (r"(?<word>\w+)", "a++(?>b)", r"\(?m\)", "[(?m)]"):
            self.assertEqual(ruby_pattern(pattern), pattern)


class RequiredLiteralsTests(unittest.TestCase):
    def test_alternation_needs_one_of_its_branches(self):
        self.assertEqual(required_literals("foo|bar"), ["bar", "foo"])
        self.assertIsNone(required_literals(r"foo|\d"))             # a branch with no literal: no test

    def test_case_insensitive_literals_are_folded_and_marked(self):
        self.assertEqual(required_literals("(?i)Hello"), ["\x03hello"])
        self.assertEqual(required_literals("(?<!x)(?i:Ab)"), ["\x03ab"])

    def test_the_most_selective_literal_of_a_sequence(self):
        self.assertEqual(required_literals(r"\d+foo"), ["foo"])
        self.assertEqual(required_literals("ab.*abcdef"), ["abcdef"])
        self.assertEqual(required_literals("caf\u00e9x"), ["caf"])  # ASCII only; one byte is no test

    def test_too_short_or_unreadable(self):
        self.assertIsNone(required_literals("a"))
        self.assertIsNone(required_literals("("))

    def test_repeats_lookaheads_and_groups(self):
        self.assertEqual(required_literals("(?=.*module)"), ["module"])
        self.assertIsNone(required_literals("(?:ab){0,2}"))
        self.assertEqual(required_literals("(?:ab){1,2}"), ["ab"])
        self.assertEqual(required_literals("(?:foo)++"), ["foo"])           # possessive
        self.assertEqual(required_literals("(?>foo|bar)"), ["bar", "foo"])  # atomic

    def test_named_groups_in_pcre2_spelling(self):
        self.assertEqual(required_literals(r"(?<tag>import)\s"), ["import"])

    def test_free_spacing_mode(self):
        self.assertEqual(required_literals("(?x)\n  foo # a comment\n  bar"), ["foobar"])


if __name__ == "__main__":
    unittest.main()
