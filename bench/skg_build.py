"""SKG build rate: our end-to-end index build vs pyoxigraph's raw bulk_load of the same quads.

    .venv/bin/python bench/skg_build.py                       # Smartprix listings (758, from the shared data)
    .venv/bin/python bench/skg_build.py --scale 40            # + a generated catalog 40x larger
    .venv/bin/python bench/skg_build.py --runner inline       # no Ray

Ours counts from reading the dataset directory to quads in the store (documents
read, specs converted, shard files written, shards bulk-loaded); Ray start-up and
rule derivation are timed and printed separately. The baseline bulk-loads the
concatenated shard files into a fresh store. Ratio = our rate / baseline rate.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dualgraph.config import IndexConfig  # noqa: E402
from dualgraph.corpus import import_table, load_mapping  # noqa: E402
from dualgraph.corpus.model import Variant  # noqa: E402
from dualgraph.corpus.specsqa import iter_metadata_files, read_document, write_dataset  # noqa: E402
from dualgraph.pipeline.index import build_index  # noqa: E402
from dualgraph.shared_data import shared_data_dir  # noqa: E402


def scaled_catalog(src: Path, dst: Path, scale: int, seed: int = 7) -> int:
    """A catalog ``scale`` times larger: each page copied with renamed products and jittered numbers."""
    rng = random.Random(seed)
    docs = [read_document(m, src)[0] for m in iter_metadata_files(src)]

    def jitter(value: str) -> str:
        head, _, tail = value.partition(" ")
        try:
            x = float(head)
        except ValueError:
            return value
        x *= rng.choice((0.5, 0.75, 1.0, 1.25, 1.5, 2.0))
        return (f"{x:.0f}" if x.is_integer() else f"{x:.2f}") + (" " + tail if tail else "")

    def pages():
        for k in range(scale):
            for d in docs:
                vs = [
                    Variant(
                        f"{v.name} Gen{k}",
                        f"{v.prod_range} Gen{k}",
                        v.categories,
                        tuple((key, jitter(val)) for key, val in v.specs),
                    )
                    for v in d.variants
                ]
                yield f"{d.doc_id.removeprefix('file-')}-g{k}", d.text, vs

    return write_dataset(dst, pages())


def concat(shard_dir: Path, out: Path) -> int:
    n = 0
    with open(out, "wb") as fh:
        for p in sorted(shard_dir.glob("*.nq")):
            data = p.read_bytes()
            n += data.count(b"\n")
            fh.write(data)
    return n


def measure(dataset: Path, work: Path, runner: str, label: str) -> None:
    import pyoxigraph as ox

    index = work / f"index-{label}"
    shutil.rmtree(index, ignore_errors=True)
    if runner == "ray":
        import ray

        t0 = time.perf_counter()
        if not ray.is_initialized():
            ray.init(include_dashboard=False, log_to_driver=False)
        print(f"  ray.init: {time.perf_counter() - t0:.1f} s (not counted)")
    # the SKG alone: chunking and entity extraction (the TKG) and the pattern index are other builds
    cfg = IndexConfig(runner=runner, progress=False, patterns=False)
    cfg.tkg.enabled = False
    m = build_index(dataset, index, cfg)
    ours = m["seconds"]["convert"] + m["seconds"]["load"]
    allq = work / f"all-{label}.nq"
    quads = concat(index / "skg" / "shards", allq)
    raw_dir = work / f"raw-{label}"
    shutil.rmtree(raw_dir, ignore_errors=True)
    t0 = time.perf_counter()
    store = ox.Store(str(raw_dir))
    store.bulk_load(path=str(allq), format=ox.RdfFormat.N_QUADS)
    store.flush()
    raw = time.perf_counter() - t0
    del store
    ours_rate, raw_rate = quads / ours, quads / raw
    print(f"  documents {m['documents']['total']}, products {m['products']}, quads {quads:,}")
    print(
        f"  ours  (read+convert+shard {m['seconds']['convert']:.2f} s + load {m['seconds']['load']:.2f} s): "
        f"{ours:.2f} s = {ours_rate:,.0f} quads/s, {m['documents']['total'] / ours:,.0f} docs/s"
    )
    print(f"  raw pyoxigraph bulk_load of the same quads: {raw:.2f} s = {raw_rate:,.0f} quads/s")
    print(f"  ratio ours/raw = {ours_rate / raw_rate:.2f}   (target >= 0.5)")
    print(f"  rules to fixpoint (separate): {m['seconds']['rules']:.2f} s, derived quads {m['derived_triples']:,}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", default=str(shared_data_dir() / "smartprix-india-2025/smartphones_cleaned.csv"))
    ap.add_argument("--mapping", default=str(ROOT / "samples/smartprix/mapping.yaml"))
    ap.add_argument("--scale", type=int, default=0, help="also build a generated catalog this many times larger")
    ap.add_argument("--runner", choices=["ray", "inline"], default="ray")
    ap.add_argument("--work", default=None, help="work directory (default: a temp dir, removed after)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="dg-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        base = work / "smartprix"
        shutil.rmtree(base, ignore_errors=True)
        import_table(args.csv, base, load_mapping(args.mapping), progress=False)
        print(f"Smartprix ({args.runner}):")
        measure(base, work, args.runner, "smartprix")
        if args.scale:
            big = work / f"scaled{args.scale}"
            shutil.rmtree(big, ignore_errors=True)
            n = scaled_catalog(base, big, args.scale)
            print(f"Generated catalog x{args.scale} ({n} pages, {args.runner}):")
            measure(big, work, args.runner, f"x{args.scale}")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
