"""Spark job: the aligner's node2vec graph of an index (see jobs/README.md), for `dualgraph align --graph`."""

from __future__ import annotations

import sys

from dualgraph.spark.cli import node2vec_graph_main

if __name__ == "__main__":
    sys.exit(node2vec_graph_main())
