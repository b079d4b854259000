#!/usr/bin/env python3
"""Batch classification of a warm tree: `uti classify` against `find | xargs file --mime-type`.

In one run, on the same tree (default /usr/share), after one warm-up pass of each:
  - `uti classify --include-hidden --format ndjson DIR`, timed (the median of nine runs), peak RSS by GNU time;
  - `find DIR -type f -print0 | xargs -0 file --mime-type`, timed (the median of three runs);
    in three rounds of three uti runs and one of file(1), so that both meet the machine's slow moments alike;
  - files per second for both (regular files, counted by find), and their ratio;
  - agreement: every regular file's classify answer against `uti identify --json` on the same file.

    python3 Benchmarks/classify.py [--tree /usr/share] [--uti PATH] [--rounds 3]

Without --uti it builds the release binary: swift build -c release --product uti
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command, output, shell=False):
    """Wall seconds and peak RSS (KiB, when GNU time is there) of one run, stdout to `output`."""
    use_time = os.path.exists("/usr/bin/time") and not shell
    argv = ["/usr/bin/time", "-f", "%M", *command] if use_time else command
    with open(output, "wb") as sink:
        start = time.perf_counter()
        result = subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE, shell=shell, executable="/bin/bash" if shell else None)
        elapsed = time.perf_counter() - start
    rss = None
    if use_time:
        lines = result.stderr.decode(errors="replace").strip().splitlines()
        rss = int(lines[-1]) if lines and lines[-1].isdigit() else None
    return elapsed, rss, result.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", default="/usr/share")
    parser.add_argument("--uti")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of three uti runs and one file(1) run (default 3)")
    args = parser.parse_args()
    uti = args.uti
    if not uti:
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        uti = os.path.join(ROOT, ".build", "release", "uti")

    files = subprocess.run(["find", args.tree, "-type", "f", "-print0"], stdout=subprocess.PIPE, check=True).stdout
    paths = [p.decode("utf-8", "surrogateescape") for p in files.split(b"\0") if p]
    scratch = tempfile.mkdtemp(prefix="uti-classify-")
    uti_out = os.path.join(scratch, "uti.ndjson")
    file_out = os.path.join(scratch, "file.txt")
    file_command = f"find '{args.tree}' -type f -print0 | xargs -0 file --mime-type"
    # Hidden entries too: find lists them, so both tools get the same files.
    uti_command = [uti, "classify", "--include-hidden", "--format", "ndjson", args.tree]

    timed(uti_command, uti_out)  # warm-up
    timed(file_command, file_out, shell=True)
    # uti's run is about a second and this machine's speed moves from one second to the next by a third:
    # the median of three uti runs in each round, beside one of file(1), for the rounds' medians.
    runs = []
    file_runs = []
    for _ in range(max(args.rounds, 1)):
        runs += [timed(uti_command, uti_out) for _ in range(3)]
        file_runs.append(timed(file_command, file_out, shell=True)[0])
    uti_times = sorted(run[0] for run in runs)
    file_times = sorted(file_runs)
    uti_seconds = uti_times[len(uti_times) // 2]
    file_seconds = file_times[len(file_times) // 2]
    uti_rss = max((run[1] for run in runs if run[1] is not None), default=None)
    uti_status = max(run[2] for run in runs)

    answers = {}
    with open(uti_out, "rb") as handle:
        for line in handle:
            record = json.loads(line)
            answers[record["path"]] = record
    records = len(answers)

    # Agreement with `uti identify` on every regular file, in batches.
    disagreements = []
    batch = 500
    for start in range(0, len(paths), batch):
        chunk = paths[start:start + batch]
        result = subprocess.run([uti, "identify", "--json", "--", *chunk], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for line in result.stdout.splitlines():
            record = json.loads(line)
            classified = answers.get(record["path"])
            identified = record.get("identifier")
            if classified is None or classified.get("identifier") != identified or classified.get("mimeType") != record.get("mimeType"):
                disagreements.append((record["path"], identified, classified and classified.get("identifier")))

    count = len(paths)
    uti_rate = count / uti_seconds
    file_rate = count / file_seconds
    print(f"tree: {args.tree}, {count} regular files ({records} entries classified, directories and links included)")
    print(f"{'command':60} {'seconds':>8} {'files/s':>9}")
    print(f"{'uti classify --include-hidden --format ndjson':60} {uti_seconds:8.2f} {uti_rate:9.0f}   peak RSS {uti_rss / 1024 if uti_rss else float('nan'):.1f} MiB, exit {uti_status}"
          f"; {len(uti_times)} runs {uti_times[0]:.2f}-{uti_times[-1]:.2f} s")
    print(f"{'find -type f -print0 | xargs -0 file --mime-type':60} {file_seconds:8.2f} {file_rate:9.0f}   {len(file_times)} runs {file_times[0]:.2f}-{file_times[-1]:.2f} s")
    print(f"ratio: uti classifies {uti_rate / file_rate:.1f}x as many files per second")
    print(f"agreement with `uti identify` on every regular file: {count - len(disagreements)}/{count}")
    for path, identified, classified in disagreements[:10]:
        print(f"  differs: {path}: identify {identified}, classify {classified}")
    for name in (uti_out, file_out):
        os.unlink(name)
    os.rmdir(scratch)


if __name__ == "__main__":
    main()
