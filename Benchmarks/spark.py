#!/usr/bin/env python3
"""uti on a standalone Spark cluster against plain `uti classify`, on the same tree, in one run.

    python3 Benchmarks/spark.py [--files 100000] [--uti PATH] [--python .build-python/bin/python]

Makes a tree of --files small files of mixed types (the generator of Integrations/spark/tests/check_spark.py),
then times, one after another:

1. `uti classify --format ndjson --details TREE` (one machine, one worker thread per core), output discarded;
2. `spark-submit uti_classify.py paths --roots TREE` on a standalone cluster (master and workers from pyspark's
   spark-class on 127.0.0.1) with one worker of one core, then with two workers of one core each;
3. the same with `content --input TREE` (Spark reads the bytes, uti identifies them from a framed stream).

Each Spark figure is the wall time of the whole spark-submit (JVM and session start, listing, tasks, Parquet
written); the job's own time, from its first task to its last, is read from the event log. Reported: files/s,
Spark's overhead per file over plain classify, and how throughput grows from one worker to two. Everything
shares this machine's cores, so two workers of one core each are all the machine has.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INTEGRATION = os.path.join(ROOT, "Integrations", "spark")
sys.path.insert(0, os.path.join(INTEGRATION, "tests"))


def job_seconds(event_log_dir):
    """Seconds from the first task's launch to the last task's end, from Spark's event log."""
    first, last = None, None
    logs = [os.path.join(directory, name) for directory, _, names in os.walk(event_log_dir) for name in names]
    for log in logs:  # Spark 4 writes a directory of rolling files
        with open(log, errors="replace") as handle:
            for line in handle:
                if '"SparkListenerTaskEnd"' not in line:
                    continue
                info = json.loads(line).get("Task Info", {})
                launch, finish = info.get("Launch Time"), info.get("Finish Time")
                if launch and finish:
                    first = launch if first is None else min(first, launch)
                    last = finish if last is None else max(last, finish)
    return (last - first) / 1000 if first is not None else None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--uti", default=os.path.join(ROOT, ".build", "release", "uti"))
    parser.add_argument("--python", default=os.path.join(ROOT, ".build-python", "bin", "python"))
    options = parser.parse_args()
    if not os.access(options.uti, os.X_OK):
        subprocess.run(["swift", "build", "-c", "release", "--product", "uti"], cwd=ROOT, check=True)
    uti = os.path.abspath(options.uti)
    import check_spark  # the tree generator and the cluster

    spark_home = subprocess.run([options.python, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                                capture_output=True, text=True, check=True).stdout.strip()
    scratch = tempfile.mkdtemp(prefix="uti-spark-bench-")
    tree = os.path.join(scratch, "tree")
    os.makedirs(tree)
    check_spark.make_tree(tree, options.files)
    subprocess.run(["sync"])
    results = []
    try:
        for _ in range(2):  # warm the page cache and uti's own start
            subprocess.run([uti, "classify", "--format", "ndjson", "--details", tree], stdout=subprocess.DEVNULL, check=False)
        started = time.perf_counter()
        subprocess.run([uti, "classify", "--format", "ndjson", "--details", tree], stdout=subprocess.DEVNULL, check=False)
        classify_seconds = time.perf_counter() - started
        entries = int(subprocess.run(f"find '{tree}' | wc -l", shell=True, capture_output=True, text=True).stdout)
        print(f"tree: {options.files} files, {entries} entries; uti classify: {classify_seconds:.2f} s, "
              f"{entries / classify_seconds:,.0f} entries/s", flush=True)
        environment = dict(os.environ, PYSPARK_PYTHON=options.python, SPARK_LOCAL_IP="127.0.0.1")
        for workers in (1, 2):
            cluster_directory = os.path.join(scratch, f"cluster{workers}")
            os.makedirs(cluster_directory)
            cluster = check_spark.StandaloneCluster(spark_home, cluster_directory, workers=workers)
            try:
                for source, arguments in [("paths", ["paths", "--roots", tree]), ("content", ["content", "--input", tree])]:
                    events = os.path.join(scratch, f"events-{source}-{workers}")
                    os.makedirs(events)
                    output = os.path.join(scratch, f"out-{source}-{workers}")
                    started = time.perf_counter()
                    submitted = subprocess.run(
                        [os.path.join(spark_home, "bin", "spark-submit"), "--master", cluster.url, "--files", uti,
                         "--conf", "spark.ui.enabled=false", "--conf", "spark.eventLog.enabled=true",
                         "--conf", f"spark.eventLog.dir={events}", "--conf", "spark.eventLog.compress=false",
                         "--conf", "spark.eventLog.rolling.enabled=false", "--conf", "spark.executor.memory=1g",
                         os.path.join(INTEGRATION, "uti_classify.py")] + arguments + ["--output", output, "--uti", os.path.basename(uti)],
                        env=environment, capture_output=True, text=True, errors="replace")
                    wall = time.perf_counter() - started
                    if submitted.returncode != 0:
                        sys.exit(f"spark.py: spark-submit failed: {submitted.stderr[-3000:]}")
                    tasks = job_seconds(events)
                    rows = entries if source == "paths" else options.files
                    results.append((source, workers, rows, wall, tasks))
                    print(f"{source}, {workers} worker(s): {rows} rows, spark-submit {wall:.1f} s ({rows / wall:,.0f} files/s), "
                          f"tasks {tasks:.1f} s ({rows / tasks:,.0f} files/s)", flush=True)
            finally:
                cluster.stop()
    finally:
        check_spark.remove(scratch)

    print()
    print(f"| run | rows | wall time | files/s | tasks only | files/s (tasks) | overhead per file over `uti classify` (wall / tasks) |")
    print("|---|---|---|---|---|---|---|")
    print(f"| `uti classify`, one machine | {entries:,} | {classify_seconds:.2f} s | {entries / classify_seconds:,.0f} | | | |")
    for source, workers, rows, wall, tasks in results:
        per_file_wall = (wall - classify_seconds * rows / entries) / rows * 1e6
        per_file_tasks = (tasks - classify_seconds * rows / entries) / rows * 1e6
        print(f"| Spark, {source}, {workers} worker{'s' if workers > 1 else ''} | {rows:,} | {wall:.1f} s | {rows / wall:,.0f} | {tasks:.1f} s "
              f"| {rows / tasks:,.0f} | {per_file_wall:,.0f} µs / {per_file_tasks:,.0f} µs |")
    for source in ("paths", "content"):
        one = next(r for r in results if r[0] == source and r[1] == 1)
        two = next(r for r in results if r[0] == source and r[1] == 2)
        print(f"{source}: two workers against one: {one[3] / two[3]:.2f}x (wall), {one[4] / two[4]:.2f}x (tasks)")


if __name__ == "__main__":
    main()
