"""The budget's settings and the bulk run's bookkeeping of over-budget records (no worker process:
the enforcement itself is tested in tests/integration/test_budget.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from dualgraph.answer.record import AnswerRecord
from dualgraph.budget import DEFAULT_DEADLINE_S, DEFAULT_MEMORY_MB, MemoryExceeded, WorkBudget
from dualgraph.budget.engine import over_budget_record
from dualgraph.cli import _ask_config, _budget, build_parser
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer


def test_every_budget_setting_is_described_and_checked():
    assert all(f.description for f in WorkBudget.model_fields.values())
    assert (WorkBudget().deadline_s, WorkBudget().memory_mb) == (DEFAULT_DEADLINE_S, DEFAULT_MEMORY_MB) == (30.0, 1024)
    for bad in ({"deadline_s": 0}, {"memory_mb": 1}, {"check_every_s": 0}, {"deadline": 5}):
        with pytest.raises(ValidationError):
            WorkBudget(**bad)


def test_the_flags_make_the_budget():
    parser = build_parser()
    args = parser.parse_args(["ask", "--index", "ix", "--deadline", "5", "--memory-mb", "256", "q?"])
    assert _ask_config(args).budget == WorkBudget(deadline_s=5, memory_mb=256)
    off = parser.parse_args(["ask", "--index", "ix", "--deadline", "0", "--memory-mb", "0", "--no-isolate", "q?"])
    assert _budget(off) == WorkBudget(isolate=False, deadline_s=None, memory_mb=None)
    # `sparql` has no --deadline (its --timeout is one); the rest of the budget is the default
    query = parser.parse_args(["sparql", "--index", "ix", "--memory-mb", "64", "ASK {}"])
    assert _budget(query) == WorkBudget(memory_mb=64)
    assert parser.parse_args(["ask", "--index", "ix", "--retry-over-budget", "--questions", "q.json"]).retry_over_budget


class Counting:
    """An in-process engine that answers every question and remembers which it was asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def answer_batch(self, items, *, strategy):
        self.asked += [q for q, _ in items]
        return [AnswerRecord(id=q, question=text, answer="ok", strategy=strategy) for q, text in items]


def test_a_resume_keeps_over_budget_records_unless_asked(tmp_path: Path):
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps({k: {"question": f"question {k}"} for k in "abc"}), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    stopped = over_budget_record("b", "question b", "skg", MemoryExceeded("the question", 1024, used_mb=1030), 3.0)
    failed = AnswerRecord(id="c", question="question c", strategy="skg", error="ValueError: boom")
    ok = AnswerRecord(id="a", question="question a", answer="ok", strategy="skg")
    out.write_text("".join(r.to_json_line() + "\n" for r in (ok, stopped, failed)), encoding="utf-8")
    config = BulkAnswerConfig(runner="inline", progress=False)

    engine = Counting()
    report = bulk_answer(questions, out, engine_factory=lambda: engine, strategy="skg", config=config)
    assert engine.asked == ["c"]  # a plain error is retried, the over-budget one kept
    assert (report.skipped_resumed, report.kept_over_budget, report.retried_errors) == (2, 1, 1)
    kept = {json.loads(line)["id"]: json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()}
    assert kept["b"]["over_budget"] == "memory" and kept["b"]["error"].startswith("over budget (memory)")

    engine = Counting()
    retry = config.model_copy(update={"retry_over_budget": True})
    report = bulk_answer(questions, out, engine_factory=lambda: engine, strategy="skg", config=retry)
    assert engine.asked == ["b"] and report.retried_errors == 1 and report.kept_over_budget == 0
    # retry_over_budget holds even when other errors are not retried
    out.write_text("".join(r.to_json_line() + "\n" for r in (ok, stopped, failed)), encoding="utf-8")
    engine = Counting()
    only = config.model_copy(update={"retry_over_budget": True, "retry_errors": False})
    bulk_answer(questions, out, engine_factory=lambda: engine, strategy="skg", config=only)
    assert engine.asked == ["b"]


def test_an_over_budget_record_changed_since_is_answered_again(tmp_path: Path):
    questions = tmp_path / "q.json"
    questions.write_text(json.dumps({"b": {"question": "a new question b"}}), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    stopped = over_budget_record("b", "question b", "skg", MemoryExceeded("the question", 1024), 3.0)
    out.write_text(stopped.to_json_line() + "\n", encoding="utf-8")
    engine = Counting()
    config = BulkAnswerConfig(runner="inline", progress=False, retry_errors=False)
    bulk_answer(questions, out, engine_factory=lambda: engine, strategy="skg", config=config)
    assert engine.asked == ["b"]


def test_after_a_kill_the_next_engine_worker_prepares_at_open(tmp_path: Path):
    """A lazily opened engine does its per-index work in its first questions, inside their budget;
    once a worker was killed, the next one does it at open, outside any budget."""
    from dualgraph.answer.engine import AskConfig, EngineSpec
    from dualgraph.budget.engine import IsolatedEngine
    from dualgraph.budget.hosts import EngineOpener

    engine = IsolatedEngine(EngineSpec(index_dir=tmp_path, config=AskConfig()))  # starts nothing yet
    assert isinstance(engine.worker.opener, EngineOpener) and engine.worker.opener.prepare is False
    assert not engine.worker.started
    engine._prepare_next()
    assert engine.worker.opener == EngineOpener(engine.spec, prepare=True)
