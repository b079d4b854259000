#!/usr/bin/env python3
"""uti classify --archives over a tree of real archives, against extracting each archive and classifying that.

    python3 Benchmarks/archives.py [--uti PATH] [--tree DIR] [--runs N]

The tree (made in a scratch directory unless --tree names one): the Debian packages in /tmp/pkgs/debs and
/var/cache/apt/archives, the wheels and JARs this machine has (/usr/share/python-wheels, Python's bundled
wheels, /usr/share/java), and the shared corpora's archives, copied. Measured in one run, alternating:

- `uti classify --archives --format ndjson TREE`: its time, peak RSS and the bytes it wrote to storage (the
  spool; /proc/self/io's write_bytes of this script, which counts its reaped children's);
- extracting each archive with bsdtar into a temporary directory (one level, as a user would) and
  `uti classify --format ndjson` of it, then removing it: time, the peak RSS of the largest step, bytes written;
- `file -z --mime-type` of every file (what file(1) sees inside a compressed stream), and Magika (`magika -r`,
  which types the archives themselves), where they are installed, for scale.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources():
    found = []
    for directory in ["/tmp/pkgs/debs", "/var/cache/apt/archives", "/usr/share/python-wheels", "/usr/share/java"]:
        if os.path.isdir(directory):
            found += [os.path.join(directory, name) for name in sorted(os.listdir(directory))
                      if name.endswith((".deb", ".whl", ".jar")) and os.path.isfile(os.path.join(directory, name))
                      and not os.path.islink(os.path.join(directory, name))]
    for base in [os.path.expanduser("~/.pyenv/versions")]:
        if os.path.isdir(base):
            for version in sorted(os.listdir(base)):
                bundled = os.path.join(base, version, "lib")
                for directory, _, names in os.walk(bundled):
                    if directory.endswith("ensurepip/_bundled"):
                        found += [os.path.join(directory, name) for name in sorted(names) if name.endswith(".whl")]
    corpora = os.path.join(os.path.dirname(ROOT), "shared", "corpora")
    for directory, _, names in os.walk(corpora):
        found += [os.path.join(directory, name) for name in sorted(names)
                  if name.endswith((".tar.xz", ".tgz", ".tar.gz", ".7z", ".zip", ".deb", ".rpm", ".iso", ".jar", ".cpio", ".a"))]
    return found


def make_tree(scratch):
    tree = os.path.join(scratch, "tree")
    os.makedirs(tree)
    for index, path in enumerate(sources()):
        shutil.copyfile(path, os.path.join(tree, f"{index:04d}-{os.path.basename(path)}"))
    return tree


def written():
    with open("/proc/self/io") as handle:
        return int(dict(line.split(": ") for line in handle.read().splitlines())["write_bytes"])


def run(command, **options):
    """Runs a command to its end; its time, the peak RSS (KiB) of it and its children, and the bytes written."""
    before = written()
    started = time.monotonic()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)
    elapsed = time.monotonic() - started
    if result.returncode not in (0, 1):
        sys.exit(f"{command[0]} failed ({result.returncode}): {result.stderr.decode(errors='replace')[-500:]}")
    peak = int(result.stderr.decode().strip().splitlines()[-1])
    return elapsed, peak, written() - before, result.stdout


def extract_and_classify(uti, tree, scratch):
    """Every archive extracted (bsdtar, one level) into a temporary directory, classified, removed."""
    total, peak, wrote, records = 0.0, 0, 0, 0
    for name in sorted(os.listdir(tree)):
        target = tempfile.mkdtemp(dir=scratch, prefix="x-")
        elapsed, rss, bytes_written, _ = run(["bsdtar", "-xf", os.path.join(tree, name), "-C", target])
        total, peak, wrote = total + elapsed, max(peak, rss), wrote + bytes_written
        elapsed, rss, bytes_written, output = run([uti, "classify", "--format", "ndjson", target])
        total, peak, wrote = total + elapsed, max(peak, rss), wrote + bytes_written
        records += output.count(b"\n")
        started = time.monotonic()
        shutil.rmtree(target)
        total += time.monotonic() - started
    return total, peak, wrote, records


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uti", default=os.path.join(ROOT, ".build", "release", "uti"))
    parser.add_argument("--tree", help="a directory of archives (default: one made from what this machine has)")
    parser.add_argument("--runs", type=int, default=3, help="alternating rounds (medians reported)")
    options = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="uti-archives-bench-", dir=os.environ.get("TMPDIR", "/var/tmp"))
    try:
        tree = options.tree or make_tree(scratch)
        files = sorted(os.listdir(tree))
        size = sum(os.path.getsize(os.path.join(tree, name)) for name in files)
        print(f"tree: {len(files)} archives, {size / 2**20:.1f} MiB, in {tree}", flush=True)
        ours, theirs = [], []
        for round_number in range(options.runs):
            for first in (["uti", "extract"] if round_number % 2 == 0 else ["extract", "uti"]):
                if first == "uti":
                    elapsed, peak, wrote, output = run([options.uti, "classify", "--archives", "--format", "ndjson", tree])
                    ours.append((elapsed, peak, wrote, output.count(b"\n")))
                else:
                    theirs.append(extract_and_classify(options.uti, tree, scratch))
        uti_time = statistics.median(r[0] for r in ours)
        extract_time = statistics.median(r[0] for r in theirs)
        print(f"uti classify --archives: {uti_time:.2f} s (runs {', '.join(f'{r[0]:.2f}' for r in ours)}), "
              f"peak RSS {max(r[1] for r in ours) / 1024:.1f} MiB, written {max(r[2] for r in ours) / 2**20:.1f} MiB, {ours[0][3]} records")
        print(f"extract (bsdtar) and classify: {extract_time:.2f} s (runs {', '.join(f'{r[0]:.2f}' for r in theirs)}), "
              f"peak RSS {max(r[1] for r in theirs) / 1024:.1f} MiB, written {max(r[2] for r in theirs) / 2**20:.1f} MiB, {theirs[0][3]} records")
        print(f"ratio: {extract_time / uti_time:.1f}x faster", flush=True)
        if shutil.which("file"):
            listing = "\0".join(os.path.join(tree, name) for name in files).encode()
            started = time.monotonic()
            subprocess.run(["xargs", "-0", "file", "-z", "--mime-type"], input=listing, stdout=subprocess.DEVNULL, check=False)
            print(f"file -z --mime-type (each archive, and inside a compressed stream): {time.monotonic() - started:.2f} s", flush=True)
        magika = os.path.join(ROOT, ".build-python", "bin", "magika")
        if os.path.exists(magika):
            started = time.monotonic()
            subprocess.run([magika, "-r", tree], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            print(f"magika -r (the archives themselves, no members): {time.monotonic() - started:.2f} s", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
