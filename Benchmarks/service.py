#!/usr/bin/env python3
"""The service under load, beside one process per file, in one run.

    python3 Benchmarks/service.py [--duration 10] [--connections 16] [--uploads 256] [--upload-mib 100]
                                  [--server PATH] [--uti PATH]
    python3 Benchmarks/service.py --bare auto --bare-only [--runs 3] [--server PATH]

1. `wrk` (Debian's package) on loopback against `PUT /identify` of a 4 KiB PNG and of a 2 MiB Word document
   (both made here): requests/s, p50 and p99 latency, and any answer that was not 200.
2. The same two files through `uti identify --mime`, one process per file, and through `file --mime-type`, one
   process per file: files/s with one process at a time (a script that runs the command per file) and with as many
   at once as the machine has cores.
3. `--uploads` uploads of `--upload-mib` MiB each, all at once, against a fresh server whose `--spool-budget` holds
   them all (25 GiB of temporary files by default: the disk must have room): the server's peak RSS
   (VmHWM) while it takes them, and whether every one was answered 200.
4. A held registry lock: a server with routing on (`--lock-timeout 600`), `flock(1)` holding its registry lock, 8
   `POST /route` requests waiting on it; meanwhile wrk on `GET /healthz` and on `PUT /identify` of the PNG: p50
   and p99. Then the lock is released and every route must be answered 201. (`--lock-only`: only this part.)
5. `--against OTHER`: only the PNG row of part 1, for this server and for OTHER (an earlier build of uti-server),
   alternating, three runs each (`--runs`) on fresh servers; the medians and their ratio. How a change to the server is
   measured against the server before it.
6. Magika's model (`--model-packages DIR`, a site-packages holding Python's magika and onnxruntime; default: the
   repository's .build-python when it has them): a Tika client's usual request, `PUT /detect/stream` of a nameless
   Python source, with wrk, while a prober asks `GET /healthz` every 20 ms on a connection of its own (a
   prober, not a second load: it takes no CPU from the requests it measures): requests/s, p50 and p99 of the
   requests, p50, p99 and max of /healthz, for a server with the model and one with `UTI_MAGIKA=off`; with
   `--against`, for OTHER too. (`--model-only`: only this part.)
7. `--bare BINARY`: the PNG row of part 1 for this server and for Benchmarks/BareRoute, a bare Hummingbird route that
   reads the same body and answers a constant (`--bare auto`: build it, `swift build -c release --product BareRoute`
   in Benchmarks/, and use Benchmarks/.build/release/BareRoute): `--runs` rounds (default 3) on fresh servers, which
   of the two goes first alternating from round to round; requests/s of each round, the medians, and the ratio
   this server / the bare route per round with its median, min and max. What identifying costs over what
   Hummingbird costs with nothing of ours. (`--bare-only`: only this part, e.g.
   `python3 Benchmarks/service.py --server .build/release/uti-server --bare auto --bare-only --runs 5`.)
8. `curl -T`, as the README and Tika's users send an upload: the PNG through curl, a process per request, 40 times
   each with curl's `Expect: 100-continue` and without it (`-H 'Expect:'`), alternating, on one server: the median
   milliseconds of each (curl waits a second for a `100 Continue` a server does not send). (`--curl-only`: only
   this part.)

9. `--instructions N`: the instructions a `PUT /identify` of the PNG costs, for this server and for the binaries
   `--bare` and `--against` name: each under valgrind's callgrind (a copy stripped of its debug information,
   which valgrind 3.19 cannot read; a binary with Swift's runtime linked in statically, as uti-server is: build
   BareRoute with `swift build -c release --static-swift-stdlib --product BareRoute`), collection off during
   start-up and 200 warm-up requests, on for N requests sent one at a time on four keep-alive connections taking
   turns; instructions per request, every thread's. Counts, not seconds: the same binary gives the same count to
   a few thousand whatever else the machine does (the event loops' wake-ups vary), so a change of a few per cent
   shows where wrk's rounds cannot tell it. (`--instructions-only`: only this part.)

Without --server and --uti it builds them: the release server (`swift build -c release --product uti-server`) and
the fully static uti of Benchmarks/startup.py (the fastest a process per file can be). Everything runs on this
machine: wrk, the uploaders and the server share its cores.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def make_png(path, size=4096):
    """A valid PNG of about `size` bytes: a noisy greyscale image, so that compression keeps it that big."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    width = height = 64
    seed = 12345
    rows = bytearray()
    for _ in range(height):
        rows.append(0)
        for _ in range(width):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            rows.append(seed >> 23)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    padding = size - len(data) - 12 - 12
    if padding > 0:
        data += chunk(b"tEXt", b"Comment\x00" + b"x" * (padding - 8))
    data += chunk(b"IEND", b"")
    with open(path, "wb") as handle:
        handle.write(data)


