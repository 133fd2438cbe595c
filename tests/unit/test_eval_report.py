"""The report writer: files, valid PNGs, every category mentioned, the two-run comparison."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dualgraph.eval.evaluate import evaluate, evaluate_many
from dualgraph.eval.judge import FactualGroup, FactualResult, PairwiseGroup, PairwiseResult
from dualgraph.eval.report import write_report
from dualgraph.eval.tables import clip, format_table, md_table

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
QUESTIONS = FIX / "questions.json"
CATEGORIES = [
    "Inverse Queries",
    "Multi-Condition Queries",
    "Aggregation Queries",
    "Group Comparison Queries",
    "Reasoning Queries",
]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PLOTS = ["category_scores.png", "quality_vs_tokens.png", "latency_hist.png"]


def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC, path
    assert len(data) > 5_000, f"{path} is suspiciously small ({len(data)} bytes)"


@pytest.fixture(scope="module")
def single_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("single")
    result = evaluate(QUESTIONS, FIX / "answers_skg.jsonl", label="skg")
    return result, write_report(result, out, title="Fixture run")


def test_single_report_files(single_report):
    result, path = single_report
    out = path.parent
    assert path.name == "report.md"
    for name in PLOTS:
        assert_png(out / name)
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["summary"]["overall"] == pytest.approx(result.summary.overall)
    assert "rows" not in metrics and set(metrics["by_category"]) == set(CATEGORIES)
    rows = [json.loads(line) for line in (out / "per_question.jsonl").read_text().splitlines()]
    assert [r["id"] for r in rows] == [str(i) for i in range(9)] and {r["label"] for r in rows} == {"skg"}


def test_single_report_markdown(single_report):
    _, path = single_report
    text = path.read_text()
    assert text.startswith("# Fixture run\n")
    for category in CATEGORIES:
        assert category in text
    for name in PLOTS:
        assert f"]({name})" in text  # relative links, so the folder can be moved
    for heading in [
        "## By category",
        "## By retrieval method",
        "## By strategy",
        "## By route",
        "## Tokens and latency",
        "## Worst questions",
    ]:
        assert heading in text
    assert "| all | 9 | 0.600 | 0.567 | 0.580 | 0.400 | 0.500 | 0.544 | 1 | 1 |" in text
    assert "error: StoreError: the store timed out" in text  # the error record among the worst


def test_comparison_report_with_two_answer_files(tmp_path):
    comp = evaluate_many(QUESTIONS, {"skg": FIX / "answers_skg.jsonl", "tkg": FIX / "answers_tkg.jsonl"})
    path = write_report(comp, tmp_path, title="Two runs")
    text = path.read_text()
    assert "## Comparison" in text and "## Run `skg`" in text and "## Run `tkg`" in text
    assert "| category | n | skg | tkg |" in text
    assert "| Reasoning Queries | 1 | 0.000 | 1.000 |" in text
    assert "| tkg | 9 | 0.613 | 0.750 | 0.674 | 0.400 | 1050.000 |" in text
    for category in CATEGORIES:
        assert category in text
    for name in PLOTS:
        assert_png(tmp_path / name)
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert list(metrics["results"]) == ["skg", "tkg"]
    labels = {json.loads(line)["label"] for line in (tmp_path / "per_question.jsonl").read_text().splitlines()}
    assert labels == {"skg", "tkg"}


def test_report_with_judge_sections(tmp_path):
    result = evaluate(QUESTIONS, FIX / "answers_tkg.jsonl")
    factual = FactualResult(
        label="tkg",
        summary=FactualGroup(n=9, precision=0.5, recall=0.25, f1=1 / 3),
        by_category={"Inverse Queries": FactualGroup(n=3, f1=0.2)},
    )
    pairwise = PairwiseResult(
        label_a="skg",
        label_b="tkg",
        prompt_version="judge_pairwise.v1",
        summary=PairwiseGroup(n=9, wins=3, ties=3, losses=3, win_rate=1 / 3, tie_rate=1 / 3, loss_rate=1 / 3),
    )
    text = write_report(result, tmp_path, factual=[factual], pairwise=[pairwise]).read_text()
    assert "## LLM judge: factual correctness" in text and "| tkg | 9 | 0.500 | 0.250 | 0.333 |" in text
    assert "### skg vs tkg" in text
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["factual"][0]["summary"]["f1"] == pytest.approx(1 / 3)
    assert metrics["pairwise"][0]["summary"]["wins"] == 3


def test_plots_survive_no_latency_and_no_scores(tmp_path):
    empty = evaluate({}, [], label="empty")
    write_report(empty, tmp_path)
    for name in PLOTS:
        assert (tmp_path / name).read_bytes()[:8] == PNG_MAGIC


def test_format_table_is_compact_markdown():
    result = evaluate(QUESTIONS, FIX / "answers_skg.jsonl")
    text = format_table(result)
    lines = text.splitlines()
    assert lines[0].startswith("| category | n |") and lines[1].startswith("|---")
    assert any(line.startswith("| ALL | 9 |") for line in lines)
    assert "1 missing, 1 errors" in text


def test_table_helpers():
    assert md_table(["a", "b"], [["x", None], ["y", 2]]).splitlines()[1] == "|---|---:|"
    assert clip("a|b") == "a\\|b" and len(clip("x" * 500, 50)) == 50
