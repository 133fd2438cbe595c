"""The spec values and numbers of every product as two tables, written beside the N-Quads shards,
so the pattern statistics are counted without a query over the whole store.

The pattern index needs, per entry, value, unit and label, how many products hold them and
the range of their numbers (:mod:`dualgraph.lexicon.pattern_collection`). As SPARQL aggregates
over the store that takes five passes over every spec: 16 s on a 2,000-product catalog, and
it grows with the catalog on each re-index, even after a change to one document. The
converter already knows every row, so each shard gets two Parquet files, and
:func:`pattern_rows` counts the live rows with Arrow's group-by, giving the rows the SPARQL
queries would give (same columns, same lexical numbers), so both paths build the same patterns.

Rows carry the document's graph and content hash: a shard can hold an older version of a
document that was converted again since, and only rows of what is loaded now count.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "HOLDER_COLUMNS",
    "QUANTITY_COLUMNS",
    "UNIT_SEP",
    "VALUE_COLUMNS",
    "VALUE_NAME_COLUMNS",
    "SpecTables",
    "holder_rows",
    "iter_rows",
    "pattern_rows",
    "read_spec_tables",
    "value_name_rows",
    "write_spec_tables",
]

VALUE_COLUMNS = (
    "product", "entry", "section_name", "entry_name", "value", "value_name", "spec", "quantity", "units"
)  # fmt: skip
"""A row per spec value: ``spec`` is the spec node, ``quantity`` is ``"1"`` when the converter read a
quantity in the value (the spec has ``skg:hasQuantity``) and ``""`` when it did not; ``units`` are
the units of those quantities (``skg:hasUnit``, sizes of several numbers too), joined by
:data:`UNIT_SEP`."""
UNIT_SEP = "\x1f"
QUANTITY_COLUMNS = ("product", "entry", "number", "unit", "dimension", "label")
_KEY_COLUMNS = ("graph", "content_hash")


@dataclass(frozen=True)
class SpecTables:
    """The live value and quantity rows of an index (``pyarrow.Table`` each)."""

    values: Any
    quantities: Any


def companion_paths(shard: str | os.PathLike) -> tuple[Path, Path]:
    """The two tables written beside an N-Quads shard file."""
    base = Path(shard)
    stem = base.name.removesuffix(".nq")
    return base.with_name(stem + ".values.parquet"), base.with_name(stem + ".quantities.parquet")


def write_spec_tables(
    shard: str | os.PathLike,
    docs: Iterable[tuple[str, str, Sequence[Sequence[str]], Sequence[Sequence[str]]]],
) -> None:
    """Write the companions of ``shard`` from ``(graph, content hash, value rows, quantity rows)``
    per document (rows as :data:`VALUE_COLUMNS` / :data:`QUANTITY_COLUMNS` tuples)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    docs = list(docs)
    for path, columns, pick in zip(
        companion_paths(shard), (VALUE_COLUMNS, QUANTITY_COLUMNS), (lambda d: d[2], lambda d: d[3]), strict=True
    ):
        data: dict[str, list[str]] = {c: [] for c in (*_KEY_COLUMNS, *columns)}
        for doc in docs:
            for row in pick(doc):
                data["graph"].append(doc[0])
                data["content_hash"].append(doc[1])
                for c, x in zip(columns, row, strict=True):
                    data[c].append(x)
        table = pa.table({c: pa.array(v, pa.string()) for c, v in data.items()})
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, path)


