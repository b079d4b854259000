"""typedb.freedesktop: shared-mime-info's records, their globs and identifiers."""

import os
import tempfile
import textwrap
import unittest
from unittest import mock

from typedb import freedesktop
from typedb.freedesktop import (add_other_globs, agrees_with_kind, load_freedesktop, mechanical_identifier,
                                parse_freedesktop, simple_extensions)
from typedb.model import TypeDecl
from tests.helpers import make_db


def package(*types):
    return ('<?xml version="1.0"?>\n<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">\n'
            + "\n".join(types) + "\n</mime-info>\n")


class GlobTests(unittest.TestCase):
    def test_simple_extensions(self):
        globs = [("*.PNG", False), ("*.png", False), ("*.tar.gz", False), ("Makefile", False), ("*.[1-9]", False),
                 ("*.C", True), ("*.h", True)]
        # Lower-case, once; no multi-dot suffix, name or pattern; a case-sensitive upper-case *.C is not `c`.
        self.assertEqual(simple_extensions(globs), ["png", "h"])

    def test_other_globs_become_names_suffixes_and_patterns(self):
        decl = TypeDecl("uti.x", "freedesktop")
        records = {"text/x-x": {"type": "text/x-x", "source": "freedesktop.org-2.4.xml.in", "globs": [
            ("*.x", False), ("*.tar.X", False), ("Makefile", False), ("*.[1-9]", False), ("*.Q", True),
            ("makefile", False)]}}
        add_other_globs(None, records, {"text/x-x": decl})
        self.assertEqual(decl.suffixes, ["tar.x"])
        self.assertEqual(decl.filenames, ["Makefile"])      # `makefile` is the same name
        self.assertEqual(decl.patterns, ["*.[1-9]"])        # *.Q, case-sensitive, differs from *.q by case only
        self.assertEqual(decl.extensions, [])


class IdentifierTests(unittest.TestCase):
    def test_mechanical_identifier(self):
        self.assertEqual(mechanical_identifier("application/vnd.ms-excel.sheet+xml"),
                         "uti.mime.application.vnd.ms-excel.sheet-xml")
        self.assertEqual(mechanical_identifier("Image/X_Foo"), "uti.mime.image.x-foo")
        self.assertEqual(mechanical_identifier("text/x-c++src"), "uti.mime.text.x-c--src")
        self.assertEqual(mechanical_identifier("application/x-foo;bar"), "uti.mime.application.x-foo-bar")

    def test_an_invalid_identifier_is_refused(self):
        with self.assertRaises(AssertionError):
            mechanical_identifier("application/x..y")

    def test_kind_agreement(self):
        db = make_db({"public.radiance": ["public.image"], "public.avchd": ["public.data"]})
        self.assertTrue(agrees_with_kind(db, "image/vnd.radiance", db.get("public.radiance")))
        self.assertFalse(agrees_with_kind(db, "application/envi.hdr", db.get("public.radiance")))
        self.assertFalse(agrees_with_kind(db, "model/vnd.mts", db.get("public.avchd")))
        self.assertTrue(agrees_with_kind(db, "application/x-avchd", db.get("public.avchd")))


class ParseTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def write(self, name, text):
        path = os.path.join(self.directory.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
        return path

    def test_a_record(self):
        path = self.write("fd.xml", package("""
            <mime-type type="Text/X-Foo">
              <comment>  Foo source  </comment>
              <comment xml:lang="de">Foo-Quelltext</comment>
              <glob pattern="*.foo"/><glob pattern="*.F" case-sensitive="true"/>
              <alias type="text/foo"/><sub-class-of type="text/plain"/>
              <generic-icon name="text-x-script"/>
            </mime-type>"""))
        self.assertEqual(parse_freedesktop(path), {"text/x-foo": {
            "type": "Text/X-Foo", "comment": "Foo source", "globs": [("*.foo", False), ("*.F", True)],
            "aliases": ["text/foo"], "parents": ["text/plain"], "icon": "text-x-script", "source": "fd.xml"}})

    def test_2_2_adds_only_what_2_4_does_not_know(self):
        self.write("freedesktop.org-2.4.xml.in", package(
            '<mime-type type="text/x-new"/>', '<mime-type type="image/png"><alias type="image/x-png"/></mime-type>'))
        self.write("freedesktop.org-2.2.xml", package(
            '<mime-type type="text/x-old"/>', '<mime-type type="image/x-png"/>', '<mime-type type="text/htmlh"/>'))
        with mock.patch.object(freedesktop, "RENAMED_AFTER_2_2", {"text/x-old": "text/x-new"}):
            merged, only_system, system = load_freedesktop(self.directory.name)
        self.assertEqual(list(merged), ["text/x-new", "image/png", "text/htmlh"])
        self.assertEqual(merged["text/x-new"]["aliases"], ["text/x-old"])
        self.assertEqual(only_system, ["text/htmlh"])
        self.assertEqual(list(system), ["text/x-old", "image/x-png", "text/htmlh"])


if __name__ == "__main__":
    unittest.main()
