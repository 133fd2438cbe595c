"""OpenAIChatLLM and CachedLLM against the REAL SmolLM2-135M-Instruct on llama.cpp's server.

Structure only, never answer quality (greedy outputs differ between builds): schema-
constrained answers parse and validate, usage is counted and metered per stage, a batch
comes back in order, the cache makes a repeat free, and ``finish_reason == "length"``
is handled as a failure for schema requests.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from llamacpp import MODEL_NAME, LlamaCppServer, gguf_path, missing_runtime

from dualgraph.models.base import ChatRequest, TokenMeter
from dualgraph.models.cache import CachedLLM
from dualgraph.models.openai_chat import OpenAIChatLLM
from dualgraph.models.tokens import count_tokens

pytestmark = [pytest.mark.network, pytest.mark.skipif(missing_runtime() is not None, reason=str(missing_runtime()))]

# Bounded strings and lists keep a constrained answer well inside max_tokens.
FEATURES = {
    "type": "object",
    "properties": {
        "product": {"type": "string", "maxLength": 30},
        "features": {"type": "array", "items": {"type": "string", "maxLength": 20}, "maxItems": 3},
    },
    "required": ["product", "features"],
}


@pytest.fixture(scope="module")
def server(llamacpp: LlamaCppServer) -> LlamaCppServer:
    return llamacpp


@pytest.fixture
def meter() -> TokenMeter:
    return TokenMeter()


@pytest.fixture
def llm(server: LlamaCppServer, meter: TokenMeter) -> Iterator[OpenAIChatLLM]:
    client = OpenAIChatLLM(server.base_url, MODEL_NAME, max_concurrency=3, max_retries=2, timeout_s=120, meter=meter)
    yield client
    client.close()


def ask(content: str, **kw) -> ChatRequest:
    return ChatRequest(
        messages=({"role": "system", "content": "You answer with JSON only."}, {"role": "user", "content": content}),
        **kw,
    )


def test_schema_constrained_answer_parses_and_validates(llm: OpenAIChatLLM):
    result = llm.complete([ask("Name a phone and list its features.", schema=FEATURES, max_tokens=200)])[0]
    assert result.error is None, result.error
    assert result.finish_reason == "stop"
    assert isinstance(result.parsed, dict) and set(FEATURES["required"]) <= set(result.parsed)
    assert len(result.parsed["features"]) <= 3
    # llama.cpp rejects OpenAI's json_schema form; auto mode must have switched to its own.
    assert llm.schema_mode_in_use == "json_object_schema"


def test_usage_is_counted_and_metered_per_stage(llm: OpenAIChatLLM, meter: TokenMeter):
    a, b = llm.complete(
        [ask("Say hello.", max_tokens=16, stage="route"), ask("Say goodbye.", max_tokens=16, stage="answer")]
    )
    for r in (a, b):
        assert r.error is None and r.prompt_tokens > 0 and r.completion_tokens > 0
    assert meter.stages["route"].prompt_tokens == a.prompt_tokens
    assert meter.stages["answer"].completion_tokens == b.completion_tokens
    assert meter.stages["route"].calls == meter.stages["answer"].calls == 1
    assert meter.stages["route"].items == 1 and meter.stages["route"].seconds > 0


def test_concurrent_batch_returns_results_in_order(llm: OpenAIChatLLM):
    # Each request's schema admits exactly one label, so order is checked without judging quality.
    requests = [
        ask(
            f"Give the label for item {i}.",
            max_tokens=40,
            schema={"type": "object", "properties": {"label": {"enum": [f"item-{i}"]}}, "required": ["label"]},
        )
        for i in range(6)
    ]
    results = llm.complete(requests)
    assert [r.error for r in results] == [None] * 6
    assert [r.parsed["label"] for r in results] == [f"item-{i}" for i in range(6)]


def test_cache_makes_a_repeated_request_cost_zero_tokens(llm: OpenAIChatLLM, meter: TokenMeter, tmp_path: Path):
    cached = CachedLLM(llm, tmp_path / "responses.sqlite", meter=meter)
    request = ask("List two features of a tablet.", schema=FEATURES, max_tokens=200, stage="extract")
    first = cached.complete([request])[0]
    assert first.error is None and not first.cached and first.prompt_tokens > 0
    tokens_after_first = meter.stages["extract"].prompt_tokens
    second = cached.complete([request])[0]
    assert second.cached and second.prompt_tokens == second.completion_tokens == 0
    assert second.parsed == first.parsed and second.text == first.text
    assert meter.stages["extract"].prompt_tokens == tokens_after_first  # no new tokens spent
    assert meter.stages["extract"].cache_hits == 1 and (cached.hits, cached.misses) == (1, 1)


def test_too_small_max_tokens_is_a_length_failure_then_retried(server: LlamaCppServer, meter: TokenMeter):
    # The llama.cpp form up front, so no auto-mode probe adds an HTTP call to the count.
    llm = OpenAIChatLLM(server.base_url, MODEL_NAME, max_retries=2, schema_mode="json_object_schema", meter=meter)
    result = llm.complete([ask("Name a phone and list its features.", schema=FEATURES, max_tokens=4, stage="tight")])[0]
    assert result.finish_reason == "length"
    assert result.error is not None and "max_tokens" in result.error and result.parsed is None
    assert result.attempts == llm.max_retries + 1 == meter.stages["tight"].calls
    free = llm.complete([ask("Tell me a long story.", max_tokens=4)])[0]
    assert free.finish_reason == "length" and free.error is None  # free text: a short answer is still an answer


def test_generation_speed_is_reported(llm: OpenAIChatLLM, server: LlamaCppServer, capsys):
    t0 = time.perf_counter()
    result = llm.complete([ask("Write a long story about phones.", max_tokens=128)])[0]
    seconds = time.perf_counter() - t0
    assert result.error is None and result.completion_tokens > 0
    with capsys.disabled():
        print(
            f"\n[llama.cpp] start {server.startup_s:.2f} s; {result.prompt_tokens} prompt + "
            f"{result.completion_tokens} completion tokens in {seconds:.2f} s "
            f"({result.completion_tokens / seconds:.0f} tok/s end to end)"
        )


def test_token_estimate_stays_near_the_real_tokenizer():
    from llama_cpp import Llama

    vocab = Llama(str(gguf_path()), vocab_only=True, verbose=False)
    root = Path(__file__).resolve().parents[2]
    texts = [
        (root / "README.md").read_text(encoding="utf-8")[:3000],
        (root / "tests/fixtures/tables/smartprix_small.csv").read_text(encoding="utf-8")[:3000],
        (root / "tests/fixtures/icecat/products.ndjson").read_text(encoding="utf-8")[:3000],
    ]
    for text in texts:
        real = len(vocab.tokenize(text.encode("utf-8"), add_bos=False))
        assert abs(count_tokens(text) - real) <= 0.15 * real, (count_tokens(text), real)
