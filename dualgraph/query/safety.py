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

from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.guard import UPDATE_WORDS, check_read_query, sparql_words


class QueryRefused(StoreError):
    """A generated query that must not run; the message says why."""


_FORMS = ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE")


def check_query(query: str) -> str:
    """The query's form (SELECT, ASK, CONSTRUCT, DESCRIBE) if it is a safe read query; else raises.

    >>> check_query("SELECT ?p WHERE { ?p a skgt:Product }")
    'SELECT'
    >>> try:
    ...     check_query('INSERT DATA { skg:x skg:hasName "x" }')
    ... except QueryRefused as e:
    ...     print(e)
    INSERT refused: generated queries must be read-only
    """
    words = [w for w in sparql_words(query) if w.isalpha() and w not in ("PREFIX", "BASE")]
    if words and words[0] in UPDATE_WORDS:
        raise QueryRefused(f"{words[0]} refused: generated queries must be read-only")
    try:
        check_read_query(query)
    except StoreError as e:
        raise QueryRefused(str(e)) from e
    form = next((w for w in words if w in _FORMS), None)
    if form is None:
        raise QueryRefused("not a SPARQL query (expected SELECT, ASK, CONSTRUCT or DESCRIBE)")
    _parse(query)
    return form


def _parse(query: str) -> None:
    # An empty in-memory Oxigraph parses the query exactly as a SPARQL 1.1 engine would.
    import pyoxigraph as ox

    try:
        ox.Store().query(query, prefixes=O.PREFIXES)
    except SyntaxError as e:
        raise QueryRefused(f"malformed SPARQL: {e}") from e


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


def run_select(store, query: str, *, row_cap: int = 1000, timeout_s: float = 20.0) -> QueryResult:
    """Check and run a SELECT; more than ``row_cap`` rows are cut and flagged, not dropped silently.

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> r = run_select(OxigraphStore.in_memory(), "SELECT ?x WHERE { VALUES ?x { 1 2 3 } }", row_cap=2)
    >>> len(r.rows), r.total_rows, r.truncated
    (2, 3, True)
    """
    form = check_query(query)
    if form != "SELECT":
        raise QueryRefused(f"expected a SELECT query, got {form}")
    t0 = time.perf_counter()
    res = store.select(query, timeout_s=timeout_s)
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
