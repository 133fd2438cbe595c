"""Collecting the shared nodes of the vocabulary graph (values, entries, sections, ranges) that
nothing points to any more, once document graphs and derived graphs were dropped.

A node is garbage when no triple of any graph but the text graph has it as object. The whole
collection (:func:`collect_vocabulary_garbage` without candidates) tests every node of the
vocabulary; a re-index that dropped a few documents knows which nodes could have lost their last
referrer (the objects of what it dropped: :func:`referenced_nodes`) and tests those alone, then the
objects of what it removed, round after round: its cost follows the change, not the catalog. It
finds what the whole collection finds as long as no node was garbage before the drops, which holds
after a finished run (every node a run loads has its referrer); a clean-up a stopped run left due is
done whole by the next (the index driver decides).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dualgraph.skg import ontology as O
from dualgraph.stores.base import select_paged

_ORPHANS = f"""
DELETE {{ GRAPH <{O.VOCAB_GRAPH}> {{ ?x ?p ?o }} }}
WHERE {{ GRAPH <{O.VOCAB_GRAPH}> {{ ?x ?p ?o }}
        FILTER NOT EXISTS {{ GRAPH ?g {{ ?y ?q ?x }} FILTER(?g != <{O.TEXT_GRAPH}>) }} }}
"""

_REFERENCED = """
SELECT DISTINCT ?o WHERE {{ VALUES ?g {{ {graphs} }} GRAPH ?g {{ ?s ?p ?o }} FILTER(isIRI(?o)) #page
}}
"""

_ORPHANED = f"""
SELECT ?x ?p ?o WHERE {{
  VALUES ?x {{ {{values}} }}
  GRAPH <{O.VOCAB_GRAPH}> {{ ?x ?p ?o }}
  FILTER NOT EXISTS {{ GRAPH ?g {{ ?y ?q ?x }} FILTER(?g != <{O.TEXT_GRAPH}>) }}
}}
"""

_DROP = f"""
DELETE {{ GRAPH <{O.VOCAB_GRAPH}> {{ ?x ?p ?o }} }}
WHERE {{ VALUES ?x {{ {{values}} }} GRAPH <{O.VOCAB_GRAPH}> {{ ?x ?p ?o }} }}
"""

BATCH = 1_000
"""Nodes a VALUES block: the query stays far below any server's length limit."""


def referenced_nodes(store: Any, graphs: Iterable[str]) -> set[str]:
    """The IRIs the triples of ``graphs`` have as objects: the only nodes that dropping those
    graphs can leave without a referrer."""
    out: set[str] = set()
    # paged only where the store caps its rows: each page evaluates the graphs again
    page = getattr(store, "max_rows", None)
    for block in _blocks(sorted(set(graphs))):  # many dropped documents: one query a block, not a graph
        out.update(r["o"] for r in select_paged(store, _REFERENCED.format(graphs=block), "o", page))
    return out


def collect_vocabulary_garbage(store: Any, *, candidates: set[str] | None = None, max_rounds: int = 10) -> int:
    """Remove shared nodes that no remaining triple points to; returns how many quads went.

    Runs until nothing changes: dropping an entry can orphan its section, a range its category.
    ``candidates``: the only nodes that can have become garbage (see :func:`referenced_nodes`),
    each round then testing the objects of the triples it removed; None tests every node.
    """
    if candidates is None:
        before = start = store.count(graph=O.VOCAB_GRAPH)
        for _ in range(max_rounds):
            store.update(_ORPHANS)
            after = store.count(graph=O.VOCAB_GRAPH)
            if after == before:
                break
            before = after
        return start - before
    removed, todo = 0, sorted(candidates)
    for _ in range(max_rounds):
        if not todo:
            break
        # every orphan of this round is found before any is removed, as the whole collection's
        # one DELETE finds them
        gone: list[tuple[str, str, str]] = []
        for values in _blocks(todo):
            res = store.select(_ORPHANED.replace("{values}", values))
            gone += [(b["x"]["value"], b["p"]["value"], _term(b["o"])) for b in res["results"]["bindings"]]
        nodes = sorted({x for x, _, _ in gone})
        for values in _blocks(nodes):
            store.update(_DROP.replace("{values}", values))
        removed += len(gone)
        todo = sorted({o[1:-1] for _, _, o in gone if o.startswith("<")} - set(nodes))
    return removed


def _blocks(iris: list[str]) -> Iterable[str]:
    for i in range(0, len(iris), BATCH):
        yield " ".join(f"<{x}>" for x in iris[i : i + BATCH])


def _term(binding: dict[str, str]) -> str:
    # only IRIs matter to the next round; a literal is kept as its text
    return f"<{binding['value']}>" if binding.get("type") == "uri" else binding["value"]
