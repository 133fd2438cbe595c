"""Seconds to answer one question as it grows: reading must stay linear in the question's length.

    .venv/bin/python bench/question_length.py --index runs/own_sets/devmix3/index
    .venv/bin/python bench/question_length.py --index … --save now.json
    .venv/bin/python bench/question_length.py --index … --baseline before.json   # side by side

The question is a realistic one (catalog words: a brand, a category, a price bound, a feature,
units) repeated and cut to 0.5, 1, 2, 4 and 8 kB; a second, text-routed one goes to the Textual
KG. The length cap (``AskConfig.max_question_chars``) is lifted for the measurement. Each length
is answered ``--rounds`` times after a warm-up question and the best time is kept. A length whose
time passes ``--limit-s`` ends the series for that question (a super-linear reader would run for
hours). Columns: seconds, seconds per kB (flat when linear), and, with ``--baseline`` (a file
written by ``--save``), the baseline's seconds and baseline / now.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

QUESTIONS = {
    "specs": "Which Samsung phones under 20000 with 5G and 8 GB RAM have a 6.5 inch display and 5000 mAh battery? ",
    "text": "Which phones are praised for a bright display and long battery life in reviews? ",
}
LENGTHS_KB = (0.5, 1.0, 2.0, 4.0, 8.0)


def measure(index: Path, lengths: tuple[float, ...], rounds: int, limit_s: float) -> dict[str, dict[str, float]]:
    from dualgraph.answer.engine import AskConfig, QAEngine

    # an older tree (a baseline run) has no cap to lift
    lift = {"max_question_chars": None} if "max_question_chars" in AskConfig.model_fields else {}
    out: dict[str, dict[str, float]] = {}
    with QAEngine.open(index, AskConfig(**lift)) as engine:
        for name, base in QUESTIONS.items():
            engine.answer(base)  # warm-up: caches, the embedder's first call
            out[name] = {}
            for kb in lengths:
                question = (base * (int(kb * 1024) // len(base) + 1))[: int(kb * 1024)]
                best = float("inf")
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    engine.answer(question)
                    best = min(best, time.perf_counter() - t0)
                out[name][str(kb)] = round(best, 3)
                print(f"  {name} {kb} kB: {best:.2f} s", file=sys.stderr, flush=True)
                if best > limit_s:
                    break
    return out


def table(now: dict[str, dict[str, float]], baseline: dict[str, dict[str, float]] | None) -> str:
    head = f"{'question':8} {'kB':>5} {'s':>8} {'s/kB':>7}"
    if baseline is not None:
        head += f" {'base s':>9} {'base/now':>9}"
    lines = [head, "-" * len(head)]
    for name, series in now.items():
        for kb, secs in series.items():
            row = f"{name:8} {kb:>5} {secs:8.2f} {secs / float(kb):7.2f}"
            if baseline is not None:
                base = baseline.get(name, {}).get(kb)
                row += f" {base:9.2f} {base / secs:9.1f}" if base is not None else f" {'>limit':>9} {'-':>9}"
            lines.append(row)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--index", type=Path, default=Path("runs/own_sets/devmix3/index"), help="an index directory")
    p.add_argument("--lengths", default=",".join(map(str, LENGTHS_KB)), help="question lengths in kB")
    p.add_argument("--rounds", type=int, default=1, help="answers per length (the best is kept)")
    p.add_argument("--limit-s", type=float, default=120.0, help="stop a series after a length this slow")
    p.add_argument("--baseline", type=Path, help="timings saved by an earlier run, shown side by side")
    p.add_argument("--save", type=Path, help="write the timings here (JSON)")
    args = p.parse_args(argv)
    lengths = tuple(float(x) for x in args.lengths.split(","))
    now = measure(args.index, lengths, args.rounds, args.limit_s)
    if args.save:
        args.save.write_text(json.dumps(now, indent=1), encoding="utf-8")
    baseline = json.loads(args.baseline.read_text(encoding="utf-8")) if args.baseline else None
    print(table(now, baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main())
