"""typedb.hierarchy: conformance (step 3), families and tag preference (step 5), validation (step 6)."""

import re
import unittest
from unittest import mock

from typedb import hierarchy
from typedb.hierarchy import (check_tag_preference, expected_apple_winner, family_of, is_textual, kind_parents,
                              order_files, preference_key, root_parent, set_conformance, validate, x_content_parent)
from typedb.model import TypeDecl
from tests.helpers import apple, make_db


class RootTests(unittest.TestCase):
    def test_root_parent(self):
        self.assertEqual(root_parent("inode/directory"), "public.item")
        self.assertEqual(root_parent("X-Content/image-dcf"), "public.item")
        self.assertEqual(root_parent("application/zip"), "public.data")

    def test_x_content_parent(self):
        self.assertEqual(x_content_parent("x-content/blank-cd"), "public.item")
        self.assertEqual(x_content_parent("x-content/audio-cdda"), "public.item")
        self.assertEqual(x_content_parent("x-content/image-dcf"), "public.volume")

    def test_is_textual(self):
        record = {"type": "application/x-foo", "parents": [], "icon": None}
        self.assertFalse(is_textual(record))
        self.assertTrue(is_textual(dict(record, parents=["text/plain"])))
        self.assertTrue(is_textual(dict(record, icon="text-x-script")))
        self.assertTrue(is_textual(dict(record, type="Text/x-foo")))


class KindParentsTests(unittest.TestCase):
    def setUp(self):
        self.db = make_db()
        self.decl = self.db.add(TypeDecl("uti.x", "freedesktop"))
        for name, value in (("ICON_KINDS", {"font-x-generic": "public.font"}), ("SUFFIX_KINDS", {"+json": "public.json"}),
                            ("MAGDIR_CONTAINERS", {}), ("MAGDIR_SCRIPTS", set()), ("MAGDIR_SOURCE_CODE", set())):
            patcher = mock.patch.object(hierarchy, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)

    def kinds(self, mime, comment=None, icon=None, magdirs=(), parents=()):
        return kind_parents(self.db, self.decl, mime, comment, icon, list(magdirs), list(parents))

    def test_media_type_icon_and_suffix(self):
        self.assertEqual(self.kinds("image/x-foo"), ["public.image"])
        self.assertEqual(self.kinds("application/x-foo", icon="font-x-generic"), ["public.font"])
        self.assertEqual(self.kinds("application/vnd.foo+json"), ["public.json"])
        self.assertEqual(self.kinds("audio/x-mpegurl", comment="MP3 playlist"), ["public.playlist"])

    def test_text_by_its_comment(self):
        self.assertEqual(self.kinds("text/x-foo", comment="Foo source code"), ["public.source-code"])
        self.assertEqual(self.kinds("text/x-foo", comment="Foo shell script"), ["public.script"])
        self.assertEqual(self.kinds("text/x-foo", comment="Foo document"), ["public.plain-text"])

    def test_magdir_only_when_nothing_else_is_known(self):
        self.assertEqual(self.kinds("application/x-foo", magdirs=["archive"]), ["public.archive"])
        self.assertEqual(self.kinds("application/x-foo", magdirs=["archive"], parents=["public.image"]), [])


class SetConformanceTests(unittest.TestCase):
    def test_implied_parents_are_dropped(self):
        db = make_db()
        decl = db.add(TypeDecl("uti.x", "freedesktop"))
        set_conformance(db, decl, ["public.data", "public.image", "public.image", "uti.x"], "image/x")
        self.assertEqual(decl.conforms, ["public.image"])

    def test_rooted_by_media_type(self):
        db = make_db()
        folder, data = db.add(TypeDecl("uti.folder", "freedesktop")), db.add(TypeDecl("uti.data", "freedesktop"))
        set_conformance(db, folder, [], "inode/x-folder")
        set_conformance(db, data, [], "application/x-data")
        self.assertEqual((folder.conforms, data.conforms), (["public.item"], ["public.data"]))

    def test_a_parent_that_would_close_a_cycle_is_skipped(self):
        db = make_db()
        set_conformance(db, db.get("public.image"), ["public.png", "public.content"], "image/x")
        self.assertEqual(db.get("public.image").conforms, ["public.content"])
        self.assertEqual(db.notes["skipped (cycle)"], ["public.image -> public.png"])

    def test_an_undeclared_parent_is_an_error(self):
        db = make_db()
        with self.assertRaisesRegex(AssertionError, "uti.x: parent uti.nope is not declared"):
            set_conformance(db, db.add(TypeDecl("uti.x", "curated")), ["uti.nope"], "application/x")