def read_spec_tables(shards: Iterable[str], live: set[tuple[str, str]]) -> SpecTables | None:
    """The rows of the documents in ``live`` (graph, content hash) from ``shards``' companions;
    None when a shard has none (written before the tables existed: the caller asks the store)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    keys = pa.array(sorted(f"{g}\x1f{h}" for g, h in live), pa.string())
    parts: tuple[list[Any], list[Any]] = ([], [])
    for shard in sorted(set(shards)):
        paths = companion_paths(shard)
        if not all(p.is_file() for p in paths):
            return None
        for path, out in zip(paths, parts, strict=True):
            table = pq.read_table(path)
            key = pc.binary_join_element_wise(table["graph"], table["content_hash"], "\x1f")
            out.append(table.filter(pc.is_in(key, value_set=keys)))
    empty = (
        pa.table({c: pa.array([], pa.string()) for c in (*_KEY_COLUMNS, *columns)})
        for columns in (VALUE_COLUMNS, QUANTITY_COLUMNS)
    )
    values, quantities = (
        # shards written before a column existed give nulls there (readers that need it check)
        pa.concat_tables(tables, promote_options="default") if tables else blank
        for tables, blank in zip(parts, empty, strict=True)
    )
    return SpecTables(values, quantities)


def pattern_rows(tables: SpecTables) -> dict[str, list[dict[str, str]]]:
    """The rows of the spec queries of :mod:`~dualgraph.lexicon.pattern_collection`, counted from
    the tables: keys ``entries``, ``values``, ``numeric``, ``labels_meet``, ``numeric_mode``.

    As in SPARQL, products are counted once however many documents (markets) hold them, an
    absent unit or dimension is a missing column and an absent label is ``""``.

    The group-bys run on integer codes of the strings (:class:`_Coded`): on the IRIs themselves
    Arrow's hash tables held about 0.8 KB a spec row, 2 GB at 100k products.
    """
    import pyarrow.compute as pc

    v = _Coded(tables.values, ("entry", "product", "value", "entry_name", "section_name", "value_name"))
    out: dict[str, list[dict[str, str]]] = {}
    entries = v.table.group_by("entry").aggregate([("product", "count_distinct"), ("value", "count_distinct")])
    entry_name, section_name = v.least("entry_name", "entry"), v.least("section_name", "entry")
    out["entries"] = [
        {"e": v.name("entry", e), "entry": entry_name[e], "section": section_name[e],
         "products": str(products), "distinct": str(distinct)}
        for e, products, distinct in zip(*_lists(entries, "entry", "product_count_distinct", "value_count_distinct"))
    ]  # fmt: skip
    values = v.table.group_by(["entry", "value"]).aggregate([("product", "count_distinct")])
    value_name = v.least("value_name", "entry", "value")
    out["values"] = [
        {"e": v.name("entry", e), "v": v.name("value", x), "name": value_name[e, x], "products": str(n)}
        for e, x, n in zip(*_lists(values, "entry", "value", "product_count_distinct"))
    ]
    keys = ("entry", "unit", "dimension", "label")
    q = _Coded(tables.quantities, ("product", *keys, "number"))
    numbers = q.table.append_column("n", pc.cast(tables.quantities["number"], "float64"))
    numeric = numbers.group_by(list(keys)).aggregate([("n", "min"), ("n", "max"), ("product", "count_distinct")])
    lexical = _lexical_numbers(tables.quantities.append_column("n", numbers["n"]))
    out["numeric"] = [
        _optional(q.names(keys, r), lo=lexical[r[4]], hi=lexical[r[5]], products=str(r[6]))
        for r in zip(*_lists(numeric, *keys, "n_min", "n_max", "product_count_distinct"))
    ]
    modes = q.table.group_by([*keys, "number"]).aggregate([("product", "count_distinct")])
    out["numeric_mode"] = [
        _optional(q.names(keys, r), n=q.name("number", r[4]), products=str(r[5]))
        for r in zip(*_lists(modes, *keys, "number", "product_count_distinct"))
    ]
    meet = q.table.group_by(["product", "entry", "unit"]).aggregate([("label", "distinct")])
    out["labels_meet"] = [
        {"e": q.name("entry", e), "u": q.name("unit", u), "labels": "\x1f".join(q.name("label", x) for x in labels)}
        for e, u, labels in zip(*_lists(meet, "entry", "unit", "label_distinct"))
        if len(labels) > 1
    ]
    return out


HOLDER_COLUMNS = ("entry", "unit", "product")
"""A row per product holding an entry: ``unit`` is ``""`` for the entry at all, else the unit of a
quantity the product states in it (:func:`holder_rows`)."""


def holder_rows(tables: SpecTables) -> Any | None:
    """Which products hold each entry, and each (entry, unit): the rows of ``SELECT DISTINCT ?e ?u ?p
    WHERE { ?s skg:inEntry ?e . ?p skg:hasSpec ?s . OPTIONAL { ?s skg:hasQuantity/skg:hasUnit ?u } }``
    as :data:`HOLDER_COLUMNS`, distinct and sorted by entry then unit: a reader takes one entry's
    rows as a slice, where the query walks every spec of the catalogue.

    None for rows written before the ``units`` column.

    >>> import pyarrow as pa
    >>> v = pa.table({"product": ["p1", "p1", "p2"], "entry": ["e", "e", "e"], "units": ["mAh", "", "W\x1fmAh"]})
    >>> [tuple(r.values()) for r in holder_rows(SpecTables(v, None)).to_pylist()]
    [('e', '', 'p1'), ('e', '', 'p2'), ('e', 'W', 'p2'), ('e', 'mAh', 'p1'), ('e', 'mAh', 'p2')]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    v = tables.values
    if "units" not in v.column_names or v["units"].null_count:
        return None  # rows of an older converter: the caller asks the store
    said = pa.table({"entry": v["entry"], "unit": pa.array([""] * v.num_rows, pa.string()), "product": v["product"]})
    measured = v.filter(pc.not_equal(v["units"], ""))
    units = pc.split_pattern(measured["units"], UNIT_SEP)
    at = pc.list_parent_indices(units)
    per_unit = pa.table(
        {"entry": measured["entry"].take(at), "unit": pc.list_flatten(units), "product": measured["product"].take(at)}
    )
    rows = pa.concat_tables([said, per_unit.cast(said.schema)])
    # distinct on integer codes: a hash group-by on the IRIs holds about a kilobyte a row
    coded = _Coded(rows, HOLDER_COLUMNS)
    keys = coded.table.group_by(list(HOLDER_COLUMNS)).aggregate([])
    out = pa.table({c: pa.array(coded.names_of(c), pa.string()).take(keys[c]) for c in HOLDER_COLUMNS})
    return out.sort_by([("entry", "ascending"), ("unit", "ascending"), ("product", "ascending")])


