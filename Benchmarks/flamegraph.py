#!/usr/bin/env python3
"""Where uti's time goes: a `perf` profile as a flame graph (SVG), folded stacks, and a table by category.

    perf record -e cpu-clock -F 499 --call-graph dwarf,16384 -o perf.data -- uti classify --format ndjson /usr/share
    python3 Benchmarks/flamegraph.py perf.data --svg docs/images/flame-classify.svg [--title T] [--folded OUT]

Reads `perf script` of the recording (Debian's linux-perf; hardware counters are not needed: `cpu-clock`
works in a virtual machine), demangles Swift symbols with `swift demangle --simplified`, folds each sample's
stack root first, and writes:

* the SVG: one box per function per stack, as wide as its share of the samples, callers below callees
  (Brendan Gregg's flame graph layout, drawn here), each box's title giving its samples and share;
* with --folded, the folded stacks (`frame;frame;... count`), the input other flame-graph tools read;
* on standard output, a table of the samples by category, each sample counted once, in the first category of
  this order that one of its frames matches: libmagic, freedesktop magic, text analysis, output (JSON/NDJSON/
  CSV rendering and writing), allocation (malloc, free, retain/release, swift_allocObject), thread hand-offs
  (futex, condition variables, dispatch), system calls (the kernel and glibc's wrappers), start-up (the
  dynamic loader, Swift's runtime initialization), and the rest of uti's own code.
"""
import argparse
import collections
import html
import os
import re
import shutil
import subprocess
import sys

# (category, pattern over a demangled frame "function (library)"), matched in this order.
CATEGORIES = [
    ("libmagic", re.compile(r"\(.*libmagic\.so|\bmagic_(buffer|descriptor|file|load|open)\b|Magic\.mimeType")),
    ("freedesktop magic", re.compile(r"SharedMIMEInfo|FreedesktopMagic|MagicRule|GlobIndex")),
    ("text analysis", re.compile(r"TextAnalysis|Languages\.|linguistChoice|textLanguage|Regex|_StringProcessing")),
    ("output", re.compile(r"JSONValue|IdentificationReport|ClassifyOutput|StandardOutput|rendered|NDJSON|CSV|escaped")),
    ("allocation", re.compile(r"\bmalloc\b|\bfree\b|_int_malloc|_int_free|cfree|realloc|swift_allocObject|swift_release|swift_retain|swift_bridgeObject|swift_deallocClassInstance|swift_arrayInitWith|_ContiguousArrayBuffer|__StringStorage\.create")),
    ("thread hand-offs", re.compile(r"futex|pthread_cond|pthread_mutex|__lll_lock|dispatch_|_dispatch|swift_task_|swift_job|Synchronization\.Mutex|os_unfair")),
    ("system calls", re.compile(r"\[kernel\.kallsyms\]|entry_SYSCALL|__libc_(open|read|close|pread)|\b(openat|fstatat|newfstatat|getdents|read|pread64|close|statx|lstat|fstat)\b")),
    ("start-up", re.compile(r"ld-linux|_dl_|swift::runtime::environment|swift_once|__libc_start|dl_main|swift::threading")),
]


