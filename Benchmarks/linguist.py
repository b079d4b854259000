#!/usr/bin/env python3
"""An independent check of uti's languages against GitHub Linguist's own samples (kept out of this repository).

    python3 Benchmarks/linguist.py --samples DIR [--uti PATH] [--no-names] [--python PATH] [--misses N]

DIR is the `samples/` folder of a Linguist checkout: `samples/<Language>/<file>` (and
`samples/<Language>/filenames/<name>`, samples named by a whole file name). Each file is identified with
`uti identify --json` and scored right when the `language` uti reports (Linguist's name for the type) is
the folder's language. The most frequent wrong answers are printed with the figure.

--no-names copies each sample under a name that says nothing first (content only), and runs uti twice: with
UTI_MAGIKA=off, and with Magika's model from --python's package directory (when it has magika and
onnxruntime).
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = os.path.join(ROOT, ".build-python", "bin", "python")
BATCH = 200


def samples(directory):
    found = []
    for language in sorted(os.listdir(directory)):
        folder = os.path.join(directory, language)
        if not os.path.isdir(folder):
            continue
        for base, _, files in os.walk(folder):
            for name in sorted(files):
                found.append((language, os.path.join(base, name)))
    return found


def identify(uti, paths, environment):
    answers = {}
    for start in range(0, len(paths), BATCH):
        chunk = paths[start:start + BATCH]
        proc = subprocess.run([uti, "identify", "--json", "--", *chunk], env=environment,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for line in proc.stdout.decode("utf-8", "surrogateescape").splitlines():
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                continue
            answers[answer.get("path")] = answer
    return answers


def packages(python):
    proc = subprocess.run([python, "-c", "import magika, onnxruntime, os; print(os.path.dirname(os.path.dirname(magika.__file__)))"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/")
    return proc.stdout.decode().strip() if proc.returncode == 0 else None


def score(title, rows, answers, misses):
    right = 0
    wrong = collections.Counter()
    for language, path, asked in rows:
        got = (answers.get(asked) or {}).get("language")
        if got is not None and got.lower() == language.lower():
            right += 1
        else:
            wrong[(language, got)] += 1
    print(f"{title}: {right}/{len(rows)} ({100 * right / max(len(rows), 1):.1f}%)")
    for (language, got), count in wrong.most_common(misses):
        print(f"    {count:4d}  {language} -> {got}")
    return right


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", required=True, help="a Linguist checkout's samples/ folder")
    parser.add_argument("--uti", default=os.path.join(ROOT, ".build", "release", "uti"))
    parser.add_argument("--no-names", action="store_true")
    parser.add_argument("--python", default=PYTHON)
    parser.add_argument("--misses", type=int, default=10, help="the most frequent wrong answers to print")
    options = parser.parse_args()
    found = samples(options.samples)
    if not found:
        sys.exit(f"no samples under {options.samples}")
    base = dict(os.environ, UTI_MAGIKA="off")
    if not options.no_names:
        rows = [(language, path, path) for language, path in found]
        answers = identify(options.uti, [path for _, path, _ in rows], base)
        score(f"Linguist's samples, by name and content ({len(set(l for l, _ in found))} languages)", rows, answers, options.misses)
        return 0
    scratch = tempfile.mkdtemp(prefix="uti-linguist-")
    try:
        rows = []
        for number, (language, path) in enumerate(found, 1):
            copy = os.path.join(scratch, f"sample-{number:05d}")
            shutil.copyfile(path, copy)
            rows.append((language, path, copy))
        copies = [copy for _, _, copy in rows]
        score("content only, uti", rows, identify(options.uti, copies, base), options.misses)
        site = packages(options.python)
        if site:
            with_model = dict(os.environ, PYTHONPATH=site, UTI_MAGIKA="on")
            score("content only, uti with Magika's model", rows, identify(options.uti, copies, with_model), options.misses)
        else:
            print(f"(no magika and onnxruntime for {options.python}: the model's row is not measured)")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
