"""Queries on the embedded store's files against the same store copied into memory.

    .venv/bin/python bench/memory_store.py --index runs/demo/index --questions Q.json [--out bench/results/memory_store]

Each question is answered once (default settings, on the files) to get its final SPARQL; then
every final query runs ``--reps`` times on the RocksDB store and on its in-memory copy
(``OxigraphStore.copy_to_memory``, what ``AskConfig.in_memory_quads`` turns on), and the
median of each is kept. Both must return the same number of rows, or the run fails. Prints
and writes (OUT.md, OUT.json) the copy's cost (seconds, quads per second, resident set) and
the query times side by side with their ratio.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from profile_index import rss_mb  # noqa: E402 - bench is a folder of scripts

from dualgraph.answer.engine import AskConfig, QAEngine  # noqa: E402
from dualgraph.pipeline.answer_files import read_questions  # noqa: E402
from dualgraph.pipeline.layout import IndexLayout  # noqa: E402
from dualgraph.query.sparql.safety import run_select  # noqa: E402
from dualgraph.stores.oxigraph import OxigraphStore  # noqa: E402


def _timed(store, sparql: str, reps: int) -> tuple[float, int]:
    times, rows = [], 0
    for _ in range(reps):
        t0 = time.perf_counter()
        rows = run_select(store, sparql, row_cap=100_000, timeout_s=60).total_rows
        times.append(time.perf_counter() - t0)
    return statistics.median(times), rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--questions", type=Path, required=True, help="SpecsQA questions JSON (object by id, or a list)")
    ap.add_argument("--reps", type=int, default=3, help="runs of each query per store (median kept)")
    ap.add_argument("--out", type=Path, help="write OUT.md and OUT.json")
    args = ap.parse_args(argv)

    with QAEngine.open(args.index, AskConfig()) as engine:
        queries = [
            (qid, rec.evidence.sparql)
            for qid, q in read_questions(args.questions)
            if (rec := engine.answer(q, qid=qid)).evidence.sparql
        ]
    disk = OxigraphStore(IndexLayout(args.index).store, read_only=True)
    rss0 = rss_mb()
    t0 = time.perf_counter()
    memory = disk.copy_to_memory()
    copy_s = time.perf_counter() - t0
    quads = memory.count()
    rss_copy = rss_mb() - rss0
    rows = []
    for qid, sparql in queries:
        d, n_disk = _timed(disk, sparql, args.reps)
        m, n_mem = _timed(memory, sparql, args.reps)
        if n_disk != n_mem:
            raise SystemExit(f"{qid}: {n_disk} rows on the files, {n_mem} in memory")
        rows.append({"id": qid, "disk_s": d, "memory_s": m, "rows": n_disk})
    disk_p50 = statistics.median(r["disk_s"] for r in rows)
    mem_p50 = statistics.median(r["memory_s"] for r in rows)
    result = {
        "index": str(args.index),
        "questions": str(args.questions),
        "queries": len(rows),
        "quads": quads,
        "copy_s": round(copy_s, 2),
        "copy_quads_per_s": round(quads / copy_s) if copy_s else None,
        "copy_rss_mib": round(rss_copy),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "disk_p50_ms": round(1000 * disk_p50, 2),
        "memory_p50_ms": round(1000 * mem_p50, 2),
        "disk_total_s": round(sum(r["disk_s"] for r in rows), 3),
        "memory_total_s": round(sum(r["memory_s"] for r in rows), 3),
        "ratio_p50": round(disk_p50 / mem_p50, 2) if mem_p50 else None,
        "per_query": rows,
    }
    result["ratio_total"] = round(result["disk_total_s"] / result["memory_total_s"], 2)
    md = [
        f"# Final queries on the files and in memory: `{args.index}`",
        "",
        f"{len(rows)} final queries of `{args.questions}`, median of {args.reps} runs each; written by `bench/memory_store.py`.",
        "",
        "| measure | files (RocksDB) | memory | files / memory |",
        "|---|---:|---:|---:|",
        f"| query p50 | {result['disk_p50_ms']} ms | {result['memory_p50_ms']} ms | **{result['ratio_p50']}** |",
        f"| all queries | {result['disk_total_s']} s | {result['memory_total_s']} s | {result['ratio_total']} |",
        "",
        f"The copy: {quads:,} quads in {copy_s:.1f} s ({result['copy_quads_per_s']:,} quads/s), "
        f"{rss_copy:.0f} MiB more resident ({1024 * rss_copy / max(quads, 1):.2f} KB per quad).",
    ]
    text = "\n".join(md) + "\n"
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
