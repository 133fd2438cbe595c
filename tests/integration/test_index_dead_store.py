"""`dualgraph index` against a SPARQL server that is down fails at once, before converting anything."""

from __future__ import annotations

import socket
import time

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra is not installed")

from dualgraph.config import IndexConfig, StoreConfig
from dualgraph.pipeline.generations import CURRENT, NEXT
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.stores.base import StoreError
from reliability_tools.kill_points import write_v1


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def test_a_dead_store_fails_before_any_document_is_converted(tmp_path):
    write_v1(tmp_path / "ds")
    url = f"http://127.0.0.1:{closed_port()}/sparql"
    store = StoreConfig(kind="endpoint", query_url=url, retry_attempts=3, retry_backoff_s=0.05, retry_budget_s=2)
    config = IndexConfig(runner="inline", progress=False, store=store, patterns=False)
    started = time.perf_counter()
    with pytest.raises(StoreError) as err:
        build_index(tmp_path / "ds", tmp_path / "ix", config)
    assert time.perf_counter() - started < 10
    assert url.rsplit("/", 1)[0] in str(err.value) and "3 attempts" in str(err.value)
    # nothing was converted: no shard written in the generation the run started (left for the
    # next run to resume, never published), no document recorded
    left = tmp_path / "ix" / NEXT
    assert left.is_symlink() and not (tmp_path / "ix" / CURRENT).exists()
    assert not any(IndexLayout(left.resolve()).shards.iterdir())
