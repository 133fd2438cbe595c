"""Exact vector search with FAISS under stable string ids.

A flat index (``IndexFlatIP``; ``IndexFlatL2`` for ``metric="l2"``) wrapped in
``IndexIDMap2`` so every vector carries an int64 key. The key of a string id is 63 bits
of its BLAKE2b hash: the same id gets the same key in every run and after save/load,
with no order-dependent counters (the reference's ``__N`` suffixes were). Two different
ids with the same key are refused with :class:`IdCollisionError`, never merged.

With ``metric="ip"`` vectors and queries are L2-normalised, so scores are cosines.
With ``metric="l2"`` scores are negated squared distances, so higher is better for both.

The CPU index is the authoritative copy: writes, removals, range searches and saves go
to it. When faiss-gpu is importable and ``gpu`` allows it, top-k searches run on a GPU
copy that is rebuilt lazily after writes (GPU flat indexes cannot remove ids).

Large sets can be approximate (:mod:`dualgraph.stores.faiss_ann`): :meth:`FaissIndex.build`
chooses flat, IVF or HNSW by size and adds shard by shard, and :meth:`FaissIndex.for_size`
turns a filled flat index into what its size calls for. Below the threshold both give the
flat index above, unchanged. Keys are the same hashes in every kind, so every kind returns
the same ids for the same vectors; the measured recall is saved with the index.

>>> import numpy as np
>>> index = FaissIndex(2, gpu=False)
>>> index.add(["a", "b"], np.array([[1.0, 0.0], [0.0, 3.0]]))
>>> index.search(np.array([[2.0, 0.1]]), k=1)
[[('a', 0.998...)]]
>>> index.add(["a"], np.array([[0.0, 1.0]]))  # an upsert: "a" is replaced, not duplicated
>>> len(index), index.range_search(np.array([0.0, 1.0]), min_score=0.9)
(2, [[('a', 1.0), ('b', 1.0)]])
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

import faiss
import numpy as np

from dualgraph.stores import faiss_ann
from dualgraph.stores.faiss_ann import AnnConfig, RecallReport, Shard
from dualgraph.stores.vector import (
    Hit,
    IdCollisionError,
    IndexMismatchError,
    VectorCapabilities,
    VectorIndexError,
)

HASH_NAME = "blake2b-63"
INDEX_FILE = "index.faiss"
IDS_FILE = "ids.json"
_FORMAT = 1  # flat indexes keep the first format, so code before approximate indexes still reads them
_ANN_FORMAT = 2  # IVF / HNSW: code that only knows format 1 refuses these rather than misreading them
_GPU_MAX_K = 2048  # FAISS GPU flat search refuses larger k; such searches use the CPU copy


def string_id_hash(id_: str) -> int:
    """The int64 key of a string id: 63 bits of BLAKE2b, so it is never FAISS's ``-1`` (no hit).

    >>> string_id_hash("chunk-1") == string_id_hash("chunk-1") >= 0
    True
    """
    digest = hashlib.blake2b(id_.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF_FFFF_FFFF


def gpu_available() -> bool:
    """True when faiss-gpu is installed and sees at least one GPU.

    >>> isinstance(gpu_available(), bool)
    True
    """
    return hasattr(faiss, "StandardGpuResources") and faiss.get_num_gpus() > 0


class FaissIndex:
    """A :class:`~dualgraph.stores.vector.VectorIndex` on a FAISS index: exact flat as
    constructed, IVF or HNSW from :meth:`build` / :meth:`for_size` (``kind`` says which).

    ``gpu``: ``"auto"`` uses a GPU when :func:`gpu_available`; ``True`` requires one;
    ``False`` never uses one. ``capabilities.gpu`` says which is active; HNSW always
    searches on the CPU (FAISS has no GPU HNSW). Not safe for concurrent writers.
    """

    def __init__(self, dim: int, *, metric: str = "ip", gpu: bool | str = "auto") -> None:
        if metric not in ("ip", "l2"):
            raise ValueError(f"metric must be 'ip' or 'l2', not {metric!r}")
        if gpu not in ("auto", True, False):
            raise ValueError(f"gpu must be 'auto', True or False, not {gpu!r}")
        if gpu is True and not gpu_available():
            raise RuntimeError("gpu=True but faiss-gpu is not installed or sees no GPU")
        self.dim = int(dim)
        self.metric = metric
        flat = faiss.IndexFlatIP(self.dim) if metric == "ip" else faiss.IndexFlatL2(self.dim)
        self._flat: faiss.Index | None = flat  # keep the sub-index alive as long as the wrapper
        self._index: faiss.Index = faiss.IndexIDMap2(flat)
        self._key_of: dict[str, int] = {}
        self._id_of: dict[int, str] = {}
        self._gpu_setting = gpu
        self._use_gpu = gpu is True or (gpu == "auto" and gpu_available())
        self._gpu_resources: faiss.StandardGpuResources | None = None
        self._gpu_index: faiss.Index | None = None
        self._gpu_stale = True
        self.capabilities = VectorCapabilities(gpu=self._use_gpu)
        self.kind: faiss_ann.Kind = "flat"
        self.ann: AnnConfig | None = None
        """How an approximate index was built (None for flat)."""
        self.recall: RecallReport | None = None
        """The recall check of an approximate index (None for flat)."""

    # -- building at scale ----------------------------------------------------------------

    @classmethod
    def build(
        cls,
        dim: int,
        shards: Iterable[Shard],
        *,
        size: int,
        train: np.ndarray | None = None,
        queries: np.ndarray | None = None,
        config: AnnConfig | None = None,
        metric: str = "ip",
        gpu: bool | str = "auto",
    ) -> FaissIndex:
        """An index of the kind ``config`` chooses for ``size`` vectors, filled from ``shards``.

        ``shards`` yields ``(ids, vectors)`` and is read once, one shard at a time, so only
        the index, one shard and the training sample are in memory. IVF trains on ``train``
        (default: the first ``config.train_sample`` rows, which should then be in random
        order). The recall check compares ``queries`` (default: the first rows of the
        training sample) with an exact search run over the same shards as they stream by.
        Below the threshold this is a flat :class:`FaissIndex` and nothing is measured.
        """
        cfg = config or AnnConfig()
        kind = cfg.choose(size)
        if kind == "flat":
            flat = cls(dim, metric=metric, gpu=gpu)
            flat.add_shards(shards)
            return flat
        if train is None and (kind == "ivf" or queries is None):
            train, shards = faiss_ann.take_sample(shards, cfg.train_sample)
        sample = None if train is None else np.asarray(train, dtype=np.float32)
        train_rows = 0 if sample is None else min(cfg.train_sample, sample.shape[0])
        raw = faiss_ann.new_index(dim, metric, kind, cfg, n=size, train_rows=train_rows)
        index = cls._approximate(dim, metric=metric, gpu=gpu, kind=kind, raw=raw, config=cfg)
        if kind == "ivf":
            assert sample is not None  # taken above when not given
            rng = np.random.default_rng(cfg.seed)
            if sample.shape[0] > cfg.train_sample:
                sample = sample[np.sort(rng.choice(sample.shape[0], cfg.train_sample, replace=False))]
            raw.train(index._rows(sample))
        probe = queries if queries is not None else cast(np.ndarray, sample)[: cfg.recall_queries]
        q = index._rows(probe)
        # twice k: hits that are the query itself are dropped before comparing (faiss_ann.recall_at_k)
        exact = faiss_ann.ExactTopK(q, 2 * cfg.recall_k, metric)
        index.add_shards(shards, exact=exact)
        index.recall = faiss_ann.tune(index._index, kind, cfg, q, exact, metric)
        return index

    def add_shards(self, shards: Iterable[Shard], *, exact: faiss_ann.ExactTopK | None = None) -> int:
        """:meth:`add` each ``(ids, vectors)`` shard in turn; returns how many vectors were added.

        ``exact`` (used by :meth:`build`) also sees each shard, for the recall check."""
        added = 0
        for ids, vectors in shards:
            self.add(ids, vectors)
            if exact is not None:
                exact.add(self._rows(vectors), np.asarray([self._key_of[i] for i in ids], dtype=np.int64))
            added += len(ids)
        return added

    def for_size(self, config: AnnConfig | None = None, *, queries: np.ndarray | None = None) -> FaissIndex:
        """This index if its kind suits its size (always so below the threshold); otherwise a
        new approximate index of the same ids and vectors, built shard-wise from this one.

        The training sample and the recall queries are random stored vectors (``queries``
        overrides the latter); this index is left as it was."""
        cfg = config or AnnConfig()
        kind = cfg.choose(len(self))
        if kind == self.kind or self.kind != "flat":
            return self
        wrapper = cast(faiss.IndexIDMap2, self._index)  # every flat index is an IndexIDMap2
        n, flat = len(self), cast(Any, faiss.downcast_index(wrapper.index))
        # a zero-copy view of the flat storage; shards and the sample are slices of it
        stored = faiss.rev_swig_ptr(flat.get_xb(), n * self.dim).reshape(n, self.dim)
        keys = faiss.vector_to_array(wrapper.id_map)
        rng = np.random.default_rng(cfg.seed)
        sample = stored[np.sort(rng.choice(n, min(n, cfg.train_sample), replace=False))]
        if queries is None:
            queries = stored[np.sort(rng.choice(n, min(n, cfg.recall_queries), replace=False))]
        step = cfg.shard_size
        shards = (([self._id_of[int(k)] for k in keys[s : s + step]], stored[s : s + step]) for s in range(0, n, step))
        return type(self).build(
            self.dim,
            shards,
            size=n,
            train=sample,
            queries=queries,
            config=cfg,
            metric=self.metric,
            gpu=self._gpu_setting,
        )

    @classmethod
    def _approximate(
        cls, dim: int, *, metric: str, gpu: bool | str, kind: faiss_ann.Kind, raw: faiss.Index, config: AnnConfig
    ) -> FaissIndex:
        self = cls(dim, metric=metric, gpu=gpu if kind == "ivf" else False)
        self._gpu_setting = gpu
        # IVF stores the caller's keys in its lists and removes by key; FAISS's IDMap2 would
        # renumber the survivors as if the sub-index were flat, which IVF is not. HNSW keeps
        # positions, so it needs the id map (and cannot remove at all).
        wrapped = kind == "ivf" or isinstance(raw, faiss.IndexIDMap2)  # a loaded HNSW comes wrapped
        self._index = raw if wrapped else faiss.IndexIDMap2(raw)
        self._flat = raw  # keep the sub-index alive as long as the wrapper
        self.kind, self.ann = kind, config
        self.capabilities = VectorCapabilities(exact=False, gpu=self._use_gpu, remove=kind != "hnsw")
        return self

    # -- writes ---------------------------------------------------------------------------

    def add(self, ids: list[str], vectors: np.ndarray) -> None:
        """Upsert: an id already present has its vector replaced."""
        ids = list(ids)
        rows = self._rows(vectors)
        if len(ids) != rows.shape[0]:
            raise ValueError(f"{len(ids)} ids for {rows.shape[0]} vectors")
        if len(set(ids)) != len(ids):
            raise ValueError("the same id appears twice in one add(); pass each id once")
        keys = [string_id_hash(i) for i in ids]
        if self.kind == "hnsw" and any(i in self._key_of for i in ids):
            raise VectorIndexError("an HNSW index cannot replace vectors (FAISS's HNSW cannot remove); rebuild it")
        batch: dict[int, str] = {}
        for id_, key in zip(ids, keys, strict=True):
            other = self._id_of.get(key, batch.get(key))
            if other is not None and other != id_:
                raise IdCollisionError(f"ids {other!r} and {id_!r} share the key {key} ({HASH_NAME}); rename one")
            batch[key] = id_
        self.remove([i for i in ids if i in self._key_of])
        self._index.add_with_ids(rows, np.asarray(keys, dtype=np.int64))
        for id_, key in zip(ids, keys, strict=True):
            self._key_of[id_] = key
            self._id_of[key] = id_
        self._gpu_stale = True

    def remove(self, ids: list[str]) -> int:
        if self.kind == "hnsw" and any(i in self._key_of for i in ids):
            raise VectorIndexError("an HNSW index cannot remove ids (FAISS's HNSW cannot); rebuild it")
        keys = [self._key_of.pop(i) for i in dict.fromkeys(ids) if i in self._key_of]
        if keys:
            for key in keys:
                del self._id_of[key]
            # faiss wraps remove_ids to take an int64 array too; its stubs only list IDSelector
            self._index.remove_ids(np.asarray(keys, dtype=np.int64))  # type: ignore[arg-type]
            self._gpu_stale = True
        return len(keys)

    # -- reads ----------------------------------------------------------------------------

    def __len__(self) -> int:
        return int(self._index.ntotal)

    def __contains__(self, id_: object) -> bool:
        return id_ in self._key_of

    def ids(self) -> list[str]:
        """Ids in insertion order (an upsert moves the id to the end); for flat and HNSW that is
        FAISS's storage order, while IVF stores by list, so its order is the id map's."""
        if isinstance(self._index, faiss.IndexIDMap2):
            return [self._id_of[int(k)] for k in faiss.vector_to_array(self._index.id_map)]
        return list(self._key_of)

    def search(self, queries: np.ndarray, *, k: int) -> list[list[Hit]]:
        """Top-``k`` hits per query row; equal scores are ordered by id, also at the cut-off."""
        q = self._rows(queries)
        k = min(int(k), len(self))
        if k <= 0:
            return [[] for _ in range(q.shape[0])]
        # Which of several vectors tied with the k-th score FAISS keeps depends on storage
        # order; fetch deeper until no tie reaches the end, then cut by (score, id).
        fetch = min(len(self), k + 8)
        while True:
            scores, keys = self._searcher(fetch).search(q, fetch)
            # an approximate index may find fewer than fetch (key -1): no tie to resolve there
            tied = (scores[:, fetch - 1] == scores[:, k - 1]) & (keys[:, fetch - 1] >= 0)
            if fetch == len(self) or not np.any(tied):
                break
            fetch = min(len(self), 2 * fetch)
        return [self._hits(s, ks)[:k] for s, ks in zip(scores, keys, strict=True)]

    def scores(self, queries: np.ndarray) -> tuple[np.ndarray, list[str]] | None:
        """Every stored vector's score for each query row (``rows x len(self)``) and the ids of the
        columns, scored as :meth:`search` scores them: one pass over a flat index for a whole batch,
        after which any depth of any row is a cut of that row (:func:`~dualgraph.stores.vector.top_hits`).
        None for an approximate index, whose point is not to score every vector.

        >>> index = FaissIndex(2, gpu=False)
        >>> index.add(["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]], dtype="float32"))
        >>> s, ids = index.scores(np.array([[1.0, 1.0]], dtype="float32"))
        >>> ids, [round(float(x), 3) for x in s[0]]
        (['a', 'b'], [0.707, 0.707])
        """
        if self.kind != "flat":
            return None
        q = self._rows(queries)
        n = len(self)
        if n == 0:
            return np.zeros((q.shape[0], 0), dtype=np.float32), []
        flat = cast(faiss.IndexFlat, faiss.downcast_index(cast(faiss.IndexIDMap2, self._index).index))
        stored = faiss.rev_swig_ptr(flat.get_xb(), n * self.dim).reshape(n, self.dim)
        if self.metric == "ip":
            scores = q @ stored.T
        else:  # a hit's L2 score is minus the squared distance
            scores = 2 * (q @ stored.T) - (q * q).sum(1)[:, None] - (stored * stored).sum(1)[None, :]
        return scores, self.ids()

    def range_search(self, queries: np.ndarray, *, min_score: float) -> list[list[Hit]]:
        """Every hit with score ≥ ``min_score`` per query row, best first (always on the CPU copy)."""
        q = self._rows(queries)
        if len(self) == 0:
            return [[] for _ in range(q.shape[0])]
        # FAISS keeps IP hits strictly above the radius and L2 hits strictly below it;
        # nudging by one float32 step makes the bound inclusive.
        if self.metric == "ip":
            radius = float(np.nextafter(np.float32(min_score), np.float32(-np.inf)))
        else:
            radius = float(np.nextafter(np.float32(-min_score), np.float32(np.inf)))
        lims, scores, keys = self._index.range_search(q, radius)
        return [self._hits(scores[lims[i] : lims[i + 1]], keys[lims[i] : lims[i + 1]]) for i in range(q.shape[0])]

    # -- persistence ----------------------------------------------------------------------

    def save(self, directory: str | os.PathLike) -> None:
        """Write ``index.faiss`` and ``ids.json``; the latter records the former's SHA-256.

        Each file is replaced atomically (temp file + rename), index first. A crash
        between the two renames leaves a pair that :meth:`load` detects and refuses.
        """
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        blob = faiss.serialize_index(self._index).tobytes()
        meta = {
            "format": _FORMAT if self.kind == "flat" else _ANN_FORMAT,
            "dim": self.dim,
            "metric": self.metric,
            "hash": HASH_NAME,
            "index_sha256": hashlib.sha256(blob).hexdigest(),
            "count": len(self),
        }
        if self.kind != "flat":
            meta["kind"] = self.kind
            meta["ann"] = self.ann.model_dump() if self.ann else None
            meta["recall"] = self.recall.as_dict() if self.recall else None
        meta["ids"] = self.ids()
        _atomic_write(out / INDEX_FILE, blob)
        _atomic_write(out / IDS_FILE, json.dumps(meta, ensure_ascii=False).encode("utf-8"))

    @classmethod
    def load(cls, directory: str | os.PathLike, *, gpu: bool | str = "auto") -> FaissIndex:
        """Read a saved index, checking that the index file and the id map agree."""
        src = Path(directory)
        index_path, ids_path = src / INDEX_FILE, src / IDS_FILE
        for path in (index_path, ids_path):
            if not path.is_file():
                raise IndexMismatchError(f"{path} is missing; {index_path} and {ids_path} must be saved together")
        blob = index_path.read_bytes()
        meta = json.loads(ids_path.read_text(encoding="utf-8"))

        def mismatch(why: str) -> IndexMismatchError:
            return IndexMismatchError(f"{index_path} and {ids_path} disagree: {why}")

        fmt, kind = meta.get("format"), meta.get("kind", "flat")
        if (fmt, kind) not in ((_FORMAT, "flat"), (_ANN_FORMAT, "ivf"), (_ANN_FORMAT, "hnsw")) or (
            meta.get("hash") != HASH_NAME
        ):
            raise mismatch(
                f"format {fmt}/kind {kind!r}/hash {meta.get('hash')!r}, expected {_FORMAT} (flat) or "
                f"{_ANN_FORMAT} (ivf, hnsw)/{HASH_NAME!r}"
            )
        if hashlib.sha256(blob).hexdigest() != meta["index_sha256"]:
            raise mismatch("the index file is not the one the id map was saved with")
        raw = faiss.deserialize_index(np.frombuffer(blob, dtype=np.uint8))
        ids: list[str] = meta["ids"]
        stored = _stored_keys(raw, kind)
        if stored is None or raw.d != meta["dim"] or raw.ntotal != len(ids) or len(ids) != meta["count"]:
            raise mismatch(f"{raw.ntotal} vectors of dim {raw.d}, id map has {len(ids)} ids of dim {meta['dim']}")
        keys = [string_id_hash(i) for i in ids]
        # IVF keeps keys by list, not in insertion order: compare them as sets
        same = stored.tolist() == keys if kind != "ivf" else np.array_equal(np.sort(stored), np.sort(keys))
        if len(set(keys)) != len(keys) or not same:
            raise mismatch("the keys in the index are not the hashes of the ids in the id map")
        if kind == "flat":
            self = cls(meta["dim"], metric=meta["metric"], gpu=gpu)
            # an IndexIDMap2 (stored is None otherwise); the deserialised wrapper owns its sub-index
            self._index, self._flat = raw, None
        else:
            config = AnnConfig.model_validate(meta["ann"]) if meta.get("ann") else AnnConfig(kind=kind)
            self = cls._approximate(meta["dim"], metric=meta["metric"], gpu=gpu, kind=kind, raw=raw, config=config)
            self._flat = None  # the deserialised index owns its parts
            if meta.get("recall"):
                self.recall = RecallReport.from_dict(meta["recall"])
                faiss_ann.set_breadth(raw, kind, self.recall.value)
        self._key_of = dict(zip(ids, keys, strict=True))
        self._id_of = dict(zip(keys, ids, strict=True))
        return self

    # -- helpers --------------------------------------------------------------------------

    def _rows(self, vectors: np.ndarray) -> np.ndarray:
        rows = np.array(vectors, dtype=np.float32, copy=True, order="C")
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != self.dim:
            raise ValueError(f"expected vectors of dim {self.dim}, got shape {np.shape(vectors)}")
        if self.metric == "ip":
            faiss.normalize_L2(rows)  # zero rows stay zero
        return rows

    def _searcher(self, k: int):
        # GPU IVF also caps nprobe at _GPU_MAX_K; HNSW never gets here (_use_gpu is False)
        wide = self.kind == "ivf" and faiss.extract_index_ivf(self._index).nprobe > _GPU_MAX_K
        if not self._use_gpu or k > _GPU_MAX_K or wide:
            return self._index
        if self._gpu_stale:
            if self._gpu_resources is None:
                self._gpu_resources = faiss.StandardGpuResources()
            # the copy takes the CPU index's nprobe, so the recall checked on the CPU holds
            self._gpu_index = faiss.index_cpu_to_gpu(self._gpu_resources, 0, self._index)
            self._gpu_stale = False
        return self._gpu_index

    def _hits(self, scores: np.ndarray, keys: np.ndarray) -> list[Hit]:
        sign = 1.0 if self.metric == "ip" else -1.0
        hits = [(self._id_of[int(k)], sign * float(s)) for s, k in zip(scores, keys, strict=True) if k >= 0]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return hits


def _stored_keys(raw: faiss.Index, kind: str) -> np.ndarray | None:
    """The keys a deserialised index holds (None when it is not the kind the metadata says)."""
    if kind == "ivf":
        if not isinstance(raw, faiss.IndexIVF):
            return None
        lists = raw.invlists
        if lists is None:
            return None
        parts = [faiss.rev_swig_ptr(lists.get_ids(i), lists.list_size(i)).copy() for i in range(raw.nlist)]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return faiss.vector_to_array(raw.id_map) if isinstance(raw, faiss.IndexIDMap2) else None


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
