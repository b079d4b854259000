"""uti on Apache Spark: identify every file of a collection too large for one machine.

Two inputs, one output schema (`SCHEMA`, the fields of `uti identify --json`):

- `classify_paths(spark, paths)` / `classify_roots(spark, roots)`: paths on a file system every executor sees. Each
  partition streams its paths through one `uti classify --files-from - -0 --format ndjson --details` process.
- `classify_content(spark, frame)`: bytes Spark reads itself (`spark.read.format("binaryFile")`, any
  Hadoop-compatible store). Each partition writes names and bytes to one `uti identify --framed -` process.

The uti binary is found as `uti_binary` says: a path, or a name shipped with `spark-submit --files` (looked up
with `SparkFiles.get`), or `uti` on the executors' PATH. A missing binary, or uti failing, fails the task with
an error naming the partition; a file uti cannot read is a row with its `error`, never a lost row.
"""
import collections
import json
import os
import shutil
import subprocess
import threading
from urllib.parse import unquote

from pyspark import StorageLevel

from pyspark.sql import functions as F
from pyspark.sql.types import ArrayType, BooleanType, LongType, StringType, StructField, StructType

__all__ = ["SCHEMA", "ARCHIVE_SCHEMA", "FAMILIES", "classify_paths", "classify_roots", "classify_content", "read_content", "summary", "record"]

SCHEMA = StructType([
    StructField("path", StringType(), False),
    StructField("pathEscaped", BooleanType(), False),
    StructField("identifier", StringType(), True),
    StructField("mimeType", StringType(), True),
    StructField("description", StringType(), True),
    StructField("conformsTo", ArrayType(StringType()), True),
    StructField("mismatch", BooleanType(), True),
    StructField("confidence", StringType(), True),
    StructField("rule", StringType(), True),
    StructField("size", LongType(), True),
    StructField("error", StringType(), True),
])

# With archives (`uti classify --archives`): an archive's members are rows too, after it, `path` as
# `ARCHIVE#MEMBER`; these columns say where a member is and how an archive's reading ended.
ARCHIVE_SCHEMA = StructType(SCHEMA.fields + [
    StructField("depth", LongType(), True),
    StructField("modified", StringType(), True),
    StructField("encrypted", BooleanType(), True),
    StructField("members", LongType(), True),
    StructField("truncated", StringType(), True),
])

# Top-level families for `summary`, checked in this order (as `uti classify --summary` and uti-server's metrics do).
FAMILIES = [("image", "public.image"), ("audio", "public.audio"), ("video", "public.movie"), ("font", "public.font"),
            ("archive", "public.archive"), ("executable", "public.executable"), ("document", "public.composite-content"),
            ("text", "public.text")]


class UTIFailure(RuntimeError):
    """uti could not be run, or failed, on one partition."""


def _binary(uti_binary, index="driver"):
    """The uti executable on this executor (for partition `index`)."""
    candidates = []
    if uti_binary and os.sep in uti_binary:
        candidates.append(uti_binary)
    else:
        name = uti_binary or "uti"
        try:
            from pyspark import SparkFiles
            candidates.append(SparkFiles.get(name))
        except Exception:
            pass
        found = shutil.which(name)
        if found:
            candidates.append(found)
    for candidate in candidates:
        if os.path.isfile(candidate):
            if not os.access(candidate, os.X_OK):
                os.chmod(candidate, os.stat(candidate).st_mode | 0o111)
            return candidate
    raise UTIFailure(f"partition {index}: no uti binary {uti_binary or 'uti'!r} on this executor: ship it with spark-submit --files, "
                     "or install it on the executors' PATH")


def _row(obj, size=None, archives=False):
    """A SCHEMA row (ARCHIVE_SCHEMA's with `archives`) from one JSON object of uti's."""
    evidence = obj.get("evidence") or {}
    row = (obj["path"], bool(obj.get("pathEscaped", False)), obj.get("identifier"), obj.get("mimeType"), obj.get("description"),
           obj.get("conformsTo"), obj.get("mismatch"), obj.get("confidence"), evidence.get("rule"),
           obj.get("size", size), obj.get("error"))
    if archives:
        row += (obj.get("depth", 0), obj.get("modified"), bool(obj.get("encrypted", False)), obj.get("members"), obj.get("truncated"))
    return row


