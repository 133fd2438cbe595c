"""The spec values and numbers of every product as two tables, written beside the N-Quads shards,
so the pattern statistics are counted without a query over the whole store.

The pattern index needs, per entry, value, unit and label, how many products hold them and
the range of their numbers (:mod:`dualgraph.query.pattern_collection`). As SPARQL aggregates
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["QUANTITY_COLUMNS", "VALUE_COLUMNS", "SpecTables", "pattern_rows", "read_spec_tables", "write_spec_tables"]

VALUE_COLUMNS = ("product", "entry", "section_name", "entry_name", "value", "value_name", "spec", "quantity")
"""A row per spec value: ``spec`` is the spec node, ``quantity`` is ``"1"`` when the converter read a
quantity in the value (the spec has ``skg:hasQuantity``) and ``""`` when it did not."""
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
    """The rows of the spec queries of :mod:`~dualgraph.query.pattern_collection`, counted from
    the tables: keys ``entries``, ``values``, ``numeric``, ``labels_meet``, ``numeric_mode``.

    As in SPARQL, products are counted once however many documents (markets) hold them, an
    absent unit or dimension is a missing column and an absent label is ``""``.
    """
    import pyarrow.compute as pc

    v, q = tables.values, tables.quantities
    out: dict[str, list[dict[str, str]]] = {}
    entries = v.group_by("entry").aggregate(
        [
            ("entry_name", "min"),
            ("section_name", "min"),
            ("product", "count_distinct"),
            ("value", "count_distinct"),
        ]
    )
    out["entries"] = [
        {"e": r["entry"], "entry": r["entry_name_min"], "section": r["section_name_min"],
         "products": str(r["product_count_distinct"]), "distinct": str(r["value_count_distinct"])}
        for r in entries.to_pylist()
    ]  # fmt: skip
    values = v.group_by(["entry", "value"]).aggregate([("value_name", "min"), ("product", "count_distinct")])
    out["values"] = [
        {"e": r["entry"], "v": r["value"], "name": r["value_name_min"], "products": str(r["product_count_distinct"])}
        for r in values.to_pylist()
    ]
    q = q.append_column("n", pc.cast(q["number"], "float64"))
    keys = ["entry", "unit", "dimension", "label"]
    numeric = q.group_by(keys).aggregate([("n", "min"), ("n", "max"), ("product", "count_distinct")])
    lexical = _lexical_numbers(q)
    out["numeric"] = [
        _optional(r, lo=lexical[r["n_min"]], hi=lexical[r["n_max"]], products=str(r["product_count_distinct"]))
        for r in numeric.to_pylist()
    ]
    modes = q.group_by([*keys, "number"]).aggregate([("product", "count_distinct")])
    out["numeric_mode"] = [
        _optional(r, n=r["number"], products=str(r["product_count_distinct"])) for r in modes.to_pylist()
    ]
    meet = q.group_by(["product", "entry", "unit"]).aggregate([("label", "distinct")])
    out["labels_meet"] = [
        {"e": r["entry"], "u": r["unit"], "labels": "\x1f".join(r["label_distinct"])}
        for r in meet.to_pylist()
        if len(r["label_distinct"]) > 1
    ]
    return out


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
