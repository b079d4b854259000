"""typedb.pronom: PRONOM, The National Archives' registry of formats and versions, as DROID's two files publish
it: the signature file (each format's PUID, name, version, MIME types, extensions, priorities over others, and
its internal signatures: byte sequences anchored at the beginning or end of a file or floating, with offset
windows and fragments) and the container signature file (ZIP entry paths and OLE2 stream names, most with
bytes to find inside them). Read, checked and written to TypeDB/pronom.json, the one table the PRONOM engine
is built from. Nothing is dropped silently: what cannot be used (a signature no format names, a priority over
a format the file does not hold) is counted in the notes.
"""

import json
import os
import re
import xml.etree.ElementTree as ET

from .model import TypeDecl

# The files in TypeDB/sources/ (their origin: TypeDB/sources/README.md).
DROID_FILE = os.path.join("pronom", "DROID_SignatureFile_V119.xml")
CONTAINER_FILE = os.path.join("pronom", "container-signature-20240715.xml")
# PRONOM's records' Apple UTIs (their apple_uti field), which DROID's file leaves out: puid TAB identifier.
APPLE_UTI_FILE = os.path.join("pronom", "pronom-apple-uti.tsv")

DROID_NAMESPACE = "{http://www.nationalarchives.gov.uk/pronom/SignatureFile}"
PUID = re.compile(r"^(fmt|x-fmt)/[0-9]+$")
HEX = re.compile(r"^(?:[0-9A-F]{2})+$")
# DROID's anchors: from the beginning of the file, from its end, or anywhere (no Reference attribute).
ANCHORS = {"BOFoffset": "BOF", "EOFoffset": "EOF", None: "VAR", "Variable": "VAR", "IndirectBOFoffset": "BOF",
           "IndirectEOFoffset": "EOF", "NOoffset": "VAR"}


class PronomError(ValueError):
    """The signature files are not what DROID publishes."""


def puid_key(puid):
    """PUIDs in PRONOM's order: fmt/ before x-fmt/, then by number."""
    kind, number = puid.split("/")
    return (kind != "fmt", int(number))


def _int(value, what):
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PronomError(f"{what}: {value!r} is not a number") from None
    if number < 0:
        raise PronomError(f"{what}: {number} is negative")
    return number


def _fragment(element, signature):
    """A left or right fragment: its position (fragments of one position are alternatives), its offset window
    from the sequence beside it, and its bytes as DROID writes them (hex, with [xx:yy] ranges and [!xx]
    negations)."""
    text = (element.text or "").strip()
    if not text:
        raise PronomError(f"signature {signature}: an empty fragment")
    return {"position": _int(element.get("Position"), f"signature {signature}: fragment position"),
            "minOffset": _int(element.get("MinOffset", "0"), f"signature {signature}: fragment offset"),
            "maxOffset": _int(element.get("MaxOffset", "0"), f"signature {signature}: fragment offset"),
            "bytes": text}


