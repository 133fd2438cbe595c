"""Answering from the embedded store copied into memory (``AskConfig.in_memory_quads``).

The copy must answer exactly as the files do, keep a market's restriction, refuse writes,
and be taken only when the index is small enough; the command line copies for a questions
file or a server and not for one question.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index

from dualgraph.answer.engine import IN_MEMORY_QUADS, AskConfig, QAEngine, _index_quads
from dualgraph.cli import _in_memory_quads
from dualgraph.config import IndexConfig
from dualgraph.pipeline.index_store import open_store
from dualgraph.stores.base import StoreError
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_markets import PRICES, rows, two_markets  # noqa: F401 - a fixture

QUESTIONS = [
    "Which phones have a 7000 mAh battery?",
    "How many phones have a 7000 mAh battery?",
    "Which phone has the biggest battery?",
    "Which phones have 5G and NFC?",
    "What is the cheapest phone?",
]


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return catalog_index(tmp_path_factory)


def _store(engine: QAEngine) -> OxigraphStore:
    store = engine.kit.symbolic.compiler.store  # type: ignore[union-attr]
    assert isinstance(store, OxigraphStore)
    return store


def test_the_copy_answers_as_the_files_do(index: Path) -> None:
    with QAEngine.open(index, AskConfig()) as disk, QAEngine.open(index, AskConfig(in_memory_quads=10**9)) as memory:
        assert _store(disk).path is not None
        copy = _store(memory)
        assert copy.path is None and copy.read_only and not copy.capabilities.update
        assert copy.count() == _index_quads(index) > 0
        for q in QUESTIONS:
            a, b = disk.answer(q), memory.answer(q)
            assert a.evidence.sparql and a.evidence.sparql == b.evidence.sparql, q
            assert (a.answer, a.value, a.evidence.rows, a.route) == (b.answer, b.value, b.evidence.rows, b.route), q
        with pytest.raises(StoreError, match="read-only"):
            copy.update("INSERT DATA { GRAPH <http://x/g> { <http://x/a> <http://x/p> 1 } }")


def test_an_index_larger_than_the_limit_stays_on_the_files(index: Path) -> None:
    quads = _index_quads(index)
    with QAEngine.open(index, AskConfig(in_memory_quads=quads - 1)) as engine:
        assert _store(engine).path is not None
    with QAEngine.open(index, AskConfig(in_memory_quads=quads)) as engine:
        assert _store(engine).path is None


def test_a_market_view_survives_the_copy(two_markets: Path) -> None:  # noqa: F811 - the fixture
    ix = two_markets / "ix"
    config = IndexConfig().store
    with open_store(config, ix, read_only=True, market="uk", in_memory=True) as uk:
        assert isinstance(uk, OxigraphStore) and uk.path is None
        assert rows(uk, PRICES) == {("Alpha 1", "199", "GBP"), ("Beta 1", "99", "GBP")}
    with open_store(config, ix, read_only=True, in_memory=True) as every:
        assert {r[0] for r in rows(every, PRICES)} == {"Alpha 1", "Beta 1", "Gamma 1"}
    with pytest.raises(StoreError, match="only a read-only store"):
        open_store(config, ix, in_memory=True)


def test_the_command_line_copies_for_many_questions_only() -> None:
    none = argparse.Namespace(in_memory_quads=None)
    assert _in_memory_quads(none, many=True) == IN_MEMORY_QUADS > 0
    assert _in_memory_quads(none, many=False) == 0
    assert _in_memory_quads(argparse.Namespace(in_memory_quads=0), many=True) == 0
    assert _in_memory_quads(argparse.Namespace(in_memory_quads=5), many=False) == 5
