"""Hostile questions: screened before reading, stored whatever their characters, read in linear work."""

import json

import pytest

from dualgraph.answer.question_text import QuestionRefused, clean_question, safe_text, screen_question
from dualgraph.answer.record import AnswerRecord, error_record
from dualgraph.answer.text_reader import _expand, _Runs
from dualgraph.pipeline.answer_files import AnswerWriter, read_answers
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer
from dualgraph.query.ground.grounder import Grounding
from dualgraph.query.sparql.emit import where_clauses


@pytest.mark.parametrize(
    "text, why",
    [
        ("", "empty"),
        (" \t\n ", "empty"),
        ("\u200b\u202e\x00", "empty"),
        ("a" * 1001, "1001 characters long; at most 1000"),
        ("which phones\ud800?", "lone surrogate, U\\+D800 at character 12"),
    ],
)
def test_refused_questions_say_why(text, why):
    with pytest.raises(QuestionRefused, match=why):
        screen_question(text, max_chars=1000)


def test_cleaning_drops_controls_and_invisibles_but_keeps_words_and_spaces():
    # "e" + combining acute becomes one NFC character; C1 NEL (U+0085) is a line break: a space
    assert clean_question("cafe\u0301\x1b[0m \u200dphones\u2066\x7f\x85ok") == "café[0m phones ok"
    assert screen_question("a" * 1000, max_chars=1000) == "a" * 1000
    assert screen_question("a" * 5000, max_chars=None) == "a" * 5000


def test_a_record_with_a_lone_surrogate_is_written_and_read_back(tmp_path):
    record = error_record("q1", "5G\ud800 phones", "skg", "ValueError: bad \udc80")
    assert record.question == "5G\ufffd phones"
    assert record.question_escaped == "5G\\ud800 phones"
    assert "\udc80" not in (record.error or "")
    path = tmp_path / "a.jsonl"
    with AnswerWriter(path) as w:
        w.write([record, AnswerRecord(id="q2", question="fine", strategy="skg")])
    back = read_answers(path).records
    assert list(back) == ["q1", "q2"]
    assert back["q1"].question_escaped.encode().decode("unicode_escape") == "5G\ud800 phones"
    assert json.loads(record.model_dump_json())["question"] == "5G\ufffd phones"


def test_safe_text_leaves_valid_text_alone():
    assert safe_text("Ünïcode 🙂") == ("Ünïcode 🙂", None)


class _Echo:
    """An engine that answers every question it gets; raising for none."""

    def answer_batch(self, items, *, strategy):
        return [AnswerRecord(id=i, question=q, answer="ok", strategy=strategy) for i, q in items]


def test_bulk_writes_one_record_per_question_even_for_a_lone_surrogate(tmp_path):
    questions = tmp_path / "q.json"
    # written as JSON escapes: this is how a client or a file carries a lone surrogate
    questions.write_text('{"a": {"question": "good?"}, "b": {"question": "bad\\ud800"}, "c": {"question": " "}}')
    out = tmp_path / "out.jsonl"
    cfg = BulkAnswerConfig(runner="inline", progress=False)
    report = bulk_answer(questions, out, engine_factory=_Echo, strategy="skg", config=cfg)
    records = read_answers(out).records
    assert list(records) == ["a", "b", "c"]
    assert (report.answered, report.errors) == (2, 1)  # the echo engine does not screen " "
    assert records["b"].error.startswith("question refused: the question is not valid Unicode")
    assert records["b"].question_escaped == "bad\\ud800"
    # a rerun resumes: the refused question is tried again (an error), the others kept
    again = bulk_answer(questions, out, engine_factory=_Echo, strategy="skg", config=cfg)
    assert (again.skipped_resumed, again.errors) == (2, 1)


def _grounding(snippet, filters=(), name_filter=None):
    return Grounding(None, "numeric", snippet=snippet, filters=list(filters), name_filter=name_filter, confidence=0.9)


def test_a_condition_stated_many_times_is_emitted_once():
    ram = _grounding("?p skg:hasSpec {s} . {s} skg:hasNumericValue {v} .", ["{v} >= 8"])
    brand = _grounding("", name_filter='CONTAINS(?name, "Nova")')
    five_g = _grounding("?p skg:hasFeature skg:value-5g .")
    blocks, filters = where_clauses([], [], [ram, brand, five_g] * 50)
    assert blocks == [
        "{ SELECT DISTINCT ?p WHERE { ?p skg:hasSpec ?s1 . ?s1 skg:hasNumericValue ?v1 . FILTER(?v1 >= 8) } }",
        "?p skg:hasFeature skg:value-5g .",
    ]
    assert filters == ['CONTAINS(?name, "Nova")']
    # different bounds on one attribute are two conditions
    blocks, filters = where_clauses([], [], [ram, _grounding(ram.snippet, ["{v} <= 16"])])
    assert len(blocks) == 2 and "FILTER(?v1 >= 8)" in blocks[0] and "FILTER(?v2 <= 16)" in blocks[1]
    assert filters == []


def _lookups(repeats: int) -> tuple[str, int]:
    question = "which phones have a bamboo fibre casing and a bright screen " * repeats
    runs = _Runs(["its bamboo fibre casing stays cool", "bamboo handle", "a bright screen"])
    return _expand(question.split(), "bamboo", [], runs), runs.lookups


def test_widening_an_anchor_takes_work_linear_in_the_question():
    phrase, small = _lookups(10)
    assert phrase == "bamboo fibre casing"
    for factor in (4, 16):
        found, big = _lookups(10 * factor)
        assert found == phrase
        # linear: factor times the work (the full scan grew with the cube of the length)
        assert big <= factor * small * 1.1
