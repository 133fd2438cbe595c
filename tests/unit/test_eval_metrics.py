"""List/value metrics and their aggregates, on hand-made cases with hand-computed numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.aggregate import latency_summary, read_index_tokens
from dualgraph.eval.evaluate import evaluate, evaluate_many
from dualgraph.eval.inputs import EvalInputError, Question, load_answers, load_questions
from dualgraph.eval.metrics import list_scores, normalise_name, predicted_answer, score_question, value_correct

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
QUESTIONS = FIX / "questions.json"


def approx(x):
    return pytest.approx(x, abs=1e-9)


# -- list matching -------------------------------------------------------------------------


def test_perfect_list():
    assert list_scores(["A", "B"], ["B", "A"]) == (1.0, 1.0, 1.0, True)


def test_empty_gold_and_empty_answer_is_perfect():
    assert list_scores([], []) == (1.0, 1.0, 1.0, True)


def test_empty_gold_with_an_answer_scores_zero():
    assert list_scores(["A"], []) == (0.0, 0.0, 0.0, False)


def test_gold_with_empty_answer_scores_zero():
    assert list_scores([], ["A"]) == (0.0, 0.0, 0.0, False)


def test_partial_overlap_exact_numbers():
    s = list_scores(["A", "B", "X"], ["A", "B", "C", "D"])
    assert (s.p, s.r) == (approx(2 / 3), approx(0.5))
    assert s.f1 == approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))  # 4/7
    assert s.f1 == approx(4 / 7) and not s.exact


def test_no_overlap_is_zero_not_nan():
    assert list_scores(["X"], ["A"]) == (0.0, 0.0, 0.0, False)


def test_duplicates_in_the_answer_count_once():
    assert list_scores(["A", "a", " A "], ["A", "B"]) == (1.0, 0.5, approx(2 / 3), False)


def test_variant_names_stay_distinct_in_both_modes():
    small, big = "Phone X (8GB RAM + 128GB)", "Phone X (12GB RAM + 256GB)"
    for loose in (False, True):
        assert list_scores([big], [small], loose=loose).f1 == 0.0
        assert normalise_name(small, loose=loose) != normalise_name("Phone X", loose=loose)
        assert not value_correct(big, small, loose=loose)
    assert normalise_name("Galaxy S24+", loose=True) != normalise_name("Galaxy S24", loose=True)


def test_case_and_whitespace_normalisation():
    assert list_scores(["  ACER super  ZX 5G (8GB RAM + 128GB)\t"], ["Acer Super ZX 5G  (8GB RAM + 128GB)"]).exact
    assert normalise_name("Ｇａｌａｘｙ") == "galaxy"  # NFKC folds full-width letters


def test_punctuation_spacing_matters_only_when_loose():
    gold, said = ["Phone X (8GB RAM + 128 GB)"], ["phone x (8GB RAM+128GB)"]
    assert list_scores(said, gold).f1 == 0.0
    assert list_scores(said, gold, loose=True).exact
    assert normalise_name("Wi\u2013Fi 6E", loose=True) == normalise_name("Wi-Fi 6E", loose=True)


# -- values --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said, gold, ok",
    [
        ("1,299", 1299, True),
        (1299.0, 1299, True),
        ("1299.0000001", 1299, True),
        (1300, 1299, False),
        ("12 999", 12999, False),
        ("Rs 1,299", 1299, False),
        (None, 0, False),
        (0, 0, True),
        ("0.0000001", 0, True),
        (True, 1, False),
        ("Phone  x", "phone X", True),
        ("Phone X (12GB RAM + 256GB)", "Phone X (8GB RAM + 128GB)", False),
    ],
)
def test_value_correct(said, gold, ok):
    assert value_correct(said, gold) is ok


def test_icecat_titles_are_aliases_of_ids():
    lst = Question(
        id="6",
        question="?",
        is_list=True,
        gt_answer_list=["1001", "1002"],
        gt_answer_titles=["Fridge Cool 300 L", "Washer Spin 8 kg"],
    )
    rec = AnswerRecord(id="6", question="?", strategy="tkg", answer_list=["fridge cool 300 l", "1002"])
    row = score_question(lst, rec)
    assert row.exact and row.f1 == 1.0
    val = Question(id="7", question="?", is_list=False, gt_value="2001", gt_answer_titles=["Laptop Air 13 (1.1 kg)"])
    title = AnswerRecord(id="7", question="?", strategy="x", value="LAPTOP AIR 13 (1.1 KG)")
    assert score_question(val, title).value_ok
    assert score_question(val, AnswerRecord(id="7", question="?", strategy="x", value="2001")).value_ok
    assert not score_question(val, AnswerRecord(id="7", question="?", strategy="x", value="Laptop Air 13")).value_ok


def test_what_is_read_from_a_record():
    r = AnswerRecord(id="1", question="?", strategy="s", answer_list=None, value="Only One")
    assert predicted_answer(r, is_list=True) == ["Only One"]
    assert predicted_answer(r.model_copy(update={"value": 3}), is_list=True) == []
    assert predicted_answer(r.model_copy(update={"value": ""}), is_list=True) == []
    two = AnswerRecord(id="1", question="?", strategy="s", answer_list=["A", "B"])
    assert predicted_answer(two, is_list=False) is None  # two items are not one value
    err = two.model_copy(update={"error": "boom"})
    assert predicted_answer(err, is_list=True) == [] and predicted_answer(err, is_list=False) is None


# -- the fixture files, worked out by hand (see tests/fixtures/eval/README.md) ---------------


@pytest.fixture(scope="module")
def skg():
    return evaluate(QUESTIONS, FIX / "answers_skg.jsonl")


def test_fixture_totals(skg):
    s = skg.summary
    assert skg.label == "answers_skg"  # two strategies in the file: named after it
    assert (skg.n_questions, s.n, s.n_list, s.n_value) == (9, 9, 5, 4)
    # list F1: q0 0.4, q1 1, q2 1, q6 0.5, q8 0 (missing)
    assert s.list_f1 == approx(2.9 / 5)
    assert s.list_precision == approx((0.5 + 1 + 1 + 0.5 + 0) / 5)
    assert s.list_recall == approx((1 / 3 + 1 + 1 + 0.5 + 0) / 5)
    assert s.exact_set == approx(2 / 5)
    assert s.value_accuracy == approx(0.5)  # q3 "12,999" ok, q4 wrong, q5 via answer_list ok, q7 error record
    assert s.overall == approx(4.9 / 9)


def test_fixture_rows(skg):
    rows = {r.id: r for r in skg.rows}
    assert (rows["0"].p, rows["0"].r, rows["0"].f1) == (approx(0.5), approx(1 / 3), approx(0.4))
    assert rows["7"].status == "error" and rows["7"].value_ok is False and "timed out" in rows["7"].error
    assert rows["8"].status == "missing" and rows["8"].f1 == 0.0 and rows["8"].latency_s is None
    assert rows["6"].route == "skg>tkg" and rows["6"].strategy == "skg+tkg_fb"
    assert (skg.n_missing, skg.n_errors) == (1, 1)


def test_missing_and_error_records_count_as_empty_answers(skg):
    # An empty-gold question answered by nothing still scores 1, as the reference scorer does.
    q = Question(id="1", question="?", is_list=True, gt_answer_list=[])
    assert score_question(q, None).f1 == 1.0
    err = AnswerRecord(id="1", question="?", strategy="skg", answer_list=["A"], error="boom")
    row = score_question(q, err)
    assert row.status == "error" and row.f1 == 1.0 and row.predicted == []


def test_fixture_breakdowns(skg):
    cat = skg.by_category
    assert set(cat) == {
        "Inverse Queries",
        "Multi-Condition Queries",
        "Aggregation Queries",
        "Group Comparison Queries",
        "Reasoning Queries",
    }
    assert cat["Inverse Queries"].n == 3 and cat["Inverse Queries"].overall == approx(1.9 / 3)
    assert cat["Aggregation Queries"].value_accuracy == approx(0.5)
    assert cat["Reasoning Queries"].overall == 0.0 and cat["Reasoning Queries"].n_missing == 1
    assert skg.by_method["tkg"].overall == approx(0.5) and skg.by_method["sparql"].overall == approx(4.4 / 8)
    assert skg.by_strategy["skg"].n == 7 and skg.by_strategy["skg"].overall == approx(4.4 / 7)
    assert set(skg.by_strategy) == {"skg", "skg+tkg_fb", "(missing)"}
    assert set(skg.by_route) == {"skg", "skg>tkg", "(none)", "(missing)"}
    assert skg.by_objectivity["false"].n == 1 and skg.by_objectivity["true"].n == 8


def test_fixture_tokens_and_latency(skg):
    t = skg.tokens
    assert (t.n_records, t.prompt, t.completion) == (8, 120, 30)
    assert t.total_mean == approx(150 / 8)
    lat = skg.latency
    assert lat.n == 8 and lat.max == 2.0 and lat.p50 == approx(0.15)
    assert lat.mean == approx((0.1 + 0.1 + 0.2 + 0.1 + 0.3 + 0.1 + 2.0 + 0.5) / 8)


def test_latency_percentiles_interpolate():
    lat = latency_summary([float(i) for i in range(1, 101)])
    assert (lat.p50, lat.p90, lat.p99, lat.max) == (approx(50.5), approx(90.1), approx(99.01), 100.0)
    assert latency_summary([]).p50 is None


def test_loose_mode_changes_only_punctuation_spacing():
    strict = evaluate(QUESTIONS, FIX / "answers_tkg.jsonl")
    loose = evaluate(QUESTIONS, FIX / "answers_tkg.jsonl", loose=True)
    # q0 "Acme One (8GB RAM+128GB)" matches only loosely; q5's other variant never does.
    assert {r.id: r.f1 for r in strict.rows}["0"] == approx(0.4)
    assert {r.id: r.f1 for r in loose.rows}["0"] == approx(0.8)
    assert strict.summary.value_accuracy == loose.summary.value_accuracy == approx(0.75)
    assert strict.label == "tkg" and loose.loose


def test_evaluate_many_shares_the_questions():
    comp = evaluate_many(QUESTIONS, {"skg": FIX / "answers_skg.jsonl", "tkg": FIX / "answers_tkg.jsonl"})
    assert comp.labels == ["skg", "tkg"]
    assert comp.results["tkg"].summary.overall == approx((0.4 + 0 + 2 / 3 + 1 + 1 + 3) / 9)
    assert comp.results["tkg"].tokens.total_mean == approx(1050.0)
    assert json.loads(comp.to_json(rows=False))["results"]["skg"].get("rows") is None


def test_unscorable_questions_are_left_out(tmp_path):
    data = json.loads(QUESTIONS.read_text())
    data["9"] = {
        "question": "Compare A and B.",
        "category": "Group Comparison Queries",
        "is_list": False,
        "gt_retrieval_method": "closed_book",
        "gt_answer": "A folds, B does not.",
    }
    path = tmp_path / "q.json"
    path.write_text(json.dumps(data))
    res = evaluate(path, FIX / "answers_skg.jsonl")
    assert res.n_unscored == 1 and res.summary.n == 9 and res.summary.overall == approx(4.9 / 9)


def test_extra_and_repeated_ids_are_reported(tmp_path):
    lines = (FIX / "answers_skg.jsonl").read_text().splitlines()
    extra = json.loads(lines[0]) | {"id": "99"}
    again = json.loads(lines[3]) | {"value": 1}  # q3 answered again, wrongly: the last record counts
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(lines + ["", json.dumps(extra), json.dumps(again)]) + "\n")
    res = evaluate(QUESTIONS, path)
    assert res.extra_ids == ["99"] and res.repeated_ids == ["3"] and res.mismatched_ids == []
    assert {r.id: r.value_ok for r in res.rows}["3"] is False


def test_answers_to_another_questions_file_are_flagged(tmp_path):
    lines = (FIX / "answers_tkg.jsonl").read_text().splitlines()
    other = json.loads(lines[2]) | {"question": "Which tablets have a stylus?"}
    blank = json.loads(lines[4]) | {"question": ""}  # records that do not repeat the question are fine
    path = tmp_path / "a.jsonl"
    path.write_text("\ufeff" + "\n".join(lines[:2] + [json.dumps(other), lines[3], json.dumps(blank)]) + "\n")
    res = evaluate(QUESTIONS, path)  # the byte order mark is tolerated too
    assert res.mismatched_ids == ["2"] and res.n_missing == 4


def test_index_tokens_from_the_manifest(tmp_path):
    assert read_index_tokens(tmp_path).note == "no manifest.json in the index directory"
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "model_usage": {
                    "tkg.extract": {"calls": 4, "prompt_tokens": 874, "completion_tokens": 424},
                    "tkg_chunks": {"calls": 1, "prompt_tokens": 0, "completion_tokens": 0},
                }
            }
        )
    )
    ix = read_index_tokens(tmp_path)
    assert (ix.prompt, ix.completion, ix.note) == (874, 424, None) and set(ix.by_stage) == {"tkg.extract", "tkg_chunks"}
    (tmp_path / "manifest.json").write_text(json.dumps({"documents": {}}))
    assert read_index_tokens(tmp_path).note == "the manifest records no model_usage"
    assert evaluate(QUESTIONS, FIX / "answers_skg.jsonl", index_dir=tmp_path).index_tokens.prompt == 0


# -- bad input -----------------------------------------------------------------------------


def test_bad_jsonl_line_names_the_file_and_line(tmp_path):
    lines = (FIX / "answers_skg.jsonl").read_text().splitlines()
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines[:2] + ['{"id": "2", "answer_list": ["x"'] + lines[3:]) + "\n")
    with pytest.raises(EvalInputError) as e:
        load_answers(path)
    assert e.value.line == 3 and str(e.value).startswith(f"{path}:3: not valid JSON")


def test_record_without_id_names_the_line(tmp_path):
    path = tmp_path / "noid.jsonl"
    path.write_text('{"id": "0", "strategy": "skg"}\n\n{"answer_list": []}\n')
    with pytest.raises(EvalInputError, match=r"noid\.jsonl:3: the record has no \"id\""):
        load_answers(path)


def test_record_with_wrong_types_names_the_line(tmp_path):
    path = tmp_path / "types.jsonl"
    path.write_text('{"id": "0", "answer_list": "not a list"}\n')
    with pytest.raises(EvalInputError, match=r"types\.jsonl:1: not an answer record: answer_list"):
        load_answers(path)


def test_bad_questions_file(tmp_path):
    broken = tmp_path / "q.json"
    broken.write_text('{\n "0": {"question": "x", "is_list": true,}\n}')
    with pytest.raises(EvalInputError, match=r"q\.json:2: not valid JSON"):
        load_questions(broken)
    broken.write_text('{"0": {"question": "x"}}')
    with pytest.raises(EvalInputError, match=r"question '0': is_list"):
        load_questions(broken)
    with pytest.raises(EvalInputError, match="cannot read"):
        load_questions(tmp_path / "absent.json")