class FamilyTests(unittest.TestCase):
    def setUp(self):
        tables = {"FAMILY_OVERRIDES": {"uti.special": "science"}, "BASE_TYPES": ["public.item", "uti.basic"],
                  "DEVICE_ROOTS": set(), "APPLE_UI_PREFIXES": ("com.apple.finder.",),
                  "GAME_PATTERN": re.compile(r"nes-rom"), "SCIENCE_PATTERN": re.compile(r"fits"),
                  "SECURITY_PATTERN": re.compile(r"pgp")}
        for name, value in tables.items():
            patcher = mock.patch.object(hierarchy, name, value)
            patcher.start()
            self.addCleanup(patcher.stop)

    def family(self, identifier, parents, mime=None, origin="freedesktop"):
        db = make_db()
        decl = db.add(TypeDecl(identifier, origin))
        decl.conforms = parents
        if mime:
            decl.fdo.append({"type": mime})
        return family_of(db, decl)

    def test_by_conformance(self):
        self.assertEqual(self.family("uti.a", ["public.font"]), "font")
        self.assertEqual(self.family("uti.a", ["public.png"]), "image")
        self.assertEqual(self.family("uti.a", ["public.script"]), "source-code")
        self.assertEqual(self.family("uti.a", ["public.archive"]), "archive")
        self.assertEqual(self.family("uti.a", ["public.data"]), "data")

    def test_curated_and_by_name(self):
        self.assertEqual(self.family("uti.special", ["public.font"]), "science")
        self.assertEqual(self.family("uti.basic", ["public.font"]), "base")
        self.assertEqual(self.family("uti.a", ["public.data"], mime="application/x-nes-rom"), "games")
        self.assertEqual(self.family("uti.a", ["public.data"], mime="application/pgp-keys"), "security")
        self.assertEqual(self.family("uti.a", ["public.data"], mime="inode/x-thing"), "filesystem")
        # Apple's own types are not moved by their MIME type's name.
        self.assertEqual(self.family("uti.a", ["public.data"], mime="application/x-nes-rom", origin="apple"), "data")


class PreferenceTests(unittest.TestCase):
    def test_apples_winner_is_the_first_public_claimant(self):
        db = make_db(base=False)
        first, public_late, public_early = (apple(db, "com.x.a", 1), apple(db, "public.b", 5), apple(db, "public.c", 3))
        self.assertIs(expected_apple_winner([first, public_late, public_early]), public_early)
        self.assertIs(expected_apple_winner([apple(db, "com.x.d", 9), first]), first)

    def test_order_within_files_and_preference_key(self):
        db = make_db(base=False)
        ours_b, ours_a = db.add(TypeDecl("uti.B", "curated")), db.add(TypeDecl("uti.a", "curated"))
        late, early = apple(db, "com.x.late", 7), apple(db, "public.early", 2, exported=False)
        for decl in (ours_b, ours_a, late, early):
            decl.family = "data"
        order_files(db)
        self.assertEqual([d.position for d in (early, late, ours_a, ours_b)], [0, 1, 2, 3])
        self.assertEqual(preference_key(early, {"data": 4}), (False, True, 4, 0))
        self.assertEqual(preference_key(ours_b, {"data": 4}), (True, True, 4, 3))

    def test_a_derived_type_that_would_win_an_apple_tag_loses_it(self):
        db = make_db(base=False)
        owner = apple(db, "com.apple.foo", 0, extensions=["foo"])
        intruder = db.add(TypeDecl("public.bar", "curated"))
        intruder.add_extension("FOO")
        intruder.add_extension("bar")
        owner.family = intruder.family = "data"
        self.assertEqual(check_tag_preference(db), 1)
        self.assertEqual(intruder.extensions, ["bar"])
        self.assertEqual(db.notes["tags dropped by the preference check"],
                         ["extension foo dropped from public.bar (Apple: com.apple.foo)"])


class ValidateTests(unittest.TestCase):
    def test_a_sound_database_passes(self):
        db = make_db({"uti.a": ["public.png"]})
        db.claim_mime(db.get("uti.a"), "image/x-a")
        validate(db, [], ["image/x-a"])

    def test_cycles(self):
        db = make_db({"uti.a": ["uti.b"], "uti.b": ["uti.a", "public.data"]})
        with self.assertRaisesRegex(AssertionError, r"^cycle: uti\.a -> uti\.b -> uti\.a$"):
            validate(db, [], [])

    def test_parents_and_roots(self):
        with self.assertRaisesRegex(AssertionError, "uti.a: parent uti.nope not declared"):
            validate(make_db({"uti.a": ["uti.nope"]}), [], [])
        with self.assertRaisesRegex(AssertionError, "uti.a has no parent"):
            validate(make_db({"uti.a": []}), [], [])
        with self.assertRaisesRegex(AssertionError, "uti.a is not rooted at public.item"):
            validate(make_db({"uti.a": ["uti.b"], "uti.b": ["uti.a"]}, base=False), [], [])

    def test_every_libmagic_name_has_a_type(self):
        with self.assertRaisesRegex(AssertionError, "libmagic image/x-none has no type"):
            validate(make_db(), [], ["image/x-none"])


if __name__ == "__main__":
    unittest.main()
