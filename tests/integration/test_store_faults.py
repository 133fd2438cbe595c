"""A real Virtuoso behind the loopback fault proxy: every fault ends in a correct answer or
load after retries, or in a clear StoreError within the retry budget, and never leaves a
half-loaded graph (graph contents are checked against a clean load, on Virtuoso directly).

Marked ``network``; skips through the ``virtuoso`` fixture when Virtuoso is not installed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")

from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.endpoint import SparqlEndpointStore
from dualgraph.stores.retry import RetryPolicy
from reliability_tools.fault_proxy import Fault, FaultProxy, always, every, first

pytestmark = pytest.mark.network

RETRY = RetryPolicy(attempts=4, backoff_s=0.05, budget_s=10)
G1, G2 = O.GRAPH + "fault-a", O.GRAPH + "fault-b"


@pytest.fixture
def direct(endpoint_store: SparqlEndpointStore) -> SparqlEndpointStore:
    """Virtuoso without the proxy, emptied of DualGraph graphs: the referee."""
    return endpoint_store


@pytest.fixture
def proxy(virtuoso) -> Iterator[FaultProxy]:
    with FaultProxy("127.0.0.1", virtuoso.http_port) as p:
        yield p


def _store(proxy: FaultProxy, *, gsp: bool = True, timeout_s: float = 10) -> SparqlEndpointStore:
    return SparqlEndpointStore(
        proxy.url("/sparql"),
        graph_store_url=proxy.url("/sparql-graph-crud-auth") if gsp else None,
        user="dba" if gsp else None,
        password="dba" if gsp else None,
        timeout_s=timeout_s,
        retry=RETRY,
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """Two graphs, 2500 statements interleaved, so INSERT DATA loads take several requests each."""
    lines = [f'<{O.SKG}s{i}> <{O.SKG}p> "v{i} \\"q\\"" <{G1 if i % 2 else G2}> .\n' for i in range(2500)]
    path = tmp_path / "two.nq"
    path.write_text("".join(lines), encoding="utf-8")
    return path


def _triples(store: SparqlEndpointStore, graph: str) -> set[tuple[str, str, str]]:
    return set(store.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"))


@pytest.fixture
def clean(direct: SparqlEndpointStore, data: Path) -> dict[str, set]:
    """What a load without faults gives, then the store emptied again."""
    direct.bulk_load(data)
    out = {g: _triples(direct, g) for g in (G1, G2)}
    assert all(len(t) == 1250 for t in out.values())
    for g in (G1, G2):
        direct.drop_graph(g)
    return out


@pytest.mark.parametrize(
    "schedule",
    [
        first(2, Fault.status(503)),
        first(1, Fault.status(429)),
        first(2, Fault.status(502)),
        first(1, Fault.drop()),
        first(1, Fault.cut()),
        first(1, Fault.delay(2.5)),  # past the store's 1 s timeout: retried
    ],
    ids=["503x2", "429", "502x2", "drop", "cut", "delay"],
)
def test_transient_query_faults_are_retried(proxy: FaultProxy, schedule) -> None:
    proxy.schedule = schedule
    store = _store(proxy, gsp=False, timeout_s=1)
    assert store.ask("ASK {}") is True
    assert proxy.requests >= 2 and proxy.faults >= 1


@pytest.mark.parametrize("code", [400, 403, 500])
def test_other_errors_are_not_retried(proxy: FaultProxy, code: int) -> None:
    proxy.schedule = always(Fault.status(code))
    with pytest.raises(StoreError, match="sparql"):
        _store(proxy, gsp=False).ask("ASK {}")
    assert proxy.requests == 1


def test_a_server_that_stays_down_ends_in_a_clear_error_within_the_budget(proxy: FaultProxy) -> None:
    proxy.schedule = always(Fault.status(503))
    t0 = time.monotonic()
    with pytest.raises(StoreError) as e:
        _store(proxy, gsp=False).select("SELECT * { ?s ?p ?o } LIMIT 1")
    assert time.monotonic() - t0 < RETRY.budget_s
    assert proxy.url("/sparql") in str(e.value) and "503" in str(e.value) and "4 attempts" in str(e.value)


def test_check_reachable(proxy: FaultProxy) -> None:
    store = _store(proxy)
    proxy.schedule = first(1, Fault.drop())
    store.check_reachable()
    proxy.schedule = always(Fault.drop())
    with pytest.raises(StoreError, match="cannot reach SPARQL endpoint at .*4 attempts"):
        store.check_reachable()


@pytest.mark.parametrize("gsp", [True, False], ids=["graph-store", "insert-data"])
@pytest.mark.parametrize(
    "schedule",
    [every(3, Fault.drop()), every(3, Fault.status(503)), every(4, Fault.cut())],
    ids=["drop-every-3rd", "503-every-3rd", "cut-every-4th"],
)
def test_loads_through_faults_equal_a_clean_load(
    proxy: FaultProxy, direct: SparqlEndpointStore, clean: dict, data: Path, gsp: bool, schedule
) -> None:
    proxy.schedule = schedule
    store = _store(proxy, gsp=gsp)
    assert store.bulk_load(data) == 2500
    assert proxy.faults >= 1
    assert {g: _triples(direct, g) for g in (G1, G2)} == clean


@pytest.mark.parametrize("gsp", [True, False], ids=["graph-store", "insert-data"])
@pytest.mark.parametrize("before", [False, True], ids=["new", "reload"])
def test_a_load_that_fails_midway_leaves_no_half_graph(
    proxy: FaultProxy, direct: SparqlEndpointStore, clean: dict, data: Path, gsp: bool, before: bool
) -> None:
    if before:  # the graphs already hold the data: a failed reload must not leave a mix either
        direct.bulk_load(data)
    # The third request and every retry of it fail (one try each: 4 in a row), then the
    # server is back, so the store can drop what it had written.
    proxy.schedule = lambda i: Fault.status(503) if 2 <= i < 2 + RETRY.attempts else None
    with pytest.raises(StoreError) as e:
        _store(proxy, gsp=gsp).bulk_load(data)
    msg = str(e.value)
    assert f"cannot load {data} into <" in msg and "503" in msg and "4 attempts" in msg
    assert "dropped the graph(s) it had written to, so none is half loaded" in msg
    for g in (G1, G2):  # each graph is absent or whole, never part of the load
        assert _triples(direct, g) in (set(), clean[g]), g
    assert direct.graphs() != [G1, G2] or before
