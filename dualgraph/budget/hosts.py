"""What a budgeted worker serves: an answering engine or a read-only store, and their picklable recipes.

:class:`EngineOpener` and :class:`StoreOpener` are sent to the child (they must pickle), which calls
one to build an :class:`EngineHost` or a :class:`QueryHost`; the parent then names their methods
in :meth:`~dualgraph.budget.worker.BudgetedWorker.call`. What comes back crosses a pipe, so the
hosts return records and plain results, never the engine or the store themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dualgraph.answer.engine import EngineSpec, QAEngine
    from dualgraph.answer.record import AnswerRecord
    from dualgraph.query.sparql.safety import QueryResult
    from dualgraph.stores.base import SparqlStore

__all__ = ["EngineHost", "EngineOpener", "QueryHost", "StoreOpener", "runs_here", "user_query"]


def runs_here(index_dir: str | Path) -> bool:
    """Whether the index's store runs its queries in the process that opens it (the embedded
    Oxigraph): only then is there local work for a budgeted worker to bound. A SPARQL server does
    the work itself, under its own limits and the client's HTTP timeout; an unreadable
    ``store.json`` counts as not here, so that opening it reports the problem in the caller.

    >>> import tempfile
    >>> runs_here(tempfile.mkdtemp())  # no store.json: the embedded store
    True
    """
    from dualgraph.pipeline.index_store import load_store_config

    try:
        return load_store_config(index_dir).kind == "oxigraph"
    except Exception:
        return False


def user_query(store: SparqlStore, query: str, *, timeout: float | None, max_rows: int) -> dict[str, Any]:
    """A user's read-only query, as :meth:`dualgraph.api.DualGraph.sparql` returns it: SPARQL 1.1
    JSON results for SELECT and ASK, ``{"triples": [...]}`` for CONSTRUCT and DESCRIBE; more than
    ``max_rows`` rows or triples are cut, with ``"truncated": True, "max_rows": max_rows``.

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> user_query(OxigraphStore.in_memory(), "SELECT ?x { VALUES ?x { 1 2 3 } }", timeout=5, max_rows=2)["truncated"]
    True
    """
    from dualgraph.stores.guard import read_query

    form = read_query(query).form
    out: dict[str, Any]
    if form == "ASK":
        return {"head": {}, "boolean": store.ask(query, timeout_s=timeout)}
    if form in ("CONSTRUCT", "DESCRIBE"):
        triples = store.construct(query, max_rows=max_rows, timeout_s=timeout)
        out = {"triples": list(triples[:max_rows])}
        cut = len(triples) > max_rows
    else:
        out = store.select(query, max_rows=max_rows, timeout_s=timeout)
        cut = len(out["results"]["bindings"]) > max_rows
        if cut:
            out["results"]["bindings"] = out["results"]["bindings"][:max_rows]
    if cut:
        out["truncated"] = True  # outside the W3C keys, which have no such flag
        out["max_rows"] = max_rows
    return out


class QueryHost:
    """A read-only store in a worker: user queries (:func:`user_query`), capped SELECTs and ASKs."""

    def __init__(self, store: SparqlStore) -> None:
        self.store = store

    def sparql(self, query: str, timeout: float | None, max_rows: int) -> dict[str, Any]:
        return user_query(self.store, query, timeout=timeout, max_rows=max_rows)

    def select_capped(self, query: str, row_cap: int, timeout_s: float) -> QueryResult:
        from dualgraph.query.sparql.safety import run_select

        return run_select(self.store, query, row_cap=row_cap, timeout_s=timeout_s)

    def ask(self, query: str, timeout_s: float | None) -> bool:
        return self.store.ask(query, timeout_s=timeout_s)

    def close(self) -> None:
        self.store.close()


@dataclass(frozen=True)
class StoreOpener:
    """The recipe of a :class:`QueryHost`: the index's store opened read-only, as
    :attr:`dualgraph.api.DualGraph.store` opens it (the same URL override, auth rule and market)."""

    index_dir: Path
    store_url: str | None = None
    allow_insecure_auth: bool = False
    market: str | None = None

    def __call__(self) -> QueryHost:
        from dualgraph.pipeline.index_store import index_store_config, open_store

        config = index_store_config(self.index_dir, url=self.store_url, allow_insecure_auth=self.allow_insecure_auth)
        return QueryHost(open_store(config, self.index_dir, read_only=True, market=self.market))


class EngineHost:
    """An answering engine in a worker: batches of questions in, records out."""

    def __init__(self, engine: QAEngine) -> None:
        self.engine = engine

    def answer_batch(self, items: list[tuple[str, str]], strategy: str | None) -> list[AnswerRecord]:
        return self.engine.answer_batch(items, strategy=strategy)

    def prepare(self) -> None:
        self.engine.prepare()

    def close(self) -> None:
        self.engine.close()


@dataclass(frozen=True)
class EngineOpener:
    """The recipe of an :class:`EngineHost`: ``spec``'s engine, prepared (its per-index work done up
    front, as bulk runs and the server want) when ``prepare``."""

    spec: EngineSpec
    prepare: bool = False

    def __call__(self) -> EngineHost:
        from dualgraph.answer.engine import QAEngine

        engine = QAEngine.open(self.spec.index_dir, self.spec.config)
        if self.prepare:
            engine.prepare()
        return EngineHost(engine)
