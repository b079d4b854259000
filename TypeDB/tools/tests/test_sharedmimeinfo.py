"""typedb.sharedmimeinfo: shared-mime-info packages compiled as update-mime-database compiles them."""

import os
import tempfile
import unittest

from typedb import sharedmimeinfo

PACKAGE = b"""<?xml version="1.0"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="image/x-b">
    <glob pattern="*.B" weight="4294967346"/>
    <glob pattern="*.Bee" case-sensitive="true"/>
    <alias type="image/x-bee"/>
    <magic priority="80"><match type="string" offset="0:3" value="B\\x01" mask="0xff0f"><match type="big16" offset="8" value="0x1234"/></match></magic>
    <root-XML namespaceURI="" localName="bee"/>
  </mime-type>
  <mime-type type="application/x-a">
    <glob pattern="*.a"/>
    <magic><match type="host16" offset="1" value="258"/></magic>
    <glob pattern="*.z" weight="101"/>
    <glob pattern="*.never"/>
  </mime-type>
</mime-info>
"""


class CompileTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.warnings = []
        with tempfile.TemporaryDirectory() as directory:
            cls.sizes = sharedmimeinfo.compile_packages([("p.xml", PACKAGE)], directory, warn=cls.warnings.append)
            cls.files = {}
            for name in sharedmimeinfo.FILES:
                with open(os.path.join(directory, name), "rb") as f:
                    cls.files[name] = f.read()

    def test_types_aliases_and_namespaces(self):
        self.assertEqual(self.files["types"], b"application/x-a\nimage/x-b\n")
        self.assertEqual(self.files["aliases"], b"image/x-bee image/x-b\n")
        self.assertEqual(self.files["XMLnamespaces"], b" bee image/x-b\n")
        self.assertEqual(self.sizes["types"], 26)

    def test_globs2(self):
        # Weights as C's int reads them (4294967346 is 50); case-sensitive globs twice, others lower-cased;
        # a bad weight keeps its glob at -1 and drops the rest of the type (*.never).
        self.assertEqual(self.files["globs2"], sharedmimeinfo.GLOBS_HEADER
                         + b"50:application/x-a:*.a\n50:image/x-b:*.Bee:cs\n50:image/x-b:*.Bee\n50:image/x-b:*.b\n"
                           b"-1:application/x-a:*.z\n")
        self.assertEqual(self.warnings, ["p.xml:13: <glob> in application/x-a: bad weight '101'; "
                                         "the rest of application/x-a's definition in this file is left out"])

    def test_magic(self):
        self.assertEqual(self.files["magic"], b"MIME-Magic\x00\n"
                         b"[80:image/x-b]\n>0=\x00\x02B\x01&\xff\x0f+4\n1>8=\x00\x02\x124\n"
                         b"[50:application/x-a]\n>1=\x00\x02\x01\x02~2\n")

    def test_strict_and_structural_errors_raise(self):
        with tempfile.TemporaryDirectory() as directory:
            with self.assertRaisesRegex(sharedmimeinfo.PackageError, r"^p\.xml:13: <glob> in application/x-a: bad weight '101'$"):
                sharedmimeinfo.compile_packages([("p.xml", PACKAGE)], directory, strict=True)
            with self.assertRaisesRegex(sharedmimeinfo.PackageError, r"^bad\.xml:1: the root element is <mime-info> in namespace \(none\)"):
                sharedmimeinfo.compile_packages([("bad.xml", b"<mime-info/>")], directory)

    def test_reading_order(self):
        self.assertEqual(sharedmimeinfo.reading_order(["b.xml", "Override.xml", "a.xml", "x.txt", "B.xml"]),
                         ["B.xml", "a.xml", "b.xml", "Override.xml"])


if __name__ == "__main__":
    unittest.main()
