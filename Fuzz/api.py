#!/usr/bin/env python3
"""Property-based fuzzing of the HTTP API: schemathesis, from the OpenAPI document, against a live uti-server.

    python3 Fuzz/api.py [--max-time 60] [--seed 1] [--server PATH] [--uti PATH] [--schemathesis PATH]

Starts `uti-server` on a free loopback port with routing on (a token file and a fresh registry root holding one
registered app, com.example.viewer, which opens images), then runs `schemathesis run openapi.json` with every
check it has: no 5xx, every status code, content type, header and body as the document says, schema-valid
requests accepted and schema-invalid ones refused. Fails if schemathesis finds anything, or if the server died.
The server's log is kept in the scratch directory it prints.

schemathesis comes from PyPI (`pip install schemathesis`); by default the one in .build-python/ (made by .ci/run).
The binaries default to the debug build (`swift build`).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VIEWER = """<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
  <key>CFBundleIdentifier</key><string>com.example.viewer</string>
  <key>CFBundleName</key><string>Viewer</string>
  <key>CFBundleDocumentTypes</key><array><dict>
    <key>CFBundleTypeName</key><string>Image</string>
    <key>CFBundleTypeRole</key><string>Viewer</string>
    <key>LSItemContentTypes</key><array><string>public.image</string></array>
  </dict></array>
</dict></plist>
"""


def binary(given, product):
    if given:
        return given
    path = os.path.join(ROOT, ".build", "debug", product)
    if not os.access(path, os.X_OK):
        subprocess.run(["swift", "build", "--product", product], cwd=ROOT, check=True)
    return path


class Streamed:
    """A finished command's exit status and everything it printed."""
    def __init__(self, returncode, output):
        self.returncode = returncode
        self.output = output


def run_streamed(command, cwd):
    """Runs `command`, copying what it prints to standard output as it comes, and keeps a copy."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    lines = []
    for line in process.stdout:
        sys.stdout.write(line)
        lines.append(line)
    sys.stdout.flush()
    return Streamed(process.wait(), "".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-time", type=int, default=60, help="seconds schemathesis may spend (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="schemathesis's seed (default 1: the same run each time)")
    parser.add_argument("--server", help="the uti-server binary")
    parser.add_argument("--uti", help="the uti binary (registers the app)")
    parser.add_argument("--schemathesis", default=os.path.join(ROOT, ".build-python", "bin", "schemathesis"))
    options = parser.parse_args()
    if not os.access(options.schemathesis, os.X_OK):
        sys.exit(f"api.py: no schemathesis at {options.schemathesis} (pip install schemathesis)")
    server, uti = binary(options.server, "uti-server"), binary(options.uti, "uti")

    scratch = tempfile.mkdtemp(prefix="uti-api-fuzz-")
    registry = os.path.join(scratch, "root")
    app = os.path.join(scratch, "Viewer.app")
    os.makedirs(app)
    with open(os.path.join(app, "Info.plist"), "w") as handle:
        handle.write(VIEWER)
    subprocess.run([uti, "apps", "register", "--root", registry, app], check=True, stdout=subprocess.DEVNULL)
    token = "api-fuzz-" + os.urandom(12).hex()
    token_file = os.path.join(scratch, "token")
    with open(os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as handle:
        handle.write(token + "\n")

    log = open(os.path.join(scratch, "server.log"), "w")
    process = subprocess.Popen([server, "--port", "0", "--routing", "--token-file", token_file, "--root", registry],
                               stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    match = re.search(r":(\d+)\s*$", line)
    if not match:
        process.kill()
        sys.exit(f"api.py: the server did not start ({line!r}); its log: {log.name}")
    base = f"http://127.0.0.1:{match.group(1)}"
    print(f"api.py: uti-server at {base}, scratch {scratch}", flush=True)
    # One worker: schemathesis's workers are threads, and CPython 3.11 keeps ast.parse's recursion depth per
    # interpreter, not per thread, so two threads describing hypothesis strategies at once (which parses source)
    # crash the fuzzer itself ("SystemError: AST constructor recursion depth mismatch", CPython gh-106905; or a
    # KeyError from hypothesis's source cache). Seen twice in CI with --workers 2; a crash of the fuzzer is no
    # finding about the server, and one worker has none.
    command = [options.schemathesis, "--config-file", os.path.join(ROOT, "Fuzz", "schemathesis.toml"), "run", os.path.join(ROOT, "openapi.json"), "--url", base,
               "--checks", "all", "--header", f"Authorization: Bearer {token}",
               "--max-time", str(options.max_time), "--workers", "1", "--seed", str(options.seed),
               "--suppress-health-check", "too_slow,filter_too_much", "--no-color"]
    try:
        result = run_streamed(command, cwd=scratch)
    finally:
        alive = process.poll() is None
        process.terminate()
        process.wait()
    if not alive:
        sys.exit(f"api.py: the server died during the run (exit {process.returncode}); its log: {log.name}")
    if result.returncode != 0:
        sys.exit(f"api.py: schemathesis found failures (exit {result.returncode}); the server's log: {log.name}")
    shutil.rmtree(scratch, ignore_errors=True)
    print("api.py: no failures", flush=True)


if __name__ == "__main__":
    main()