def make_docx(path, size=2 << 20):
    """A Word document of about `size` bytes: the parts Word writes, and a stored picture that makes up the size."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                         '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
                         compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
                         compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                         '<w:body><w:p><w:r><w:t>Benchmark</w:t></w:r></w:p></w:body></w:document>', compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("word/media/image1.bin", os.urandom(size - 1500), compress_type=zipfile.ZIP_STORED)


def build(product, extra=(), package=ROOT):
    subprocess.run(["swift", "build", "-c", "release", "--product", product, *extra], cwd=package, check=True)


def start_server(binary, *arguments):
    process = subprocess.Popen([binary, "--port", "0", *arguments], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r":(\d+)\s*$", line)
    if not match:
        process.kill()
        sys.exit(f"service.py: the server said {line!r}")
    return process, int(match.group(1))


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def milliseconds(text):
    value = float(re.match(r"[\d.]+", text).group())
    return value / 1000 if text.endswith("us") else value * 1000 if text.endswith("s") and not text.endswith("ms") else value


def parse_wrk(output):
    """requests/s, p50 ms, p99 ms, answers that were not 200, requests, from wrk --latency's output."""
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p50 = milliseconds(re.search(r"^\s+50%\s+(\S+)", output, re.M).group(1))
    p99 = milliseconds(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, p50, p99, int(bad.group(1)) if bad else 0, requests


def wrk(port, path, name, connections, duration):
    """requests/s, p50 ms, p99 ms, answers that were not 200, requests."""
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('local f = io.open("%s", "rb")\nwrk.method = "PUT"\nwrk.body = f:read("*a")\nf:close()\n'
                 'wrk.headers["Content-Type"] = "application/octet-stream"\n' % path)
    script.close()
    result = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "-s", script.name,
                             f"http://127.0.0.1:{port}/identify?name={name}"], capture_output=True, text=True, check=True)
    os.unlink(script.name)
    return parse_wrk(result.stdout)


def wrk_get(port, path, connections, duration):
    """requests/s, p50 ms, p99 ms, answers that were not 200, requests, for GET `path`."""
    result = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", f"http://127.0.0.1:{port}{path}"],
                            capture_output=True, text=True, check=True)
    return parse_wrk(result.stdout)


def wrk_put(port, path, url_path, connections, duration):
    """requests/s, p50 ms, p99 ms, answers that were not 200, requests, for PUT of the file at `path` to `url_path`."""
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('local f = io.open("%s", "rb")\nwrk.method = "PUT"\nwrk.body = f:read("*a")\nf:close()\n' % path)
    script.close()
    result = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "-s", script.name,
                             f"http://127.0.0.1:{port}{url_path}"], capture_output=True, text=True, check=True)
    os.unlink(script.name)
    return parse_wrk(result.stdout)


NAMELESS_PYTHON = ("import os\nimport sys\n\n\ndef main(arguments):\n    for argument in arguments:\n"
                   "        print(os.path.basename(argument))\n    return 0\n\n\n" * 4
                   + "if __name__ == \"__main__\":\n    sys.exit(main(sys.argv[1:]))\n")


def model_packages(option):
    """The site-packages directory holding magika and onnxruntime: the option, else .build-python's."""
    if option:
        return option
    lib = os.path.join(ROOT, ".build-python", "lib")
    for version in sorted(os.listdir(lib)) if os.path.isdir(lib) else []:
        site = os.path.join(lib, version, "site-packages")
        if os.path.isdir(os.path.join(site, "magika", "models")) and os.path.isdir(os.path.join(site, "onnxruntime", "capi")):
            return site
    return None


