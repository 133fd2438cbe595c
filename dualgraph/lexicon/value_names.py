"""Which products hold a value of each entry under each name: a table written with the pattern index.

A question's word that no listed value names ("ocean blue", "type-c ports") is looked for in
every value of the catalogue, and an engine's vocabulary reads every capitalised value once at
start. Asked of the store, each is a regular expression over every value node (about 200 ms a
word, and 1.8 s at start, on a 1,600-product catalogue with full data sheets). The index writes
the distinct (value name, entry, entry name, product) rows once, from the converter's spec tables
(:func:`~dualgraph.skg.spec_table.value_name_rows`), sorted by name; a reader tests each distinct
name once and takes the matching names' rows as slices.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

__all__ = ["VALUE_NAMES_FILE", "ValueNames"]

VALUE_NAMES_FILE = "value_names.parquet"


class ValueNames:
    """The distinct (value name, entry, entry name, product) rows of a catalogue.

    >>> import pyarrow as pa
    >>> t = pa.table({"value_name": ["Blue", "Ocean Blue", "Ocean Blue", "red"], "entry": ["c", "c", "d", "c"],
    ...               "entry_name": ["Colour", "Colour", "Trim", "Colour"], "product": ["p1", "p2", "p2", "p3"]})
    >>> names = ValueNames(t)
    >>> names.entries_holding(r"(^|[^a-z0-9])blue([^a-z0-9]|$)")
    {'c': 2, 'd': 1}
    >>> names.named_values(r"^[A-Z]")
    [('Colour', 'Blue'), ('Colour', 'Ocean Blue'), ('Trim', 'Ocean Blue')]
    """

    def __init__(self, table: Any) -> None:
        import pyarrow.compute as pc

        self._table = table
        self._lock = threading.Lock()
        # the rows come sorted by name: one range of rows per distinct name
        self._names: list[str] = []
        self._ends: list[int] = []
        if table.num_rows:
            runs = pc.run_end_encode(table["value_name"].combine_chunks())
            self._names = runs.values.to_pylist()
            self._ends = runs.run_ends.to_pylist()
        self._lower = [n.lower() for n in self._names]
        self._pairs: list[tuple[str, str]] | None = None

    @classmethod
    def read(cls, path: str | Path) -> ValueNames:
        import pyarrow.parquet as pq

        return cls(pq.read_table(path))

    def write(self, path: str | Path) -> None:
        import pyarrow.parquet as pq

        pq.write_table(self._table, path)

    def entries_holding(self, pattern: str) -> dict[str, int]:
        """Entry -> number of products holding a value whose lower-cased name ``pattern`` finds
        (what ``REGEX(LCASE(STR(?name)), pattern)`` over the store's values gives)."""
        rx = re.compile(pattern)
        held: dict[str, set[str]] = {}
        entry, product = self._table["entry"], self._table["product"]
        for i, name in enumerate(self._lower):
            if rx.search(name) is None:
                continue
            start = self._ends[i - 1] if i else 0
            rows = zip(
                entry.slice(start, self._ends[i] - start).to_pylist(),
                product.slice(start, self._ends[i] - start).to_pylist(),
                strict=True,
            )
            for e, p in rows:
                held.setdefault(e, set()).add(p)
        return {e: len(ps) for e, ps in held.items()}

    def named_values(self, pattern: str, *, limit: int | None = None) -> list[tuple[str, str]]:
        """The distinct (entry name, value name) pairs whose value name (as written) ``pattern``
        finds, sorted."""
        with self._lock:
            if self._pairs is None:
                pairs = self._table.select(["entry_name", "value_name"]).group_by(["entry_name", "value_name"])
                t = pairs.aggregate([]).sort_by([("entry_name", "ascending"), ("value_name", "ascending")])
                self._pairs = list(zip(t["entry_name"].to_pylist(), t["value_name"].to_pylist(), strict=True))
        rx = re.compile(pattern)
        found = [(e, v) for e, v in self._pairs if rx.search(v)]
        return found if limit is None else found[:limit]
