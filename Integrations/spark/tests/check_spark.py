#!/usr/bin/env python3
"""The Spark integration against single-machine `uti classify`, on a generated tree, in local mode and on a
standalone cluster (a master and two workers started here on 127.0.0.1, stopped afterwards).

    python3 Integrations/spark/tests/check_spark.py --uti PATH [--files 20000] [--no-cluster] [--expect-unreadable]

The tree holds files of many types, empty files, names with spaces and line breaks, names that are not UTF-8,
links among the root's own entries, and files nobody may read (mode 000:
unreadable unless the process may override file permissions; the test suite runs this without that
capability). For every input, the rows must be exactly the records of `uti classify --format ndjson --details`
of the same tree: the same paths, each once, each with the same identifier (or the same error). The content
input sees files, not directories: it is compared with the files' records.
Exit status 0 when everything matches; the differences are printed otherwise.
"""
import argparse
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
INTEGRATION = os.path.dirname(HERE)
sys.path.insert(0, INTEGRATION)

PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def docx_bytes():
    path = tempfile.mktemp(suffix=".docx")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                         '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        archive.writestr("word/document.xml", '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>')
    with open(path, "rb") as handle:
        data = handle.read()
    os.unlink(path)
    return data


def make_tree(root, count):
    """`count` files in 100 directories, of kinds in turn; returns how many are unreadable."""
    with open("/bin/true", "rb") as handle:
        elf = handle.read()
    kinds = [
        ("png", PNG), ("pdf", PDF), ("docx", docx_bytes()), ("txt", b"plain words, one line\n"),
        ("json", b'{"a": [1, 2, 3]}\n'), ("xml", b'<?xml version="1.0"?><root/>\n'), ("sh", b"#!/bin/sh\necho hi\n"),
        ("gz", gzip.compress(b"compressed words\n" * 20)), ("html", b"<!DOCTYPE html><html><body>x</body></html>\n"),
        ("bin", elf), ("empty", b""), ("jpg", b"not a jpeg at all, just words\n"), ("csv", b"a,b\n1,2\n"),
    ]
    unreadable = 0
    for index in range(count):
        directory = os.path.join(root, f"d{index % 100:03d}", f"s{index % 7}")
        os.makedirs(directory, exist_ok=True)
        extension, data = kinds[index % len(kinds)]
        name = f"f{index:06d}.{extension}" if extension != "empty" else f"f{index:06d}"
        if index % 997 == 5:
            name = f"caf\xe9-{index}.txt"                       # UTF-8 (Latin small e with acute)
        path = os.path.join(directory, name)
        if index % 1009 == 7:
            path = os.fsencode(directory) + b"/bad\xff\xfe-%d.txt" % index    # not UTF-8
        if index % 499 == 3:
            name = f"nl\n{index}.txt"                            # a line break in the name
            path = os.path.join(directory, name)
        if index % 251 == 9:
            name = f"with  spaces {index} .txt"                  # spaces, two together and one before the dot
            path = os.path.join(directory, name)
        with open(path, "wb") as handle:
            handle.write(data)
        if index % 733 == 11:
            os.chmod(path, 0)
            unreadable += 1
    # Links among the root's own entries, as /usr/lib/jvm has them (java-1.17.0-openjdk-amd64 -> java-17-...):
    # `uti classify` reports each as a link, never walks it; so must a partition given it.
    os.symlink("d000", os.path.join(root, "alias-of-d000"))
    os.symlink(os.path.join(root, "d001", "s1"), os.path.join(root, "absolute-link"))
    os.symlink("nowhere", os.path.join(root, "dangling"))
    return unreadable


def baseline(uti, root, archives=False):
    result = subprocess.run([uti, "classify", "--format", "ndjson", "--details"] + (["--archives"] if archives else []) + [root],
                            capture_output=True)
    if result.returncode not in (0, 1):
        sys.exit(f"uti classify failed ({result.returncode}): {result.stderr.decode(errors='replace')}")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    return records


