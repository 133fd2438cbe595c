"""`dualgraph index` with the LLM extractor against a real OpenAI-compatible server on loopback
(SmolLM2-135M through llama.cpp). Structure and metering only, never answer quality."""

from __future__ import annotations

import pytest

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.models.factory import EmbedderConfig, LLMConfig, ModelsConfig
from dualgraph.pipeline.index import build_index

pytestmark = pytest.mark.network

PAGES = [
    (
        "a",
        "# Nova 12\n\nThe Nova 12 has stereo speakers and an FM radio.",
        [Variant("Nova 12", "Nova 12", ("phones",), (("Battery:Capacity", "5000 mAh"),))],
    ),
    (
        "b",
        "# Orbit 3\n\nThe Orbit 3 ships with an S Pen stylus.",
        [Variant("Orbit 3", "Orbit 3", ("phones",), (("Battery:Capacity", "4000 mAh"),))],
    ),
]


def test_llm_extraction_is_metered_cached_and_reported(tmp_path, llamacpp):
    write_dataset(tmp_path / "ds", PAGES)
    # the static embedder: what is checked (the extractor's metering, cache and report) does not
    # depend on MiniLM, which test_minilm and tests/e2e/test_cli.py keep; each index run loaded it
    models = ModelsConfig(
        embedder=EmbedderConfig(kind="static"),
        llm=LLMConfig(base_url=llamacpp.base_url, model="SmolLM2-135M-Instruct", max_retries=1, timeout_s=120),
    )
    cfg = IndexConfig(runner="inline", progress=False, tkg=TkgConfig(extractor="both"), models=models)
    m = build_index(tmp_path / "ds", tmp_path / "ix", cfg)
    usage = m["model_usage"]["tkg.extract"]
    assert usage["calls"] >= 2 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    # every chunk either gave LLM mentions or is reported as a problem; heuristic mentions are there regardless
    assert m["tkg"]["entities"] > 0
    # a fresh index over the same text answers every LLM request from the cache
    again = build_index(
        tmp_path / "ds", tmp_path / "ix2", cfg.model_copy(update={"cache_dir": tmp_path / "ix" / "cache"})
    )
    assert again["model_usage"]["tkg.extract"]["prompt_tokens"] == 0
    assert (
        again["model_usage"]["tkg.extract"]["cache_hits"] == usage["calls"]
        or again["model_usage"]["tkg.extract"]["cache_hits"] > 0
    )
