"""The package's LLM steps as Ray Data stages over whole datasets.

:func:`extract_entities` is the entity extraction of :class:`~dualgraph.tkg.extract_llm.LLMExtractor`
(the same prompt, JSON schema and answer checks) with the requests streamed through the
processor instead of sent one by one: a chunk row goes in, the same row comes out with its
mentions, or with the reason it has none (engine, HTTP or schema failure) for the caller to
quarantine. Descriptions and SPARQL generation go through :class:`~dualgraph.llm_batch.llm.RayDataLLM`,
whose single pass serves their list-shaped calls.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.llm_batch.processor import DroppedRowsError, run_chat
from dualgraph.llm_batch.rows import chat_result, request_rows
from dualgraph.tkg.extract_llm import ExtractionReport, LLMExtractor
from dualgraph.tkg.model import Chunk

CHUNK_COLUMNS = ("chunk_id", "doc_id", "text", "section", "ordinal", "products")
MENTION_COLUMNS = {
    "mentions_json": "the chunk's mentions, a JSON list of {name, description, chunk_id}",
    "problem": "why the chunk has no mentions (its request or answer failed); empty when it has them",
    "prompt_tokens": "tokens of the prompt",
    "completion_tokens": "tokens generated",
}


def _chunk(row: dict[str, Any]) -> Chunk:
    return Chunk(
        str(row["chunk_id"]),
        str(row["doc_id"]),
        str(row["text"]),
        str(row.get("section") or ""),
        int(row.get("ordinal") or 0),
        tuple(row.get("products") or ()),
    )


def extract_entities(chunks: Any, config: LLMBatchConfig, *, extractor: LLMExtractor | None = None) -> Any:
    """Chunk rows (:data:`CHUNK_COLUMNS`) in, the same rows with :data:`MENTION_COLUMNS` added out,
    materialised, one for one (:class:`~dualgraph.llm_batch.processor.DroppedRowsError` otherwise)."""
    missing = set(CHUNK_COLUMNS) - set(chunks.schema().names)
    if missing:
        raise ValueError(f"a chunk dataset needs the columns {sorted(missing)}")
    # the extractor only builds requests and reads answers here; its model is never called
    reader = extractor or LLMExtractor(_NoModel())
    expected = chunks.count()

    def to_request(row: dict[str, Any]) -> dict[str, Any]:
        chunk = _chunk(row)
        request = request_rows([reader.request(chunk)])[0]
        # row_key must be unique across the dataset for the count check: the chunk's position
        # is not known in a streaming map, so the chunk id (unique by construction) stands in
        return {**{c: row[c] for c in CHUNK_COLUMNS}, **request, "row_key": 0}

    def read(row: dict[str, Any]) -> dict[str, Any]:
        chunk = _chunk(row)
        result = chat_result(row)
        report = ExtractionReport()
        reader.read(chunk, result, report)
        return {
            **{c: row[c] for c in CHUNK_COLUMNS},
            "mentions_json": json.dumps([asdict(m) for m in report.mentions], ensure_ascii=False),
            "problem": report.problems[0].error if report.problems else "",
            "prompt_tokens": int(row["prompt_tokens"]),
            "completion_tokens": int(row["completion_tokens"]),
        }

    out = run_chat(chunks.map(to_request, num_cpus=config.helper_cpus), config).map(read, num_cpus=config.helper_cpus)
    out = out.materialize()
    got = out.count()
    if got != expected:
        raise DroppedRowsError(f"entity extraction returned {got} rows for {expected} chunks")
    return out


class _NoModel:
    name = "ray-data-processor"

    def complete(self, requests):  # pragma: no cover - never called: the processor answers
        raise RuntimeError("the batch stage answers these requests; the extractor's model is not used")
