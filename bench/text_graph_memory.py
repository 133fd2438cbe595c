"""Peak memory and time of putting the text graph's N-Quads into the store: the old way (one
big string, split and stripped into lists, hashed against the saved file read whole) against
the streaming way (lines piped into an on-disk ``sort -u``, one merge pass against the saved file).

The 100k-product catalog was killed at 24 GB building ~17M such lines; this builds N synthetic
ones shaped like the text graph's (statement nodes with evidence sentences, mentions, has/lacks
edges, about a tenth repeated as the generators repeat them). Each way runs in a child process
of its own, so ``ru_maxrss`` is that way's peak: a first sync (the graph loaded whole), then a
second one after about 1 % of the lines changed (the difference path). The store is a stub
that only counts, so the numbers are the text-graph path's alone, not Oxigraph's.

    python bench/text_graph_memory.py --lines 2000000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

G = "http://dualgraph.example/skg/text"
SKG = "http://dualgraph.example/skg#"


def synthetic_lines(n: int, *, version: int, changed: float = 0.01) -> Iterator[str]:
    """``n`` quad lines (plus ~10 % repeats); ``version`` 1 rewrites about ``changed`` of them."""
    step = max(1, round(1 / changed))
    for i in range(n):
        v = version if i % step == 0 else 0
        node = f"<{SKG}statement-{hashlib.blake2b(f'{i}'.encode(), digest_size=8).hexdigest()}>"
        kind = i % 4
        if kind == 0:
            line = f'{node} <{SKG}evidence> "Product {i // 4} (v{v}) has a bright 6.{i % 9}-inch display and keeps the headphone jack." <{G}> .\n'
        elif kind == 1:
            line = f"<{SKG}product-{i // 40}> <{SKG}mentions> <{SKG}entity-feature-{i % 5000}-v{v}> <{G}> .\n"
        elif kind == 2:
            line = f"{node} <{SKG}aboutProduct> <{SKG}product-{i // 40}> <{G}> .\n"
        else:
            line = f"<{SKG}product-{i // 40}> <{SKG}hasTextFeature> <{SKG}entity-feature-{i % 5000}-v{v}> <{G}> .\n"
        yield line
        if i % 10 == 0:
            yield line  # the generators repeat lines; the graph holds each once


class CountingStore:
    """Just enough of a store for a sync: quad counts, nothing kept."""

    def __init__(self) -> None:
        self.quads = 0

    def count(self, *, graph: str) -> int:
        return self.quads

    def drop_graph(self, graph: str) -> None:
        self.quads = 0

    def update(self, sparql: str) -> None:
        self.quads -= sparql.count("\n") - 1  # DELETE DATA: one triple a line between the braces

    def bulk_load(self, path: Any, *, format: str) -> int:
        with open(path, "rb") as fh:
            n = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
        self.quads += n
        return n


def old_sync_graph(store: Any, graph: str, lines: Sequence[str], saved: Path, *, batch: int = 2000) -> dict:
    """The in-memory sync this replaced (dualgraph.pipeline.graph_sync before streaming), as it was."""
    marker = saved.with_name(saved.name + ".pending")
    lines = [line.rstrip() for line in lines if line.strip()]
    tail = f" <{graph}> ."
    for line in lines:
        if not line.endswith(tail):
            raise ValueError(line)
    old: list[str] | None = None
    if saved.is_file() and not marker.exists():
        old = [line for line in saved.read_text(encoding="utf-8").splitlines() if line.strip()]
        if store.count(graph=graph) != len(old):
            old = None
    marker.write_text("started\n", encoding="utf-8")
    if old is None:
        store.drop_graph(graph)
        removed, added = 0, lines
    else:
        new_h = np.fromiter((hash(x) for x in lines), dtype=np.int64, count=len(lines))
        old_h = np.fromiter((hash(x) for x in old), dtype=np.int64, count=len(old))
        gone = [old[i] for i in np.flatnonzero(~np.isin(old_h, new_h))]
        added = [lines[i] for i in np.flatnonzero(~np.isin(new_h, old_h))]
        for start in range(0, len(gone), batch):
            body = "\n".join(x[: -len(tail)] + " ." for x in gone[start : start + batch])
            store.update(f"DELETE DATA {{ GRAPH <{graph}> {{\n{body}\n}} }}")
        removed = len(gone)
    if added:
        fd, tmp = tempfile.mkstemp(suffix=".nq", dir=saved.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("\n".join(added) + "\n")
        store.bulk_load(tmp, format="nquads")
        os.unlink(tmp)
    tmp_saved = saved.with_name(saved.name + ".tmp")
    tmp_saved.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    os.replace(tmp_saved, saved)
    marker.unlink()
    return {"removed": removed, "added": len(added), "kept": len(lines) - len(added), "reloaded": old is None}


def run_one(way: str, n: int, folder: Path) -> dict:
    from dualgraph.pipeline.graph_sync import sync_graph

    store, saved, out = CountingStore(), folder / "text_facts.nq", {}
    for version in (0, 1):
        t0 = time.perf_counter()
        if way == "old":
            # what build_tkg did: a set, sorted and joined, then split for the sync
            facts = "".join(sorted(set(synthetic_lines(n, version=version))))
            r = old_sync_graph(store, G, facts.splitlines(), saved)
            del facts
        else:
            r = sync_graph(store, G, synthetic_lines(n, version=version), saved)
        out[f"sync {version + 1}"] = {"seconds": round(time.perf_counter() - t0, 1), **r}
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    out["sort_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
    out["saved_file_mb"] = round(saved.stat().st_size / 2**20)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=2_000_000, help="distinct quad lines (before repeats)")
    ap.add_argument("--ways", nargs="+", default=["old", "new"], choices=["old", "new"])
    ap.add_argument("--child", choices=["old", "new"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        with tempfile.TemporaryDirectory() as tmp:
            print(json.dumps(run_one(args.child, args.lines, Path(tmp))))
        return
    for way in args.ways:
        cmd = [sys.executable, __file__, "--child", way, "--lines", str(args.lines)]
        result = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        print(f"{way}: {json.dumps(result)}", flush=True)


if __name__ == "__main__":
    main()
