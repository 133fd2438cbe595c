"""Question-answering rates per strategy, next to the store's own query time.

    .venv/bin/python bench/qa.py --index runs/demo/index --questions runs/demo/questions.json
    .venv/bin/python bench/qa.py --index IX --questions Q.json --repeat 5 --ray     # + bulk on Ray Data

Ours: a strategy answering the whole questions file in batches (parsing, grounding, SPARQL,
text retrieval, reconciling, answer text) — questions/s and per-question latency.
Baseline: executing the very SPARQL queries the compiler produced for those questions, with
nothing else (the store's floor for the symbolic path). The ratio ours/baseline says what the
zero-token compiler and the strategy cost on top of running the query itself. With --ray the
default strategy also runs through bulk answering on local Ray Data (actors, JSONL, resume
bookkeeping) next to the same strategy inline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.answer.engine import AskConfig, EngineSpec, QAEngine  # noqa: E402
from dualgraph.answer.strategies import STRATEGIES  # noqa: E402
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer  # noqa: E402
from dualgraph.query.sparql.safety import run_select  # noqa: E402


def _questions(path: Path) -> list[tuple[str, str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [(k, v["question"]) for k, v in data.items()]


def _timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", required=True, type=Path)
    ap.add_argument("--questions", required=True, type=Path)
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs")
    ap.add_argument("--ray", action="store_true", help="also time bulk answering on local Ray Data")
    args = ap.parse_args()

    items = _questions(args.questions)
    n = len(items)
    engine = QAEngine.open(args.index, AskConfig())
    engine.answer_batch(items[: args.batch], strategy="skg+tkg_fb")  # warm caches and models

    compiled = [engine.kit.symbolic.compiler.compile(q).sparql for _, q in items]
    queries = [q for q in compiled if q]
    store = engine.kit.symbolic.compiler.store
    base = _timed(lambda: [run_select(store, q) for q in queries], args.repeat)
    print(
        f"{n} questions, {len(queries)} compiled to SPARQL; baseline (run those queries only): "
        f"{base:.3f} s, {len(queries) / base:.1f} queries/s"
    )
    print(
        f"{'strategy':15s} {'q/s':>8s} {'ms/q p50':>9s} {'ms/q p90':>9s} {'ms/q max':>9s} {'ours/baseline time':>19s}"
    )
    for name in args.strategies.split(","):
        lat: list[float] = []

        def run(lat: list[float] = lat, name: str = name) -> None:
            lat.clear()
            for i in range(0, n, args.batch):
                batch = items[i : i + args.batch]
                lat.extend(r.latency_s for r in engine.answer_batch(batch, strategy=name))

        t = _timed(run, args.repeat)
        p90 = statistics.quantiles(lat, n=10)[-1] if len(lat) > 1 else lat[0]
        print(
            f"{name:15s} {n / t:8.1f} {statistics.median(lat) * 1000:9.1f} {p90 * 1000:9.1f} "
            f"{max(lat) * 1000:9.1f} {t / base:19.2f}"
        )
    engine.close()

    if args.ray:
        spec = EngineSpec(index_dir=args.index.resolve(), config=AskConfig())
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "a.jsonl"
            cfg = BulkAnswerConfig(runner="ray", batch_size=args.batch, resume=False, progress=False)
            bulk_answer(args.questions, out, engine_factory=spec, strategy="skg+tkg_fb", config=cfg)  # start Ray
            report = bulk_answer(args.questions, out, engine_factory=spec, strategy="skg+tkg_fb", config=cfg)
            inline = bulk_answer(
                args.questions,
                out,
                engine_factory=spec,
                strategy="skg+tkg_fb",
                config=cfg.model_copy(update={"runner": "inline"}),
            )
        print(
            f"bulk skg+tkg_fb on Ray Data: {report.questions_per_s:.1f} q/s in {report.elapsed_s:.1f} s "
            f"(engines opened per run); inline: {inline.questions_per_s:.1f} q/s; "
            f"ray/inline rate {report.questions_per_s / inline.questions_per_s:.2f}"
        )


if __name__ == "__main__":
    main()