VALUE_NAME_COLUMNS = ("value_name", "entry", "entry_name", "product")
"""A row per product holding a value of an entry under a name (:func:`value_name_rows`)."""


def value_name_rows(tables: SpecTables) -> Any:
    """The rows of ``SELECT DISTINCT ?vn ?e ?en ?p WHERE { ?v a skgt:Value ; skg:hasName ?vn .
    ?s skg:hasValue ?v ; skg:inEntry ?e . ?e skg:hasName ?en . ?p skg:hasSpec ?s }`` as
    :data:`VALUE_NAME_COLUMNS`, distinct and sorted by value name: a question's word tested
    against each distinct name once, where the query tests a regular expression on every value
    of the catalogue. A value node spelled two ways ("5G", "5g") carries both names, so every
    product holding it comes under each (and an entry under each of its names).

    >>> import pyarrow as pa
    >>> v = pa.table({"product": ["p1", "p2", "p2"], "entry": ["e", "e", "e"], "entry_name": ["E", "E", "E"],
    ...               "value": ["v", "v", "w"], "value_name": ["Red", "red", "Blue"]})
    >>> [tuple(r.values()) for r in value_name_rows(SpecTables(v, None)).to_pylist()]
    [('Blue', 'e', 'E', 'p2'), ('Red', 'e', 'E', 'p1'), ('Red', 'e', 'E', 'p2'), ('red', 'e', 'E', 'p1'), ('red', 'e', 'E', 'p2')]
    """
    import pyarrow as pa

    coded = _Coded(tables.values, ("value", *VALUE_NAME_COLUMNS))
    t = coded.table
    held = t.group_by(["value", "entry", "product"]).aggregate([])
    value_names = t.group_by(["value", "value_name"]).aggregate([])
    entry_names = t.group_by(["entry", "entry_name"]).aggregate([])
    rows = held.join(value_names, "value").join(entry_names, "entry")
    keys = rows.group_by(list(VALUE_NAME_COLUMNS)).aggregate([])
    out = pa.table({c: pa.array(coded.names_of(c), pa.string()).take(keys[c]) for c in VALUE_NAME_COLUMNS})
    return out.sort_by([(c, "ascending") for c in VALUE_NAME_COLUMNS])


