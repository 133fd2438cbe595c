"""The SKG's quads as one Parquet table, the input of :mod:`dualgraph.spark.graph`.

The store is the truth: the N-Quads shards of an index can still hold older versions of
documents converted again since, so the export reads the Oxigraph store itself (read-only,
so a query server on the same index may keep it open). Needs no Spark: run it where the
index is, copy the Parquet file where the cluster reads.

Columns (all strings; ``g`` is ``""`` for the default graph)::

    s  p  o  o_kind (iri | literal | bnode | triple)  o_datatype  o_lang  g
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from dualgraph.pipeline.layout import IndexLayout

__all__ = ["TRIPLE_COLUMNS", "export_triples"]

TRIPLE_COLUMNS = ("s", "p", "o", "o_kind", "o_datatype", "o_lang", "g")


def _term(term: Any) -> tuple[str, str, str, str]:
    """(lexical form, kind, datatype, language) of one RDF term."""
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return term.value, "iri", "", ""
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}", "bnode", "", ""
    if isinstance(term, ox.Literal):
        return term.value, "literal", term.datatype.value, term.language or ""
    return str(term), "triple", "", ""  # RDF-star: kept as text, the analytics never look inside


def _store_path(index_or_store: str | Path) -> Path:
    path = Path(index_or_store)
    store = IndexLayout(path).store
    return store if store.is_dir() else path


def export_triples(
    index_or_store: str | Path, out: str | Path, *, batch_rows: int = 200_000, progress: bool = True
) -> int:
    """Write every quad of the store under ``index_or_store`` (an index dir or the store dir itself)
    to the Parquet file ``out``, ``batch_rows`` per row group; returns the quads written."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import pyoxigraph as ox

    from dualgraph.stores.base import StoreError

    path = _store_path(index_or_store)
    if not (path / "CURRENT").is_file():
        raise StoreError(f"no Oxigraph store at {path} (give an index directory or its skg/oxigraph)")
    schema = pa.schema([(c, pa.string()) for c in TRIPLE_COLUMNS])
    store = ox.Store.read_only(str(path))
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    started, n = time.monotonic(), 0
    cols: dict[str, list[str]] = {c: [] for c in TRIPLE_COLUMNS}
    with pq.ParquetWriter(tmp, schema) as writer:

        def flush() -> None:
            writer.write_table(pa.table(cols, schema=schema))
            for v in cols.values():
                v.clear()
            if progress:
                print(f"export-triples: {n} quads ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

        for quad in store.quads_for_pattern(None, None, None, None):
            s, _, _, _ = _term(quad.subject)
            o, kind, dtype, lang = _term(quad.object)
            g = "" if isinstance(quad.graph_name, ox.DefaultGraph) else _term(quad.graph_name)[0]
            for c, v in zip(TRIPLE_COLUMNS, (s, quad.predicate.value, o, kind, dtype, lang, g)):
                cols[c].append(v)
            n += 1
            if n % batch_rows == 0:
                flush()
        if cols["s"] or n == 0:
            flush()
    tmp.replace(out)
    return n
