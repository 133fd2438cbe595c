"""The final query of each question answered from the per-product tables, against the store.

    .venv/bin/python bench/product_tables.py --index IX --questions Q.json [--files] [--reps 3]

Opens the index as bulk answering does (its store copied into memory; ``--files``: the index's
files), compiles every question once, and for each question whose final query the tables read
(a list, a count or a ranking; see ``dualgraph/query/sparql/product_tables.py``) times:

- **store**: the query run on the store, as before stop 50 (median of ``--reps``);
- **tables, cold**: the tables of a fresh engine, in question order, each condition read from the
  store the first time it is asked (a bulk run pays this once per condition);
- **tables, warm**: the same again, every condition kept.

The rows must be identical to the store's, row for row, or the run fails. Prints one Markdown
table: questions read, total and p50/p90 milliseconds per column, and the ratios store / tables.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.answer.engine import IN_MEMORY_QUADS, AskConfig, EngineSpec  # noqa: E402
from dualgraph.pipeline.answer_files import read_questions  # noqa: E402
from dualgraph.query.sparql.product_tables import ProductTables  # noqa: E402
from dualgraph.query.sparql.safety import run_select  # noqa: E402


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def measure(index: Path, questions: Path, *, files: bool, reps: int) -> dict[str, list[float]]:
    config = AskConfig(in_memory_quads=0 if files else IN_MEMORY_QUADS)
    engine = EngineSpec(index_dir=index, config=config)()
    compiler = engine.kit.symbolic.compiler  # type: ignore[attr-defined]  # the default strategy's source
    store = compiler.store
    cold = ProductTables(store, timeout_s=60)
    cold.prepare()  # as an engine does at open
    times: dict[str, list[float]] = {"store": [], "cold": [], "warm": []}
    read = []
    for _, question in read_questions(questions):
        comp = compiler.compile(question)
        em = comp.emission
        if comp.sparql is None or em is None:
            continue
        blocks, filters = em.where()
        if em.query(blocks, filters) != comp.sparql:
            continue
        args = dict(ordered=em.ordered, count_ranges=em.count_ranges, row_cap=compiler.row_cap)
        t0 = time.perf_counter()
        got = cold.result(comp.sparql, em.intent, blocks, filters, **args)
        t_cold = time.perf_counter() - t0
        if got is None:
            continue
        store_s = []
        for _ in range(reps):
            t0 = time.perf_counter()
            want = run_select(store, comp.sparql, row_cap=compiler.row_cap, timeout_s=60)
            store_s.append(time.perf_counter() - t0)
        if (want.rows, want.total_rows) != (got.rows, got.total_rows):
            raise SystemExit(f"rows differ from the store's: {question!r}")
        read.append((comp.sparql, em, blocks, filters, args))
        times["store"].append(statistics.median(store_s))
        times["cold"].append(t_cold)
    for sparql, em, blocks, filters, args in read:
        t0 = time.perf_counter()
        cold.result(sparql, em.intent, blocks, filters, **args)
        times["warm"].append(time.perf_counter() - t0)
    engine.close()
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--questions", type=Path, required=True)
    ap.add_argument("--files", action="store_true", help="query the index's files, not a copy in memory")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args(argv)
    t = measure(args.index, args.questions, files=args.files, reps=args.reps)
    n = len(t["store"])
    print(f"{n} questions read from the tables ({'files' if args.files else 'memory'}); ms per question\n")
    print("| | total ms | p50 | p90 | store / this (total) |")
    print("|---|---:|---:|---:|---:|")
    for key, label in (("store", "store (the query as written)"), ("cold", "tables, cold"), ("warm", "tables, warm")):
        xs = [x * 1000 for x in t[key]]
        ratio = sum(t["store"]) / sum(t[key]) if sum(t[key]) else float("inf")
        print(f"| {label} | {sum(xs):.0f} | {_pct(xs, 0.5):.1f} | {_pct(xs, 0.9):.1f} | {ratio:.1f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
