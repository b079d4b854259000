#!/usr/bin/env python3
"""Apache Tika's MIME database, read for the facts the type database lacks (TypeDB/apache-tika.xml).

Used by the generator (typedb/generate.py, which make-typedb.py runs); not a command of its own. Input:
TypeDB/sources/tika-mimetypes.xml (Apache Tika's tika-core/src/main/resources/org/apache/tika/mime/tika-mimetypes.xml;
TypeDB/sources/README.md says which commit), and the names Linux already has: shared-mime-info 2.4 and 2.2
(types and aliases) and every MIME type libmagic 5.44 can answer, from the same directory.

Output: one shared-mime-info package file (the schema sharedmimeinfo.py compiles), holding
  * every Tika type that no Linux vocabulary names, neither as a type nor as an alias: its name,
    comment, aliases, parents, globs, magic and XML root elements (a name with none of those, a bare
    registration, is left out: nothing could identify or place it);
  * for a type Linux names (directly or through one of Tika's aliases), only Tika's other names for it,
    as aliases.
typedb/tika.py (load_tika) then decides which of the new names are new types and which are other names of
a type the database has (all of its extensions claimed by that one type: image/x-raw-sony is Sony's ARW).

Conversions, since Tika's schema is a superset of shared-mime-info's:
  * MIME parameters fold into the base type (application/x-berkeley-db;format=btree;version=2 is
    application/x-berkeley-db): the database types formats, not their variants;
  * Tika's internal names (application/x-tika-*) are not a vocabulary anybody exchanges: left out, and
    as parents replaced by nothing;
  * `stringignorecase` matches become `string` matches with a mask that ignores ASCII case;
    `unicodeLE` matches become `string` matches of the UTF-16LE bytes;
  * a magic alternative that needs what shared-mime-info cannot express (regular expressions) is left
    out whole, never loosened; regular-expression globs are left out.
"""

import collections
import os
import re
import xml.etree.ElementTree as ET

FDO_NS = "http://www.freedesktop.org/standards/shared-mime-info"
NUMERIC_TYPES = {"byte", "big16", "big32", "little16", "little32", "host16", "host32"}
SUPPORTED_TYPES = NUMERIC_TYPES | {"string", "stringignorecase", "unicodeLE"}


def base(mime):
    return mime.split(";")[0].strip().lower()


def is_internal(mime):
    return "/x-tika-" in mime


def linux_names(sources):
    """Every MIME name (lower-cased) shared-mime-info 2.4 or 2.2 or libmagic 5.44 knows."""
    names = set()
    for path in (os.path.join(sources, "freedesktop.org-2.4.xml.in"), os.path.join(sources, "freedesktop.org-2.2.xml")):
        for element in ET.parse(path).getroot().iter():
            if element.tag in (f"{{{FDO_NS}}}mime-type", f"{{{FDO_NS}}}alias") and element.get("type"):
                names.add(base(element.get("type")))
    with open(os.path.join(sources, "libmagic-5.44-all-mimes.txt"), encoding="utf-8") as f:
        names.update(base(line) for line in f if line.strip())
    return names


def unescape(value):
    """Tika's string values: 0x followed by hex digits is the bytes they spell; otherwise \\xNN,
    octal \\NNN, \\n \\r \\t, and \\c for any other c."""
    if re.fullmatch(r"0x([0-9a-fA-F]{2})+", value):
        return bytes.fromhex(value[2:])
    out = bytearray()
    index = 0
    while index < len(value):
        char = value[index]
        if char != "\\" or index + 1 == len(value):
            out += char.encode("utf-8")
            index += 1
            continue
        following = value[index + 1]
        if following == "x" and re.match(r"[0-9a-fA-F]{2}", value[index + 2:index + 4]):
            out.append(int(value[index + 2:index + 4], 16))
            index += 4
        elif following in "01234567":
            digits = re.match(r"[0-7]{1,3}", value[index + 1:]).group(0)
            out.append(int(digits, 8) & 0xFF)
            index += 1 + len(digits)
        else:
            out += {"n": b"\n", "r": b"\r", "t": b"\t"}.get(following, following.encode("utf-8"))
            index += 2
    return bytes(out)


def escape(data):
    """Bytes as a shared-mime-info string value: printable ASCII as is, everything else as \\xNN."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else f"\\x{b:02x}" for b in data)


def convert_match(element):
    """A Tika <match> (and its children) in shared-mime-info's schema, or None when it cannot be said."""
    kind = element.get("type", "string")
    if kind not in SUPPORTED_TYPES or element.get("minShouldMatch"):
        return None
    attributes = {"type": kind, "offset": element.get("offset", "0")}
    value = element.get("value", "")
    mask = element.get("mask")
    if kind == "stringignorecase":
        if mask:
            return None
        data = unescape(value)
        attributes["type"] = "string"
        attributes["value"] = escape(bytes(b - 32 if 0x61 <= b <= 0x7A else b for b in data))
        attributes["mask"] = "0x" + "".join("df" if chr(b).isascii() and chr(b).isalpha() else "ff" for b in data)
    elif kind == "unicodeLE":
        if mask:
            return None
        attributes["type"] = "string"
        attributes["value"] = escape(unescape(value).decode("utf-8", "replace").encode("utf-16-le"))
    elif kind == "string":
        attributes["value"] = escape(unescape(value))
        if mask:
            attributes["mask"] = mask
    else:
        attributes["value"] = value
        if mask:
            attributes["mask"] = mask
    if not attributes["value"]:
        return None
    converted = ET.Element("match", attributes)
    for child in element.findall("match"):
        sub = convert_match(child)
        if sub is None:
            return None  # an alternative that would be loosened is left out whole
        converted.append(sub)
    return converted


