"""Exact flat against approximate FAISS indexes at scale (issue 13, item 3).

    .venv/bin/python bench/faiss_scale.py [--n 1000000] [--dim 384] [--kinds ivf]
        [--queries 1000] [--flat-queries 200] [--single 20] [--out bench/results/faiss_scale_1m]

N vectors are drawn from a Gaussian mixture (``--clusters`` centres, each vector its centre
plus noise, L2-normalised), so that neighbours are meaningful and recall can be lost. They
are generated shard by shard and never held all at once outside the indexes. Each index is
built from the same shards with ``FaissIndex.build`` (``kind`` forced, so ``flat`` is the
baseline of today); the approximate ones train on a separate sample of the mixture and run
their recall check on build.

Build seconds leave out the time spent drawing the vectors. Queries are held out (fresh draws of the mixture). Reported per index: build seconds,
resident memory added by the build (after, and peak while building), the recall check's
result, recall@10 against the flat index on the flat queries (the ids must match, since
both hash the same string ids), queries/s in one batch and one query at a time, and each
ratio approximate / flat. Flat search is slow at 1M, so it runs ``--flat-queries`` batch
queries and ``--single`` one-at-a-time queries; the approximate index runs ``--queries``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import faiss  # noqa: E402

from dualgraph.stores.faiss_ann import AnnConfig  # noqa: E402
from dualgraph.stores.faiss_index import FaissIndex  # noqa: E402


class Mixture:
    """A Gaussian mixture on the unit sphere, drawn reproducibly in shards.

    Each cluster spreads mostly along its own few directions (``rank``), like embeddings of
    related texts: k-means then cuts clusters into several IVF lists, and neighbours near a
    cut are what an approximate index can miss. Isotropic clusters in 384 dimensions would
    be so far apart that any index finds them."""

    def __init__(self, dim: int, clusters: int, spread: float, seed: int, rank: int = 16) -> None:
        rng = np.random.default_rng(seed)
        self.dim, self.seed, self.spread = dim, seed, spread
        self.centres = (rng.standard_normal((clusters, dim)) / np.sqrt(dim)).astype(np.float32)
        # per cluster: `rank` directions of norm ~spread/sqrt(rank) each
        self.bases = (rng.standard_normal((clusters, rank, dim)) * (spread / np.sqrt(rank * dim))).astype(np.float32)

    def draw(self, n: int, stream: int) -> np.ndarray:
        rng = np.random.default_rng([self.seed, stream])  # streams >= 10**6 are held out
        label = rng.integers(0, len(self.centres), n)
        z = rng.standard_normal((n, self.bases.shape[1]), dtype=np.float32)
        x = self.centres[label]
        for c in np.unique(label):  # one small product per cluster, never an (n, rank, dim) array
            rows = label == c
            x[rows] += z[rows] @ self.bases[c]
        x += (0.1 / np.sqrt(self.dim)) * rng.standard_normal((n, self.dim), dtype=np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    def shards(self, n: int, size: int) -> Iterator[tuple[list[str], np.ndarray]]:
        for i, start in enumerate(range(0, n, size)):
            rows = min(size, n - start)
            yield [f"vec-{j}" for j in range(start, start + rows)], self.draw(rows, stream=i + 1)


class RssPeak:
    """Resident memory of this process now and at its peak while the block runs (MB, /proc)."""

    def __enter__(self) -> RssPeak:
        gc.collect()
        self.before = self.peak = rss_mb()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._done.wait(0.1):
            self.peak = max(self.peak, rss_mb())

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()
        gc.collect()
        self.after = rss_mb()
        self.peak = max(self.peak, self.after)


def timed(shards: Iterator, spent: list[float]) -> Iterator:
    """``shards`` unchanged, adding the seconds spent drawing them to ``spent[0]``."""
    while True:
        started = time.perf_counter()
        shard = next(shards, None)
        spent[0] += time.perf_counter() - started
        if shard is None:
            return
        yield shard


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def build(kind: str, mix: Mixture, args: argparse.Namespace, train: np.ndarray, probe: np.ndarray) -> dict[str, Any]:
    config = AnnConfig(kind=kind, nlist_per_sqrt_n=args.nlist_per_sqrt_n, encoding=args.encoding)
    drawing = [0.0]
    with RssPeak() as mem:
        started = time.perf_counter()
        index = FaissIndex.build(
            args.dim,
            timed(mix.shards(args.n, args.shard), drawing),
            size=args.n,
            train=train if kind != "flat" else None,
            queries=probe if kind != "flat" else None,
            config=config,
            gpu=False,
        )
        seconds = time.perf_counter() - started - drawing[0]  # the index's time, not the generator's
    row: dict[str, Any] = {
        "kind": kind if kind != "ivf" else f"ivf-{args.encoding}",
        "build_s": round(seconds, 1),
        "mem_mb": round(mem.after - mem.before),
        "peak_mb": round(mem.peak - mem.before),
        "vectors": len(index),
    }
    if kind == "ivf":
        row["nlist"] = faiss.extract_index_ivf(index._index).nlist
    if index.recall is not None:
        row["check"] = index.recall.as_dict()
    row["index"] = index
    return row


def search_rates(index: FaissIndex, queries: np.ndarray, single: int, k: int) -> tuple[float, float, list]:
    """Queries/s in one batch, queries/s one at a time, and the batch's hits."""
    started = time.perf_counter()
    hits = index.search(queries, k=k)
    batch_qps = len(queries) / (time.perf_counter() - started)
    started = time.perf_counter()
    for q in queries[:single]:
        index.search(q, k=k)
    single_qps = single / (time.perf_counter() - started)
    return batch_qps, single_qps, hits


