"""Fixtures for integration tests that need a real server on loopback."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from llamacpp import LlamaCppServer, free_port, missing_runtime, start_llamacpp
from servers_oxigraph import OxigraphServer, start_oxigraph_server
from virtuoso import VirtuosoServer, start_virtuoso


@pytest.fixture(scope="session")
def llamacpp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaCppServer]:
    """The real SmolLM2-135M through llama.cpp's OpenAI-compatible server on 127.0.0.1, stopped by PID."""
    why = missing_runtime()
    if why:
        pytest.skip(why)
    server = start_llamacpp(tmp_path_factory.mktemp("llamacpp"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def virtuoso(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtuosoServer]:
    """One Virtuoso for the whole session (it takes seconds to start); stopped by PID at the end."""
    server = start_virtuoso(tmp_path_factory.mktemp("virtuoso"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def endpoint_store(virtuoso: VirtuosoServer):
    """A :class:`SparqlEndpointStore` on the session's Virtuoso, emptied of DualGraph graphs first.

    Loads go through the Graph Store Protocol with Digest auth as dba; the row cap is
    Virtuoso's default ``ResultSetMaxRows``.
    """
    pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")
    from dualgraph.stores.endpoint import SparqlEndpointStore

    store = SparqlEndpointStore(
        virtuoso.sparql_url,
        graph_store_url=virtuoso.graph_store_url,
        user="dba",
        password="dba",
        max_rows=10_000,
    )
    for graph in store.graphs():
        store.drop_graph(graph)
    assert store.graphs() == []
    yield store
    store.close()


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OxigraphServer]:
    """One ``oxigraph serve --union-default-graph`` for the whole session, on a free loopback port."""
    server = start_oxigraph_server(tmp_path_factory.mktemp("oxigraph-server"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def oxigraph_server_store(oxigraph_server: OxigraphServer):
    """A :class:`SparqlEndpointStore` on the session's Oxigraph server through the
    ``oxigraph-server`` profile (loads as N-Quads POSTs to ``/store``), emptied first."""
    pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")
    from dualgraph.stores.endpoint import open_endpoint

    store = open_endpoint("oxigraph-server", oxigraph_server.query_url)
    store.update("CLEAR ALL")
    assert store.graphs() == []
    yield store
    store.close()


@pytest.fixture(scope="session")
def spark():
    """One local Spark session (one JVM) for every Spark test of the run: small, quiet, no UI."""
    pytest.importorskip("pyspark", reason="the `spark` extra (pyspark) is not installed")
    from dualgraph.spark.session import spark_session

    session = spark_session(
        "dualgraph-tests",
        master="local[2]",
        shuffle_partitions=2,
        log_level="ERROR",
        progress=False,
        conf={"spark.ui.enabled": "false", "spark.sql.adaptive.enabled": "false"},
    )
    yield session
    session.stop()


@dataclass
class SharedServe:
    """The session's Ray Serve: its controller and HTTP proxy, on :attr:`port` of 127.0.0.1."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @contextmanager
    def running(self, *apps: tuple[str, str, Any]) -> Iterator[str]:
        """Each ``(name, route prefix, application)`` run on this Serve for the block; on leaving,
        every application on it is deleted (whatever the block left there), so the next module
        finds its route prefixes free. Yields the proxy's URL."""
        from ray import serve

        try:
            for name, prefix, app in apps:
                serve.run(app, name=name, route_prefix=prefix)
            yield self.url
        finally:
            # all at once: each waits for its replicas' graceful shutdown, seconds apiece
            for name in serve.status().applications:
                serve.delete(name, _blocking=False)
            deadline = time.monotonic() + 60
            while serve.status().applications:
                assert time.monotonic() < deadline, f"not deleted in 60 s: {serve.status().applications}"
                time.sleep(0.1)


@pytest.fixture(scope="session")
def shared_serve() -> Iterator[SharedServe]:
    """One Ray Serve for every Serve test module of the session, started with the HTTP proxy
    options ``dualgraph serve`` starts with (ServeConfig's defaults) on a free loopback port.

    Starting Serve's controller and proxy and shutting them down took each module seconds; now each
    module only runs its applications on it and deletes them (:meth:`SharedServe.running`). The
    tests that use it are in the "ray" xdist group (tests/conftest.py), hence on one worker and one
    local Ray, and run last in that group, so Serve is up only while they run."""
    serve = pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")
    from dualgraph.pipeline.ray_logging import init_ray
    from dualgraph.serve.app import ServeConfig

    config = ServeConfig(port=free_port())
    init_ray()
    serve.start(http_options=config.http_options())
    try:
        yield SharedServe(config.port)
    finally:
        serve.shutdown()
