"""Textual KG build and retrieval rates, each next to the baseline it replaces.

    .venv/bin/python bench/tkg_build.py --icecat ../shared/data/icecat-sample            # + a generated corpus x10
    .venv/bin/python bench/tkg_build.py --icecat ../shared/data/icecat-sample --llm-url http://127.0.0.1:8080

Prints, per corpus: chunking and heuristic extraction rates (chunks/s, mentions/s);
merging (entities/s); MiniLM embedding of entity texts vs of whole chunks (texts/s,
the ratio is why entities, not chunks, are embedded); retrieval latency per question
of entity-vote (dense and hybrid) vs the naive vector baseline and BM25 over chunks;
and, with --llm-url, the LLM extractor on a sample of chunks (chunks/s, tokens/chunk)
next to the heuristic one on the same chunks.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.models.base import TokenMeter  # noqa: E402
from dualgraph.shared_data import shared_data_dir  # noqa: E402
from dualgraph.stores.faiss_index import FaissIndex  # noqa: E402
from dualgraph.tkg.chunking import chunk_document  # noqa: E402
from dualgraph.tkg.extract_heuristic import HeuristicExtractor  # noqa: E402
from dualgraph.tkg.merge import merge_mentions  # noqa: E402
from dualgraph.tkg.retrieval import (  # noqa: E402
    BM25Retriever,
    EntityVoteRetriever,
    NaiveVectorRetriever,
    entity_lexical_index,
    entity_text,
)

QUESTIONS = [
    "phone with a stylus pen",
    "TV with a good picture processor",
    "laptop for business travel",
    "rugged phone for outdoor work",
    "tablet for kids",
    "mount for a large TV",
    "phone with a big battery",
    "which products come in plastic-free packaging",
    "phone case that protects the camera",
    "long warranty",
]


def icecat_texts(folder: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    docs = []
    for f in sorted(folder.glob("*.ndjson")):
        for line in f.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            docs.append((f"doc-{rec['id']}", rec.get("description") or "", (rec["title"],)))
    return docs


def scaled(docs, factor: int, seed: int = 3):
    """A larger corpus: each document repeated with its sentences shuffled and products renamed."""
    rng = random.Random(seed)
    out = []
    for k in range(factor):
        for doc_id, text, products in docs:
            paras = text.split("\n\n")
            rng.shuffle(paras)
            out.append((f"{doc_id}-g{k}", "\n\n".join(paras), tuple(f"{p} G{k}" for p in products)))
    return out


def rate(n: int, seconds: float) -> str:
    return f"{n / seconds:,.0f}/s" if seconds > 0 else "inf"


def measure(label: str, docs, embedder, llm=None) -> None:
    print(f"{label}: {len(docs)} documents")
    t0 = time.perf_counter()
    chunks = [c for doc_id, text, products in docs for c in chunk_document(doc_id, text, products=products)]
    t_chunk = time.perf_counter() - t0
    t0 = time.perf_counter()
    mentions = HeuristicExtractor().extract(chunks)
    t_ext = time.perf_counter() - t0
    t0 = time.perf_counter()
    entities = merge_mentions(mentions)
    t_merge = time.perf_counter() - t0
    print(f"  chunking      {len(chunks):>7,} chunks    {rate(len(chunks), t_chunk)}")
    print(
        f"  heuristic     {len(mentions):>7,} mentions  {rate(len(chunks), t_ext)} chunks, {rate(len(mentions), t_ext)} mentions"
    )
    print(f"  merge         {len(entities):>7,} entities  {rate(len(mentions), t_merge)} mentions")

    by_id = {e.entity_id: e for e in entities}
    chunk_map = {c.chunk_id: c for c in chunks}
    sample = entities[: min(len(entities), 2000)]
    t0 = time.perf_counter()
    vecs = embedder.embed([entity_text(e) for e in sample], stage="bench")
    t_ent = time.perf_counter() - t0
    csample = chunks[: min(len(chunks), 200)]
    t0 = time.perf_counter()
    embedder.embed([c.text for c in csample], stage="bench")
    t_chk = time.perf_counter() - t0
    ent_rate, chk_rate = len(sample) / t_ent, len(csample) / t_chk
    print(
        f"  embed entity texts {ent_rate:,.0f}/s vs whole chunks {chk_rate:,.0f}/s  (ratio {ent_rate / chk_rate:.1f}x)"
    )

    entity_index = FaissIndex(embedder.dim)
    t0 = time.perf_counter()
    entity_index.add([e.entity_id for e in sample], vecs)
    rest = entities[len(sample) :]
    if rest:
        entity_index.add([e.entity_id for e in rest], embedder.embed([entity_text(e) for e in rest], stage="bench"))
    chunk_index = FaissIndex(embedder.dim)
    chunk_index.add([c.chunk_id for c in chunks], embedder.embed([c.text for c in chunks], stage="bench"))
    print(f"  index build (all entities + chunks) {time.perf_counter() - t0:.1f} s")
    # 100 distinct questions (the embedder deduplicates identical ones within a batch)
    questions = [
        f"{q} {w}"
        for q in QUESTIONS
        for w in ("", "please", "for me", "cheap", "new", "best", "for work", "for travel", "in black", "today")
    ]
    retrievers = {
        "entity-vote dense": EntityVoteRetriever(embedder, entity_index, by_id, None, chunk_map),
        "entity-vote hybrid": EntityVoteRetriever(
            embedder, entity_index, by_id, None, chunk_map, lexical=entity_lexical_index(by_id)
        ),
        "naive vector (baseline)": NaiveVectorRetriever(embedder, chunk_index, chunk_map),
        "BM25 chunks (baseline)": BM25Retriever.from_chunks(chunk_map),
    }
    for name, r in retrievers.items():
        t0 = time.perf_counter()
        r.retrieve(questions)
        ms = (time.perf_counter() - t0) * 1000 / len(questions)
        print(f"  retrieve {name:<24} {ms:6.2f} ms/question (batch of {len(questions)})")

    if llm is not None:
        from dualgraph.tkg.extract_llm import LLMExtractor

        few = chunks[:8]
        meter = llm.meter if hasattr(llm, "meter") else None
        t0 = time.perf_counter()
        report = LLMExtractor(llm).extract(few)
        t_llm = time.perf_counter() - t0
        t0 = time.perf_counter()
        HeuristicExtractor().extract(few)
        t_h = max(time.perf_counter() - t0, 1e-6)
        usage = meter.to_dict().get("tkg.extract", {}) if meter else {}
        print(
            f"  LLM extractor on {len(few)} chunks: {len(few) / t_llm:.2f} chunks/s, {len(report.mentions)} mentions, "
            f"{len(report.problems)} failed chunks, {usage.get('prompt_tokens', 0) / len(few):.0f} prompt + "
            f"{usage.get('completion_tokens', 0) / len(few):.0f} completion tokens/chunk; heuristic is "
            f"{(t_llm / len(few)) / (t_h / len(few)):,.0f}x faster on the same chunks"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--icecat", default=str(shared_data_dir() / "icecat-sample"))
    ap.add_argument("--scale", type=int, default=10, help="generated corpus this many times the Icecat sample")
    ap.add_argument("--llm-url", help="an OpenAI-compatible server to measure the LLM extractor against")
    ap.add_argument("--llm-model", default="SmolLM2-135M-Instruct")
    args = ap.parse_args()
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    llm = None
    if args.llm_url:
        from dualgraph.models.openai_chat import OpenAIChatLLM

        llm = OpenAIChatLLM(args.llm_url, args.llm_model, meter=TokenMeter(), max_retries=1, timeout_s=300)
    docs = icecat_texts(Path(args.icecat))
    measure("Icecat sample", docs, embedder, llm)
    if args.scale > 1:
        measure(f"generated x{args.scale}", scaled(docs, args.scale), embedder)


if __name__ == "__main__":
    main()
