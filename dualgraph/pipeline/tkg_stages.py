"""Index stages of the Textual KG: chunk each document, extract entity mentions, write shards.

They run in the same Ray Data pipeline as the SKG stages, on the documents that changed.
The merge, the embeddings and the text facts need every document at once and run in the
driver afterwards (:mod:`dualgraph.pipeline.tkg_build`).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from dualgraph.config import TkgConfig
from dualgraph.models.base import TokenMeter
from dualgraph.models.factory import ModelsConfig
from dualgraph.pipeline.stage import Row, Stage
from dualgraph.tkg.chunking import chunk_document
from dualgraph.tkg.model import Chunk

if TYPE_CHECKING:  # the extractors load models: imported only where configured
    from dualgraph.tkg.extract_heuristic import HeuristicExtractor
    from dualgraph.tkg.extract_llm import LLMExtractor

HEURISTIC_VERSION = "heuristic-1"


def extraction_signature(tkg: TkgConfig, models: ModelsConfig) -> str:
    """What decides a document's chunks and mentions; part of its content hash, so changing it re-extracts."""
    parts = [f"chunks={tkg.chunk_tokens}/{tkg.overlap_tokens}", f"extractor={tkg.extractor}"]
    if tkg.extractor in ("heuristic", "both"):
        parts.append(HEURISTIC_VERSION)
    model = models.llm_batch.model if models.llm_batch is not None else models.llm.model if models.llm else None
    if tkg.extractor in ("llm", "both") and model is not None:
        from dualgraph.tkg.extract_llm import DEFAULT_PROMPT

        parts.append(f"llm={model}/{DEFAULT_PROMPT.stem}")
    return ";".join(parts)


def chunk_stage(tkg: TkgConfig) -> Stage:
    def fn(rows: list[Row]) -> list[Row]:
        out = []
        for row in rows:
            if row["status"] != "ok" or not row["text"].strip():
                out.append({"chunks": [], "problems": row["problems"]})
                continue
            products = tuple(p["name"] for p in row["products"])
            try:
                chunks = chunk_document(
                    row["doc_id"],
                    row["text"],
                    products=products,
                    max_tokens=tkg.chunk_tokens,
                    overlap_tokens=tkg.overlap_tokens,
                )
            except Exception as e:  # the page text is left out; its specs still load
                out.append({"chunks": [], "problems": [*row["problems"], _problem(row, "chunk", e)]})
                continue
            out.append({"chunks": [asdict(c) for c in chunks], "problems": row["problems"]})
        return out

    return Stage(
        "chunk",
        needs=("doc_id", "source", "status", "text", "products", "problems"),
        adds=("chunks", "problems"),
        fn=fn,
        drops=("text",),
    )


def _problem(row: Row, stage: str, error: BaseException) -> dict[str, str]:
    return {"file": row["source"], "record": "text", "stage": stage, "reason": f"{type(error).__name__}: {error}"}


class _Extractors:
    """Built once per worker process (models are expensive to load), not once per batch."""

    def __init__(self, tkg: TkgConfig, models: ModelsConfig) -> None:
        self.meter = TokenMeter()
        # run in this order: the heuristic one, then the LLM
        self.heuristic: HeuristicExtractor | None = None
        self.llm: LLMExtractor | None = None
        if tkg.extractor in ("heuristic", "both"):
            from dualgraph.tkg.extract_heuristic import HeuristicExtractor

            self.heuristic = HeuristicExtractor()
        # with models.llm_batch the LLM part runs after this stage, as its own Ray Data pass
        if tkg.extractor in ("llm", "both") and models.llm_batch is None:
            if models.llm is None:
                raise ValueError(
                    "tkg.extractor needs an LLM: configure models.llm (base_url, model) or models.llm_batch"
                )
            from dualgraph.models.factory import build_models
            from dualgraph.tkg.extract_llm import LLMExtractor

            _, llm = build_models(models, meter=self.meter)
            assert llm is not None  # models.llm is set
            self.llm = LLMExtractor(llm)


_WORKER_EXTRACTORS: dict[str, _Extractors] = {}


