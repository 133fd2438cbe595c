"""Ray Job: index a catalog on the cluster this job runs in (``ray_address="auto"``).

The same build as ``dualgraph index DATASET --index INDEX --ray-address auto``: ``--config`` takes
the same YAML file (keys of ``IndexConfig``, e.g. a SPARQL server under ``store:``), and the
runner and address are always Ray and this cluster. DATASET and INDEX must be on storage every
worker sees (a shared volume on Kubernetes).
"""

from __future__ import annotations

import argparse
import json

from dualgraph import DualGraph
from dualgraph.config import IndexConfig


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dataset")
    ap.add_argument("index")
    ap.add_argument("--config", help="YAML config file (keys of IndexConfig), as for `dualgraph index --config`")
    ap.add_argument("--batch-size", type=int, default=None, help="documents per batch/shard (default: the config's)")
    ap.add_argument("--market", help="the country/shop this directory is the full snapshot of (default: default)")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    cfg = IndexConfig.load(args.config, runner="ray", ray_address="auto", batch_size=args.batch_size)
    # SIGTERM (`ray job stop`, a pod going away) unwinds with Ray's connection closed; a rerun resumes
    graph = DualGraph.build(args.dataset, args.index, config=cfg, market=args.market)
    print(json.dumps(graph.manifest, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
