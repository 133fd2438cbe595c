"""The batch LLM stage's HTTP backend: ray.data.llm's HTTP processor against llama.cpp on loopback.

The same chunk rows the vLLM tier extracts from (tests/vllm_tier) go through a real OpenAI-compatible
server here: every row comes back, the server's token counts are kept, schema-constrained
answers are parsed and checked, and a request the server refuses is kept with its reason.
Structure only: SmolLM2-135M's answers are never judged.
"""

from __future__ import annotations

import json

import pytest

from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.llm_batch.llm import RayDataLLM
from dualgraph.llm_batch.steps import extract_entities
from dualgraph.models.base import ChatRequest, TokenMeter

pytestmark = [pytest.mark.network, pytest.mark.ray]


def _chunks(n: int) -> list[dict]:
    return [
        {
            "chunk_id": f"c{i}",
            "doc_id": f"d{i // 2}",
            "text": f"The Nova {i} has stereo speakers and a {4000 + 100 * i} mAh battery, but no headphone jack.",
            "section": "Overview",
            "ordinal": i % 2,
            "products": [f"http://example.org/p{i}"],
        }
        for i in range(n)
    ]


def test_chunks_through_the_http_processor_come_back_with_mentions_or_reasons(llamacpp) -> None:
    import ray.data
    from llamacpp import MODEL_NAME

    config = LLMBatchConfig(backend="http", model=MODEL_NAME, url=llamacpp.base_url, batch_size=2, max_retries=1)
    # beyond the server's 2,048-token context: the server refuses this one request, not the stage
    rows = [*_chunks(3), {**_chunks(1)[0], "chunk_id": "too-long", "text": "battery life " * 3000}]
    out = extract_entities(ray.data.from_items(rows), config).take_all()
    assert sorted(r["chunk_id"] for r in out) == sorted(r["chunk_id"] for r in rows)
    answered = [r for r in out if r["chunk_id"] != "too-long"]
    assert all(r["prompt_tokens"] > 20 and r["completion_tokens"] > 0 for r in answered)
    good = [r for r in answered if not r["problem"]]
    assert good, [r["problem"] for r in answered]
    for r in good:
        assert all(m["chunk_id"] == r["chunk_id"] for m in json.loads(r["mentions_json"]))
    (bad,) = [r for r in out if r["chunk_id"] == "too-long"]
    assert bad["problem"] and json.loads(bad["mentions_json"]) == []


def test_the_llm_protocol_over_http_meters_tokens_and_keeps_order(llamacpp) -> None:
    from llamacpp import MODEL_NAME

    meter = TokenMeter()
    config = LLMBatchConfig(backend="http", model=MODEL_NAME, url=llamacpp.base_url, batch_size=3)
    llm = RayDataLLM(config, meter=meter, repair_rounds=1)
    schema = {
        "type": "object",
        "properties": {"colour": {"type": "string", "maxLength": 20}},
        "required": ["colour"],
    }
    asks = [f"Reply with JSON naming the colour of item {i}." for i in range(5)]
    requests = [
        ChatRequest(({"role": "user", "content": a},), schema=schema, max_tokens=48, stage="probe") for a in asks
    ]
    results = llm.complete(requests)
    assert len(results) == 5
    assert all(r.error is None and isinstance(r.parsed, dict) and "colour" in r.parsed for r in results), [
        r.error for r in results
    ]
    usage = meter.to_dict()["probe"]
    assert usage["items"] == 5 and usage["calls"] >= 5
    assert usage["prompt_tokens"] == sum(r.prompt_tokens for r in results) > 0
