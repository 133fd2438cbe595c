"""Ray Job: train the aligner on an index (``dualgraph align --index INDEX --ray`` on this cluster).

node2vec runs as a Ray task on the cluster (``ray_address="auto"`` when submitted with ``ray job
submit``); the heads train on the driver, on a GPU when the driver has one. INDEX must be on
storage the workers see. ``--config`` takes the same YAML as ``dualgraph align --config``.
"""

from __future__ import annotations

import argparse
import json

import yaml

from dualgraph.align.job import AlignConfig, align_index, summary
from dualgraph.pipeline.ray_session import ray_session


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("index")
    ap.add_argument("--config", help="YAML config file (keys of AlignConfig)")
    ap.add_argument("--dry-run", action="store_true", help="report only; write nothing")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    config = AlignConfig()
    if args.config:
        with open(args.config, encoding="utf-8") as f:
            config = AlignConfig.model_validate(yaml.safe_load(f) or {})
    # SIGTERM (`ray job stop`) unwinds with Ray's connection closed; a rerun reuses the saved embeddings
    with ray_session():
        report = align_index(args.index, config, use_ray=True, progress=False, write=not args.dry_run)
    print(json.dumps(summary(report), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