def extract_stage(tkg: TkgConfig, models: ModelsConfig) -> Stage:
    key = tkg.model_dump_json() + models.model_dump_json()

    def fn(rows: list[Row]) -> list[Row]:
        ex = _WORKER_EXTRACTORS.get(key) or _WORKER_EXTRACTORS.setdefault(key, _Extractors(tkg, models))
        before = ex.meter.to_dict()
        per_row = [[Chunk(**{**c, "products": tuple(c["products"])}) for c in r["chunks"]] for r in rows]
        flat = [c for cs in per_row for c in cs]
        mentions, problems = [], []
        broken: dict[str, BaseException] = {}
        if ex.heuristic is not None:
            try:
                found = ex.heuristic.extract(flat)
            except Exception:  # find the document that breaks it; the others keep their mentions
                found = []
                for r, cs in zip(rows, per_row):
                    try:
                        found.extend(ex.heuristic.extract(cs))
                    except Exception as e:
                        broken[r["doc_id"]] = e
            mentions.extend(found)
        if ex.llm is not None:
            report = ex.llm.extract(flat)
            mentions.extend(report.mentions)
            problems.extend(report.problems)
        doc_of = {c.chunk_id: c.doc_id for c in flat}
        by_doc: dict[str, list] = {}
        for m in mentions:
            by_doc.setdefault(doc_of[m.chunk_id], []).append(asdict(m))
        bad: dict[str, list] = {}
        for p in problems:
            bad.setdefault(doc_of.get(p.chunk_id, ""), []).append(asdict(p))
        usage = usage_delta(before, ex.meter.to_dict())
        out = []
        for i, r in enumerate(rows):
            # A chunk the LLM could not answer for is reported with its document, never dropped silently.
            failed = [
                {"file": r["source"], "record": p["chunk_id"], "stage": "extract", "reason": p["error"]}
                for p in bad.get(r["doc_id"], [])
            ]
            if r["doc_id"] in broken:
                failed.append(_problem(r, "extract", broken[r["doc_id"]]))
            out.append(
                {
                    "mentions": by_doc.get(r["doc_id"], []),
                    "problems": [*r["problems"], *failed],
                    # the batch's usage rides on its first row
                    "extract_usage": [{"stage": k, **v} for k, v in usage.items()] if i == 0 else [],
                }
            )
        return out

    return Stage(
        "extract",
        needs=("doc_id", "source", "chunks", "problems"),
        adds=("mentions", "problems", "extract_usage"),
        fn=fn,
    )


def usage_delta(before: dict, after: dict) -> dict:
    """What a meter recorded between two ``to_dict`` snapshots."""
    out = {}
    for stage, fields in after.items():
        prev = before.get(stage, {})
        delta = {
            k: round(v - prev.get(k, 0), 3) if isinstance(v, float) else v - prev.get(k, 0) for k, v in fields.items()
        }
        if any(delta.values()):
            out[stage] = delta
    return out


def tkg_shard_stage(shard_dir: str) -> Stage:
    """Writes the batch's chunks and mentions to one Parquet file pair, named by documents and hashes."""

    def fn(rows: list[Row]) -> list[Row]:
        import pyarrow as pa
        import pyarrow.parquet as pq

        todo = [r for r in rows if r["chunks"]]
        if not todo:
            return [{"tkg_shard": ""} for _ in rows]
        key = hashlib.sha1("".join(r["doc_id"] + r["content_hash"] for r in todo).encode()).hexdigest()[:20]
        chunks, mentions = [], []
        for r in todo:
            for c in r["chunks"]:
                chunks.append({**c, "content_hash": r["content_hash"]})
            for m in r["mentions"]:
                mentions.append({**m, "doc_id": r["doc_id"], "content_hash": r["content_hash"]})
        for kind, items, cols in (
            ("chunks", chunks, ("chunk_id", "doc_id", "text", "section", "ordinal", "products", "content_hash")),
            ("mentions", mentions, ("name", "description", "chunk_id", "doc_id", "content_hash")),
        ):
            target = Path(shard_dir) / f"{kind}-{key}.parquet"
            if target.exists():
                continue
            table = (
                pa.table({c: [it[c] for it in items] for c in cols})
                if items
                else pa.table(
                    {
                        c: pa.array(
                            [],
                            pa.list_(pa.string()) if c == "products" else pa.int32() if c == "ordinal" else pa.string(),
                        )
                        for c in cols
                    }
                )
            )
            tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
            pq.write_table(table, tmp)
            os.replace(tmp, target)
        return [{"tkg_shard": key if r["chunks"] else ""} for r in rows]

    return Stage(
        "tkg_shard",
        needs=("doc_id", "content_hash", "chunks", "mentions"),
        adds=("tkg_shard",),
        fn=fn,
        drops=("chunks", "mentions"),
    )
