"""Ray Job: bulk-answer a questions file on the cluster this job runs in (``ray_address="auto"``).

The index directory must be on storage every worker sees; each engine actor opens it read-only.
"""

from __future__ import annotations

import argparse

from dualgraph import DualGraph
from dualgraph.answer.strategies import STRATEGIES
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("index")
    ap.add_argument("questions")
    ap.add_argument("out")
    ap.add_argument("--strategy", choices=STRATEGIES, default="skg+tkg_fb")
    ap.add_argument("--concurrency", type=int, default=None, help="engine actors (default: up to 2 per node's CPUs)")
    ap.add_argument("--batch-size", type=int, default=16)
    return ap


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    cfg = BulkAnswerConfig(runner="ray", ray_address="auto", concurrency=args.concurrency, batch_size=args.batch_size)
    # each engine actor opens the index itself (DualGraph.engine_spec); SIGTERM unwinds with Ray's connection closed
    report = DualGraph(args.index, strategy=args.strategy).ask_file(args.questions, args.out, bulk=cfg)
    print(report.model_dump_json(indent=2))


if __name__ == "__main__":
    main()
