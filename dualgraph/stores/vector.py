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
