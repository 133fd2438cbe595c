"""The SQLite response cache: hits, misses, keys, errors, persistence, several processes.

The wrapped models here are small counting stand-ins: what is under test is the cache
logic (which inputs reach the model, what comes back). The real MiniLM and SmolLM2 are
exercised through the same wrappers in tests/integration.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import pickle
import sqlite3
from dataclasses import replace

import numpy as np
import pytest

from dualgraph.models.base import LLM, ChatRequest, ChatResult, Embedder, TokenMeter
from dualgraph.models.cache import CachedEmbedder, CachedLLM, ResponseCache
from dualgraph.models.factory import LLMConfig, ModelsConfig


class CountingEmbedder:
    """Deterministic vectors from a hash of the text; records every batch it is given."""

    def __init__(self, name: str = "fake-embed", dim: int = 8) -> None:
        self.name, self.dim = name, dim
        self.batches: list[list[str]] = []

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        self.batches.append(list(texts))
        rows = [np.frombuffer(hashlib.sha256(t.encode()).digest()[: self.dim], dtype=np.uint8) for t in texts]
        out = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dim) + 1.0
        return out / np.linalg.norm(out, axis=1, keepdims=True)


class CountingLLM:
    """Answers 'echo:<last message>' with fixed token counts; fails on messages containing 'FAIL'."""

    def __init__(self, name: str = "fake-llm") -> None:
        self.name = name
        self.seen: list[ChatRequest] = []

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        self.seen.extend(requests)
        out = []
        for r in requests:
            content = r.messages[-1]["content"]
            if "FAIL" in content:
                out.append(ChatResult(text="", error="HTTP 400: bad", prompt_tokens=3))
            else:
                out.append(
                    ChatResult(
                        text=f"echo:{content}",
                        parsed={"echo": content},
                        prompt_tokens=10,
                        completion_tokens=5,
                        finish_reason="stop",
                    )
                )
        return out


def ask(content: str, **kw) -> ChatRequest:
    return ChatRequest(messages=({"role": "user", "content": content},), **kw)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "cache" / "responses.sqlite"


def test_wrappers_keep_the_protocols(db):
    assert isinstance(CachedEmbedder(CountingEmbedder(), db), Embedder)
    assert isinstance(CachedLLM(CountingLLM(), db), LLM)


def test_embedder_second_call_hits_without_model_calls(db):
    inner, meter = CountingEmbedder(), TokenMeter()
    cached = CachedEmbedder(inner, db, meter=meter)
    texts = ["stereo speakers", "battery", "stereo speakers"]
    first = cached.embed(texts, stage="tkg")
    assert inner.batches == [["stereo speakers", "battery"]]  # deduplicated, one batch
    second = cached.embed(texts, stage="tkg")
    assert len(inner.batches) == 1
    assert first.dtype == second.dtype == np.float32 and first.shape == (3, 8)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first[0], first[2])
    assert (cached.hits, cached.misses) == (2, 2)
    assert meter.stages["tkg"].cache_hits == 2


def test_embedder_sends_only_misses_in_one_batch(db):
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, db)
    cached.embed(["a", "b"])
    out = cached.embed(["b", "c", "a", "d", "c"])
    assert inner.batches[-1] == ["c", "d"]
    np.testing.assert_allclose(out, inner.embed(["b", "c", "a", "d", "c"]))


def test_embedder_empty_input(db):
    out = CachedEmbedder(CountingEmbedder(), db).embed([])
    assert out.shape == (0, 8) and out.dtype == np.float32


def test_embedder_cache_persists_and_is_keyed_by_model(db):
    CachedEmbedder(CountingEmbedder(), db).embed(["x", "y"])
    again = CountingEmbedder()
    CachedEmbedder(again, db).embed(["x", "y"])
    assert again.batches == []  # a new process/instance reads the same file
    other = CountingEmbedder(name="another-model")
    CachedEmbedder(other, db).embed(["x"])
    assert other.batches == [["x"]]


def test_embedder_ignores_rows_of_the_wrong_width(db):
    CachedEmbedder(CountingEmbedder(dim=8), db).embed(["x"])
    wider = CountingEmbedder(dim=16)  # same name, different width: stale rows must not be returned
    assert CachedEmbedder(wider, db).embed(["x"]).shape == (1, 16)
    assert wider.batches == [["x"]]


def test_llm_hit_is_cached_and_costs_zero_tokens(db):
    inner, meter = CountingLLM(), TokenMeter()
    llm = CachedLLM(inner, db, meter=meter)
    first = llm.complete([ask("hi", stage="extract")])[0]
    assert not first.cached and first.prompt_tokens == 10
    second = llm.complete([ask("hi", stage="extract")])[0]
    assert second.cached and second.attempts == 0
    assert (second.prompt_tokens, second.completion_tokens) == (0, 0)
    assert (second.text, second.parsed, second.finish_reason) == (first.text, first.parsed, "stop")
    assert len(inner.seen) == 1
    assert (llm.hits, llm.misses) == (1, 1)
    assert meter.stages["extract"].cache_hits == 1


def test_llm_errors_are_never_cached(db):
    inner = CountingLLM()
    llm = CachedLLM(inner, db)
    assert llm.complete([ask("FAIL")])[0].error
    again = llm.complete([ask("FAIL")])[0]
    assert again.error and not again.cached
    assert len(inner.seen) == 2


def test_llm_key_is_model_version_and_exact_input(db):
    inner = CountingLLM()
    llm = CachedLLM(inner, db)
    base = ask("q", prompt_version="v1", stage="a")
    llm.complete([base])
    llm.complete([replace(base, stage="b")])  # stage only labels metering: a hit
    assert len(inner.seen) == 1
    for changed in (
        replace(base, prompt_version="v2"),
        replace(base, max_tokens=9),
        replace(base, temperature=0.5),
        replace(base, schema={"type": "object"}),
        ask("q "),
    ):
        llm.complete([changed])
    assert len(inner.seen) == 6
    CachedLLM(CountingLLM(name="other-model"), db).complete([base])  # another model: a miss


def test_llm_mixed_batch_keeps_order_and_sends_duplicates_once(db):
    inner, meter = CountingLLM(), TokenMeter()
    llm = CachedLLM(inner, db, meter=meter)
    llm.complete([ask("b")])
    results = llm.complete([ask("a"), ask("b"), ask("FAIL"), ask("a"), ask("c")])
    assert [r.text for r in results] == ["echo:a", "echo:b", "", "echo:a", "echo:c"]
    assert [r.cached for r in results] == [False, True, False, True, False]
    assert [m.messages[-1]["content"] for m in inner.seen] == ["b", "a", "FAIL", "c"]
    assert results[3].prompt_tokens == 0
    assert meter.stages["default"].cache_hits == 2


def test_cache_file_is_wal_and_pickles(db):
    cache = ResponseCache(db)
    cache.put("chat", "m", "v1", {"d": "x"})
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    clone = pickle.loads(pickle.dumps(cache))
    assert clone.get("chat", "m", "v1", ["d"]) == {"d": "x"}
    with pytest.raises(ValueError, match="unknown cache table"):
        cache.get("nope", "m", "v1", ["d"])


def _writer(path: str, worker: int) -> None:
    cache = ResponseCache(path)
    for i in range(50):
        cache.put("chat", "m", "v1", {f"{worker}-{i}": f"value {worker} {i}"})
    cache.close()


def test_several_processes_write_one_file(db):
    ResponseCache(db).put("chat", "m", "v1", {"seed": "x"})  # create the file and schema first
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(db), w)) for w in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    keys = [f"{w}-{i}" for w in range(3) for i in range(50)]
    assert len(ResponseCache(db).get("chat", "m", "v1", keys)) == 150


def test_models_config_reads_the_key_once_from_the_named_variable(monkeypatch):
    monkeypatch.setenv("DG_TEST_KEY", "sk-test-123")
    config = ModelsConfig(llm=LLMConfig(base_url="http://127.0.0.1:1", model="m", api_key_env="DG_TEST_KEY"))
    assert config.llm is not None and config.llm.api_key is None
    resolved = config.llm.resolve()
    assert resolved.api_key == "sk-test-123"
    assert "sk-test-123" not in repr(resolved) and "sk-test-123" not in resolved.model_dump_json()
    assert ModelsConfig().llm is None
    for name, field in {**ModelsConfig.model_fields, **LLMConfig.model_fields}.items():
        assert field.description, name
