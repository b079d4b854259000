"""Where each type sits and which file it goes into. Step 3: conformance for the types we add (freedesktop's
sub-class-of, curated parents, then the kind read from the media type, icon, comment and libmagic's Magdir
file), the kinds of Apple's types (`uti.kind-of`) and what their bytes may be (`uti.content`, `uti.signature`).
Step 5: families (the TypeDB/*.plist each type goes into) and the tag-preference rule checked against Apple's
data. Step 6: validation (identifiers, Apple's parents, declared parents, no cycles, every libmagic name on
one type)."""

import collections
import re
import sys

from .apple import MACOS_FIRST_INDEX
from .curation import (APPLE_UI_PREFIXES, BASE_TYPES, CONTENT_BINARY, CONTENT_EITHER, CONTENT_KINDS,
                       CONTENT_SIGNATURE, CONTENT_TEXT, CURATED_PARENTS, DEVICE_ROOTS, FAMILY_OVERRIDES,
                       GAME_PATTERN, ICON_KINDS, MAGDIR_CONTAINERS, MAGDIR_SCRIPTS, MAGDIR_SOURCE_CODE,
                       MISSING_APPLE_PARENTS, SCIENCE_PATTERN, SECURITY_PATTERN, SUFFIX_KINDS)
from .model import IDENTIFIER_RE


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
# Step 6: validation
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
