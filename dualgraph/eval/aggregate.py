"""Aggregates over scored rows: macro means, breakdowns by a key, tokens, latency, index cost.

>>> rows = [QuestionRow(id="0", category="Inverse", method="sparql", is_list=True, p=1.0, r=0.5,
...                     f1=2 / 3, exact=False, score=2 / 3),
...         QuestionRow(id="1", category="Aggregation", method="sparql", is_list=False, value_ok=True, score=1.0)]
>>> g = group_score(rows)
>>> g.n, round(g.overall, 4), g.value_accuracy, g.exact_set
(2, 0.8333, 1.0, 0.0)
>>> sorted(breakdown(rows, lambda r: r.category))
['Aggregation', 'Inverse']
>>> latency_summary([1.0, 2.0, 3.0]).p50
2.0
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from dualgraph.eval.results import GroupScore, IndexTokens, LatencySummary, QuestionRow, TokenSummary

__all__ = ["breakdown", "group_score", "latency_summary", "read_index_tokens", "token_summary"]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def group_score(rows: Iterable[QuestionRow]) -> GroupScore:
    """Macro aggregates over the scorable rows (missing/error counts over all rows given)."""
    rows = list(rows)
    scored = [r for r in rows if r.scorable and r.score is not None]
    lists = [r for r in scored if r.is_list]
    values = [r for r in scored if not r.is_list]
    return GroupScore(
        n=len(scored),
        n_list=len(lists),
        n_value=len(values),
        # (a scored list row always has p, r and f1: the None filters only narrow the type)
        list_precision=_mean([r.p for r in lists if r.p is not None]),
        list_recall=_mean([r.r for r in lists if r.r is not None]),
        list_f1=_mean([r.f1 for r in lists if r.f1 is not None]),
        exact_set=_mean([float(bool(r.exact)) for r in lists]),
        value_accuracy=_mean([float(bool(r.value_ok)) for r in values]),
        overall=_mean([r.score for r in scored if r.score is not None]),
        n_missing=sum(r.status == "missing" for r in rows),
        n_errors=sum(r.status == "error" for r in rows),
    )


def breakdown(rows: Iterable[QuestionRow], key: Callable[[QuestionRow], str]) -> dict[str, GroupScore]:
    """One :class:`GroupScore` per value of ``key``, keys sorted."""
    groups: dict[str, list[QuestionRow]] = {}
    for row in rows:
        groups.setdefault(str(key(row)), []).append(row)
    return {k: group_score(groups[k]) for k in sorted(groups)}


def token_summary(rows: Iterable[QuestionRow]) -> TokenSummary:
    """Query-time token usage over the rows that have a record (a missing answer cost nothing)."""
    present = [r for r in rows if r.status != "missing"]
    n = len(present)
    prompt = sum(r.prompt_tokens for r in present)
    completion = sum(r.completion_tokens for r in present)
    return TokenSummary(
        n_records=n,
        prompt=prompt,
        completion=completion,
        prompt_mean=prompt / n if n else 0.0,
        completion_mean=completion / n if n else 0.0,
        total_mean=(prompt + completion) / n if n else 0.0,
    )


def latency_summary(seconds: Iterable[float | None]) -> LatencySummary:
    """Percentiles (linear interpolation), max and mean of the latencies given (None skipped)."""
    values = np.asarray([s for s in seconds if s is not None], dtype=float)
    if values.size == 0:
        return LatencySummary()
    p50, p90, p99 = (float(x) for x in np.percentile(values, [50, 90, 99]))
    return LatencySummary(
        n=int(values.size), p50=p50, p90=p90, p99=p99, max=float(values.max()), mean=float(values.mean())
    )


def read_index_tokens(index_dir: str | os.PathLike[str]) -> IndexTokens:
    """Indexing token usage from ``INDEX/manifest.json`` (its ``model_usage`` per stage).

    An absent or unreadable manifest is not an error: the cost is then reported as
    unknown with the reason in ``note``, and the evaluation goes on.
    """
    path = Path(index_dir) / "manifest.json"
    if not path.is_file():
        return IndexTokens(manifest=str(path), note="no manifest.json in the index directory")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return IndexTokens(manifest=str(path), note=f"unreadable manifest ({type(e).__name__})")
    usage = manifest.get("model_usage") if isinstance(manifest, dict) else None
    if not isinstance(usage, dict):
        return IndexTokens(manifest=str(path), note="the manifest records no model_usage")
    by_stage = {str(k): v for k, v in usage.items() if isinstance(v, dict)}
    prompt = sum(int(v.get("prompt_tokens") or 0) for v in by_stage.values())
    completion = sum(int(v.get("completion_tokens") or 0) for v in by_stage.values())
    return IndexTokens(manifest=str(path), prompt=prompt, completion=completion, by_stage=by_stage)
