#!/usr/bin/env python3
"""PRONOM identification measured: uti against FIDO 1.6.1 (the Open Preservation Foundation's PRONOM identifier,
`pip install opf-fido`) on the same files, and what PRONOM adds to `uti classify`.

    python3 Benchmarks/pronom.py                       # /usr/share: a sample of 3,000 files for FIDO, the whole tree for uti
    python3 Benchmarks/pronom.py --roots /usr /etc --sample 5000 --uti .build/release/uti --runs 3

Three measurements, each printed with its figures:
1. Speed: files per second of FIDO (one process over the sample's list, `-input`) and of `uti classify --pronom
   --files-from` over the same list, in the same run; and uti with `--jobs 1`, one thread as FIDO has.
2. Agreement: for each file of the sample, FIDO's first PUID against uti's first (and whether FIDO's is among
   uti's answers); the disagreements are listed, by pair, with an example file each, to judge.
3. Overhead: `uti classify --format ndjson ROOT` with and without `--pronom`, alternated `--runs` times; the
   ratio of the medians.

FIDO is installed into .build-fido (a virtual environment) when it is not there. FIDO 1.6.1 carries DROID's
signature file V109 and container file 20200121; uti carries V119 and 20240715: some disagreements are the
five years between them.
"""

import argparse
import collections
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fido_binary(path):
    if path:
        return path
    venv = os.path.join(ROOT, ".build-fido")
    binary = os.path.join(venv, "bin", "fido")
    if not os.path.exists(binary):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "opf-fido==1.6.1"], check=True)
    return binary


