"""typedb.curation: the curated tables, and the curated declarations added to the database."""

import os
import plistlib
import re
import tempfile
import unittest

from typedb import curation
from typedb.curation import add_curated_declarations, load_curation
from typedb.paths import SOURCES
from tests.helpers import make_db

TABLES = {
    "identifiers": '[freedesktop]\n"text/x-awk" = "public.awk-script"\n[apple]\nnewer-types = ["public.x"]\n'
                   '[apple.missing-parents]\n"public.y" = ["public.data"]\n[renamed-after-2-2]\n"application/x-awk" = "text/x-awk"\n',
    "parents": '[parents]\n"public.x" = ["public.data"]\n[kinds.icons]\nfolder = "public.folder"\n'
               '[kinds.suffixes]\n"+xml" = "public.xml"\n',
    "libmagic": '[equivalents]\n"image/pjpeg" = "image/jpeg"\n[magdir]\ncontainers = { riff = "application/x-riff" }\n'
                'source-code = ["c-lang", "c-lang"]\nscripts = ["perl"]\n',
    "families": '[descriptions]\ndata = "other data"\n[overrides]\n"public.x" = "data"\n'
                '[rules]\nbase-types = ["public.item"]\ndevice-roots = ["public.device"]\napple-ui-prefixes = ["com.apple.finder."]\n'
                'games-pattern = "nes-rom"\nscience-pattern = "fits"\nsecurity-pattern = "pgp"\n',
    "tika": 'not-the-same = ["a/b"]\ngeneric-subtype-words = ["vnd"]\n[identifiers]\n"c/d" = "public.c"\n',
    "languages": '[types]\nC = "public.c-source"\n[own-types]\nnames = ["Zig"]\n[parents]\nTSX = "TypeScript"\n'
                 '[magika-labels]\nelf = "public.elf-binary"\n',
    "content": 'text = ["public.a"]\ntext-or-binary = ["public.b"]\nbinary = []\nsignature = ["public.c"]\n'
               '[kind-of]\n"org.idpf.epub-container" = ["public.zip-archive"]\n[any-binary]\nbin = "firmware"\n',
    "tags": '[extensions]\n"public.x" = ["x"]\n[descriptions]\n"public.x" = "X"\n[magika-text-labels]\n"public.y" = "asc"\n',
}


class LoadCurationTests(unittest.TestCase):
    def test_tables_by_the_steps_names(self):
        with tempfile.TemporaryDirectory() as directory:
            for name, text in TABLES.items():
                with open(os.path.join(directory, name + ".toml"), "w", encoding="utf-8") as f:
                    f.write(text)
            tables = load_curation(directory)
        self.assertEqual(tables["CURATED_IDENTIFIERS"], {"text/x-awk": "public.awk-script"})
        self.assertEqual(tables["RENAMED_AFTER_2_2"], {"application/x-awk": "text/x-awk"})
        self.assertEqual(tables["MISSING_APPLE_PARENTS"], {"public.y": ["public.data"]})
        self.assertEqual(tables["MAGDIR_SOURCE_CODE"], {"c-lang"})                 # a set
        self.assertEqual(tables["MAGDIR_CONTAINERS"], {"riff": "application/x-riff"})
        self.assertEqual(tables["APPLE_UI_PREFIXES"], ("com.apple.finder.",))      # a tuple, for str.startswith
        self.assertEqual(tables["GAME_PATTERN"], re.compile("nes-rom"))
        self.assertEqual(tables["LANGUAGES_OF_THEIR_OWN"], {"Zig"})
        self.assertEqual(tables["CONTENT_KINDS"], {"org.idpf.epub-container": ["public.zip-archive"]})
        self.assertEqual(tables["CURATED_MAGIKA_TEXT_LABELS"], {"public.y": "asc"})
        self.assertEqual(tables["CONTENT_ANY_BINARY"], {"bin": "firmware"})
        self.assertEqual(len(tables), 35)

    def test_the_module_holds_every_table_of_the_repository(self):
        tables = load_curation(os.path.join(SOURCES, "curated"))
        for name, value in tables.items():
            self.assertEqual(getattr(curation, name), value, name)


class CuratedDeclarationsTests(unittest.TestCase):
    def declare(self, db, entries):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "declarations.plist")
            with open(path, "wb") as f:
                plistlib.dump({"UTImportedTypeDeclarations": entries}, f)
            add_curated_declarations(db, path)

    def test_a_new_type_with_its_tags(self):
        db = make_db()
        self.declare(db, [{"UTTypeIdentifier": "org.apache.arrow.file", "UTTypeConformsTo": ["public.data"],
                           "UTTypeDescription": "Arrow IPC file",
                           "UTTypeTagSpecification": {"public.filename-extension": ["arrow", "ARROW"],
                                                      "public.mime-type": ["application/vnd.apache.arrow.file"],
                                                      "uti.filename-glob": ["*.arrow[0-9]"]}}])
        decl = db.get("org.apache.arrow.file")
        self.assertEqual((decl.origin, decl.exported, decl.conforms, decl.description),
                         ("curated", False, ["public.data"], "Arrow IPC file"))
        self.assertEqual((decl.extensions, decl.mimes, decl.patterns),
                         (["arrow"], ["application/vnd.apache.arrow.file"], ["*.arrow[0-9]"]))
        self.assertEqual(db.notes["curated declarations"], ["org.apache.arrow.file"])

    def test_refusals(self):
        cases = [({"UTTypeIdentifier": "public.png"}, "public.png is declared by a source already"),
                 ({"UTTypeIdentifier": "bad..id"}, "'bad..id' is not a valid type identifier"),
                 ({"UTTypeIdentifier": "uti.a", "UTTypeConformsTo": ["uti.nope"]}, "parent uti.nope is not declared"),
                 ({"UTTypeIdentifier": "uti.b", "UTTypeTagSpecification": {"uti.nope": ["x"]}}, "unknown tag class uti.nope")]
        for entry, message in cases:
            with self.subTest(message), self.assertRaises(SystemExit) as raised:
                self.declare(make_db(), [entry])
            self.assertIn(message, str(raised.exception.code))


if __name__ == "__main__":
    unittest.main()
