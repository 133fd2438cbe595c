"""The parts of :mod:`dualgraph.corpus.tabular` the Spark import runs on its executors.

They are private there; taking them from one place keeps the Spark import on the very code
``import-table`` runs (reading, converting a row, building a page), and leaves a single spot
to change if ``tabular`` exposes them under public names.
"""

from __future__ import annotations

from dualgraph.corpus.tabular import _Converter as RowConverter
from dualgraph.corpus.tabular import _FileError as TableFileError
from dualgraph.corpus.tabular import _open_rows as open_rows
from dualgraph.corpus.tabular import _pages as pages_from_rows

__all__ = ["ROWS_TABLE", "RowConverter", "TableFileError", "open_rows", "pages_from_rows"]

# the spill table pages_from_rows reads (import_table creates it inline)
ROWS_TABLE = (
    "CREATE TABLE rows (gkey TEXT, seq INTEGER, shown TEXT, file TEXT, label TEXT, name TEXT, variant TEXT, texts TEXT)"
)
