"""Index-time entity extraction through the batch LLM stage (``models.llm_batch``).

The document stages run in two halves around it: read, chunk and the heuristic extractor first;
then every new chunk of the run goes through :func:`~dualgraph.llm_batch.steps.extract_entities`
as one Ray Data pass (engine actors start once, not once per worker batch); then conversion and
shards. Each chunk's mentions join its document's heuristic ones; a chunk that got none because
its request or answer failed is quarantined with its document and chunk id, never dropped.
"""

from __future__ import annotations

import json
import time
from typing import Any

from dualgraph.config import IndexConfig
from dualgraph.pipeline.stage import Row

STAGE = "tkg.extract"


def needs_batch_llm(config: IndexConfig) -> bool:
    return config.tkg.enabled and config.tkg.extractor in ("llm", "both") and config.models.llm_batch is not None


def extract_with_batch_llm(rows: list[Row], config: IndexConfig) -> list[Row]:
    """``rows`` after the extract stage, with the batch stage's mentions and problems added."""
    assert config.models.llm_batch is not None
    chunks = [
        {**c, "products": list(c.get("products") or ())}
        for r in rows
        if not r.get("known_hash")
        for c in r.get("chunks") or ()
    ]
    if not chunks:
        return rows
    import ray.data

    from dualgraph.llm_batch.steps import CHUNK_COLUMNS, extract_entities
    from dualgraph.pipeline.ray_logging import init_ray, ray_data_quiet

    init_ray(config.ray_address)
    t0 = time.perf_counter()
    with ray_data_quiet(progress=config.progress):
        found = extract_entities(
            ray.data.from_items([{k: c[k] for k in CHUNK_COLUMNS} for c in chunks]), config.models.llm_batch
        ).take_all()
    seconds = time.perf_counter() - t0
    by_doc: dict[str, list[dict[str, Any]]] = {}
    for f in found:
        by_doc.setdefault(str(f["doc_id"]), []).append(f)
    usage = {
        "calls": len(found),
        "items": len(found),
        "prompt_tokens": sum(int(f["prompt_tokens"]) for f in found),
        "completion_tokens": sum(int(f["completion_tokens"]) for f in found),
        "seconds": round(seconds, 3),
    }
    out, reported = [], False
    for r in rows:
        mine = by_doc.get(str(r.get("doc_id")), [])
        if not mine:
            out.append(r)
            continue
        mentions = list(r.get("mentions") or ())
        problems = list(r.get("problems") or ())
        for f in sorted(mine, key=lambda f: str(f["chunk_id"])):
            mentions += json.loads(f["mentions_json"])
            if f["problem"]:
                problems.append(
                    {"file": r["source"], "record": f["chunk_id"], "stage": "extract", "reason": f["problem"]}
                )
        extra: dict[str, Any] = {}
        if not reported:  # the run's usage rides on one row, as the extract stage reports its own
            extra["extract_usage"] = [*(r.get("extract_usage") or ()), {"stage": STAGE, "cache_hits": 0, **usage}]
            reported = True
        out.append(
            {
                **r,
                **extra,
                "mentions": mentions,
                "problems": problems,
            }
        )
    return out
