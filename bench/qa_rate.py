"""Bulk answering speed of one index, as a child process of ``bench/scale_index.py`` runs it.

    .venv/bin/python bench/qa_rate.py --index IX --questions Q.json [--batch 8] [--store files]

Opens an engine as ``dualgraph ask --questions`` does (default strategy, an index of up to
``IN_MEMORY_QUADS`` quads copied into memory, ``prepare()``; ``--store files`` queries the index's
files instead, as ``dualgraph ask`` of one question and the figures before stop 50 did), answers one
warm-up question, then every question of the file in batches of ``--batch``. Prints one JSON line: engine open seconds, questions per second over the
batches' wall time, and the per-question latency (each record's ``latency_s``) p50, p90 and max
in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.answer.engine import IN_MEMORY_QUADS, AskConfig, EngineSpec  # noqa: E402


def rate(index: Path, questions: Path, batch: int = 8, store: str = "memory") -> dict[str, float | str]:
    items = [(k, v["question"]) for k, v in json.loads(questions.read_text(encoding="utf-8")).items()]
    t0 = time.perf_counter()
    config = AskConfig(in_memory_quads=0 if store == "files" else IN_MEMORY_QUADS)
    engine = EngineSpec(index_dir=index, config=config)()  # opened and prepared, as bulk answering does
    engine.answer("Which products are listed?", qid="warmup")
    opened = time.perf_counter() - t0
    latencies: list[float] = []
    t1 = time.perf_counter()
    for start in range(0, len(items), batch):
        latencies += [float(r.latency_s or 0.0) for r in engine.answer_batch(items[start : start + batch])]
    wall = time.perf_counter() - t1
    cuts = statistics.quantiles(latencies, n=10) if len(latencies) > 1 else latencies * 9
    return {
        "store": store,
        "open_s": round(opened, 2),
        "questions": len(items),
        "qps": round(len(items) / wall, 2),
        "p50_ms": round(statistics.median(latencies) * 1000, 1),
        "p90_ms": round(cuts[8] * 1000, 1),
        "max_ms": round(max(latencies) * 1000, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path, required=True)
    ap.add_argument("--questions", type=Path, required=True)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--store", choices=["memory", "files"], default="memory")
    args = ap.parse_args(argv)
    print(json.dumps(rate(args.index, args.questions, args.batch, args.store)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
