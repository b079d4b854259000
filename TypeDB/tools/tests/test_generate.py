"""typedb.generate and the command make-typedb.py: stale files, and the command's options."""

import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from typedb import generate

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class StaleFilesTests(unittest.TestCase):
    def test_files_no_source_generates(self):
        with tempfile.TemporaryDirectory() as repository:
            for path in ("TypeDB/base.plist", "TypeDB/old.plist", "TypeDB/README.md", "TypeDB/mime/magic",
                         "TypeDB/mime/leftover"):
                os.makedirs(os.path.dirname(os.path.join(repository, path)), exist_ok=True)
                open(os.path.join(repository, path), "w").close()
            os.makedirs(os.path.join(repository, "TypeDB", "sources.plist"))     # a directory is never stale
            with mock.patch.object(generate, "REPOSITORY", repository):
                stale = generate.stale_files(["TypeDB/base.plist", "TypeDB/mime/magic"])
        self.assertEqual(stale, ["TypeDB/old.plist", "TypeDB/mime/leftover"])


class CommandTests(unittest.TestCase):
    def test_options_and_usage(self):
        result = subprocess.run([sys.executable, os.path.join(TOOLS, "make-typedb.py"), "--help"],
                                capture_output=True, text=True, check=True)
        self.assertIn("usage: make-typedb.py [-h] [--check] [--verbose]", result.stdout)
        self.assertIn("Regenerate uti's built-in type database from the sources in the repository", result.stdout)


if __name__ == "__main__":
    unittest.main()
