"""Step 4b: the languages people write, from GitHub Linguist (linguist-languages.yml): the type that already
names each language, else a new `uti.language.<name>`, with Linguist's extensions, file names, interpreters,
names and Magika's labels as tags; and Linguist's heuristics (linguist-heuristics.yml) as the lines
Sources/CTypeDatabase/languages.c holds (`heuristics_lines`)."""

import collections
import json
import os
import re
import sys

from .curation import CURATED_LANGUAGE_TYPES, CURATED_MAGIKA_LABELS, LANGUAGE_DIALECTS, LANGUAGES_OF_THEIR_OWN
from .magika import load_magika_names
from .model import TypeDecl
from .names import language_slug, names_language, squashed
from .paths import SOURCES
from .rubyregex import possessive_leading_space, required_literals, ruby_pattern


def read_yaml(path):
    """A YAML file of the sources, read with PyYAML (`pip install pyyaml`, Debian's python3-yaml)."""
    try:
        import yaml
    except ImportError:
        sys.exit("make-typedb: reading Linguist's YAML needs PyYAML (pip install pyyaml, or apt-get install python3-yaml)")
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def language_parents(db, name, entry):
    """Where a new language type sits: source code (a script when something interprets it) for programming
    languages; JSON, XML or YAML where its TextMate scope says that is what it is; plain text otherwise."""
    scope = (entry.get("tm_scope") or "").lower()
    kind = entry.get("type")
    if kind == "programming":
        return ["public.script"] if entry.get("interpreters") else ["public.source-code"]
    if scope.startswith("source.json"):
        return ["public.json"]
    if scope.startswith("text.xml"):
        return ["public.xml"]
    if scope.startswith("source.yaml") and db.get("public.yaml"):
        return ["public.yaml"]
    return ["public.plain-text"]


def load_linguist(db):
    """A type for every language GitHub Linguist knows: the type that already names it (Apple's
    `public.swift-source`, freedesktop's `text/rust`), else a new `uti.language.<name>`; with Linguist's
    extensions, file names, interpreters, name and aliases as tags, and Magika's label and MIME type for it.
    A tag already claimed by another type stays that type's (Linguist's own table needs heuristics for most
    of those, `.h`, `.m`, `.pl`): the language is recorded as a further candidate of the extension instead,
    which the heuristics may choose. Returns ({Linguist name: identifier}, {extension: [identifier]})."""
    languages = read_yaml(os.path.join(SOURCES, "linguist-languages.yml"))
    with open(os.path.join(SOURCES, "magika-content-types-kb.min.json"), encoding="utf-8") as f:
        magika = json.load(f)
    text_types = [d for d in db.types.values() if "public.text" in db.ancestors(d)]
    by_extension = collections.defaultdict(list)
    for decl in db.types.values():
        for ext in decl.extensions:
            by_extension[ext.lower()].append(decl)
        for suffix in decl.suffixes:
            by_extension[suffix.lower()].append(decl)
    owners = {}
    claimed = {}
    # Who claims each extension and file name before Linguist: those claims stand.
    extension_claims = collections.defaultdict(set)
    filename_claims = collections.defaultdict(set)
    for decl in db.types.values():
        for ext in decl.extensions:
            extension_claims[ext.lower()].add(decl.identifier)
        for suffix in decl.suffixes:
            extension_claims[suffix.lower()].add(decl.identifier)
        for filename in decl.filenames:
            filename_claims[filename.lower()].add(decl.identifier)
    further = collections.defaultdict(list)
    for name, entry in languages.items():
        curated = CURATED_LANGUAGE_TYPES.get(name)
        owner = db.get(curated) if curated else None
        assert curated is None or owner is not None, f"curated/languages.toml: {name} -> {curated}, which is not declared"
        how = "curated" if owner else None
        mime = entry.get("codemirror_mime_type")
        if name in LANGUAGES_OF_THEIR_OWN:
            how = "a type of its own (curated)"
        elif owner is None and mime:
            candidate = db.owner_of_mime(mime)
            if candidate is not None and candidate in text_types and names_language(candidate, name) and candidate.identifier not in claimed:
                owner, how = candidate, f"MIME {mime}"
        if owner is None and name not in LANGUAGES_OF_THEIR_OWN:
            for ext in entry.get("extensions") or []:
                # Any type claiming one of its extensions, text or not (Linguist's X BitMap is Apple's image
                # type), whose name names the language.
                found = [d for d in by_extension.get(ext.lstrip(".").lower(), [])
                         if names_language(d, name) and d.identifier not in claimed]
                if found:
                    owner, how = found[0], f"extension {ext}"
                    break
        if owner is None:
            owner = db.add(TypeDecl("uti.language." + language_slug(name), "linguist"))
            owner.conforms = language_parents(db, name, entry)
            owner.description = name + (" source code" if entry.get("type") == "programming" else "")
            how = how or "new"
        db.notes["Linguist languages"].append(f"{name} -> {owner.identifier} ({how})")
        claimed[owner.identifier] = name
        owners[name] = owner.identifier
        owner.languages.extend(n for n in [name] + list(entry.get("aliases") or []) if n not in owner.languages)
        for ext in entry.get("extensions") or []:
            ext = ext.lstrip(".").lower()
            if not re.match(r"^[a-z0-9_+-]+(\.[a-z0-9_+-]+)*$", ext):
                continue
            others = extension_claims[ext] - {owner.identifier}
            if others:
                # Another type's tag: the language is a further candidate, for the heuristics to choose.
                if owner.identifier not in further[ext]:
                    further[ext].append(owner.identifier)
                continue
            extension_claims[ext].add(owner.identifier)
            if "." in ext:
                if ext not in owner.suffixes:
                    owner.suffixes.append(ext)
            else:
                owner.add_extension(ext)
        for filename in entry.get("filenames") or []:
            if filename_claims[filename.lower()] - {owner.identifier}:
                continue
            filename_claims[filename.lower()].add(owner.identifier)
            if filename not in owner.filenames:
                owner.filenames.append(filename)
        for program in entry.get("interpreters") or []:
            if program not in owner.interpreters:
                owner.interpreters.append(program)
        # CodeMirror's MIME types name editor modes, which languages share (Cangjie is edited in Swift's
        # mode): one names a language only when its subtype spells the language's name or an alias.
        if mime and db.owner_of_mime(mime) is None and any(
                len(squashed(n)) > 1 and squashed(n) in squashed(mime.partition("/")[2])
                for n in [name] + list(entry.get("aliases") or [])):
            db.claim_mime(owner, mime)
    # Magika's labels: the language of the same name, else the one language with its extensions.
    for label, record in sorted(magika.items()):
        if not record.get("is_text") or label in CURATED_MAGIKA_LABELS:
            continue
        named = [n for n in languages if squashed(n) == squashed(label)
                 or squashed(label) in (squashed(a) for a in languages[n].get("aliases") or [])]
        if not named:
            exts = {"." + e for e in record.get("extensions") or []}
            named = [n for n, e in languages.items() if exts and exts & set(e.get("extensions") or [])]
        if len(named) != 1:
            db.notes["Magika labels with no one language"].append(f"{label} ({len(named)})")
            continue
        owner = db.get(owners[named[0]])
        owner.magika_labels.append(label)
        mime = record.get("mime_type")
        if mime and mime.lower() not in ("text/plain", "application/octet-stream") and db.owner_of_mime(mime) is None:
            db.claim_mime(owner, mime)
    load_magika_names(db, magika)
    # A language Linguist groups under another (Unix Assembly under Assembly, Roff Manpage under Roff), or a
    # dialect curated/languages.toml names, conforms to it: first, for a type of its own; after its parents
    # for a type another source declared (Apple's conformance stays Apple's).
    for name, entry in languages.items():
        parent_name = LANGUAGE_DIALECTS.get(name) or entry.get("group")
        decl = db.get(owners[name])
        if not parent_name or parent_name not in owners or decl.is_apple:
            continue
        parent = owners[parent_name]
        if parent.lower() == decl.identifier.lower() or decl.identifier.lower() in db.ancestors(db.get(parent)) \
                or parent.lower() in db.ancestors(decl):
            continue
        if decl.origin == "linguist":
            decl.conforms = [parent] + [c for c in decl.conforms if c != parent]
        else:
            decl.conforms.append(parent)
            db.notes["Linguist groups added as parents"].append(f"{decl.identifier} -> {parent}")
    return owners, dict(further)