def probe_health(port, stop, latencies, interval=0.02):
    """GET /healthz every `interval` seconds on a connection of its own until `stop` is set: each answer's
    latency in ms. A prober, not a load: it takes next to no CPU from what it measures."""
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port)) as connection:
        while not stop.is_set():
            started = time.perf_counter()
            connection.sendall(request)
            answer = b""
            while not answer.endswith(b"ok\n"):
                chunk = connection.recv(4096)
                if not chunk:
                    return
                answer += chunk
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(interval)


def under_model(binary, packages, model, text, connections, duration):
    """Part 6 for one server: the detect row, and /healthz's latencies meanwhile (p50, p99, max), model on or off."""
    environment = dict(os.environ, PYTHONPATH=packages, UTI_MAGIKA="" if model else "off")
    process = subprocess.Popen([binary, "--port", "0"] + (["--model"] if model else []), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment)
    port = int(re.search(r":(\d+)\s*$", process.stdout.readline()).group(1))
    try:
        check = subprocess.run(["curl", "-s", "-T", text, f"http://127.0.0.1:{port}/detect/stream"], capture_output=True, text=True)
        answer = check.stdout.strip()
        wrk_put(port, text, "/detect/stream", connections, 2)  # warm-up
        stop, latencies = threading.Event(), []
        prober = threading.Thread(target=probe_health, args=(port, stop, latencies))
        prober.start()
        detect = wrk_put(port, text, "/detect/stream", connections, duration)
        stop.set()
        prober.join()
    finally:
        process.terminate()
        process.wait()
    latencies.sort()
    health = (latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], latencies[-1], len(latencies))
    return detect, health, answer


def report_model(server, options):
    packages = model_packages(options.model_packages)
    if not packages:
        print("Magika's model: not measured (no site-packages with magika and onnxruntime; pip install magika onnxruntime)")
        return
    work = tempfile.mkdtemp(prefix="uti-service-model-")
    text = os.path.join(work, "tool")
    with open(text, "w") as f:
        f.write(NAMELESS_PYTHON)
    servers = [server] + ([options.against] if options.against else [])
    print(f"\n| server | model | PUT /detect/stream (nameless {os.path.getsize(text)} B Python) requests/s | p50 | p99 "
          f"| meanwhile GET /healthz (every 20 ms) p50 | p99 | max | answer |")
    print("|---|---|---|---|---|---|---|---|---|")
    for binary in servers:
        for model in (True, False):
            detect, health, answer = under_model(binary, packages, model, text, options.connections, options.duration)
            print(f"| `{binary}` | {'on' if model else 'off'} | {detect[0]:,.0f} | {detect[1]:.2f} ms | {detect[2]:.2f} ms "
                  f"| {health[0]:.2f} ms | {health[1]:.2f} ms | {health[2]:.2f} ms | {answer} |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


def held_lock(server, uti, png, connections, duration):
    """Part 4: /healthz and /identify while routes wait on a registry lock another process holds."""
    work = tempfile.mkdtemp(prefix="uti-service-lock-")
    root = os.path.join(work, "root")
    manifest = os.path.join(work, "Viewer.plist")
    with open(manifest, "w") as f:
        f.write('<plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.viewer</string>'
                '<key>CFBundleDocumentTypes</key><array><dict><key>LSItemContentTypes</key><array><string>public.image</string>'
                '</array></dict></array></dict></plist>')
    subprocess.run([uti, "apps", "register", "--root", root, manifest], check=True, stdout=subprocess.DEVNULL)
    token = "a-token-for-the-benchmark-0123456789"
    token_file = os.path.join(work, "token")
    with open(token_file, "w") as f:
        f.write(token + "\n")
    os.chmod(token_file, 0o600)
    lock_path = os.path.join(root, "registry.lock")
    holder = subprocess.Popen(["flock", "--exclusive", "--no-fork", lock_path, "sleep", "3600"])
    while subprocess.run(["flock", "--nonblock", "--shared", lock_path, "true"]).returncode == 0:
        time.sleep(0.01)
    process, port = start_server(server, "--routing", "--token-file", token_file, "--root", root, "--lock-timeout", "600")
    routes = [subprocess.Popen(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "--data-binary", "@" + png,
                                "-H", f"Authorization: Bearer {token}", f"http://127.0.0.1:{port}/route?name=photo{i}.png"],
                               stdout=subprocess.PIPE, text=True) for i in range(8)]
    try:
        time.sleep(1)
        waiting = sum(1 for route in routes if route.poll() is None)
        health = wrk_get(port, "/healthz", connections, duration)
        identify = wrk(port, png, "photo.png", connections, duration)
        still_waiting = sum(1 for route in routes if route.poll() is None)
    finally:
        holder.kill()
        holder.wait()
    answers = [route.communicate()[0] for route in routes]
    process.terminate()
    process.wait()
    shutil.rmtree(work, ignore_errors=True)
    return health, identify, waiting, still_waiting, answers


