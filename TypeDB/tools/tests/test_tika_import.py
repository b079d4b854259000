"""typedb.tika_import: Apache Tika's MIME database read, and written as a shared-mime-info package."""

import os
import tempfile
import unittest

from typedb import tika_import

TIKA = """<?xml version="1.0" encoding="UTF-8"?>
<mime-info>
  <mime-type type="application/x-berkeley-db;format=btree">
    <_comment>Berkeley
       DB</_comment>
    <alias type="application/x-bdb"/><alias type="application/x-berkeley-db"/><alias type="application/x-tika-bdb"/>
    <sub-class-of type="application/x-tika-thing"/><sub-class-of type="application/octet-stream"/>
    <glob pattern="*.bdb"/><glob pattern="*.bdb"/><glob pattern="^x.*" isregex="true"/>
    <magic priority="60"><match value="AbC" type="stringignorecase" offset="4"/></magic>
    <magic><match value="x" type="regex" offset="0"/></magic>
    <root-XML namespaceURI="urn:x" localName="db"/>
    <tika:link>https://example.org</tika:link>
  </mime-type>
  <mime-type type="application/x-tika-internal"/>
  <mime-type type="text/x-bare"/>
  <mime-type type="image/png"><alias type="image/x-tika-png"/><alias type="image/apng"/></mime-type>
</mime-info>
"""


class TikaImportTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "tika-mimetypes.xml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(TIKA)
            cls.records = tika_import.read_tika(path)

    def test_names_fold_parameters_and_leave_out_tikas_own(self):
        self.assertEqual(list(self.records), ["application/x-berkeley-db", "text/x-bare", "image/png"])
        record = self.records["application/x-berkeley-db"]
        self.assertEqual(record["aliases"], ["application/x-bdb"])
        self.assertEqual(record["parents"], ["application/octet-stream"])
        self.assertEqual(record["comment"], "Berkeley DB")

    def test_globs_magic_and_root_elements(self):
        record = self.records["application/x-berkeley-db"]
        self.assertEqual(record["globs"], [("*.bdb", False)])          # once; the regular expression left out
        self.assertEqual(record["root"], [("urn:x", "db")])
        # stringignorecase: upper-case bytes and a mask that ignores ASCII case; the regex alternative is left out.
        self.assertEqual([(priority, [m.attrib for m in matches]) for priority, matches in record["magic"]],
                         [("60", [{"type": "string", "offset": "4", "value": "ABC", "mask": "0xdfdfdf"}])])

    def test_package(self):
        text, counts = tika_import.package(self.records, {"image/png"})
        self.assertEqual(dict(counts), {"new names": 1, "with magic": 1, "bare names left out": 1,
                                        "names for types Linux has": 1})
        self.assertIn('<mime-type type="image/png">\n    <alias type="image/apng" />\n  </mime-type>', text)
        self.assertIn('<match type="string" offset="4" value="ABC" mask="0xdfdfdf" />', text)
        self.assertNotIn("text/x-bare", text)

    def test_values(self):
        self.assertEqual(tika_import.unescape("0x4142"), b"AB")
        self.assertEqual(tika_import.unescape(r"\x41\101\n\q"), b"AA\nq")
        self.assertEqual(tika_import.escape(b"a\\\x00~"), r"a\x5c\x00~")
        self.assertEqual(tika_import.base(" Text/Plain ; charset=utf-8"), "text/plain")


if __name__ == "__main__":
    unittest.main()
