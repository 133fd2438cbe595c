"""What node2vec's graph should hold: rdf:type edges or not, hub nodes or not, measured.

Runs ``dualgraph align`` as a dry run (nothing written to the index; embeddings and reports go
to ``--work``) once per graph choice on each index and prints, side by side, the graph's size,
node2vec's time, recall@1/@10 on the held-out anchors of node2vec alone and of the aligner, and
how many new pairs the judge accepts. The baseline is the default (no type edges, hubs kept).

    .venv/bin/python bench/align_graph_choice.py --index runs/align/icecat/ix --index /tmp/gen/ix \
        [--max-degree 50] [--work runs/align_choice]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from dualgraph.align.job import AlignConfig, align_index


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", action="append", required=True)
    ap.add_argument("--max-degree", type=int, default=50, help="the hub cut-off of the 'no hubs' choice")
    ap.add_argument("--work", default="runs/align_choice")
    args = ap.parse_args()
    choices = {
        "default (no types, hubs kept)": {},
        "with rdf:type edges": {"keep_types": True},
        f"hubs cut (degree > {args.max_degree})": {"max_degree": args.max_degree},
    }
    rows = []
    for index in args.index:
        for label, change in choices.items():
            work = Path(args.work) / Path(index).parent.name / label.split()[0]
            r = align_index(index, AlignConfig(**change), write=False, out_dir=work)
            rec = r.get("recall", {}).get("all", {})
            rows.append(
                {
                    "index": index,
                    "graph": label,
                    "nodes": r["graph"]["nodes"],
                    "edges": r["graph"]["edges"],
                    "node2vec_s": r["seconds"]["node2vec"],
                    "n2v_r@1": rec.get("node2vec", {}).get("recall@1"),
                    "n2v_r@10": rec.get("node2vec", {}).get("recall@10"),
                    "aligner_r@1": rec.get("aligner", {}).get("recall@1"),
                    "aligner_r@10": rec.get("aligner", {}).get("recall@10"),
                    "new_pairs": r.get("accepted", {}).get("new"),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    cols = list(rows[0])
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row.values()) + " |")


if __name__ == "__main__":
    main()
