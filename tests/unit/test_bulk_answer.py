"""Bulk answering on the inline runner: failures isolated, resume, file checks, engine contract."""

import json
import uuid
from pathlib import Path

import pytest

from dualgraph.answer.record import AnswerRecord, TokenCounts, error_record
from dualgraph.pipeline.answer_files import read_answers
from dualgraph.pipeline.bulk_answer import (
    BulkAnswerConfig,
    QuestionsError,
    ResumeWarning,
    StrategyMismatchError,
    answer_items,
    bulk_answer,
    read_questions,
)
from dualgraph.pipeline.stage import ContractError

QUESTIONS = Path(__file__).parents[1] / "fixtures" / "questions"
INLINE = BulkAnswerConfig(runner="inline", progress=False, batch_size=2)


class ToyEngine:
    """Answers with the question's words reversed; raises on any batch holding "CRASH".

    With ``calls_dir`` every opening and every call leaves a file there, so calls made
    in other processes (Ray actors) can be counted.
    """

    def __init__(self, calls_dir: str | None = None) -> None:
        self.calls: list[list[str]] = []
        self.calls_dir = calls_dir
        self._log("open", [])

    def _log(self, kind: str, ids: list[str]) -> None:
        if self.calls_dir:
            Path(self.calls_dir, f"{kind}-{uuid.uuid4().hex}.json").write_text(json.dumps(ids))

    def answer_batch(self, items, *, strategy):
        ids = [qid for qid, _ in items]
        self.calls.append(ids)
        self._log("call", ids)
        crashing = [qid for qid, q in items if "CRASH" in q]
        if crashing:
            raise RuntimeError(f"cannot answer {crashing[0]}")
        return [
            AnswerRecord(
                id=qid,
                question=q,
                answer=" ".join(reversed(q.split())),
                answer_list=q.split()[:2],
                strategy=strategy,
                tokens=TokenCounts(prompt=len(q.split()), completion=1),
                latency_s=0.01 * len(q.split()),
            )
            for qid, q in items
        ]


class BrokenEngine(ToyEngine):
    """Breaks the batch contract in one of several ways."""

    def __init__(self, how: str) -> None:
        super().__init__()
        self.how = how

    def answer_batch(self, items, *, strategy):
        records = super().answer_batch(items, strategy=strategy)
        if self.how == "drop":
            return records[:-1]
        if self.how == "duplicate":
            return records + records[-1:]
        if self.how == "foreign":
            return records[:-1] + [records[-1].model_copy(update={"id": "nobody"})]
        if self.how == "reorder":
            return records[::-1]
        if self.how == "strategy":
            return [r.model_copy(update={"strategy": "tkg"}) for r in records]
        return {"not": "a list"}


def write_questions(path: Path, texts: dict[str, str]) -> Path:
    path.write_text(json.dumps({qid: {"question": q, "answer": None} for qid, q in texts.items()}), encoding="utf-8")
    return path


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def once(engine):
    """A factory handing out ``engine``, counting how often it is asked."""

    def factory():
        factory.opened += 1
        return engine

    factory.opened = 0
    return factory


def test_answers_every_question_and_records_the_one_that_crashes(tmp_path):
    engine = ToyEngine()
    out = tmp_path / "out" / "answers.jsonl"
    report = bulk_answer(
        QUESTIONS / "specsqa_small.json", out, engine_factory=once(engine), strategy="skg", config=INLINE
    )
    assert (report.total, report.answered, report.errors, report.skipped_resumed) == (5, 4, 1, 0)
    recs = lines(out)
    assert [r["id"] for r in recs] == ["q1", "q2", "q3", "q4", "q5"]
    assert recs[0]["answer"] == "battery? mAh 5000 a have phones Which" and recs[0]["strategy"] == "skg"
    assert recs[2]["error"] == "RuntimeError: cannot answer q3" and recs[2]["answer"] == ""
    assert all(r["error"] is None for i, r in enumerate(recs) if i != 2)
    # batches of two: (q1, q2), (q3, q4) fails and is retried one by one, then (q5)
    assert engine.calls == [["q1", "q2"], ["q3", "q4"], ["q3"], ["q4"], ["q5"]]
    assert report.tokens.completion == 4 and report.tokens.prompt == sum(
        len(r["question"].split()) for r in recs if not r["error"]
    )
    assert (
        report.latency_max_s == max(r["latency_s"] for r in recs) and 0 < report.latency_p50_s <= report.latency_p90_s
    )


def test_a_failing_batch_only_costs_its_crashing_question(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "one two", "b": "CRASH here", "c": "three four", "d": "CRASH too"})
    engine = ToyEngine()
    report = bulk_answer(
        qs,
        tmp_path / "out.jsonl",
        engine_factory=once(engine),
        strategy="skg",
        config=INLINE.model_copy(update={"batch_size": 4}),
    )
    assert engine.calls == [["a", "b", "c", "d"], ["a"], ["b"], ["c"], ["d"]]
    assert (report.answered, report.errors) == (2, 2)
    assert {r["id"]: r["error"] is None for r in lines(tmp_path / "out.jsonl")} == {
        "a": True,
        "b": False,
        "c": True,
        "d": False,
    }


