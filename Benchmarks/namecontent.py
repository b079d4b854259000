#!/usr/bin/env python3
"""Name against content over the whole type database, as a new user would try it, in one run.

    python3 Benchmarks/namecontent.py [--uti PATH] [--list]

From `uti types --json`, every filename extension some declared type claims, with the types claiming it:
  - binary-only: no claimant's files can be text (a type is text when it conforms to public.text or its
    `uti.content` tag says text); three lines of plain text are written under `t.EXT`;
  - text-only: every claimant's files are text, none may be binary; 3,000 random bytes (a fixed seed) are
    written under `b.EXT`.
Each file goes through `uti identify --json`; right is a text type and `mismatch: true` for the first (or, where
GitHub Linguist writes a language in that extension, the language), a type that is not text and `mismatch: true`
for the second. Prints the counts, and with --list every wrong answer.
Without --uti it uses .build/debug/uti.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = b"The first line of a note.\nA second line, with a comma, and a number: 42.\nThe last line.\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uti", default=os.path.join(ROOT, ".build", "debug", "uti"))
    parser.add_argument("--list", action="store_true", help="print every wrong answer")
    options = parser.parse_args()
    types = [json.loads(line) for line in subprocess.run([options.uti, "types", "--json"], capture_output=True, text=True, check=True).stdout.splitlines()]

    by_identifier = {entry["identifier"].lower(): entry for entry in types}

    def content(entry):
        """text, binary or either: the type's own `uti.content` tag, else its nearest supertype's, else conformance."""
        if entry["identifier"] in ("public.data", "public.item", "public.content", "public.composite-content"):
            return "either"
        lineage = [entry] + [by_identifier[s.lower()] for s in entry.get("supertypes", []) if s.lower() in by_identifier]
        tag = next((e.get("tags", {}).get("uti.content", [None])[0] for e in lineage if e.get("tags", {}).get("uti.content")), None)
        is_text = "public.text" in entry.get("supertypes", []) or entry["identifier"] == "public.text"
        if tag == "text-or-binary":
            return "either"
        if tag in ("text", "binary"):
            return tag
        return "text" if is_text else "binary"

    claims = {}
    for entry in types:
        for extension in entry.get("tags", {}).get("public.filename-extension", []):
            claims.setdefault(extension.lower(), []).append(content(entry))
    binary_only = sorted(e for e, kinds in claims.items() if all(k == "binary" for k in kinds) and "/" not in e)
    text_only = sorted(e for e, kinds in claims.items() if all(k == "text" for k in kinds) and "/" not in e)
    work = tempfile.mkdtemp(prefix="uti-namecontent-")
    noise = random.Random(42).randbytes(3000)
    results = {}
    for label, extensions, stem, data, want_text in [("text under binary-only names", binary_only, "t", TEXT, True),
                                                      ("random bytes under text-only names", text_only, "b", noise, False)]:
        directory = os.path.join(work, stem)
        os.makedirs(directory)
        paths = []
        for extension in extensions:
            path = os.path.join(directory, f"{stem}.{extension}")
            with open(path, "wb") as handle:
                handle.write(data)
            paths.append(path)
        wrong, unflagged = [], []
        for start in range(0, len(paths), 500):
            output = subprocess.run([options.uti, "identify", "--json", "--"] + paths[start:start + 500], capture_output=True, text=True).stdout
            for line in output.splitlines():
                answer = json.loads(line)
                is_text = "public.text" in answer.get("conformsTo", []) or answer.get("identifier") == "public.text"
                # Text under an extension GitHub Linguist writes a language in is that language, and no lie.
                linguist = "Linguist" in ((answer.get("evidence", {}).get("name") or {}).get("decidedBy") or "")
                row = (os.path.basename(answer["path"]), answer.get("identifier"), answer.get("evidence", {}).get("rule"), answer.get("mismatch"))
                if is_text != want_text:
                    wrong.append(row)
                elif answer.get("mismatch") is not True and not (want_text and linguist):
                    unflagged.append(row)
        results[label] = (len(extensions), wrong)
        print(f"{label}: {len(extensions) - len(wrong) - len(unflagged)} of {len(extensions)} right and flagged; "
              f"{len(unflagged)} right but not flagged (names that promise nothing, by the data: see NameAgainstContentTests); "
              f"{len(wrong)} wrong", flush=True)
        if options.list:
            for name, identifier, rule, mismatch in wrong:
                print(f"  wrong: {name}: {identifier} ({rule}, mismatch {mismatch})")
            for name, identifier, rule, mismatch in unflagged:
                print(f"  not flagged: {name}: {identifier} ({rule})")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
