"""typedb.model: TypeDecl and TypeDB."""

import unittest

from typedb.model import TypeDB, TypeDecl
from tests.helpers import apple, make_db


class TypeDeclTests(unittest.TestCase):
    def test_tags_are_kept_once_whatever_their_case(self):
        decl = TypeDecl("uti.x", "freedesktop")
        for ext in ("JPG", "jpg", "jpeg"):
            decl.add_extension(ext)
        for mime in ("image/JPEG", "image/jpeg"):
            decl.add_mime(mime)
        self.assertEqual(decl.extensions, ["JPG", "jpeg"])
        self.assertEqual(decl.mimes, ["image/JPEG"])

    def test_public_and_apple(self):
        self.assertTrue(TypeDecl("Public.Foo", "curated").is_public)
        self.assertFalse(TypeDecl("com.apple.foo", "apple").is_public)
        self.assertTrue(TypeDecl("com.apple.foo", "apple").is_apple)
        self.assertFalse(TypeDecl("uti.mime.a.b", "libmagic").is_apple)


class TypeDBTests(unittest.TestCase):
    def test_declare_and_look_up_case_insensitively(self):
        db = TypeDB()
        decl = db.add(TypeDecl("public.PNG", "apple"))
        self.assertIs(db.get("PUBLIC.png"), decl)
        self.assertIsNone(db.get("public.gif"))
        with self.assertRaisesRegex(AssertionError, "identifier declared twice: public.png"):
            db.add(TypeDecl("public.png", "curated"))

    def test_a_mime_type_names_one_type(self):
        db = TypeDB()
        first, second = db.add(TypeDecl("uti.a", "freedesktop")), db.add(TypeDecl("uti.b", "freedesktop"))
        self.assertTrue(db.claim_mime(first, "Text/X-Foo"))
        self.assertFalse(db.claim_mime(second, "text/x-foo"))
        self.assertTrue(db.claim_mime(first, "text/x-foo"))
        self.assertEqual(first.mimes, ["text/x-foo"])       # lower-cased, once
        self.assertEqual(second.mimes, [])
        self.assertIs(db.owner_of_mime("TEXT/x-foo"), first)
        self.assertIsNone(db.owner_of_mime("text/x-bar"))

    def test_apple_keeps_its_own_spelling(self):
        db = TypeDB()
        decl = apple(db, "com.microsoft.word.doc", 0, mimes=["application/msWord"])
        self.assertTrue(db.claim_mime(decl, "application/msword"))
        self.assertEqual(decl.mimes, ["application/msWord"])

    def test_ancestors_and_conformance(self):
        db = make_db()
        png = db.get("public.png")
        self.assertEqual(db.ancestors(png), {"public.png", "public.image", "public.data", "public.content", "public.item"})
        self.assertTrue(db.conforms_to(png, "Public.Data"))
        self.assertFalse(db.conforms_to(png, "public.text"))

    def test_ancestors_end_on_a_cycle_and_an_undeclared_parent(self):
        db = make_db({"uti.a": ["uti.b"], "uti.b": ["uti.a", "uti.undeclared"]}, base=False)
        self.assertEqual(db.ancestors(db.get("uti.a")), {"uti.a", "uti.b", "uti.undeclared"})


if __name__ == "__main__":
    unittest.main()
