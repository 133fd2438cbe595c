"""Starting a Spark session the jobs and tests share, and finding out whether GraphFrames is usable."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["GRAPHFRAMES_PACKAGE", "graphframes_missing", "spark_session"]

GRAPHFRAMES_PACKAGE = "io.graphframes:graphframes-spark4_2.13:0.10.0"
"""``spark.jars.packages`` coordinates of a GraphFrames build for Spark 4 (Scala 2.13)."""


def spark_session(
    app_name: str = "dualgraph",
    *,
    master: str | None = None,
    shuffle_partitions: int | None = None,
    log_level: str = "WARN",
    progress: bool = True,
    conf: dict[str, Any] | None = None,
) -> SparkSession:
    """The active session, or a new one; ``master=None`` leaves it to ``spark-submit``.

    Local runs want few shuffle partitions: the default 200 means 200 tiny tasks per shuffle.
    """
    from pyspark.sql import SparkSession

    # executors must run the interpreter that has dualgraph installed, not whatever "python" is
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = SparkSession.builder.appName(app_name)
    if master:
        builder = builder.master(master)
    if shuffle_partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(shuffle_partitions))
    builder = builder.config("spark.ui.showConsoleProgress", "true" if progress else "false")
    for key, value in (conf or {}).items():
        builder = builder.config(key, str(value))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel(log_level)
    return spark


def graphframes_missing(spark: SparkSession) -> str | None:
    """``None`` when GraphFrames works in this session, else why not (for logs and skip reasons).

    The Python package alone is not enough: the JVM side comes from ``spark.jars.packages``, and a
    GraphFrame is only built against it when one is created, so a tiny one is.
    """
    try:
        from graphframes import GraphFrame
    except ImportError:
        return "the graphframes Python package is not installed"
    try:
        v = spark.createDataFrame([("a",)], "id string")
        e = spark.createDataFrame([("a", "a")], "src string, dst string")
        GraphFrame(v, e).degrees.count()
    except Exception as e:  # Py4J errors of every kind when the jar is not on the classpath
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return f"the GraphFrames jar is not on the classpath (spark.jars.packages={GRAPHFRAMES_PACKAGE}): {first}"
    return None
