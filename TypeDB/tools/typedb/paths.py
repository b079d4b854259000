"""Where the generator reads and writes: the repository (found from this file, so that the command runs from
any directory), its inputs in TypeDB/sources/, and the generated files outside TypeDB/ (relative to the
repository root)."""

import os

TOOLS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPOSITORY = os.path.dirname(os.path.dirname(TOOLS))
SOURCES = os.path.join(REPOSITORY, "TypeDB", "sources")

# Every generated file, relative to the repository root; GENERATED_DIRECTORIES hold nothing else. The C sources
# are compile-typedb's, the one writer of generated code: it reads what the generator writes into TypeDB/.
C_SOURCES = ("Sources/CTypeDatabase/typedb.c", "Sources/CTypeDatabase/mediatypes.c", "Sources/CTypeDatabase/languages.c",
             "Sources/CTypeDatabase/pronom.c", "Sources/CSharedMIMEInfo/sharedmimeinfo.c")
# The tables the generator writes for compile-typedb, in TypeDB/.
MEDIA_TYPES_TABLE = "media-types.json"
LANGUAGES_TABLE = "languages.json"
# PRONOM's formats and signatures (pronom.py), for the PRONOM engine.
PRONOM_TABLE = "pronom.json"
GENERATED_DIRECTORIES = {"TypeDB": ".plist", "TypeDB/mime": ""}
