"""Ray Job: index a catalog on the cluster this job runs in (``ray_address="auto"``)."""

from __future__ import annotations

import argparse
import json

from dualgraph.config import IndexConfig
from dualgraph.pipeline.index import build_index


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dataset")
    ap.add_argument("index")
    ap.add_argument("--batch-size", type=int, default=256)
    args = ap.parse_args()
    cfg = IndexConfig(runner="ray", ray_address="auto", batch_size=args.batch_size, progress=True)
    print(json.dumps(build_index(args.dataset, args.index, cfg), indent=2))


if __name__ == "__main__":
    main()