def alternating(binaries, png, options, runs, swap=False):
    """The PNG row of each of `binaries`, one after the other on a fresh server each, `runs` rounds (with `swap`,
    every other round in the reverse order); for each binary, its wrk results round by round."""
    results = [[] for _ in binaries]
    for run in range(runs):
        order = list(range(len(binaries)))
        if swap and run % 2:
            order.reverse()
        for index in order:
            process, port = start_server(binaries[index])
            try:
                wrk(port, png, "photo.png", options.connections, 2)  # warm-up
                results[index].append(wrk(port, png, "photo.png", options.connections, options.duration))
            finally:
                process.terminate()
                process.wait()
            rate, p50, p99, bad, requests = results[index][-1]
            print(f"run {run + 1}, {binaries[index]}: {rate:,.0f} requests/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms, {bad} not 200", flush=True)
    return results


def median_table(binaries, results):
    """The table of each binary's medians (requests/s, p50, p99); those medians."""
    print()
    print("| server | requests/s (median) | p50 | p99 |")
    print("|---|---|---|---|")
    medians = []
    for binary, rows in zip(binaries, results):
        medians.append([statistics.median(row[column] for row in rows) for column in range(3)])
        print(f"| `{binary}` | {medians[-1][0]:,.0f} | {medians[-1][1]:.2f} ms | {medians[-1][2]:.2f} ms |")
    return medians


def compare(server, other, png, options, runs=3):
    """Part 5: the PNG row of `server` and of `other`, alternating, `runs` each; the medians and their ratio."""
    medians = median_table([server, other], alternating([server, other], png, options, runs))
    print(f"\nthis server / the other: {medians[0][0] / medians[1][0]:.2f}x the requests/s")


def against_bare(server, bare, png, options, runs=3):
    """Part 7: the PNG row of `server` and of the bare Hummingbird route `bare`, `runs` rounds, which goes first
    alternating; requests/s round by round, the medians, and the ratio server / bare with its median, min and max."""
    results = alternating([server, bare], png, options, runs, swap=True)
    print()
    print("| round | first | uti-server requests/s | bare route requests/s | uti-server / bare |")
    print("|---|---|---|---|---|")
    ratios = []
    for run, (ours, theirs) in enumerate(zip(*results)):
        ratios.append(ours[0] / theirs[0])
        print(f"| {run + 1} | {'bare' if run % 2 else 'uti-server'} | {ours[0]:,.0f} | {theirs[0]:,.0f} | {ratios[-1]:.3f} |")
    medians = median_table([server, bare], results)
    print(f"\nuti-server / bare route, requests/s: median {statistics.median(ratios):.3f} (min {min(ratios):.3f}, "
          f"max {max(ratios):.3f}, {len(ratios)} rounds); ratio of the medians {medians[0][0] / medians[1][0]:.3f}")
    if any(row[3] for rows in results for row in rows):
        sys.exit("service.py: some requests were not answered 200")


def per_process(argv_for, files, count, parallel):
    """files/s identifying `count` files, one process each, `parallel` at once."""
    devnull = os.open(os.devnull, os.O_WRONLY)

    def one(index):
        argv = argv_for(files[index % len(files)])
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{' '.join(argv)} failed")

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
        list(pool.map(one, range(count)))
    elapsed = time.perf_counter() - started
    os.close(devnull)
    return count / elapsed


def upload(port, size, chunk, answers):
    try:
        connection = socket.create_connection(("127.0.0.1", port))
        connection.sendall(f"PUT /identify?name=big.bin HTTP/1.1\r\nHost: localhost\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n".encode())
        sent = 0
        while sent < size:
            piece = chunk[: min(len(chunk), size - sent)]
            connection.sendall(piece)
            sent += len(piece)
        received = b""
        while True:
            data = connection.recv(65536)
            if not data:
                break
            received += data
        connection.close()
        answers.append(received.split(b" ", 2)[1].decode() if received.startswith(b"HTTP/1.1 ") else "none")
    except OSError as error:
        answers.append(f"error {error.errno}")


