"""typedb.names: how names of languages are compared and spelled."""

import unittest

from typedb.model import TypeDecl
from typedb.names import language_slug, names_language, squashed


def decl(identifier, description=None):
    made = TypeDecl(identifier, "apple")
    made.description = description
    return made


class NamesTests(unittest.TestCase):
    def test_squashed(self):
        self.assertEqual(squashed("C++"), "cplusplus")
        self.assertEqual(squashed("C#"), "csharp")
        self.assertEqual(squashed("Objective-C"), "objectivec")

    def test_language_slug(self):
        self.assertEqual(language_slug("Objective-C++"), "objective-c-plus-plus")
        self.assertEqual(language_slug("F*"), "f-star")
        self.assertEqual(language_slug("Ren'Py"), "ren-py")
        self.assertEqual(language_slug("..."), "language")

    def test_a_short_name_must_be_a_word(self):
        self.assertTrue(names_language(decl("public.c-source"), "C"))
        self.assertFalse(names_language(decl("public.css"), "C"))
        self.assertTrue(names_language(decl("uti.x", "R script"), "R"))

    def test_a_longer_name_anywhere_squashed(self):
        self.assertTrue(names_language(decl("com.apple.objective-c-source"), "Objective-C"))
        self.assertTrue(names_language(decl("uti.x", "C++ header"), "C++"))
        self.assertFalse(names_language(decl("public.python-script"), "Swift"))


if __name__ == "__main__":
    unittest.main()
