"""Write an evaluation report: ``report.md`` with embedded PNG plots, ``metrics.json``, ``per_question.jsonl``.

One answers file gives a report with every breakdown; several (a :class:`Comparison`)
give a comparison table and a per-category table with one column per run, then each
run's breakdowns. LLM judge results, when there are any, get their own sections.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from dualgraph.eval.judge import FactualResult, PairwiseResult
from dualgraph.eval.plots import write_plots
from dualgraph.eval.results import Comparison, EvalResult
from dualgraph.eval.tables import (
    breakdown_table,
    category_comparison_table,
    comparison_table,
    cost_table,
    format_table,
    md_table,
    summary_table,
    worst_questions_table,
)

__all__ = ["REPORT_FILES", "format_table", "write_report"]

REPORT_FILES = {"report": "report.md", "metrics": "metrics.json", "per_question": "per_question.jsonl"}


def _inputs_line(result: EvalResult) -> str:
    parts = [
        f"questions `{result.questions_path or '(in memory)'}`",
        f"answers `{result.answers_path or '(in memory)'}`",
        f"{result.n_questions} questions",
        f"{result.n_unscored} without list/value gold",
        f"{result.n_missing} missing",
        f"{result.n_errors} error records",
        f"names matched {'loosely' if result.loose else 'strictly (reference scorer rules)'}",
    ]
    if result.extra_ids:
        parts.append(f"{len(result.extra_ids)} records for unknown ids ignored ({', '.join(result.extra_ids[:10])})")
    if result.mismatched_ids:
        shown = ", ".join(result.mismatched_ids[:10])
        parts.append(
            f"**{len(result.mismatched_ids)} records answer another question text** than the questions "
            f"file ({shown}): are these answers to this file?"
        )
    missing = [r.id for r in result.rows if r.status == "missing"]
    if missing:
        parts.append(f"missing ids: {', '.join(missing[:20])}{' …' if len(missing) > 20 else ''}")
    if result.repeated_ids:
        shown = ", ".join(result.repeated_ids[:10])
        parts.append(f"{len(result.repeated_ids)} ids answered twice, last kept ({shown})")
    return "- " + "\n- ".join(parts)


def _details(result: EvalResult, *, worst: int, heading: str) -> list[str]:
    """The breakdowns, cost and worst questions of one run."""
    out = [
        f"{heading} By retrieval method",
        breakdown_table(result.by_method, label="method"),
        f"{heading} By objectivity",
        breakdown_table(result.by_objectivity, label="objective"),
        f"{heading} By strategy",
        breakdown_table(result.by_strategy, label="strategy"),
        f"{heading} By route",
        breakdown_table(result.by_route, label="route"),
        f"{heading} Tokens and latency",
        cost_table(result),
        f"{heading} Worst questions",
        worst_questions_table(result.rows, limit=worst),
    ]
    return out


def _factual_section(results: Sequence[FactualResult]) -> list[str]:
    rows = [
        [
            r.label,
            r.summary.n,
            r.summary.precision,
            r.summary.recall,
            r.summary.f1,
            r.summary.n_errors,
            sum(t.prompt for t in r.tokens.values()),
            sum(t.completion for t in r.tokens.values()),
        ]
        for r in results
    ]
    out = [
        "## LLM judge: factual correctness (claims)",
        "Precision: share of the answer's claims the gold supports; recall: share of the gold's claims the "
        "answer supports. Questions the judge failed on are errors, left out of the means.",
        md_table(
            ["run", "n", "precision", "recall", "F1", "judge errors", "judge prompt tok", "judge compl tok"], rows
        ),
    ]
    categories = sorted({c for r in results for c in r.by_category})
    if categories:
        out.append(
            md_table(
                ["category"] + [r.label for r in results],
                [[c] + [r.by_category[c].f1 if c in r.by_category else None for r in results] for c in categories],
            )
        )
    return out


def _pairwise_section(results: Sequence[PairwiseResult]) -> list[str]:
    out = [
        "## LLM judge: pairwise",
        "Each question is judged in both orders; a run wins only when both orders agree. Rates are over decided "
        "questions (no contest: a verdict could not be read).",
    ]
    for r in results:
        rows = [
            [name, g.n, g.win_rate, g.tie_rate, g.loss_rate, g.no_contest]
            for name, g in [("all", r.summary), *r.by_category.items()]
        ]
        out += [
            f"### {r.label_a} vs {r.label_b}",
            md_table(["group", "n", f"{r.label_a} wins", "ties", f"{r.label_b} wins", "no contest"], rows),
        ]
    return out


def _write_json_files(result: EvalResult | Comparison, out: Path, extras: dict) -> None:
    metrics = json.loads(result.to_json(rows=False))
    metrics.update({k: [json.loads(x.model_dump_json(exclude={"rows"})) for x in v] for k, v in extras.items() if v})
    (out / REPORT_FILES["metrics"]).write_text(
        json.dumps(metrics, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    runs = result.results if isinstance(result, Comparison) else {result.label: result}
    with (out / REPORT_FILES["per_question"]).open("w", encoding="utf-8") as fh:
        for label, run in runs.items():
            for row in run.rows:
                fh.write(json.dumps({"label": label, **row.model_dump(mode="json")}, ensure_ascii=False) + "\n")


def write_report(
    result: EvalResult | Comparison,
    out_dir: str | os.PathLike[str],
    *,
    title: str = "DualGraph evaluation",
    factual: Sequence[FactualResult] = (),
    pairwise: Sequence[PairwiseResult] = (),
    worst: int = 15,
) -> Path:
    """Write the report files into ``out_dir`` (created); returns the path of ``report.md``.

    ``factual``/``pairwise``: LLM judge results to add as sections (and to ``metrics.json``).
    ``worst``: how many of the lowest-scoring questions to list per run.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    runs = result.results if isinstance(result, Comparison) else {result.label: result}
    plots = write_plots(runs, out)
    figures = (
        f"![Score per category]({plots['categories']})\n\n"
        f"![Quality vs tokens]({plots['quality_vs_tokens']}) ![Latency]({plots['latency']})"
    )
    lines = [f"# {title}"]
    if isinstance(result, Comparison):
        lines += [
            f"Questions: `{result.questions_path or '(in memory)'}`; {len(runs)} runs.",
            "## Comparison",
            comparison_table(result),
            "## Overall score per category",
            category_comparison_table(result),
            figures,
        ]
        for label, run in runs.items():
            lines += [
                f"## Run `{label}`",
                _inputs_line(run),
                summary_table(run),
                "### By category",
                breakdown_table(run.by_category, label="category"),
            ]
            lines += _details(run, worst=min(worst, 10), heading="###")
    else:
        lines += [
            _inputs_line(result),
            "## Overall",
            summary_table(result),
            "## By category",
            breakdown_table(result.by_category, label="category"),
            figures,
        ]
        lines += _details(result, worst=worst, heading="##")
    if factual:
        lines += _factual_section(factual)
    if pairwise:
        lines += _pairwise_section(pairwise)
    lines.append(
        "Scores: list questions get set P/R/F1 (macro means), value questions 0/1; overall is the mean over "
        "scored questions of F1 or 0/1. A dash marks a metric with no question in its group."
    )
    path = out / REPORT_FILES["report"]
    path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    _write_json_files(result, out, {"factual": list(factual), "pairwise": list(pairwise)})
    return path
