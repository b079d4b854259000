#!/usr/bin/env python3
"""Side-by-side cost of one command: `uti` against `file --mime-type` on the same small files.

Pairs: `uti info public.jpeg` and `uti identify F` against `file --mime-type F`, for a small PNG, a
small text file, an ELF executable, a small PDF and a small ZIP (Word) document. Each pair runs
alternately in this process, N times each, on the same machine state, so the ratios are fair
whatever the machine's speed. Reports median and mean wall time, peak RSS (GNU time's %M), and the
ratio of the medians.

    python3 Benchmarks/startup.py [--runs 300] [--uti PATH] [--compare OTHER_UTI]

With --compare, another uti binary (an earlier build, say) runs in the same alternation, and its medians and
the ratio of the two uti builds are printed beside (ratio < 1: this build is faster).

Without --uti it builds and measures the binary users run: `swift build -c release --product uti`, the
README's build and what the packages hold (Package.swift links the Swift and C++ runtimes into it).
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
    parser.add_argument("--uti", help="the uti binary (default: build the release binary, as the README does)")
    parser.add_argument("--compare", help="another uti binary to run in the same alternation")
    args = parser.parse_args()

    uti = args.uti
    if not uti:
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        uti = os.path.join(ROOT, ".build", "release", "uti")

    scratch = tempfile.mkdtemp(prefix="uti-startup-")
    samples = {
        "png": bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                             "0000000d4944415478da63f8ffff3f0005fe02fea7d6a4c50000000049454e44ae426082"),
        "txt": b"hello, world\n",
        "pdf": b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
               b"trailer<</Root 1 0 R>>\n%%EOF\n",
        "docx": make_docx(),
    }
    files = {}
    for extension, data in samples.items():
        files[extension] = os.path.join(scratch, "small." + extension)
        with open(files[extension], "wb") as handle:
            handle.write(data)
    files["elf"] = shutil.which("ls")

    pairs = [(f"uti info public.jpeg | file --mime-type small.png", [uti, "info", "public.jpeg"], ["file", "--mime-type", files["png"]])]
    for kind in ["png", "txt", "elf", "pdf", "docx"]:
        pairs.append((f"identify {kind}", [uti, "identify", files[kind]], ["file", "--mime-type", files[kind]]))

    other = args.compare
    header = f"{'pair (uti | file)':52} {'uti ms':>8} {'file ms':>8} {'ratio':>6} {'uti RSS MiB':>12} {'file RSS MiB':>13}"
    if other:
        header += f" {'other ms':>9} {'uti/other':>9} {'other RSS':>10}"
    print(header)
    for label, left, right in pairs:
        commands = [left, right] + ([[other] + left[1:]] if other else [])
        for _ in range(5):  # warm the page cache
            for command in commands:
                run_once(command)
        times = [[] for _ in commands]
        for _ in range(args.runs):
            for index, command in enumerate(commands):
                times[index].append(run_once(command))
        rss = [max((peak_rss_kib(command) or 0) for _ in range(3)) / 1024 for command in commands]
        medians = [statistics.median(t) for t in times]
        line = (f"{label:52} {medians[0] * 1000:8.2f} {medians[1] * 1000:8.2f} {medians[0] / medians[1]:6.2f}"
                f" {rss[0]:12.1f} {rss[1]:13.1f}")
        if other:
            line += f" {medians[2] * 1000:9.2f} {medians[0] / medians[2]:9.2f} {rss[2]:10.1f}"
        print(line)
    print(f"({args.runs} alternating runs per pair; medians; ratio = uti / file)")
    shutil.rmtree(scratch)


def make_docx():
    """A minimal Word document: a ZIP with [Content_Types].xml and word/document.xml."""
    import io
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        archive.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>')
    return buffer.getvalue()


if __name__ == "__main__":
    main()
