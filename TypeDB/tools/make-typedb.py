#!/usr/bin/env python3
"""Regenerate uti's built-in type database from the sources in the repository, or check that it is current.

    python3 TypeDB/tools/make-typedb.py            # writes everything below
    python3 TypeDB/tools/make-typedb.py --check    # writes nothing; exit status 1 when a checked-in file differs
    python3 TypeDB/tools/make-typedb.py --verbose  # also prints every mapping decision

Inputs, all under TypeDB/sources/ (where each comes from: TypeDB/sources/README.md):
  apple-system-types.tsv              964 Apple types: identifier, conformance, extensions, MIME types
  uttype-constants.tsv                Apple's UTType constants (3 newer ones are not in the TSV)
  freedesktop.org-2.4.xml.in          shared-mime-info 2.4: MIME types, globs, aliases, sub-class-of, magic
  freedesktop.org-2.2.xml             shared-mime-info 2.2 as Debian 12 installs it; types only found there are added
  libmagic-5.44-all-mimes.txt         every MIME string libmagic 5.44 can answer
  libmagic-5.44-mimes.tsv             ... with the Magdir file (a family hint) and the extensions it saw
  libmagic-5.44-builtin-mimes.tsv     ... the ones only libmagic's C code emits (inode/*, CDF, ...)
  tika-mimetypes.xml                  Apache Tika's MIME database
  curated/*.toml                      the decisions of this project: identifiers, parents, equivalences, families
  macos-system-bundle-types.tsv       Apple's identifiers from macOS's other system bundles (public records)
  curated/declarations.plist          types of our own that no source names
  pronom/DROID_SignatureFile_V*.xml   PRONOM's formats and internal signatures, as DROID publishes them
  pronom/container-signature-*.xml    ... and its container signatures (ZIP entries, OLE2 streams)

Outputs (generated; never edit them by hand):
  TypeDB/*.plist                      one XML property list per family, Apple's Info.plist schema
                                      (UTExportedTypeDeclarations / UTImportedTypeDeclarations)
  TypeDB/apache-tika.xml              what Tika says that Linux vocabularies lack (typedb/tika_import.py)
  TypeDB/mime/                        shared-mime-info 2.4 plus Tika's own types, compiled (typedb/sharedmimeinfo.py)
  TypeDB/media-types.json             every MIME name's vocabularies and canonical name; extensions that settle
                                      no format alone (vocabularies.py)
  TypeDB/languages.json               GitHub Linguist's further candidates and disambiguations (linguist.py)
  TypeDB/pronom.json                  PRONOM's formats, priorities and signatures, checked (pronom.py)
and, from those, by `swift run compile-typedb` (the one writer of generated code):
  Sources/CTypeDatabase/typedb.c      the declarations compiled for the library
  Sources/CTypeDatabase/mediatypes.c  TypeDB/media-types.json as tables searched in place
  Sources/CTypeDatabase/languages.c   TypeDB/languages.json as tables of rules and conditions
  Sources/CTypeDatabase/pronom.c      TypeDB/pronom.json: PRONOM's signatures compiled into tables of patterns
  Sources/CSharedMIMEInfo/sharedmimeinfo.c
                                      TypeDB/mime as C byte arrays, for the BuiltInSharedMIMEInfo trait
The same inputs always give byte-identical files, on any machine (nothing is read from the system).

The steps, in order (the package typedb/ beside this file; typedb/generate.py runs them):
  1. Apple types, unchanged: identifiers, conformance, tags in Apple's order (apple.py).
  2. freedesktop types are mapped onto a type: the Apple type declaring the MIME type (or an alias),
     else a curated identifier (curated/identifiers.toml), else a mechanical `uti.mime.<type>.<subtype>`.
     Their MIME types, aliases and simple `*.ext` globs become tags (freedesktop.py; Apache Tika's names: tika.py).
  3. Conformance for every type we add: freedesktop's sub-class-of, curated parents, then the kind
     (image/audio/movie/font/text/script/archive/...) read from the media type, icon and comment (hierarchy.py).
  4. libmagic's MIME strings: each lands on exactly one type (alias, x-/no-x- variant,
     curated equivalences), or gets a new `uti.mime.*` type whose kind comes from its Magdir file (libmagic.py);
     then the curated declarations and tags (curation.py), and GitHub Linguist's languages with Magika's
     names for them (linguist.py, magika.py, rubyregex.py for the heuristics' patterns).
  5. Families (which file a type goes into), then the tag-preference check against Apple's data (hierarchy.py).
  6. Validation (identifiers, parents declared, no cycles, everything rooted at public.item) (hierarchy.py),
     write (output.py); 7. TypeDB/mime/ (output.py); 8. the MIME names' vocabularies (vocabularies.py).
The unit tests: python3 -m unittest discover -s TypeDB/tools/tests -t TypeDB/tools
"""

import argparse
import sys

from typedb.generate import run  # the package beside this file (Python puts a script's directory on sys.path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit status 1 when a checked-in file differs from what would be written")
    parser.add_argument("--verbose", action="store_true", help="print every mapping decision")
    args = parser.parse_args()
    sys.exit(run(check=args.check, verbose=args.verbose))


if __name__ == "__main__":
    main()
