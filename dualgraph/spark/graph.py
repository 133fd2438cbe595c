"""Graph analytics over the SKG's triple table (:mod:`dualgraph.spark.triples`).

- **components** of products that share a spec value (the product–value graph: a value node is
  one value of one entry, so "8 GB" RAM and "8 GB" storage are apart). GraphFrames'
  connected components when its jar is on the classpath, else label propagation with
  DataFrame joins; either way a component is named by its least product IRI, so both give
  the same table.
- **hubs**: the entries and values held by the most products.
- **duplicates across markets**: distinct product nodes, listed in more than one market
  between them, with the same spec set (prices left out) or the same name up to case and
  spacing. A product sold in two markets is one node and so never its own duplicate.

Markets come from the graph a product's quads live in (``graph/market/<code>/doc/…``;
``graph/doc/…`` is the default market).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dualgraph.skg import ontology as O
from dualgraph.spark.options import GraphOptions

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = [
    "GraphReport",
    "analyse",
    "components_fallback",
    "components_graphframes",
    "cross_market_duplicates",
    "hubs",
    "products",
    "spec_values",
]


@dataclass
class GraphReport:
    """Figures of one analysis; the tables themselves are written beside ``report.json``."""

    method: str  # "graphframes" or "label-propagation"
    products: int = 0
    spec_values: int = 0
    components: int = 0
    largest_components: list[int] = field(default_factory=list)
    iterations: int | None = None
    hub_entries: list[dict[str, Any]] = field(default_factory=list)
    hub_values: list[dict[str, Any]] = field(default_factory=list)
    duplicates: list[dict[str, Any]] = field(default_factory=list)
    graphframes_missing: str | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _log(enabled: bool, message: str) -> None:
    if enabled:
        print(f"spark-graph: {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- tables


def products(triples: DataFrame) -> DataFrame:
    """``product, market, name``: one row per product and market it is listed in."""
    from pyspark.sql import functions as F

    in_market = F.regexp_extract("g", "^" + re.escape(O.MARKET_GRAPHS) + "([^/]+)/doc/", 1)
    market = (
        F.when(in_market != "", in_market)
        .when(F.col("g").startswith(O.DOCUMENT_GRAPHS), O.DEFAULT_MARKET)
        .otherwise(None)
    )
    typed = triples.where((F.col("p") == O.TYPE) & (F.col("o") == O.PRODUCT))
    listed = typed.select(F.col("s").alias("product"), market.alias("market")).where(F.col("market").isNotNull())
    names = triples.where(F.col("p") == O.HAS_NAME).groupBy(F.col("s").alias("product")).agg(F.min("o").alias("name"))
    return listed.distinct().join(names, "product", "left")


def spec_values(triples: DataFrame, ignore_entries: list[str] | None = None) -> DataFrame:
    """``product, entry, entry_name, value, value_name``: each spec value a product holds, once."""
    from pyspark.sql import functions as F

    def edge(pred: str, s: str, o: str) -> DataFrame:
        return triples.where(F.col("p") == pred).select(F.col("s").alias(s), F.col("o").alias(o)).distinct()

    names = triples.where(F.col("p") == O.HAS_NAME).groupBy("s").agg(F.min("o").alias("name"))
    rows = (
        edge(O.HAS_SPEC, "product", "spec")
        .join(edge(O.IN_ENTRY, "spec", "entry"), "spec")
        .join(edge(O.HAS_VALUE, "spec", "value"), "spec")
        .join(names.select(F.col("s").alias("entry"), F.col("name").alias("entry_name")), "entry", "left")
        .join(names.select(F.col("s").alias("value"), F.col("name").alias("value_name")), "value", "left")
        .select("product", "entry", "entry_name", "value", "value_name")
        .distinct()
    )
    ignored = [e.casefold() for e in ignore_entries or []]
    if ignored:
        rows = rows.where(~F.lower(F.coalesce(F.col("entry_name"), F.lit(""))).isin(ignored))
    return rows


def hubs(values: DataFrame, top: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``top`` entries and values by how many products hold them (ties by IRI)."""
    from pyspark.sql import functions as F

    count = F.countDistinct("product").alias("products")
    entries = values.groupBy("entry", "entry_name").agg(count, F.countDistinct("value").alias("values"))
    by_value = values.groupBy("entry", "entry_name", "value", "value_name").agg(count)
    order = [F.desc("products"), F.asc("entry")]
    return (
        [r.asDict() for r in entries.orderBy(*order).limit(top).collect()],
        [r.asDict() for r in by_value.orderBy(*order, F.asc("value")).limit(top).collect()],
    )


# --------------------------------------------------------------------------- components


def _linking_edges(values: DataFrame, max_value_products: int | None) -> DataFrame:
    from pyspark.sql import functions as F

    edges = values.select("product", "value").distinct()
    if max_value_products is not None:
        small = edges.groupBy("value").agg(F.count("*").alias("n")).where(F.col("n") <= max_value_products)
        edges = edges.join(small.select("value"), "value")
    return edges


