"""`dualgraph index` with extraction's LLM part as one Ray Data pass (models.llm_batch), against a
real OpenAI-compatible server (SmolLM2-135M through llama.cpp). Structure and metering only."""

from __future__ import annotations

import pytest

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.models.factory import EmbedderConfig, ModelsConfig
from dualgraph.pipeline.index import build_index
from tests.integration.test_llm_index import PAGES

pytestmark = [pytest.mark.network, pytest.mark.ray]


def test_batch_llm_extraction_in_the_index_is_metered_and_not_repeated(tmp_path, llamacpp) -> None:
    from llamacpp import MODEL_NAME

    write_dataset(tmp_path / "ds", PAGES)
    batch = LLMBatchConfig(backend="http", model=MODEL_NAME, url=llamacpp.base_url, batch_size=4, max_retries=1)
    cfg = IndexConfig(
        runner="inline",
        progress=False,
        tkg=TkgConfig(extractor="both", chunk_tokens=400),
        # the static embedder, as in test_llm_index: the metering checked here does not depend on MiniLM
        models=ModelsConfig(embedder=EmbedderConfig(kind="static"), llm_batch=batch),
    )
    m = build_index(tmp_path / "ds", tmp_path / "ix", cfg)
    usage = m["model_usage"]["tkg.extract"]
    assert usage["items"] >= 2 and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
    assert m["tkg"]["entities"] > 0
    # the chunks the stage answered are counted with the heuristic extractor's in the manifest
    assert m["model_usage"]["tkg.extract"]["calls"] == usage["items"]
    # the same text again is not extracted again: documents are skipped by content hash
    again = build_index(tmp_path / "ds", tmp_path / "ix", cfg)
    assert again["model_usage"].get("tkg.extract", {}).get("prompt_tokens", 0) == 0