def sample(roots, count):
    """Every k-th regular file (no links) of the roots, in sorted order, about `count` of them."""
    files = []
    for root in roots:
        for directory, names, filenames in os.walk(root):
            names.sort()
            for name in sorted(filenames):
                path = os.path.join(directory, name)
                if "\n" in path or "\t" in path or not os.path.isfile(path) or os.path.islink(path):
                    continue
                if os.access(path, os.R_OK):
                    files.append(path)
    step = max(1, len(files) // count)
    return files[::step][:count], len(files)


def make_documents(directory):
    """Files made with Python's standard library, each named as its maker names it: real documents of formats
    PRONOM knows, made on this machine rather than found on it."""
    import csv, gzip, bz2, lzma, tarfile, zipfile, wave, sqlite3, plistlib, json as json_module, email.message, mailbox, py_compile, zipapp, shutil
    made = []
    def path(name):
        made.append(os.path.join(directory, name))
        return made[-1]
    with open(path("table.csv"), "w", newline="") as f:
        csv.writer(f).writerows([["name", "size"], ["a", 1], ["b", 2]])
    with open(path("page.html"), "w") as f:
        f.write("<!DOCTYPE html>\n<html><head><title>t</title></head><body><p>hello</p></body></html>\n")
    with open(path("data.xml"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<root><item>1</item></root>\n')
    with open(path("data.json"), "w") as f:
        json_module.dump({"a": [1, 2, 3]}, f)
    with open(path("notes.txt"), "w") as f:
        f.write("plain text\n" * 20)
    with gzip.open(path("notes.txt.gz"), "wb") as f:
        f.write(b"plain text\n" * 20)
    with bz2.open(path("notes.txt.bz2"), "wb") as f:
        f.write(b"plain text\n" * 20)
    with lzma.open(path("notes.txt.xz"), "wb") as f:
        f.write(b"plain text\n" * 20)
    with tarfile.open(path("bundle.tar"), "w") as tar:
        tar.add(made[0], arcname="table.csv")
    with zipfile.ZipFile(path("bundle.zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(made[0], "table.csv")
    with wave.open(path("tone.wav"), "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000); w.writeframes(b"\x00\x01" * 8000)
    connection = sqlite3.connect(path("store.sqlite"))
    connection.execute("create table t (a integer)"); connection.commit(); connection.close()
    with open(path("settings.plist"), "wb") as f:
        plistlib.dump({"a": 1}, f, fmt=plistlib.FMT_XML)
    with open(path("settings-binary.plist"), "wb") as f:
        plistlib.dump({"a": 1}, f, fmt=plistlib.FMT_BINARY)
    message = email.message.EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.org", "b@example.org", "hello"
    message.set_content("hello\n")
    with open(path("message.eml"), "wb") as f:
        f.write(bytes(message))
    source = path("script.py")
    with open(source, "w") as f:
        f.write("print('hello')\n")
    compiled = py_compile.compile(source, cfile=os.path.join(directory, "script.pyc"))
    made.append(compiled)
    application = os.path.join(directory, "app")
    os.makedirs(application)
    shutil.copy(source, os.path.join(application, "__main__.py"))
    zipapp.create_archive(application, path("app.pyz"))
    return made


def run_fido(fido, listing):
    """FIDO over the list: {file: [PUIDs in FIDO's order]} and the seconds it took."""
    started = time.monotonic()
    result = subprocess.run([fido, "-q", "-input", listing, "-matchprintf", "OK|%(info.filename)s|%(info.puid)s\n",
                             "-nomatchprintf", "NO|%(info.filename)s|\n"], capture_output=True, text=True, errors="replace")
    seconds = time.monotonic() - started
    answers = collections.defaultdict(list)
    # FIDO writes its no-match lines without a line break of their own: split on the markers.
    text = result.stdout.replace("\\n", "\n")
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) >= 3 and parts[0] in ("OK", "NO"):
            answers[parts[1]]
            if parts[0] == "OK" and parts[2]:
                answers[parts[1]].append(parts[2])
    return answers, seconds


def run_uti(uti, listing, jobs=None):
    """uti over the list: {file: [PUIDs, best first]} and the seconds it took."""
    arguments = [uti, "classify", "--pronom", "--details", "--format", "ndjson", "--files-from", listing]
    if jobs:
        arguments += ["--jobs", str(jobs)]
    started = time.monotonic()
    result = subprocess.run(arguments, capture_output=True, text=True, errors="replace")
    seconds = time.monotonic() - started
    answers = {}
    for line in result.stdout.splitlines():
        record = json.loads(line)
        pronom = record.get("pronom") or {}
        answers[record["path"]] = [match["puid"] for match in pronom.get("matches", [])]
    return answers, seconds


def timed(command):
    """The wall seconds and CPU seconds (user and system, the child's) of a command, its output discarded."""
    before, started = os.times(), time.monotonic()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, after = time.monotonic() - started, os.times()
    return wall, after.children_user - before.children_user + after.children_system - before.children_system


def overhead(uti, root, runs, earlier=None):
    """Wall seconds and CPU seconds of `uti classify --format ndjson ROOT` without and with --pronom, alternated:
    ([(wall, cpu)] plain, [(wall, cpu)] with --pronom); with `earlier` (another build), its --pronom runs too, in
    the same rounds, as a third list. Each round runs them in another of their orders, in turn, so that each
    takes each place in a round as often (with three, a run that always came second was always the one after a
    different binary, the others after themselves every other round)."""
    plain, pronom, before = [], [], []
    order = [(uti, [], plain), (uti, ["--pronom"], pronom)] + ([(earlier, ["--pronom"], before)] if earlier else [])
    orders = list(itertools.permutations(order))
    for round in range(runs):
        for binary, arguments, times in orders[round % len(orders)]:
            times.append(timed([binary, "classify", "--include-hidden", "--format", "ndjson", *arguments, root]))
    return (plain, pronom, before) if earlier else (plain, pronom)


def print_overhead(root, runs, plain, *builds):
    """The medians of `overhead`'s lists, each build's --pronom runs against the plain ones."""
    wall, cpu = (statistics.median(run[i] for run in plain) for i in (0, 1))
    print(f"Overhead on {root}: `uti classify --format ndjson` {wall:.3f} s, CPU {cpu:.2f} s (medians of {runs} alternated rounds)")
    for name, runs_of in builds:
        w, c = (statistics.median(run[i] for run in runs_of) for i in (0, 1))
        # Each round's own ratio too: on a shared machine the same run's time moves by a third from one round to the next.
        rounds = sorted(100 * (b[0] / a[0] - 1) for a, b in zip(plain, runs_of))
        print(f"- {name} with `--pronom`: {w:.3f} s, **+{100 * (w / wall - 1):.0f}%**; CPU {c:.2f} s, "
              f"+{100 * (c / cpu - 1):.0f}%; the rounds' own ratios from {rounds[0]:+.0f}% to {rounds[-1]:+.0f}%, "
              f"median {statistics.median(rounds):+.0f}%")
    if len(builds) == 2:
        # The two builds' --pronom runs of each round against each other: the comparison least moved by the
        # machine's speed from one round to the next.
        (first, ours), (second, theirs) = builds
        for i, what in ((0, "wall"), (1, "CPU")):
            rounds = sorted(a[i] / b[i] for a, b in zip(ours, theirs))
            print(f"- {first} against {second}, each round's {what} time: median {statistics.median(rounds):.3f}, "
                  f"from {rounds[0]:.3f} to {rounds[-1]:.3f}; lower in {sum(r < 1 for r in rounds)} of {len(rounds)} rounds")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--roots", nargs="+", default=["/usr/share"])
    parser.add_argument("--sample", type=int, default=3000)
    parser.add_argument("--uti", default=os.path.join(ROOT, ".build", "release", "uti"))
    parser.add_argument("--fido", help="the fido command (default: .build-fido, installed when missing)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--examples", type=int, default=40, help="how many disagreements to list")
    parser.add_argument("--documents", action="store_true",
                        help="instead: files made with Python's standard library, each with FIDO's and uti's PUIDs")
    parser.add_argument("--overhead", type=int, metavar="ROUNDS",
                        help="instead: only what --pronom adds to classify over the first root, in this many rounds")
    parser.add_argument("--before", help="with --overhead: another build of uti, its --pronom runs in the same rounds")
    args = parser.parse_args()
    if args.overhead:
        lists = overhead(args.uti, args.roots[0], args.overhead, args.before)
        print_overhead(args.roots[0], args.overhead, lists[0], ("this build", lists[1]),
                       *([("the build before", lists[2])] if args.before else []))
        return
    fido = fido_binary(args.fido)
    if args.documents:
        with tempfile.TemporaryDirectory() as directory:
            files = make_documents(directory)
            with open(os.path.join(directory, "list.txt"), "w") as listing:
                listing.write("".join(f + "\n" for f in files))
            fido_answers, _ = run_fido(fido, listing.name)
            uti_answers, _ = run_uti(args.uti, listing.name)
            print("| file | FIDO | uti | uti's type |\n|---|---|---|---|")
            for path in files:
                result = subprocess.run([args.uti, "identify", "--json", "--pronom", path], capture_output=True, text=True)
                identifier = json.loads(result.stdout)["identifier"] if result.returncode == 0 else "?"
                print(f"| {os.path.basename(path)} | {', '.join(fido_answers.get(path, [])[:2]) or '-'} | "
                      f"{', '.join(uti_answers.get(path, [])[:2]) or '-'} | {identifier} |")
        return
    files, total = sample(args.roots, args.sample)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("".join(f + "\n" for f in files))
    try:
        fido_answers, fido_seconds = run_fido(fido, listing.name)
        uti_answers, uti_seconds = run_uti(args.uti, listing.name)
        _, uti_one_seconds = run_uti(args.uti, listing.name, jobs=1)
    finally:
        os.unlink(listing.name)
    n = len(files)
    print(f"## PRONOM: uti against FIDO 1.6.1 on {n:,} files sampled from {', '.join(args.roots)} ({total:,} regular files)\n")
    print("| tool | seconds | files/s |\n|---|---|---|")
    for name, seconds in (("FIDO 1.6.1 (one process, -input)", fido_seconds), ("uti classify --pronom --files-from", uti_seconds),
                          ("uti, --jobs 1", uti_one_seconds)):
        print(f"| {name} | {seconds:.2f} | {n / seconds:,.0f} |")
    print(f"\nuti: **{fido_seconds / uti_seconds:.0f}×** FIDO's files per second ({fido_seconds / uti_one_seconds:.0f}× on one thread).\n")

    same = fido_none = uti_none = among = 0
    pairs = collections.Counter()
    example = {}
    for path in files:
        fido_puids = fido_answers.get(path, [])
        uti_puids = uti_answers.get(path, [])
        fido_best = fido_puids[0] if fido_puids else None
        uti_best = uti_puids[0] if uti_puids else None
        if fido_best == uti_best:
            same += 1
            continue
        if fido_best and fido_best in uti_puids:
            among += 1
        if fido_best is None:
            fido_none += 1
        if uti_best is None:
            uti_none += 1
        pairs[(fido_best, uti_best)] += 1
        example.setdefault((fido_best, uti_best), path)
    print(f"Agreement: the same first PUID (or none from both) for **{same:,} of {n:,}** ({100 * same / n:.1f}%); "
          f"of the rest, FIDO's first is among uti's answers for {among:,}; FIDO names none for {fido_none:,}, uti none for {uti_none:,}.\n")
    print("| FIDO | uti | files | e.g. |\n|---|---|---|---|")
    for (fido_best, uti_best), count in pairs.most_common(args.examples):
        print(f"| {fido_best or '-'} | {uti_best or '-'} | {count} | `{example[(fido_best, uti_best)]}` |")

    print()
    plain, pronom = overhead(args.uti, args.roots[0], args.runs)
    print_overhead(args.roots[0], args.runs, plain, ("this build", pronom))


if __name__ == "__main__":
    main()
