"""Spark job: components, hubs and cross-market duplicates of an index's SKG (see jobs/README.md)."""

from __future__ import annotations

import sys

from dualgraph.spark.cli import graph_main

if __name__ == "__main__":
    sys.exit(graph_main())
