"""Step 1: Apple's types, unchanged: CoreTypes' 964 (apple-system-types.tsv) with their identifiers,
conformance and tags in Apple's order, the identifiers of macOS's other system bundles after them
(macos-system-bundle-types.tsv), and the UTType constants the TSV lacks (uttype-constants.tsv)."""

import csv
import os

from .curation import CURATED_IDENTIFIERS, CURATED_PARENTS, MISSING_APPLE_PARENTS, NEWER_APPLE_TYPES
from .model import TypeDecl


APPLE_TSV = "apple-system-types.tsv"


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
