"""The parts of :mod:`dualgraph.corpus.tabular` the Spark import runs on its executors: the very
code ``import-table`` runs (reading, converting a row, building a page), taken from one place."""

from __future__ import annotations

from dualgraph.corpus.tabular import ROWS_TABLE, RowConverter, TableFileError, open_rows, pages_from_rows

__all__ = ["ROWS_TABLE", "RowConverter", "TableFileError", "open_rows", "pages_from_rows"]
