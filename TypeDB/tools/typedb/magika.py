"""Google Magika's names: its labels for the content types that are not languages, the MIME name it gives
each labelled type (`uti.magika-mime-type`), and every MIME name its content types give (for step 8)."""

import json
import os

from .curation import CURATED_MAGIKA_LABELS
from .names import squashed
from .paths import SOURCES


def load_magika_names(db, magika):
    """Magika's labels for the content types that are not languages (`elf`, `pebin`, `ogg`, `empty`): the
    type that carries Magika's MIME name for it (a name other vocabularies share: `application/x-dosexec`),
    else the one type that claims its extensions (`tsv`, `srt`); and for every labelled type, the MIME name
    Magika gives it (`uti.magika-mime-type`), which `--mime-names magika` reports. A label that names no one
    type is noted and left out."""
    labelled = {label for decl in db.types.values() for label in decl.magika_labels}
    generic = ("text/plain", "application/octet-stream")

    def agrees(decl, record):
        # Magika's binary formats are not text types: `pytorch` is not XML for sharing `.pt`, `stlbinary` not
        # the STL language. (Its `is_text` is unreliable the other way: `ada` says false, under text/x-ada.)
        binary = not record.get("is_text") and not (record.get("mime_type") or "").startswith("text/")
        return not (binary and "public.text" in db.ancestors(decl))
    for label, record in sorted(magika.items()):
        if label in labelled or label in ("unknown", "undefined", "txt"):
            continue
        mime = (record.get("mime_type") or "").lower()
        owner = db.owner_of_mime(mime) if mime and mime not in generic else None
        how = f"MIME {mime}"
        if label in CURATED_MAGIKA_LABELS:
            owner, how = db.get(CURATED_MAGIKA_LABELS[label]), "curated"
            assert owner is not None, f"curated/languages.toml: {label} -> {CURATED_MAGIKA_LABELS[label]}, which is not declared"
        if owner is not None and how != "curated" and not agrees(owner, record):
            owner = None
        if owner is None:
            claimants = {d.identifier: d for ext in record.get("extensions") or []
                         for d in db.types.values() if ext.lower() in (e.lower() for e in d.extensions) and agrees(d, record)}
            if len(claimants) != 1:
                db.notes["Magika labels with no one type"].append(f"{label} ({len(claimants)} types claim its extensions)")
                continue
            owner = next(iter(claimants.values()))
            how = "extension"
        owner.magika_labels.append(label)
        db.notes["Magika labels of formats"].append(f"{label} -> {owner.identifier} ({how})")

    def rank(decl, label):
        # The label that names the type's language first (Ruby is `ruby`'s `application/x-ruby`, not
        # `gemspec`'s `text/plain`; INI is `ini`'s `text/plain`, not `url`'s), then a specific name.
        named = squashed(label) in (squashed(name) for name in decl.languages)
        return (not named, (magika.get(label, {}).get("mime_type") or "").lower() in generic)
    for decl in db.types.values():
        for label in sorted(decl.magika_labels, key=lambda label: rank(decl, label)):
            mime = (magika.get(label, {}).get("mime_type") or "").lower()
            if mime and mime not in decl.magika_mimes:
                decl.magika_mimes.append(mime)
        # A format no other vocabulary names goes by Magika's name for it (Avro's application/x-avro-binary),
        # where that name is specific and no other type's.
        if not decl.mimes and not decl.is_apple:
            for mime in decl.magika_mimes:
                if mime not in generic and "/" in mime and db.owner_of_mime(mime) is None and db.claim_mime(decl, mime):
                    db.notes["Magika's names for formats no other vocabulary names"].append(f"{mime} -> {decl.identifier}")
                    break


def magika_mime_types():
    """Every MIME name Magika's content types give."""
    with open(os.path.join(SOURCES, "magika-content-types-kb.min.json"), encoding="utf-8") as f:
        return {record["mime_type"].lower() for record in json.load(f).values() if record.get("mime_type")}