def _run(argv, feed, index, what):
    """Runs uti with `feed(stdin)` writing its input from another thread; yields its output lines as objects."""
    try:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise UTIFailure(f"partition {index}: cannot run {argv[0]}: {error}") from error
    errors = []
    stderr_lines = collections.deque(maxlen=20)   # the last words count: uti says why it stopped at the end

    def write():
        try:
            feed(process.stdin)
        except BrokenPipeError:
            pass
        except BaseException as error:  # reported below, after uti's own words
            errors.append(error)
        finally:
            try:
                process.stdin.close()
            except OSError:
                pass

    def drain():
        for line in process.stderr:
            stderr_lines.append(line.decode("utf-8", "replace").rstrip())

    threads = [threading.Thread(target=write, daemon=True), threading.Thread(target=drain, daemon=True)]
    for thread in threads:
        thread.start()
    for line in process.stdout:
        yield json.loads(line)
    status = process.wait()
    for thread in threads:
        thread.join()
    if errors:
        raise UTIFailure(f"partition {index}: feeding uti failed: {errors[0]!r}") from errors[0]
    # classify: 1 means some entry could not be read, and its record says so; identify --framed: 1 likewise.
    if status not in (0, 1):
        raise UTIFailure(f"partition {index}: {what} exited with status {status}: " + " | ".join(list(stderr_lines)[-5:]))


def _task_cpus():
    """The cores Spark gives this task (`spark.task.cpus`): uti classify uses that many threads, not one per
    processor of the machine, which the executor's other tasks share."""
    try:
        from pyspark import TaskContext
        context = TaskContext.get()
        return max(1, int(context.cpus())) if context is not None else None
    except Exception:
        return None


def _classify_partition(uti_binary, arguments, feed_paths):
    archives = "--archives" in arguments
    def run(index, iterator):
        binary = _binary(uti_binary, index)
        cpus = _task_cpus()
        if cpus:
            arguments_here = arguments + ["--jobs", str(cpus)]
        else:
            arguments_here = arguments
        items = list(iterator) if not feed_paths else iterator
        if feed_paths:
            def feed(stdin):
                for path in items:
                    stdin.write(os.fsencode(path) + b"\0")
            argv = [binary, "classify", "--files-from", "-", "-0", "--format", "ndjson", "--details"] + arguments_here
            yield from (_row(obj, archives=archives) for obj in _run(argv, feed, index, "uti classify"))
        else:
            if not items:
                return
            argv = [binary, "classify", "--format", "ndjson", "--details"] + arguments_here + ["--"] + [os.fsencode(p) for p in items]
            yield from (_row(obj, archives=archives) for obj in _run(argv, lambda stdin: None, index, "uti classify"))
    return run


def _arguments(include_hidden, archives):
    return (["--include-hidden"] if include_hidden else []) + (["--archives"] if archives else [])


def classify_paths(spark, paths, uti_binary=None, partitions=None, include_hidden=False, archives=False):
    """Every path of `paths` (an RDD or a list of str; names that are not UTF-8 as `os.fsdecode` gives them),
    classified where it lies: a DataFrame of SCHEMA, one row per path. With `archives`, the members of
    archives too, a row each after their archive's (`uti classify --archives`), in ARCHIVE_SCHEMA."""
    rdd = paths if hasattr(paths, "mapPartitionsWithIndex") else spark.sparkContext.parallelize(list(paths), partitions)
    arguments = _arguments(include_hidden, archives)
    return spark.createDataFrame(rdd.mapPartitionsWithIndex(_classify_partition(uti_binary, arguments, True)),
                                 ARCHIVE_SCHEMA if archives else SCHEMA)


