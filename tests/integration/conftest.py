"""Fixtures for integration tests that need a real server on loopback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from llamacpp import LlamaCppServer, missing_runtime, start_llamacpp
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
