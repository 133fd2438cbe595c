"""The columns that travel between the index stages, each with its Arrow type and what it holds.

A stage (:class:`~dualgraph.pipeline.stage.Stage`) names the columns it needs and adds; their types
live here, once, so a stage that adds a column of the wrong shape fails at the batch that did it
(:func:`check_columns`) instead of at whatever reads it hours later, and Ray Data carries the
batches as typed Arrow tables rather than JSON text inside strings.

Nested values are lists of structs (a variant's specs, a document's problems, a converter's spec
rows); an optional value is a null, never an empty string standing for one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyarrow as pa

from dualgraph.skg.spec_table import QUANTITY_COLUMNS, VALUE_COLUMNS


def _struct(*names: str, **typed: pa.DataType) -> pa.DataType:
    return pa.struct([*((n, pa.string()) for n in names), *typed.items()])


PROBLEM = _struct("file", "record", "stage", "reason")
"""A record that could not be used (:class:`~dualgraph.quarantine.Quarantine`)."""
VARIANT = _struct("name", "prod_range", categories=pa.list_(pa.string()), specs=pa.list_(_struct("key", "value")))
"""One product variant as read from its page (:class:`~dualgraph.corpus.model.Variant`)."""
CHUNK = _struct("chunk_id", "doc_id", "text", "section", ordinal=pa.int32(), products=pa.list_(pa.string()))
MENTION = _struct("name", "description", "chunk_id")
USAGE = _struct(
    "stage",
    calls=pa.int64(),
    items=pa.int64(),
    cache_hits=pa.int64(),
    prompt_tokens=pa.int64(),
    completion_tokens=pa.int64(),
    seconds=pa.float64(),
)
COVERAGE = _struct(
    "entry", values=pa.int64(), with_digits=pa.int64(), quantities=pa.int64(), dates=pa.int64(), text=pa.int64()
)
STAMP = _struct("key", taken_ns=pa.int64(), files=pa.list_(_struct("path", stat=pa.list_(pa.int64()))))
"""What a document's files stat as (:class:`~dualgraph.corpus.stamps.FileStamp`); a file's stat is
null when it could not be taken."""


@dataclass(frozen=True)
class Column:
    """A column's Arrow type and a line on what it holds."""

    type: pa.DataType
    description: str


COLUMNS: dict[str, Column] = {
    "meta_path": Column(pa.string(), "the document's metadata file, relative to the dataset directory"),
    "market": Column(pa.string(), "the market the run indexes (a code; the default market's is 'default')"),
    "known_hash": Column(pa.string(), "the content hash the driver found unchanged; null when not compared"),
    "doc_id": Column(pa.string(), "the document directory's name: keys its graph and its record"),
    "source": Column(pa.string(), "where the document was read from"),
    "content_hash": Column(pa.string(), "hash of the document's files and of what decides its output"),
    "status": Column(pa.string(), "ok (read and converted), unchanged (skipped) or quarantined"),
    "variants": Column(pa.list_(VARIANT), "the product variants of the page's spec tables"),
    "problems": Column(pa.list_(PROBLEM), "records of the document left out, each with why"),
    "text": Column(pa.large_string(), "the page's prose (Markdown)"),
    "products": Column(
        pa.list_(_struct("iri", "name")), "the document's products: IRI in the Symbolic KG and display name"
    ),
    "stamp": Column(STAMP, "what the document's files stat as, to skip reading them next time; null when not taken"),
    "nquads": Column(pa.large_string(), "the document's triples, N-Quads in its own graph"),
    "n_quads": Column(pa.int64(), "how many quads the converter wrote"),
    "n_products": Column(pa.int64(), "how many products the converter wrote"),
    "n_specs": Column(pa.int64(), "how many specs the converter wrote"),
    "kept_as_text": Column(pa.list_(_struct("record", "value", "reason")), "number-like values stored as text"),
    "coverage": Column(pa.list_(COVERAGE), "per spec entry: value parts read as quantities, dates or text"),
    "value_rows": Column(pa.list_(_struct(*VALUE_COLUMNS)), "the spec table's value rows (skg.spec_table)"),
    "quantity_rows": Column(pa.list_(_struct(*QUANTITY_COLUMNS)), "the spec table's quantity rows"),
    "shard_path": Column(pa.string(), "the N-Quads shard holding the document's triples; empty when none"),
    "chunks": Column(pa.list_(CHUNK), "the page text cut into chunks for the Textual KG"),
    "mentions": Column(pa.list_(MENTION), "entity mentions the extractors found in the chunks"),
    "extract_usage": Column(pa.list_(USAGE), "model usage of the extract stage's batch, on its first row only"),
    "tkg_shard": Column(pa.string(), "key of the text graph's shard files holding the document; empty when none"),
}


def schema(names: tuple[str, ...] | list[str]) -> pa.Schema:
    """The Arrow schema of these columns, in this order.

    >>> schema(["doc_id", "n_quads"])
    doc_id: string
    n_quads: int64
    """
    return pa.schema([(n, column(n).type) for n in names])


def column(name: str) -> Column:
    try:
        return COLUMNS[name]
    except KeyError:
        raise KeyError(f"no index column {name!r} is declared in dualgraph.pipeline.columns") from None


def check_columns(stage: str, rows: list[dict[str, Any]], names: tuple[str, ...]) -> None:
    """Raise :class:`TypeError` naming the stage, column and row when a value does not fit its type.

    >>> check_columns("read", [{"n_quads": 3}], ("n_quads",))
    >>> check_columns("read", [{"n_quads": "3"}], ("n_quads",))
    Traceback (most recent call last):
    ...
    TypeError: stage 'read' wrote column 'n_quads' (int64) that does not fit: row 0 holds '3'
    """
    for name in names:
        kind = column(name).type
        values = [r[name] for r in rows]
        try:
            pa.array(values, type=kind)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
            bad = next(i for i, v in enumerate(values) if not _fits(v, kind))
            raise TypeError(
                f"stage {stage!r} wrote column {name!r} ({kind}) that does not fit: row {bad} holds {values[bad]!r:.200}"
            ) from None


def _fits(value: Any, kind: pa.DataType) -> bool:
    try:
        pa.array([value], type=kind)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError, OverflowError):
        return False
    return True