def load_droid(path):
    """The signature file: (header, formats, signatures). Formats are dictionaries with `puid`, `name`, `version`,
    `mimeTypes`, `extensions`, `signatures` (IDs) and `priorityOver` (PUIDs); signatures map an ID to its byte
    sequences."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        raise PronomError(f"{path}: not XML ({error})") from None
    if root.tag != DROID_NAMESPACE + "FFSignatureFile":
        raise PronomError(f"{path}: not a DROID signature file (root {root.tag})")
    header = {"version": _int(root.get("Version"), "the file's version"), "dateCreated": root.get("DateCreated", "")}
    signatures = {}
    for element in root.iter(DROID_NAMESPACE + "InternalSignature"):
        identifier = _int(element.get("ID"), "a signature's ID")
        sequences = []
        for sequence in element.findall(DROID_NAMESPACE + "ByteSequence"):
            reference = sequence.get("Reference")
            if reference not in ANCHORS:
                raise PronomError(f"signature {identifier}: an unknown reference {reference!r}")
            subsequences = []
            for sub in sequence.findall(DROID_NAMESPACE + "SubSequence"):
                text = (sub.findtext(DROID_NAMESPACE + "Sequence") or "").strip().upper()
                if not HEX.match(text):
                    raise PronomError(f"signature {identifier}: a sequence that is not hex: {text[:40]!r}")
                maximum = sub.get("SubSeqMaxOffset")
                subsequences.append({
                    "position": _int(sub.get("Position"), f"signature {identifier}: position"),
                    "minOffset": _int(sub.get("SubSeqMinOffset", "0"), f"signature {identifier}: offset"),
                    # No maximum: the sequence may be anywhere after the minimum.
                    "maxOffset": None if maximum is None else _int(maximum, f"signature {identifier}: offset"),
                    "sequence": text,
                    "left": [_fragment(f, identifier) for f in sub.findall(DROID_NAMESPACE + "LeftFragment")],
                    "right": [_fragment(f, identifier) for f in sub.findall(DROID_NAMESPACE + "RightFragment")],
                })
            if not subsequences:
                raise PronomError(f"signature {identifier}: a byte sequence with no subsequence")
            subsequences.sort(key=lambda s: s["position"])
            sequences.append({"anchor": ANCHORS[reference], "subsequences": subsequences})
        if not sequences:
            raise PronomError(f"signature {identifier}: no byte sequence")
        if identifier in signatures:
            raise PronomError(f"signature {identifier}: declared twice")
        signatures[identifier] = {"specificity": element.get("Specificity", "Specific"), "sequences": sequences}

    formats, by_id = [], {}
    for element in root.iter(DROID_NAMESPACE + "FileFormat"):
        puid = element.get("PUID", "")
        if not PUID.match(puid):
            raise PronomError(f"a format with PUID {puid!r}")
        mimes = [m.strip() for m in (element.get("MIMEType") or "").split(",") if m.strip()]
        record = {
            "puid": puid,
            "name": (element.get("Name") or "").strip(),
            "version": (element.get("Version") or "").strip(),
            "mimeTypes": mimes,
            "extensions": [e.text.strip().lower() for e in element.findall(DROID_NAMESPACE + "Extension") if e.text and e.text.strip()],
            "signatures": sorted(_int(s.text, f"{puid}: a signature ID") for s in element.findall(DROID_NAMESPACE + "InternalSignatureID")),
            "priorityIDs": [_int(p.text, f"{puid}: a priority") for p in element.findall(DROID_NAMESPACE + "HasPriorityOverFileFormatID")],
        }
        identifier = _int(element.get("ID"), f"{puid}: its ID")
        if identifier in by_id:
            raise PronomError(f"{puid}: format ID {identifier} declared twice")
        by_id[identifier] = record
        formats.append(record)
    return header, formats, signatures, by_id


def load_containers(path):
    """The container signature file: (header, signatures, mappings, triggers). A signature is its container kind
    (ZIP or OLE2) and its files: an entry path or stream name, with the byte sequences to find in it (in
    PRONOM's own syntax here: quoted text, ranges), or none when the path alone tells."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        raise PronomError(f"{path}: not XML ({error})") from None
    if root.tag != "ContainerSignatureMapping":
        raise PronomError(f"{path}: not a container signature file (root {root.tag})")
    header = {"version": _int(root.get("signatureVersion"), "the container file's version")}
    signatures = {}
    for element in root.iter("ContainerSignature"):
        identifier = _int(element.get("Id"), "a container signature's Id")
        kind = element.get("ContainerType")
        if kind not in ("ZIP", "OLE2"):
            raise PronomError(f"container signature {identifier}: container type {kind!r}")
        files = []
        for entry in element.iter("File"):
            name = (entry.findtext("Path") or "").strip()
            if not name:
                raise PronomError(f"container signature {identifier}: a file without a path")
            sequences = []
            for sequence in entry.iter("ByteSequence"):
                reference = sequence.get("Reference")
                if reference not in ANCHORS:
                    raise PronomError(f"container signature {identifier}: an unknown reference {reference!r}")
                subsequences = []
                for sub in sequence.findall("SubSequence"):
                    text = " ".join((sub.findtext("Sequence") or "").split())
                    if not text:
                        raise PronomError(f"container signature {identifier}: an empty sequence")
                    maximum = sub.get("SubSeqMaxOffset")
                    subsequences.append({"position": _int(sub.get("Position", "1"), f"container {identifier}: position"),
                                         "minOffset": _int(sub.get("SubSeqMinOffset", "0"), f"container {identifier}: offset"),
                                         "maxOffset": None if maximum is None else _int(maximum, f"container {identifier}: offset"),
                                         "pattern": text})
                sequences.append({"anchor": ANCHORS[reference], "subsequences": sorted(subsequences, key=lambda s: s["position"])})
            files.append({"path": name, "sequences": sequences})
        if identifier in signatures:
            raise PronomError(f"container signature {identifier}: declared twice")
        signatures[identifier] = {"container": kind, "description": (element.findtext("Description") or "").strip(), "files": files}
    mappings = []
    for mapping in root.iter("FileFormatMapping"):
        puid = mapping.get("Puid", "")
        if not PUID.match(puid):
            raise PronomError(f"a container mapping to PUID {puid!r}")
        mappings.append((_int(mapping.get("signatureId"), "a mapping's signature"), puid))
    triggers = sorted({(t.get("ContainerType"), t.get("Puid")) for t in root.iter("TriggerPuid")}, key=lambda t: (t[0], puid_key(t[1])))
    return header, signatures, mappings, triggers


def load_apple_utis(path):
    """PRONOM's records' Apple UTIs: {puid: identifier}; no file, none."""
    if not os.path.exists(path):
        return {}
    utis = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 2 or not PUID.match(fields[0]) or not fields[1]:
                raise PronomError(f"{path}:{number}: not a PUID and an identifier: {line!r}")
            utis[fields[0]] = fields[1]
    return utis


def pronom_table(sources, notes):
    """TypeDB/pronom.json's content from the files in `sources`; `notes` collects what was left out."""
    header, formats, signatures, by_id = load_droid(os.path.join(sources, DROID_FILE))
    apple_utis = load_apple_utis(os.path.join(sources, APPLE_UTI_FILE))
    for record in formats:
        if record["puid"] in apple_utis:
            record["appleUTI"] = apple_utis[record["puid"]]
    container_header, containers, mappings, triggers = load_containers(os.path.join(sources, CONTAINER_FILE))
    puids = {record["puid"] for record in formats}
    referenced = set()
    for record in formats:
        missing = [s for s in record["signatures"] if s not in signatures]
        if missing:
            raise PronomError(f"{record['puid']}: signatures {missing} are not in the file")
        referenced.update(record["signatures"])
        over = []
        for identifier in record.pop("priorityIDs"):
            if identifier in by_id:
                over.append(by_id[identifier]["puid"])
            else:
                notes.setdefault("PRONOM priorities over formats the file does not hold", []).append(f"{record['puid']} over ID {identifier}")
        record["priorityOver"] = sorted(set(over), key=puid_key)
    unused = sorted(set(signatures) - referenced)
    if unused:
        notes["PRONOM signatures no format names"] = [str(identifier) for identifier in unused]
    container_formats = []
    for signature, puid in sorted(mappings, key=lambda m: (puid_key(m[1]), m[0])):
        if signature not in containers:
            raise PronomError(f"the container mapping to {puid} names signature {signature}, which the file does not hold")
        if puid not in puids:
            notes.setdefault("PRONOM container signatures for formats the signature file does not hold", []).append(f"{signature} -> {puid}")
            continue
        container_formats.append({"puid": puid, "signature": signature})
    return {
        "signatureFile": {"version": header["version"], "dateCreated": header["dateCreated"]},
        "containerFile": {"version": container_header["version"]},
        "formats": sorted(formats, key=lambda r: puid_key(r["puid"])),
        "signatures": [{"id": identifier, **signatures[identifier]} for identifier in sorted(referenced)],
        "containerSignatures": [{"id": identifier, **containers[identifier]}
                                for identifier in sorted({m["signature"] for m in container_formats})],
        "containerFormats": container_formats,
        "containerTriggers": [{"container": kind, "puid": puid} for kind, puid in triggers],
    }


def write_pronom_table(table, path):
    """One line per format and per signature, keys sorted: a new signature file's changes read as a diff."""
    lines = ["{", f' "signatureFile": {json.dumps(table["signatureFile"], sort_keys=True)},',
             f' "containerFile": {json.dumps(table["containerFile"], sort_keys=True)},']
    for key in ("formats", "signatures", "containerSignatures", "containerFormats", "containerTriggers"):
        rows = [json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":")) for row in table[key]]
        lines.append(f' "{key}": [')
        lines += ["  " + row + ("," if index < len(rows) - 1 else "") for index, row in enumerate(rows)]
        lines.append(" ]" + ("," if key != "containerTriggers" else ""))
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


