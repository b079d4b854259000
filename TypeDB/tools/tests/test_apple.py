"""typedb.apple: Apple's types (step 1)."""

import os
import tempfile
import unittest
from unittest import mock

from typedb import apple as step
from tests.helpers import apple, make_db

MACOS = ("identifier\tgroup\tconformsTo\tdescription\tfilenameExtensions\tmimeTypes\n"
         "com.canon.cr2-raw-image\tsystem\tpublic.image\tCanon CR2\tcr2 pic\timage/x-canon-cr2 image/pict\n")


class AppleTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def write(self, name, text):
        with open(os.path.join(self.directory.name, name), "w", encoding="utf-8") as f:
            f.write(text)

    def test_macos_types_follow_coretypes_and_leave_it_its_tags(self):
        db = make_db()
        apple(db, "com.apple.pict", 100, parents=["public.image"], extensions=["pic", "pct"], mimes=["image/pict"])
        self.write(step.MACOS_TSV, MACOS)
        step.load_macos_system_types(db, self.directory.name)
        cr2 = db.get("com.canon.cr2-raw-image")
        self.assertEqual((cr2.apple_index, cr2.exported, cr2.conforms, cr2.description), (964, True, ["public.image"], "Canon CR2"))
        self.assertEqual((cr2.extensions, cr2.mimes), (["cr2"], ["image/x-canon-cr2"]))
        self.assertEqual(db.notes["macOS tags CoreTypes gives another type"],
                         ["pic (com.canon.cr2-raw-image)", "image/pict (com.canon.cr2-raw-image)"])
        self.assertEqual(db.apple_ext_claimants["cr2"], [cr2])
        self.assertIs(db.owner_of_mime("image/x-canon-cr2"), cr2)

    def test_newer_constants_need_a_declaration(self):
        self.write("uttype-constants.tsv", "identifier\npublic.png\npublic.newer\n")
        tables = {"NEWER_APPLE_TYPES": ["public.newer"], "CURATED_PARENTS": {"public.newer": ["public.data"]},
                  "MISSING_APPLE_PARENTS": {"com.apple.missing": ["public.item"]}, "CURATED_IDENTIFIERS": {}}
        with mock.patch.multiple(step, **tables):
            db = make_db()
            step.load_newer_apple_constants(db, self.directory.name)
            self.assertEqual((db.get("public.newer").origin, db.get("public.newer").conforms), ("curated", ["public.data"]))
            self.assertEqual(db.get("com.apple.missing").conforms, ["public.item"])
            self.assertEqual(db.notes["newer Apple constants"], ["public.newer"])
            self.write("uttype-constants.tsv", "identifier\npublic.zzz\n")
            with self.assertRaisesRegex(AssertionError, "UTType constant public.zzz has no declaration"):
                step.load_newer_apple_constants(make_db(), self.directory.name)


if __name__ == "__main__":
    unittest.main()
