"""Approximate FAISS indexes for large vector sets: the choice by size, and the recall check.

:class:`~dualgraph.stores.faiss_index.FaissIndex` stays an exact flat index until a set is
large; :class:`AnnConfig` says when it is large and what to build then. Whatever is built,
its recall@k against exact search is measured on sample queries, and the search breadth
(IVF ``nprobe``, HNSW ``efSearch``) is raised until the target is met; the outcome is a
:class:`RecallReport`, saved with the index.

Why IVF by default and not HNSW (``bench/faiss_scale.py``, 2 busy CPU cores, 384-d clustered
vectors, ``bench/results/faiss_scale_1m.md``): at 1M vectors IVF-Flat met recall@10 0.984 at
nprobe 8 on build (0.973 against flat on held-out queries) and answered 185x (batch) and
578x (one query at a time) as many queries/s as flat, for 16x the build time and 1.3x the
memory; at 50k, HNSW took twice IVF's build time and answered single queries 27x slower.

* IVF-Flat trains k-means on a sample and then only assigns each vector to a list, so it
  is built shard by shard in bounded memory and in a fraction of the time HNSW spends
  linking every vector into its graph;
* it removes ids natively (``remove_ids``), which keeps upserts working; FAISS's HNSW
  cannot remove, so an HNSW index here refuses removals and upserts;
* it moves to a GPU with ``index_cpu_to_gpu``; FAISS has no GPU HNSW, so HNSW stays on the CPU;
* its scores are exact cosines of the vectors it visits, so ``range_search``'s
  ``min_score`` keeps its meaning (the ``sq8`` encoding trades that for 4x less memory).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from itertools import chain
from typing import Any

import faiss
import numpy as np

from dualgraph.stores.ann_config import AnnConfig, Kind
from dualgraph.stores.vector import VectorIndexError

log = logging.getLogger(__name__)

Shard = tuple[list[str], np.ndarray]


class RecallNotMetError(VectorIndexError):
    """An approximate index could not reach its recall target within the allowed search breadth."""


class RecallWarning(UserWarning):
    """An approximate index was kept although it missed its recall target (``on_recall_miss='warn'``)."""


@dataclass
class RecallReport:
    """What the recall check measured: ``tried`` holds ``(breadth, recall)`` in the order tried."""

    kind: str
    param: str
    value: int
    recall: float
    target: float
    k: int
    queries: int
    met: bool
    tried: list[tuple[int, float]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> RecallReport:
        return cls(**{**data, "tried": [tuple(t) for t in data.get("tried", [])]})

    def summary(self) -> str:
        verdict = "meets" if self.met else "MISSES"
        return (
            f"{self.kind}: recall@{self.k} {self.recall:.3f} at {self.param}={self.value} "
            f"({verdict} the target {self.target}, {self.queries} queries)"
        )


def new_index(dim: int, metric: str, kind: Kind, config: AnnConfig, *, n: int, train_rows: int) -> faiss.Index:
    """An empty approximate index; IVF still needs training, HNSW does not."""
    fmetric = faiss.METRIC_INNER_PRODUCT if metric == "ip" else faiss.METRIC_L2
    if kind == "hnsw":
        hnsw = faiss.IndexHNSWFlat(dim, config.hnsw_m, fmetric)
        hnsw.hnsw.efConstruction = config.ef_construction
        return hnsw
    if kind != "ivf":
        raise ValueError(f"no approximate index of kind {kind!r}")
    nlist = config.lists_for(n, train_rows)
    quantizer = faiss.IndexFlatIP(dim) if metric == "ip" else faiss.IndexFlatL2(dim)
    ivf: faiss.IndexIVF
    if config.encoding == "sq8":
        ivf = faiss.IndexIVFScalarQuantizer(quantizer, dim, nlist, faiss.ScalarQuantizer.QT_8bit, fmetric)
    else:
        ivf = faiss.IndexIVFFlat(quantizer, dim, nlist, fmetric)
    ivf.cp.niter = config.kmeans_iterations
    ivf.cp.seed = config.seed
    # normalised data: centroids on the sphere assign by cosine like the queries do
    ivf.cp.spherical = metric == "ip"
    return ivf


def set_breadth(index: faiss.Index, kind: str, value: int) -> None:
    """Set how widely a query searches: IVF ``nprobe`` or HNSW ``efSearch``."""
    if kind == "ivf":
        faiss.extract_index_ivf(index).nprobe = int(value)
    elif kind == "hnsw":
        hnsw: Any = faiss.downcast_index(index.index) if isinstance(index, faiss.IndexIDMap2) else index
        hnsw.hnsw.efSearch = int(value)


def take_sample(shards: Iterable[Shard], rows: int) -> tuple[np.ndarray, Iterator[Shard]]:
    """The first ``rows`` vectors of ``shards``, and all the shards again (those read are kept).

    Only as many shards are held as the sample needs; the rest stream on afterwards."""
    it = iter(shards)
    held: list[Shard] = []
    have = 0
    while have < rows:
        shard = next(it, None)
        if shard is None:
            break
        held.append(shard)
        have += len(shard[0])
    if not held:
        raise ValueError("no vectors to train an approximate index on")
    sample = np.concatenate([np.asarray(v, dtype=np.float32).reshape(len(i), -1) for i, v in held])[:rows]
    return sample, chain(held, it)


class ExactTopK:
    """Exact top-``fetch`` of a few queries over vectors seen shard by shard (bounded memory).

    Scores follow :class:`FaissIndex`: cosines for ``ip`` (rows already normalised), negated
    squared distances for ``l2``."""

    def __init__(self, queries: np.ndarray, fetch: int, metric: str) -> None:
        self.queries = np.ascontiguousarray(queries, dtype=np.float32)
        self.fetch = fetch
        self.metric = metric
        nq = self.queries.shape[0]
        self.scores = np.full((nq, 0), -np.inf, dtype=np.float32)
        self.keys = np.full((nq, 0), -1, dtype=np.int64)

    def add(self, rows: np.ndarray, keys: np.ndarray) -> None:
        k = min(self.fetch, rows.shape[0])
        if k == 0:
            return
        fmetric = faiss.METRIC_INNER_PRODUCT if self.metric == "ip" else faiss.METRIC_L2
        dist, pos = faiss.knn(self.queries, rows, k, metric=fmetric)
        scores = dist if self.metric == "ip" else -dist
        scores = np.concatenate([self.scores, scores], axis=1)
        both = np.concatenate([self.keys, keys[pos]], axis=1)
        order = np.argsort(-scores, axis=1, kind="stable")[:, : self.fetch]
        self.scores = np.take_along_axis(scores, order, axis=1)
        self.keys = np.take_along_axis(both, order, axis=1)


def recall_at_k(
    exact_scores: np.ndarray,
    exact_keys: np.ndarray,
    approx_keys: np.ndarray,
    self_scores: np.ndarray,
    k: int,
) -> float:
    """Mean share of the exact top-``k`` that the approximate top-``k`` found.

    A query drawn from the stored vectors finds itself (and its exact duplicates) at the top
    whatever the index; such hits (exact score equal to the query's score with itself) are
    dropped from both lists so they do not flatter the recall."""
    shares = []
    for q in range(exact_keys.shape[0]):
        same = np.abs(exact_scores[q] - self_scores[q]) <= 1e-5
        skip = set(exact_keys[q][same].tolist()) | {-1}
        truth = [int(x) for x in exact_keys[q] if int(x) not in skip][:k]
        if not truth:
            continue
        found = [int(x) for x in approx_keys[q] if int(x) not in skip][:k]
        shares.append(len(set(truth) & set(found)) / len(truth))
    return float(np.mean(shares)) if shares else 1.0


def tune(
    index: faiss.Index, kind: str, config: AnnConfig, queries: np.ndarray, exact: ExactTopK, metric: str
) -> RecallReport:
    """Raise the search breadth until recall@k meets the target; leave the index at that breadth."""
    k = config.recall_k
    if kind == "ivf":
        param, fixed, top = "nprobe", config.nprobe, min(config.max_nprobe, faiss.extract_index_ivf(index).nlist)
        start = 1
    else:
        param, fixed, top = "efSearch", config.ef_search, config.max_ef_search
        start = min(16, top)
    steps = [fixed] if fixed else _doublings(start, top)
    self_scores = (np.einsum("ij,ij->i", queries, queries) if metric == "ip" else np.zeros(len(queries))).astype(
        np.float32
    )
    tried: list[tuple[int, float]] = []
    for value in steps:
        set_breadth(index, kind, value)
        _, keys = index.search(queries, exact.fetch)
        recall = recall_at_k(exact.scores, exact.keys, keys, self_scores, k)
        tried.append((value, round(recall, 4)))
        if recall >= config.recall_target:
            break
    value, recall = tried[-1]
    report = RecallReport(
        kind=kind,
        param=param,
        value=value,
        recall=recall,
        target=config.recall_target,
        k=k,
        queries=int(queries.shape[0]),
        met=recall >= config.recall_target,
        tried=tried,
    )
    log.info("%s", report.summary())
    if not report.met:
        why = "the fixed value" if fixed else f"the largest allowed ({param}={top})"
        message = f"{report.summary()}: {why} is not enough; raise it, lower the target, or use kind='flat'"
        if config.on_recall_miss == "raise":
            raise RecallNotMetError(message)
        import warnings

        warnings.warn(message, RecallWarning, stacklevel=3)
    return report


def _doublings(start: int, top: int) -> list[int]:
    steps, value = [], max(1, start)
    while value < top:
        steps.append(value)
        value *= 2
    return [*steps, top]
