#!/usr/bin/env python3
"""Routing a tree: `uti route --recursive` against copying the same files with `cp`, and against another build.

In one run, on a tree made for it (default: 2,000 files of 4 KiB, half PNG and half text, in 40 directories),
each in a fresh registry with one viewer app, after one warm-up pass of each:
  - `uti route --recursive TREE` (copies into the app's Inbox: identify, copy, fsync, link), timed;
  - `cp -r TREE DEST` followed by `sync -f DEST`, timed: the floor of copying the same bytes durably;
  - with --compare PATH, the same `uti route --recursive` with another `uti` binary (an earlier build), so that
    a change to routing is measured as a ratio in one run.
Each figure is the median of --runs runs (default 5), alternating the commands.

    python3 Benchmarks/route.py [--files 2000] [--runs 5] [--uti PATH] [--compare PATH]

Without --uti it builds the release binary: swift build -c release --product uti
"""
import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>com.example.viewer</string>
<key>CFBundleDocumentTypes</key><array><dict>
<key>LSItemContentTypes</key><array><string>public.image</string><string>public.text</string></array>
</dict></array></dict></plist>
"""


def make_tree(directory, count):
    for index in range(count):
        folder = os.path.join(directory, f"d{index % 40:02}")
        os.makedirs(folder, exist_ok=True)
        if index % 2:
            body = PNG + bytes(4096 - len(PNG))
            name = f"image{index}.png"
        else:
            body = (b"plain words of a note, line after line\n" * 110)[:4096]
            name = f"note{index}.txt"
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(body)


def route_once(uti, tree, scratch, manifest):
    root = tempfile.mkdtemp(prefix="registry-", dir=scratch)
    environment = dict(os.environ, UTI_ROOT=root)
    subprocess.run([uti, "apps", "register", manifest], env=environment, check=True, stdout=subprocess.DEVNULL)
    start = time.perf_counter()
    result = subprocess.run([uti, "route", "--recursive", tree], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{uti} route --recursive failed: {result.stderr.decode(errors='replace')[:500]}")
    shutil.rmtree(root)
    return elapsed


def copy_once(tree, scratch):
    destination = os.path.join(scratch, "copy")
    start = time.perf_counter()
    subprocess.run(["cp", "-r", tree, destination], check=True)
    subprocess.run(["sync", "-f", destination], check=True)
    elapsed = time.perf_counter() - start
    shutil.rmtree(destination)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--uti")
    parser.add_argument("--compare", help="another uti binary, routed side by side")
    args = parser.parse_args()
    uti = args.uti
    if not uti:
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        uti = os.path.join(ROOT, ".build", "release", "uti")

    scratch = tempfile.mkdtemp(prefix="uti-route-")
    tree = os.path.join(scratch, "tree")
    make_tree(tree, args.files)
    manifest = os.path.join(scratch, "Viewer.plist")
    with open(manifest, "w") as handle:
        handle.write(MANIFEST)

    commands = [("uti route --recursive", lambda: route_once(uti, tree, scratch, manifest)),
                ("cp -r + sync", lambda: copy_once(tree, scratch))]
    if args.compare:
        commands.append(("uti route --recursive (--compare)", lambda: route_once(args.compare, tree, scratch, manifest)))
    for _, command in commands:
        command()  # warm-up
    times = {name: [] for name, _ in commands}
    for _ in range(args.runs):
        for name, command in commands:
            times[name].append(command())
    shutil.rmtree(scratch)

    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"{args.files} files of 4 KiB, median of {args.runs} runs")
    for name, seconds in medians.items():
        print(f"  {name:36} {seconds:7.3f} s  {args.files / seconds:9,.0f} files/s")
    base = medians["uti route --recursive"]
    print(f"  uti route ÷ cp time: {base / medians['cp -r + sync']:.2f}")
    if args.compare:
        print(f"  this build ÷ --compare time: {base / medians['uti route --recursive (--compare)']:.2f}")


if __name__ == "__main__":
    main()
