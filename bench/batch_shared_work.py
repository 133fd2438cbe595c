"""What one engine call shares across a batch: wall time, embedding calls and texts, for the same
questions answered one at a time and as one batch, with the batch prefetch of grounding phrases
on (the default) and off (the baseline).

Questions are the sample's, each given a word never seen before and one of the index's section
names ("with zq4k7 display"), so their phrases miss every embedding cache, as a live service's new
wording does; each arm gets its own words.

    .venv/bin/python bench/batch_shared_work.py --index runs/demo/index \\
        --questions runs/demo/questions.json [--batch 16] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from serve_load import catalog_nouns, vary_question  # bench/ is the script's folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", required=True)
    ap.add_argument("--questions", required=True)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    from dualgraph.answer import engine as E
    from dualgraph.answer.engine import AskConfig, EngineSpec

    raw = json.loads(Path(args.questions).read_text(encoding="utf-8"))
    sample = [v["question"] for v in (raw.values() if isinstance(raw, dict) else raw)]
    engine = EngineSpec(index_dir=Path(args.index).resolve(), config=AskConfig(in_memory_quads=3_000_000))()
    engine.prepare()
    calls = {"embed": 0, "texts": 0}
    memo = engine.kit.symbolic.compiler.patterns.embedder
    assert isinstance(memo, E._MemoEmbedder), type(memo)

    class Counted:
        """The memo's own embedder, counted: the calls that miss the engine's memory."""

        def __init__(self, inner):
            self.inner = inner

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def embed(self, texts, stage="default"):
            calls["embed"] += 1
            calls["texts"] += len(texts)
            return self.inner.embed(texts, stage=stage)

    memo.inner = Counted(memo.inner)
    rng = random.Random(time.time_ns())
    nouns = catalog_nouns(args.index)

    def fresh_batch() -> list[tuple[str, str]]:
        out = []
        for i in range(args.batch):
            out.append((str(i), vary_question(sample[i % len(sample)], rng, nouns)))
        return out

    engine.answer_batch(fresh_batch())  # warm: the catalog's own embeddings, FAISS, the store
    symbolic = engine.kit.symbolic
    prefetch = symbolic.prefetch
    arms = {
        "one at a time": lambda b: [engine.answer_batch([x]) for x in b],
        "one batch, no prefetch (baseline)": None,
        "one batch, prefetch": lambda b: engine.answer_batch(b),
    }
    rows = {}
    for name, run in arms.items():
        seconds, embeds, texts = [], [], []
        for _ in range(args.repeats):
            batch = fresh_batch()
            calls["embed"] = calls["texts"] = 0
            if run is None:
                symbolic.prefetch = lambda qs: 0
                t = time.perf_counter()
                engine.answer_batch(batch)
                seconds.append(time.perf_counter() - t)
                symbolic.prefetch = prefetch
            else:
                t = time.perf_counter()
                run(batch)
                seconds.append(time.perf_counter() - t)
            embeds.append(calls["embed"])
            texts.append(calls["texts"])
        rows[name] = (sorted(seconds)[len(seconds) // 2], sorted(embeds)[len(embeds) // 2], max(texts))
    base = rows["one batch, no prefetch (baseline)"][0]
    print(f"{args.batch} questions per arm, median of {args.repeats}; index {args.index}")
    print("| arm | ms per question | embedding calls (memory misses) | texts embedded | time vs baseline |")
    print("|---|---|---|---|---|")
    for name, (s, e, t) in rows.items():
        print(f"| {name} | {1000 * s / args.batch:.1f} | {e} | {t} | {s / base:.2f} |")


if __name__ == "__main__":
    main()
