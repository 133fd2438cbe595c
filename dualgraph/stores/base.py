"""The SPARQL store protocol every backend implements.

Stores declare what they can do as :class:`Capabilities` flags (the rdflib way): a
caller asks ``store.capabilities.bulk_load_files`` rather than checking a class. A
remote SPARQL 1.1 endpoint is just another store.

Method names carry their cost: ``bulk_load`` streams whole files in one go; there is
deliberately no per-triple ``add``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


class StoreError(RuntimeError):
    """A store could not do what was asked (down, malformed query, refused update)."""


class QueryTimeout(StoreError):
    """A query ran past its ``timeout_s``; the caller stopped waiting for it."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a backend can do; callers branch on these, never on the class."""

    named_graphs: bool = True
    """One named graph per source document can be dropped and replaced."""
    bulk_load_files: bool = False
    """``bulk_load`` reads N-Triples/N-Quads files directly (no request-size limits)."""
    union_default_graph: bool = True
    """Queries without ``GRAPH`` see the union of all named graphs."""
    update: bool = True
    """Writes are possible (false for a store opened read-only)."""
    persistent: bool = True
    """Data survives a restart of the process."""
    snapshot: bool = False
    """Every read sees one state that nothing changes while the store is open (an embedded store
    opened read-only, or its copy in memory; never a server), so what was read may be kept."""
    dataset_restriction: bool = False
    """``restrict(graphs)`` limits later reads to those graphs (default and named), as a
    market's view of an index does (:func:`dualgraph.pipeline.index_store.restrict_to_market`)."""


@runtime_checkable
class SparqlStore(Protocol):
    """A SPARQL 1.1 store holding the Symbolic KG.

    All queries see the union of the named graphs as their default graph. The
    ``skg:``, ``skgt:``, ``rdf:``, ``rdfs:`` and ``xsd:`` prefixes are predeclared.
    """

    capabilities: Capabilities

    def bulk_load(
        self,
        path: str | os.PathLike | Sequence[str | os.PathLike],
        *,
        format: str = "nquads",
        progress: Callable[[int], None] | None = None,
    ) -> int:
        """Load whole N-Quads (``"nquads"``) or N-Triples (``"ntriples"``) files; returns quads read.

        ``progress`` is called with each count of bytes read from the files, for a bar over their size."""
        ...

    def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None) -> dict[str, Any]:
        """Run a read-only SELECT; returns SPARQL 1.1 JSON results (``head``/``results``).

        With ``max_rows``, at most ``max_rows + 1`` rows come back: one more than the cap
        tells the caller the result was cut. A query past ``timeout_s`` raises
        :class:`QueryTimeout`.
        """
        ...

    def ask(self, query: str, *, timeout_s: float | None = None) -> bool:
        """Run a read-only ASK."""
        ...

    def construct(
        self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None
    ) -> list[tuple[str, str, str]]:
        """Run a read-only CONSTRUCT/DESCRIBE; returns triples as N-Triples terms (``max_rows`` as in select)."""
        ...

    def insert_where(self, template: str, where: str, *, graph: str) -> int:
        """``INSERT { GRAPH <graph> { template } } WHERE { where }`` over the union graph.

        Returns how many new quads the graph gained, so rule engines can run to a fixpoint.
        """
        ...

    def update(self, sparql: str) -> None:
        """Run a SPARQL 1.1 Update exactly as written (explicit ``GRAPH`` clauses; no union default graph)."""
        ...

    def drop_graph(self, graph: str) -> None:
        """Remove a named graph and all its quads (no error if it does not exist)."""
        ...

    def graphs(self) -> list[str]:
        """IRIs of the named graphs in the store."""
        ...

    def count(self, *, graph: str | None = None) -> int:
        """Quads in one named graph, or in the whole store."""
        ...

    def check_reachable(self) -> None:
        """Raise :class:`StoreError` unless the store answers a trivial query now.

        Cheap (one request, retried like any other); commands call it before long work
        so that a dead or misconfigured server fails them at once, not hours in.
        """
        ...

    def close(self) -> None:
        """Flush and release the store."""
        ...


def select_paged(store: SparqlStore, query: str, key: str, page_size: int | None) -> list[dict[str, str]]:
    """All rows of an aggregate query, one page of ``page_size`` keys at a time if given.

    Pages by key (``STR(?key) >`` the last one seen) rather than OFFSET, which some servers
    refuse past their row cap; the ``#page`` comment in the query is where the filter goes.
    """

    def run(q: str) -> list[dict[str, str]]:
        res = store.select(q)
        return [{k: v["value"] for k, v in b.items()} for b in res["results"]["bindings"]]

    if not page_size:
        return run(query)
    rows: list[dict[str, str]] = []
    after: str | None = None
    while True:
        flt = f"FILTER(STR(?{key}) > {json.dumps(after, ensure_ascii=False)})" if after is not None else ""
        page = run(query.replace("#page", flt) + f"ORDER BY STR(?{key}) LIMIT {int(page_size)}\n")
        rows += page
        if len(page) < page_size:
            return rows
        after = page[-1][key]
