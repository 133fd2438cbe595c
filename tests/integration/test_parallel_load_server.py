"""Parallel bulk loads per named graph on real servers: Virtuoso (Graph Store Protocol) and the
Oxigraph HTTP server (N-Quads POSTs to ``/store``, through its profile).

Checked on each: a parallel load gives exactly the graphs a serial one gives; uploads of
different graphs really overlap, while one graph's chunks never do; progress comes in
file order and adds up to the bytes; a server refusal in the middle (through the fault
proxy, with other uploads still in flight) and a bad line both end in an error naming the
file and line, with every graph the load touched dropped and other graphs left alone.
Marked ``network``.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")

from dualgraph.skg import ontology as O
from dualgraph.stores import endpoint as endpoint_module
from dualgraph.stores.base import StoreError
from dualgraph.stores.endpoint import SparqlEndpointStore
from dualgraph.stores.retry import RetryPolicy
from reliability_tools.fault_proxy import Fault, FaultProxy

pytestmark = pytest.mark.network

GRAPHS = [O.GRAPH + f"par-{i}" for i in range(6)]
KEEP = O.GRAPH + "keep"
SERVERS = {"virtuoso": "endpoint_store", "oxigraph-server": "oxigraph_server_store"}


@pytest.fixture(params=list(SERVERS))
def server(request: pytest.FixtureRequest) -> SparqlEndpointStore:
    return request.getfixturevalue(SERVERS[request.param])


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> int:
    """Chunks of 500 statements, so a few thousand make several uploads per graph."""
    monkeypatch.setattr(endpoint_module, "GSP_CHUNK", 500)
    return 500


def _write(path: Path, per_graph: int, graphs: list[str], *, tag: str = "") -> Path:
    """Statements of every graph interleaved line by line, as a merged shard would hold them."""
    with path.open("w", encoding="utf-8") as f:
        for i in range(per_graph):
            for n, g in enumerate(graphs):
                f.write(f'<{O.SKG}s{n}-{i}> <{O.HAS_NAME}> "v{i} {tag}\\u00e9" <{g}> .\n')
    return path


def _contents(store: SparqlEndpointStore) -> dict[str, int]:
    return {g: store.count(graph=g) for g in store.graphs()}


class _Watch:
    """Wraps a store's chunk upload to see how many run at once, overall and per graph."""

    def __init__(self, store: SparqlEndpointStore) -> None:
        self.store, self.upload = store, store._upload
        self.lock = threading.Lock()
        self.now: dict[str | None, int] = {}
        self.most = self.most_one_graph = 0
        store._upload = self._wrapped  # type: ignore[method-assign]

    def _wrapped(self, path: Path, graph: str | None, line: int, triples: list[str]) -> None:
        with self.lock:
            self.now[graph] = self.now.get(graph, 0) + 1
            self.most = max(self.most, sum(self.now.values()))
            self.most_one_graph = max(self.most_one_graph, self.now[graph])
        try:
            self.upload(path, graph, line, triples)
        finally:
            with self.lock:
                self.now[graph] -= 1


def test_parallel_load_equals_serial_and_overlaps(
    server: SparqlEndpointStore, tmp_path: Path, small_chunks: int
) -> None:
    files = [_write(tmp_path / "a.nq", 600, GRAPHS[:4]), _write(tmp_path / "b.nq", 400, GRAPHS[2:], tag="b")]
    total = 600 * 4 + 400 * 4
    watch = _Watch(server)
    assert server.bulk_load(files, parallel=1) == total
    serial = _contents(server)
    assert watch.most == 1
    assert serial == {g: n for g, n in zip(GRAPHS, [600, 600, 1000, 1000, 400, 400], strict=True)}
    for g in GRAPHS:
        server.drop_graph(g)
    assert server.graphs() == []

    sizes: list[int] = []
    assert server.bulk_load(files, parallel=4, progress=sizes.append) == total
    assert _contents(server) == serial
    assert watch.most > 1, "no two uploads ran at once"
    assert watch.most_one_graph == 1, "two chunks of one graph were uploaded at once"
    assert sizes == [f.stat().st_size for f in files]
    # file b numbers its graphs from 0: GRAPHS[5] is its 4th
    assert server.ask(f'ASK {{ GRAPH <{GRAPHS[5]}> {{ skg:s3-399 skg:hasName "v399 b\u00e9" }} }}')


@pytest.fixture
def proxied(
    request: pytest.FixtureRequest, server: SparqlEndpointStore
) -> Iterator[tuple[SparqlEndpointStore, FaultProxy]]:
    """A second client of the same server, through the fault proxy (same loader and auth)."""
    port = int(server.query_url.split(":")[2].split("/")[0])
    with FaultProxy("127.0.0.1", port) as proxy:

        def via(url: str | None) -> str | None:
            return None if url is None else url.replace(f"127.0.0.1:{port}", f"127.0.0.1:{proxy.port}")

        store = SparqlEndpointStore(
            via(server.query_url) or "",
            update_url=via(server.update_url),
            graph_store_url=via(server.graph_store_url),
            bulk_load_url=via(server.bulk_load_url),
            bulk_content_type=server.bulk_content_type,
            user=server.user,
            password=server.password,
            auth=server.auth,
            retry=RetryPolicy(attempts=2, backoff_s=0.01, budget_s=5),
        )
        yield store, proxy
        store.close()
        proxy._closing = True  # wake its blocking accept() so close() does not wait 5 s
        socket.create_connection(("127.0.0.1", proxy.port), timeout=2).close()


def test_refused_upload_mid_load_drops_every_touched_graph(
    server: SparqlEndpointStore, proxied: tuple[SparqlEndpointStore, FaultProxy], tmp_path: Path, small_chunks: int
) -> None:
    store, proxy = proxied
    server.bulk_load(_write(tmp_path / "keep.nq", 10, [KEEP]))
    data = _write(tmp_path / "six.nq", 800, GRAPHS)
    # The 4th upload is refused for good; the others are slowed so several are in flight then.
    proxy.schedule = lambda i: Fault.status(400) if i == 3 else Fault.delay(0.15)
    with pytest.raises(StoreError) as e:
        store.bulk_load(data, parallel=4)
    msg = str(e.value)
    assert (
        re.search(r"six\.nq into <[^>]+> \(statements from line \d+ on\)", msg)
        and "HTTP 400" in msg
        and "dropped the graph(s)" in msg
    )
    proxy.schedule = lambda i: None
    assert _contents(server) == {KEEP: 10}  # nothing half loaded, even from uploads that finished late


def test_bad_line_mid_parallel_load_names_it_and_drops(
    server: SparqlEndpointStore, tmp_path: Path, small_chunks: int
) -> None:
    good = _write(tmp_path / "good.nq", 800, GRAPHS)
    bad = tmp_path / "bad.nq"
    lines = good.read_text(encoding="utf-8").splitlines(keepends=True)
    bad.write_text("".join(lines[:3500]) + "<broken> .\n" + "".join(lines[3500:]), encoding="utf-8")
    server.bulk_load(_write(tmp_path / "keep.nq", 10, [KEEP]))
    with pytest.raises(StoreError, match=r"bad\.nq, line 3501.*dropped the graph"):
        server.bulk_load(bad, parallel=3)
    assert _contents(server) == {KEEP: 10}
