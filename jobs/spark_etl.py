"""Spark job: table dumps (CSV/TSV, Parquet, JSON Lines) to dataset directories, with the options
and mapping files of ``dualgraph import-table`` (see jobs/README.md)."""

from __future__ import annotations

import sys

from dualgraph.spark.cli import etl_main

if __name__ == "__main__":
    sys.exit(etl_main())
