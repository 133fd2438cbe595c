"""The aligner's node2vec graph built with Spark, for a store too large to export in one process.

The same graph as :func:`dualgraph.align.graph_export.export_graph`, from the triple table
(:mod:`dualgraph.spark.triples`): object edges between IRIs (the text and alignment graphs left
out), ``rdf:type`` edges dropped unless kept, nodes above ``max_degree`` dropped, one undirected
edge per node pair, then only the largest connected component (label propagation: every node
takes the least label among itself and its neighbours until none changes; ties between equal-sized
components go to the one of least label). Written as a Parquet file of ``a, b`` pairs (``a < b``)
that ``dualgraph align --graph FILE`` reads instead of querying the store.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from dualgraph.skg import ontology as O

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["largest_component", "object_edges", "write_node2vec_graph"]


def object_edges(triples: DataFrame, *, keep_types: bool = False, max_degree: int | None = None) -> DataFrame:
    """Distinct undirected ``a, b`` (``a < b``) pairs of the SKG's object edges."""
    from pyspark.sql import functions as F

    t = triples.where(
        (F.col("o_kind") == "iri") & ~F.col("g").isin(O.TEXT_GRAPH, O.ALIGNMENT_GRAPH) & (F.col("s") != F.col("o"))
    )
    if not keep_types:
        t = t.where(F.col("p") != O.TYPE)
    pairs = t.select(F.least("s", "o").alias("a"), F.greatest("s", "o").alias("b")).distinct()
    if max_degree is not None:
        ends = pairs.select(F.col("a").alias("n")).unionAll(pairs.select(F.col("b").alias("n")))
        hubs = ends.groupBy("n").count().where(F.col("count") > max_degree).select("n")
        pairs = pairs.join(hubs.withColumnRenamed("n", "a"), "a", "left_anti").join(
            hubs.withColumnRenamed("n", "b"), "b", "left_anti"
        )
    return pairs.select("a", "b")


def largest_component(pairs: DataFrame, *, max_iterations: int = 200) -> tuple[DataFrame, dict[str, int]]:
    """The pairs inside the largest connected component, and ``{"nodes", "rounds", "outside"}``."""
    from pyspark.sql import functions as F

    both = pairs.select("a", "b").unionAll(pairs.select(F.col("b").alias("a"), F.col("a").alias("b"))).localCheckpoint()
    labels = both.select(F.col("a").alias("n")).distinct().withColumn("label", F.col("n")).localCheckpoint()
    rounds = 0
    while True:
        rounds += 1
        if rounds > max_iterations:
            raise RuntimeError(f"label propagation did not settle in {max_iterations} rounds")
        seen = both.join(labels.withColumnRenamed("n", "b"), "b").groupBy("a").agg(F.min("label").alias("nl"))
        step = labels.join(seen.withColumnRenamed("a", "n"), "n", "left").select(
            "n",
            F.least("label", F.coalesce("nl", "label")).alias("label"),
            (F.coalesce(F.col("nl"), F.col("label")) < F.col("label")).alias("changed"),
        )
        step = step.localCheckpoint()  # a lineage growing by a join per round would take minutes to plan
        changed = step.where("changed").count()
        labels = step.drop("changed")
        if changed == 0:
            break
    sizes = labels.groupBy("label").count()
    top = sizes.orderBy(F.col("count").desc(), F.col("label")).first()
    if top is None:
        return pairs.limit(0), {"nodes": 0, "rounds": rounds, "outside": 0}
    inside = labels.where(F.col("label") == top["label"]).select(F.col("n").alias("a"))
    total = labels.count()
    return pairs.join(inside, "a"), {"nodes": int(top["count"]), "rounds": rounds, "outside": int(total - top["count"])}


def write_node2vec_graph(
    triples: DataFrame, out: str | Path, *, keep_types: bool = False, max_degree: int | None = None
) -> dict[str, Any]:
    """Build the graph and write it to the Parquet file ``out`` (one file, sorted pairs)."""
    pairs = object_edges(triples, keep_types=keep_types, max_degree=max_degree)
    kept, info = largest_component(pairs)
    rows = kept.orderBy("a", "b").toPandas()
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), tmp)
    tmp.replace(out)
    return {**info, "edges": len(rows)}
