"""typedb.output: the declarations as Apple's Info.plist schema, one file per family."""

import json
import os
import plistlib
import tempfile
import unittest
from unittest import mock

from typedb import output
from typedb.model import TypeDecl
from typedb.output import declaration, write_files
from tests.helpers import apple, make_db


class DeclarationTests(unittest.TestCase):
    def test_every_tag_class_in_its_key(self):
        decl = TypeDecl("uti.x", "curated")
        decl.conforms, decl.description = ["public.data"], "X"
        decl.add_extension("x")
        decl.add_mime("application/x-x")
        decl.filenames, decl.suffixes, decl.patterns = ["Xfile"], ["x.gz"], ["*.x[0-9]"]
        decl.interpreters, decl.languages, decl.magika_labels, decl.magika_mimes = ["xi"], ["X"], ["x"], ["text/x-x"]
        decl.magika_text_mime, decl.libmagic_descriptions, decl.kinds = "text/x-xa", ["X data"], ["public.zip-archive"]
        decl.content, decl.signature = "text", "required"
        self.assertEqual(declaration(decl), {
            "UTTypeIdentifier": "uti.x", "UTTypeConformsTo": ["public.data"], "UTTypeDescription": "X",
            "UTTypeTagSpecification": {
                "public.filename-extension": ["x"], "public.mime-type": ["application/x-x"],
                "uti.filename": ["Xfile"], "uti.filename-suffix": ["x.gz"], "uti.filename-glob": ["*.x[0-9]"],
                "uti.interpreter": ["xi"], "uti.linguist-language": ["X"], "uti.magika-label": ["x"],
                "uti.magika-mime-type": ["text/x-x"], "uti.magika-text-mime-type": ["text/x-xa"],
                "uti.libmagic-description": ["X data"], "uti.kind-of": ["public.zip-archive"],
                "uti.content": ["text"], "uti.signature": ["required"]}})

    def test_nothing_empty_is_written(self):
        self.assertEqual(declaration(TypeDecl("uti.bare", "curated")), {"UTTypeIdentifier": "uti.bare"})


class WriteFilesTests(unittest.TestCase):
    def test_exported_and_imported_per_family(self):
        db = make_db(base=False)
        item = apple(db, "public.item", 0)
        ours = db.add(TypeDecl("uti.b", "curated"))
        ours.conforms = ["public.item"]
        item.family = ours.family = "base"
        with tempfile.TemporaryDirectory() as directory, mock.patch.object(output, "FAMILY_DESCRIPTIONS", {"base": "b"}):
            self.assertEqual(write_files(db, directory), {"base": (1, 1)})
            self.assertEqual(os.listdir(directory), ["base.plist"])
            with open(os.path.join(directory, "base.plist"), "rb") as f:
                self.assertEqual(plistlib.load(f), {
                    "UTExportedTypeDeclarations": [{"UTTypeIdentifier": "public.item"}],
                    "UTImportedTypeDeclarations": [{"UTTypeIdentifier": "uti.b", "UTTypeConformsTo": ["public.item"]}]})

    def test_a_family_needs_a_description(self):
        db = make_db(base=False)
        apple(db, "public.item", 0).family = "nameless"
        with tempfile.TemporaryDirectory() as directory, mock.patch.object(output, "FAMILY_DESCRIPTIONS", {}):
            with self.assertRaisesRegex(AssertionError, "describe family nameless"):
                write_files(db, directory)


if __name__ == "__main__":
    unittest.main()


class TablesTests(unittest.TestCase):
    """The two tables compile-typedb writes as C: JSON, keys sorted, the same bytes for the same value."""

    def test_media_types_keep_names_of_formats_and_point_aliases_at_their_type(self):
        with tempfile.TemporaryDirectory() as directory:
            count = output.write_media_type_vocabularies(
                {"image/png": 3, "image/x-png": 4, "text/plain;charset=utf-8": 8, "application/x-gone": 32},
                {"image/x-png": "image/png", "application/x-gone": "text/plain;charset=utf-8"}, directory, {"dat": 2})
            with open(os.path.join(directory, "media-types.json"), encoding="utf-8") as f:
                text = f.read()
        table = json.loads(text)
        self.assertEqual(count, 3)   # a name with parameters names no format of its own
        self.assertEqual(table, {"names": {
            "image/png": {"vocabularies": 3, "canonical": "image/png"},
            "image/x-png": {"vocabularies": 4, "canonical": "image/png"},
            "application/x-gone": {"vocabularies": 32, "canonical": "application/x-gone"},   # its canonical left out
        }, "extensions": {"dat": 2}})
        self.assertTrue(text.index('"application/x-gone"') < text.index('"image/png"'), "keys sorted")
        self.assertTrue(text.endswith("}\n"))

    def test_languages_table_holds_the_further_candidates_and_the_disambiguations(self):
        blocks = [{"extensions": ["h"], "rules": [{"types": ["public.c-header"], "conditions": []}]}]
        with tempfile.TemporaryDirectory() as directory, mock.patch.object(output, "disambiguations", return_value=blocks):
            counts = output.write_language_tables({}, {"m": ["uti.language.mercury"]}, directory)
            with open(os.path.join(directory, "languages.json"), encoding="utf-8") as f:
                table = json.load(f)
        self.assertEqual(counts, (1, 1))
        self.assertEqual(table, {"furtherCandidates": {"m": ["uti.language.mercury"]}, "disambiguations": blocks})
