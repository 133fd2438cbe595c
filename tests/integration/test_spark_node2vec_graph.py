"""The aligner's node2vec graph built by Spark equals the one built in process, choice by choice."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspark", reason="the `spark` extra (pyspark) is not installed")

from dualgraph.align.graph_export import export_graph, read_graph
from dualgraph.skg import ontology as O
from dualgraph.spark.node2vec_graph import write_node2vec_graph
from dualgraph.spark.triples import export_triples
from dualgraph.stores.oxigraph import OxigraphStore

pytestmark = pytest.mark.spark

X = "http://x/"


@pytest.fixture(scope="module")
def triples(tmp_path_factory):
    """A star of products around a hub value, a chain, a separate smaller component, type edges,
    literals, and text/alignment edges that must not count."""
    root = tmp_path_factory.mktemp("n2v")
    doc, text, align = f"<{X}doc>", f"<{O.TEXT_GRAPH}>", f"<{O.ALIGNMENT_GRAPH}>"
    t = [f"<{X}p{i}> <{X}has> <{X}hub> . <{X}p{i}> a <{X}Product> . <{X}p{i}> <{X}name> 'p{i}' ." for i in range(6)]
    t += [f"<{X}p0> <{X}next> <{X}c1> . <{X}c1> <{X}next> <{X}c2> . <{X}c2> <{X}next> <{X}p5> ."]
    t += [f"<{X}q1> <{X}has> <{X}q2> . <{X}q2> <{X}has> <{X}q3> . <{X}q1> a <{X}Product> ."]
    tx = [f"<{X}e1> <{X}mentions> <{X}q1> . <{X}p1> <{X}mentions> <{X}e1> ."]
    al = [f"<{X}e1> <{X}alignsWith> <{X}q3> ."]
    store = OxigraphStore(root / "store")
    store.update(
        f"INSERT DATA {{ GRAPH {doc} {{ {' '.join(t)} }} GRAPH {text} {{ {' '.join(tx)} }} GRAPH {align} {{ {' '.join(al)} }} }}"
    )
    store.close()
    export_triples(root / "store", root / "triples.parquet", progress=False)
    return root


@pytest.mark.parametrize("choice", [{}, {"keep_types": True}, {"max_degree": 3}])
def test_spark_graph_equals_the_in_process_one(spark, triples, choice, tmp_path):
    with OxigraphStore(triples / "store", read_only=True) as store:
        here = export_graph(store, **choice)
    report = write_node2vec_graph(
        spark.read.parquet(str(triples / "triples.parquet")), tmp_path / "g.parquet", **choice
    )
    there = read_graph(tmp_path / "g.parquet")
    assert there.nodes == here.nodes and there.edges.tolist() == here.edges.tolist()
    assert report["nodes"] == len(here.nodes) and report["edges"] == len(here.edges)
    assert report["outside"] == here.dropped["outside_component"]
    assert not any(n.endswith("/e1") for n in there.nodes)  # text and alignment edges left out
