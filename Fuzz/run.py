#!/usr/bin/env python3
"""Builds the fuzz targets (libFuzzer with AddressSanitizer) and runs them.

    python3 Fuzz/run.py                      # CI: every target, a bounded number of runs over the seeds and
                                             # Fuzz/regressions/<target>/ (two minutes on two cores, as many
                                             # targets at once as there are cores: --jobs); fails on any crash,
                                             # leak, timeout or out-of-memory
    python3 Fuzz/run.py --long SECONDS [TARGET ...]
                                             # long runs, the corpus kept in .build-fuzz/corpus/<target>/
                                             # (outside git); crashes are written to .build-fuzz/crashes/<target>/
    python3 Fuzz/run.py --no-build ...       # use the targets already built

The targets are built by the main package when UTI_FUZZING is set (see Package.swift), into .build-fuzz/.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["FuzzIdentify", "FuzzDeclarations", "FuzzManifest", "FuzzZip", "FuzzOLE2", "FuzzModelConfiguration", "FuzzFramedRecords", "FuzzSyncedFiles", "FuzzArchive"]
SCRATCH = os.path.join(ROOT, ".build-fuzz")
# Runs per target in CI: from 4 to 77 seconds each on a two-core machine (SECONDS below).
CI_RUNS = {"FuzzIdentify": 20_000, "FuzzDeclarations": 40_000, "FuzzManifest": 100_000, "FuzzZip": 500_000, "FuzzOLE2": 200_000,
           "FuzzModelConfiguration": 300_000, "FuzzFramedRecords": 100_000, "FuzzSyncedFiles": 100_000,
           "FuzzArchive": 20_000}
OPTIONS = ["-timeout=10", "-rss_limit_mb=2048", "-malloc_limit_mb=2048", "-detect_leaks=1", "-print_final_stats=1"]
# libarchive reserves what a header claims before it finds the bytes are not there (a cpio header's 2.5 GB name,
# one malloc never touched: the address space, not memory); the RSS limit still stops memory really used.
# What a CI run of each took on a two-core machine (seconds, 2026-12-03): the order they are started in.
SECONDS = {"FuzzArchive": 77, "FuzzOLE2": 65, "FuzzZip": 49, "FuzzIdentify": 17, "FuzzManifest": 11, "FuzzModelConfiguration": 9,
           "FuzzSyncedFiles": 8, "FuzzDeclarations": 4, "FuzzFramedRecords": 4}
TARGET_OPTIONS = {"FuzzArchive": ["-malloc_limit_mb=8192"]}


def build(targets):
    environment = dict(os.environ, UTI_FUZZING="1")
    for target in targets:
        started = time.monotonic()
        subprocess.run(["swift", "build", "-c", "release", "--scratch-path", SCRATCH, "--toolset", os.path.join(ROOT, "Fuzz", "toolset.json"),
                        "-Xswiftc", "-sanitize=fuzzer,address", "-Xswiftc", "-parse-as-library", "--product", target],
                       cwd=ROOT, env=environment, check=True)
        print(f"built {target} in {time.monotonic() - started:.0f} s", flush=True)


def binary(target):
    return os.path.join(SCRATCH, "release", target)


def stats(output):
    found = dict(re.findall(r"stat::(\w+):\s+(\d+)", output))
    return int(found.get("number_of_executed_units", 0)), int(found.get("peak_rss_mb", 0))


def run(target, arguments, corpus_dirs, log):
    command = [binary(target)] + OPTIONS + TARGET_OPTIONS.get(target, []) + arguments + corpus_dirs
    started = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    elapsed = time.monotonic() - started
    with open(log, "w") as handle:
        handle.write(result.stdout)
    executions, rss = stats(result.stdout)
    return result.returncode, executions, elapsed, rss, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--long", type=int, metavar="SECONDS", help="run each target this long, keeping the corpus")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N", help="targets run at once (default: the cores)")
    parser.add_argument("targets", nargs="*", default=TARGETS)
    options = parser.parse_args()
    unknown = [t for t in options.targets if t not in TARGETS]
    if unknown:
        sys.exit(f"run.py: unknown target {unknown[0]} (targets: {', '.join(TARGETS)})")
    if not options.no_build:
        build(options.targets)
    seeds = tempfile.mkdtemp(prefix="uti-fuzz-seeds-")
    subprocess.run([sys.executable, os.path.join(ROOT, "Fuzz", "seeds.py"), seeds], check=True)
    logs = os.path.join(SCRATCH, "logs")
    os.makedirs(logs, exist_ok=True)

    def one(target):
        regressions = os.path.join(ROOT, "Fuzz", "regressions", target)
        inputs = [os.path.join(seeds, target)] + ([regressions] if os.path.isdir(regressions) else [])
        if options.long:
            corpus = os.path.join(SCRATCH, "corpus", target)
            crashes = os.path.join(SCRATCH, "crashes", target)
            os.makedirs(corpus, exist_ok=True)
            os.makedirs(crashes, exist_ok=True)
            arguments = [f"-max_total_time={options.long}", f"-artifact_prefix={crashes}/", "-print_pcs=0"]
            log = os.path.join(logs, f"{target}.long.{time.strftime('%Y%m%d-%H%M%S')}.{os.getpid()}.log")
            return run(target, arguments, [corpus] + inputs, log)
        # Every regression and seed first, each alone; then a bounded run from them.
        arguments = [f"-runs={CI_RUNS[target]}", f"-artifact_prefix={tempfile.gettempdir()}/uti-fuzz-{target}-", "-seed=1"]
        scratch = tempfile.mkdtemp(prefix=f"uti-fuzz-{target}-")
        try:
            return run(target, arguments, [scratch] + inputs, os.path.join(logs, target + ".log"))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    # A target is one process on one core: as many run at once as there are cores (--jobs), the longest
    # first (SECONDS: their times on a two-core machine), each reported when it ends.
    failed = []
    order = sorted(options.targets, key=lambda target: -SECONDS.get(target, 0))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        futures = {pool.submit(one, target): target for target in order}
        for future in concurrent.futures.as_completed(futures):
            target = futures[future]
            code, executions, elapsed, rss, output = future.result()
            status = "ok" if code == 0 else f"FAILED (exit {code})"
            print(f"{target}: {executions:,} executions in {elapsed:.0f} s, peak RSS {rss} MB: {status}", flush=True)
            if code != 0:
                failed.append(target)
                print("\n".join(output.splitlines()[-40:]), file=sys.stderr)
    shutil.rmtree(seeds, ignore_errors=True)
    if failed:
        sys.exit(f"run.py: {', '.join(failed)} failed; the input that did it is named above")


if __name__ == "__main__":
    main()
