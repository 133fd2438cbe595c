"""The SKG export for node2vec: object edges only, types and hubs handled, one component."""

from __future__ import annotations

from dualgraph.align.graph_export import export_graph
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

X = "http://x/"


def _store() -> OxigraphStore:
    store = OxigraphStore.in_memory()
    triples = [
        ("p1", "hasSpec", "s1"),
        ("p2", "hasSpec", "s2"),
        ("s1", "value", "yes"),
        ("s2", "value", "yes"),
        ("p3", "hasSpec", "s3"),
        ("s3", "value", "yes"),
        ("lonely", "hasSpec", "s9"),
    ]
    body = " ".join(f"<{X}{s}> <{X}{p}> <{X}{o}> ." for s, p, o in triples)
    body += f' <{X}p1> <{O.TYPE}> <{O.PRODUCT}> . <{X}p2> <{O.TYPE}> <{O.PRODUCT}> . <{X}p1> <{X}name> "P1" .'
    store.update(f"INSERT DATA {{ GRAPH <{X}doc> {{ {body} }} GRAPH <{O.TEXT_GRAPH}> {{ <{X}p1> <{X}m> <{X}e1> }} }}")
    return store


def test_literals_types_and_the_text_graph_are_left_out() -> None:
    g = export_graph(_store())
    names = {n.removeprefix(X) for n in g.nodes}
    assert names == {"p1", "p2", "p3", "s1", "s2", "s3", "yes"}  # no literal, no class, no text entity
    assert g.dropped == {"type_edges": 2, "hub_nodes": 0, "outside_component": 2}  # lonely and s9
    assert len(g.edges) == 6 and all(a < b for a, b in g.edges.tolist())


def test_types_can_be_kept() -> None:
    g = export_graph(_store(), keep_types=True)
    assert O.PRODUCT in g.nodes and g.dropped["type_edges"] == 0


def test_a_hub_is_dropped_and_the_graph_falls_apart() -> None:
    # "yes" joins every product: without it the largest component is one product and its spec
    g = export_graph(_store(), max_degree=2)
    assert g.dropped["hub_nodes"] == 1 and f"{X}yes" not in g.nodes
    assert len(g.nodes) == 2 and len(g.edges) == 1


def test_an_empty_store_exports_an_empty_graph() -> None:
    g = export_graph(OxigraphStore.in_memory())
    assert g.nodes == [] and g.edges.shape == (0, 2)
