"""typedb.libmagic: libmagic's MIME strings, each on one type (step 4)."""

import os
import tempfile
import unittest
from unittest import mock

from typedb import libmagic
from typedb.libmagic import add_libmagic, find_libmagic_owner, load_libmagic, x_variants
from typedb.model import TypeDecl
from tests.helpers import apple, make_db


class OwnerTests(unittest.TestCase):
    def setUp(self):
        self.db = make_db()
        self.png = apple(self.db, "public.jpeg", 10, parents=["public.image"], mimes=["image/jpeg"])
        self.zip = self.db.add(TypeDecl("uti.mime.application.x-zip", "freedesktop"))
        self.db.claim_mime(self.zip, "application/x-zip")
        patcher = mock.patch.object(libmagic, "LIBMAGIC_EQUIVALENTS", {"image/pjpeg": "image/jpeg",
                                                                       "application/x-pkg": "public.archive"})
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_x_variants(self):
        self.assertEqual(x_variants("application/x-foo"), ["application/foo"])
        self.assertEqual(x_variants("application/foo"), ["application/x-foo"])

    def test_exact_variant_curated_or_none(self):
        self.assertEqual(find_libmagic_owner(self.db, "Image/JPEG"), (self.png, "exact"))
        self.assertEqual(find_libmagic_owner(self.db, "application/zip"), (self.zip, "x-variant application/x-zip"))
        self.assertEqual(find_libmagic_owner(self.db, "image/pjpeg"), (self.png, "curated image/jpeg"))
        self.assertEqual(find_libmagic_owner(self.db, "application/x-pkg"),
                         (self.db.get("public.archive"), "curated public.archive"))
        self.assertEqual(find_libmagic_owner(self.db, "image/x-none"), (None, None))

    def test_a_new_type_for_a_name_no_type_has(self):
        builtin = {"application/x-decompression-error-method-message": ""}
        with mock.patch.object(libmagic, "CURATED_PARENTS", {}):
            created = add_libmagic(self.db, ["image/jpeg", "application/x-zork"],
                                   {"application/x-zork": (["archive"], ["zrk", "ZRK2", "a.b", "xx"])}, builtin)
        zork = self.db.get("uti.mime.application.x-zork")
        self.assertEqual([(decl.identifier, mime) for decl, mime, _, _ in created],
                         [("uti.mime.application.x-zork", "application/x-zork")])
        self.assertEqual(zork.conforms, ["public.archive"])       # from its Magdir file
        self.assertEqual(zork.extensions, ["zrk", "zrk2"])         # lower-cased; `a.b` and `xx` are no extensions
        self.assertEqual(zork.libmagic_extensions, {"zrk", "zrk2"})
        self.assertEqual(self.png.magic, ["image/jpeg"])


class LoadTests(unittest.TestCase):
    def test_load_libmagic(self):
        with tempfile.TemporaryDirectory() as directory:
            for name, text in (("libmagic-5.44-all-mimes.txt", "image/png\n\n application/x-foo \n"),
                               ("libmagic-5.44-mimes.tsv", "mime\tmagdir_file\textensions_seen\n"
                                                           "Application/X-Foo\tarchive[1],compress\tfoo/FOO2/\n"),
                               ("libmagic-5.44-builtin-mimes.tsv", "mime\tcondition\nInode/Directory\tS_ISDIR\n")):
                with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
                    f.write(text)
            all_mimes, rules, builtin = load_libmagic(directory)
        self.assertEqual(all_mimes, ["image/png", "application/x-foo"])
        self.assertEqual(rules, {"application/x-foo": (["archive", "compress"], ["foo", "FOO2"])})
        self.assertEqual(builtin, {"inode/directory": "S_ISDIR"})


if __name__ == "__main__":
    unittest.main()