def components_fallback(
    all_products: DataFrame, values: DataFrame, *, max_value_products: int | None = None, max_iterations: int = 50
) -> tuple[DataFrame, int]:
    """``product, component`` by label propagation over the product–value graph, and the rounds it took.

    Each round moves every product's label (least product IRI seen so far) two hops: to its values
    and on to their products. It stops when a round changes nothing; a lineage that grows by a
    few joins per round is cut each round (local checkpoint), or round 30 would plan for minutes.
    """
    from pyspark.sql import functions as F

    edges = _linking_edges(values, max_value_products).localCheckpoint()
    labels = all_products.select("product").distinct().withColumn("label", F.col("product")).localCheckpoint()
    for rounds in range(1, max_iterations + 1):
        by_value = edges.join(labels, "product").groupBy("value").agg(F.min("label").alias("vl"))
        seen = edges.join(by_value, "value").groupBy("product").agg(F.min("vl").alias("nl"))
        step = labels.join(seen, "product", "left").select(
            "product",
            F.least("label", F.coalesce("nl", "label")).alias("label"),
            (F.coalesce(F.col("nl"), F.col("label")) < F.col("label")).alias("changed"),
        )
        step = step.localCheckpoint()
        changed = step.where("changed").count()
        labels = step.drop("changed")
        if changed == 0:
            return labels.withColumnRenamed("label", "component"), rounds
    raise RuntimeError(
        f"label propagation did not settle in {max_iterations} rounds (raise max_iterations, "
        "or set max_value_products to drop hub values)"
    )


def components_graphframes(
    spark: SparkSession,
    all_products: DataFrame,
    values: DataFrame,
    *,
    max_value_products: int | None = None,
    checkpoint_dir: str | None = None,
) -> DataFrame:
    """``product, component`` with GraphFrames (its jar must be on the classpath)."""
    from graphframes import GraphFrame
    from pyspark.sql import functions as F

    if checkpoint_dir or not spark.sparkContext.getCheckpointDir():
        spark.sparkContext.setCheckpointDir(checkpoint_dir or tempfile.mkdtemp(prefix="dualgraph-gf-"))
    edges = _linking_edges(values, max_value_products)
    vertices = (
        all_products.select(F.col("product").alias("id")).union(edges.select(F.col("value").alias("id"))).distinct()
    )
    found = GraphFrame(vertices, edges.select(F.col("product").alias("src"), F.col("value").alias("dst")))
    comp = found.connectedComponents().join(all_products.select(F.col("product").alias("id")).distinct(), "id")
    # GraphFrames numbers components arbitrarily; name each by its least product, as the fallback does
    least = comp.groupBy("component").agg(F.min("id").alias("name"))
    return comp.join(least, "component").select(F.col("id").alias("product"), F.col("name").alias("component"))


# --------------------------------------------------------------------------- duplicates


def cross_market_duplicates(listed: DataFrame, values: DataFrame) -> list[dict[str, Any]]:
    """Groups of distinct products, in two or more markets between them, with one spec set or one name."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    from dualgraph.skg.names import canonical

    pairs = F.array_sort(F.collect_set(F.concat_ws("\x1f", "entry", "value")))
    signature = values.groupBy("product").agg(F.sha2(F.concat_ws("\x1e", pairs), 256).alias("key"))
    by_name = listed.where(F.col("name").isNotNull()).select(
        "product", F.udf(canonical, StringType())("name").alias("key")
    )
    keyed = signature.select(F.lit("specs").alias("by"), "product", "key").union(
        by_name.distinct().select(F.lit("name").alias("by"), "product", "key")
    )
    groups = (
        keyed.join(listed, "product")
        .groupBy("by", "key")
        .agg(
            F.array_sort(F.collect_set("product")).alias("products"),
            F.array_sort(F.collect_set("market")).alias("markets"),
            F.array_sort(F.collect_set("name")).alias("names"),
        )
        .where((F.size("products") > 1) & (F.size("markets") > 1))
    )
    return [r.asDict() for r in groups.orderBy(F.desc("by"), "key").collect()]


# --------------------------------------------------------------------------- job


def analyse(
    spark: SparkSession, triples_path: str | Path, out_dir: str | Path, options: GraphOptions | None = None
) -> GraphReport:
    """Components, hubs and duplicates of the triple table at ``triples_path``; writes
    ``components.parquet`` (product, market, name, component) and ``report.json`` to ``out_dir``."""
    from pyspark.sql import functions as F

    from dualgraph.spark.session import graphframes_missing

    opts = options or GraphOptions()
    started = time.monotonic()
    triples = spark.read.parquet(str(triples_path))
    # materialised once, and with a short plan: every later query starts from these two tables
    listed = products(triples).localCheckpoint()
    values = spec_values(triples, opts.ignore_entries).localCheckpoint()
    missing = graphframes_missing(spark) if opts.use_graphframes else "use_graphframes is off"
    report = GraphReport(method="label-propagation" if missing else "graphframes", graphframes_missing=missing)
    report.products = listed.select("product").distinct().count()
    report.spec_values = values.count()
    _log(opts.progress, f"{report.products} products, {report.spec_values} spec values; components by {report.method}")
    if missing:
        comps, report.iterations = components_fallback(
            listed, values, max_value_products=opts.max_value_products, max_iterations=opts.max_iterations
        )
    else:
        comps = components_graphframes(
            spark, listed, values, max_value_products=opts.max_value_products, checkpoint_dir=opts.checkpoint_dir
        )
    comps = comps.cache()
    # one small job: how many components have each size (not one row per component)
    histogram = comps.groupBy("component").count().groupBy("count").agg(F.count("*").alias("n")).collect()
    report.components = sum(r["n"] for r in histogram)
    report.largest_components = [
        s for r in sorted(histogram, key=lambda r: -r["count"]) for s in [r["count"]] * r["n"]
    ][:10]
    _log(opts.progress, f"{report.components} components ({time.monotonic() - started:.1f} s)")
    report.hub_entries, report.hub_values = hubs(values, opts.top)
    report.duplicates = cross_market_duplicates(listed, values)
    _log(opts.progress, f"{len(report.duplicates)} duplicate groups across markets")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    listed.join(comps, "product").write.mode("overwrite").parquet(str(out / "components.parquet"))
    report.seconds = time.monotonic() - started
    (out / "report.json").write_text(json.dumps(report.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
    comps.unpersist()
    return report
