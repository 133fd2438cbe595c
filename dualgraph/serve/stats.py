"""What GET /stats reports: counts since start and percentiles over a window of recent requests.

Each replica keeps a :class:`StatsBook`; it sends a snapshot to one named Ray actor
(:class:`StatsHub`) at most once a second, and GET /stats, whichever replica takes it, merges the
latest snapshot of every replica. Merged percentiles are taken over the union of the windows.
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from typing import Any

import numpy as np

from dualgraph.serve.models import Percentiles, Stats

__all__ = ["StatsBook", "merge_snapshots"]


class StatsBook:
    """One replica's counts (thread-safe: the engine thread records batches, the loop requests)."""

    def __init__(self, window: int = 10000) -> None:
        self.window = window
        self._lock = threading.Lock()
        self.requests = self.questions = self.errors = self.batches = self.batched_questions = 0
        self.status: Counter[str] = Counter()
        self.latency_ms: deque[float] = deque(maxlen=window)
        self.batch_sizes: deque[int] = deque(maxlen=window)

    def request(self, status: int, seconds: float) -> None:
        with self._lock:
            self.requests += 1
            self.status[str(status)] += 1
            self.latency_ms.append(seconds * 1000.0)

    def answered(self, n: int, errors: int) -> None:
        with self._lock:
            self.questions += n
            self.errors += errors

    def batch(self, size: int) -> None:
        with self._lock:
            self.batches += 1
            self.batched_questions += size
            self.batch_sizes.append(size)

    def snapshot(self) -> dict[str, Any]:
        """Plain data (what travels to the hub)."""
        with self._lock:
            return {
                "requests": self.requests,
                "questions": self.questions,
                "errors": self.errors,
                "batches": self.batches,
                "batched_questions": self.batched_questions,
                "status": dict(self.status),
                "latency_ms": list(self.latency_ms),
                "batch_sizes": list(self.batch_sizes),
            }


def _percentiles(values: list[float]) -> Percentiles:
    if not values:
        return Percentiles()
    p50, p90, p99 = np.percentile(np.asarray(values, dtype=np.float64), [50, 90, 99])
    return Percentiles(p50=round(float(p50), 2), p90=round(float(p90), 2), p99=round(float(p99), 2), max=max(values))


def merge_snapshots(snapshots: list[dict[str, Any]]) -> Stats:
    """One :class:`Stats` over replicas' snapshots."""
    total = Counter[str]()
    latency: list[float] = []
    sizes: list[float] = []
    sums = dict.fromkeys(["requests", "questions", "errors", "batches", "batched_questions"], 0)
    for s in snapshots:
        for k in sums:
            sums[k] += int(s[k])
        total.update(s["status"])
        latency.extend(s["latency_ms"])
        sizes.extend(s["batch_sizes"])
    return Stats(
        replicas=len(snapshots),
        requests=sums["requests"],
        questions=sums["questions"],
        errors=sums["errors"],
        status_counts=dict(sorted(total.items())),
        latency_ms=_percentiles(latency),
        batch_size=_percentiles(sizes),
        batches=sums["batches"],
        mean_batch_size=round(sums["batched_questions"] / sums["batches"], 2) if sums["batches"] else None,
        window=len(latency),
    )
