#!/usr/bin/env python3
"""Identification accuracy of uti, file(1), GIO and Magika on the shared sample-file corpora.

    python3 Benchmarks/accuracy.py [--uti PATH] [--corpora DIR] [--markdown]
                                   [--misses TOOL] [--json OUT] [--tools uti,file,gio,magika,uti-model]
                                   [--aliases merged|system] [--no-names] [--python PATH]

    --no-names   content only: each file is copied under a name that says nothing (sample-00001) and
                 every tool is asked about the copies.
    magika       Magika's Python package (`pip install magika onnxruntime`, in --python's environment).
    uti-model    uti asked to use Magika's model (UTI_MAGIKA=on), found in that same package directory
                 (PYTHONPATH); the "uti" column always runs with UTI_MAGIKA=off.

Method (the corpora README's rules, so the figures compare with its baselines):

* Corpora: `<corpora>/<name>/expected.tsv` lists `relative_path` and `expected_mime`. Scored rows:
  - shared-mime-info: rows whose `xfail_by_name_and_data` is empty (upstream expects name + data
    lookup to succeed there), 816 rows;
  - tika: every row, 237;
  - magika: rows with a non-empty `expected_mime`, 155.
  file-tests-libmagic is skipped: it states file(1) descriptions, not MIME types.
* Tools, all run in this process on the same files, many files per invocation, argument lists only
  (never a shell):
  - uti:     `uti identify --json -- FILE...`; one JSON object per line with `path` (the argument as
             given) and `mimeType` (what `uti identify --mime` prints); a line carrying `error`, or no line at all, is a miss.
             uti exits 1 when some file failed, which is not an error here.
  - file(1): `file --mime-type -b -- FILE...`; one line per argument, in order (checked; a batch
             whose line count is off is re-run one file at a time).
  - GIO:     `gio info -a standard::content-type -- FILE...`; one block per readable file, starting
             with `uri:`, the type on a `standard::content-type:` line (name + data guess). Blocks are
             matched to files by decoding the URI, not by position, since failures print no block.
* Scoring: the first answer (the preferred MIME type) is correct only when it equals
  `expected_mime` after dropping MIME parameters (Tika states some types as
  `image/vnd.dxf; format=ascii`), lower-casing and folding freedesktop aliases to their canonical
  type, on both sides. uti is scored twice: by `mimeType` alone (the "uti" column), and by any name
  of its answer's `mimeTypes` (the "uti, any name" column): uti reports the IANA-registered name of a
  format where there is one (`application/vnd.kde.kword`) and keeps freedesktop's, Tika's and libmagic's
  names (`application/x-kword`) in `mimeTypes`, so that a caller can match any of them; a corpus that
  states another vocabulary's name is matched that way. The type must still be right: a wrong type's
  names do not include the expected one. The alias map comes from /usr/share/mime/aliases ("alias canonical" per line) and
  the shared-mime-info 2.4 source in TypeDB/sources (`<alias type="Y"/>` inside `<mime-type type="X">` means Y -> X);
  where they disagree 2.4 wins, including when 2.4 keeps as its own type a name the system file
  calls an alias. (`--aliases system` folds with the system table alone, which reproduces the
  README's baselines exactly; the 2.4 table folds a few more renamed types, e.g. video/x-msvideo
  -> video/vnd.avi, and scores shared-mime-info's 2.4 expectations fairly.) No partial credit: a parent type, a sub-class or an empty answer is wrong.
* Accuracy per corpus is correct / scored rows; "all three" pools the rows (1,208).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM_ALIASES = "/usr/share/mime/aliases"
SOURCES = os.path.join(ROOT, "TypeDB", "sources")  # the repository's copies of shared-mime-info and libmagic's lists
REFERENCE_XML = os.path.join(SOURCES, "freedesktop.org-2.4.xml.in")
OLDER_XML = os.path.join(SOURCES, "freedesktop.org-2.2.xml")
BATCH = 200
TOOLS = ("uti", "file", "gio", "magika", "uti-model")
DEFAULT_TOOLS = ("uti", "file", "gio")
TOOL_TITLES = {"uti": "uti", "uti-names": "uti, any name", "uti-vocabulary": "uti, the corpus's names", "file": "file(1)", "gio": "GIO", "magika": "Magika",
               "uti-model": "uti with Magika's model"}
PYTHON = os.path.join(ROOT, ".build-python", "bin", "python")


# ---------------------------------------------------------------------------------------------
# Corpora

def scored_rows(corpus, rows):
    """The rows of one corpus that count, per the corpora README."""
    if corpus == "shared-mime-info":
        return [r for r in rows if not r.get("xfail_by_name_and_data", "").strip()]
    if corpus == "tika":
        return rows
    if corpus == "magika":
        return [r for r in rows if r.get("expected_mime", "").strip()]
    return []


CORPORA = ("shared-mime-info", "tika", "magika")


def read_tsv(path):
    """expected.tsv as a list of dicts keyed by the header. Split on tabs only: names may hold spaces."""
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    header = lines[0].rstrip("\r").split("\t")
    rows = []
    for line in lines[1:]:
        line = line.rstrip("\r")
        if not line:
            continue
        cells = line.split("\t")
        cells += [""] * (len(header) - len(cells))
        rows.append(dict(zip(header, cells)))
    return rows


def load_corpora(corpora_dir):
    """[(corpus, [{"corpus", "relative_path", "file", "expected"}])] for the scored rows."""
    result = []
    for corpus in CORPORA:
        tsv = os.path.join(corpora_dir, corpus, "expected.tsv")
        if not os.path.exists(tsv):
            print(f"warning: {tsv} absent; corpus skipped", file=sys.stderr)
            continue
        items = []
        for row in scored_rows(corpus, read_tsv(tsv)):
            rel = row["relative_path"]
            items.append({"corpus": corpus, "relative_path": rel,
                          "file": os.path.join(corpora_dir, corpus, rel),
                          "expected": row["expected_mime"].strip()})
        result.append((corpus, items))
    return result


# ---------------------------------------------------------------------------------------------
# Alias folding

def load_aliases(reference_xml, system_only=False):
    """alias -> canonical, lower-cased: the system table overlaid by shared-mime-info 2.4."""
    system = {}
    if os.path.exists(SYSTEM_ALIASES):
        with open(SYSTEM_ALIASES, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    system[parts[0].lower()] = parts[1].lower()
    else:
        print(f"warning: {SYSTEM_ALIASES} absent", file=sys.stderr)

    v24, canonical24 = {}, set()
    if system_only:
        return system
    if os.path.exists(reference_xml):
        for element in ET.parse(reference_xml).getroot():
            if not element.tag.endswith("}mime-type") and element.tag != "mime-type":
                continue
            canonical = element.get("type", "").lower()
            canonical24.add(canonical)
            for child in element:
                if child.tag.endswith("}alias") or child.tag == "alias":
                    v24[child.get("type", "").lower()] = canonical
    else:
        print(f"warning: {reference_xml} absent; folding with system aliases only", file=sys.stderr)

    # 2.4 wins: drop system aliases for names 2.4 keeps as types of their own, then overlay 2.4.
    aliases = {a: c for a, c in system.items() if a not in canonical24}
    aliases.update(v24)
    return aliases


def print_vocabulary_ceiling(corpora, aliases, reference_xml):
    """Rows whose expected MIME type neither shared-mime-info (2.4, the system's, aliases included) nor
    libmagic 5.44 has a name for: no tool answering in those vocabularies can get them right."""
    known = set(aliases) | set(aliases.values())
    for path in (reference_xml, OLDER_XML):
        if os.path.exists(path):
            for element in ET.parse(path).getroot():
                if element.tag.endswith("}mime-type") or element.tag == "mime-type":
                    known.add(element.get("type", "").lower())
    libmagic = os.path.join(os.path.dirname(reference_xml), "libmagic-5.44-all-mimes.txt")
    if os.path.exists(libmagic):
        with open(libmagic, encoding="utf-8") as f:
            known.update(line.strip().lower() for line in f if line.strip())
    print("\nrows whose expected MIME type no Linux vocabulary names (shared-mime-info, libmagic):")
    for corpus, items in corpora:
        unnamed = sum(1 for item in items if fold(item["expected"], aliases) not in known)
        rows = len(items)
        print(f"  {corpus:18} {unnamed:4} of {rows:4}: ceiling {percent(rows - unnamed, rows):.1f}%")
    # uti answers in those vocabularies and, for formats only Apache Tika names, in Tika's: the types of
    # its built-in database (TypeDB/mime/types) widen the ceiling by those names.
    builtin = os.path.join(ROOT, "TypeDB", "mime", "types")
    if os.path.exists(builtin):
        with open(builtin, encoding="utf-8") as f:
            answerable = known | {line.strip().lower() for line in f if line.strip()}
        print("rows whose expected MIME type none of those nor the Tika names uti adopts names:")
        for corpus, items in corpora:
            unnamed = sum(1 for item in items if fold(item["expected"], aliases) not in answerable)
            rows = len(items)
            print(f"  {corpus:18} {unnamed:4} of {rows:4}: ceiling {percent(rows - unnamed, rows):.1f}%")


def fold(mime, aliases):
    """Drop parameters ("; format=ascii"), lower-case, and follow aliases to the canonical type
    (chains allowed, cycles stopped)."""
    mime = mime.split(";", 1)[0].strip().lower()
    seen = set()
    while mime in aliases and mime not in seen:
        seen.add(mime)
        mime = aliases[mime]
    return mime


# ---------------------------------------------------------------------------------------------
# Tools. Each returns {file argument: (answer or None, error or None)}.

def batches(items, size=BATCH):
    for start in range(0, len(items), size):
        yield items[start:start + size]


# uti's every name for each file's answer (`mimeTypes`), by path.
NAMES = {}


# The vocabulary each corpus states its expectations in: what `uti identify --mime-names` is given for the
# "uti, the corpus's names" column.
CORPUS_VOCABULARIES = {"shared-mime-info": "freedesktop", "tika": "tika", "magika": "magika"}


def run_uti(uti, files, model=None, vocabulary=None):
    """uti without Magika's model (UTI_MAGIKA=off), or with it when `model` names Python's package directory;
    with `--mime-names vocabulary` when one is given."""
    environment = dict(os.environ, UTI_MAGIKA="off") if model is None else dict(os.environ, PYTHONPATH=model, UTI_MAGIKA="on")
    environment.pop("UTI_MAGIKA_MODEL", None) if model is not None else None
    names = NAMES if model is None and vocabulary is None else {}
    naming = ["--mime-names", vocabulary] if vocabulary else []
    answers = {}
    for chunk in batches(files):
        proc = subprocess.run([uti, "identify", "--json", *naming, "--", *chunk], env=environment,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode not in (0, 1):
            print(f"warning: uti exited with status {proc.returncode} on a batch of {len(chunk)}: "
                  f"{proc.stderr.decode(errors='replace').strip()[:300]}", file=sys.stderr)
        for line in proc.stdout.decode("utf-8", errors="surrogateescape").splitlines():
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                print(f"warning: uti printed a line that is not JSON: {line[:200]!r}", file=sys.stderr)
                continue
            path = obj.get("path")
            names[path] = obj.get("mimeTypes") or []
            if obj.get("error"):
                answers[path] = (obj.get("mimeType"), str(obj["error"]))
            else:
                answers[path] = (obj.get("mimeType"), None)
    for f in files:
        answers.setdefault(f, (None, "no output line from uti"))
    return answers


MAGIKA_SCRIPT = """
import sys
from pathlib import Path
from magika import Magika
paths = [Path(line) for line in sys.stdin.read().split("\\0") if line]
for path, result in zip(paths, Magika().identify_paths(paths)):
    mime = result.output.mime_type if result.ok else ""
    sys.stdout.write(f"{path}\\0{mime}\\0")
"""


def run_magika(python, files):
    """Magika's own Python package (its default, high-confidence mode), run by `python`."""
    proc = subprocess.run([python, "-c", MAGIKA_SCRIPT], input="\0".join(files).encode("utf-8", "surrogateescape"),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd="/")
    if proc.returncode != 0:
        sys.exit(f"error: Magika failed: {proc.stderr.decode(errors='replace')[-500:]}")
    fields = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    answers = {path: (mime or None, None if mime else "no answer") for path, mime in zip(fields[0::2], fields[1::2])}
    for f in files:
        answers.setdefault(f, (None, "no answer from Magika"))
    return answers


def magika_packages(python):
    """The package directory holding Magika and ONNX Runtime for `python`, or None."""
    proc = subprocess.run([python, "-c", "import magika, onnxruntime, os; print(os.path.dirname(os.path.dirname(magika.__file__)))"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/")
    return proc.stdout.decode().strip() or None if proc.returncode == 0 else None


def without_names(files, directory):
    """Each file's bytes copied to `directory` under a name that says nothing (`sample-00001`); the map back."""
    copies = {}
    for number, path in enumerate(files, 1):
        copy = os.path.join(directory, f"sample-{number:05d}")
        shutil.copyfile(path, copy)
        copies[copy] = path
    return copies


def run_file(files):
    def call(chunk):
        proc = subprocess.run(["file", "--mime-type", "-b", "--", *chunk],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return proc.stdout.decode("utf-8", errors="replace").split("\n")[:-1]

    answers = {}
    for chunk in batches(files):
        lines = call(chunk)
        if len(lines) != len(chunk):  # e.g. a name with a newline; fall back to one per call
            lines = ["\n".join(call([f])) for f in chunk]
        for f, line in zip(chunk, lines):
            line = line.strip()
            if "/" in line and " " not in line:
                answers[f] = (line, None)
            else:  # "cannot open `x' (No such file or directory)" and the like
                answers[f] = (None, line or "no output")
    return answers


def gio_uri_to_path(uri):
    parsed = urllib.parse.urlsplit(uri)
    if parsed.scheme != "file":
        return None
    return os.fsdecode(urllib.parse.unquote_to_bytes(parsed.path))


def run_gio(files):
    answers = {}
    for chunk in batches(files):
        by_abs = {os.path.normpath(os.path.abspath(f)): f for f in chunk}
        proc = subprocess.run(["gio", "info", "-a", "standard::content-type", "--", *chunk],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        current = None
        for line in proc.stdout.decode("utf-8", errors="surrogateescape").splitlines():
            if line.startswith("uri: "):
                path = gio_uri_to_path(line[len("uri: "):].strip())
                current = by_abs.get(os.path.normpath(path)) if path else None
                if current is not None:
                    answers[current] = (None, "no standard::content-type")
            elif current is not None and line.strip().startswith("standard::content-type:"):
                answers[current] = (line.split(":", 3)[-1].strip() or None, None)
        # Failures go to stderr as "gio: URI: message", one line each.
        errors = {}
        for line in proc.stderr.decode("utf-8", errors="surrogateescape").splitlines():
            uri, _, message = line.removeprefix("gio: ").partition(": ")
            path = gio_uri_to_path(uri)
            if path and os.path.normpath(path) in by_abs:
                errors[by_abs[os.path.normpath(path)]] = message.strip()
        for f in chunk:
            answers.setdefault(f, (None, errors.get(f, "gio printed no block")))
    return answers


def default_uti():
    for config in ("release", "debug"):
        candidate = os.path.join(ROOT, ".build", config, "uti")
        if os.access(candidate, os.X_OK):
            return candidate
    return None


# ---------------------------------------------------------------------------------------------
# Report

def percent(correct, rows):
    return 100.0 * correct / rows if rows else 0.0


def print_tables(corpora, tools, tally):
    groups = [(c, len(items)) for c, items in corpora]
    groups.append(("all three", sum(n for _, n in groups)))
    for group, rows in groups:
        print(f"{group} ({rows} rows)")
        print(f"  {'tool':<14} {'correct':>7} {'rows':>5} {'accuracy %':>10}")
        for tool in tools:
            correct = tally[tool][group]
            print(f"  {TOOL_TITLES[tool]:<14} {correct:>7} {rows:>5} {percent(correct, rows):>10.1f}")
        print()


def print_markdown(corpora, tools, tally):
    groups = [(c, len(items)) for c, items in corpora]
    groups.append(("all three", sum(n for _, n in groups)))
    print("| corpus | " + " | ".join(TOOL_TITLES[t] for t in tools) + " |")
    print("|---|" + "---|" * len(tools))
    for group, rows in groups:
        label = f"{group} ({rows:,})"
        if group == "all three":
            label = f"**{label}**"
        cells = [f"{percent(tally[t][group], rows):.1f}% ({tally[t][group]}/{rows})" for t in tools]
        print(f"| {label} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uti", help="the uti binary (default: .build/release/uti, else .build/debug/uti)")
    parser.add_argument("--corpora", default=os.path.join(os.path.dirname(ROOT), "shared", "corpora"),
                        help="folder holding the corpora (default: <repo>/../shared/corpora)")
    parser.add_argument("--markdown", action="store_true", help="print one GitHub markdown table")
    parser.add_argument("--misses", metavar="TOOL", choices=TOOLS + ("uti-names", "uti-vocabulary"),
                        help="also list the rows TOOL got wrong (path, expected, answer)")
    parser.add_argument("--json", metavar="OUT", help="write every file's answers to OUT")
    parser.add_argument("--aliases", choices=("merged", "system"), default="merged",
                        help="alias table: system + 2.4 with 2.4 winning (default), or the system "
                             "table alone, as the README's baselines were measured")
    parser.add_argument("--tools", default=",".join(DEFAULT_TOOLS),
                        help="comma-separated subset of uti,file,gio,magika,uti-model to run (default: uti,file,gio); "
                             "magika runs Magika's Python package, uti-model runs uti with Magika's model from the same "
                             "package directory (uti alone runs with UTI_MAGIKA=off)")
    parser.add_argument("--python", default=PYTHON,
                        help="the Python with `magika` and `onnxruntime` installed (default: .build-python/bin/python)")
    parser.add_argument("--no-names", action="store_true",
                        help="content only: every file copied under a name that says nothing (sample-00001) first")
    args = parser.parse_args()

    tools = [t for t in TOOLS if t in args.tools.split(",")]
    unknown = set(args.tools.split(",")) - set(TOOLS)
    if unknown or not tools:
        parser.error(f"--tools takes a comma-separated subset of {','.join(TOOLS)}")
    if args.misses and args.misses not in tools and not (args.misses in ("uti-names", "uti-vocabulary") and "uti" in tools):
        parser.error(f"--misses {args.misses}: that tool is not run")

    corpora_dir = os.path.abspath(args.corpora)
    if not os.path.isdir(corpora_dir):
        print(f"notice: {corpora_dir} absent; accuracy not measured")
        return 0

    uti = None
    if "uti" in tools or "uti-model" in tools:
        uti = args.uti or default_uti()
        if not uti or not os.access(uti, os.X_OK):
            where = uti or f"{ROOT}/.build/release/uti or {ROOT}/.build/debug/uti"
            print(f"error: no uti binary at {where}; build it (swift build -c release --product uti) "
                  "or pass --uti PATH", file=sys.stderr)
            return 2

    reference_xml = REFERENCE_XML
    aliases = load_aliases(reference_xml, system_only=args.aliases == "system")
    corpora = load_corpora(corpora_dir)
    files = [item["file"] for _, items in corpora for item in items]
    packages = None
    if "magika" in tools or "uti-model" in tools:
        packages = magika_packages(args.python)
        if packages is None:
            parser.error(f"{args.python} cannot import magika and onnxruntime (pip install magika onnxruntime)")

    scratch = tempfile.mkdtemp(prefix="uti-accuracy-") if args.no_names else None
    try:
        copies = without_names(files, scratch) if scratch else {f: f for f in files}
        asked = list(copies)
        runners = {"uti": lambda: run_uti(uti, asked), "file": lambda: run_file(asked),
                   "gio": lambda: run_gio(asked), "magika": lambda: run_magika(args.python, asked),
                   "uti-model": lambda: run_uti(uti, asked, model=packages)}
        results = {}
        for tool in tools:
            results[tool] = {copies[path]: answer for path, answer in runners[tool]().items() if path in copies}
        if "uti" in tools:
            # Each corpus asked again, in the names it states its expectations in.
            results["uti-vocabulary"] = {}
            corpus_of = {item["file"]: corpus for corpus, items in corpora for item in items}
            asked_by_corpus = {path: corpus_of.get(copies[path]) for path in asked}
            for corpus, vocabulary in CORPUS_VOCABULARIES.items():
                some = [path for path in asked if asked_by_corpus.get(path) == corpus]
                results["uti-vocabulary"].update({copies[path]: answer for path, answer
                                                  in run_uti(uti, some, vocabulary=vocabulary).items() if path in copies})
        for path in list(NAMES):
            if path in copies:
                NAMES[copies[path]] = NAMES.pop(path)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)

    if "uti" in tools:
        tools = ["uti", "uti-names", "uti-vocabulary"] + [t for t in tools if t != "uti"]
        results["uti-names"] = results["uti"]
    tally = {tool: {} for tool in tools}
    records = []
    for corpus, items in corpora:
        for tool in tools:
            tally[tool].setdefault(corpus, 0)
            tally[tool].setdefault("all three", 0)
        for item in items:
            record = {"corpus": corpus, "path": item["relative_path"], "expected": item["expected"],
                      "answers": {}}
            expected = fold(item["expected"], aliases)
            for tool in tools:
                answer, error = results[tool][item["file"]]
                correct = error is None and answer is not None and fold(answer, aliases) == expected
                if tool == "uti-names" and error is None and not correct:
                    correct = any(fold(name, aliases) == expected for name in NAMES.get(item["file"], []))
                tally[tool][corpus] += correct
                tally[tool]["all three"] += correct
                record["answers"][tool] = {"answer": answer, "correct": correct}
                if error is not None:
                    record["answers"][tool]["error"] = error
            records.append(record)

    if args.markdown:
        print_markdown(corpora, tools, tally)
    else:
        print_tables(corpora, tools, tally)
    print_vocabulary_ceiling(corpora, aliases, reference_xml)

    if args.misses:
        print(f"\nrows {TOOL_TITLES[args.misses]} got wrong:")
        print("corpus\tpath\texpected\tanswer")
        for record in records:
            got = record["answers"][args.misses]
            if not got["correct"]:
                answer = got["answer"] if got["answer"] is not None else "-"
                if "error" in got:
                    answer += f" (error: {got['error']})"
                print(f"{record['corpus']}\t{record['path']}\t{record['expected']}\t{answer}")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"tools": tools, "files": records}, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