def recall(approx: list, exact: list, k: int) -> float:
    return float(np.mean([len({i for i, _ in a[:k]} & {i for i, _ in e[:k]}) / k for a, e in zip(approx, exact)]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="vectors")
    ap.add_argument("--dim", type=int, default=384)
    ap.add_argument("--clusters", type=int, default=200, help="mixture components")
    ap.add_argument("--spread", type=float, default=1.5, help="spread of a cluster relative to its centre's norm")
    ap.add_argument("--kinds", default="ivf", help="approximate kinds to compare with flat: ivf, hnsw")
    ap.add_argument("--encoding", choices=("flat", "sq8"), default="flat", help="IVF encoding")
    ap.add_argument("--nlist-per-sqrt-n", type=float, default=AnnConfig().nlist_per_sqrt_n)
    ap.add_argument("--shard", type=int, default=50_000, help="vectors per shard")
    ap.add_argument("--queries", type=int, default=1000, help="batch queries for approximate indexes")
    ap.add_argument("--flat-queries", type=int, default=200, help="batch queries for flat (the recall truth)")
    ap.add_argument("--single", type=int, default=20, help="one-at-a-time queries (flat; approximate: 10x)")
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="write OUT.md and OUT.json")
    args = ap.parse_args(argv)

    mix = Mixture(args.dim, args.clusters, args.spread, args.seed)
    queries = mix.draw(max(args.queries, args.flat_queries), stream=10**6)
    # the recall check's queries are held out too (not the ones timed below)
    probe = mix.draw(AnnConfig().recall_queries, stream=10**6 + 1)
    train = mix.draw(min(args.n, AnnConfig().train_sample), stream=10**6 + 2)
    print(
        f"{args.n:,} x {args.dim} vectors, {args.clusters} clusters, {faiss.omp_get_max_threads()} threads", flush=True
    )

    rows: list[dict[str, Any]] = []
    flat = build("flat", mix, args, train, probe)
    fq = queries[: args.flat_queries]
    flat["batch_qps"], flat["single_qps"], truth = search_rates(flat["index"], fq, args.single, args.k)
    flat["recall"] = 1.0
    print(json.dumps({k: v for k, v in flat.items() if k != "index"}), flush=True)
    rows.append(flat)
    for kind in [k.strip() for k in args.kinds.split(",") if k.strip()]:
        row = build(kind, mix, args, train, probe)
        index = row["index"]
        row["batch_qps"], row["single_qps"], _ = search_rates(index, queries[: args.queries], 10 * args.single, args.k)
        row["recall"] = round(recall(index.search(fq, k=args.k), truth, args.k), 4)
        print(json.dumps({k: v for k, v in row.items() if k != "index"}), flush=True)
        row.pop("index")
        gc.collect()
        rows.append(row)
    flat.pop("index")

    setup = {
        k: getattr(args, k)
        for k in ("n", "dim", "clusters", "spread", "encoding", "nlist_per_sqrt_n", "shard", "queries", "flat_queries")
    }
    setup.update(single=args.single, threads=faiss.omp_get_max_threads(), faiss=faiss.__version__)
    text = render(rows, setup)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(json.dumps({"setup": setup, "rows": rows}, indent=1), "utf-8")
    return 0


def render(rows: list[dict[str, Any]], setup: dict[str, Any]) -> str:
    flat = rows[0]
    lines = [
        "# Flat against approximate FAISS indexes",
        "",
        f"{setup['n']:,} vectors x {setup['dim']} (float32, a mixture of {setup['clusters']} Gaussians on the unit "
        f"sphere, spread {setup['spread']}), added in shards of {setup['shard']:,}; {setup['threads']} CPU threads, "
        f"faiss {setup['faiss']}, no GPU. Held-out queries, k = 10. Flat runs {setup['flat_queries']} batch and "
        f"{setup['single']} single queries (one query scans all {setup['n']:,} vectors); approximate indexes "
        f"{setup['queries']} and {10 * setup['single']}. Recall@10 is against the flat index's ids on its "
        f"{setup['flat_queries']} queries. Written by `bench/faiss_scale.py`.",
        "",
        "| index | build s | RSS added MB | peak added MB | recall check | recall@10 vs flat | batch q/s "
        "| single q/s | build ratio | memory ratio | batch q/s ratio | single q/s ratio |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        check = row.get("check")
        checked = (
            f"{check['recall']:.3f} at {check['param']}={check['value']}" + ("" if check["met"] else " (missed)")
            if check
            else "exact"
        )
        if "nlist" in row:
            checked += f", nlist {row['nlist']}"
        lines.append(
            f"| {row['kind']} | {row['build_s']:.1f} | {row['mem_mb']:,} | {row['peak_mb']:,} | {checked} "
            f"| {row['recall']:.3f} | {row['batch_qps']:,.0f} | {row['single_qps']:,.1f} "
            f"| {_ratio(row['build_s'], flat['build_s'])} | {_ratio(row['mem_mb'], flat['mem_mb'])} "
            f"| {_ratio(row['batch_qps'], flat['batch_qps'])} | {_ratio(row['single_qps'], flat['single_qps'])} |"
        )
    return "\n".join(lines) + "\n"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "–"


if __name__ == "__main__":
    raise SystemExit(main())
