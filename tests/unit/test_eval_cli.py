"""``dualgraph eval`` through its own parser (the main CLI adds it with one call)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

from dualgraph.eval import cli as eval_cli
from dualgraph.eval.cli import add_eval_parser

sys.path.insert(0, str(Path(__file__).parent))
from test_eval_judge import ScriptedLLM

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
Q = str(FIX / "questions.json")
SKG, TKG = str(FIX / "answers_skg.jsonl"), str(FIX / "answers_tkg.jsonl")


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="dualgraph")
    add_eval_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["eval", *argv])
    return args.func(args)


def test_one_run_prints_the_table(capsys):
    assert run("--questions", Q, "--answers", SKG) == 0
    out = capsys.readouterr().out
    assert "| ALL | 9 |" in out and "Reasoning Queries" in out and out.count("\n") < 20


def test_two_runs_compare_and_write_a_report(tmp_path, capsys):
    assert (
        run(
            "--questions",
            Q,
            "--answers",
            SKG,
            "--answers",
            TKG,
            "--label",
            "S",
            "--label",
            "T",
            "--report",
            str(tmp_path / "rep"),
            "--index",
            str(tmp_path),
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "| S | 9 |" in captured.out and "| T | 9 |" in captured.out
    assert "report.md" in captured.err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "## Run `S`" in text and "no manifest.json" in text


def test_json_output_and_default_labels(capsys):
    assert run("--questions", Q, "--answers", SKG, "--answers", TKG, "--json", "--loose") == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data["results"]) == ["answers_skg", "tkg"]  # mixed strategies: named after the file
    assert data["results"]["tkg"]["loose"] is True and "rows" not in data["results"]["tkg"]


def test_odd_inputs_warn_but_do_not_fail(tmp_path, capsys):
    lines = Path(TKG).read_text().splitlines()
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(lines + [json.dumps(json.loads(lines[0]) | {"id": "77"})]) + "\n")
    assert run("--questions", Q, "--answers", str(path)) == 0
    err = capsys.readouterr().err
    assert "warning: [tkg] 1 records have ids that are not in the questions file (ignored): 77" in err


def test_bad_answers_line_exits_2_naming_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    lines = Path(SKG).read_text().splitlines()
    bad.write_text("\n".join(lines[:4] + ["{not json"] + lines[4:]) + "\n")
    assert run("--questions", Q, "--answers", str(bad)) == 2
    err = capsys.readouterr().err
    assert f"{bad}:5: not valid JSON" in err and err.startswith("dualgraph eval: ")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--answers", SKG, "--judge"], "need an LLM"),
        (
            ["--answers", SKG, "--pairwise", "--llm-url", "http://127.0.0.1:9", "--llm-model", "m"],
            "two or more --answers",
        ),
        (["--answers", SKG, "--answers", TKG, "--label", "only-one"], "one label per answers file"),
        (["--answers", SKG, "--answers", TKG, "--label", "x", "--label", "x"], "must differ"),
        (["--answers", "/nonexistent/a.jsonl"], "/nonexistent/a.jsonl: cannot read"),
    ],
)
def test_bad_usage_exits_2(argv, message, capsys):
    assert run("--questions", Q, *argv) == 2
    assert message in capsys.readouterr().err


def test_judging_through_the_cli(tmp_path, capsys, monkeypatch):
    fake = ScriptedLLM()
    monkeypatch.setattr(eval_cli, "build_judge_llm", lambda args: fake)
    assert (
        run(
            "--questions",
            Q,
            "--answers",
            SKG,
            "--answers",
            TKG,
            "--label",
            "skg",
            "--label",
            "tkg",
            "--judge",
            "--pairwise",
            "--llm-url",
            "http://127.0.0.1:9",
            "--llm-model",
            "m",
            "--report",
            str(tmp_path),
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "factual correctness [skg]" in out and "pairwise skg vs tkg" in out
    stages = [{r.stage for r in batch} for batch in fake.batches]
    assert stages == [{"judge_claims"}, {"judge_verify"}, {"judge_claims"}, {"judge_verify"}, {"judge_pairwise"}]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert [f["label"] for f in metrics["factual"]] == ["skg", "tkg"]
    assert metrics["pairwise"][0]["summary"]["n"] == 9


def test_the_judge_llm_is_built_from_the_models_config(monkeypatch, tmp_path):
    monkeypatch.setenv("EVAL_TEST_KEY", "sk-test")
    args = argparse.Namespace(
        llm_url="http://127.0.0.1:9", llm_model="judge-model", llm_api_key_env="EVAL_TEST_KEY", llm_cache_dir=None
    )
    llm = eval_cli.build_judge_llm(args)
    assert llm.name == "judge-model" and llm.url == "http://127.0.0.1:9/v1/chat/completions"
    assert llm._api_key == "sk-test"
    cached = eval_cli.build_judge_llm(argparse.Namespace(**{**vars(args), "llm_cache_dir": str(tmp_path)}))
    assert type(cached).__name__ == "CachedLLM" and cached.inner.name == "judge-model"
