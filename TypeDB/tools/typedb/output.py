"""What the generator writes: the declarations as one XML property list per family (TypeDB/*.plist, Apple's
Info.plist schema), the content rules compiled as a shared-mime-info database would be (step 7: TypeDB/mime/),
the summary it prints, and the C tables Sources/CTypeDatabase/mediatypes.c (the vocabularies of step 8) and
languages.c (Linguist's further candidates and heuristics)."""

import collections
import json
import os
import plistlib
import re
import xml.etree.ElementTree as ET

from . import sharedmimeinfo
from .curation import FAMILY_DESCRIPTIONS
from .freedesktop import FDO_NS
from .hierarchy import order_files
from .linguist import disambiguations
from .model import (CONTENT_TAG, PRONOM_TAG, FILENAME_TAG, INTERPRETER_TAG, KIND_TAG, LANGUAGE_TAG, LIBMAGIC_DESCRIPTION_TAG,
                    MAGIKA_MIME_TAG, MAGIKA_TAG, MAGIKA_TEXT_MIME_TAG, PATTERN_TAG, SIGNATURE_TAG, SUFFIX_TAG)
from .paths import LANGUAGES_TABLE, MEDIA_TYPES_TABLE, SOURCES


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
    if decl.puids:
        tags[PRONOM_TAG] = list(decl.puids)
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
          f"from freedesktop {origins['freedesktop']}, from libmagic {origins['libmagic']}, from Apache Tika {origins['tika']}, "
          f"from GitHub Linguist {origins['linguist']}, from PRONOM {origins['pronom']})")
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
# The C tables beside the declarations: Linguist's languages (step 4b) and the vocabularies (step 8)
# --------------------------------------------------------------------------------------------------

def write_json(value, path):
    """A table as compile-typedb reads it: UTF-8 JSON, keys sorted, one entry per line, the same bytes for
    the same value on any machine."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


def write_language_tables(languages, further, typedb):
    """TypeDB/languages.json, which compile-typedb writes as Sources/CTypeDatabase/languages.c: for each
    extension, the languages Linguist gives it besides the types that claim it (further candidates, for the
    heuristics to choose among), and Linguist's disambiguations (see linguist.disambiguations). Returns how
    many extensions have further candidates and how many rules there are."""
    blocks = disambiguations(languages)
    table = {"furtherCandidates": {ext: list(ids) for ext, ids in further.items()}, "disambiguations": blocks}
    write_json(table, os.path.join(typedb, LANGUAGES_TABLE))
    return len(further), sum(len(block["rules"]) for block in blocks)


def write_media_type_vocabularies(vocabularies, canonicals, typedb, extensions):
    """TypeDB/media-types.json, which compile-typedb writes as Sources/CTypeDatabase/mediatypes.c: every MIME
    name of a format with the vocabularies that know it and the name its format goes by, and the extensions'
    kinds (see vocabularies.extension_kinds). Returns how many names there are."""
    # Names with parameters (Tika's `text/plain;charset=utf-8`) are not names of a format of their own.
    token = r"[!#$%&'*+.^_`|~0-9a-z-]+"
    names = {name for name in vocabularies if re.fullmatch(token + "/" + token, name)}
    table = {
        "names": {name: {"vocabularies": vocabularies[name],
                         "canonical": canonicals.get(name, name) if canonicals.get(name, name) in names else name}
                  for name in names},
        "extensions": dict(extensions),
    }
    write_json(table, os.path.join(typedb, MEDIA_TYPES_TABLE))
    return len(names)
