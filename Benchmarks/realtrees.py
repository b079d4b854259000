#!/usr/bin/env python3
"""Precision on trees nobody curated: what uti says of the files installed on this machine, beside file(1) and GIO.

Three figures, each with its examples, in one run (uti classify over the trees, then file(1) and GIO on samples):

  1. Regular files typed as a directory or a package (a type conforming to public.directory, or the MIME type
     inode/directory), over every regular file of the trees.
  2. In a random sample of regular files (default 3,000, a fixed seed): files file(1) reads as text (text/*) to
     which uti gives a type that is not text (public.text not among its supertypes). XML-based formats (SVG ...)
     and PEM-armoured keys and certificates are counted apart: file(1) says text of them, and they are text.
  3. In a second random sample (default 4,000): uti's content-only guesses of a text format (the name said
     nothing; a reader of the content named a text type other than plain text: a language, XML, JSON ...) that
     both file(1) and GIO contradict: neither names that type or a more specific one. Languages a file declares
     itself, by a #! line or a Vim or Emacs modeline, are no guesses, and are counted apart.

    python3 Benchmarks/realtrees.py [--roots /usr] [--uti PATH] [--sample 3000] [--language-sample 4000] [--seed 25]

Without --uti it uses the release binary (built when missing: swift build -c release --product uti). Needs file(1)
and gio (Debian: file, libglib2.0-bin).
"""
import argparse
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy import run_file, run_gio  # noqa: E402  (the same invocations the corpus benchmark uses)


def classify(uti, roots):
    """uti's record of every entry under the roots, by path."""
    result = subprocess.run([uti, "classify", "--format", "ndjson", "--details", *roots], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    records = {}
    for line in result.stdout.splitlines():
        record = json.loads(line)
        records[record["path"]] = record
    return records


def is_regular(record):
    evidence = record.get("evidence") or {}
    return record.get("size") is not None and evidence.get("rule") != "file-system" and not record.get("error")


def supertypes(record):
    return set(record.get("conformsTo") or []) | {record.get("identifier")}


def types_of_mime(uti, mimes):
    """The declared type of each MIME type, with its supertypes: {mime: set of identifiers}."""
    known = {}
    for mime in sorted(mimes):
        result = subprocess.run([uti, "types", "--mime", mime, "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        line = result.stdout.splitlines()[0] if result.stdout else b""
        if line:
            record = json.loads(line)
            known[mime] = (record.get("identifier"), set(record.get("conformsTo") or []) | {record.get("identifier")})
        else:
            known[mime] = (None, set())
    return known


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--roots", nargs="+", default=["/usr"])
    parser.add_argument("--uti")
    parser.add_argument("--sample", type=int, default=3000)
    parser.add_argument("--language-sample", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--examples", type=int, default=12)
    args = parser.parse_args()
    uti = args.uti or os.path.join(ROOT, ".build", "release", "uti")
    if not args.uti and not os.access(uti, os.X_OK):
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    records = classify(uti, args.roots)
    regular = sorted(path for path, record in records.items() if is_regular(record))
    print(f"{len(records):,} entries under {' '.join(args.roots)}, {len(regular):,} regular files")

    # 1. The kind bounds the type.
    as_directories = [path for path in regular
                      if "public.directory" in supertypes(records[path]) or records[path].get("mimeType") == "inode/directory"]
    print(f"\n1. regular files typed as a directory or a package: {len(as_directories)}")
    for path in as_directories[:args.examples]:
        print(f"   {path}: {records[path]['identifier']} ({records[path]['mimeType']})")

    generator = random.Random(args.seed)

    # 2. Text that file(1) reads as text, given a type that is not text.
    sample = generator.sample(regular, min(args.sample, len(regular)))
    file_answers = run_file(sample)
    binary_for_text, xml_or_pem = [], []
    for path in sample:
        mime, _ = file_answers.get(path, (None, None))
        if not mime or not mime.startswith("text/"):
            continue
        record = records[path]
        kinds = supertypes(record)
        if "public.text" in kinds:
            continue
        if "public.xml" in kinds or record["mimeType"].endswith("+xml") or "pem" in record["mimeType"] or "x509" in record["mimeType"] \
                or "x-x509" in record["mimeType"] or "certificate" in (record.get("description") or "").lower():
            xml_or_pem.append(path)
        else:
            binary_for_text.append(path)
    print(f"\n2. of {len(sample):,} sampled files, read as text by file(1) and given a type that is not text: {len(binary_for_text)}"
          f" (and {len(xml_or_pem)} XML-based or PEM, counted apart)")
    for path in binary_for_text[:args.examples]:
        print(f"   {path}: {records[path]['identifier']} ({records[path]['mimeType']}); file(1): {file_answers[path][0]}")

    # 3. Content-only language guesses both peers contradict.
    second = generator.sample(regular, min(args.language_sample, len(regular)))
    guesses, declared = [], []
    for path in second:
        record = records[path]
        evidence = record.get("evidence") or {}
        content = evidence.get("content") or {}
        kinds = supertypes(record)
        if evidence.get("rule") == "content-only" and content.get("source") != "bytes" \
                and "public.text" in kinds and record["identifier"] != "public.plain-text":
            detail = content.get("detail") or ""
            # A #! line or a modeline is the file saying what it is, not a guess from resemblance.
            (declared if detail.startswith(("#!", "modeline:")) else guesses).append(path)
    file_second = run_file(guesses)
    gio_second = run_gio(guesses)
    mimes = {answer[0] for answers in (file_second, gio_second) for answer in answers.values() if answer[0]}
    known = types_of_mime(uti, mimes)
    contradicted = []
    for path in guesses:
        claimed = records[path]["identifier"]

        def agrees(answer):
            mime = answer[0]
            return bool(mime) and claimed in known.get(mime, (None, set()))[1]
        if not agrees(file_second.get(path, (None, None))) and not agrees(gio_second.get(path, (None, None))):
            contradicted.append(path)
    print(f"\n3. of {len(second):,} sampled files, {len(guesses)} content-only guesses of a text format (and {len(declared)} "
          f"languages the file declares by a #! line or a modeline, counted apart); both file(1) and GIO contradict: {len(contradicted)}")
    for path in contradicted[:args.examples]:
        print(f"   {path}: {records[path]['identifier']}; file(1): {file_second[path][0]}; GIO: {gio_second[path][0]}")


if __name__ == "__main__":
    main()