def disambiguations(languages):
    """Linguist's heuristics (heuristics.yml) as TypeDB/languages.json holds them: a list of disambiguations,
    each `{"extensions": [...], "rules": [...]}` (extensions lower-case, without the dot), each rule
    `{"types": [...], "conditions": [...]}` choosing these types (none: no language the database has) when
    every condition holds, each condition `{"pattern": ..., "matches": bool}` (the pattern matches somewhere
    in the text, or nowhere) with, when known, the strings of which the text must hold one for it to match
    (`literals`, and `foldedLiterals` to look for lower-case in the text's ASCII lower-case; see
    required_literals). Patterns are in PCRE2's syntax (see ruby_pattern); a list of patterns is their union."""
    heuristics = read_yaml(os.path.join(SOURCES, "linguist-heuristics.yml"))
    named = heuristics.get("named_patterns") or {}

    def union(value):
        patterns = value if isinstance(value, list) else [value]
        patterns = [ruby_pattern(p) for p in patterns]
        return patterns[0] if len(patterns) == 1 else "|".join("(?:" + p + ")" for p in patterns)

    def conditions(rule):
        found = []
        if "pattern" in rule:
            found.append({"pattern": union(rule["pattern"]), "matches": True})
        if "negative_pattern" in rule:
            found.append({"pattern": union(rule["negative_pattern"]), "matches": False})
        if "named_pattern" in rule:
            found.append({"pattern": union(named[rule["named_pattern"]]), "matches": True})
        for part in rule.get("and") or []:
            found += conditions(part)
        return found

    FOLD = "\x03"
    blocks = []
    for block in heuristics["disambiguations"]:
        rules = []
        for rule in block["rules"]:
            names = rule.get("language")
            names = names if isinstance(names, list) else [names] if names else []
            found = conditions(rule)
            for condition in found:
                literals = required_literals(condition["pattern"])
                if literals and not any("\n" in x or FOLD in x[1:] for x in literals):
                    condition["literals"] = sorted(x for x in literals if not x.startswith(FOLD))
                    condition["foldedLiterals"] = sorted(x[1:] for x in literals if x.startswith(FOLD))
                # After the literals are read: the same matches, without backtracking into leading white space.
                condition["pattern"] = possessive_leading_space(condition["pattern"])
            rules.append({"types": [languages[n] for n in names if n in languages], "conditions": found})
        blocks.append({"extensions": [e.lstrip(".").lower() for e in block["extensions"]], "rules": rules})
    return blocks
