"""Markdown tables of evaluation results (they read as plain text in a terminal too).

>>> print(md_table(["a", "b"], [["x", 0.5]]))
| a | b |
|---|---:|
| x | 0.500 |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dualgraph.eval.results import Comparison, EvalResult, GroupScore, QuestionRow

__all__ = [
    "breakdown_table",
    "category_comparison_table",
    "clip",
    "comparison_table",
    "cost_table",
    "fmt",
    "format_table",
    "md_table",
    "summary_table",
    "worst_questions_table",
    "worst_rows",
]

BREAKDOWN_HEADERS = [
    "group",
    "n",
    "list P",
    "list R",
    "list F1",
    "exact set",
    "value acc",
    "overall",
    "missing",
    "errors",
]


def fmt(value: Any, digits: int = 3) -> str:
    """A table cell: floats rounded, None as a dash.

    >>> fmt(None), fmt(2 / 3), fmt(7), fmt(0.1234, 1)
    ('–', '0.667', '7', '0.1')
    """
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def clip(text: Any, limit: int = 120) -> str:
    """One table-safe line of at most ``limit`` characters (pipes escaped, newlines folded).

    >>> clip("a|b\\nc", 10), clip("x" * 20, 8)
    ('a\\\\|b c', 'xxxxxxx…')
    """
    line = " ".join(str(text).split())
    if len(line) > limit:
        line = line[: limit - 1] + "…"
    return line.replace("|", "\\|")


def md_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table; columns holding numbers (and dashes for none) are right-aligned."""

    def numeric(col: int) -> bool:
        cells = [row[col] for row in rows if row[col] is not None]
        return bool(cells) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in cells)

    align = ["---:" if numeric(i) else "---" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _group_cells(name: str, g: GroupScore) -> list[Any]:
    return [
        name,
        g.n,
        g.list_precision,
        g.list_recall,
        g.list_f1,
        g.exact_set,
        g.value_accuracy,
        g.overall,
        g.n_missing,
        g.n_errors,
    ]


def summary_table(result: EvalResult) -> str:
    """The overall aggregates of one result as a one-row table."""
    return md_table(BREAKDOWN_HEADERS, [_group_cells("all", result.summary)])


def breakdown_table(groups: Mapping[str, GroupScore], *, label: str = "group") -> str:
    """One row per group of a breakdown (category, method, strategy, route ...)."""
    rows = [_group_cells(name, g) for name, g in groups.items()]
    return md_table([label] + BREAKDOWN_HEADERS[1:], rows)


def comparison_table(comparison: Comparison) -> str:
    """One row per labelled run: quality, exact sets, tokens and latency side by side."""
    headers = [
        "run",
        "n",
        "list F1",
        "value acc",
        "overall",
        "exact set",
        "tokens/q",
        "p50 s",
        "p90 s",
        "missing",
        "errors",
    ]
    rows = [
        [
            label,
            r.summary.n,
            r.summary.list_f1,
            r.summary.value_accuracy,
            r.summary.overall,
            r.summary.exact_set,
            r.tokens.total_mean,
            r.latency.p50,
            r.latency.p90,
            r.n_missing,
            r.n_errors,
        ]
        for label, r in comparison.results.items()
    ]
    return md_table(headers, rows)


def category_comparison_table(comparison: Comparison) -> str:
    """Overall score per category (rows) and run (columns)."""
    categories = sorted({c for r in comparison.results.values() for c in r.by_category})
    rows = []
    for c in categories:
        groups = [r.by_category.get(c) for r in comparison.results.values()]
        n = next((g.n for g in groups if g is not None), 0)
        rows.append([c, n] + [g.overall if g is not None else None for g in groups])
    return md_table(["category", "n"] + comparison.labels, rows)


def cost_table(result: EvalResult) -> str:
    """Tokens (query side, and indexing when known) and latency of one result."""
    t, lat = result.tokens, result.latency
    rows: list[list[Any]] = [
        ["query prompt tokens", t.prompt, t.prompt_mean],
        ["query completion tokens", t.completion, t.completion_mean],
        ["query tokens", t.prompt + t.completion, t.total_mean],
    ]
    if result.index_tokens is not None:
        ix = result.index_tokens
        rows += [["index prompt tokens", ix.prompt, None], ["index completion tokens", ix.completion, None]]
    table = md_table(["tokens", "total", "per answer"], rows)
    latency = md_table(
        ["latency (s)", "n", "p50", "p90", "p99", "max", "mean"],
        [["answers", lat.n, lat.p50, lat.p90, lat.p99, lat.max, lat.mean]],
    )
    note = f"\n\nIndex cost: {result.index_tokens.note}." if result.index_tokens and result.index_tokens.note else ""
    return f"{table}\n\n{latency}{note}"


def _answer_text(value: Any, limit: int) -> str:
    if isinstance(value, list):
        shown = "; ".join(str(v) for v in value[:8])
        more = f" (+{len(value) - 8} more)" if len(value) > 8 else ""
        return clip(f"[{len(value)}] {shown}{more}" if value else "[]", limit)
    return clip("–" if value is None else value, limit)


def worst_rows(rows: Sequence[QuestionRow], limit: int) -> list[QuestionRow]:
    """The lowest-scoring scorable rows below 1, worst first (ties in file order)."""
    bad = [r for r in rows if r.scorable and r.score is not None and r.score < 1.0]
    return sorted(bad, key=lambda r: r.score or 0.0)[:limit]


def worst_questions_table(rows: Sequence[QuestionRow], *, limit: int = 15, chars: int = 100) -> str:
    """The worst questions with what was predicted against the gold, cut to ``chars`` per cell."""
    picked = worst_rows(rows, limit)
    if not picked:
        return "Every scored question has a perfect score."
    table_rows = [
        [
            r.id,
            r.category,
            r.score,
            r.status,
            clip(r.question, chars),
            clip(f"error: {r.error}", chars) if r.error else _answer_text(r.predicted, chars),
            _answer_text(r.gold, chars),
        ]
        for r in picked
    ]
    return md_table(["id", "category", "score", "status", "question", "predicted", "gold"], table_rows)


def format_table(result: EvalResult | Comparison) -> str:
    """The compact table the CLI prints: per category for one run, a comparison for several."""
    if isinstance(result, Comparison):
        return f"{comparison_table(result)}\n\n{category_comparison_table(result)}"
    body = breakdown_table({**result.by_category, "ALL": result.summary}, label="category")
    t, lat = result.tokens, result.latency
    tail = (
        f"{result.label}: {result.n_questions} questions, {result.n_missing} missing, {result.n_errors} errors, "
        f"{result.n_unscored} unscored; tokens/answer {t.total_mean:.1f}; latency p50 {fmt(lat.p50)} s, "
        f"p90 {fmt(lat.p90)} s"
    )
    return f"{body}\n\n{tail}"