def read_tika(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # The file uses <tika:link> and <tika:uti> without declaring the prefix (Tika's reader does not
    # check namespaces); declare it so that a namespace-aware parser reads the file.
    if "xmlns:tika" not in text:
        text = text.replace("<mime-info", '<mime-info xmlns:tika="urn:x-tika"', 1)
    records = collections.OrderedDict()
    for element in ET.fromstring(text).findall("mime-type"):
        name = base(element.get("type"))
        if is_internal(name):
            continue
        record = records.setdefault(name, {"type": name, "comment": None, "aliases": [], "parents": [],
                                           "globs": [], "magic": [], "root": []})
        for child in element:
            if child.tag == "_comment" and record["comment"] is None and child.text:
                record["comment"] = " ".join(child.text.split())
            elif child.tag == "alias":
                alias = base(child.get("type"))
                if alias != name and alias not in record["aliases"] and not is_internal(alias):
                    record["aliases"].append(alias)
            elif child.tag == "sub-class-of":
                parent = base(child.get("type"))
                if parent != name and parent not in record["parents"] and not is_internal(parent):
                    record["parents"].append(parent)
            elif child.tag == "glob":
                if child.get("isregex") != "true" and child.get("pattern") and \
                        child.get("pattern") not in [g for g, _ in record["globs"]]:
                    record["globs"].append((child.get("pattern"), child.get("case-sensitive") == "true"))
            elif child.tag == "magic":
                matches = [m for m in (convert_match(match) for match in child.findall("match")) if m is not None]
                if matches:
                    record["magic"].append((child.get("priority", "50"), matches))
            elif child.tag == "root-XML" and child.get("localName"):
                pair = (child.get("namespaceURI", ""), child.get("localName"))
                if pair not in record["root"]:
                    record["root"].append(pair)
    return records


def package(records, known):
    """The package file's text, and counts of what it holds."""
    ET.register_namespace("", FDO_NS)
    root = ET.Element(f"{{{FDO_NS}}}mime-info")
    counts = collections.Counter()
    for name, record in records.items():
        names = [name] + record["aliases"]
        linux = [n for n in names if n in known]
        element = ET.Element(f"{{{FDO_NS}}}mime-type")
        if linux:
            # A type Linux names: only Tika's other names for it.
            others = [n for n in names if n not in known]
            if not others:
                continue
            element.set("type", linux[0])
            for alias in others:
                ET.SubElement(element, f"{{{FDO_NS}}}alias", {"type": alias})
            counts["names for types Linux has"] += len(others)
            root.append(element)
            continue
        if not (record["globs"] or record["magic"] or record["root"] or record["parents"]):
            counts["bare names left out"] += 1
            continue  # a registered name and nothing more: nothing to identify or classify it by
        element.set("type", name)
        if record["comment"]:
            ET.SubElement(element, f"{{{FDO_NS}}}comment").text = record["comment"]
        for alias in record["aliases"]:
            ET.SubElement(element, f"{{{FDO_NS}}}alias", {"type": alias})
        for parent in record["parents"]:
            ET.SubElement(element, f"{{{FDO_NS}}}sub-class-of", {"type": parent})
        for pattern, case_sensitive in record["globs"]:
            attributes = {"pattern": pattern}
            if case_sensitive:
                attributes["case-sensitive"] = "true"
            ET.SubElement(element, f"{{{FDO_NS}}}glob", attributes)
        for priority, matches in record["magic"]:
            magic = ET.SubElement(element, f"{{{FDO_NS}}}magic", {"priority": priority})
            for match in matches:
                magic.append(qualify(match))
        for namespace, local in record["root"]:
            ET.SubElement(element, f"{{{FDO_NS}}}root-XML", {"namespaceURI": namespace, "localName": local})
        counts["new names"] += 1
        counts["with magic"] += bool(record["magic"])
        root.append(element)
    ET.indent(root)
    header = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
              "<!-- Generated by TypeDB/tools/make-typedb.py from Apache Tika's MIME database (TypeDB/sources/tika-mimetypes.xml),\n"
              "     Apache License 2.0: the types and names Linux vocabularies lack. Do not edit; regenerate. -->\n")
    return header + ET.tostring(root, encoding="unicode") + "\n", counts


def qualify(match):
    """The converted match tree in shared-mime-info's namespace."""
    element = ET.Element(f"{{{FDO_NS}}}match", match.attrib)
    for child in match:
        element.append(qualify(child))
    return element


def convert(sources):
    """TypeDB/sources/tika-mimetypes.xml as a shared-mime-info package of what Linux lacks: (text, counts)."""
    return package(read_tika(os.path.join(sources, "tika-mimetypes.xml")), linux_names(sources))
