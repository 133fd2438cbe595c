"""The circuit breaker of SparqlEndpointStore against a real Oxigraph HTTP server behind the
loopback fault proxy (which answers 503 or drops connections on a schedule, as a
server in trouble or its gateway would).

Checked: consecutive transient failures open the circuit; while open, calls fail at
once with a StoreDown naming the URL and how long it has been failing, and send nothing;
after the cool-down one probe goes out (half-open) and closes the circuit when it gets
an answer, or opens it again when it does not; a 500 is a query error (not retried, not
counted); answers after recovery are correct. Marked ``network``.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")

from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.circuit import CircuitBreaker, StoreDown
from dualgraph.stores.endpoint import SparqlEndpointStore, open_endpoint
from dualgraph.stores.retry import RetryPolicy
from reliability_tools.fault_proxy import Fault, FaultProxy, always

pytestmark = pytest.mark.network

S25 = Path(__file__).resolve().parents[1] / "fixtures" / "skg" / "samsung_s25_ultra.nq"
RETRY = RetryPolicy(attempts=2, backoff_s=0.01, budget_s=5)
COOLDOWN_S = 0.6


@pytest.fixture
def proxy(oxigraph_server, oxigraph_server_store: SparqlEndpointStore) -> Iterator[FaultProxy]:
    """The proxy in front of the (emptied, then loaded) session Oxigraph server."""
    oxigraph_server_store.bulk_load(S25)
    with FaultProxy("127.0.0.1", oxigraph_server.port) as p:
        yield p
        # Wake the proxy's blocking accept() so its close() does not wait 5 s for the thread.
        p._closing = True
        socket.create_connection(("127.0.0.1", p.port), timeout=2).close()


def _store(proxy: FaultProxy, breaker: CircuitBreaker) -> SparqlEndpointStore:
    return open_endpoint("oxigraph-server", proxy.url("/query"), retry=RETRY, breaker=breaker, timeout_s=5)


def test_breaker_opens_fails_fast_and_recovers_through_a_probe(proxy: FaultProxy) -> None:
    breaker = CircuitBreaker(failures=3, cooldown_s=COOLDOWN_S)
    store = _store(proxy, breaker)
    url = proxy.url("/query")
    assert store.ask("ASK { ?s ?p ?o }") and breaker.state == "closed"  # through the proxy, healthy
    proxy.schedule = always(Fault.status(503))
    sent = proxy.requests

    with pytest.raises(StoreError, match=r"HTTP 503.*\(2 attempts"):  # two tries: 2 failures in a row
        store.ask("ASK { ?s ?p ?o }")
    assert breaker.state == "closed"
    with pytest.raises(StoreDown, match=rf"SPARQL server at {url} is down: 3 transient failures in a row over"):
        store.ask("ASK { ?s ?p ?o }")  # the 3rd failure opens it: no 4th try
    assert breaker.state == "open" and proxy.requests == sent + 3

    t0 = time.monotonic()
    for call in (lambda: store.ask("ASK {}"), store.graphs, lambda: store.bulk_load(S25)):
        with pytest.raises(StoreError, match=rf"{url} is down: .* not calling it for another"):
            call()
    assert time.monotonic() - t0 < 0.3  # fast: no request, no backoff
    assert proxy.requests == sent + 3  # nothing reached the proxy while open

    # Cool-down over, server still failing: one probe goes out, fails, and reopens the circuit.
    time.sleep(COOLDOWN_S + 0.05)
    with pytest.raises(StoreDown):
        store.ask("ASK {}")
    assert proxy.requests == sent + 4 and breaker.state == "open"

    # The server recovers: after the next cool-down the probe gets through and closes it.
    proxy.schedule = lambda i: None
    with pytest.raises(StoreDown):
        store.ask("ASK {}")  # still cooling down
    time.sleep(COOLDOWN_S + 0.05)
    assert store.ask(f'ASK {{ ?p skg:hasName "Galaxy S25 Ultra 256GB Titanium Black" ; a <{O.PRODUCT}> }}')
    assert breaker.state == "closed"
    assert store.count() == oxigraph_count(proxy)


def oxigraph_count(proxy: FaultProxy) -> int:
    """The quad count read around the proxy, straight from the server: the referee."""
    direct = open_endpoint("oxigraph-server", f"http://{proxy.upstream[0]}:{proxy.upstream[1]}/query")
    try:
        return direct.count()
    finally:
        direct.close()


def test_dropped_connections_count_as_failures_too(proxy: FaultProxy) -> None:
    breaker = CircuitBreaker(failures=2, cooldown_s=30)
    store = _store(proxy, breaker)
    proxy.schedule = always(Fault.drop())
    with pytest.raises(StoreDown, match=r"is down: 2 transient failures"):
        store.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    assert breaker.state == "open"


def test_http_500_is_an_answer_not_an_outage(proxy: FaultProxy) -> None:
    """A 500 without a deadlock in its text is the query's fault: sent once, breaker stays closed."""
    breaker = CircuitBreaker(failures=1, cooldown_s=30)
    store = _store(proxy, breaker)
    proxy.schedule = always(Fault.status(500))
    sent = proxy.requests
    for _ in range(3):
        with pytest.raises(StoreError, match="500") as e:
            store.ask("ASK {}")
        assert not isinstance(e.value, StoreDown)
    assert proxy.requests == sent + 3 and breaker.state == "closed"


def test_no_breaker_keeps_retrying_each_call(proxy: FaultProxy) -> None:
    """Without a breaker (the store's default) every call spends its own tries, as before."""
    store = open_endpoint("oxigraph-server", proxy.url("/query"), retry=RETRY)
    proxy.schedule = always(Fault.status(503))
    sent = proxy.requests
    for _ in range(3):
        with pytest.raises(StoreError, match=r"HTTP 503.*2 attempts"):
            store.ask("ASK {}")
    assert proxy.requests == sent + 6
