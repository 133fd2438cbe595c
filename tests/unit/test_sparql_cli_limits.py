"""`dualgraph sparql --max-rows/--timeout` and the embedded store's limits, on a cartesian
product of 3000 x 3000 solutions: the row cap stops reading early (nothing like 9 million
rows is ever held) and the timeout stops both the wait and the streaming work, and both
are reported (stderr, exit status, a ``truncated`` flag in the JSON)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from dualgraph.cli import SPARQL_TIMED_OUT, SPARQL_TRUNCATED, main
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.query.sparql.safety import run_select
from dualgraph.stores.base import QueryTimeout
from dualgraph.stores.oxigraph import OxigraphStore

N = 3000
PRODUCT = "SELECT ?a ?b WHERE { ?a <http://x/p> ?x . ?b <http://x/p> ?y }"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("index")
    data = root / "d.nq"
    data.write_text("".join(f'<http://x/s{i}> <http://x/p> "{i}" <http://x/g> .\n' for i in range(N)))
    with OxigraphStore(IndexLayout(root).store) as store:
        store.bulk_load(data)
    return root


def _query_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "oxigraph-query"]


def test_max_rows_cuts_early_and_says_so(index: Path, capsys) -> None:
    t0 = time.monotonic()
    assert main(["sparql", PRODUCT, "--index", str(index), "--max-rows", "5"]) == SPARQL_TRUNCATED
    assert time.monotonic() - t0 < 5  # 9 million rows would take far longer
    out = capsys.readouterr()
    result = json.loads(out.out)
    assert len(result["results"]["bindings"]) == 5 and result["truncated"] is True and result["max_rows"] == 5
    assert "result cut at 5 rows (--max-rows)" in out.err


def test_construct_is_capped_too(index: Path, capsys) -> None:
    query = "CONSTRUCT { ?a <http://x/q> ?b } WHERE { ?a <http://x/p> ?x . ?b <http://x/p> ?y }"
    assert main(["sparql", query, "--index", str(index), "--max-rows", "3"]) == SPARQL_TRUNCATED
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 3 and "cut at 3 triples" in out.err


def test_a_result_under_the_cap_is_whole(index: Path, capsys) -> None:
    query = "SELECT ?s WHERE { ?s <http://x/p> ?o } LIMIT 7"
    assert main(["sparql", query, "--index", str(index), "--max-rows", "7"]) == 0
    out = capsys.readouterr()
    assert len(json.loads(out.out)["results"]["bindings"]) == 7 and "truncated" not in out.out and not out.err


def test_timeout_stops_the_wait_and_the_work(index: Path, capsys) -> None:
    t0 = time.monotonic()
    code = main(["sparql", PRODUCT, "--index", str(index), "--max-rows", str(N * N), "--timeout", "0.5"])
    assert code == SPARQL_TIMED_OUT and time.monotonic() - t0 < 3
    assert "timed out after 0.5 s" in capsys.readouterr().err
    deadline = time.monotonic() + 3
    while _query_threads() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _query_threads()  # the worker saw the stop flag at its next row


def test_store_and_run_select_limits(index: Path) -> None:
    with OxigraphStore(IndexLayout(index).store, read_only=True) as store:
        t0 = time.monotonic()
        res = run_select(store, PRODUCT, row_cap=10, timeout_s=10)
        assert res.truncated and len(res.rows) == 10 and res.total_rows == 11
        assert time.monotonic() - t0 < 5
        with pytest.raises(QueryTimeout, match="timed out"):
            store.select(PRODUCT, timeout_s=0.2)
        assert store.ask("ASK { ?a <http://x/p> ?x }", timeout_s=5) is True
