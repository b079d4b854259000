#!/usr/bin/env python3
"""Side-by-side start-up cost: `uti info public.jpeg` against `file --mime-type` on a small file.

Both commands run alternately in one process, N times each, on the same machine state, so the
ratio is fair whatever the machine's speed. Reports median and mean wall time, the peak RSS of
each (GNU time's %M), and the ratio of the medians.

    python3 Benchmarks/startup.py [--runs 300] [--uti PATH]

Without --uti it builds the release binary the README's figures use:
    swift build -c release --static-swift-stdlib --product uti
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_rss_kib(argv):
    """Peak RSS of one run, read by GNU time (a child spawned from this Python process would report
    the Python process's own size, inherited before exec)."""
    if not shutil.which("/usr/bin/time"):
        return None
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, check=True)
    return int(result.stderr.strip().splitlines()[-1])


def run_once(argv):
    """Wall seconds of one run, output discarded."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed with status {os.waitstatus_to_exitcode(status)}")
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--uti", help="the uti binary (default: build the static release binary)")
    args = parser.parse_args()

    uti = args.uti
    if not uti:
        subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "uti"],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        uti = os.path.join(ROOT, ".build", "release", "uti")

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as small:
        small.write("hello, world\n")
    commands = {
        "uti info public.jpeg": [uti, "info", "public.jpeg"],
        "file --mime-type (13-byte file)": ["file", "--mime-type", small.name],
    }
    samples = {name: [] for name in commands}
    for name, argv in commands.items():  # warm the page cache
        for _ in range(5):
            run_once(argv)
    for _ in range(args.runs):
        for name, argv in commands.items():
            samples[name].append(run_once(argv))
    rss = {name: max((peak_rss_kib(argv) or 0) for _ in range(5)) for name, argv in commands.items()}
    os.unlink(small.name)

    print(f"{'command':34} {'median ms':>10} {'mean ms':>9} {'peak RSS MiB':>13}   ({args.runs} runs each, alternating)")
    for name in commands:
        values = samples[name]
        print(f"{name:34} {statistics.median(values) * 1000:10.2f} {statistics.mean(values) * 1000:9.2f} {rss[name] / 1024:13.1f}")
    names = list(commands)
    ratio = statistics.median(samples[names[0]]) / statistics.median(samples[names[1]])
    print(f"ratio uti/file (medians): {ratio:.2f}")


if __name__ == "__main__":
    main()
