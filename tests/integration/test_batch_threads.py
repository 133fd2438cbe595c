"""A batch's questions compiled and queried on several threads (``AskConfig.batch_threads``, what
``dualgraph serve`` uses): the same answers, in the same order, as on one thread; the catalog's
vocabulary is in use on every thread; a one-question batch stays on the caller's thread.

Real parts: the fixture catalog's index, its embedder, the embedded store (copied into memory, as
the server does).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, models_where

from dualgraph.answer.engine import AskConfig, EngineSpec
from dualgraph.answer.sources import SymbolicSource
from dualgraph.lexicon import vocabulary

QUESTIONS = [
    "Which phones have at least 8 GB of RAM?",
    "Which phones under 20000 INR have 5G?",
    "How many phones have NFC?",
    "Which phones have the largest battery?",
    "Which phones without NFC cost under 15000 INR?",
    "Which phones have a refresh rate of 120 Hz or more?",
    "Which phones have at least 8 GB of RAM?",  # twice in one batch: each gets its own answer
    "Which phones have 5G and at least 5000 mAh?",
]


def _engine(index: Path, threads: int):
    return EngineSpec(index_dir=index, config=AskConfig(strategy="skg", in_memory_quads=10**7, batch_threads=threads))()


def test_threads_give_the_answers_of_one_thread_in_order(tmp_path_factory, monkeypatch):
    index = catalog_index(tmp_path_factory)
    items = [(str(i), q) for i, q in enumerate(QUESTIONS)]
    seen: list[tuple[str, str, bool]] = []  # (thread, question, the catalog vocabulary was in use)
    inner = SymbolicSource._compiled

    def watched(self, question):
        catalog_words = vocabulary.current() is not vocabulary._general_vocabulary()
        seen.append((threading.current_thread().name, question, catalog_words))
        return inner(self, question)

    monkeypatch.setattr(SymbolicSource, "_compiled", watched)
    one, several = _engine(index, 1), _engine(index, 3)
    try:
        alone = one.answer_batch(items)
        seen.clear()
        together = several.answer_batch(items)
    finally:
        one.close()
        several.close()
    assert [r.id for r in together] == [q for q, _ in items]
    for a, b in zip(alone, together):
        assert (a.answer_list, a.value, a.error) == (b.answer_list, b.value, b.error), a.question
        assert a.evidence.sparql == b.evidence.sparql
    assert sorted(q for _, q, _ in seen) == sorted(QUESTIONS)
    assert len({t for t, _, _ in seen}) > 1, seen  # the batch did spread over the pool
    assert all(t.startswith("dualgraph-compile") for t, _, _ in seen), seen
    assert all(words for _, _, words in seen), seen
    # the answers are the catalog's own, not just equal to each other
    assert set(together[0].answer_list or []) == models_where(lambda r: int(r["ram_gb"] or 0) >= 8)


def test_one_question_stays_on_the_callers_thread(tmp_path_factory, monkeypatch):
    names: list[str] = []
    inner = SymbolicSource._compiled

    def watched(self, question):
        names.append(threading.current_thread().name)
        return inner(self, question)

    monkeypatch.setattr(SymbolicSource, "_compiled", watched)
    engine = _engine(catalog_index(tmp_path_factory), 2)
    try:
        engine.answer_batch([("0", QUESTIONS[0])])
    finally:
        engine.close()
    assert names == [threading.current_thread().name]


def test_threads_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        SymbolicSource(object(), threads=0)
    with pytest.raises(ValueError):
        AskConfig(batch_threads=0)
