"""Bulk answering through real local Ray Data actors: nothing lost, nothing doubled, resume is free."""

import functools
import json
import sys

import pytest

from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer
from dualgraph.pipeline.stage import ContractError
from tests.unit.test_bulk_answer import BrokenEngine, ToyEngine


@pytest.fixture
def by_value():
    """Ship the toy engine's code to the actors: their workers cannot import test modules."""
    from ray import cloudpickle

    module = sys.modules[ToyEngine.__module__]
    cloudpickle.register_pickle_by_value(module)
    yield
    cloudpickle.unregister_pickle_by_value(module)


def calls(directory, kind):
    return [json.loads(p.read_text()) for p in directory.glob(f"{kind}-*.json")]


@pytest.mark.ray
def test_ray_actors_answer_everything_once_and_resume_costs_nothing(tmp_path, by_value):
    texts = {f"q{i:02d}": ("CRASH " if i in (7, 22) else "") + f"question number {i}" for i in range(30)}
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps({k: {"question": v, "answer": None} for k, v in texts.items()}))
    out, log = tmp_path / "answers.jsonl", tmp_path / "calls"
    log.mkdir()
    factory = functools.partial(ToyEngine, calls_dir=str(log))
    config = BulkAnswerConfig(runner="ray", concurrency=2, batch_size=4, progress=False)

    report = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=config)

    assert (report.total, report.answered, report.errors, report.skipped_resumed) == (30, 28, 2, 0)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line]
    assert [r["id"] for r in records] == list(texts)  # every id once, in question order
    assert {r["id"] for r in records if r["error"]} == {"q07", "q22"}
    assert all(r["answer"] for r in records if not r["error"])
    assert len(calls(log, "open")) == 2  # one engine per actor
    batch_calls = [ids for ids in calls(log, "call") if len(ids) > 1]
    assert sorted(i for ids in batch_calls for i in ids) == list(texts)  # each question in exactly one batch

    for p in log.iterdir():
        p.unlink()
    keep_errors = config.model_copy(update={"retry_errors": False})
    again = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=keep_errors)
    assert (again.skipped_resumed, again.answered, again.errors) == (30, 0, 0)
    assert list(log.iterdir()) == []  # no engine opened, no call made
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").split("\n") if line] == records

    # by default a resume answers the error records again, and only those
    retry = bulk_answer(questions, out, engine_factory=factory, strategy="skg", config=config)
    assert (retry.skipped_resumed, retry.retried_errors, retry.errors) == (28, 2, 2)
    assert sorted(calls(log, "call")) == [["q07"], ["q07", "q22"], ["q22"]] and len(calls(log, "open")) == 1
    assert [r["id"] for r in map(json.loads, out.read_text(encoding="utf-8").split("\n")[:-1])] == list(texts)


@pytest.mark.ray
def test_an_engine_bug_in_an_actor_reaches_the_driver_as_a_contract_error(tmp_path, by_value):
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps({f"q{i}": {"question": f"question {i}"} for i in range(6)}))
    config = BulkAnswerConfig(runner="ray", concurrency=1, batch_size=3, progress=False)
    with pytest.raises(ContractError, match=r"missing \['q2'\]|missing \['q5'\]"):
        bulk_answer(
            questions,
            tmp_path / "out.jsonl",
            engine_factory=functools.partial(BrokenEngine, "drop"),
            strategy="skg",
            config=config,
        )
