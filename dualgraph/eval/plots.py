"""PNG plots of evaluation results, drawn headless (matplotlib's Agg backend).

Each function takes ``{label: EvalResult}`` so one answers file and a comparison of
several draw the same way (one bar group / point / histogram per label).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dualgraph.eval.results import EvalResult

__all__ = ["PLOT_FILES", "plot_category_scores", "plot_latency_histogram", "plot_quality_vs_tokens", "write_plots"]

PLOT_FILES = {
    "categories": "category_scores.png",
    "quality_vs_tokens": "quality_vs_tokens.png",
    "latency": "latency_hist.png",
}


def _pyplot() -> Any:
    import matplotlib

    # Reports are written on servers and in CI: never try to open a display.
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: str | os.PathLike[str]) -> Path:
    path = Path(path)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _pyplot().close(fig)
    return path


def plot_category_scores(results: Mapping[str, EvalResult], path: str | os.PathLike[str]) -> Path:
    """Overall score per category, one bar per label in each category group."""
    plt = _pyplot()
    categories = sorted({c for r in results.values() for c, g in r.by_category.items() if g.n})
    labels = list(results)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(categories) * max(1, len(labels)) ** 0.5), 4.2))
    width = 0.8 / max(1, len(labels))
    for i, label in enumerate(labels):
        groups = results[label].by_category
        heights = [(groups[c].overall or 0.0) if c in groups else 0.0 for c in categories]
        xs = [k + (i - (len(labels) - 1) / 2) * width for k in range(len(categories))]
        bars = ax.bar(xs, heights, width=width, label=label)
        if len(labels) <= 3:
            ax.bar_label(bars, fmt="%.2f", fontsize=7)
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels([c.replace(" Queries", "") for c in categories], rotation=20, ha="right")
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("overall score (F1 or 0/1)")
    ax.set_title("Score per category")
    if len(labels) > 1:
        ax.legend(fontsize=8)
    if not categories:
        ax.text(0.5, 0.5, "no scored questions", ha="center", va="center", transform=ax.transAxes)
    return _save(fig, path)


def plot_quality_vs_tokens(results: Mapping[str, EvalResult], path: str | os.PathLike[str]) -> Path:
    """Overall score against mean tokens per answer, one point per label.

    The x axis is symmetric-log with a linear part below 10 tokens: zero-token runs (the
    deterministic compiler) sit at 0 instead of vanishing off a log axis, and LLM runs
    costing thousands of tokens still spread out.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    xs = [r.tokens.total_mean for r in results.values()]
    ys = [r.summary.overall or 0.0 for r in results.values()]
    ax.scatter(xs, ys, s=40, zorder=3)
    for label, x, y in zip(results, xs, ys):
        ax.annotate(label, (x, y), textcoords="offset points", xytext=(5, 5), fontsize=8)
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(left=-1, right=max([100.0] + [x * 3 for x in xs]))
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("mean tokens per answer (prompt + completion, symlog)")
    ax.set_ylabel("overall score")
    ax.set_title("Quality vs query tokens")
    ax.grid(True, alpha=0.3)
    return _save(fig, path)


def plot_latency_histogram(results: Mapping[str, EvalResult], path: str | os.PathLike[str]) -> Path:
    """Distribution of answer latency, one outlined histogram per label on shared bins."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    series = {label: [row.latency_s for row in r.rows if row.latency_s is not None] for label, r in results.items()}
    values = [v for vs in series.values() for v in vs]
    if values:
        top = max(values) or 1.0
        bins = [top * k / 30 for k in range(31)]
        for label, vs in series.items():
            if vs:
                ax.hist(vs, bins=bins, histtype="step", linewidth=1.5, label=f"{label} (n={len(vs)})")
        ax.legend(fontsize=8)
    else:
        ax.text(0.5, 0.5, "no latency recorded", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("seconds per answer")
    ax.set_ylabel("answers")
    ax.set_title("Answer latency")
    return _save(fig, path)


def write_plots(results: Mapping[str, EvalResult], out_dir: str | os.PathLike[str]) -> dict[str, str]:
    """Every plot into ``out_dir``; returns plot name -> file name (relative, for links)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plot_category_scores(results, out / PLOT_FILES["categories"])
    plot_quality_vs_tokens(results, out / PLOT_FILES["quality_vs_tokens"])
    plot_latency_histogram(results, out / PLOT_FILES["latency"])
    return dict(PLOT_FILES)
