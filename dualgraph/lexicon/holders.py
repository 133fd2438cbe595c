"""Which products hold each entry: a table written with the pattern index, read by slices.

Choosing between entries (:mod:`dualgraph.query.ground.entry_choice`) asks which products hold an
entry, or a unit of it. Asked of the store, that is one pass over every spec of the catalogue the
first time (11 s on a 1,600-product catalogue with full data sheets, at every engine start).
The index writes the answer once, from the converter's spec tables
(:func:`~dualgraph.skg.spec_table.holder_rows`), sorted by entry; a reader keeps the entries'
row ranges and turns only the entries a question weighs into sets of products.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

__all__ = ["HOLDERS_FILE", "TABLES_VERSION", "EntryHolders"]

HOLDERS_FILE = "holders.parquet"
TABLES_VERSION = 2
"""The tables written beside the pattern index: 1 this one, 2 also the value names
(:mod:`dualgraph.lexicon.value_names`). Part of the patterns' signature, so an index built before
a table existed builds it at its next run."""


class EntryHolders:
    """The products holding each (entry, unit) pair (unit ``None``: the entry at all).

    >>> import pyarrow as pa
    >>> t = pa.table({"entry": ["a", "a", "a", "b"], "unit": ["", "", "mAh", ""], "product": ["p1", "p2", "p1", "p2"]})
    >>> h = EntryHolders(t)
    >>> sorted(h.products("a", None)), sorted(h.products("a", "mAh")), sorted(h.products("c", None))
    (['p1', 'p2'], ['p1'], [])
    """

    def __init__(self, table: Any) -> None:
        import pyarrow.compute as pc

        self._table = table
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, str | None], frozenset[str]] = {}
        # the rows come sorted by entry and unit: one range of rows per pair
        self._ranges: dict[tuple[str, str], tuple[int, int]] = {}
        if table.num_rows:
            keys = pc.binary_join_element_wise(table["entry"], table["unit"], "\x1f")
            runs = pc.run_end_encode(keys.combine_chunks())
            start = 0
            for key, end in zip(runs.values.to_pylist(), runs.run_ends.to_pylist(), strict=True):
                entry, _, unit = key.partition("\x1f")
                self._ranges[(entry, unit)] = (start, end)
                start = end

    @classmethod
    def read(cls, path: str | Path) -> EntryHolders:
        import pyarrow.parquet as pq

        return cls(pq.read_table(path))

    def write(self, path: str | Path) -> None:
        import pyarrow.parquet as pq

        pq.write_table(self._table, path)

    def products(self, entry: str, unit: str | None) -> frozenset[str]:
        key = (entry, unit)
        with self._lock:
            found = self._cache.get(key)
            if found is None:
                start, end = self._ranges.get((entry, unit or ""), (0, 0))
                found = frozenset(self._table["product"].slice(start, end - start).to_pylist())
                self._cache[key] = found
        return found
