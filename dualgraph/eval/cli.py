"""The ``dualgraph eval`` subcommand: score answers files, print a table, write a report, judge with an LLM.

Wired into the main parser with one call, :func:`add_eval_parser`; the subparser's
``func`` default is :func:`run_eval_command`. Exit status: 0 on success, 2 on bad input
(the message names the file and the line or question).

>>> import argparse
>>> sub = argparse.ArgumentParser(prog="dualgraph").add_subparsers(dest="command")
>>> args = add_eval_parser(sub).parse_args(["--questions", "q.json", "--answers", "a.jsonl", "--answers", "b.jsonl"])
>>> args.answers, args.judge
(['a.jsonl', 'b.jsonl'], False)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_eval_parser", "build_judge_llm", "run_eval_command"]


def add_eval_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``eval`` to a parser's subcommands; returns the new subparser."""
    p = subparsers.add_parser("eval", help="score answers files (dualgraph ask --out) against a SpecsQA questions file")
    p.add_argument("--questions", required=True, help="SpecsQA-format questions file (JSON object keyed by id)")
    p.add_argument(
        "--answers",
        required=True,
        action="append",
        help="answers file (JSON Lines of answer records); repeat to compare several runs",
    )
    p.add_argument(
        "--label",
        action="append",
        help="name of each --answers run, in the same order "
        "(default: the strategy its records share, else the file name)",
    )
    p.add_argument("--report", help="directory to write report.md, PNG plots, metrics.json and per_question.jsonl")
    p.add_argument("--title", default="DualGraph evaluation", help="title of the report")
    p.add_argument("--index", help="index directory: report its indexing token usage (manifest.json)")
    p.add_argument(
        "--loose",
        action="store_true",
        help="also ignore spacing around punctuation and between "
        "numbers and units when matching names (default: the reference scorer's rules)",
    )
    p.add_argument("--worst", type=int, default=15, help="worst questions listed per run in the report")
    p.add_argument("--judge", action="store_true", help="LLM factual correctness (claim decomposition); needs an LLM")
    p.add_argument(
        "--pairwise",
        action="store_true",
        help="LLM pairwise judging of every pair of runs, both orders; needs an LLM and two or more --answers",
    )
    p.add_argument("--max-claims", type=int, default=20, help="most claims taken from one text by --judge")
    p.add_argument("--llm-url", help="an OpenAI-compatible server for the judge, e.g. http://127.0.0.1:8080")
    p.add_argument("--llm-model", help="model name sent to the LLM server")
    p.add_argument("--llm-api-key-env", help="name of the environment variable holding the LLM API key")
    p.add_argument(
        "--llm-cache-dir",
        help="cache judge replies in this directory (reruns cost no tokens); "
        "default: no cache, so the reported judge tokens are what the run spent",
    )
    p.add_argument("--json", action="store_true", help="print the metrics as JSON instead of the table")
    p.set_defaults(func=run_eval_command)
    return p


def build_judge_llm(args: argparse.Namespace) -> Any:
    """The judge LLM from the ``--llm-*`` options, through the project's model configuration.

    Only the chat half of :func:`dualgraph.models.factory.build_models` is needed: judging
    never embeds, and loading the sentence embedder would cost seconds for nothing.
    """
    from dualgraph.models.cache import CachedLLM
    from dualgraph.models.factory import CACHE_FILE, LLMConfig, ModelsConfig
    from dualgraph.models.openai_chat import OpenAIChatLLM

    llm = LLMConfig(base_url=args.llm_url, model=args.llm_model, api_key_env=args.llm_api_key_env)
    models = ModelsConfig(llm=llm, cache_dir=Path(args.llm_cache_dir or ".dualgraph-cache"))
    c = llm.resolve()
    chat = OpenAIChatLLM(
        c.base_url,
        c.model,
        api_key=c.api_key,
        max_concurrency=c.max_concurrency,
        max_retries=c.max_retries,
        timeout_s=c.timeout_s,
        schema_mode=c.schema_mode,
    )
    if args.llm_cache_dir:
        return CachedLLM(chat, Path(models.cache_dir) / CACHE_FILE)
    return chat


def _labels(paths: list[str], given: list[str] | None, records: list[dict]) -> list[str]:
    from dualgraph.eval.evaluate import default_label

    if given:
        return list(given)
    labels = [default_label(r, p) for p, r in zip(paths, records)]
    if len(set(labels)) < len(labels):  # two runs of one strategy: tell them apart by file
        labels = [Path(p).stem for p in paths]
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        unique.append(label if seen[label] == 1 else f"{label}#{seen[label]}")
    return unique