def curl_uploads(server, png, runs=40):
    """Part 8: the median milliseconds of `curl -T` uploads with curl's Expect: 100-continue, and without it."""
    if not shutil.which("curl"):
        print("curl -T: skipped (no curl)")
        return
    scratch = None
    if not os.path.exists(png):
        scratch = tempfile.mkdtemp(prefix="uti-service-curl-")
        png = os.path.join(scratch, "photo.png")
        make_png(png)
    process, port = start_server(server)
    url = f"http://127.0.0.1:{port}/identify?name=photo.png"
    times = {"with Expect: 100-continue": [], "without (-H 'Expect:')": []}
    try:
        for _ in range(runs):
            for label, extra in [("with Expect: 100-continue", []), ("without (-H 'Expect:')", ["-H", "Expect:"])]:
                started = time.perf_counter()
                answer = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-T", png, url] + extra,
                                        capture_output=True, text=True, check=True).stdout
                times[label].append((time.perf_counter() - started) * 1000)
                if answer != "200":
                    sys.exit(f"service.py: curl -T answered {answer}")
    finally:
        process.terminate()
        process.wait()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    print("curl -T of the PNG, a process per request, " + ", ".join(
        f"{label}: median {statistics.median(values):.1f} ms (min {min(values):.1f}, max {max(values):.1f}) of {runs}"
        for label, values in times.items()), flush=True)


