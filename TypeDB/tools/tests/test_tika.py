"""typedb.tika: Apache Tika's names joined to the database."""

import os
import tempfile
import unittest
from unittest import mock

from typedb import tika
from typedb.tika import distinctive_words, extension_owner, load_tika, same_kind
from tests.helpers import apple, make_db

TIKA = """<?xml version="1.0"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="image/x-raw-sony"><glob pattern="*.arw"/><glob pattern="*.srf"/></mime-type>
  <mime-type type="text/x-swift"><sub-class-of type="text/plain"/><glob pattern="*.swift"/></mime-type>
  <mime-type type="application/x-own"><comment>Own</comment><glob pattern="*.own"/></mime-type>
  <mime-type type="image/x-sony-arw"><alias type="image/x-arw"/></mime-type>
</mime-info>
"""


def record(mime, parents=(), globs=()):
    return {"type": mime, "comment": None, "globs": list(globs), "aliases": [], "parents": list(parents),
            "icon": None, "source": "freedesktop.org-2.4.xml.in"}


class RulesTests(unittest.TestCase):
    def test_extension_owner(self):
        fdo, apple_owners = {"arw": ["image/x-sony-arw"], "dup": ["a/b", "c/d"]}, {"swift": ["public.swift-source"],
                                                                                    "arw": ["com.sony.arw-raw-image"]}
        self.assertEqual(extension_owner("arw", fdo, apple_owners), ("freedesktop", "image/x-sony-arw"))
        self.assertIsNone(extension_owner("dup", fdo, apple_owners))
        self.assertEqual(extension_owner("swift", fdo, apple_owners), ("apple", "public.swift-source"))
        self.assertIsNone(extension_owner("none", fdo, apple_owners))

    def test_distinctive_words(self):
        with mock.patch.object(tika, "GENERIC_SUBTYPE_WORDS", {"vnd"}):
            self.assertEqual(distinctive_words("application/vnd.kde.karbon"), {"kde", "karbon"})
            self.assertEqual(distinctive_words("application/x-karbon"), {"karbon"})   # `x` is too short

    def test_same_kind(self):
        db = make_db()
        apple(db, "public.swift-source", 20, parents=["public.source-code"])
        with mock.patch.object(tika, "GENERIC_SUBTYPE_WORDS", {"vnd"}):
            self.assertTrue(same_kind(db, record("application/vnd.foo+xml"), "freedesktop", "application/xml"))
            self.assertFalse(same_kind(db, record("application/vnd.foo+xml"), "freedesktop", "application/json"))
            self.assertTrue(same_kind(db, record("application/x-sh", parents=["text/plain"]), "apple", "public.swift-source"))
            self.assertFalse(same_kind(db, record("image/x-foo"), "freedesktop", "audio/x-foo"))
            self.assertTrue(same_kind(db, record("application/x-karbon"), "freedesktop", "application/vnd.kde.karbon"))
            self.assertFalse(same_kind(db, record("application/vnd.spotfire.sfs"), "freedesktop", "application/vnd.squashfs"))


class LoadTikaTests(unittest.TestCase):
    def test_other_names_names_by_extension_and_types_of_its_own(self):
        db = make_db()
        apple(db, "public.swift-source", 20, parents=["public.source-code"], extensions=["swift"])
        records = {"image/x-sony-arw": record("image/x-sony-arw", globs=[("*.arw", False)])}
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "apache-tika.xml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(TIKA)
            with mock.patch.object(tika, "TIKA_IDENTIFIERS", {}), mock.patch.object(tika, "TIKA_NOT_THE_SAME", set()), \
                    mock.patch.object(tika, "CURATED_IDENTIFIERS", {}):
                own, deferred = load_tika(db, records, path)
        self.assertEqual(list(own), ["application/x-own"])
        self.assertEqual(list(records), ["image/x-sony-arw", "application/x-own"])
        # Sony's ARW by its extension, with the extension nobody claimed; Swift's name deferred to the Apple type.
        self.assertEqual(records["image/x-sony-arw"]["aliases"], ["image/x-raw-sony", "image/x-arw"])
        self.assertEqual(records["image/x-sony-arw"]["globs"], [("*.arw", False), ("*.srf", False)])
        self.assertEqual(deferred, [("public.swift-source", ["text/x-swift"], [])])
        self.assertEqual(db.notes["Tika's other names for freedesktop types"],
                         ["image/x-raw-sony -> image/x-sony-arw (by extension)", "image/x-arw -> image/x-sony-arw"])


if __name__ == "__main__":
    unittest.main()
