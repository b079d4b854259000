"""Step 4: libmagic 5.44's MIME strings. Each lands on exactly one type (the type owning it, an x-/no-x-
variant, or a curated equivalence in curated/libmagic.toml), or gets a new `uti.mime.*` type whose parents
come from the Magdir file its rule is in, with the extensions libmagic saw beside the rule."""

import csv
import os
import re

from .curation import CURATED_PARENTS, LIBMAGIC_EQUIVALENTS
from .freedesktop import mechanical_identifier
from .hierarchy import kind_parents, set_conformance
from .model import TypeDecl


LIBMAGIC_EXT_RE = re.compile(r"^[a-z0-9][a-z0-9_+-]*$")


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
