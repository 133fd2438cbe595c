"""Hostile questions against the real engine on the fixture catalog: bulk (inline and Ray Data)
and Ray Serve over loopback. Every question gets exactly one record; refused ones say why."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index, http_json, models_where

from dualgraph.answer.engine import AskConfig, EngineSpec
from dualgraph.pipeline.answer_files import read_answers
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer

GOOD = "Which phones have 5G?"
# JSON text, so the lone surrogate arrives as a client's file would carry it
MIXED = (
    "{"
    f'"good": {{"question": "{GOOD}"}}, '
    f'"long": {{"question": "{"Which phones have 5G? " * 60}"}}, '
    '"empty": {"question": ""}, '
    '"blank": {"question": " \\t\\u200b "}, '
    '"surrogate": {"question": "Which phones have 5G\\ud800?"}, '
    '"controls": {"question": "Which\\u0000 phones\\u202e have\\u200b 5G?\\u0007"}'
    "}"
)


def _check_mixed(out: Path) -> None:
    records = read_answers(out).records
    assert list(records) == ["good", "long", "empty", "blank", "surrogate", "controls"]  # one each, in order
    five_g = models_where(lambda r: r["has_5g"] == "True")
    assert records["good"].error is None and set(records["good"].answer_list) == five_g
    # cleaned, the control-laden question is the good one, answered alike; its record keeps it as asked
    assert records["controls"].error is None and set(records["controls"].answer_list) == five_g
    assert records["controls"].question.startswith("Which\x00 phones")
    for qid, why in [
        ("long", "1320 characters long; at most 1000"),
        ("empty", "empty"),
        ("blank", "empty"),
        ("surrogate", "not valid Unicode"),
    ]:
        assert records[qid].error.startswith("question refused: "), records[qid].error
        assert why in records[qid].error
    assert records["surrogate"].question_escaped == "Which phones have 5G\\ud800?"


@pytest.mark.parametrize("runner", ["inline", pytest.param("ray", marks=pytest.mark.ray)])
def test_bulk_gives_every_hostile_question_one_record(tmp_path_factory, tmp_path, runner):
    questions = tmp_path / "q.json"
    questions.write_text(MIXED, encoding="utf-8")
    spec = EngineSpec(index_dir=catalog_index(tmp_path_factory), config=AskConfig(strategy="skg"))
    config = BulkAnswerConfig(runner=runner, progress=False, batch_size=3, concurrency=1)
    report = bulk_answer(questions, tmp_path / "out.jsonl", engine_factory=spec, strategy="skg", config=config)
    assert (report.total, report.answered, report.errors) == (6, 2, 4)
    _check_mixed(tmp_path / "out.jsonl")


def test_the_cap_is_configurable(tmp_path_factory):
    from dualgraph.answer.engine import QAEngine

    index = catalog_index(tmp_path_factory)
    with QAEngine.open(index, AskConfig(strategy="skg", max_question_chars=10)) as engine:
        assert "at most 10 are read" in engine.answer(GOOD).error
    with QAEngine.open(index, AskConfig(strategy="skg", max_question_chars=None)) as engine:
        assert engine.answer(GOOD + " " + "x" * 1200).error is None


# -- Ray Serve ------------------------------------------------------------------------------------

KEY = "s3cret-key-for-tests"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory, shared_serve):
    """Two applications on the session's proxy (tests/integration/conftest.py): '/' with an API key
    and a small body limit, '/slow' with a deadline no batch can meet (the batch alone waits longer)."""
    from dualgraph.serve.app import ServeConfig, build_app

    index = catalog_index(tmp_path_factory)
    spec = EngineSpec(index_dir=index, config=AskConfig(strategy="skg"))
    port = shared_serve.port
    keyed = ServeConfig(port=port, max_body_bytes=4096, api_key_env="DG_TEST_KEY")
    slow = ServeConfig(port=port, request_timeout_s=0.05, batch_wait_s=1.0, api_key_env=None)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DG_TEST_KEY", KEY)
        keyed_app = build_app(spec, keyed)
    with shared_serve.running(("guarded", "/", keyed_app), ("slow", "/slow", build_app(spec, slow))) as url:
        yield url


@pytest.mark.ray
@pytest.mark.network
def test_serve_asks_for_the_key_and_compares_it(guarded):
    ask = json.dumps({"question": GOOD}).encode()
    assert http_json(guarded + "/", ask)[0] == 401
    assert http_json(guarded + "/", None)[0] == 401  # GET too: it names the index
    status, body = http_json(guarded + "/", ask, {"Authorization": "Bearer wrong"})
    assert status == 401 and KEY not in json.dumps(body)
    status, body = http_json(guarded + "/", ask, {"Authorization": f"Bearer {KEY}"})
    assert status == 200 and set(body["answer_list"]) == models_where(lambda r: r["has_5g"] == "True")
    assert http_json(guarded + "/", ask, {"X-API-Key": KEY})[0] == 200


@pytest.mark.ray
@pytest.mark.network
def test_serve_bounds_bodies_questions_and_time(guarded):
    auth = {"X-API-Key": KEY}
    status, body = http_json(guarded + "/", json.dumps({"question": "5G " * 5000}).encode(), auth)
    assert status == 413 and "4096 bytes" in body["error"]
    status, body = http_json(guarded + "/", json.dumps({"question": "Which phones have 5G? " * 60}).encode(), auth)
    assert status == 200 and body["error"].startswith("question refused:") and "at most 1000" in body["error"]
    status, body = http_json(guarded + "/", b'{"id": "s", "question": "5G\\ud800 phones"}', auth)
    assert status == 200 and "not valid Unicode" in body["error"]
    assert body["question_escaped"] == "5G\\ud800 phones"
    status, body = http_json(guarded + "/", b'{"question": "  "}', auth)
    assert status == 200 and "empty" in body["error"]
    status, body = http_json(guarded + "/slow", json.dumps({"id": "t", "question": GOOD}).encode())
    assert status == 504 and body["id"] == "t" and body["error"].startswith("timeout: no answer within 0.05 s")
