"""Every generated query passes here before it touches a store: parsed, read-only, bounded.

A query is refused (:class:`QueryRefused`) when it is not a read query (any update
operation: INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY), when it calls a
remote endpoint (SERVICE), or when it does not parse. Accepted queries run with a
timeout, and a result larger than the row cap is cut *and reported* (``truncated``,
``total_rows``), never silently.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from dualgraph.stores.guard import QueryRefused, read_query

__all__ = ["QUERY_TIMEOUT_S", "ROW_CAP", "QueryRefused", "QueryResult", "check_query", "run_select"]

ROW_CAP = 1000
"""Rows read from one query of a question (the store stops one row past it); a longer result is cut
and flagged, and the answer record names the cap (``query_rows``)."""

QUERY_TIMEOUT_S = 20.0
"""Seconds one query of a question may run in the store (the question's own budget bounds it too)."""


def check_query(query: str) -> str:
    """The query's form (SELECT, ASK, CONSTRUCT, DESCRIBE) if it is a safe read query; else raises.

    The decision is the stores' own (:func:`dualgraph.stores.guard.read_query`, on the
    parsed query), so a query that passes here is one every store accepts.

    >>> check_query("SELECT ?p WHERE { ?p a skgt:Product }")
    'SELECT'
    >>> try:
    ...     check_query('INSERT DATA { skg:x skg:hasName "x" }')
    ... except QueryRefused as e:
    ...     print(e)
    INSERT DATA refused: queries are read-only (use insert_where or bulk_load to write)
    """
    return read_query(query).form


@dataclass(slots=True)
class QueryResult:
    """Rows of a SELECT (W3C JSON bindings), with how it ran and whether it was cut."""

    query: str
    vars: list[str]
    rows: list[dict[str, Any]] = field(default_factory=list)
    total_rows: int = 0
    truncated: bool = False
    row_cap: int = 0
    seconds: float = 0.0

    def values(self, var: str) -> list[str]:
        return [r[var]["value"] for r in self.rows if var in r]


def run_select(store, query: str, *, row_cap: int = ROW_CAP, timeout_s: float = QUERY_TIMEOUT_S) -> QueryResult:
    """Check and run a SELECT; more than ``row_cap`` rows are cut and flagged, not dropped silently.

    The store reads at most ``row_cap + 1`` rows, so a huge result costs no memory; when
    ``truncated``, ``total_rows`` is therefore only a lower bound ("more than row_cap").

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> r = run_select(OxigraphStore.in_memory(), "SELECT ?x WHERE { VALUES ?x { 1 2 3 } }", row_cap=2)
    >>> len(r.rows), r.total_rows, r.truncated
    (2, 3, True)
    >>> r = run_select(OxigraphStore.in_memory(), "SELECT ?x WHERE { VALUES ?x { 1 2 3 4 5 } }", row_cap=2)
    >>> r.total_rows  # the store stops reading at row_cap + 1: a lower bound once cut
    3
    """
    form = check_query(query)
    if form != "SELECT":
        raise QueryRefused(f"expected a SELECT query, got {form}")
    t0 = time.perf_counter()
    res = store.select(query, timeout_s=timeout_s, max_rows=row_cap)
    rows = res["results"]["bindings"]
    return QueryResult(
        query=query,
        vars=list(res["head"]["vars"]),
        rows=rows[:row_cap],
        total_rows=len(rows),
        truncated=len(rows) > row_cap,
        row_cap=row_cap,
        seconds=time.perf_counter() - t0,
    )
