#!/usr/bin/env python3
"""Classify a collection with uti on Apache Spark; the result as Parquet.

    spark-submit --files PATH/TO/uti Integrations/spark/uti_classify.py paths --roots DIR [DIR ...] --output OUT
    spark-submit --files PATH/TO/uti Integrations/spark/uti_classify.py paths --listing FILE [-0] --output OUT
    spark-submit --files PATH/TO/uti Integrations/spark/uti_classify.py content --input URI --output OUT

`paths`: files on a file system every executor sees (NFS, a cluster file system, a local tree in local mode),
given as root directories (walked by the executors) or as a listing (one path a line, or NUL-separated with
-0, as `find -print0` writes them). `content`: files Spark reads itself with its binaryFile source, from any
Hadoop-compatible store. Either way the output is one row per file with the fields of `uti identify --json`
(see Integrations/spark/README.md), written as Parquet to OUT; `--summary` prints counts by top-level family
and by type. The uti binary is the one shipped with `--files` (or `--uti NAME-OR-PATH`).
"""
import argparse
import os
import shutil
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from pyspark.sql import SparkSession  # noqa: E402

import uti_spark  # noqa: E402


def ship_package(spark):
    """The uti_spark package, zipped for the executors' Python; returns the directory the zip is in, which the
    driver serves it from until the job stops, and removes then."""
    scratch = tempfile.mkdtemp(prefix="uti-spark-")
    archive = os.path.join(scratch, "uti_spark.zip")
    with zipfile.ZipFile(archive, "w") as handle:
        package = os.path.join(HERE, "uti_spark")
        for name in sorted(os.listdir(package)):
            if name.endswith(".py"):
                handle.write(os.path.join(package, name), os.path.join("uti_spark", name))
    spark.sparkContext.addPyFile(archive)
    return scratch


def read_listing(path, nul):
    with open(path, "rb") as handle:
        data = handle.read()
    separator = b"\0" if nul else b"\n"
    return [os.fsdecode(item) for item in data.split(separator) if item]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", choices=["paths", "content"], help="paths on a shared file system, or content Spark reads")
    parser.add_argument("--roots", nargs="+", metavar="DIR", help="paths: root directories, walked by the executors")
    parser.add_argument("--listing", metavar="FILE", help="paths: a file listing the paths")
    parser.add_argument("-0", dest="nul", action="store_true", help="the listing is NUL-separated")
    parser.add_argument("--input", dest="uri", metavar="URI", help="content: a directory (any Hadoop-compatible URI), read recursively")
    parser.add_argument("--output", required=True, metavar="OUT", help="where the Parquet goes")
    parser.add_argument("--partitions", type=int, help="how many partitions (default: Spark's)")
    parser.add_argument("--include-hidden", action="store_true", help="paths --roots: walk into entries whose names start with a dot")
    parser.add_argument("--archives", action="store_true",
                        help="paths: archives' members too, a row each after their archive's (uti classify --archives)")
    parser.add_argument("--summary", action="store_true", help="print counts by family and by type")
    parser.add_argument("--uti", default="uti", metavar="NAME-OR-PATH",
                        help="the uti binary: a name shipped with --files (default uti) or a path on every executor")
    parser.add_argument("--mode", default="errorifexists", help="Parquet save mode (overwrite, append, errorifexists)")
    options = parser.parse_args(argv)
    if options.source == "paths" and bool(options.roots) == bool(options.listing):
        parser.error("paths needs --roots or --listing (one of them)")
    if options.source == "content" and not options.uri:
        parser.error("content needs --input")
    if options.source == "content" and options.archives:
        parser.error("--archives goes with paths: uti reads archives where they lie")

    spark = SparkSession.builder.appName("uti classify").getOrCreate()
    scratch = ship_package(spark)
    try:
        if options.source == "paths" and options.roots:
            frame = uti_spark.classify_roots(spark, options.roots, options.uti, options.partitions, options.include_hidden,
                                             options.archives)
        elif options.source == "paths":
            frame = uti_spark.classify_paths(spark, read_listing(options.listing, options.nul), options.uti, options.partitions,
                                             archives=options.archives)
        else:
            frame = uti_spark.read_content(spark, options.uri, options.uti)
        frame.write.mode(options.mode).parquet(options.output)
        if options.summary:
            for row in uti_spark.summary(spark.read.parquet(options.output)).collect():
                label = row["family"] if row["identifier"] is None else "  " + row["identifier"]
                print(f"{row['count']:>12}  {label}")
    finally:
        # The package's zip is served from its directory until the job stops: removed after, so that no job
        # leaves it behind in the temporary directory.
        spark.stop()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