def test_a_single_failing_question_is_not_called_twice():
    engine = ToyEngine()
    [record] = answer_items(engine, [("x", "CRASH")], strategy="skg")
    assert engine.calls == [["x"]] and record.error.startswith("RuntimeError")


def test_resume_reruns_only_errors_truncated_and_missing(tmp_path):
    qs = write_questions(tmp_path / "q.json", {f"q{i}": f"question number {i}" for i in range(1, 7)})
    out = tmp_path / "out.jsonl"
    done = [
        AnswerRecord(id=f"q{i}", question=f"question number {i}", answer="from before", strategy="skg") for i in (2, 1)
    ]
    failed = error_record("q3", "question number 3", "skg", RuntimeError("timeout"))
    partial = AnswerRecord(id="q4", question="question number 4", answer="cut", strategy="skg").to_json_line()[:25]
    out.write_text("".join(r.to_json_line() + "\n" for r in [*done, failed]) + partial, encoding="utf-8")
    engine = ToyEngine()
    with pytest.warns(ResumeWarning, match="incomplete"):
        report = bulk_answer(qs, out, engine_factory=once(engine), strategy="skg", config=INLINE)
    assert engine.calls == [["q3", "q4"], ["q5", "q6"]]
    assert (report.skipped_resumed, report.retried_errors, report.answered, report.errors) == (2, 1, 4, 0)
    recs = lines(out)
    assert [r["id"] for r in recs] == [f"q{i}" for i in range(1, 7)]  # question order, not file order
    assert [r["answer"] for r in recs[:2]] == ["from before"] * 2 and all(r["error"] is None for r in recs)

    # a finished file: nothing to do, and no engine is even opened
    factory = once(ToyEngine())
    again = bulk_answer(qs, out, engine_factory=factory, strategy="skg", config=INLINE)
    assert factory.opened == 0 and (again.skipped_resumed, again.answered) == (6, 0)
    assert lines(out) == recs


def test_errors_are_kept_when_not_retrying(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "fine", "b": "also fine"})
    out = tmp_path / "out.jsonl"
    out.write_text(error_record("b", "also fine", "skg", "boom").to_json_line() + "\n", encoding="utf-8")
    engine = ToyEngine()
    report = bulk_answer(
        qs, out, engine_factory=once(engine), strategy="skg", config=INLINE.model_copy(update={"retry_errors": False})
    )
    assert engine.calls == [["a"]] and report.skipped_resumed == 1
    assert [(r["id"], r["error"]) for r in lines(out)] == [("a", None), ("b", "boom")]


def test_a_crash_mid_run_keeps_finished_batches_and_resumes(tmp_path):
    qs = write_questions(tmp_path / "q.json", {f"q{i}": f"question {i}" for i in range(6)})
    out = tmp_path / "out.jsonl"

    class Dying(ToyEngine):
        def answer_batch(self, items, *, strategy):
            if len(self.calls) == 2:
                raise KeyboardInterrupt  # not an answering failure: the run itself dies
            return super().answer_batch(items, strategy=strategy)

    with pytest.raises(KeyboardInterrupt):
        bulk_answer(qs, out, engine_factory=Dying, strategy="skg", config=INLINE)
    assert [r["id"] for r in lines(out)] == ["q0", "q1", "q2", "q3"]
    engine = ToyEngine()
    report = bulk_answer(qs, out, engine_factory=once(engine), strategy="skg", config=INLINE)
    assert engine.calls == [["q4", "q5"]] and report.skipped_resumed == 4
    assert [r["id"] for r in lines(out)] == [f"q{i}" for i in range(6)]


def test_changed_question_text_is_answered_again(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "new wording"})
    out = tmp_path / "out.jsonl"
    out.write_text(AnswerRecord(id="a", question="old wording", strategy="skg").to_json_line() + "\n", encoding="utf-8")
    engine = ToyEngine()
    with pytest.warns(ResumeWarning, match="changed text"):
        bulk_answer(qs, out, engine_factory=once(engine), strategy="skg", config=INLINE)
    assert engine.calls == [["a"]] and lines(out)[0]["answer"] == "wording new"


def test_foreign_ids_are_reported_and_dropped_by_the_ordered_rewrite(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "one"})
    out = tmp_path / "out.jsonl"
    out.write_text(AnswerRecord(id="zz", question="other", strategy="skg").to_json_line() + "\n", encoding="utf-8")
    with pytest.warns(ResumeWarning, match="1 record"):
        report = bulk_answer(qs, out, engine_factory=ToyEngine, strategy="skg", config=INLINE)
    assert report.foreign_ids == 1 and [r["id"] for r in lines(out)] == ["a"]


