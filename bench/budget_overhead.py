"""What the budget costs on the normal path: each question and SPARQL query run in a budgeted worker
process (``AskConfig.budget``, the default) against the same run in the caller's process
(``budget.isolate`` off, the baseline), side by side, per index.

For each ``--index``/``--questions`` pair both front doors are opened (engines opened before any
timing), every question is asked once on each to warm the caches, then ``--rounds`` times on each,
the two alternating question by question (which goes first swaps every round) so that a busy
machine weighs on both alike. Printed per index: seconds per question (median, p90, mean) for
``ask`` and the part of it spent outside the engine's own answering (its record's ``latency_s``:
the hop to the worker and back, the least noisy measure of the cost), seconds per batch for ``ask_many`` (one batch of every question), milliseconds per small
SPARQL query, each as baseline | budgeted | ratio, and whether the answers agree.

    .venv/bin/python bench/budget_overhead.py \\
        --index runs/demo/index --questions runs/demo/questions.json \\
        --index runs/own_sets/cameras/index --questions bench/own_sets/cameras/questions.json [--rounds 5] [--n 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

SMALL_QUERY = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } LIMIT 5"


def questions_of(path: str, n: int) -> list[str]:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    items = raw.values() if isinstance(raw, dict) else raw
    return [v["question"] if isinstance(v, dict) else str(v) for v in items][:n]


def p90(xs: list[float]) -> float:
    s = sorted(xs)
    return s[max(0, round(0.9 * len(s)) - 1)]


def row(name: str, base: float, ours: float, unit: str) -> str:
    ratio = ours / base if base > 0 else float("nan")
    return f"| {name} | {base:.4f} {unit} | {ours:.4f} {unit} | {ratio:.2f} |"


def bench(index: str, questions: list[str], rounds: int) -> list[str]:
    from dualgraph import DualGraph
    from dualgraph.answer.engine import AskConfig
    from dualgraph.budget import WorkBudget

    base = DualGraph.open(index, config=AskConfig(budget=WorkBudget(isolate=False)))
    ours = DualGraph.open(index)
    t0 = time.perf_counter()
    base.open_engine()
    open_base = time.perf_counter() - t0
    t0 = time.perf_counter()
    ours.open_engine()
    open_ours = time.perf_counter() - t0
    try:
        agree = 0
        for q in questions:  # warm-up, and the answers compared
            a, b = base.ask(q), ours.ask(q)
            agree += (a.answer_list, a.value, a.error) == (b.answer_list, b.value, b.error)
        times: dict[str, list[float]] = {"base": [], "ours": []}
        outside: dict[str, list[float]] = {"base": [], "ours": []}  # wall time less the engine's own
        for r in range(rounds):
            for q in questions:
                order = [("base", base), ("ours", ours)]
                for name, graph in order if r % 2 == 0 else order[::-1]:
                    t0 = time.perf_counter()
                    record = graph.ask(q)
                    took = time.perf_counter() - t0
                    times[name].append(took)
                    outside[name].append(took - record.latency_s)
        batch: dict[str, list[float]] = {"base": [], "ours": []}
        for r in range(rounds):
            order = [("base", base), ("ours", ours)]
            for name, graph in order if r % 2 == 0 else order[::-1]:
                t0 = time.perf_counter()
                graph.ask_many(questions, batch_size=len(questions))
                batch[name].append(time.perf_counter() - t0)
        query: dict[str, list[float]] = {"base": [], "ours": []}
        for graph in (base, ours):
            graph.sparql(SMALL_QUERY)  # opens the store (in this process, or its worker)
        for r in range(rounds * 10):
            order = [("base", base), ("ours", ours)]
            for name, graph in order if r % 2 == 0 else order[::-1]:
                t0 = time.perf_counter()
                graph.sparql(SMALL_QUERY)
                query[name].append((time.perf_counter() - t0) * 1000)
    finally:
        base.close()
        ours.close()
    b, o = times["base"], times["ours"]
    return [
        f"### {index}: {len(questions)} questions x {rounds} rounds",
        "",
        "| | baseline (in-process) | budgeted (worker) | ratio |",
        "|---|---|---|---|",
        row("engine open", open_base, open_ours, "s"),
        row("ask: median per question", statistics.median(b), statistics.median(o), "s"),
        row("ask: p90 per question", p90(b), p90(o), "s"),
        row("ask: mean per question", statistics.fmean(b), statistics.fmean(o), "s"),
        row(
            "ask: median time outside the engine's answer (process hop, records)",
            statistics.median(outside["base"]),
            statistics.median(outside["ours"]),
            "s",
        ),
        row(
            f"ask_many: median per batch of {len(questions)}",
            statistics.median(batch["base"]),
            statistics.median(batch["ours"]),
            "s",
        ),
        row("sparql: median per small query", statistics.median(query["base"]), statistics.median(query["ours"]), "ms"),
        "",
        f"answers agree on {agree} of {len(questions)} questions",
        "",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", action="append", required=True, help="an index folder (repeat for several)")
    ap.add_argument("--questions", action="append", required=True, help="its questions file (one per --index)")
    ap.add_argument("--rounds", type=int, default=5, help="times each question is asked on each side")
    ap.add_argument("--n", type=int, default=30, help="questions taken from each file")
    args = ap.parse_args()
    if len(args.index) != len(args.questions):
        ap.error("give one --questions per --index")
    for index, path in zip(args.index, args.questions, strict=True):
        print("\n".join(bench(index, questions_of(path, args.n), args.rounds)), flush=True)


if __name__ == "__main__":
    main()
