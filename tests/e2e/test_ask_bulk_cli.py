"""``dualgraph ask`` (bulk and single) and ``dualgraph eval`` as console commands, end to end.

The index is the fixture catalog's (built once, ``tests/fixtures/answer/answer_support.py``).
The questions are written here for that catalog, in the SpecsQA format, and every gold
answer is computed from ``phones.csv`` with the ``csv`` module, never from the system.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import as_int, catalog_index, models_where, source_rows

from dualgraph.answer.record import AnswerRecord

EXE = Path(sys.executable).parent / "dualgraph"
CONTRACT = ["id", "question", "answer", "answer_list", "value", "strategy"]


def run(*args, check: bool = True) -> subprocess.CompletedProcess:
    assert EXE.exists(), "the dualgraph console script is not installed (pip install -e .)"
    res = subprocess.run([str(EXE), *map(str, args)], capture_output=True, text=True, timeout=300)
    if check and res.returncode != 0:
        raise AssertionError(
            f"dualgraph {args[0]} failed ({res.returncode}):\n{res.stdout[-2000:]}\n{res.stderr[-3000:]}"
        )
    return res


def price(r: dict[str, str]) -> int:
    return int(r["price_inr"])


def cheapest_5g() -> tuple[str, int]:
    five_g = [r for r in source_rows() if r["has_5g"] == "True"]
    low = min(price(r) for r in five_g)
    winners = [r["model"] for r in five_g if price(r) == low]
    assert len(winners) == 1, "the question needs a single winner"
    return winners[0], low


def gold_questions() -> dict[str, dict]:
    """Seven questions over the fixture catalog, SpecsQA format, gold from the CSV."""
    name, low = cheapest_5g()
    kappa_a21 = next(r for r in source_rows() if r["model"].startswith("Kappa A21 "))

    def listq(q, names, category):
        names = sorted(names)
        return {
            "question": q,
            "category": category,
            "gt_retrieval_method": "sparql",
            "is_list": True,
            "objectivity": True,
            "gt_answer": "; ".join(names) or "None.",
            "gt_answer_list": names,
            "gt_value": None,
        }

    def valueq(q, value, category):
        return {
            "question": q,
            "category": category,
            "gt_retrieval_method": "sparql",
            "is_list": False,
            "objectivity": True,
            "gt_answer": str(value),
            "gt_answer_list": None,
            "gt_value": value,
        }

    return {
        "0": listq(
            "Which phones have a 7000 mAh battery?",
            models_where(lambda r: as_int(r["battery_mah"]) == 7000),
            "Inverse Queries",
        ),
        "1": valueq(
            "How many phones cost under 15000 INR?",
            len(models_where(lambda r: price(r) < 15000)),
            "Aggregation Queries",
        ),
        "2": valueq("What is the cheapest phone with 5G?", name, "Superlative Queries"),
        "3": valueq("What is the lowest price of a phone with 5G?", low, "Superlative Queries"),
        "4": listq(
            "Which phones have at least 12 GB RAM and cost under 20000 INR?",
            models_where(lambda r: int(r["ram_gb"]) >= 12 and price(r) < 20000),
            "Multi-Condition Queries",
        ),
        "5": listq(
            "Which phones have a battery of at least 9000 mAh?",
            models_where(lambda r: (as_int(r["battery_mah"]) or 0) >= 9000),
            "Inverse Queries",
        ),
        "6": valueq(
            "Does the Kappa A21 have 5G?", "yes" if kappa_a21["has_5g"] == "True" else "no", "Group Comparison Queries"
        ),
    }


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return catalog_index(tmp_path_factory)


@pytest.fixture(scope="module")
def bulk(index, tmp_path_factory):
    """One bulk run: the questions file, the answers file and the report ``ask`` printed."""
    work = tmp_path_factory.mktemp("ask-bulk")
    questions = work / "questions.json"
    gold = gold_questions()
    questions.write_text(json.dumps(gold, indent=1), encoding="utf-8")
    out = work / "answers.jsonl"
    res = run(
        "ask",
        "--index",
        index,
        "--questions",
        questions,
        "--out",
        out,
        "--runner",
        "inline",
        "--no-progress",
        "--batch-size",
        "3",
    )
    return questions, out, json.loads(res.stdout), gold


def test_gold_is_not_trivial():
    gold = gold_questions()
    assert len(gold["0"]["gt_answer_list"]) == 3 and len(gold["4"]["gt_answer_list"]) == 6
    assert gold["5"]["gt_answer_list"] == [] and gold["1"]["gt_value"] == 13 and gold["6"]["gt_value"] == "yes"


def test_bulk_ask_writes_one_record_per_question(bulk):
    _, out, report, gold = bulk
    assert (report["total"], report["answered"], report["errors"], report["skipped_resumed"]) == (7, 7, 0, 0)
    assert report["strategy"] == "skg+tkg_fb" and report["tokens"] == {"prompt": 0, "completion": 0}
    assert Path(report["out_path"]).resolve() == out.resolve()
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    for line, (qid, q) in zip(lines, gold.items()):
        data = json.loads(line)
        assert list(data)[:6] == CONTRACT
        r = AnswerRecord.model_validate(data)
        assert (r.id, r.question, r.strategy, r.error) == (qid, q["question"], "skg+tkg_fb", None)
        assert r.answer and r.latency_s > 0
        if q["is_list"]:
            assert sorted(r.answer_list) == q["gt_answer_list"]
        else:
            assert r.value == q["gt_value"]


def test_eval_prints_a_table_and_writes_a_report(bulk, tmp_path):
    questions, out, _, _ = bulk
    res = run("eval", "--questions", questions, "--answers", out, "--report", tmp_path / "report")
    assert "| category | n |" in res.stdout and "| ALL | 7 |" in res.stdout
    assert "report.md" in res.stderr
    report = tmp_path / "report" / "report.md"
    assert report.is_file() and "skg+tkg_fb" in report.read_text(encoding="utf-8")
    pngs = sorted((tmp_path / "report").rglob("*.png"))
    assert pngs and all(p.stat().st_size > 0 and p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    scores = json.loads(run("eval", "--questions", questions, "--answers", out, "--json").stdout)
    assert scores["n_questions"] == 7 and scores["n_errors"] == scores["n_missing"] == 0
    assert scores["summary"]["overall"] == 1.0  # every answer matches the gold computed from the CSV


def test_second_bulk_run_resumes_and_skips_everything(bulk, index):
    questions, out, _, _ = bulk
    before = out.read_text(encoding="utf-8")
    res = run("ask", "--index", index, "--questions", questions, "--out", out, "--runner", "inline", "--no-progress")
    report = json.loads(res.stdout)
    assert (report["skipped_resumed"], report["answered"], report["errors"], report["total"]) == (7, 0, 0, 7)
    assert out.read_text(encoding="utf-8") == before


def test_bulk_run_of_another_strategy_into_the_same_file_is_refused(bulk, index):
    questions, out, _, _ = bulk
    res = run(
        "ask",
        "--index",
        index,
        "--questions",
        questions,
        "--out",
        out,
        "--runner",
        "inline",
        "--no-progress",
        "--strategy",
        "tkg",
        check=False,
    )
    assert res.returncode == 2 and "holds answers of strategy 'skg+tkg_fb'" in res.stderr


def test_single_question_json_is_an_answer_record(index):
    res = run("ask", "--index", index, "--json", "--strategy", "concat", "How many phones have 5G?")
    r = AnswerRecord.model_validate_json(res.stdout)
    assert r.strategy == "concat" and r.route == ["skg", "tkg"] and r.error is None
    assert r.value == len(models_where(lambda row: row["has_5g"] == "True"))
    assert r.evidence.sparql and r.evidence.chunk_ids


def test_single_question_explain_prints_the_trace_and_chunks(index):
    res = run("ask", "--index", index, "--explain", "--strategy", "tkg", "Which phones have a 7000 mAh battery?")
    out = res.stdout
    assert "[tkg: tkg" in out and "\ntrace:\n" in out and "anchored on '7000 mah'" in out and "\nchunks: " in out
    for name in models_where(lambda r: as_int(r["battery_mah"]) == 7000):
        assert f"- {name}" in out


def test_ask_needs_a_question_or_a_questions_file(index):
    res = run("ask", "--index", index, check=False)
    assert res.returncode == 2 and "give either a QUESTION or --questions FILE" in res.stderr
