"""The vector index protocol: dense vectors under string ids, searched in batches.

Like the SPARQL stores, a vector index declares what it can do as
:class:`VectorCapabilities` flags, so a caller asks ``index.capabilities.gpu`` rather
than checking a class. Ids are the caller's strings (entity ids, chunk ids); how a
backend maps them to its own keys is its business, but the mapping must be stable
across save/load and must never merge two different ids.

``add`` is an upsert: adding an id that is already there replaces its vector (the
reference's LanceDB appended a duplicate row instead).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

Hit = tuple[str, float]
"""One search result: ``(id, score)``; higher scores are better."""


def id_ranks(ids: list[str]) -> np.ndarray:
    """Each id's place in sorted order: the tie-break :func:`top_hits` sorts by, computed once per list."""
    ranks = np.empty(len(ids), dtype=np.int64)
    ranks[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    return ranks


def top_hits(
    scores: np.ndarray, ids: list[str], k: int, *, positive: bool = False, ranks: np.ndarray | None = None
) -> list[Hit]:
    """The ``k`` best of ``scores`` (one per id, in ``ids`` order) as hits, best first; equal scores
    are ordered by id, also at the cut-off, as the indexes' own searches order them. ``positive``
    keeps only scores above zero (a lexical index's "no word in common" is no hit). ``ranks``
    (:func:`id_ranks` of ``ids``) lets a caller that cuts many rankings from one list sort in numpy.

    >>> top_hits(np.array([0.2, 0.9, 0.2, 0.0]), ["c", "a", "b", "d"], 2)
    [('a', 0.9...), ('b', 0.2...)]
    >>> ids = ["c", "a", "b", "d"]
    >>> top_hits(np.array([0.2, 0.9, 0.2, 0.0]), ids, 3, ranks=id_ranks(ids))
    [('a', 0.9...), ('b', 0.2...), ('c', 0.2...)]
    >>> top_hits(np.array([0.0, -1.0]), ["a", "b"], 5, positive=True)
    []
    """
    if ranks is not None:
        return [(ids[i], float(scores[i])) for i in top_columns(scores, k, ranks=ranks, positive=positive)]
    candidates = _contenders(scores, k, positive)
    hits = sorted(((ids[i], float(scores[i])) for i in candidates), key=lambda h: (-h[1], h[0]))
    return hits[:k]


def top_columns(scores: np.ndarray, k: int, *, ranks: np.ndarray, positive: bool = False) -> np.ndarray:
    """:func:`top_hits` as column numbers, best first, sorted in numpy (``ranks``: :func:`id_ranks`)."""
    candidates = _contenders(scores, k, positive)
    return candidates[np.lexsort((ranks[candidates], -scores[candidates]))][: max(k, 0)]


def _contenders(scores: np.ndarray, k: int, positive: bool) -> np.ndarray:
    """The columns that can be among the ``k`` best: every one tied with the k-th score stays in, so
    the id tie-break decides at the cut-off."""
    candidates = np.flatnonzero(scores > 0) if positive else np.arange(scores.shape[0])
    if k <= 0:
        return candidates[:0]
    if candidates.size > k:
        kth = np.partition(scores[candidates], candidates.size - k)[candidates.size - k]
        candidates = candidates[scores[candidates] >= kth]
    return candidates


class VectorIndexError(RuntimeError):
    """A vector index could not do what was asked."""


class IdCollisionError(VectorIndexError):
    """Two different string ids map to the same internal key; refused rather than merged."""


class IndexMismatchError(VectorIndexError):
    """The files of a saved index disagree with each other (e.g. a crash between two writes)."""


@dataclass(frozen=True, slots=True)
class VectorCapabilities:
    """What a vector backend can do; callers branch on these, never on the class.

    >>> VectorCapabilities().exact
    True
    """

    exact: bool = True
    """Search is exhaustive (no approximate recall loss)."""
    gpu: bool = False
    """Searches run on a GPU."""
    remove: bool = True
    """Ids can be removed."""
    range_search: bool = True
    """``range_search`` is native (all hits above a score), not emulated by a growing top-k."""
    persistent: bool = True
    """``save``/``load`` are supported."""


@runtime_checkable
class VectorIndex(Protocol):
    """Dense vectors under string ids; scores are similarities (higher is better)."""

    capabilities: VectorCapabilities
    dim: int

    def add(self, ids: list[str], vectors: np.ndarray) -> None:
        """Upsert one row of ``vectors`` (shape ``(len(ids), dim)``) per id."""
        ...

    def search(self, queries: np.ndarray, *, k: int) -> list[list[Hit]]:
        """The ``k`` best hits for each query row (fewer when the index is smaller), best first."""
        ...

    def range_search(self, queries: np.ndarray, *, min_score: float) -> list[list[Hit]]:
        """Every hit scoring at least ``min_score`` for each query row, best first."""
        ...

    def remove(self, ids: list[str]) -> int:
        """Remove ids (unknown ones are ignored); returns how many were removed."""
        ...

    def __len__(self) -> int: ...

    def __contains__(self, id_: object) -> bool: ...

    def ids(self) -> list[str]:
        """Every id in the index, in a stable order."""
        ...

    def save(self, directory: str | os.PathLike) -> None:
        """Write the index to ``directory`` so that ``load`` restores the same ids and vectors."""
        ...

    @classmethod
    def load(cls, directory: str | os.PathLike) -> VectorIndex:
        """Read an index written by ``save``; raises :class:`IndexMismatchError` if its files disagree."""
        ...
