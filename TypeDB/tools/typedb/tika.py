"""Apache Tika's names (TypeDB/apache-tika.xml, which tika_import.py makes) for what Linux does not name, part
of step 2: another name of a freedesktop type, another name of the one existing type that claims all of its
extensions and is of the same kind (curated/tika.toml settles what no rule does), else a type of its own."""

import collections
import re

from .curation import CURATED_IDENTIFIERS, GENERIC_SUBTYPE_WORDS, TIKA_IDENTIFIERS, TIKA_NOT_THE_SAME
from .freedesktop import parse_freedesktop, simple_extensions
from .model import TypeDecl


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