def classify_roots(spark, roots, uti_binary=None, partitions=None, include_hidden=False, archives=False):
    """Every entry of the trees under `roots`, as `uti classify ROOT...` gives them on one machine: the driver
    lists each root's own entries, and each partition walks its share of them with one uti process. An entry
    that is a symbolic link is classified as the link it is (a listed path), never walked: given to uti as an
    operand, a link to a directory would be followed, where the walk of its root reports it as a link. With
    `archives`, archives' members are rows too, as in `classify_paths`."""
    units, links = [], []
    for root in roots:
        root = root.rstrip(os.sep) or os.sep
        for entry in sorted(os.listdir(root)):
            if include_hidden or not entry.startswith("."):
                path = os.path.join(root, entry)
                (links if os.path.islink(path) else units).append(path)
    arguments = _arguments(include_hidden, archives)
    count = partitions or max(1, min(len(units), spark.sparkContext.defaultParallelism * 4))
    walked = spark.sparkContext.parallelize(units, count).mapPartitionsWithIndex(_classify_partition(uti_binary, arguments, False))
    # The roots themselves, as `uti classify` lists them too, and the links among their entries.
    top = spark.sparkContext.parallelize([r.rstrip(os.sep) or os.sep for r in roots], 1) \
        .mapPartitionsWithIndex(_classify_partition(uti_binary, arguments + ["--max-depth", "0"], False))
    listed = spark.sparkContext.parallelize(links, 1).mapPartitionsWithIndex(_classify_partition(uti_binary, arguments, True))
    return spark.createDataFrame(top.union(listed).union(walked), ARCHIVE_SCHEMA if archives else SCHEMA)


def record(name, content):
    """One record of `uti identify --framed -`: name length (4 bytes) and name, content length (8 bytes) and content."""
    return len(name).to_bytes(4, "big") + name + len(content).to_bytes(8, "big") + content


def _display_name(path, encoded=False):
    """A file's path as uti's records name it: the local path of a `file:` URI, else the URI as it is. The
    binaryFile source's `path` column is not percent-encoded; `DataFrame.inputFiles()` is (`encoded`)."""
    if path.startswith("file:") and not (path.startswith("file://") and not path.startswith("file:///")):
        local = path[len("file://"):] if path.startswith("file:///") else path[len("file:"):]
        return unquote(local) if encoded else local
    return path


def classify_content(spark, frame, uti_binary=None, path_column="path", content_column="content"):
    """Rows of `frame` (a path and its bytes, as `spark.read.format("binaryFile")` gives them) identified by
    their names and bytes: a DataFrame of SCHEMA, one row per input row, `path` as `_display_name` gives it."""
    def run(index, iterator):
        binary = _binary(uti_binary, index)
        rows = []

        def feed(stdin):
            for row in iterator:
                name = _display_name(row[0])
                content = bytes(row[1]) if row[1] is not None else b""
                rows.append(len(content))
                stdin.write(record(os.fsencode(name), content))

        for position, obj in enumerate(_run([binary, "identify", "--framed", "-"], feed, index, "uti identify --framed")):
            yield _row(obj, size=rows[position] if position < len(rows) else None)

    selected = frame.select(path_column, content_column)
    # binaryFile makes a partition for every few small files; one uti process for each of those is waste.
    target = spark.sparkContext.defaultParallelism * 4
    if selected.rdd.getNumPartitions() > target:
        selected = selected.coalesce(target)
    return spark.createDataFrame(selected.rdd.mapPartitionsWithIndex(run), SCHEMA)


def read_content(spark, root, uti_binary=None, recursive=True):
    """`classify_content` of every file under `root` (any Hadoop-compatible URI), read by Spark's binaryFile
    source, and not one row lost: files the source skips (empty ones) or cannot read come back as rows too,
    the empty ones identified as empty, the unreadable ones with their `error`. The result is persisted
    (it is computed once, to learn which files came back)."""
    # Unreadable files (Java reports them as missing) are left to the reconciliation below, not a failed job.
    reader = spark.read.format("binaryFile").option("ignoreCorruptFiles", "true").option("ignoreMissingFiles", "true")
    if recursive:
        reader = reader.option("recursiveFileLookup", "true")
    frame = reader.load(root)
    local = _local_directory(root)
    if local:
        # Hadoop's local file system follows links to directories; `uti classify` reports a link as a link and
        # never walks it, and a link is no file whose bytes are read: what lies through one is left out.
        through_link = F.udf(lambda path: _through_link(local, _display_name(path)), BooleanType())
        frame = frame.filter(~through_link(F.col("path")))
    files = [uri for uri in frame.inputFiles() if not (local and _through_link(local, _display_name(uri, encoded=True)))]
    listed = spark.createDataFrame([(_display_name(uri, encoded=True), uri) for uri in files], "path string, uri string")
    read = classify_content(spark, frame, uti_binary).persist(StorageLevel.MEMORY_AND_DISK)
    unnamed = _unnameable(root, recursive)
    if unnamed:
        # Names Hadoop cannot represent (not UTF-8) never reach Spark's readers: uti reads those on the driver.
        read = read.union(spark.createDataFrame(list(_classify_on_driver(uti_binary, unnamed)), SCHEMA))
    missing = listed.join(read.select("path"), on="path", how="left_anti").collect()
    if not missing:
        return read
    # What the file system says of each file the scan did not return decides its row.
    jvm = spark._jvm
    configuration = spark._jsc.hadoopConfiguration()
    empty, extra = [], []
    for name, uri in missing:
        path = jvm.org.apache.hadoop.fs.Path(jvm.java.net.URI(uri))
        try:
            system = path.getFileSystem(configuration)
            length = system.getFileStatus(path).getLen()
            if length == 0:
                system.open(path).close()   # empty, and readable?
        except Exception as error:  # gone since the listing, or not readable
            extra.append((name, False, None, None, None, None, None, None, None, None, _java_message(error)))
            continue
        if length == 0:
            empty.append((name, bytearray()))
        else:
            extra.append((name, False, None, None, None, None, None, None, None, length, "Spark could not read the file"))
    if empty:
        read = read.union(classify_content(spark, spark.createDataFrame(empty, "path string, content binary"), uti_binary))
    if extra:
        read = read.union(spark.createDataFrame(extra, SCHEMA))
    return read