PRONOM_TYPE_PREFIX = "org.nationalarchives.pronom."


def pronom_identifier(puid):
    """The type of a PRONOM format that no other source names: `fmt/18` is `org.nationalarchives.pronom.fmt.18`."""
    return PRONOM_TYPE_PREFIX + puid.replace("/", ".")


def pronom_description(record):
    """The format's name, with its version where the name does not already say it."""
    name, version = record["name"], record["version"]
    if version and version.lower() not in name.lower():
        return f"{name} ({version})"
    return name


def add_pronom_types(db, table):
    """PRONOM's formats in the database, as issue 46 asks: each format's family is the type its MIME type names
    (the first one a type owns); where that family holds one PRONOM format, the family type carries the PUID
    (the granularity matches); where it holds several (PNG 1.0, 1.1 and 1.2 are one MIME type), each gets a type
    of its own that conforms to the family. A format with no MIME type a type owns takes as its family the one
    type claiming one of its extensions, where only one does, else `public.data`. New types carry no extension or MIME type: a name is never decided by PRONOM's tags, and
    PRONOM's priorities are not conformance. A format whose PRONOM record names an Apple UTI the database
    declares has that type as its family, before any MIME type. Returns the new types."""
    claimants = {}
    for decl in db.types.values():
        for extension in decl.extensions:
            claimants.setdefault(extension.lower(), []).append(decl)
    families = {}
    for record in table["formats"]:
        # The type PRONOM's own record names (its Apple UTI), where the database declares it; else by MIME type.
        owner = db.get(record["appleUTI"]) if record.get("appleUTI") and db.get(record["appleUTI"]) else None
        if record.get("appleUTI") and owner is None:
            db.notes["PRONOM records' Apple UTIs the database does not declare"].append(f"{record['puid']} -> {record['appleUTI']}")
        if owner is None:
            owner = next((db.owner_of_mime(mime) for mime in record["mimeTypes"] if db.owner_of_mime(mime)), None)
        if owner is None:
            # No MIME type a type owns: the one type that claims one of its extensions, where only one does.
            owner = next((claimants[e][0] for e in record["extensions"] if len(claimants.get(e, [])) == 1), None)
            if owner is not None:
                db.notes["PRONOM formats placed by their extension"].append(f"{record['puid']} -> {owner.identifier}")
        families.setdefault(owner.identifier.lower() if owner else None, []).append(record)
    created = []
    for family, records in sorted(families.items(), key=lambda item: (item[0] is None, item[0] or "")):
        parent = db.get(family) if family else db.get("public.data")
        if family and len(records) == 1:
            parent.puids.append(records[0]["puid"])
            db.notes["PRONOM formats tagged on the type their MIME type names"].append(f"{records[0]['puid']} -> {parent.identifier}")
            continue
        for record in records:
            decl = db.add(TypeDecl(pronom_identifier(record["puid"]), "pronom"))
            decl.conforms = [parent.identifier]
            decl.description = pronom_description(record)
            decl.puids = [record["puid"]]
            created.append(decl)
    db.notes["PRONOM formats with a type of their own"] = [f"{d.puids[0]} -> {d.conforms[0]}" for d in created]
    return created
