"""Step 2: freedesktop.org's shared-mime-info types mapped onto types: the Apple type declaring the MIME type
(or an alias), else a curated identifier (curated/identifiers.toml), else a macOS type claiming the same
extensions, else a mechanical `uti.mime.<type>.<subtype>`; their MIME types, aliases and globs become tags.
2.4 is authoritative; 2.2 (Debian 12's) adds the types and globs 2.4 lacks."""

import collections
import os
import re
import xml.etree.ElementTree as ET

from .apple import MACOS_FIRST_INDEX
from .curation import CURATED_IDENTIFIERS, RENAMED_AFTER_2_2
from .model import IDENTIFIER_RE, TypeDecl

FDO_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
SIMPLE_GLOB_RE = re.compile(r"^\*\.([^.*?\[\]]+)$")
SUFFIX_GLOB_RE = re.compile(r"^\*\.([^*?\[\]]+\.[^*?\[\]]+)$")


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