class _Coded:
    """Some string columns of a table as integer codes (nulls kept), with the strings of the codes."""

    def __init__(self, table: Any, columns: Sequence[str]) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        codes, self._names = {}, {}
        for c in columns:
            coded = pc.dictionary_encode(table[c]).combine_chunks()
            codes[c], self._names[c] = coded.indices, coded.dictionary.to_pylist()
        self.table = pa.table(codes)

    def name(self, column: str, code: int | None) -> Any:
        return None if code is None else self._names[column][code]

    def names_of(self, column: str) -> list[Any]:
        """Every string of ``column``, at its code."""
        return self._names[column]

    def names(self, columns: Sequence[str], codes: Sequence[int | None]) -> dict[str, Any]:
        return {c: self.name(c, code) for c, code in zip(columns, codes)}

    def least(self, column: str, *by: str) -> defaultdict[Any, Any]:
        """The least string of ``column`` for each code of ``by``; None where all are null (Arrow's ``min``)."""
        pairs = self.table.group_by([*by, column]).aggregate([])
        out: defaultdict[Any, Any] = defaultdict(lambda: None)
        for *key, code in zip(*_lists(pairs, *by, column)):
            k = key[0] if len(key) == 1 else tuple(key)
            s = self.name(column, code)
            if s is not None and (k not in out or s < out[k]):
                out[k] = s
        return out


def iter_rows(table: Any, columns: Sequence[str], *, batch_rows: int = 65_536) -> Iterator[tuple[Any, ...]]:
    """The rows of ``columns`` as tuples, a batch at a time: as Python strings, a whole table of a
    large catalog takes gigabytes (millions of rows, a string object per cell).

    >>> import pyarrow as pa
    >>> list(iter_rows(pa.table({"a": ["x", "y"], "b": [1, 2]}), ("b", "a"), batch_rows=1))
    [(1, 'x'), (2, 'y')]
    """
    for batch in table.select(list(columns)).to_batches(max_chunksize=batch_rows):
        yield from zip(*(batch.column(i).to_pylist() for i in range(len(columns))), strict=True)


def _lists(table: Any, *columns: str) -> list[list[Any]]:
    return [table[c].to_pylist() for c in columns]


def _lexical_numbers(q: Any) -> dict[float, str]:
    """Each number's written form by its value (the converter writes one form per value)."""
    import pyarrow.compute as pc

    pairs = q.select(["n", "number"]).group_by("n").aggregate([("number", "min")])
    return dict(zip(pairs["n"].to_pylist(), pc.cast(pairs["number_min"], "string").to_pylist(), strict=True))


def _optional(r: dict[str, Any], **extra: str) -> dict[str, str]:
    # SPARQL leaves an unbound unit or dimension out of the row; the label is bound to "" instead
    row = {"e": r["entry"], "l": r["label"], **extra}
    if r["unit"]:
        row["u"] = r["unit"]
    if r["dimension"]:
        row["d"] = r["dimension"]
    return row