def read_samples(data):
    """[(stack root first as ["function (library)", ...], 1)] from `perf script`."""
    proc = subprocess.run(["perf", "script", "-i", data, "--no-inline", "-F", "comm,tid,time,event,ip,sym,dso"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, errors="replace")
    if proc.returncode != 0:
        sys.exit(f"flamegraph: perf script -i {data} failed")
    samples, frames = [], []
    for line in proc.stdout.split("\n"):
        if not line.strip():
            if frames:
                samples.append(list(reversed(frames)))
                frames = []
            continue
        if line.startswith("\t") or line.startswith(" "):
            match = re.match(r"\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$", line)
            if match:
                symbol, library = match.group(1), os.path.basename(match.group(2))
                frames.append(f"{symbol} ({library})")
    if frames:
        samples.append(list(reversed(frames)))
    return samples


def demangled(samples):
    """The samples with Swift's mangled names made readable (swift demangle --simplified, one call)."""
    swift_demangle = shutil.which("swift-demangle") or ("/opt/swift/usr/bin/swift-demangle" if os.path.exists("/opt/swift/usr/bin/swift-demangle") else None)
    names = sorted({frame for stack in samples for frame in stack})
    if swift_demangle is None:
        return samples
    proc = subprocess.run([swift_demangle, "--simplified"], input="\n".join(names) + "\n", stdout=subprocess.PIPE, text=True)
    out = proc.stdout.split("\n")
    mapping = {name: out[i] for i, name in enumerate(names) if i < len(out) and out[i]}
    return [[mapping.get(frame, frame) for frame in stack] for stack in samples]


def shortened(frame):
    """A frame as a box shows it: generic arguments and long parameter lists cut."""
    text = re.sub(r"<[^<>]*>", "", frame)
    text = re.sub(r"<[^<>]*>", "", text)
    if len(text) > 160:
        text = text[:157] + "..."
    return text


def category(stack):
    for name, pattern in CATEGORIES:
        if any(pattern.search(frame) for frame in stack):
            return name
    return "uti's own code"


def fold(samples):
    counts = collections.Counter(";".join(shortened(f).replace(";", ",") for f in stack) for stack in samples)
    return counts


def svg(folded, title, width=1200, row=16):
    """A flame graph of `folded` ({"a;b;c": count}) as SVG text."""
    root = {"children": {}, "count": 0}
    for stack, count in folded.items():
        node = root
        node["count"] += count
        for frame in stack.split(";"):
            node = node["children"].setdefault(frame, {"children": {}, "count": 0})
            node["count"] += count
    total = root["count"] or 1
    boxes = []
    depth_max = [0]

    def walk(node, x, depth):
        for name, child in sorted(node["children"].items()):
            w = child["count"] / total * (width - 20)
            if w >= 0.3:
                boxes.append((x, depth, w, name, child["count"]))
                depth_max[0] = max(depth_max[0], depth)
                walk(child, x, depth + 1)
            x += w
    walk(root, 10.0, 0)
    height = (depth_max[0] + 1) * row + 60
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="11">',
           f'<rect width="100%" height="100%" fill="#fafafa"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{html.escape(title)}</text>']
    for x, depth, w, name, count in boxes:
        y = height - 20 - (depth + 1) * row
        hue = (hash(name.split(" (")[-1]) % 60) + 10
        share = count / total * 100
        label = html.escape(name)
        out.append(f'<g><title>{label}: {count} samples, {share:.1f}%</title>'
                   f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row - 1}" fill="hsl({hue},80%,62%)" rx="1"/>')
        chars = int(w / 6.6)
        if chars >= 4:
            text = name if len(name) <= chars else name[:chars - 2] + ".."
            out.append(f'<text x="{x + 3:.1f}" y="{y + row - 4}">{html.escape(text)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="perf.data of `perf record --call-graph dwarf`")
    parser.add_argument("--svg", help="where to write the flame graph")
    parser.add_argument("--folded", help="where to write the folded stacks")
    parser.add_argument("--title", default="uti")
    args = parser.parse_args()
    samples = demangled(read_samples(args.data))
    if not samples:
        sys.exit("flamegraph: no samples")
    tally = collections.Counter(category(stack) for stack in samples)
    print(f"{len(samples)} samples")
    print("| where | samples | share |")
    print("|---|---|---|")
    for name, count in tally.most_common():
        print(f"| {name} | {count} | {count / len(samples) * 100:.1f}% |")
    folded = fold(samples)
    if args.folded:
        with open(args.folded, "w", encoding="utf-8") as f:
            for stack, count in sorted(folded.items()):
                f.write(f"{stack} {count}\n")
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(svg(folded, args.title))
    return 0


if __name__ == "__main__":
    sys.exit(main())