def _fail(message: str) -> int:
    print(f"dualgraph eval: {message}", file=sys.stderr)
    return 2


def run_eval_command(args: argparse.Namespace) -> int:
    """Run ``dualgraph eval`` for parsed arguments; returns the exit status."""
    from dualgraph.eval.evaluate import evaluate_many
    from dualgraph.eval.inputs import EvalInputError, load_answers, load_questions

    paths = list(args.answers)
    if args.label and len(args.label) != len(paths):
        return _fail(f"{len(args.label)} --label for {len(paths)} --answers: give one label per answers file")
    if args.label and len(set(args.label)) < len(args.label):
        return _fail("--label values must differ")
    if (args.judge or args.pairwise) and not (args.llm_url and args.llm_model):
        return _fail("--judge and --pairwise need an LLM: give --llm-url and --llm-model")
    if args.pairwise and len(paths) < 2:
        return _fail("--pairwise compares runs: give two or more --answers")
    try:
        questions = load_questions(args.questions)
        records = [load_answers(p)[0] for p in paths]
        labels = _labels(paths, args.label, records)
        comparison = evaluate_many(args.questions, dict(zip(labels, paths)), loose=args.loose, index_dir=args.index)
    except EvalInputError as e:
        return _fail(str(e))
    result = comparison if len(paths) > 1 else comparison.results[labels[0]]
    for label, run in comparison.results.items():
        _warn_about(label, run)
    factual, pairwise = _judge(args, questions, dict(zip(labels, records)))
    if args.json:
        out = json.loads(result.to_json(rows=False))
        if factual or pairwise:
            out = {
                "evaluation": out,
                "factual": [json.loads(f.model_dump_json(exclude={"rows"})) for f in factual],
                "pairwise": [json.loads(p.model_dump_json(exclude={"rows"})) for p in pairwise],
            }
        print(json.dumps(out, indent=1, ensure_ascii=False))
    else:
        from dualgraph.eval.tables import format_table

        print(format_table(result))
        for line in _judge_lines(factual, pairwise):
            print(line)
    if args.report:
        from dualgraph.eval.report import write_report

        path = write_report(result, args.report, title=args.title, factual=factual, pairwise=pairwise, worst=args.worst)
        print(f"report: {path}", file=sys.stderr)
    return 0


def _warn_about(label: str, run: Any) -> None:
    """Input oddities that do not stop the evaluation but may mean the wrong files were paired."""
    notes = [
        (run.mismatched_ids, "records hold another question text than the questions file"),
        (run.extra_ids, "records have ids that are not in the questions file (ignored)"),
        (run.repeated_ids, "ids are answered more than once (the last record counts)"),
    ]
    for ids, what in notes:
        if ids:
            shown = ", ".join(ids[:10]) + (" …" if len(ids) > 10 else "")
            print(f"dualgraph eval: warning: [{label}] {len(ids)} {what}: {shown}", file=sys.stderr)


def _judge(args: argparse.Namespace, questions: dict, runs: dict[str, dict]) -> tuple[list, list]:
    if not (args.judge or args.pairwise):
        return [], []
    from dualgraph.eval.judge import FactualJudge, JudgeConfig, judge_pairwise

    llm = build_judge_llm(args)
    config = JudgeConfig(max_claims=args.max_claims)
    factual, pairwise = [], []
    try:
        if args.judge:
            judge = FactualJudge(llm, config=config)
            factual = [judge.judge(questions, recs, label=label) for label, recs in runs.items()]
        if args.pairwise:
            labels = list(runs)
            for i, a in enumerate(labels):
                for b in labels[i + 1 :]:
                    pairwise.append(
                        judge_pairwise(llm, questions, runs[a], runs[b], label_a=a, label_b=b, config=config)
                    )
    finally:
        close = getattr(getattr(llm, "inner", llm), "close", None)
        if close is not None:
            close()
    return factual, pairwise


def _judge_lines(factual: list, pairwise: list) -> list[str]:
    from dualgraph.eval.tables import fmt

    lines = []
    for f in factual:
        s = f.summary
        lines.append(
            f"factual correctness [{f.label}]: P {fmt(s.precision)} R {fmt(s.recall)} F1 {fmt(s.f1)} "
            f"(n={s.n}, judge errors {s.n_errors})"
        )
    for p in pairwise:
        s = p.summary
        lines.append(
            f"pairwise {p.label_a} vs {p.label_b}: {p.label_a} wins {fmt(s.win_rate)}, "
            f"ties {fmt(s.tie_rate)}, "
            f"{p.label_b} wins {fmt(s.loss_rate)} (n={s.n}, no contest {s.no_contest})"
        )
    return lines
