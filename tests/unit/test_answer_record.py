"""The answer record contract (``dualgraph.answer.record``): what bulk answering writes and eval reads."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from dualgraph.answer.record import AnswerRecord, Evidence, TokenCounts, error_record

CONTRACT = ["id", "question", "answer", "answer_list", "value", "strategy"]


def test_json_line_round_trips_and_starts_with_the_stable_fields():
    r = AnswerRecord(
        id="q1",
        question="Which phones cost under ₹15,000?",
        answer="2 products match:\n- A\n- B",
        answer_list=["A", "B"],
        strategy="skg",
        route=["skg"],
        evidence=Evidence(sparql="SELECT ...", rows=[{"name": "A"}], rows_total=2, confidence=0.9),
        tokens=TokenCounts(prompt=3, completion=4),
        latency_s=0.25,
    )
    line = r.to_json_line()
    assert "\n" not in line and "₹" in line  # one line, non-ASCII kept as is
    data = json.loads(line)
    assert list(data)[:6] == CONTRACT
    back = AnswerRecord.model_validate_json(line)
    assert back == r and back.tokens.total == 7


def test_strategy_and_id_are_required():
    with pytest.raises(ValidationError):
        AnswerRecord(id="1", question="q?")
    with pytest.raises(ValidationError):
        AnswerRecord(question="q?", strategy="skg")


def test_token_counts_add_up():
    t = TokenCounts(prompt=10, completion=2) + TokenCounts(prompt=5, completion=1)
    assert (t.prompt, t.completion, t.total) == (15, 3, 18)
    assert TokenCounts().total == 0


def test_error_record_from_an_exception_and_from_text():
    r = error_record("7", "Which?", "tkg", RuntimeError("retriever exploded"), latency_s=0.5)
    assert r.error == "RuntimeError: retriever exploded"
    assert (r.id, r.question, r.strategy, r.answer, r.answer_list, r.value, r.latency_s) == (
        "7",
        "Which?",
        "tkg",
        "",
        None,
        None,
        0.5,
    )
    assert error_record("8", "q", "skg", "store closed").error == "store closed"
    assert AnswerRecord.model_validate_json(r.to_json_line()) == r