def instructions(binaries, png, requests):
    """Part 9: instructions per `PUT /identify` of the PNG for each of `binaries`, under callgrind."""
    import http.client
    if not shutil.which("valgrind") or not shutil.which("callgrind_control"):
        sys.exit("service.py: --instructions needs valgrind (apt-get install -y valgrind)")
    body = open(png, "rb").read()
    work = tempfile.mkdtemp(prefix="uti-service-callgrind-")
    print("\n| server | requests | instructions | per request |")
    print("|---|---|---|---|")
    for binary in binaries:
        stripped = os.path.join(work, os.path.basename(binary) + ".stripped")
        subprocess.run(["strip", "-g", "-o", stripped, binary], check=True)
        out = os.path.join(work, os.path.basename(binary) + ".callgrind")
        process = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                                    stripped, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        match = re.search(r":(\d+)\s*$", process.stdout.readline())
        if not match:
            process.kill()
            sys.exit(f"service.py: {binary} did not start under valgrind")
        connections = [http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=60) for _ in range(4)]

        def send(index):
            connection = connections[index % 4]
            connection.request("PUT", "/identify?name=photo.png", body=body, headers={"Content-Type": "application/octet-stream"})
            answer = connection.getresponse()
            answer.read()
            if answer.status != 200:
                sys.exit(f"service.py: {binary} answered {answer.status}")
        try:
            for index in range(200):
                send(index)
            subprocess.run(["callgrind_control", "-i", "on", str(process.pid)], check=True, capture_output=True)
            for index in range(requests):
                send(index)
            subprocess.run(["callgrind_control", "-i", "off", str(process.pid)], check=True, capture_output=True)
            subprocess.run(["callgrind_control", "-d", str(process.pid)], check=True, capture_output=True)
        finally:
            for connection in connections:
                connection.close()
            process.terminate()
            process.wait()
        total = 0
        for name in os.listdir(work):
            if name.startswith(os.path.basename(out)):
                with open(os.path.join(work, name), errors="replace") as dump:
                    total += next((int(line.split()[1]) for line in dump if line.startswith("totals:")), 0)
        print(f"| `{binary}` | {requests:,} | {total:,} | {total / requests:,.0f} |", flush=True)
    shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=10, help="seconds of each wrk run")
    parser.add_argument("--connections", type=int, default=16, help="wrk's connections")
    parser.add_argument("--processes", type=int, default=1000, help="files identified one process each")
    parser.add_argument("--uploads", type=int, default=256)
    parser.add_argument("--upload-mib", type=int, default=100)
    parser.add_argument("--uploads-only", action="store_true", help="only part 3")
    parser.add_argument("--lock-only", action="store_true", help="only part 4")
    parser.add_argument("--model-only", action="store_true", help="only part 6")
    parser.add_argument("--model-packages", metavar="DIR", help="part 6: the site-packages holding magika and onnxruntime")
    parser.add_argument("--against", metavar="SERVER", help="only part 5: the PNG row, alternating with this other uti-server "
                        "binary (an earlier build), three runs each; the medians and their ratio")
    parser.add_argument("--runs", type=int, default=3, help="with --against or --bare: runs of each server (default 3)")
    parser.add_argument("--bare", metavar="BINARY", help="part 7: the bare Hummingbird route to measure this server against "
                        "(`auto`: build Benchmarks' BareRoute and use it)")
    parser.add_argument("--bare-only", action="store_true", help="only part 7 (with --bare auto unless --bare says otherwise)")
    parser.add_argument("--curl-only", action="store_true", help="only part 8")
    parser.add_argument("--instructions", type=int, metavar="N", help="part 9: instructions per request under callgrind, "
                        "N requests, for this server and the --bare and --against binaries")
    parser.add_argument("--instructions-only", action="store_true", help="only part 9")
    parser.add_argument("--server", help="the uti-server binary (default: build the release one)")
    parser.add_argument("--uti", help="the uti binary for one process per file (default: build the static one)")
    options = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("service.py: needs wrk (apt-get install -y wrk)")
    server = options.server
    if not server:
        build("uti-server")
        server = os.path.join(ROOT, ".build", "release", "uti-server")
    bare = options.bare or ("auto" if options.bare_only else None)
    if bare == "auto":
        build("BareRoute", package=os.path.join(ROOT, "Benchmarks"))
        bare = os.path.join(ROOT, "Benchmarks", ".build", "release", "BareRoute")
    uti = options.uti
    if not uti and not (options.model_only or options.against or options.bare_only or options.curl_only or options.instructions_only):
        build("uti", ["--scratch-path", ".build-static", "-Xswiftc", "-static-executable",
                      "-Xlinker", "-llzma", "-Xlinker", "-lbz2", "-Xlinker", "-lz"])
        uti = os.path.join(ROOT, ".build-static", "release", "uti")

    work = tempfile.mkdtemp(prefix="uti-service-bench-")
    png, docx = os.path.join(work, "photo.png"), os.path.join(work, "report.docx")
    make_png(png)
    make_docx(docx)
    print(f"files: {os.path.getsize(png)} B PNG, {os.path.getsize(docx)} B DOCX; {os.cpu_count()} cores; "
          f"wrk -t1 -c{options.connections} -d{options.duration}s", flush=True)

    if options.instructions_only:
        instructions([server] + [binary for binary in (bare, options.against) if binary], png, options.instructions or 2000)
        shutil.rmtree(work, ignore_errors=True)
        return

    if options.curl_only:
        curl_uploads(server, png)
        shutil.rmtree(work, ignore_errors=True)
        return

    if options.model_only:
        report_model(server, options)
        shutil.rmtree(work, ignore_errors=True)
        return

    if options.bare_only:
        against_bare(server, bare, png, options, runs=options.runs)
        shutil.rmtree(work, ignore_errors=True)
        return

    if options.against:
        compare(server, options.against, png, options, runs=options.runs)
        shutil.rmtree(work, ignore_errors=True)
        return

    if options.lock_only:
        report_held_lock(server, uti, png, options)
        shutil.rmtree(work, ignore_errors=True)
        return

    process, port = start_server(server)
    rows = []
    try:
        for path, name in [] if options.uploads_only else [(png, "photo.png"), (docx, "report.docx")]:
            wrk(port, path, name, options.connections, 2)  # warm-up
            rate, p50, p99, bad, requests = wrk(port, path, name, options.connections, options.duration)
            cores = os.cpu_count()
            per_uti = per_process(lambda f: [uti, "identify", "--mime", f], [path], options.processes, 1)
            per_uti_parallel = per_process(lambda f: [uti, "identify", "--mime", f], [path], options.processes, cores)
            per_file = per_process(lambda f: ["file", "--mime-type", f], [path], options.processes, 1)
            per_file_parallel = per_process(lambda f: ["file", "--mime-type", f], [path], options.processes, cores)
            rows.append((name, rate, p50, p99, bad, requests, per_uti, per_uti_parallel, per_file, per_file_parallel))
            print(f"{name}: {rate:,.0f} requests/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms, {bad} not 200 of {requests}; a process per file, "
                  f"one at a time / {cores} at a time: uti identify {per_uti:,.0f} / {per_uti_parallel:,.0f} files/s, "
                  f"file(1) {per_file:,.0f} / {per_file_parallel:,.0f} files/s", flush=True)
        idle_rss = peak_rss_mib(process.pid)
    finally:
        process.terminate()
        process.wait()

    # Uploads: a fresh server, so that its peak RSS is the uploads'.
    # A spool budget that holds them all (the default, 8 GiB, would answer the uploads past it 503, as it should).
    total_bytes = options.uploads * (options.upload_mib << 20)
    process, port = start_server(server, "--max-concurrent", str(max(256, options.uploads)),
                                 "--spool-budget", str(max(8 << 30, total_bytes + (1 << 30))))
    try:
        before = peak_rss_mib(process.pid)
        chunk = os.urandom(1 << 20)
        answers = []
        threads = [threading.Thread(target=upload, args=(port, options.upload_mib << 20, chunk, answers)) for _ in range(options.uploads)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        peak = peak_rss_mib(process.pid)
    finally:
        process.terminate()
        process.wait()
    shutil.rmtree(work, ignore_errors=True)
    ok = answers.count("200")
    total_gib = options.uploads * options.upload_mib / 1024
    print(f"uploads: {options.uploads} x {options.upload_mib} MiB at once ({total_gib:.1f} GiB) in {elapsed:.1f} s: {ok} answered 200; "
          f"server peak RSS {peak:.1f} MiB (at start {before:.1f} MiB; after the wrk runs {idle_rss:.1f} MiB)", flush=True)

    print()
    cores = os.cpu_count()
    print(f"| file | service requests/s | p50 | p99 | not 200 | `uti identify`, a process per file (1 / {cores} at a time) "
          f"| `file --mime-type`, a process per file (1 / {cores} at a time) | service / `uti identify` per file (1 / {cores}) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rate, p50, p99, bad, requests, per_uti, per_uti_parallel, per_file, per_file_parallel in rows:
        print(f"| {name} | {rate:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {bad} of {requests:,} | {per_uti:,.0f} / {per_uti_parallel:,.0f} files/s "
              f"| {per_file:,.0f} / {per_file_parallel:,.0f} files/s | {rate / per_uti:.1f}x / {rate / per_uti_parallel:.1f}x |")
    print(f"\n{options.uploads} uploads of {options.upload_mib} MiB at once: server peak RSS {peak:.1f} MiB, {ok} of {options.uploads} answered 200, {elapsed:.1f} s")
    if ok != options.uploads or any(row[4] for row in rows):
        sys.exit("service.py: some requests were not answered 200")
    if not options.uploads_only:
        report_held_lock(server, uti, png, options)
        report_model(server, options)
        curl_uploads(server, png)
    if bare:
        print()
        against_bare(server, bare, png, options, runs=options.runs)
    if options.instructions:
        instructions([server] + [binary for binary in (bare, options.against) if binary], png, options.instructions)


def report_held_lock(server, uti, png, options):
    if not shutil.which("flock"):
        print("held registry lock: not measured (no flock(1))")
        return
    health, identify, waiting, still_waiting, answers = held_lock(server, uti, png, options.connections, options.duration)
    print(f"\n| while 8 routes wait on a held registry lock | requests/s | p50 | p99 | not 200 |")
    print("|---|---|---|---|---|")
    for label, (rate, p50, p99, bad, requests) in [("GET /healthz", health), ("PUT /identify (PNG)", identify)]:
        print(f"| {label} | {rate:,.0f} | {p50:.2f} ms | {p99:.2f} ms | {bad} of {requests:,} |")
    print(f"routes waiting when measuring began / ended: {waiting} / {still_waiting} of 8; after the lock was released: "
          f"{answers.count('201')} answered 201")
    if answers.count("201") != len(answers) or health[3] or identify[3]:
        sys.exit("service.py: with the registry lock held, some requests were not answered as they should be")


if __name__ == "__main__":
    main()