def _local_directory(root):
    """The local directory `root` names (a path or a `file:` URI), or None for another file system."""
    local = root if "://" not in root and not root.startswith("file:") else _display_name(root)
    if local.startswith(("hdfs:", "s3a:", "s3:", "gs:", "abfs:", "wasb:")) or "://" in local or not os.path.isdir(local):
        return None
    return local


def _through_link(root, path):
    """Whether `path`, below the local directory `root`, is a symbolic link or is reached through one."""
    base = os.path.normpath(root)
    relative = os.path.relpath(os.path.normpath(path), base)
    if relative.startswith(".."):
        return False
    current = base
    for part in relative.split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return True
    return False


def _unnameable(root, recursive):
    """Under a local `root` (a path, or a `file:` URI), the files whose names are not UTF-8, as bytes."""
    local = root if "://" not in root and not root.startswith("file:") else _display_name(root)
    if local.startswith(("hdfs:", "s3a:", "s3:", "gs:", "abfs:", "wasb:")) or "://" in local or not os.path.isdir(local):
        return []
    found = []
    for directory, subdirectories, names in os.walk(os.fsencode(local)):
        if not recursive:
            subdirectories[:] = []
        for name in names:
            path = os.path.join(directory, name)
            try:
                path.decode("utf-8")
            except UnicodeDecodeError:
                if os.path.isfile(path) or not os.path.exists(path):
                    found.append(path)
    return found


def _classify_on_driver(uti_binary, paths):
    """SCHEMA rows for `paths` (bytes), by one uti classify on the driver."""
    def feed(stdin):
        for path in paths:
            stdin.write(path + b"\0")
    argv = [_binary(uti_binary), "classify", "--files-from", "-", "-0", "--format", "ndjson", "--details"]
    return (_row(obj) for obj in _run(argv, feed, "driver", "uti classify"))


def _java_message(error):
    """The Java exception's own message, from a py4j error."""
    text = str(error)
    for line in text.splitlines():
        if "Exception:" in line:
            return line.split("Exception:", 1)[1].strip()
    return text.splitlines()[0] if text else repr(error)


def summary(frame):
    """Counts by type and by top-level family (`family`, `identifier`, `count`), with Spark SQL."""
    family = F.lit("data")
    for name, identifier in reversed(FAMILIES):
        family = F.when(F.array_contains(F.col("conformsTo"), identifier) | (F.col("identifier") == identifier), F.lit(name)).otherwise(family)
    family = F.when(F.col("error").isNotNull(), F.lit("error")).otherwise(family)
    with_family = frame.withColumn("family", family)
    by_type = with_family.groupBy("family", "identifier").count()
    by_family = with_family.groupBy("family").count().withColumn("identifier", F.lit(None).cast("string"))
    return by_family.select("family", "identifier", "count").union(by_type.select("family", "identifier", "count")) \
        .orderBy(F.col("family"), F.col("identifier").isNotNull(), F.desc("count"))