def compare(label, rows, expected):
    """rows: (path, identifier, error) from Spark; expected: uti classify's records. True when they match."""
    paths = [row[0] for row in rows]
    problems = []
    if len(paths) != len(set(paths)):
        seen, duplicated = set(), set()
        for path in paths:
            (duplicated if path in seen else seen).add(path)
        problems.append(f"{len(duplicated)} paths more than once, e.g. {sorted(duplicated)[:3]}")
    got = {row[0]: (row[1], row[2] is not None) for row in rows}
    want = {record["path"]: (record["identifier"], record["error"] is not None) for record in expected}
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    differing = sorted(path for path in set(want) & set(got) if want[path] != got[path])
    if missing:
        problems.append(f"{len(missing)} missing, e.g. {[repr(p) for p in missing[:3]]}")
    if extra:
        problems.append(f"{len(extra)} not in uti classify, e.g. {[repr(p) for p in extra[:3]]}")
    if differing:
        problems.append(f"{len(differing)} differ, e.g. " + "; ".join(f"{p!r}: {got[p]} against {want[p]}" for p in differing[:3]))
    status = "ok" if not problems else "FAILED: " + "; ".join(problems)
    print(f"{label}: {len(rows)} rows against {len(expected)} records: {status}", flush=True)
    return not problems


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class StandaloneCluster:
    """A master and `workers` workers from pyspark's own spark-class, on 127.0.0.1."""

    def __init__(self, spark_home, scratch, workers=2):
        self.processes = []
        self.port = free_port()
        environment = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=scratch, SPARK_WORKER_DIR=os.path.join(scratch, "work"))
        spark_class = os.path.join(spark_home, "bin", "spark-class")
        self.log = open(os.path.join(scratch, "cluster.log"), "w")
        self.processes.append(subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(self.port),
             "--webui-port", str(free_port())], env=environment, stdout=self.log, stderr=subprocess.STDOUT))
        self.url = f"spark://127.0.0.1:{self.port}"
        for _ in range(workers):
            self.processes.append(subprocess.Popen(
                [spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
                 "--webui-port", str(free_port()), self.url], env=environment, stdout=self.log, stderr=subprocess.STDOUT))
        # Ready when both workers have registered (the master's log says so); bounded.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with open(self.log.name, errors="replace") as handle:
                if handle.read().count("Registering worker") >= workers:
                    return
            if any(process.poll() is not None for process in self.processes):
                break
            time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"the standalone cluster did not come up; its log: {self.log.name}")

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.processes = []


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uti", required=True, help="the uti binary")
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--no-cluster", action="store_true", help="local mode only")
    parser.add_argument("--expect-unreadable", action="store_true", help="fail unless the unreadable files could not be read")
    options = parser.parse_args()
    uti = os.path.abspath(options.uti)

    # The executors' Python workers import uti_spark from here too.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [INTEGRATION, os.environ.get("PYTHONPATH")]))
    import pyspark
    from pyspark.sql import SparkSession
    import uti_spark

    scratch = tempfile.mkdtemp(prefix="uti-spark-check-")
    root = os.path.join(scratch, "tree")
    os.makedirs(root)
    ok = True
    cluster = None
    try:
        unreadable = make_tree(root, options.files)
        expected = baseline(uti, root)
        errors = sum(1 for record in expected if record["error"])
        print(f"tree: {options.files} files in {root}; uti classify: {len(expected)} records, {errors} errors "
              f"({unreadable} files of mode 000)", flush=True)
        if options.expect_unreadable and errors < unreadable:
            print("FAILED: the files of mode 000 were readable (run without CAP_DAC_OVERRIDE)", flush=True)
            ok = False
        files_only = [r for r in expected if r["identifier"] not in ("public.folder", "public.symlink")]
        listing = [r["path"] for r in expected if not r.get("pathEscaped")]
        # Names that are not UTF-8, as the listing gives them: from the file system itself.
        for directory, _, names in os.walk(os.fsencode(root)):
            listing += [os.fsdecode(os.path.join(directory, name)) for name in names if not _utf8(name)]

        spark = (SparkSession.builder.master("local[2]").appName("uti check")
                 .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                 .config("spark.sql.shuffle.partitions", "4").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")

        def rows(frame):
            return [(r.path, r.identifier, r.error) for r in frame.select("path", "identifier", "error").collect()]

        ok &= compare("local, paths (roots)", rows(uti_spark.classify_roots(spark, [root], uti)), expected)
        ok &= compare("local, paths (listing)", rows(uti_spark.classify_paths(spark, listing, uti, partitions=8)), expected)
        # Archives' members as rows (each .gz holds one), equal to uti classify --archives.
        with_members = baseline(uti, root, archives=True)
        members = sum(1 for record in with_members if "#" in record["path"] and record.get("depth", 0) > 0)
        print(f"uti classify --archives: {len(with_members)} records, {members} of them members", flush=True)
        ok &= members > 0
        ok &= compare("local, paths (roots) with archives", rows(uti_spark.classify_roots(spark, [root], uti, archives=True)), with_members)
        ok &= compare("local, content", rows(uti_spark.read_content(spark, root, uti)), files_only)
        # A missing binary, and uti failing, are clear errors naming the partition.
        failing = os.path.join(scratch, "failing-uti")
        with open(failing, "w") as handle:
            handle.write("#!/bin/sh\ncat >/dev/null\necho 'uti: the disk is on fire' >&2\nexit 2\n")
        os.chmod(failing, 0o755)
        for label, binary, words in [("missing binary", "/nonexistent/uti", ["partition", "no uti binary"]),
                                     ("uti failing", failing, ["partition", "status 2", "the disk is on fire"])]:
            try:
                uti_spark.classify_paths(spark, listing[:10], binary, partitions=2).collect()
                print(f"local, {label}: FAILED: went unnoticed", flush=True)
                ok = False
            except Exception as error:
                said = all(word in str(error) for word in words)
                print(f"local, {label}: {'ok' if said else 'FAILED: the error does not say ' + repr(words)}", flush=True)
                ok &= said

        # The job's listing (`--listing FILE -0`), as its driver reads it: every path of the tree, line breaks and
        # names that are not UTF-8 among them, back as they were written.
        import uti_classify
        listing_file = os.path.join(scratch, "listing")
        with open(listing_file, "wb") as handle:
            handle.write(b"".join(os.fsencode(path) + b"\0" for path in listing))
        read = uti_classify.read_listing(listing_file, nul=True)
        said = read == listing
        print(f"the job's listing, read: {'ok' if said else 'FAILED: ' + str(len(read)) + ' paths against ' + str(len(listing))}", flush=True)
        ok &= said

        if not options.no_cluster:
            spark_home = os.path.dirname(pyspark.__file__)
            cluster = StandaloneCluster(spark_home, scratch)
            print(f"cluster: {cluster.url}, two workers", flush=True)
            job = os.path.join(INTEGRATION, "uti_classify.py")
            environment = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
            # The job's two inputs, each through spark-submit: paths (the executors walk the roots, then run uti
            # on what they found, as they run it on a listing's paths) and content. A listing differs from the
            # roots only on the driver, in reading the file: checked above with the job's own reader.
            runs = [("paths (roots)", ["paths", "--roots", root], expected),
                    ("content", ["content", "--input", root], files_only)]
            def packages():
                """The job's package directories in the temporary directory (this check's own aside)."""
                return {name for name in os.listdir(tempfile.gettempdir())
                        if name.startswith("uti-spark-") and not name.startswith("uti-spark-check-")}

            for label, arguments, wanted in runs:
                output = os.path.join(scratch, "out-" + label.split()[0] + str(len(arguments)))
                before = packages()
                submitted = subprocess.run(
                    [os.path.join(spark_home, "bin", "spark-submit"), "--master", cluster.url, "--files", uti,
                     "--conf", "spark.ui.enabled=false", "--conf", "spark.executor.memory=1g", job] + arguments
                    + ["--output", output, "--uti", os.path.basename(uti)],
                    env=environment, capture_output=True, text=True, errors="replace")
                if submitted.returncode != 0:
                    print(f"cluster, {label}: FAILED: spark-submit exited {submitted.returncode}: {submitted.stderr[-2000:]}", flush=True)
                    ok = False
                    continue
                left = packages() - before
                if left:
                    print(f"cluster, {label}: FAILED: the job left {sorted(left)} in {tempfile.gettempdir()}", flush=True)
                    ok = False
                ok &= compare(f"cluster, {label}", rows(spark.read.parquet(output)), wanted)
        spark.stop()
    finally:
        if cluster:
            cluster.stop()
        remove(scratch)
    print("all match" if ok else "mismatches found", flush=True)
    sys.exit(0 if ok else 1)


def remove(scratch):
    """Removes the scratch directory, the files of mode 000 in it too."""
    for directory, _, names in os.walk(os.fsencode(scratch)):
        for name in names:
            try:
                os.chmod(os.path.join(directory, name), 0o600)
            except OSError:
                pass
    shutil.rmtree(scratch, ignore_errors=True)


def _utf8(name):
    try:
        name.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


if __name__ == "__main__":
    main()
