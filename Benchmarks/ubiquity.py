#!/usr/bin/env python3
"""What `uti ubiquity sync` costs over a bare `rclone bisync` of the same trees, in one run.

Two machines (two registry roots with the same app registered) sync one iCloud container through a local
remote, and the same trees are synced by rclone alone between plain directories:

  up      machine A's first sync of its container to an empty remote;
  back    machine B's first sync, which brings it all down;
  again   machine A's sync with nothing changed;
  change  machine A's sync after 100 small files changed.

for two trees: 10,000 small files (1 KiB, in 100 directories) and 1 GiB in large ones (4 x 256 MiB).
uti does what rclone does plus its own work (the attributes' manifest, the key-value store, conflict pairs,
listings kept for crash recovery): the ratio of the two times is that overhead. Needs rclone.

    python3 Benchmarks/ubiquity.py [--uti PATH] [--scratch DIR] [--small 10000] [--large-mib 1024]

Without --uti it builds the release binary: swift build -c release --product uti
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
APP = "com.example.bench"
CONTAINER = "iCloud~com~example~bench"
MANIFEST = f"""<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>{APP}</string>
<key>com.apple.developer.icloud-container-identifiers</key><array><string>iCloud.com.example.bench</string></array>
</dict></plist>
"""
ENVIRONMENT = dict(os.environ, RCLONE_CONFIG="/dev/null")


def timed(argv, env=None):
    start = time.perf_counter()
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or ENVIRONMENT)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({result.returncode}): {result.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def fill(directory, small, large_mib):
    """The tree: `small` 1 KiB files in 100 directories, or 1 GiB (large_mib) in four files."""
    os.makedirs(os.path.join(directory, "Documents"), exist_ok=True)
    if small:
        for index in range(small):
            folder = os.path.join(directory, "Documents", f"d{index % 100:02d}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"f{index:05d}.txt"), "wb") as handle:
                handle.write((f"{index}\n".encode() * 200)[:1024])
    else:
        block = os.urandom(1 << 20)
        for index in range(4):
            with open(os.path.join(directory, "Documents", f"large{index}.bin"), "wb") as handle:
                for _ in range(large_mib // 4):
                    handle.write(block)


def change(directory):
    for index in range(100):
        path = os.path.join(directory, "Documents", f"d{index % 100:02d}", f"f{index:05d}.txt")
        if os.path.exists(path):
            with open(path, "ab") as handle:
                handle.write(b"changed\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uti")
    parser.add_argument("--scratch", help="where the trees go (default: a temporary directory)")
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large-mib", type=int, default=1024)
    args = parser.parse_args()
    if not shutil.which("rclone"):
        sys.exit("needs rclone (apt-get install rclone)")
    uti = args.uti
    if not uti:
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        uti = os.path.join(ROOT, ".build", "release", "uti")
    scratch = tempfile.mkdtemp(prefix="uti-ubiquity-bench-", dir=args.scratch)
    print(f"{'tree':28} {'step':8} {'uti s':>8} {'rclone s':>9} {'ratio':>6}")
    totals = {}
    try:
        for label, small, large in [(f"{args.small:,} files of 1 KiB", args.small, 0), (f"{args.large_mib:,} MiB in 4 files", 0, args.large_mib)]:
            base = os.path.join(scratch, "small" if small else "large")
            manifest = os.path.join(base, "Info.plist")
            os.makedirs(base)
            with open(manifest, "w") as handle:
                handle.write(MANIFEST)
            roots = [os.path.join(base, name) for name in ("A", "B")]
            for root in roots:
                subprocess.run([uti, "apps", "register", "--root", root, manifest], check=True, stdout=subprocess.DEVNULL)
            containers = [os.path.join(root, "Mobile Documents", CONTAINER) for root in roots]
            fill(containers[0], small, large)
            # rclone alone: the same tree, between plain directories (copied, so the bytes are the same).
            plain = [os.path.join(base, "plainA"), os.path.join(base, "plainB")]
            shutil.copytree(containers[0], plain[0])
            os.makedirs(plain[1])
            for directory in (os.path.join(base, "remote"), os.path.join(base, "plainRemote")):
                os.makedirs(directory)
            # rclone refuses an empty side: the bare run gets what uti's sentinel gives it.
            open(os.path.join(plain[1], ".uti-sync"), "w").close()
            open(os.path.join(plain[0], ".uti-sync"), "w").close()
            workdir = os.path.join(base, "workdir")
            flags = ["--ignore-checksum", "--force", "--skip-links", "--workdir", workdir]

            def uti_sync(machine):
                return timed([uti, "ubiquity", "sync", "--root", roots[machine], "--remote", os.path.join(base, "remote"), APP])

            def bare(directory, resync):
                return timed(["rclone", "bisync", directory, os.path.join(base, "plainRemote")] + flags + (["--resync"] if resync else []))

            steps = [
                ("up", lambda: uti_sync(0), lambda: bare(plain[0], True)),
                ("back", lambda: uti_sync(1), lambda: bare(plain[1], True)),
                ("again", lambda: uti_sync(0), lambda: bare(plain[0], False)),
            ]
            if small:
                steps.append(("change", lambda: (change(containers[0]), uti_sync(0))[1], lambda: (change(plain[0]), bare(plain[0], False))[1]))
            for step, ours, theirs in steps:
                # Alternate who goes first, so neither always has the warmer cache.
                if step in ("back", "change"):
                    rclone_seconds = theirs()
                    uti_seconds = ours()
                else:
                    uti_seconds = ours()
                    rclone_seconds = theirs()
                totals.setdefault(label, [0.0, 0.0])
                totals[label][0] += uti_seconds
                totals[label][1] += rclone_seconds
                print(f"{label:28} {step:8} {uti_seconds:8.2f} {rclone_seconds:9.2f} {uti_seconds / rclone_seconds:6.2f}")
            shutil.rmtree(base)
        for label, (ours, theirs) in totals.items():
            print(f"{label:28} {'all':8} {ours:8.2f} {theirs:9.2f} {ours / theirs:6.2f}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
