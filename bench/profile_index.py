"""Where an index run spends its time and memory, stage by stage.

    .venv/bin/python bench/profile_index.py DATASET [--out bench/results/profile_index] [--no-tkg]
    .venv/bin/python bench/profile_index.py DATASET --baseline bench/results/profile_index.json
    .venv/bin/python bench/profile_index.py CHANGED_DATASET --index COPY_OF_AN_INDEX   # a re-index

The run is the default ``dualgraph index`` on the inline runner (so every stage runs in this
process and can be timed), into a fresh temporary index, or with ``--index`` into an existing
index (kept afterwards), which profiles an incremental re-index. Stages are timed by wrapping the
functions that do them, without touching the package: the pipeline stages (read, chunk,
extract, convert, shard), the store's bulk load, catalog facts, rules, the Textual KG build
with its model calls (entity and chunk embeddings), the pattern index and the prose lexicon.
Times are exclusive: a stage's time does not include the stages timed inside it. A thread
samples the resident set size of the process and its children every 200 ms; each stage gets the peak seen while it ran.

Writes OUT.md (a table: stage, seconds, share, peak RSS), OUT.json (the figures, usable as a
``--baseline`` later) and OUT.png (a bar per stage). With ``--baseline`` the table gains the
baseline's seconds and the ratio baseline / now, side by side.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale_index import tree_rss_mb  # noqa: E402 -- after the path is set


def rss_mb() -> float:
    """This process's resident set plus its children's (the text graph's ``sort`` is one)."""
    return tree_rss_mb(os.getpid())


class Profile:
    """Exclusive wall time and peak RSS per stage, for stages that may nest."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.peak: dict[str, float] = {}
        self.items: dict[str, int] = {}  # texts per embedding stage
        self._stack: list[list[Any]] = []  # [name, started, time spent in inner stages]
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._sampler = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(0.2):  # reading /proc for the children costs more than a status line
            now = rss_mb()
            with self._lock:
                for frame in self._stack:
                    self.peak[frame[0]] = max(self.peak.get(frame[0], 0.0), now)
                self.peak["(whole run)"] = max(self.peak.get("(whole run)", 0.0), now)

    @contextlib.contextmanager
    def timing(self, name: str) -> Iterator[None]:
        frame = [name, time.perf_counter(), 0.0]
        with self._lock:
            self._stack.append(frame)
        try:
            yield
        finally:
            spent = time.perf_counter() - frame[1]
            with self._lock:
                self._stack.pop()
                if self._stack:
                    self._stack[-1][2] += spent
                self.seconds[name] = self.seconds.get(name, 0.0) + spent - frame[2]
                self.calls[name] = self.calls.get(name, 0) + 1

    def count(self, name: str, items: int) -> None:
        with self._lock:
            self.items[name] = self.items.get(name, 0) + items

    def wrap(self, owner: Any, attr: str, name: str) -> None:
        original = getattr(owner, attr)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.timing(name):
                return original(*args, **kwargs)

        setattr(owner, attr, timed)

    def __enter__(self) -> Profile:
        self._sampler.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._sampler.join()


def instrument(profile: Profile) -> None:
    """Wrap the functions that do each stage (looked up where the driver calls them)."""
    from dualgraph.pipeline.stage import Stage

    index = importlib.import_module("dualgraph.pipeline.index")
    original_run = Stage.run

    def stage_run(self: Stage, rows: list) -> list:
        # one Stage class runs every pipeline stage: time each under its own name
        with profile.timing(f"stage: {self.name}"):
            return original_run(self, rows)

    Stage.run = stage_run  # type: ignore[method-assign]
    tkg_build = importlib.import_module("dualgraph.pipeline.tkg_build")
    views = importlib.import_module("dualgraph.pipeline.views")  # the derived views the driver walks
    for module, name, label in (
        (views, "derive_catalog_facts", "catalog facts"),
        (views, "apply_rules", "rules"),
        (tkg_build, "build_tkg", "textual KG (merge, indexes, text facts)"),
        (index, "collect_vocabulary_garbage", "vocabulary clean-up"),
        (index, "_store_counts", "manifest counts"),
        (index, "unchanged_documents", "compare hashes"),
        (tkg_build, "merge_mentions", "tkg: merge mentions"),
        (tkg_build, "chunk_pages", "tkg: feature candidates per chunk"),
        # the text-graph lines are generated as the sync sorts them: reading pages (cache misses)
        # is timed apart, the rest of making the lines counts in the sync
        (tkg_build, "read_statements", "tkg: text features (polarity reading)"),
        (tkg_build, "sync_graph", "tkg: text graph (facts, sort, sync)"),
        (tkg_build, "save_tkg", "tkg: save tables"),
    ):
        profile.wrap(module, name, label)
    patterns = importlib.import_module("dualgraph.lexicon.patterns")
    profile.wrap(patterns, "build_pattern_index", "pattern index")
    lexicon = importlib.import_module("dualgraph.lexicon.mining")
    profile.wrap(lexicon, "mine_index", "prose lexicon")
    factory = importlib.import_module("dualgraph.models.factory")
    profile.wrap(factory, "build_models", "model loading")
    for mod_name in ("dualgraph.models.embedders", "dualgraph.models.static_embedder"):
        embedders = importlib.import_module(mod_name)
        for cls in vars(embedders).values():
            if isinstance(cls, type) and "embed" in vars(cls) and cls.__module__ == mod_name:
                _wrap_embed(profile, cls)
    for mod_name in ("dualgraph.stores.oxigraph", "dualgraph.stores.endpoint"):
        mod = importlib.import_module(mod_name)
        for cls in vars(mod).values():
            if isinstance(cls, type) and "bulk_load" in vars(cls) and cls.__module__ == mod_name:
                profile.wrap(cls, "bulk_load", "store bulk load")


def _wrap_embed(profile: Profile, cls: type) -> None:
    original = cls.embed  # type: ignore[attr-defined]

    @functools.wraps(original)
    def embed(self: Any, texts: list[str], *, stage: str = "default") -> Any:
        # by the caller's stage name: entities, chunks and patterns are told apart
        with profile.timing(f"embeddings: {stage}"):
            profile.count(f"embeddings: {stage}", len(texts))
            return original(self, texts, stage=stage)

    cls.embed = embed  # type: ignore[attr-defined]


def run(dataset: Path, *, tkg: bool, embedder: str | None = None, index: Path | None = None) -> dict[str, Any]:
    from dualgraph.config import IndexConfig
    from dualgraph.pipeline.index import build_index

    config = IndexConfig(runner="inline", progress=False)
    if embedder:
        models = config.models.model_copy(
            update={"embedder": config.models.embedder.model_copy(update={"kind": embedder})}
        )
        config = config.model_copy(update={"models": models})
    if not tkg:
        config = config.model_copy(update={"tkg": config.tkg.model_copy(update={"enabled": False})})
    work = Path(tempfile.mkdtemp(prefix="dg-profile-"))
    try:
        with Profile() as profile:
            instrument(profile)
            started = time.perf_counter()
            manifest = build_index(dataset, index or work / "ix", config)
            total = time.perf_counter() - started
    finally:
        shutil.rmtree(work, ignore_errors=True)
    timed = sum(profile.seconds.values())
    rows = [
        {
            "stage": k,
            "texts": profile.items.get(k, 0),
            "seconds": round(v, 2),
            "calls": profile.calls[k],
            "peak_rss_mb": round(profile.peak.get(k, 0.0)),
        }
        for k, v in sorted(profile.seconds.items(), key=lambda kv: -kv[1])
    ]
    rows.append({"stage": "(untimed: driver, state, files)", "seconds": round(total - timed, 2), "calls": 1,
                 "peak_rss_mb": 0})  # fmt: skip
    return {
        "dataset": str(dataset),
        "documents": manifest["documents"]["total"],
        "reprocessed": manifest["documents"].get("reprocessed_count"),
        "products": manifest["products"],
        "tkg": manifest.get("tkg") if isinstance(manifest.get("tkg"), dict) else {},
        "total_seconds": round(total, 2),
        "peak_rss_mb": round(profile.peak.get("(whole run)", 0.0)),
        "stages": rows,
    }


def render(result: dict[str, Any], baseline: dict[str, Any] | None) -> str:
    base = {r["stage"]: r["seconds"] for r in (baseline or {}).get("stages", [])}
    head = "| stage | seconds | share | calls | peak RSS MB |"
    rule = "|---|---|---|---|---|"
    if baseline:
        head += " baseline s | baseline / now |"
        rule += "---|---|"
    out = [
        f"# Index profile: {result['dataset']}",
        "",
        f"{result['documents']} documents ({result.get('reprocessed')} processed this run), "
        f"{result['products']} products; total {result['total_seconds']} s, "
        f"peak RSS {result['peak_rss_mb']} MB; {result['total_seconds'] / max(result['products'], 1) * 1000:.1f} ms "
        "per product.",
        "",
        head,
        rule,
    ]
    for r in result["stages"]:
        share = r["seconds"] / result["total_seconds"] * 100 if result["total_seconds"] else 0.0
        stage = r["stage"] + (f" ({r['texts']:,} texts)" if r.get("texts") else "")
        line = f"| {stage} | {r['seconds']:.2f} | {share:.1f} % | {r['calls']} | {r['peak_rss_mb']} |"
        if baseline:
            b = base.get(r["stage"])
            line += f" {b:.2f} | {b / r['seconds']:.2f} |" if b and r["seconds"] else " – | – |"
        out.append(line)
    if baseline:
        ratio = baseline["total_seconds"] / result["total_seconds"]
        out += [
            "",
            f"Whole run: baseline {baseline['total_seconds']} s, now {result['total_seconds']} s ({ratio:.2f}x).",
        ]
    return "\n".join(out) + "\n"


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in result["stages"] if r["seconds"] > 0][::-1]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(rows) + 1.2))
    ax.barh([r["stage"] for r in rows], [r["seconds"] for r in rows])
    ax.set_xlabel("seconds (exclusive)")
    ax.set_title(f"index: {result['products']} products, {result['total_seconds']} s")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "profile_index")
    ap.add_argument("--no-tkg", action="store_true", help="the SKG only (the Textual KG disabled)")
    ap.add_argument("--baseline", type=Path, help="an OUT.json of an earlier run, shown side by side")
    ap.add_argument("--embedder-kind", choices=("sentence-transformers", "static"), help="default: the index default")
    ap.add_argument("--index", type=Path, help="build into this existing index (a re-index); it is kept")
    args = ap.parse_args(argv)
    index = args.index.resolve() if args.index else None
    result = run(args.dataset.resolve(), tkg=not args.no_tkg, embedder=args.embedder_kind, index=index)
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    text = render(result, baseline)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    plot(result, args.out.with_suffix(".png"))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
