"""Step 8: which vocabularies know each MIME name (IANA, freedesktop, Tika, libmagic, Magika) and the name each
format goes by, so that identification reports one name per format; and the filename extensions whose name
alone settles no format (`extension_kinds`). Sources/CTypeDatabase/mediatypes.c holds both
(output.write_media_type_vocabularies)."""

import collections
import json
import os

from . import tika_import
from .libmagic import LIBMAGIC_EXT_RE, find_libmagic_owner
from .magika import magika_mime_types
from .paths import SOURCES


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
ANY_BINARY_EXTENSION = 16        # in common use it names binary data of any kind (curated/content.toml, [any-binary])


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


def extension_kinds(db, records, rules, languages=None, any_binary=()):
    """{extension: bits} for the filename extensions whose name alone does not settle a format:
    SHARED_EXTENSION when formats of different families claim it, across the sources (the database's own
    extension tags, shared-mime-info's `*.ext` globs and libmagic's `!:ext` lists, of which only the first
    claimant keeps a tag: `key`, `mod`, `bin`); LIBMAGIC_ONLY_EXTENSION when the types that carry it carry
    it only because libmagic lists it beside a rule (`dat` for Inno Setup), a list of names files of that
    format were seen with, not a claim; ANY_BINARY_EXTENSION for the extensions `any_binary` lists, which in
    common use name binary data of any kind (`bin`: firmware, ROM and disc images, where Apple's database has
    only MacBinary)."""
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
    for ext in any_binary:
        kinds[ext.lower()] |= ANY_BINARY_EXTENSION
    return dict(kinds)
