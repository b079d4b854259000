"""typedb.magika: Magika's labels for the content types that are not languages, and its MIME names."""

import unittest
from unittest import mock

from typedb import magika
from typedb.magika import load_magika_names
from tests.helpers import make_db

MAGIKA = {
    "elf": {"mime_type": "application/x-executable", "is_text": False},
    "tsv": {"mime_type": "text/tab-separated-values", "is_text": True, "extensions": ["tsv"]},
    "pytorch": {"mime_type": "application/octet-stream", "is_text": False, "extensions": ["pt"]},
    "unknown": {"mime_type": "application/octet-stream"},
}


class MagikaNamesTests(unittest.TestCase):
    def setUp(self):
        self.db = make_db({"uti.elf": ["public.data"], "uti.tsv": ["public.plain-text"], "uti.pt": ["public.xml"]})
        self.db.claim_mime(self.db.get("uti.elf"), "application/x-executable")
        self.db.get("uti.tsv").add_extension("tsv")
        self.db.get("uti.pt").add_extension("pt")
        with mock.patch.object(magika, "CURATED_MAGIKA_LABELS", {}):
            load_magika_names(self.db, MAGIKA)

    def test_labels_by_mime_name_or_extension(self):
        self.assertEqual(self.db.get("uti.elf").magika_labels, ["elf"])
        self.assertEqual(self.db.get("uti.tsv").magika_labels, ["tsv"])
        self.assertEqual(self.db.notes["Magika labels of formats"],
                         ["elf -> uti.elf (MIME application/x-executable)", "tsv -> uti.tsv (extension)"])

    def test_a_binary_label_never_lands_on_a_text_type(self):
        self.assertEqual(self.db.get("uti.pt").magika_labels, [])
        self.assertEqual(self.db.notes["Magika labels with no one type"], ["pytorch (0 types claim its extensions)"])

    def test_magikas_mime_names(self):
        self.assertEqual(self.db.get("uti.elf").magika_mimes, ["application/x-executable"])
        # A format no other vocabulary names goes by Magika's name.
        self.assertEqual(self.db.get("uti.tsv").mimes, ["text/tab-separated-values"])
        self.assertEqual(self.db.notes["Magika's names for formats no other vocabulary names"],
                         ["text/tab-separated-values -> uti.tsv"])


if __name__ == "__main__":
    unittest.main()
