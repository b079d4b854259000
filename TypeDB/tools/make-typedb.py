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

Outputs (generated; never edit them by hand):
  TypeDB/*.plist                      one XML property list per family, Apple's Info.plist schema
                                      (UTExportedTypeDeclarations / UTImportedTypeDeclarations)
  TypeDB/apache-tika.xml              what Tika says that Linux vocabularies lack (tika_import.py)
  TypeDB/mime/                        shared-mime-info 2.4 plus Tika's own types, compiled (sharedmimeinfo.py)
  Sources/CTypeDatabase/typedb.c      the declarations compiled for the library (`swift run compile-typedb`)
  Sources/CSharedMIMEInfo/sharedmimeinfo.c
                                      TypeDB/mime as C byte arrays, for the BuiltInSharedMIMEInfo trait
The same inputs always give byte-identical files, on any machine (nothing is read from the system).

The steps, in order (each is a function below):
  1. Apple types, unchanged: identifiers, conformance, tags in Apple's order.
  2. freedesktop types are mapped onto a type: the Apple type declaring the MIME type (or an alias),
     else a curated identifier (curated/identifiers.toml), else a mechanical `uti.mime.<type>.<subtype>`.
     Their MIME types, aliases and simple `*.ext` globs become tags.
  3. Conformance for every type we add: freedesktop's sub-class-of, curated parents, then the kind
     (image/audio/movie/font/text/script/archive/...) read from the media type, icon and comment.
  4. libmagic's MIME strings: each lands on exactly one type (alias, x-/no-x- variant,
     curated equivalences), or gets a new `uti.mime.*` type whose kind comes from its Magdir file.
  5. Families (which file a type goes into), then the tag-preference check against Apple's data.
  6. Validation (identifiers, parents declared, no cycles, everything rooted at public.item), write.
"""

import argparse
import collections
import csv
import filecmp
import json
import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sharedmimeinfo  # noqa: E402
import tika_import  # noqa: E402

TOOLS = os.path.dirname(os.path.abspath(__file__))
REPOSITORY = os.path.dirname(os.path.dirname(TOOLS))
SOURCES = os.path.join(REPOSITORY, "TypeDB", "sources")

# --------------------------------------------------------------------------------------------------
# Curated tables: everything a person decided lives in TypeDB/sources/curated/; the rest is mechanical.
# --------------------------------------------------------------------------------------------------


def load_curation(directory):
    def table(name):
        with open(os.path.join(directory, name + ".toml"), "rb") as f:
            return tomllib.load(f)

    identifiers, parents, libmagic, families, tika, languages, content, tags = (
        table(n) for n in ("identifiers", "parents", "libmagic", "families", "tika", "languages", "content", "tags"))
    rules = families["rules"]
    return {
        "CURATED_IDENTIFIERS": identifiers["freedesktop"],
        "NEWER_APPLE_TYPES": identifiers["apple"]["newer-types"],
        "MISSING_APPLE_PARENTS": identifiers["apple"]["missing-parents"],
        "RENAMED_AFTER_2_2": identifiers["renamed-after-2-2"],
        "CURATED_PARENTS": parents["parents"],
        "ICON_KINDS": parents["kinds"]["icons"],
        "SUFFIX_KINDS": parents["kinds"]["suffixes"],
        "LIBMAGIC_EQUIVALENTS": libmagic["equivalents"],
        "MAGDIR_CONTAINERS": libmagic["magdir"]["containers"],
        "MAGDIR_SOURCE_CODE": set(libmagic["magdir"]["source-code"]),
        "MAGDIR_SCRIPTS": set(libmagic["magdir"]["scripts"]),
        "FAMILY_DESCRIPTIONS": families["descriptions"],
        "FAMILY_OVERRIDES": families["overrides"],
        "BASE_TYPES": rules["base-types"],
        "DEVICE_ROOTS": set(rules["device-roots"]),
        "APPLE_UI_PREFIXES": tuple(rules["apple-ui-prefixes"]),
        "GAME_PATTERN": re.compile(rules["games-pattern"]),
        "SCIENCE_PATTERN": re.compile(rules["science-pattern"]),
        "SECURITY_PATTERN": re.compile(rules["security-pattern"]),
        "TIKA_NOT_THE_SAME": set(tika["not-the-same"]),
        "TIKA_IDENTIFIERS": tika["identifiers"],
        "GENERIC_SUBTYPE_WORDS": set(tika["generic-subtype-words"]),
        "CURATED_LANGUAGE_TYPES": languages["types"],
        "LANGUAGES_OF_THEIR_OWN": set(languages["own-types"]["names"]),
        "LANGUAGE_DIALECTS": languages["parents"],
        "CURATED_MAGIKA_LABELS": languages["magika-labels"],
        "CONTENT_TEXT": content["text"],
        "CONTENT_EITHER": content["text-or-binary"],
        "CONTENT_BINARY": content["binary"],
        "CONTENT_SIGNATURE": content["signature"],
        "CONTENT_KINDS": content["kind-of"],
        "CURATED_EXTENSIONS": tags["extensions"],
        "CURATED_DESCRIPTIONS": tags["descriptions"],
        "CURATED_MAGIKA_TEXT_LABELS": tags["magika-text-labels"],
    }


globals().update(load_curation(os.path.join(SOURCES, "curated")))

APPLE_TSV = "apple-system-types.tsv"
FDO_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
IDENTIFIER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.-]*$")
SIMPLE_GLOB_RE = re.compile(r"^\*\.([^.*?\[\]]+)$")
SUFFIX_GLOB_RE = re.compile(r"^\*\.([^*?\[\]]+\.[^*?\[\]]+)$")

# Tag classes of our own for the freedesktop globs an extension cannot express. Identification matches
# them before the extension (freedesktop's order: literal names, then the longest glob).
FILENAME_TAG = "uti.filename"          # a whole file name, compared case-insensitively: Makefile
SUFFIX_TAG = "uti.filename-suffix"     # what follows a dot that is not the last: tar.gz for *.tar.gz
PATTERN_TAG = "uti.filename-glob"      # any other glob, fnmatch syntax: *.[1-9], README*
# And for what GitHub Linguist and Google Magika know of languages.
INTERPRETER_TAG = "uti.interpreter"    # a program a #! line names: python3, node
LANGUAGE_TAG = "uti.linguist-language" # Linguist's name of the language, then its aliases: Zig; C++, cpp
MAGIKA_TAG = "uti.magika-label"        # Magika's label of the content type: zig, yara
MAGIKA_MIME_TAG = "uti.magika-mime-type"  # the MIME name Magika gives it: text/x-msdos-batch, inode/x-empty
MAGIKA_TEXT_MIME_TAG = "uti.magika-text-mime-type"  # Magika's name for its text form, where that differs: OpenPGP armour
LIBMAGIC_DESCRIPTION_TAG = "uti.libmagic-description"  # how libmagic's description starts where its MIME type is generic
# And what identification's readers need of a format beyond its conformance.
KIND_TAG = "uti.kind-of"               # what its files also are, where its parents (Apple's) do not say: public.zip-archive for EPUB
CONTENT_TAG = "uti.content"            # text (its files are text, though its parents are not public.text), text-or-binary, or binary
SIGNATURE_TAG = "uti.signature"        # required: every file carries a signature the readers check
LIBMAGIC_EXT_RE = re.compile(r"^[a-z0-9][a-z0-9_+-]*$")


# --------------------------------------------------------------------------------------------------
# The model
# --------------------------------------------------------------------------------------------------

class TypeDecl:
    """One declaration as it will be written, plus where it came from."""

    def __init__(self, identifier, origin, exported=False, apple_index=None):
        self.identifier = identifier
        self.origin = origin            # apple | curated | freedesktop | tika | libmagic
        self.exported = exported        # only Apple's `system` group is exported
        self.apple_index = apple_index  # row in the Apple TSV, or None
        self.conforms = []
        self.description = None
        self.extensions = []
        self.mimes = []
        self.filenames = []             # freedesktop literal names: Makefile, CMakeLists.txt
        self.suffixes = []              # freedesktop globs with several dots: *.tar.gz -> tar.gz
        self.patterns = []              # other freedesktop globs: *.[1-9], README*, *~
        self.apple_extensions = set()   # lower-case tags Apple itself declares (never dropped)
        self.apple_mimes = set()
        self.family = None
        self.fdo = []                   # freedesktop records mapped onto this type
        self.magic = []                 # libmagic MIME strings mapped onto this type
        self.magdirs = []
        self.libmagic_extensions = set()  # lower-case extensions only libmagic's `!:ext` lists gave it
        self.interpreters = []          # Linguist's: programs a #! line names
        self.languages = []             # Linguist's language name and aliases
        self.magika_labels = []         # Magika's content-type labels
        self.magika_mimes = []          # the MIME names Magika gives those labels
        self.magika_text_mime = None    # Magika's name for the format's text form, where it has a label of its own
        self.libmagic_descriptions = [] # how libmagic's description of it starts, where libmagic's MIME type is generic
        self.kinds = []                 # formats its files also are, beyond its parents (KIND_TAG)
        self.content = None             # "text" or "text-or-binary" (CONTENT_TAG), where conformance does not say
        self.signature = None           # "required" (SIGNATURE_TAG)

    @property
    def is_apple(self):
        return self.origin == "apple"

    @property
    def is_public(self):
        return self.identifier.lower().startswith("public.")

    def add_extension(self, ext):
        if ext.lower() not in (e.lower() for e in self.extensions):
            self.extensions.append(ext)

    def add_mime(self, mime):
        if mime.lower() not in (m.lower() for m in self.mimes):
            self.mimes.append(mime)


class TypeDB:
    def __init__(self):
        self.types = collections.OrderedDict()      # lower-case identifier -> TypeDecl
        self.mime_owner = {}                        # lower-case MIME -> [TypeDecl]
        self.apple_ext_claimants = collections.OrderedDict()
        self.apple_mime_claimants = collections.OrderedDict()
        self.notes = collections.defaultdict(list)  # for the summary

    def get(self, identifier):
        return self.types.get(identifier.lower())

    def add(self, decl):
        key = decl.identifier.lower()
        assert key not in self.types, f"identifier declared twice: {decl.identifier}"
        self.types[key] = decl
        return decl

    def claim_mime(self, decl, mime):
        """Add a MIME tag unless another type already owns it (a MIME type names one type)."""
        key = mime.lower()
        owners = self.mime_owner.setdefault(key, [])
        if owners and decl not in owners:
            return False
        if decl not in owners:
            owners.append(decl)
        decl.add_mime(mime if decl.is_apple and key in decl.apple_mimes else key)
        return True

    def owner_of_mime(self, mime):
        owners = self.mime_owner.get(mime.lower())
        return owners[0] if owners else None

    def ancestors(self, decl, _seen=None):
        """All identifiers (lower-case) `decl` conforms to, itself included."""
        seen = set() if _seen is None else _seen
        stack = [decl.identifier.lower()]
        while stack:
            key = stack.pop()
            if key in seen:
                continue
            seen.add(key)
            parent_decl = self.types.get(key)
            if parent_decl is not None:
                stack.extend(p.lower() for p in parent_decl.conforms)
        return seen

    def conforms_to(self, decl, identifier):
        return identifier.lower() in self.ancestors(decl)


# --------------------------------------------------------------------------------------------------
# Step 1: Apple
# --------------------------------------------------------------------------------------------------

def load_apple(db, reference):
    with open(os.path.join(reference, APPLE_TSV), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) == 964, f"expected 964 Apple types, found {len(rows)}"
    for index, row in enumerate(rows):
        decl = TypeDecl(row["identifier"], "apple", exported=row["group"] == "system", apple_index=index)
        assert row["group"] in ("system", "other"), row
        decl.conforms = row["conformsTo"].split()
        decl.description = row["description"] or None
        for ext in row["filenameExtensions"].split():
            decl.add_extension(ext)
            decl.apple_extensions.add(ext.lower())
            db.apple_ext_claimants.setdefault(ext.lower(), []).append(decl)
        for mime in row["mimeTypes"].split():
            decl.apple_mimes.add(mime.lower())
            decl.add_mime(mime)
            db.apple_mime_claimants.setdefault(mime.lower(), []).append(decl)
            db.mime_owner.setdefault(mime.lower(), []).append(decl)
        db.add(decl)
    return rows


MACOS_TSV = "macos-system-bundle-types.tsv"
MACOS_FIRST_INDEX = 964   # apple_index of the first macOS row: after every CoreTypes row


def load_macos_system_types(db, reference):
    """Apple's identifiers from macOS's other system bundles (camera RAW, disk images, Mail, Music, Photos,
    Terminal ...), as public records of what macOS answers show them: Apple types after CoreTypes' 964, so
    that freedesktop's, Tika's and libmagic's names for these formats become their tags. A tag CoreTypes
    already gives another type stays CoreTypes' (`pic` is `com.apple.pict`)."""
    with open(os.path.join(reference, MACOS_TSV), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for offset, row in enumerate(rows):
        assert db.get(row["identifier"]) is None, f"{MACOS_TSV}: {row['identifier']} is a CoreTypes type"
        assert row["group"] == "system", row
        decl = TypeDecl(row["identifier"], "apple", exported=True, apple_index=MACOS_FIRST_INDEX + offset)
        decl.conforms = row["conformsTo"].split()
        decl.description = row["description"] or None
        for ext in row["filenameExtensions"].split():
            if any(d.apple_index < MACOS_FIRST_INDEX for d in db.apple_ext_claimants.get(ext.lower(), [])):
                db.notes["macOS tags CoreTypes gives another type"].append(f"{ext} ({row['identifier']})")
                continue
            decl.add_extension(ext)
            decl.apple_extensions.add(ext.lower())
            db.apple_ext_claimants.setdefault(ext.lower(), []).append(decl)
        for mime in row["mimeTypes"].split():
            if mime.lower() in db.apple_mime_claimants:
                db.notes["macOS tags CoreTypes gives another type"].append(f"{mime} ({row['identifier']})")
                continue
            decl.apple_mimes.add(mime.lower())
            decl.add_mime(mime)
            db.apple_mime_claimants.setdefault(mime.lower(), []).append(decl)
            db.mime_owner.setdefault(mime.lower(), []).append(decl)
        db.add(decl)
    for row in rows:
        for parent in row["conformsTo"].split():
            assert db.get(parent) is not None, f"{MACOS_TSV}: {row['identifier']}: parent {parent} is not declared"
    return rows


def load_newer_apple_constants(db, reference):
    """Apple identifiers in uttype-constants.tsv that the 964-type TSV lacks."""
    with open(os.path.join(reference, "uttype-constants.tsv"), newline="", encoding="utf-8") as f:
        constants = [row["identifier"] for row in csv.DictReader(f, delimiter="\t")]
    missing = [c for c in constants if db.get(c) is None]
    covered = set(CURATED_IDENTIFIERS.values()) | set(NEWER_APPLE_TYPES)
    for identifier in missing:
        assert identifier in covered, f"UTType constant {identifier} has no declaration; add it to a table"
    for identifier in NEWER_APPLE_TYPES:
        decl = db.add(TypeDecl(identifier, "curated"))
        decl.conforms = list(CURATED_PARENTS[identifier])
    db.notes["newer Apple constants"] = missing
    for identifier, parents in MISSING_APPLE_PARENTS.items():
        decl = db.add(TypeDecl(identifier, "curated"))
        decl.conforms = list(parents)
        db.notes["Apple parents the TSV lacks"].append(identifier)


# --------------------------------------------------------------------------------------------------
# Step 2: freedesktop.org shared-mime-info
# --------------------------------------------------------------------------------------------------

def parse_freedesktop(path):
    records = collections.OrderedDict()
    for element in ET.parse(path).getroot().findall(FDO_NS + "mime-type"):
        record = {"type": element.get("type"), "comment": None, "globs": [], "aliases": [],
                  "parents": [], "icon": None, "source": os.path.basename(path)}
        for child in element:
            tag = child.tag.replace(FDO_NS, "")
            if tag == "comment" and not child.attrib:
                record["comment"] = child.text.strip() if child.text else None
            elif tag == "glob":
                record["globs"].append((child.get("pattern"), child.get("case-sensitive") == "true"))
            elif tag == "alias":
                record["aliases"].append(child.get("type"))
            elif tag == "sub-class-of":
                record["parents"].append(child.get("type"))
            elif tag == "generic-icon":
                record["icon"] = child.get("name")
        records[record["type"].lower()] = record
    return records


def load_freedesktop(sources):
    """2.4 is authoritative; add the 2.2 types (Debian 12's database) 2.4 knows neither as a type nor as an alias."""
    newer = parse_freedesktop(os.path.join(sources, "freedesktop.org-2.4.xml.in"))
    for old, new in RENAMED_AFTER_2_2.items():
        newer[new]["aliases"].append(old)
    known = set(newer) | {a.lower() for r in newer.values() for a in r["aliases"]}
    merged = collections.OrderedDict(newer)
    only_system = []
    system = parse_freedesktop(os.path.join(sources, "freedesktop.org-2.2.xml"))
    for key, record in system.items():
        if key not in known:
            merged[key] = record
            only_system.append(record["type"])
    return merged, only_system, system



def extension_owner(ext, fdo_owners, apple_owners):
    """The one type an extension names: a single freedesktop type, else a single Apple type."""
    fdo = fdo_owners.get(ext, [])
    if fdo:
        return ("freedesktop", fdo[0]) if len(fdo) == 1 else None
    apple = apple_owners.get(ext, [])
    return ("apple", apple[0]) if len(apple) == 1 else None


def media_kind(db, kind, owner):
    """The media type an existing type is of: a freedesktop type's own, an Apple type's by conformance."""
    if kind == "freedesktop":
        return owner.split("/")[0]
    decl = db.get(owner)
    for parent, media in (("public.image", "image"), ("public.audio", "audio"), ("public.movie", "video"),
                          ("public.audiovisual-content", "video"), ("public.text", "text")):
        if db.conforms_to(decl, parent):
            return media
    return "application"


def distinctive_words(mime):
    subtype = mime.split("/")[-1].lower()
    return {w for w in re.split(r"[^a-z0-9]+", subtype) if len(w) >= 3 and w not in GENERIC_SUBTYPE_WORDS}


def same_kind(db, record, kind, owner):
    """Whether a Tika name and the existing type claiming its extensions are one format:
      * an XML dialect's name (+xml) only names an XML type;
      * a textual name (text/*, or a sub-class of text/plain such as application/x-sh) names a textual
        type: text/x-ml is OCaml, application/x-sh is a shell script;
      * otherwise the media types must be equal, and for application/* names, where the media type says
        little, a distinctive word must be common (application/vnd.kde.karbon and application/x-karbon
        have one, application/vnd.spotfire.sfs and application/vnd.squashfs none)."""
    mime = record["type"].lower()
    media = mime.split("/")[0]
    owner_media = media_kind(db, kind, owner)
    if mime.endswith("+xml"):
        return (owner.endswith("+xml") or owner.endswith("/xml")) if kind == "freedesktop" \
            else db.conforms_to(db.get(owner), "public.xml")
    if media == "text" or "text/plain" in (p.lower() for p in record["parents"]):
        return owner_media == "text"
    if media != owner_media:
        return False
    if media != "application":
        return True
    owner_names = [owner] if kind == "freedesktop" else list(db.get(owner).mimes) + [owner.replace(".", "/", 1)]
    return any(distinctive_words(mime) & distinctive_words(name) for name in owner_names)


def load_tika(db, records, path):
    """Apache Tika's names (TypeDB/apache-tika.xml, made by tika_import.py) for what Linux does
    not name. Each becomes, in this order:
      * another name (an alias tag) of the freedesktop type Tika itself says it is;
      * another name of the one existing type that claims every one of its extensions (image/x-raw-sony
        names Sony's ARW, whose *.arw freedesktop calls image/x-sony-arw; text/x-swift names Apple's
        public.swift-source, which has no MIME type);
      * else a type of its own, with Tika's comment, parents, globs, magic and XML root elements.
    Returns the records of Tika's own types, which sharedmimeinfo.py compiles beside 2.4."""
    tika = parse_freedesktop(path)
    canonical = {}
    for key, record in records.items():
        canonical[key] = key
        for alias in record["aliases"]:
            canonical.setdefault(alias.lower(), key)
    fdo_owners = collections.defaultdict(list)
    for key, record in records.items():
        for ext in simple_extensions(record["globs"]):
            fdo_owners[ext].append(key)
    apple_owners = collections.defaultdict(list)
    for decl in db.types.values():
        if decl.is_apple:
            for ext in decl.extensions:
                apple_owners[ext.lower()].append(decl.identifier)
    # The Apple type a freedesktop type lands on (text/x-shellscript is public.shell-script), so that
    # owners of different extensions compare as types.
    lands_on = {}
    for key in records:
        target = CURATED_IDENTIFIERS.get(key) or next(iter(db.apple_mime_claimants.get(key, [])), None)
        target = target.identifier if isinstance(target, TypeDecl) else target
        if target and db.get(target) is not None:
            lands_on[key] = target
    record_landing_on = {}
    for key, target in lands_on.items():
        record_landing_on.setdefault(target.lower(), key)

    def as_type(owner):
        if owner is not None and owner[0] == "freedesktop" and owner[1] in lands_on:
            return ("apple", lands_on[owner[1]])
        return owner

    def most_general(owners):
        """Of several Apple types, the one all others conform to (public.shell-script over
        public.bash-script), if there is one."""
        if None in owners or any(kind != "apple" for kind, _ in owners):
            return owners
        for _, candidate in owners:
            if all(db.conforms_to(db.get(other), candidate) for _, other in owners):
                return {("apple", candidate)}
        return owners

    own = collections.OrderedDict()
    deferred = []
    for key, record in tika.items():
        record["source"] = "apache-tika"
        if key in canonical:
            # A type Linux names: Tika's other names for it.
            target = records[canonical[key]]
            for alias in record["aliases"]:
                if alias.lower() not in canonical:
                    target["aliases"].append(alias)
                    canonical[alias.lower()] = canonical[key]
                    db.notes["Tika's other names for freedesktop types"].append(f"{alias} -> {target['type']}")
            continue
        if key in TIKA_IDENTIFIERS:
            deferred.append((TIKA_IDENTIFIERS[key], [record["type"]], []))
            canonical[key] = TIKA_IDENTIFIERS[key]
            continue
        # The extensions some existing type claims; those nobody claims go with the name.
        extensions = simple_extensions(record["globs"])
        claimed = [ext for ext in extensions if ext in fdo_owners or ext in apple_owners]
        owners = most_general({as_type(extension_owner(ext, fdo_owners, apple_owners)) for ext in claimed})
        if claimed and len(owners) == 1 and None not in owners and key not in TIKA_NOT_THE_SAME \
                and same_kind(db, record, *next(iter(owners))):
            kind, owner = owners.pop()
            names = [record["type"]] + [a for a in record["aliases"] if a.lower() not in canonical]
            unclaimed = [ext for ext in extensions if ext not in claimed]
            if kind == "apple" and owner.lower() in record_landing_on:
                kind, owner = "freedesktop", record_landing_on[owner.lower()]
            if kind == "freedesktop":
                records[owner]["aliases"].extend(names)
                records[owner]["globs"].extend((f"*.{ext}", False) for ext in unclaimed)
                for name in names:
                    canonical[name.lower()] = owner
                db.notes["Tika's other names for freedesktop types"].append(f"{', '.join(names)} -> {owner} (by extension)")
            else:
                # Claimed at the end, after freedesktop's and libmagic's names, so that theirs come first.
                deferred.append((owner, names, unclaimed))
                for name in names:
                    canonical[name.lower()] = owner
            continue
        own[key] = record
        canonical[key] = key
        for alias in record["aliases"]:
            canonical.setdefault(alias.lower(), key)
    records.update(own)
    return own, deferred


def add_tika_names_for_apple_types(db, deferred):
    """Tika's names for Apple types nobody else gives a MIME type (text/x-applescript), after all others."""
    for identifier, names, extensions in deferred:
        decl = db.get(identifier)
        claimed = [name for name in names if db.claim_mime(decl, name)]
        for ext in extensions:
            decl.add_extension(ext)
        if claimed:
            db.notes["Tika's names for Apple types"].append(f"{', '.join(claimed)} -> {identifier}")


def add_other_globs(db, records, by_mime):
    """The globs that are not `*.ext`: literal names, multi-dot suffixes, other patterns. Case-sensitive
    globs that only differ from another by case (*.C for C++) are left out, like their extensions."""
    taken = {pattern.lower() for record in records.values() if record["source"] != "apache-tika"
             for pattern, _ in record["globs"]}
    for key, record in records.items():
        decl = by_mime[key]
        for pattern, case_sensitive in record["globs"]:
            if SIMPLE_GLOB_RE.match(pattern):
                continue
            if record["source"] == "apache-tika" and pattern.lower() in taken:
                continue  # freedesktop's pattern, for freedesktop's type
            if case_sensitive and pattern != pattern.lower() and "*" in pattern:
                continue
            suffix = SUFFIX_GLOB_RE.match(pattern)
            if suffix:
                target, value = decl.suffixes, suffix.group(1).lower()
            elif not any(c in pattern for c in "*?["):
                target, value = decl.filenames, pattern
            else:
                target, value = decl.patterns, pattern
            if value.lower() not in (v.lower() for v in target):
                target.append(value)


def add_system_globs(db, system, by_mime):
    """Globs the system's older database (2.2) has and 2.4 dropped, such as *.py3x, go to the type
    the 2.2 record maps to, unless some type already claims the extension (2.4 moved it)."""
    claimed = {ext for decl in db.types.values() for ext in decl.extensions}
    for key, record in system.items():
        decl = by_mime.get(key)
        if decl is None:
            continue
        for ext in simple_extensions(record["globs"]):
            if ext not in claimed:
                decl.add_extension(ext)
                claimed.add(ext)
                db.notes["extensions only the system database has"].append(f"*.{ext} -> {decl.identifier}")


def simple_extensions(globs):
    """`*.ext` globs as lower-case extensions; skips *.tar.gz, Makefile, *.[1-9], and case-sensitive *.C."""
    out = []
    for pattern, case_sensitive in globs:
        match = SIMPLE_GLOB_RE.match(pattern)
        if not match:
            continue
        ext = match.group(1)
        if case_sensitive and ext != ext.lower():
            continue  # *.C means C++ only in that exact case; as a case-insensitive tag it would be `c`
        if ext.lower() not in out:
            out.append(ext.lower())
    return out


def mechanical_identifier(mime):
    """`uti.mime.<media-type>.<subtype>`, lower-case; + and _ become -, other odd characters -."""
    media_type, _, subtype = mime.lower().partition("/")

    def clean(part):
        return re.sub(r"[^a-z0-9.-]", "-", part.replace("+", "-").replace("_", "-"))

    identifier = f"uti.mime.{clean(media_type)}.{clean(subtype)}"
    assert IDENTIFIER_RE.match(identifier) and ".." not in identifier, identifier
    return identifier


MEDIA_KIND_ROOTS = {"image": {"public.image"}, "audio": {"public.audio"}, "model": {"public.3d-content"},
                    "video": {"public.movie", "public.video", "public.audiovisual-content"}, "text": {"public.text"}}


def agrees_with_kind(db, mime, decl):
    """Whether a MIME type's media type agrees with a type's kind: image/* with an image, video/* with a
    movie; any other media type with a type that is no image, sound, movie or 3D model (`model/vnd.mts` is
    not AVCHD's `.mts`, `application/envi.hdr` not a Radiance `.hdr`)."""
    media_type = mime.split("/")[0].lower()
    found = db.ancestors(decl)
    if media_type in MEDIA_KIND_ROOTS:
        return bool(found & MEDIA_KIND_ROOTS[media_type])
    media = set().union(*(MEDIA_KIND_ROOTS[k] for k in ("image", "audio", "model", "video")))
    return not found & media


def macos_type_landings(db, records):
    """freedesktop types that are the names of a macOS type beyond CoreTypes (record key -> TypeDecl): an
    `image/`, `audio/`, `video/`, `model/` or `text/` type with no Apple MIME type whose extensions that an
    Apple type claims, leaving out those CoreTypes gives other types (`*.pic` is `com.apple.pict`), are all one
    macOS type's, of the same kind (Radiance's `*.hdr` is `public.radiance`'s; its `*.rgbe` joins it). Several may be one macOS type's names: `public.pbm` is macOS's type for the whole portable
    bitmap family (`*.pbm`, `*.pgm`, `*.ppm`, `*.pfm`), and a file's name or content still picks its format's
    name (Sources/FileIdentification/FileIdentification.docc/IdentifyingFiles.md, "One name per format")."""
    found = {}
    for key, record in records.items():
        if key in CURATED_IDENTIFIERS or db.apple_mime_claimants.get(key) or any(
                db.apple_mime_claimants.get(n.lower()) for n in record["aliases"]):
            continue
        # Only a media type that says what kind of content it is: an `application/*` name sharing an
        # extension is as often another format (CorelDRAW's `.cdr` is not Apple's CD master, a Sega CD ROM's
        # `.iso` not a CD image); those are mapped in curated/identifiers.toml.
        if record["type"].split("/")[0].lower() not in MEDIA_KIND_ROOTS:
            continue
        extensions = [e for e in simple_extensions(record["globs"])
                      if not any(d.apple_index < MACOS_FIRST_INDEX for d in db.apple_ext_claimants.get(e, []))]
        owners = {d.identifier: d for e in extensions for d in db.apple_ext_claimants.get(e, [])}
        if len(owners) != 1:
            continue
        candidate = next(iter(owners.values()))
        if agrees_with_kind(db, record["type"], candidate):
            found[key] = candidate
    return found


def map_freedesktop(db, records):
    """Decide the identifier of every freedesktop type; returns fd MIME (and alias) -> TypeDecl."""
    macos_landings = macos_type_landings(db, records)
    by_mime = {}
    mechanical_sources = {}
    for key, record in records.items():
        names = [record["type"]] + record["aliases"]
        decl = None
        curated = CURATED_IDENTIFIERS.get(key)
        if curated:
            decl = db.get(curated)
            if decl is None:
                decl = db.add(TypeDecl(curated, "curated"))
            db.notes["curated mappings"].append(f"{record['type']} -> {decl.identifier}")
        else:
            primary = db.apple_mime_claimants.get(key)
            if primary:
                decl = primary[0]
            else:
                claimants = [d for n in record["aliases"] for d in db.apple_mime_claimants.get(n.lower(), [])]
                if claimants:
                    decl = min(claimants, key=lambda d: d.apple_index)
                else:
                    # A format macOS declares outside CoreTypes without a MIME type (com.canon.cr2-raw-image):
                    # the one freedesktop type for the same extensions becomes its names.
                    decl = macos_landings.get(key)
                    if decl is not None:
                        db.notes["freedesktop names of macOS types"].append(f"{record['type']} -> {decl.identifier}")
        if decl is None:
            identifier = mechanical_identifier(record["type"])
            assert identifier not in mechanical_sources, \
                f"{record['type']} and {mechanical_sources[identifier]} both give {identifier}"
            mechanical_sources[identifier] = record["type"]
            origin = "tika" if record["source"] == "apache-tika" else "freedesktop"
            decl = db.get(identifier) or db.add(TypeDecl(identifier, origin))
        decl.fdo.append(record)
        for name in names:
            by_mime.setdefault(name.lower(), decl)
    return by_mime


def add_freedesktop_tags(db, records, by_mime):
    # Extensions freedesktop or Apple give a type stay theirs: Apache Tika's own types (which come last)
    # do not compete for them (text/x-web-markdown keeps *.mdtext and leaves *.md to Markdown).
    claimed = {ext.lower() for decl in db.types.values() for ext in decl.extensions}
    for record in records.values():
        if record["source"] != "apache-tika":
            claimed.update(simple_extensions(record["globs"]))
    for key, record in records.items():
        decl = by_mime[key]
        for name in [record["type"]] + record["aliases"]:
            if not db.claim_mime(decl, name):
                db.notes["freedesktop MIME already owned"].append(f"{name} (kept on {db.owner_of_mime(name).identifier})")
        for ext in simple_extensions(record["globs"]):
            if record["source"] == "apache-tika" and ext in claimed:
                db.notes["extensions Tika's types leave to others"].append(f"*.{ext} ({record['type']})")
                continue
            others = [d for d in db.apple_ext_claimants.get(ext, []) if d is not decl]
            if decl.is_apple and others:
                continue  # another Apple type owns it; do not blur Apple's own types
            decl.add_extension(ext)
        if not decl.is_apple and decl.description is None and record["comment"]:
            decl.description = record["comment"]


# --------------------------------------------------------------------------------------------------
# Step 3: conformance for the types we add
# --------------------------------------------------------------------------------------------------

def kind_parents(db, decl, mime, comment, icon, magdirs, parents):
    """Parents implied by the kind of format (media type, freedesktop icon, comment, Magdir file)."""
    media_type, _, subtype = mime.lower().partition("/")
    comment_l = (comment or "").lower()
    wanted = []

    def data_only():
        current = [p for p in parents + wanted if p != "public.data"]
        return not current

    if media_type == "image":
        wanted.append("public.image")
    elif media_type == "audio" and "playlist" not in comment_l:
        wanted.append("public.audio")
    elif media_type == "video" and "playlist" not in comment_l:
        wanted.append("public.movie")
    elif media_type == "font":
        wanted.append("public.font")
    elif media_type == "model":
        wanted.append("public.3d-content")
    elif media_type == "message":
        wanted.append("public.message")

    if "playlist" in comment_l:
        wanted.append("public.playlist")
    if icon in ICON_KINDS:
        wanted.append(ICON_KINDS[icon])
    if icon in ("audio-x-generic", "video-x-generic") and "playlist" not in comment_l and data_only():
        wanted.append("public.audio" if icon == "audio-x-generic" else "public.movie")
    if re.search(r"\b(3d|scene)\b", comment_l):
        wanted.append("public.3d-content")
    if icon == "image-x-generic" and "public.3d-content" not in wanted:
        # drawings: an image when nothing else is known, a document when it lives in a container
        wanted.append("public.image" if data_only() else "public.composite-content")
    if re.search(r"\b(disk|disc|cd|floppy)\b.*\bimage\b", comment_l) and "cuesheet" not in comment_l:
        wanted.append("public.disk-image")
    if re.search(r"\bdatabase\b", comment_l) or set(magdirs) & {"database", "sql"}:
        wanted.append("public.database")

    # structured-syntax suffixes (RFC 6839)
    for suffix, parent in SUFFIX_KINDS.items():
        if subtype.endswith(suffix) and data_only():
            wanted.append(parent)

    # libmagic's Magdir file names the family of rule-only types
    if set(magdirs) & {"archive", "compress"} and data_only():
        wanted.append("public.archive")
    if "elf" in magdirs and data_only():
        wanted.append("public.elf-binary")
    if set(magdirs) & {"fonts"} and data_only():
        wanted.append("public.font")
    if (set(magdirs) & {"filesystems", "virtual", "luks"} or re.search(r"(-disk\b|floppy|dsk$)", subtype)) \
            and data_only():
        wanted.append("public.disk-image")
    if re.search(r"executable|exec$|-rom$|bytecode|dosdriver", subtype) or set(magdirs) & {"bytecode", "cafebabe"}:
        wanted.append("public.executable")
    for magdir in magdirs:
        if magdir in MAGDIR_CONTAINERS and data_only():
            container = MAGDIR_CONTAINERS[magdir]
            wanted.append(db.owner_of_mime(container).identifier if "/" in container else container)

    if icon == "package-x-generic":
        wanted.append("public.archive")
    if re.search(r"\barchive\b", comment_l) and data_only():
        wanted.append("public.archive")

    # text: plain text unless something more precise applies
    texty = media_type == "text" or any(db.conforms_to(db.get(p), "public.text") for p in parents + wanted if db.get(p))
    if texty or icon in ("text-x-script", "text-x-generic"):
        if icon == "text-x-script" or re.search(r"\b(script|program)\b", comment_l) or set(magdirs) & MAGDIR_SCRIPTS:
            wanted.append("public.script")
        elif re.search(r"\b(source code|source|code)\b", comment_l) or set(magdirs) & MAGDIR_SOURCE_CODE:
            wanted.append("public.source-code")
        elif not texty:
            wanted.append("public.plain-text")
    if media_type == "text" and not any(
            db.conforms_to(db.get(p), "public.text") for p in parents + wanted if db.get(p)):
        wanted.append("public.plain-text")
    if icon == "text-html" and data_only():
        wanted.append("public.html")
    return wanted


def root_parent(mime):
    """What a type with no other parent hangs from: file-system objects are items, formats are data."""
    media_type = mime.lower().partition("/")[0]
    return "public.item" if media_type in ("inode", "x-content") else "public.data"


def set_conformance(db, decl, candidates, mime):
    """Add candidates in order, skipping unknown, self, implied and cycle-making parents."""
    chosen = []
    for parent in candidates:
        parent_decl = db.get(parent)
        assert parent_decl is not None, f"{decl.identifier}: parent {parent} is not declared"
        if parent_decl is decl or parent_decl.identifier in chosen:
            continue
        if decl.identifier.lower() in db.ancestors(parent_decl):
            db.notes["skipped (cycle)"].append(f"{decl.identifier} -> {parent_decl.identifier}")
            continue
        chosen.append(parent_decl.identifier)
    # rooted at public.item
    decl.conforms = chosen
    if not db.conforms_to(decl, "public.item"):
        chosen.append(root_parent(mime))
    # drop parents another parent already implies
    pruned = []
    for parent in chosen:
        others = [db.get(o) for o in chosen if o != parent]
        if any(parent.lower() in db.ancestors(o) for o in others):
            continue
        pruned.append(parent)
    decl.conforms = pruned


def x_content_parent(mime):
    subtype = mime.partition("/")[2]
    if subtype.startswith("blank-") or subtype == "audio-cdda":
        return "public.item"      # a disc with no file system on it
    return "public.volume"        # a mounted volume whose contents have this kind


def is_textual(record):
    return (record["type"].lower().startswith("text/") or "text/plain" in record["parents"]
            or record["icon"] in ("text-x-script", "text-x-generic"))


def derive_freedesktop_conformance(db, by_mime):
    """Parents before children, so that the kind rules see each parent's final conformance."""
    done = set()

    def derive(decl):
        if decl.identifier in done:
            return
        done.add(decl.identifier)
        record = decl.fdo[0]
        mime = record["type"]
        curated = CURATED_PARENTS.get(decl.identifier, [])
        candidates = list(curated)
        for parent_mime in record["parents"]:
            parent = by_mime.get(parent_mime.lower())
            if parent is None:
                db.notes["unknown freedesktop parent"].append(f"{mime} -> {parent_mime}")
                continue
            if not parent.is_apple:
                derive(parent)
            if parent.identifier == "public.unix-executable" and is_textual(record):
                # freedesktop puts scripts under application/x-executable ("runnable"); a script is not
                # a Unix binary, so it gets Apple's abstract public.executable (as JavaScript has)
                candidates.append("public.executable")
                continue
            candidates.append(parent.identifier)
        if mime.startswith("x-content/") and not record["parents"]:
            candidates.append(x_content_parent(mime))
        if mime.startswith("multipart/"):
            candidates.append("public.data")
        set_conformance(db, decl, candidates, mime)
        if not curated:  # curated parents say all there is to say
            extra = kind_parents(db, decl, mime, record["comment"], record["icon"], [], decl.conforms)
            set_conformance(db, decl, decl.conforms + extra, mime)

    for decl in list(db.types.values()):
        if not decl.is_apple and decl.fdo:
            derive(decl)


def record_apple_kinds(db, by_mime):
    """Apple's types keep exactly Apple's parents: freedesktop's sub-class-of relations for them become no
    conformance. Those that say what a reader may find the files to be (an EPUB is a ZIP archive, an .xls file
    an OLE2 compound file, AIFF an IFF file, a camera's raw image a TIFF file, a macro-enabled workbook a
    workbook, JSON JavaScript) become the type's `uti.kind-of` tags, which identification's readers follow and
    Tika's media-type listing reports as supertypes. Between two of Apple's CoreTypes formats Apple's answer
    stands, as it always did (HTML is no plain text, C source no C++ source), but for containment; an edge
    that would close a cycle is left out."""
    def archive_like(decl, seen=()):
        """An archive, or a kind of one (an OpenDocument text, which is a ZIP archive)."""
        return db.conforms_to(decl, "public.archive") or any(
            kind not in seen and db.get(kind) is not None and archive_like(db.get(kind), seen + (kind,)) for kind in decl.kinds)

    changed = True
    while changed:  # until a kind recorded in one pass lets no other through (a template of a ZIP-based document)
        changed = False
        for decl in list(db.types.values()):
            if not decl.is_apple or not decl.fdo:
                continue
            for record in decl.fdo:
                for parent_mime in record["parents"]:
                    parent = by_mime.get(parent_mime.lower())
                    if parent is None or parent is decl or db.conforms_to(decl, parent.identifier) or parent.identifier in decl.kinds:
                        continue
                    core = decl.apple_index is not None and decl.apple_index < MACOS_FIRST_INDEX
                    if core and parent.is_apple and not archive_like(parent):
                        continue
                    if decl.identifier.lower() in db.ancestors(parent):
                        continue
                    decl.kinds.append(parent.identifier)
                    changed = True
    for decl in db.types.values():
        for kind in decl.kinds:
            db.notes["kinds of Apple types (not parents)"].append(f"{decl.identifier} -> {kind}")


def add_curated_kinds(db):
    """curated/content.toml's [kind-of], once every type is declared (its curated declarations among them)."""
    for identifier, kinds in CONTENT_KINDS.items():
        decl = db.get(identifier)
        assert decl is not None and all(db.get(k) is not None for k in kinds), f"curated/content.toml [kind-of]: {identifier} {kinds}"
        decl.kinds += [db.get(k).identifier for k in kinds if db.get(k).identifier not in decl.kinds]
        db.notes["curated kinds"].append(f"{decl.identifier} -> {', '.join(kinds)}")


def record_content(db):
    """What identification may hold a format's bytes to (`uti.content`, `uti.signature`): text for a type whose
    files are text though it does not conform to public.text (freedesktop or Tika file it under text/plain, or
    curated/content.toml says so), text-or-binary for one with both forms; a required
    signature for the formats curated/content.toml lists. Every curated identifier must be declared."""
    for table, name in ((CONTENT_TEXT, "text"), (CONTENT_EITHER, "text-or-binary"), (CONTENT_BINARY, "binary"), (CONTENT_SIGNATURE, "signature")):
        for identifier in table:
            assert db.get(identifier) is not None, f"curated/content.toml [{name}]: {identifier} is not declared"
    for decl in db.types.values():
        if decl.identifier in CONTENT_EITHER:
            decl.content = "text-or-binary"
            db.notes["text or binary (curated)"].append(decl.identifier)
        elif decl.identifier in CONTENT_BINARY:
            decl.content = "binary"
            db.notes["binary, in a family of text (curated)"].append(decl.identifier)
        elif db.conforms_to(decl, "public.text"):
            pass
        elif decl.identifier in CONTENT_TEXT:
            decl.content = "text"
            db.notes["text, beyond conformance (curated)"].append(decl.identifier)
        elif any("text/plain" in (p.lower() for p in record["parents"]) for record in decl.fdo):
            decl.content = "text"
            db.notes["text, beyond conformance (a source's sub-class-of text/plain)"].append(decl.identifier)
        if decl.identifier in CONTENT_SIGNATURE:
            decl.signature = "required"


# --------------------------------------------------------------------------------------------------
# Step 4: libmagic
# --------------------------------------------------------------------------------------------------

def load_libmagic(reference):
    with open(os.path.join(reference, "libmagic-5.44-all-mimes.txt"), encoding="utf-8") as f:
        all_mimes = [line.strip() for line in f if line.strip()]
    rules = {}
    with open(os.path.join(reference, "libmagic-5.44-mimes.tsv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            magdirs = [re.sub(r"\[.*\]", "", m) for m in row["magdir_file"].split(",") if m]
            exts = [e for e in row["extensions_seen"].split("/") if e]
            rules[row["mime"].lower()] = (magdirs, exts)
    builtin = {}
    with open(os.path.join(reference, "libmagic-5.44-builtin-mimes.tsv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            builtin[row["mime"].lower()] = row["condition"]
    return all_mimes, rules, builtin


def x_variants(mime):
    media_type, _, subtype = mime.partition("/")
    if subtype.startswith("x-"):
        return [f"{media_type}/{subtype[2:]}"]
    return [f"{media_type}/x-{subtype}"]


def find_libmagic_owner(db, mime):
    key = mime.lower()
    owner = db.owner_of_mime(key)
    if owner:
        return owner, "exact"
    for variant in x_variants(key):
        owner = db.owner_of_mime(variant)
        if owner:
            return owner, f"x-variant {variant}"
    equivalent = LIBMAGIC_EQUIVALENTS.get(key)
    if equivalent:
        owner = db.owner_of_mime(equivalent) if "/" in equivalent else db.get(equivalent)
        assert owner is not None, f"LIBMAGIC_EQUIVALENTS: {key} -> {equivalent}, which is not declared"
        return owner, f"curated {equivalent}"
    return None, None


def add_libmagic(db, all_mimes, rules, builtin):
    # the C-code-only strings are in all-mimes.txt, except a pattern that is not one MIME type
    known = {m.lower() for m in all_mimes}
    patterns = [m for m in builtin if m not in known]
    assert patterns == ["application/x-decompression-error-method-message"], patterns
    db.notes["libmagic patterns left out"] = patterns
    created = []
    for mime in all_mimes:
        key = mime.lower()
        magdirs, exts = rules.get(key, ([], []))
        owner, how = find_libmagic_owner(db, key)
        if owner is None:
            identifier = mechanical_identifier(key)
            owner = db.get(identifier)
            assert owner is None, f"{identifier} exists but does not claim {key}"
            owner = db.add(TypeDecl(identifier, "libmagic"))
            created.append((owner, key, magdirs, exts))
            how = "new"
        elif how != "exact":
            db.notes["libmagic equivalences"].append(f"{mime} -> {owner.identifier} ({how})")
        owner.magic.append(mime)
        owner.magdirs.extend(magdirs)
        assert db.claim_mime(owner, key), key
    # conformance and extensions for the new ones, after every MIME has found its type
    all_exts = {e.lower() for d in db.types.values() for e in d.extensions}
    for decl, mime, magdirs, exts in created:
        candidates = list(CURATED_PARENTS.get(decl.identifier, []))
        if not candidates:
            candidates = kind_parents(db, decl, mime, None, None, magdirs, [])
        set_conformance(db, decl, candidates, mime)
        for ext in exts:
            ext = ext.lower()
            if LIBMAGIC_EXT_RE.match(ext) and "xx" not in ext and ext not in all_exts:
                decl.add_extension(ext)
                decl.libmagic_extensions.add(ext)
                all_exts.add(ext)
    return created


def add_curated_declarations(db, path):
    """Types of our own that no source names (curated/declarations.plist, Apple's Info.plist schema): each
    identifier is new, every parent is declared, and a MIME type it claims names no other type."""
    with open(path, "rb") as f:
        root = plistlib.load(f)
    tag_lists = {"public.filename-extension": "extensions", FILENAME_TAG: "filenames", SUFFIX_TAG: "suffixes",
                 PATTERN_TAG: "patterns", LIBMAGIC_DESCRIPTION_TAG: "libmagic_descriptions"}
    for key, exported in (("UTExportedTypeDeclarations", True), ("UTImportedTypeDeclarations", False)):
        for index, entry in enumerate(root.get(key, [])):
            where = f"{path}: {key}[{index}]"
            identifier = entry.get("UTTypeIdentifier", "")
            if not IDENTIFIER_RE.match(identifier) or ".." in identifier:
                sys.exit(f"{where}: '{identifier}' is not a valid type identifier")
            if db.get(identifier) is not None:
                sys.exit(f"{where}: {identifier} is declared by a source already; change its mapping or parents in curated/*.toml")
            decl = db.add(TypeDecl(identifier, "curated", exported=exported))
            decl.conforms = list(entry.get("UTTypeConformsTo", []))
            for parent in decl.conforms:
                if db.get(parent) is None:
                    sys.exit(f"{where}: parent {parent} is not declared")
            decl.description = entry.get("UTTypeDescription")
            for tag_class, tags in entry.get("UTTypeTagSpecification", {}).items():
                for tag in tags:
                    if tag_class == "public.mime-type":
                        if not db.claim_mime(decl, tag):
                            sys.exit(f"{where}: MIME type {tag} already names {db.owner_of_mime(tag).identifier}")
                    elif tag_class == "public.filename-extension":
                        decl.add_extension(tag)
                    elif tag_class in tag_lists:
                        getattr(decl, tag_lists[tag_class]).append(tag)
                    else:
                        sys.exit(f"{where}: unknown tag class {tag_class}")
            db.notes["curated declarations"].append(identifier)


def add_curated_tags(db):
    """Extensions and descriptions for types the sources declare without them (curated/tags.toml); every
    identifier must be declared. A description replaces what the sources give, which for these is nothing or a
    kind's word (`3D Content`)."""
    for identifier, extensions in CURATED_EXTENSIONS.items():
        decl = db.get(identifier)
        assert decl is not None, f"curated/tags.toml [extensions]: {identifier} is not declared"
        for ext in extensions:
            decl.add_extension(ext)
            db.notes["curated extensions"].append(f"{ext} -> {identifier}")
    for identifier, description in CURATED_DESCRIPTIONS.items():
        decl = db.get(identifier)
        assert decl is not None, f"curated/tags.toml [descriptions]: {identifier} is not declared"
        decl.description = description
    with open(os.path.join(SOURCES, "magika-content-types-kb.min.json"), encoding="utf-8") as f:
        magika = json.load(f)
    for identifier, label in CURATED_MAGIKA_TEXT_LABELS.items():
        decl = db.get(identifier)
        assert decl is not None, f"curated/tags.toml [magika-text-labels]: {identifier} is not declared"
        record = magika.get(label)
        assert record is not None and record.get("is_text") and record.get("mime_type"), \
            f"curated/tags.toml [magika-text-labels]: {label} is no text label of Magika's with a MIME name"
        decl.magika_text_mime = record["mime_type"].lower()


# --------------------------------------------------------------------------------------------------
# Step 4b: the languages people write (GitHub Linguist), and Magika's names for them
# --------------------------------------------------------------------------------------------------

def read_yaml(path):
    """A YAML file of the sources, read with PyYAML (`pip install pyyaml`, Debian's python3-yaml)."""
    try:
        import yaml
    except ImportError:
        sys.exit("make-typedb: reading Linguist's YAML needs PyYAML (pip install pyyaml, or apt-get install python3-yaml)")
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def squashed(text):
    """Lower-case letters and digits only, `+` as `plus` and `#` as `sharp`: `C++` -> `cplusplus`."""
    return re.sub(r"[^a-z0-9]", "", text.lower().replace("+", "plus").replace("#", "sharp"))


def language_slug(name):
    """An identifier component for a language: `Objective-C++` -> `objective-c-plus-plus`."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("+", "-plus").replace("#", "-sharp").replace("*", "-star"))
    return slug.strip("-") or "language"


def names_language(decl, name):
    """Whether a type's identifier or description names the language `name` (a word of it for a name of one
    or two letters, else its squashed spelling anywhere)."""
    key = squashed(name)
    texts = [decl.identifier, decl.description or ""]
    if len(key) <= 2:
        return any(key in re.split(r"[^a-z0-9]+", text.lower()) for text in texts)
    return any(key in squashed(text) for text in texts)


def language_parents(db, name, entry):
    """Where a new language type sits: source code (a script when something interprets it) for programming
    languages; JSON, XML or YAML where its TextMate scope says that is what it is; plain text otherwise."""
    scope = (entry.get("tm_scope") or "").lower()
    kind = entry.get("type")
    if kind == "programming":
        return ["public.script"] if entry.get("interpreters") else ["public.source-code"]
    if scope.startswith("source.json"):
        return ["public.json"]
    if scope.startswith("text.xml"):
        return ["public.xml"]
    if scope.startswith("source.yaml") and db.get("public.yaml"):
        return ["public.yaml"]
    return ["public.plain-text"]


def load_magika_names(db, magika):
    """Magika's labels for the content types that are not languages (`elf`, `pebin`, `ogg`, `empty`): the
    type that carries Magika's MIME name for it (a name other vocabularies share: `application/x-dosexec`),
    else the one type that claims its extensions (`tsv`, `srt`); and for every labelled type, the MIME name
    Magika gives it (`uti.magika-mime-type`), which `--mime-names magika` reports. A label that names no one
    type is noted and left out."""
    labelled = {label for decl in db.types.values() for label in decl.magika_labels}
    generic = ("text/plain", "application/octet-stream")

    def agrees(decl, record):
        # Magika's binary formats are not text types: `pytorch` is not XML for sharing `.pt`, `stlbinary` not
        # the STL language. (Its `is_text` is unreliable the other way: `ada` says false, under text/x-ada.)
        binary = not record.get("is_text") and not (record.get("mime_type") or "").startswith("text/")
        return not (binary and "public.text" in db.ancestors(decl))
    for label, record in sorted(magika.items()):
        if label in labelled or label in ("unknown", "undefined", "txt"):
            continue
        mime = (record.get("mime_type") or "").lower()
        owner = db.owner_of_mime(mime) if mime and mime not in generic else None
        how = f"MIME {mime}"
        if label in CURATED_MAGIKA_LABELS:
            owner, how = db.get(CURATED_MAGIKA_LABELS[label]), "curated"
            assert owner is not None, f"curated/languages.toml: {label} -> {CURATED_MAGIKA_LABELS[label]}, which is not declared"
        if owner is not None and how != "curated" and not agrees(owner, record):
            owner = None
        if owner is None:
            claimants = {d.identifier: d for ext in record.get("extensions") or []
                         for d in db.types.values() if ext.lower() in (e.lower() for e in d.extensions) and agrees(d, record)}
            if len(claimants) != 1:
                db.notes["Magika labels with no one type"].append(f"{label} ({len(claimants)} types claim its extensions)")
                continue
            owner = next(iter(claimants.values()))
            how = "extension"
        owner.magika_labels.append(label)
        db.notes["Magika labels of formats"].append(f"{label} -> {owner.identifier} ({how})")

    def rank(decl, label):
        # The label that names the type's language first (Ruby is `ruby`'s `application/x-ruby`, not
        # `gemspec`'s `text/plain`; INI is `ini`'s `text/plain`, not `url`'s), then a specific name.
        named = squashed(label) in (squashed(name) for name in decl.languages)
        return (not named, (magika.get(label, {}).get("mime_type") or "").lower() in generic)
    for decl in db.types.values():
        for label in sorted(decl.magika_labels, key=lambda label: rank(decl, label)):
            mime = (magika.get(label, {}).get("mime_type") or "").lower()
            if mime and mime not in decl.magika_mimes:
                decl.magika_mimes.append(mime)
        # A format no other vocabulary names goes by Magika's name for it (Avro's application/x-avro-binary),
        # where that name is specific and no other type's.
        if not decl.mimes and not decl.is_apple:
            for mime in decl.magika_mimes:
                if mime not in generic and "/" in mime and db.owner_of_mime(mime) is None and db.claim_mime(decl, mime):
                    db.notes["Magika's names for formats no other vocabulary names"].append(f"{mime} -> {decl.identifier}")
                    break


def load_linguist(db):
    """A type for every language GitHub Linguist knows: the type that already names it (Apple's
    `public.swift-source`, freedesktop's `text/rust`), else a new `uti.language.<name>`; with Linguist's
    extensions, file names, interpreters, name and aliases as tags, and Magika's label and MIME type for it.
    A tag already claimed by another type stays that type's (Linguist's own table needs heuristics for most
    of those, `.h`, `.m`, `.pl`): the language is recorded as a further candidate of the extension instead,
    which the heuristics may choose. Returns ({Linguist name: identifier}, {extension: [identifier]})."""
    languages = read_yaml(os.path.join(SOURCES, "linguist-languages.yml"))
    with open(os.path.join(SOURCES, "magika-content-types-kb.min.json"), encoding="utf-8") as f:
        magika = json.load(f)
    text_types = [d for d in db.types.values() if "public.text" in db.ancestors(d)]
    by_extension = collections.defaultdict(list)
    for decl in db.types.values():
        for ext in decl.extensions:
            by_extension[ext.lower()].append(decl)
        for suffix in decl.suffixes:
            by_extension[suffix.lower()].append(decl)
    owners = {}
    claimed = {}
    # Who claims each extension and file name before Linguist: those claims stand.
    extension_claims = collections.defaultdict(set)
    filename_claims = collections.defaultdict(set)
    for decl in db.types.values():
        for ext in decl.extensions:
            extension_claims[ext.lower()].add(decl.identifier)
        for suffix in decl.suffixes:
            extension_claims[suffix.lower()].add(decl.identifier)
        for filename in decl.filenames:
            filename_claims[filename.lower()].add(decl.identifier)
    further = collections.defaultdict(list)
    for name, entry in languages.items():
        curated = CURATED_LANGUAGE_TYPES.get(name)
        owner = db.get(curated) if curated else None
        assert curated is None or owner is not None, f"curated/languages.toml: {name} -> {curated}, which is not declared"
        how = "curated" if owner else None
        mime = entry.get("codemirror_mime_type")
        if name in LANGUAGES_OF_THEIR_OWN:
            how = "a type of its own (curated)"
        elif owner is None and mime:
            candidate = db.owner_of_mime(mime)
            if candidate is not None and candidate in text_types and names_language(candidate, name) and candidate.identifier not in claimed:
                owner, how = candidate, f"MIME {mime}"
        if owner is None and name not in LANGUAGES_OF_THEIR_OWN:
            for ext in entry.get("extensions") or []:
                # Any type claiming one of its extensions, text or not (Linguist's X BitMap is Apple's image
                # type), whose name names the language.
                found = [d for d in by_extension.get(ext.lstrip(".").lower(), [])
                         if names_language(d, name) and d.identifier not in claimed]
                if found:
                    owner, how = found[0], f"extension {ext}"
                    break
        if owner is None:
            owner = db.add(TypeDecl("uti.language." + language_slug(name), "linguist"))
            owner.conforms = language_parents(db, name, entry)
            owner.description = name + (" source code" if entry.get("type") == "programming" else "")
            how = how or "new"
        db.notes["Linguist languages"].append(f"{name} -> {owner.identifier} ({how})")
        claimed[owner.identifier] = name
        owners[name] = owner.identifier
        owner.languages.extend(n for n in [name] + list(entry.get("aliases") or []) if n not in owner.languages)
        for ext in entry.get("extensions") or []:
            ext = ext.lstrip(".").lower()
            if not re.match(r"^[a-z0-9_+-]+(\.[a-z0-9_+-]+)*$", ext):
                continue
            others = extension_claims[ext] - {owner.identifier}
            if others:
                # Another type's tag: the language is a further candidate, for the heuristics to choose.
                if owner.identifier not in further[ext]:
                    further[ext].append(owner.identifier)
                continue
            extension_claims[ext].add(owner.identifier)
            if "." in ext:
                if ext not in owner.suffixes:
                    owner.suffixes.append(ext)
            else:
                owner.add_extension(ext)
        for filename in entry.get("filenames") or []:
            if filename_claims[filename.lower()] - {owner.identifier}:
                continue
            filename_claims[filename.lower()].add(owner.identifier)
            if filename not in owner.filenames:
                owner.filenames.append(filename)
        for program in entry.get("interpreters") or []:
            if program not in owner.interpreters:
                owner.interpreters.append(program)
        # CodeMirror's MIME types name editor modes, which languages share (Cangjie is edited in Swift's
        # mode): one names a language only when its subtype spells the language's name or an alias.
        if mime and db.owner_of_mime(mime) is None and any(
                len(squashed(n)) > 1 and squashed(n) in squashed(mime.partition("/")[2])
                for n in [name] + list(entry.get("aliases") or [])):
            db.claim_mime(owner, mime)
    # Magika's labels: the language of the same name, else the one language with its extensions.
    for label, record in sorted(magika.items()):
        if not record.get("is_text") or label in CURATED_MAGIKA_LABELS:
            continue
        named = [n for n in languages if squashed(n) == squashed(label)
                 or squashed(label) in (squashed(a) for a in languages[n].get("aliases") or [])]
        if not named:
            exts = {"." + e for e in record.get("extensions") or []}
            named = [n for n, e in languages.items() if exts and exts & set(e.get("extensions") or [])]
        if len(named) != 1:
            db.notes["Magika labels with no one language"].append(f"{label} ({len(named)})")
            continue
        owner = db.get(owners[named[0]])
        owner.magika_labels.append(label)
        mime = record.get("mime_type")
        if mime and mime.lower() not in ("text/plain", "application/octet-stream") and db.owner_of_mime(mime) is None:
            db.claim_mime(owner, mime)
    load_magika_names(db, magika)
    # A language Linguist groups under another (Unix Assembly under Assembly, Roff Manpage under Roff), or a
    # dialect curated/languages.toml names, conforms to it: first, for a type of its own; after its parents
    # for a type another source declared (Apple's conformance stays Apple's).
    for name, entry in languages.items():
        parent_name = LANGUAGE_DIALECTS.get(name) or entry.get("group")
        decl = db.get(owners[name])
        if not parent_name or parent_name not in owners or decl.is_apple:
            continue
        parent = owners[parent_name]
        if parent.lower() == decl.identifier.lower() or decl.identifier.lower() in db.ancestors(db.get(parent)) \
                or parent.lower() in db.ancestors(decl):
            continue
        if decl.origin == "linguist":
            decl.conforms = [parent] + [c for c in decl.conforms if c != parent]
        else:
            decl.conforms.append(parent)
            db.notes["Linguist groups added as parents"].append(f"{decl.identifier} -> {parent}")
    return owners, dict(further)


def ruby_pattern(pattern):
    """A Linguist pattern (Ruby, Onigmo) in the syntax PCRE2 reads, where the two differ: Ruby's `^` and `$`
    always match at line ends (PCRE2 is told so at run time, `PCRE2_MULTILINE`), Ruby's `(?m)` is dot-all
    (`(?s)`), `\\h` is a hex digit, `{,n}` is `{0,n}`, and a class intersection `[A&&[^B]]` (which PCRE2
    would read as ampersands) is the lookahead `(?:(?![B])[A])` (`[A&&[B]]`: `(?:(?=[B])[A])`)."""
    pattern = re.sub(r"\[((?:[^\[\]\\]|\\.)+)&&\[(\^?)((?:[^\[\]\\]|\\.)+)\]\]",
                     lambda m: "(?:(?" + ("!" if m.group(2) else "=") + "[" + m.group(3) + "])[" + m.group(1) + "])", pattern)
    out = []
    index = 0
    in_class = False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            nxt = pattern[index + 1]
            if nxt == "h":
                out.append("0-9A-Fa-f" if in_class else "[0-9A-Fa-f]")
            elif nxt == "H" and not in_class:
                out.append("[^0-9A-Fa-f]")
            else:
                out.append(char + nxt)
            index += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif not in_class and pattern.startswith("(?", index):
            match = re.match(r"\(\?([imx]*)(?:-([imx]*))?([:)])", pattern[index:])
            if match:
                on = match.group(1).replace("m", "s")
                off = (match.group(2) or "").replace("m", "s")
                out.append("(?" + on + ("-" + off if off else "") + match.group(3))
                index += len(match.group(0))
                continue
        elif not in_class and pattern.startswith("{,", index):
            out.append("{0,")
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def required_literals(pattern):
    """Strings of which a text must hold at least one for `pattern` (PCRE2 syntax) to match anywhere
    in it, or None when no such set is known: a cheap test that spares the regular expression on most
    texts. Read from Python's parse of the pattern, conservatively: a sequence needs its best element's
    literals, an alternation the union of its branches', a repeat of at least one its body's. A literal
    under case-insensitive matching is given lower-case with a leading U+0003 (to be looked for in the
    text's ASCII lower-case). Literals shorter than 2 bytes are not worth a search and count as none."""
    try:
        parser = getattr(re, "_parser", None) or __import__("sre_parse")
        constants = getattr(re, "_constants", None) or __import__("sre_constants")
        # Python spells a named group (?P<name>...).
        tree = parser.parse(re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern))
    except Exception:
        return None
    FOLD = "\x03"

    def best(options):
        options = [o for o in options if o]
        # The set whose shortest literal is longest: the most selective test.
        return max(options, key=lambda o: (min(len(x.lstrip(FOLD)) for x in o), -len(o)), default=None)

    def sequence(items, folded):
        found, run = [], ""

        def finish():
            if len(run) >= 2:
                found.append({FOLD + run.lower() if folded else run})
        for op, arg in items:
            fixed = exact(op, arg, folded)
            if fixed is not None:
                run += fixed
                continue
            finish()
            run = ""
            found.append(node(op, arg, folded))
        finish()
        return best(found)

    def exact(op, arg, folded):
        """The one ASCII string the element matches (a literal, or a group of literals in the same case
        sense), or None."""
        if op is constants.LITERAL:
            return chr(arg) if arg < 128 else None
        if op is constants.SUBPATTERN and not (arg[1] | arg[2]) & re.IGNORECASE:
            parts = [exact(o, a, folded) for o, a in arg[3]]
            return "".join(parts) if parts and None not in parts else None
        return None

    def node(op, arg, folded):
        # A lookahead or lookbehind that must match: what it holds must be in the text too.
        if op is constants.ASSERT:
            return sequence(arg[1], folded)
        if op is constants.SUBPATTERN:
            add_flags, del_flags = arg[1], arg[2]
            inner = (folded or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
            return sequence(arg[3], inner)
        if op is constants.BRANCH:
            union = set()
            for branch in arg[1]:
                sub = sequence(branch, folded)
                if not sub:
                    return None
                union |= sub
            return union
        if op in (constants.MAX_REPEAT, constants.MIN_REPEAT, getattr(constants, "POSSESSIVE_REPEAT", None)):
            low, _, body = arg
            return sequence(body, folded) if low >= 1 else None
        if op is getattr(constants, "ATOMIC_GROUP", None):
            return sequence(arg, folded)
        return None

    try:
        found = sequence(list(tree), bool(tree.state.flags & re.IGNORECASE))
    except Exception:
        return None
    return sorted(found) if found else None


def heuristics_lines(languages):
    """Linguist's heuristics (heuristics.yml) as the lines `languages.c` holds:
        D ext ext ...       a disambiguation, for these extensions (lower-case, no dot)
        R id id ...         a rule choosing these types (`-` for none), when every condition below it holds
        + pattern           a condition: the pattern matches somewhere in the text
        - pattern           a condition: it matches nowhere
        ? lit lit ...       after a condition: the pattern can match only where one of these strings is
                            (separated by U+0002; see required_literals)
    Patterns are in PCRE2's syntax (see ruby_pattern); a list of patterns is their union; a line break
    inside one (free-spacing mode) is written U+0001."""
    heuristics = read_yaml(os.path.join(SOURCES, "linguist-heuristics.yml"))
    named = heuristics.get("named_patterns") or {}

    def union(value):
        patterns = value if isinstance(value, list) else [value]
        patterns = [ruby_pattern(p) for p in patterns]
        return patterns[0] if len(patterns) == 1 else "|".join("(?:" + p + ")" for p in patterns)

    def conditions(rule):
        found = []
        if "pattern" in rule:
            found.append("+ " + union(rule["pattern"]))
        if "negative_pattern" in rule:
            found.append("- " + union(rule["negative_pattern"]))
        if "named_pattern" in rule:
            found.append("+ " + union(named[rule["named_pattern"]]))
        for part in rule.get("and") or []:
            found += conditions(part)
        return found

    lines = []
    for block in heuristics["disambiguations"]:
        lines.append("D " + " ".join(e.lstrip(".").lower() for e in block["extensions"]))
        for rule in block["rules"]:
            names = rule.get("language")
            names = names if isinstance(names, list) else [names] if names else []
            identifiers = [languages[n] for n in names if n in languages]
            lines.append("R " + (" ".join(identifiers) if identifiers else "-"))
            for condition in conditions(rule):
                # A pattern in Ruby's free-spacing mode spans lines: its line breaks travel as U+0001.
                lines.append(condition.replace("\n", "\x01"))
                literals = required_literals(condition[2:])
                if literals and not any("\n" in x or "\x01" in x or "\x02" in x or "\x03" in x[1:] for x in literals):
                    lines.append("? " + "\x02".join(literals))
    return lines


def write_language_tables(languages, further, root):
    """Sources/CTypeDatabase/languages.c: for each extension, the languages Linguist gives it besides the
    types that claim it (further candidates, for the heuristics to choose among), and Linguist's heuristics
    for it. Both are tables sorted by extension, looked up by binary search: nothing is parsed at start-up,
    and a file's identification reads only its own extension's rules."""
    def literal(line):
        return '"' + line.replace("\\", "\\\\").replace('"', '\\"').replace("\x01", "\\001").replace("\x02", "\\002").replace("\x03", "\\003").replace("\n", "\\n") + '"'
    heuristics = heuristics_lines(languages)
    rules_of = collections.defaultdict(list)
    extensions = []
    for line in heuristics:
        if line.startswith("D "):
            extensions = line[2:].split()
            continue
        for ext in extensions:
            rules_of[ext].append(line)
    lines = ["// Generated by `python3 TypeDB/tools/make-typedb.py` from TypeDB/sources: do not edit.",
             "// GitHub Linguist's further candidates for extensions other types claim (`identifier...`), and",
             "// its heuristics for ambiguous extensions (see heuristics_lines in the generator), by extension.",
             '#include "CTypeDatabase.h"', "",
             "struct entry { const char *extension; const char *value; };", "",
             "static const struct entry further_candidates[] = {"]
    lines += [f"    {{{literal(ext)}, {literal(' '.join(ids))}}}," for ext, ids in sorted(further.items())]
    lines += ["};", "", "static const struct entry heuristics[] = {"]
    lines += [f"    {{{literal(ext)}, {literal(chr(10).join(rules) + chr(10))}}}," for ext, rules in sorted(rules_of.items())]
    lines += ["};", "",
              "#define COUNT(table) (sizeof(table) / sizeof((table)[0]))",
              "size_t uti_language_further_count(void) { return COUNT(further_candidates); }",
              "const char *uti_language_further_extension(size_t index) { return index < COUNT(further_candidates) ? further_candidates[index].extension : NULL; }",
              "const char *uti_language_further_types(size_t index) { return index < COUNT(further_candidates) ? further_candidates[index].value : NULL; }",
              "size_t uti_language_heuristics_count(void) { return COUNT(heuristics); }",
              "const char *uti_language_heuristics_extension(size_t index) { return index < COUNT(heuristics) ? heuristics[index].extension : NULL; }",
              "const char *uti_language_heuristics_rules(size_t index) { return index < COUNT(heuristics) ? heuristics[index].value : NULL; }",
              ""]
    path = os.path.join(root, LANGUAGES_SOURCE)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return len(further), sum(1 for line in heuristics if line.startswith("R "))


def magika_mime_types():
    """Every MIME name Magika's content types give."""
    with open(os.path.join(SOURCES, "magika-content-types-kb.min.json"), encoding="utf-8") as f:
        return {record["mime_type"].lower() for record in json.load(f).values() if record.get("mime_type")}


# --------------------------------------------------------------------------------------------------
# Step 5: families and the tag-preference rule
# --------------------------------------------------------------------------------------------------



def family_of(db, decl):
    identifier = decl.identifier
    lower = identifier.lower()
    if identifier in FAMILY_OVERRIDES:
        return FAMILY_OVERRIDES[identifier]
    if identifier in BASE_TYPES:
        return "base"
    ancestors = db.ancestors(decl)
    mime = (decl.fdo[0]["type"] if decl.fdo else (decl.magic[0] if decl.magic else "")).lower()
    derived = not decl.is_apple
    if ancestors & DEVICE_ROOTS or (decl.is_apple and not decl.conforms and lower in DEVICE_ROOTS):
        return "devices"
    if (lower.startswith(APPLE_UI_PREFIXES) and "public.directory" not in ancestors) \
            or lower in ("com.apple.user", "com.apple.guest-user", "com.apple.user-group", "com.apple.user-unknown"):
        return "apple-platform"
    if derived and GAME_PATTERN.search(mime):
        return "games"
    if derived and SCIENCE_PATTERN.search(mime):
        return "science"
    if derived and SECURITY_PATTERN.search(mime) or lower in ("public.x509-certificate", "com.rsa.pkcs-12"):
        return "security"
    if "public.font" in ancestors:
        return "font"
    if "public.3d-content" in ancestors:
        return "3d-model"
    if "public.source-code" in ancestors:
        return "source-code"
    media = {"public.image", "public.audio", "public.movie", "public.audiovisual-content"}
    if ancestors & {"public.composite-content", "public.spreadsheet", "public.presentation"} and not ancestors & media:
        return "document"
    if "public.content" in ancestors and not ancestors & (media | {"public.text"}) \
            and not lower.startswith("com.apple."):
        return "document"
    if "public.image" in ancestors:
        return "image"
    if "public.audio" in ancestors or ("public.playlist" in ancestors and "public.movie" not in ancestors):
        return "audio"
    if ancestors & {"public.movie", "public.audiovisual-content", "public.audiovisual-content-collection"}:
        return "video"
    if ancestors & {"public.message", "public.contact", "public.calendar-event", "public.to-do-item"} \
            or mime.startswith(("message/", "multipart/")):
        return "mail-and-contacts"
    if ancestors & {"com.apple.bundle", "com.apple.package"}:
        return "apple-platform"
    if ancestors & {"public.directory", "public.symlink", "public.named-pipe", "public.socket",
                    "public.character-special", "public.block-special", "com.apple.mount-point",
                    "com.apple.resolvable"} or mime.startswith(("inode/", "x-content/")) \
            or lower in ("com.apple.resolvable", "public.file-sharepoint", "com.apple.network-neighborhood",
                         "com.apple.dot-mac", "com.apple.idisk", "com.apple.user-idisk") \
            or mime == "application/x-zerosize":
        return "filesystem"
    if "public.executable" in ancestors:
        return "executable"
    if ancestors & {"public.archive"}:
        return "archive"
    if "public.database" in ancestors:
        return "database"
    if ancestors & {"public.url", "public.stored-url", "public.bookmark", "public.url-name"}:
        return "links"
    if "public.text" in ancestors:
        return "text"
    if lower.startswith("com.apple."):
        return "apple-platform"
    return "data"


def preference_key(decl, file_order):
    """The runtime's order for a tag several types claim: public.* first, exported first, then
    declaration order (files by name, entries in file order)."""
    return (not decl.is_public, not decl.exported, file_order[decl.family], decl.position)


def assign_families(db):
    for decl in db.types.values():
        decl.family = family_of(db, decl)
    # Apple types sharing a tag with an earlier Apple type stay in that type's file when the file
    # order would otherwise let the later one win (public.mpeg-4-audio beside public.mpeg-4: mp4).
    moved = []
    changed = True
    while changed:
        changed = False
        order_files(db)
        file_order = {f: i for i, f in enumerate(sorted({d.family for d in db.types.values()}))}
        for tag_table in (db.apple_ext_claimants, db.apple_mime_claimants):
            for tag, claimants in tag_table.items():
                winner = expected_apple_winner(claimants)
                for other in claimants:
                    if other is winner or other.family == winner.family:
                        continue
                    if preference_key(other, file_order) < preference_key(winner, file_order):
                        moved.append(f"{other.identifier}: {other.family} -> {winner.family} ({tag})")
                        other.family = winner.family
                        changed = True
    db.notes["moved beside a tag sibling"] = moved


def expected_apple_winner(claimants):
    """Apple's answer: the first claimant in TSV order, a public type beating a non-public one."""
    public = [d for d in claimants if d.is_public]
    return min(public or claimants, key=lambda d: d.apple_index)


def order_files(db):
    """Position inside each file: Apple types in TSV order, then ours by identifier."""
    by_family = collections.defaultdict(list)
    for decl in db.types.values():
        by_family[decl.family].append(decl)
    for decls in by_family.values():
        decls.sort(key=lambda d: (not d.is_apple, d.apple_index if d.is_apple else 0, d.identifier.lower()))
        for position, decl in enumerate(decls):
            decl.position = position
    return by_family


def check_tag_preference(db):
    """Every Apple extension and MIME type must resolve to Apple's own choice. A derived type (or a
    tag we appended to an Apple type) that would win loses the tag; then the check must pass."""
    by_family = order_files(db)
    file_order = {f: i for i, f in enumerate(sorted(by_family))}
    dropped = []
    for kind, table in (("extension", db.apple_ext_claimants), ("mime", db.apple_mime_claimants)):
        for tag, apple_claimants in table.items():
            expected = expected_apple_winner(apple_claimants)
            while True:
                claimants = [d for d in db.types.values()
                             if tag in {t.lower() for t in (d.extensions if kind == "extension" else d.mimes)}]
                winner = min(claimants, key=lambda d: preference_key(d, file_order))
                if winner is expected:
                    break
                own = winner.apple_extensions if kind == "extension" else winner.apple_mimes
                assert tag not in own, f"Apple-vs-Apple conflict on {kind} {tag}: {winner.identifier} beats {expected.identifier}"
                if kind == "extension":
                    winner.extensions = [e for e in winner.extensions if e.lower() != tag]
                else:
                    winner.mimes = [m for m in winner.mimes if m.lower() != tag]
                dropped.append(f"{kind} {tag} dropped from {winner.identifier} (Apple: {expected.identifier})")
    db.notes["tags dropped by the preference check"] = dropped
    # the check itself, from scratch
    failures = 0
    for kind, table in (("extension", db.apple_ext_claimants), ("mime", db.apple_mime_claimants)):
        index = collections.defaultdict(list)
        for decl in db.types.values():
            for tag in (decl.extensions if kind == "extension" else decl.mimes):
                index[tag.lower()].append(decl)
        for tag, apple_claimants in table.items():
            winner = min(index[tag], key=lambda d: preference_key(d, file_order))
            if winner is not expected_apple_winner(apple_claimants):
                failures += 1
                print(f"preference FAIL: {kind} {tag} -> {winner.identifier}", file=sys.stderr)
    assert failures == 0
    return sum(len(t) for t in (db.apple_ext_claimants, db.apple_mime_claimants))


# --------------------------------------------------------------------------------------------------
# Step 6: validation and output
# --------------------------------------------------------------------------------------------------

def validate(db, apple_rows, all_mimes):
    # Apple types keep exactly Apple's parents (other sources' knowledge of their formats is in their tags)
    for row in apple_rows:
        decl = db.get(row["identifier"])
        assert decl.identifier == row["identifier"]
        assert decl.conforms == row["conformsTo"].split(), f"{decl.identifier}: {decl.conforms}, Apple says {row['conformsTo']}"
        assert decl.extensions[:len(row["filenameExtensions"].split())] == row["filenameExtensions"].split()
        assert decl.mimes[:len(row["mimeTypes"].split())] == row["mimeTypes"].split()
        assert decl.exported == (row["group"] == "system")
    lowered = collections.Counter(d.identifier.lower() for d in db.types.values())
    assert max(lowered.values()) == 1
    for decl in db.types.values():
        identifier = decl.identifier
        assert IDENTIFIER_RE.match(identifier) and ".." not in identifier, identifier
        assert not identifier.lower().startswith("dyn."), identifier
        for parent in decl.conforms:
            assert db.get(parent) is not None, f"{identifier}: parent {parent} not declared"
        if not decl.is_apple:
            assert decl.conforms, f"{identifier} has no parent"
            if identifier not in MISSING_APPLE_PARENTS:
                assert db.conforms_to(decl, "public.item"), f"{identifier} is not rooted at public.item"
        assert len({e.lower() for e in decl.extensions}) == len(decl.extensions), identifier
        assert len({m.lower() for m in decl.mimes}) == len(decl.mimes), identifier
    # no cycles: depth-first search with colours
    colour = {}

    def visit(key, path):
        colour[key] = "grey"
        for parent in db.types[key].conforms:
            p = parent.lower()
            assert colour.get(p) != "grey", f"cycle: {' -> '.join(path + [p])}"
            if p not in colour:
                visit(p, path + [p])
        colour[key] = "black"

    for key in db.types:
        if key not in colour:
            visit(key, [key])
    # every libmagic MIME names exactly one intended type
    for mime in all_mimes:
        claimants = [d for d in db.types.values() if mime.lower() in {m.lower() for m in d.mimes}]
        assert claimants, f"libmagic {mime} has no type"
        if len(claimants) > 1:
            assert all(d.is_apple and mime.lower() in d.apple_mimes for d in claimants), \
                f"libmagic {mime} claimed by {[d.identifier for d in claimants]}"


def declaration(decl):
    entry = {"UTTypeIdentifier": decl.identifier}
    if decl.conforms:
        entry["UTTypeConformsTo"] = list(decl.conforms)
    if decl.description:
        entry["UTTypeDescription"] = decl.description
    tags = {}
    if decl.extensions:
        tags["public.filename-extension"] = list(decl.extensions)
    if decl.mimes:
        tags["public.mime-type"] = list(decl.mimes)
    if decl.filenames:
        tags[FILENAME_TAG] = list(decl.filenames)
    if decl.suffixes:
        tags[SUFFIX_TAG] = list(decl.suffixes)
    if decl.patterns:
        tags[PATTERN_TAG] = list(decl.patterns)
    if decl.interpreters:
        tags[INTERPRETER_TAG] = list(decl.interpreters)
    if decl.languages:
        tags[LANGUAGE_TAG] = list(decl.languages)
    if decl.magika_labels:
        tags[MAGIKA_TAG] = list(decl.magika_labels)
    if decl.magika_mimes:
        tags[MAGIKA_MIME_TAG] = list(decl.magika_mimes)
    if decl.magika_text_mime:
        tags[MAGIKA_TEXT_MIME_TAG] = [decl.magika_text_mime]
    if decl.libmagic_descriptions:
        tags[LIBMAGIC_DESCRIPTION_TAG] = list(decl.libmagic_descriptions)
    if decl.kinds:
        tags[KIND_TAG] = list(decl.kinds)
    if decl.content:
        tags[CONTENT_TAG] = [decl.content]
    if decl.signature:
        tags[SIGNATURE_TAG] = [decl.signature]
    if tags:
        entry["UTTypeTagSpecification"] = tags
    return entry


def write_files(db, out_dir):
    by_family = order_files(db)
    os.makedirs(out_dir, exist_ok=True)
    written = {}
    for family in sorted(by_family):
        assert re.match(r"^[a-z0-9]+(-[a-z0-9]+)*$", family), family
        assert family in FAMILY_DESCRIPTIONS, f"describe family {family}"
        exported = [declaration(d) for d in by_family[family] if d.exported]
        imported = [declaration(d) for d in by_family[family] if not d.exported]
        root = {}
        if exported:
            root["UTExportedTypeDeclarations"] = exported
        if imported:
            root["UTImportedTypeDeclarations"] = imported
        path = os.path.join(out_dir, f"{family}.plist")
        with open(path, "wb") as f:
            plistlib.dump(root, f, fmt=plistlib.FMT_XML, sort_keys=True)
        written[family] = (len(exported), len(imported))
    return written


# --------------------------------------------------------------------------------------------------
# Step 7: the content rules identification reads, compiled as a shared-mime-info database would be
# --------------------------------------------------------------------------------------------------

MIME_DATA_FILES = ("magic", "types", "aliases", "globs2", "XMLnamespaces")
MIME_DATA_VERSION = "2.4"


def write_mime_data(tika_package, tika_types, out_dir):
    """TypeDB/mime/: shared-mime-info 2.4's compiled magic, type list, aliases, globs and XML namespaces, with
    Tika's own types compiled beside it as a second package, plus `version`. Identification uses them where
    the system's database is older than 2.4 (see FileIdentification/ContentReaders/SharedMIMEInfo.swift)."""
    with open(os.path.join(SOURCES, "freedesktop.org-2.4.xml.in"), encoding="utf-8") as f:
        source = f.read()
    # The .xml.in source marks translatable comments `_comment`; the compiled database reads `comment`.
    source = re.sub(r"<(/?)_comment\b", r"<\1comment", source)
    # Tika's own types (not the names it has for types Linux knows): a second package.
    ET.register_namespace("", FDO_NS.strip("{}"))
    package = ET.fromstring(tika_package)
    for element in list(package):
        if element.get("type", "").lower() not in tika_types:
            package.remove(element)
    tika = b"<?xml version='1.0' encoding='UTF-8'?>\n" + ET.tostring(package, encoding="utf-8", xml_declaration=False)
    target = os.path.join(out_dir, "mime")
    os.makedirs(target, exist_ok=True)
    sizes = sharedmimeinfo.compile_packages([("apache-tika.xml", tika), ("freedesktop.org.xml", source.encode("utf-8"))], target)
    with open(os.path.join(target, "version"), "w", encoding="utf-8") as f:
        f.write(MIME_DATA_VERSION + "\n")
    return sizes


def summary(db, written, created, only_system, checked_tags):
    print("TypeDB generated")
    print(f"  {'file':<24}{'exported':>9}{'imported':>9}{'total':>7}")
    for family, (exported, imported) in written.items():
        print(f"  {family + '.plist':<24}{exported:>9}{imported:>9}{exported + imported:>7}")
    total = len(db.types)
    origins = collections.Counter(d.origin for d in db.types.values())
    new_mechanical = sum(1 for d in db.types.values() if d.identifier.startswith("uti.mime."))
    print(f"  total types: {total} (Apple {origins['apple']}, curated identifiers {origins['curated']}, "
          f"from freedesktop {origins['freedesktop']}, from libmagic {origins['libmagic']}, from Apache Tika {origins['tika']})")
    print(f"  new uti.mime.* types: {new_mechanical} ({len(created)} of them from libmagic only)")
    print(f"  curated freedesktop mappings: {len(db.notes['curated mappings'])}; "
          f"libmagic equivalences: {len(db.notes['libmagic equivalences'])}")
    print(f"  freedesktop types only in the system 2.2 database: {', '.join(only_system) or 'none'}")
    print(f"  tag preference: {checked_tags} Apple tags checked, all resolve to Apple's type; "
          f"{len(db.notes['tags dropped by the preference check'])} derived tags dropped")
    for note in ("moved beside a tag sibling", "newer Apple constants", "Apple parents the TSV lacks",
                 "libmagic patterns left out", "skipped (cycle)"):
        if db.notes[note]:
            print(f"  {note}: {'; '.join(db.notes[note])}")


# --------------------------------------------------------------------------------------------------
# Step 8: which vocabularies know each MIME name, so that identification reports one name per format
# --------------------------------------------------------------------------------------------------

# Bits of a name's vocabularies; the order of the ranks identification picks the reported name by.
IANA, FREEDESKTOP, FREEDESKTOP_ALIAS, TIKA, TIKA_ALIAS, LIBMAGIC, MAGIKA = 1, 2, 4, 8, 16, 32, 64


def media_type_vocabularies(db, freedesktop_names, records, all_mimes):
    """(name -> bits, name -> canonical name): the bits say whether a name is registered with IANA (not
    deprecated), a freedesktop type or alias, a Tika type or alias, a string libmagic prints; the canonical
    name is the freedesktop type an alias names (else the Tika type), so that names of one format share
    it. For every MIME tag of the database and every name of the four vocabularies."""
    vocabularies = collections.defaultdict(int)
    aliased = {}
    with open(os.path.join(SOURCES, "iana-media-types.json"), encoding="utf-8") as f:
        for name, entry in json.load(f).items():
            if "DEPRECATED" not in entry.get("notes", ""):
                vocabularies[name.lower()] |= IANA
    for name, aliases in freedesktop_names.items():
        vocabularies[name.lower()] |= FREEDESKTOP
        for alias in aliases:
            vocabularies[alias.lower()] |= FREEDESKTOP_ALIAS
    # One format, one canonical name: freedesktop's aliases, and Tika's other names for a freedesktop type
    # that load_tika judged to be the same format (vnd.kde.kword for x-kword), name the freedesktop type.
    for name, record in records.items():
        for alias in record["aliases"]:
            aliased.setdefault(alias.lower(), name.lower())
    for name, record in tika_import.read_tika(os.path.join(SOURCES, "tika-mimetypes.xml")).items():
        vocabularies[name.lower()] |= TIKA
        for alias in record["aliases"]:
            vocabularies[alias.lower()] |= TIKA_ALIAS
            if alias.lower() not in aliased and alias.lower() not in freedesktop_names:
                aliased[alias.lower()] = name.lower()
    for name in all_mimes:
        vocabularies[name.lower()] |= LIBMAGIC
    for name in magika_mime_types():
        vocabularies[name] |= MAGIKA
    for decl in db.types.values():
        for name in decl.mimes:
            vocabularies[name.lower()] |= 0
    vocabularies.pop("", None)

    def canonical(name):
        seen = {name}
        while name in aliased and aliased[name] not in seen:
            name = aliased[name]
            seen.add(name)
        return name
    canonicals = {name: canonical(name) for name in vocabularies}
    for name in list(canonicals.values()):
        vocabularies[name] |= 0
    return vocabularies, canonicals


SHARED_EXTENSION = 1
LIBMAGIC_ONLY_EXTENSION = 2
TEXT_ELSEWHERE_EXTENSION = 4     # the database's claimants are all binary; a text format claims it in a source
BINARY_ELSEWHERE_EXTENSION = 8   # the database's claimants are all text; a binary format claims it in a source


def content_of(db, decl):
    """What a declaration's files may be, as identification's FormatFacts says: {"text"}, {"binary"} or both."""
    if decl.identifier in ("public.data", "public.item", "public.content", "public.composite-content"):
        return {"text", "binary"}
    lineage = [decl] + [db.get(a) for a in sorted(db.ancestors(decl))]
    tag = next((d.content for d in lineage if d is not None and d.content), None)
    if tag == "text-or-binary":
        return {"text", "binary"}
    if tag in ("text", "binary"):
        return {tag}
    return {"text"} if db.conforms_to(decl, "public.text") else {"binary"}


def extension_kinds(db, records, rules, languages=None):
    """{extension: bits} for the filename extensions whose name alone does not settle a format:
    SHARED_EXTENSION when formats of different families claim it, across the sources (the database's own
    extension tags, shared-mime-info's `*.ext` globs and libmagic's `!:ext` lists, of which only the first
    claimant keeps a tag: `key`, `mod`, `bin`); LIBMAGIC_ONLY_EXTENSION when the types that carry it carry
    it only because libmagic lists it beside a rule (`dat` for Inno Setup), a list of names files of that
    format were seen with, not a claim."""
    kinds = collections.defaultdict(int)
    families = collections.defaultdict(set)
    contents = collections.defaultdict(set)   # what the claimants in every source may be: text, binary

    def claim(ext, decl):
        ext = ext.lower()
        if decl is not None and decl.family and LIBMAGIC_EXT_RE.match(ext):
            families[ext].add(decl.family)
        if decl is not None and LIBMAGIC_EXT_RE.match(ext):
            contents[ext] |= content_of(db, decl)
    for decl in db.types.values():
        for ext in decl.extensions:
            claim(ext, decl)
    for mime, record in records.items():
        owner = db.owner_of_mime(mime)
        for pattern, _ in record["globs"]:
            if pattern.startswith("*.") and "*" not in pattern[2:] and "[" not in pattern and "." not in pattern[2:]:
                claim(pattern[2:], owner)
    for mime, (_, exts) in rules.items():
        owner, _ = find_libmagic_owner(db, mime)
        for ext in exts:
            claim(ext, owner)
    for entry in (languages or {}).values():   # GitHub Linguist's languages are text
        for ext in entry.get("extensions") or []:
            ext = ext.lstrip(".").lower()
            if LIBMAGIC_EXT_RE.match(ext):
                contents[ext].add("text")
    for ext, claimed in families.items():
        if len(claimed) >= 2:
            kinds[ext] |= SHARED_EXTENSION
    own = collections.defaultdict(set)
    for decl in db.types.values():
        for ext in decl.extensions:
            own[ext.lower()] |= content_of(db, decl)
    for ext, mine in own.items():
        if mine == {"binary"} and "text" in contents[ext]:
            kinds[ext] |= TEXT_ELSEWHERE_EXTENSION
        if mine == {"text"} and "binary" in contents[ext]:
            kinds[ext] |= BINARY_ELSEWHERE_EXTENSION
    carriers = collections.defaultdict(list)
    for decl in db.types.values():
        for ext in decl.extensions:
            carriers[ext.lower()].append(ext.lower() in decl.libmagic_extensions)
    for ext, libmagic_only in carriers.items():
        if all(libmagic_only) and LIBMAGIC_EXT_RE.match(ext):
            kinds[ext] |= LIBMAGIC_ONLY_EXTENSION
    return dict(kinds)


def write_media_type_vocabularies(vocabularies, canonicals, root, extensions):
    """Sources/CTypeDatabase/mediatypes.c: the names in byte order beside their bits and the index of their
    canonical name, searched in place."""
    # Names with parameters (Tika's `text/plain;charset=utf-8`) are not names of a format of their own.
    token = r"[!#$%&'*+.^_`|~0-9a-z-]+"
    names = sorted((name for name in vocabularies if re.fullmatch(token + "/" + token, name)), key=lambda name: name.encode("utf-8"))
    index = {name: position for position, name in enumerate(names)}
    canonicals = {name: canonical if canonical in index else name for name, canonical in canonicals.items()}
    lines = ["// Generated by `python3 TypeDB/tools/make-typedb.py` from TypeDB/sources: do not edit.",
             "// Every MIME name the type database or its four vocabularies know, in byte order, and which",
             "// vocabularies know it (bits: 1 IANA, 2 freedesktop type, 4 freedesktop alias, 8 Tika type,",
             "// 16 Tika alias, 32 libmagic, 64 Magika), and the index of the name the format goes by (an alias's type);",
             "// and the filename extensions whose name alone settles no format (bits: 1 shared by formats of",
             "// different families, 2 carried only from libmagic's extension lists, 4 claimed by a text format in",
             "// some source though the database's claimants are binary, 8 the other way; see extension_kinds).",
             '#include "CTypeDatabase.h"', "",
             f"static const char *const names[{len(names)}] = {{"]
    lines += [f'    "{name}",' for name in names]
    lines += ["};", "", f"static const unsigned char bits[{len(names)}] = {{"]
    for start in range(0, len(names), 24):
        lines.append("    " + ",".join(str(vocabularies[name]) for name in names[start:start + 24]) + ",")
    lines += ["};", "", f"static const unsigned short canonical[{len(names)}] = {{"]
    for start in range(0, len(names), 16):
        lines.append("    " + ",".join(str(index[canonicals.get(name, name)]) for name in names[start:start + 16]) + ",")
    lines += ["};", "",
              f"size_t uti_media_type_count(void) {{ return {len(names)}; }}",
              "size_t uti_media_type_canonical(size_t index) { return index < sizeof(bits) ? canonical[index] : index; }",
              "const char *uti_media_type_name(size_t index) { return index < sizeof(bits) ? names[index] : 0; }",
              "unsigned char uti_media_type_vocabularies(size_t index) { return index < sizeof(bits) ? bits[index] : 0; }", "",
              f"static const char *const extensions[{len(extensions)}] = {{"]
    ordered = sorted(extensions, key=lambda ext: ext.encode("utf-8"))
    lines += [f'    "{ext}",' for ext in ordered]
    lines += ["};", "", f"static const unsigned char extension_bits[{len(extensions)}] = {{"]
    for start in range(0, len(ordered), 24):
        lines.append("    " + ",".join(str(extensions[ext]) for ext in ordered[start:start + 24]) + ",")
    lines += ["};", "",
              f"size_t uti_extension_count(void) {{ return {len(extensions)}; }}",
              f"const char *uti_extension(size_t index) {{ return index < {len(extensions)} ? extensions[index] : 0; }}",
              f"unsigned char uti_extension_kinds(size_t index) {{ return index < {len(extensions)} ? extension_bits[index] : 0; }}", ""]
    path = os.path.join(root, MEDIA_TYPES_SOURCE)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return len(names)


# --------------------------------------------------------------------------------------------------
# The one command: generate into a tree shaped like the repository, then install it or compare it
# --------------------------------------------------------------------------------------------------

# Every generated file, relative to the repository root; GENERATED_DIRECTORIES hold nothing else.
C_SOURCES = ("Sources/CTypeDatabase/typedb.c", "Sources/CSharedMIMEInfo/sharedmimeinfo.c")
MEDIA_TYPES_SOURCE = "Sources/CTypeDatabase/mediatypes.c"
LANGUAGES_SOURCE = "Sources/CTypeDatabase/languages.c"
GENERATED_DIRECTORIES = {"TypeDB": ".plist", "TypeDB/mime": ""}


def generate(root, verbose):
    """Writes every generated file under `root` (TypeDB/..., Sources/...); returns their relative paths."""
    typedb = os.path.join(root, "TypeDB")
    os.makedirs(typedb, exist_ok=True)
    tika_package, tika_counts = tika_import.convert(SOURCES)
    tika_path = os.path.join(typedb, "apache-tika.xml")
    with open(tika_path, "w", encoding="utf-8") as f:
        f.write(tika_package)

    db = TypeDB()
    apple_rows = load_apple(db, SOURCES)
    load_macos_system_types(db, SOURCES)
    load_newer_apple_constants(db, SOURCES)
    records, only_system, system = load_freedesktop(SOURCES)
    # freedesktop's own names and aliases, before Tika's other names for its types join the records.
    freedesktop_names = {name: list(record["aliases"]) for name, record in records.items()}
    tika_types, tika_names_for_apple = load_tika(db, records, tika_path)
    by_mime = map_freedesktop(db, records)
    add_freedesktop_tags(db, records, by_mime)
    add_other_globs(db, records, by_mime)
    add_system_globs(db, system, by_mime)
    derive_freedesktop_conformance(db, by_mime)
    record_apple_kinds(db, by_mime)
    all_mimes, rules, builtin = load_libmagic(SOURCES)
    created = add_libmagic(db, all_mimes, rules, builtin)
    add_tika_names_for_apple_types(db, tika_names_for_apple)
    add_curated_declarations(db, os.path.join(SOURCES, "curated", "declarations.plist"))
    add_curated_tags(db)
    add_curated_kinds(db)
    languages, further_candidates = load_linguist(db)
    record_content(db)
    assign_families(db)
    checked = check_tag_preference(db)
    validate(db, apple_rows, all_mimes)
    written = write_files(db, typedb)
    summary(db, written, created, only_system, checked)
    print(f"  Apache Tika: {tika_counts['new names']} names no Linux vocabulary has ({tika_counts['with magic']} with magic), "
          f"{tika_counts['bare names left out']} bare names left out; {len(tika_types)} types of its own; "
          f"{len(db.notes['Tika' + chr(39) + 's other names for freedesktop types'])} other names for freedesktop types, "
          f"{len(db.notes['Tika' + chr(39) + 's names for Apple types'])} for Apple types")
    sizes = write_mime_data(tika_package, set(tika_types), typedb)
    print("  mime/ (shared-mime-info " + MIME_DATA_VERSION + ", compiled): "
          + ", ".join(f"{name} {size:,} bytes" for name, size in sizes.items()))
    if verbose:
        for note, lines in sorted(db.notes.items()):
            print(f"\n{note}:")
            for line in lines:
                print(f"  {line}")
    # The C sources the library builds from: the compiler is the Swift writer of the format the library reads.
    for path in C_SOURCES:
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    subprocess.run(["swift", "run", "--package-path", REPOSITORY, "compile-typedb",
                    "--typedb", typedb, "--sources", os.path.join(root, "Sources")], check=True)
    vocabularies, canonicals = media_type_vocabularies(db, freedesktop_names, records, all_mimes)
    extensions = extension_kinds(db, records, rules, read_yaml(os.path.join(SOURCES, "linguist-languages.yml")))
    count = write_media_type_vocabularies(vocabularies, canonicals, root, extensions)
    print(f"  media type names: {count} ({sum(1 for bits in vocabularies.values() if bits & IANA)} registered with IANA); "
          f"extensions {sum(1 for bits in extensions.values() if bits & SHARED_EXTENSION)} shared by formats of different families, "
          f"{sum(1 for bits in extensions.values() if bits & LIBMAGIC_ONLY_EXTENSION)} carried only from libmagic's lists")
    further, rules = write_language_tables(languages, further_candidates, root)
    print(f"  languages (GitHub Linguist): {len(languages)}; {further} extensions with further candidates, {rules} heuristic rules")
    generated = [os.path.join("TypeDB", f"{family}.plist") for family in written]
    generated += ["TypeDB/apache-tika.xml"] + [f"TypeDB/mime/{name}" for name in MIME_DATA_FILES + ("version",)]
    return generated + list(C_SOURCES) + [MEDIA_TYPES_SOURCE, LANGUAGES_SOURCE]


def stale_files(generated):
    """Files in the generated directories of the repository that the generator no longer writes."""
    stale = []
    for directory, suffix in GENERATED_DIRECTORIES.items():
        for name in sorted(os.listdir(os.path.join(REPOSITORY, directory))):
            relative = f"{directory}/{name}"
            if os.path.isfile(os.path.join(REPOSITORY, relative)) and name.endswith(suffix) and relative not in generated:
                stale.append(relative)
    return stale


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit status 1 when a checked-in file differs from what would be written")
    parser.add_argument("--verbose", action="store_true", help="print every mapping decision")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="typedb-") as scratch:
        generated = generate(scratch, args.verbose)
        stale = stale_files(generated)
        if args.check:
            differing = [path for path in generated
                         if not os.path.exists(os.path.join(REPOSITORY, path))
                         or not filecmp.cmp(os.path.join(scratch, path), os.path.join(REPOSITORY, path), shallow=False)]
            for path in differing:
                print(f"make-typedb: {path} differs from what the sources generate", file=sys.stderr)
            for path in stale:
                print(f"make-typedb: {path} is not generated by any source", file=sys.stderr)
            if differing or stale:
                print("make-typedb: run `python3 TypeDB/tools/make-typedb.py` and commit the result", file=sys.stderr)
                sys.exit(1)
            print(f"make-typedb: all {len(generated)} generated files are current")
            return
        changed = 0
        for path in generated:
            target = os.path.join(REPOSITORY, path)
            # Unchanged files keep their times, so that a build does not redo what they feed.
            if os.path.exists(target) and filecmp.cmp(os.path.join(scratch, path), target, shallow=False):
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(scratch, path), target)
            print(f"  changed {path}")
            changed += 1
        for path in stale:
            os.remove(os.path.join(REPOSITORY, path))
            print(f"  removed {path} (no source generates it any more)")
        print(f"make-typedb: {len(generated)} generated files, {changed} changed")


if __name__ == "__main__":
    main()