def test_unordered_run_keeps_completion_order(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "one", "b": "two", "c": "three"})
    out = tmp_path / "out.jsonl"
    out.write_text(AnswerRecord(id="c", question="three", strategy="skg").to_json_line() + "\n", encoding="utf-8")
    bulk_answer(qs, out, engine_factory=ToyEngine, strategy="skg", config=INLINE.model_copy(update={"ordered": False}))
    assert [r["id"] for r in lines(out)] == ["c", "a", "b"]


def test_resuming_another_strategy_is_refused_unless_overwriting(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "one", "b": "two"})
    out = tmp_path / "out.jsonl"
    out.write_text(AnswerRecord(id="a", question="one", strategy="tkg").to_json_line() + "\n", encoding="utf-8")
    with pytest.raises(StrategyMismatchError, match=r"strategy 'tkg', not 'skg'.*resume=False"):
        bulk_answer(qs, out, engine_factory=ToyEngine, strategy="skg", config=INLINE)
    assert lines(out)[0]["strategy"] == "tkg"  # untouched
    report = bulk_answer(
        qs, out, engine_factory=ToyEngine, strategy="skg", config=INLINE.model_copy(update={"resume": False})
    )
    assert report.answered == 2 and {r["strategy"] for r in lines(out)} == {"skg"}


def test_a_corrupt_line_inside_the_file_is_refused(tmp_path):
    qs = write_questions(tmp_path / "q.json", {"a": "one", "b": "two"})
    out = tmp_path / "out.jsonl"
    out.write_text("{not json\n" + AnswerRecord(id="a", question="one", strategy="skg").to_json_line() + "\n")
    with pytest.raises(ValueError, match="line 1 is not an answer record"):
        bulk_answer(qs, out, engine_factory=ToyEngine, strategy="skg", config=INLINE)


@pytest.mark.parametrize("how", ["drop", "duplicate", "foreign", "reorder", "strategy", "not-a-list"])
def test_an_engine_breaking_its_contract_stops_the_run(tmp_path, how):
    qs = write_questions(tmp_path / "q.json", {"a": "one", "b": "two", "c": "three"})
    with pytest.raises(ContractError, match="engine.answer_batch"):
        bulk_answer(qs, tmp_path / "out.jsonl", engine_factory=lambda: BrokenEngine(how), strategy="skg", config=INLINE)


def test_contract_errors_are_not_mistaken_for_question_failures():
    # the retry-one-by-one path must not turn an engine bug into error records
    class BrokenOnRetry(ToyEngine):
        def answer_batch(self, items, *, strategy):
            if len(items) > 1:
                raise RuntimeError("batch failed")
            return []

    with pytest.raises(ContractError, match="missing \\['a'\\]"):
        answer_items(BrokenOnRetry(), [("a", "one"), ("b", "two")], strategy="skg")


def test_read_questions_both_forms():
    assert read_questions(QUESTIONS / "specsqa_small.json")[0] == ("q1", "Which phones have a 5000 mAh battery?")
    assert [qid for qid, _ in read_questions(QUESTIONS / "list_form.json")] == ["b", "7", "a"]


@pytest.mark.parametrize(
    "name, message",
    [
        ("malformed.json", r"malformed\.json: not valid JSON .* line 4"),
        ("missing_question.json", r"missing_question\.json: entry 'q2' has no \"question\""),
        ("duplicate_ids.json", r"duplicate_ids\.json: id 'q1' is given twice \(item 0 .* and item 2"),
    ],
)
def test_bad_questions_files_name_the_file_and_entry(name, message):
    with pytest.raises(QuestionsError, match=message):
        read_questions(QUESTIONS / name)


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"q1": "just a string"}', r"entry 'q1' is a JSON str, not an object"),
        ('{"q\\ud800": {"question": "a"}}', r"entry 'q\\ud800': the id is not valid Unicode text"),
        ('{"q1": {"question": 42}}', r"entry 'q1': \"question\" must be a string, got int"),
        ('{"q1": {"question": "a"}, "q1": {"question": "b"}}', r"id 'q1' is given more than once"),
        ('[{"question": "no id"}]', r"item 0 needs an \"id\""),
        ('"a string"', r"expected a JSON object keyed by question id"),
    ],
)
def test_questions_file_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(QuestionsError, match=rf"bad\.json: {message}"):
        read_questions(path)


def test_read_answers_keeps_the_last_record_per_id(tmp_path):
    path = tmp_path / "a.jsonl"
    first, second = (AnswerRecord(id="a", question="q", answer=x, strategy="skg") for x in ("1", "2"))
    path.write_text(f"{first.to_json_line()}\n\n{second.to_json_line()}\n", encoding="utf-8")
    log = read_answers(path)
    assert log.records["a"].answer == "2" and log.duplicates == 1 and not log.truncated
