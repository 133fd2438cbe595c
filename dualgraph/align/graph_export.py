"""The SKG as a plain graph for node2vec: IRI nodes, object edges, one connected component.

Literals are left out (node2vec embeds nodes by the walks through them; a literal is a leaf
that only its subject reaches). ``rdf:type`` edges are left out by default: every product
points at the same few classes, which would make them the graph's centre and every walk pass
through them. Nodes of very high degree (hubs: a brand, a common value such as "Yes") are
dropped above ``max_degree`` for the same reason; both choices are options so they can be
measured. The text graph and the aligner's own output are not exported: TKG entities come in through
the text side.

>>> from dualgraph.stores.oxigraph import OxigraphStore
>>> store = OxigraphStore.in_memory()
>>> store.update("INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> <http://x/b> . "
...              "<http://x/b> <http://x/p> <http://x/c> . <http://x/d> <http://x/p> <http://x/e> } }")
>>> g = export_graph(store)
>>> g.nodes, g.edges.tolist()
(['http://x/a', 'http://x/b', 'http://x/c'], [[0, 1], [1, 2]])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from dualgraph.skg import ontology as O


@dataclass
class GraphExport:
    """Nodes (IRIs, sorted) and undirected edges as index pairs into them, deduplicated."""

    nodes: list[str]
    edges: np.ndarray  # (m, 2) int64, i < j
    dropped: dict[str, int] = field(default_factory=dict)
    """What was left out and how much: type edges, hub nodes, nodes outside the largest component."""


def export_graph(store, *, keep_types: bool = False, max_degree: int | None = None) -> GraphExport:
    """The largest connected component of the SKG's object edges (text and alignment graphs excluded)."""
    rows = store.select(
        f"SELECT DISTINCT ?s ?p ?o WHERE {{ GRAPH ?g {{ ?s ?p ?o }} "
        f"FILTER(isIRI(?o) && ?g != <{O.TEXT_GRAPH}> && ?g != <{O.ALIGNMENT_GRAPH}>) }}"
    )["results"]["bindings"]
    pairs: set[tuple[str, str]] = set()
    types = 0
    for r in rows:
        if not keep_types and r["p"]["value"] == O.TYPE:
            types += 1
            continue
        s, o = r["s"]["value"], r["o"]["value"]
        if s != o:
            pairs.add((s, o) if s < o else (o, s))
    hubs: set[str] = set()
    if max_degree is not None:
        degree = Counter(n for pair in pairs for n in pair)
        hubs = {n for n, d in degree.items() if d > max_degree}
        pairs = {p for p in pairs if p[0] not in hubs and p[1] not in hubs}
    kept, outside = _largest_component(pairs)
    nodes = sorted({n for p in kept for n in p})
    at = {n: i for i, n in enumerate(nodes)}
    edges = np.array(sorted((at[a], at[b]) for a, b in kept), dtype=np.int64).reshape(-1, 2)
    return GraphExport(nodes, edges, {"type_edges": types, "hub_nodes": len(hubs), "outside_component": outside})


def _largest_component(pairs: set[tuple[str, str]]) -> tuple[list[tuple[str, str]], int]:
    """The edges of the largest connected component, and how many nodes lie outside it."""
    if not pairs:
        return [], 0
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    names = sorted({n for p in pairs for n in p})
    at = {n: i for i, n in enumerate(names)}
    rows = np.array([at[a] for a, _ in pairs])
    cols = np.array([at[b] for _, b in pairs])
    matrix = coo_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(names), len(names)))
    _, label = connected_components(matrix, directed=False)
    biggest = np.bincount(label).argmax()
    inside = label == biggest
    kept = [p for p in pairs if inside[at[p[0]]]]
    return kept, int((~inside).sum())


def read_graph(path) -> GraphExport:
    """A graph written by the Spark job (:mod:`dualgraph.spark.node2vec_graph`): a Parquet file of
    ``a, b`` node pairs, already one connected component."""
    import pyarrow.parquet as pq

    table = pq.read_table(path, columns=["a", "b"])
    a, b = table.column("a").to_pylist(), table.column("b").to_pylist()
    nodes = sorted(set(a) | set(b))
    at = {n: i for i, n in enumerate(nodes)}
    pairs = sorted({(min(at[x], at[y]), max(at[x], at[y])) for x, y in zip(a, b, strict=True) if x != y})
    edges = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    return GraphExport(nodes, edges, {"read_from": 1})
