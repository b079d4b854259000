"""typedb.vocabularies: the vocabularies of each MIME name, and the extensions whose name settles no format (step 8)."""

import json
import os
import tempfile
import unittest
from unittest import mock

from typedb import vocabularies
from typedb.vocabularies import (BINARY_ELSEWHERE_EXTENSION, LIBMAGIC_ONLY_EXTENSION, SHARED_EXTENSION,
                                 TEXT_ELSEWHERE_EXTENSION, ANY_BINARY_EXTENSION, content_of, extension_kinds,
                                 media_type_vocabularies)
from tests.helpers import make_db

TIKA = ('<mime-info><mime-type type="application/x-tk"><alias type="application/x-tk-alias"/></mime-type>'
        '<mime-type type="text/x-new"><alias type="text/x-old"/></mime-type></mime-info>')


class ContentTests(unittest.TestCase):
    def test_content_of(self):
        db = make_db({"uti.bin": ["public.data"], "uti.either": ["public.data"], "uti.texty": ["public.data"],
                      "uti.child": ["uti.texty"]})
        db.get("uti.either").content = "text-or-binary"
        db.get("uti.texty").content = "text"
        self.assertEqual(content_of(db, db.get("public.data")), {"text", "binary"})
        self.assertEqual(content_of(db, db.get("uti.bin")), {"binary"})
        self.assertEqual(content_of(db, db.get("uti.either")), {"text", "binary"})
        self.assertEqual(content_of(db, db.get("uti.child")), {"text"})        # its parent's tag
        self.assertEqual(content_of(db, db.get("public.script")), {"text"})    # by conformance


class ExtensionKindsTests(unittest.TestCase):
    def test_bits(self):
        db = make_db({"uti.a": ["public.data"], "uti.b": ["public.archive"], "uti.txt": ["public.plain-text"],
                      "uti.bin": ["public.data"], "uti.fooapp": ["public.data"]})
        for identifier, family in (("uti.a", "data"), ("uti.b", "archive"), ("uti.txt", "text"), ("uti.bin", "data"),
                                   ("uti.fooapp", "data")):
            db.get(identifier).family = family
        for identifier in ("uti.a", "uti.b"):
            db.get(identifier).add_extension("dat")
            db.get(identifier).libmagic_extensions.add("dat")
        db.get("uti.a").add_extension("mix")          # libmagic's on one type, a claim of the other's
        db.get("uti.a").libmagic_extensions.add("mix")
        db.get("uti.txt").add_extension("mix")
        db.get("uti.txt").add_extension("foo")
        db.get("uti.bin").add_extension("bar")
        db.claim_mime(db.get("uti.fooapp"), "application/x-foo")
        records = {"application/x-foo": {"globs": [("*.foo", False), ("*.tar.gz", False)]}}
        kinds = extension_kinds(db, records, {}, {"Bar": {"extensions": [".bar", ".Baz"]}}, {"Mix": "curated", "raw": "curated"})
        self.assertEqual(kinds, {"dat": SHARED_EXTENSION | LIBMAGIC_ONLY_EXTENSION,          # 3
                                 "foo": SHARED_EXTENSION | BINARY_ELSEWHERE_EXTENSION,       # 9: a binary *.foo glob
                                 "bar": TEXT_ELSEWHERE_EXTENSION,                            # 4: a language's .bar
                                 "mix": SHARED_EXTENSION | ANY_BINARY_EXTENSION,             # 17: curated, any case
                                 "raw": ANY_BINARY_EXTENSION})                               # 16: curated, claimed by none
        self.assertEqual((SHARED_EXTENSION, LIBMAGIC_ONLY_EXTENSION, TEXT_ELSEWHERE_EXTENSION, BINARY_ELSEWHERE_EXTENSION,
                          ANY_BINARY_EXTENSION), (1, 2, 4, 8, 16))


class MediaTypeVocabulariesTests(unittest.TestCase):
    def test_bits_and_canonical_names(self):
        db = make_db({"uti.a": ["public.data"]})
        db.claim_mime(db.get("uti.a"), "application/x-only-ours")
        with tempfile.TemporaryDirectory() as directory:
            with open(os.path.join(directory, "iana-media-types.json"), "w", encoding="utf-8") as f:
                json.dump({"text/x-new": {"notes": ""}, "application/old": {"notes": "DEPRECATED in favour of x"}}, f)
            with open(os.path.join(directory, "tika-mimetypes.xml"), "w", encoding="utf-8") as f:
                f.write(TIKA)
            with mock.patch.object(vocabularies, "SOURCES", directory), \
                    mock.patch.object(vocabularies, "magika_mime_types", return_value={"application/x-mg"}):
                bits, canonicals = media_type_vocabularies(
                    db, {"text/x-new": ["text/x-old"]}, {"text/x-new": {"aliases": ["text/x-old", "text/x-tikaname"]}},
                    ["Text/X-New", "application/x-magic"])
        self.assertEqual(dict(bits), {"application/x-magic": 32, "application/x-mg": 64, "application/x-only-ours": 0,
                                      "application/x-tk": 8, "application/x-tk-alias": 16,
                                      "text/x-new": 1 | 2 | 8 | 32, "text/x-old": 4 | 16})
        self.assertEqual(canonicals["text/x-old"], "text/x-new")
        self.assertEqual(canonicals["application/x-tk-alias"], "application/x-tk")
        self.assertEqual(canonicals["application/x-magic"], "application/x-magic")


if __name__ == "__main__":
    unittest.main()
