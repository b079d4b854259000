"""The decisions of this project, everything a person decided (TypeDB/sources/curated/); the rest is
mechanical. The tables of curated/*.toml are read once, on import, into the names the steps use
(CURATED_IDENTIFIERS, CURATED_PARENTS, FAMILY_OVERRIDES ...; `load_curation` says which table each is); the
types of our own (curated/declarations.plist) and the curated tags (curated/tags.toml) are added to the
database by `add_curated_declarations` and `add_curated_tags`, after every source."""

import json
import os
import plistlib
import re
import sys
import tomllib

from .model import (FILENAME_TAG, IDENTIFIER_RE, LIBMAGIC_DESCRIPTION_TAG, PATTERN_TAG, SUFFIX_TAG,
                    TypeDecl)
from .paths import SOURCES


def load_curation(directory):
    """The tables of the curated/*.toml files in `directory`, by the names the steps use."""
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
        "CONTENT_ANY_BINARY": content["any-binary"],
        "CONTENT_KINDS": content["kind-of"],
        "CURATED_EXTENSIONS": tags["extensions"],
        "CURATED_DESCRIPTIONS": tags["descriptions"],
        "CURATED_MAGIKA_TEXT_LABELS": tags["magika-text-labels"],
    }


# The repository's tables, read on import; each step imports the names it uses.
_TABLES = load_curation(os.path.join(SOURCES, "curated"))
CURATED_IDENTIFIERS = _TABLES["CURATED_IDENTIFIERS"]
NEWER_APPLE_TYPES = _TABLES["NEWER_APPLE_TYPES"]
MISSING_APPLE_PARENTS = _TABLES["MISSING_APPLE_PARENTS"]
RENAMED_AFTER_2_2 = _TABLES["RENAMED_AFTER_2_2"]
CURATED_PARENTS = _TABLES["CURATED_PARENTS"]
ICON_KINDS = _TABLES["ICON_KINDS"]
SUFFIX_KINDS = _TABLES["SUFFIX_KINDS"]
LIBMAGIC_EQUIVALENTS = _TABLES["LIBMAGIC_EQUIVALENTS"]
MAGDIR_CONTAINERS = _TABLES["MAGDIR_CONTAINERS"]
MAGDIR_SOURCE_CODE = _TABLES["MAGDIR_SOURCE_CODE"]
MAGDIR_SCRIPTS = _TABLES["MAGDIR_SCRIPTS"]
FAMILY_DESCRIPTIONS = _TABLES["FAMILY_DESCRIPTIONS"]
FAMILY_OVERRIDES = _TABLES["FAMILY_OVERRIDES"]
BASE_TYPES = _TABLES["BASE_TYPES"]
DEVICE_ROOTS = _TABLES["DEVICE_ROOTS"]
APPLE_UI_PREFIXES = _TABLES["APPLE_UI_PREFIXES"]
GAME_PATTERN = _TABLES["GAME_PATTERN"]
SCIENCE_PATTERN = _TABLES["SCIENCE_PATTERN"]
SECURITY_PATTERN = _TABLES["SECURITY_PATTERN"]
TIKA_NOT_THE_SAME = _TABLES["TIKA_NOT_THE_SAME"]
TIKA_IDENTIFIERS = _TABLES["TIKA_IDENTIFIERS"]
GENERIC_SUBTYPE_WORDS = _TABLES["GENERIC_SUBTYPE_WORDS"]
CURATED_LANGUAGE_TYPES = _TABLES["CURATED_LANGUAGE_TYPES"]
LANGUAGES_OF_THEIR_OWN = _TABLES["LANGUAGES_OF_THEIR_OWN"]
LANGUAGE_DIALECTS = _TABLES["LANGUAGE_DIALECTS"]
CURATED_MAGIKA_LABELS = _TABLES["CURATED_MAGIKA_LABELS"]
CONTENT_TEXT = _TABLES["CONTENT_TEXT"]
CONTENT_EITHER = _TABLES["CONTENT_EITHER"]
CONTENT_BINARY = _TABLES["CONTENT_BINARY"]
CONTENT_SIGNATURE = _TABLES["CONTENT_SIGNATURE"]
CONTENT_ANY_BINARY = _TABLES["CONTENT_ANY_BINARY"]
CONTENT_KINDS = _TABLES["CONTENT_KINDS"]
CURATED_EXTENSIONS = _TABLES["CURATED_EXTENSIONS"]
CURATED_DESCRIPTIONS = _TABLES["CURATED_DESCRIPTIONS"]
CURATED_MAGIKA_TEXT_LABELS = _TABLES["CURATED_MAGIKA_TEXT_LABELS"]


# --------------------------------------------------------------------------------------------------
# Types of our own and curated tags, added to the database after every source
# --------------------------------------------------------------------------------------------------

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
