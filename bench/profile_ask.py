"""Where the time of answering a question goes, stage by stage (issue 12, "profile first").

    .venv/bin/python bench/profile_ask.py --index runs/own_sets/devmix3/index \\
        --questions bench/own_sets/devmix/questions.json --out bench/results/profile_ask

The package is not edited: before the engine is opened, timing wrappers are installed around
the functions and methods each stage runs (parse, catalog spotting, grounding, SPARQL on the
store, answer reading, text retrieval and reading, the embedder, ...). Every wrapped call pushes
a frame; a stage is charged its *exclusive* time (its wall time minus that of the wrapped calls
inside it), so the stages add up to the answering time with nothing counted twice. The shared
leaves (``sparql``, ``embed.*``, ``parse``) are labelled with the stage that called them
(``sparql @ skg.ground.constraints``), which says who pays for a query or an embedding.

Next to the breakdown, each question's final SPARQL (the record's evidence) is run again on the
store alone: ``answer latency p50 / final-SPARQL-alone p50`` is the overhead the issue wants at
most 3. Engine open (store, pattern tables, Textual KG, MiniLM) is profiled the same way, and
peak RSS is read after opening and after answering.

The embedding cache lives in the index (``cache/responses.sqlite``) and a run would write its
misses there; by default a copy is used (``--cache copy``: the index is left untouched and
reruns start from the same cache), ``--cache empty`` measures cold embeddings, ``--cache index``
uses the index's own file. Writes OUT.md, OUT.png and OUT.json.

Engines that answer many questions call ``QAEngine.prepare()`` after opening (per-index tables
and catalog embeddings built up front); so does this profile, and charges it to the open
(``--no-prepare``: the lazy behaviour, on code that has no ``prepare`` too). Bulk speed is
measured apart, with the wrappers removed: the questions (``--repeat`` times over, for a longer
run) answered in batches of ``--bulk-batch`` as ``dualgraph ask --questions`` does. The engine
keeps no answers between questions, but it does keep per-phrase lookups (embeddings, a value
word's entries), so a repeated set is a little faster than the same number of new questions:
both figures are reported, the first pass over distinct questions and the repeated one.
``--baseline`` takes an earlier run's OUT.json and puts its figures beside this run's.
Several ``--questions`` files are answered as one set (ids prefixed with the file's number).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import dualgraph.answer.engine as engine_mod  # noqa: E402
import dualgraph.answer.sources as sources_mod  # noqa: E402
import dualgraph.answer.strategies as strategies_mod  # noqa: E402
import dualgraph.lexicon.mining as lexicon_mining_mod  # noqa: E402
import dualgraph.models.factory as factory_mod  # noqa: E402
import dualgraph.pipeline.index_store as index_store_mod  # noqa: E402
import dualgraph.query.interpret.compiler as compiler_mod  # noqa: E402
import dualgraph.query.read.reading as reading_mod  # noqa: E402
import dualgraph.query.sparql.safety as safety_mod  # noqa: E402
import dualgraph.stores.oxigraph as oxigraph_mod  # noqa: E402
import dualgraph.tkg.retrieval as retrieval_mod  # noqa: E402
from dualgraph.answer.engine import AskConfig, QAEngine  # noqa: E402
from dualgraph.answer.names import AnswerNames  # noqa: E402
from dualgraph.answer.router import ExampleRouter  # noqa: E402
from dualgraph.lexicon.pattern_index import PatternIndex  # noqa: E402
from dualgraph.lexicon.vocabulary import QuestionVocabulary  # noqa: E402
from dualgraph.models.cache import CachedEmbedder  # noqa: E402
from dualgraph.models.embedders import SentenceTransformerEmbedder  # noqa: E402
from dualgraph.pipeline.answer_files import read_questions  # noqa: E402
from dualgraph.query.ground.grounder import Grounder  # noqa: E402
from dualgraph.query.ground.spotting import CatalogSpotter  # noqa: E402
from dualgraph.query.sparql.safety import run_select  # noqa: E402
from dualgraph.stores.faiss_index import FaissIndex  # noqa: E402
from dualgraph.stores.oxigraph import OxigraphStore  # noqa: E402
from dualgraph.tkg.lexical import LexicalIndex  # noqa: E402
from dualgraph.tkg.loader import TextualKG  # noqa: E402
from dualgraph.tkg.retrieval import EntityVoteRetriever  # noqa: E402

WARMUP_QUESTION = "Which products cost under 500?"
"""Answered once before measuring, so torch's first forward pass and the lazily built lexicons
are not charged to whichever question happens to come first."""

FINAL_ROW_CAP, FINAL_TIMEOUT_S = 1000, 20.0
"""What Compiler.answer runs the final query with (its defaults), so the rerun reads as many rows."""


@dataclass
class _Frame:
    stage: str
    context: str
    start: float
    inner: float = 0.0


@dataclass
class Profiler:
    """Exclusive wall time and call counts per stage, over nested wrapped calls."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    stack: list[_Frame] = field(default_factory=list)
    undo: list[tuple[Any, str, Any]] = field(default_factory=list)

    def _enter(self, stage: str, attach: bool) -> _Frame:
        context = self.stack[-1].context if self.stack else "(outside)"
        name = f"{stage} @ {context}" if attach else stage
        frame = _Frame(name, context if attach else stage, time.perf_counter())
        self.stack.append(frame)
        return frame

    def _leave(self, frame: _Frame) -> None:
        spent = time.perf_counter() - frame.start
        # an exception can unwind several wrapped calls at once: pop down to this frame
        while self.stack and self.stack[-1] is not frame:
            self.stack.pop()
        if self.stack:
            self.stack.pop()
        self.seconds[frame.stage] += spent - frame.inner
        self.calls[frame.stage] += 1
        if self.stack:
            self.stack[-1].inner += spent

    def timed(self, fn, stage: str, attach: bool):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            frame = self._enter(stage, attach)
            try:
                return fn(*args, **kwargs)
            finally:
                self._leave(frame)

        return wrapper

    def wrap(self, owner: Any, attr: str, stage: str, *, attach: bool = False) -> None:
        """Replace ``owner.attr`` (a module function, method, classmethod or staticmethod) by a timed one.

        ``attach``: label the stage with the stage that called it (shared leaves such as the store)."""
        if isinstance(owner, type):  # raw descriptors, found where the class hierarchy defines them
            raw = next(c.__dict__[attr] for c in owner.__mro__ if attr in c.__dict__)
            own = attr in owner.__dict__
        else:
            raw, own = getattr(owner, attr), True
        if isinstance(raw, classmethod):
            new: Any = classmethod(self.timed(raw.__func__, stage, attach))
        elif isinstance(raw, staticmethod):
            new = staticmethod(self.timed(raw.__func__, stage, attach))
        else:
            new = self.timed(raw, stage, attach)
        self.undo.append((owner, attr, raw if own else None))
        setattr(owner, attr, new)

    def restore(self) -> None:
        for owner, attr, raw in reversed(self.undo):
            if raw is None:  # an inherited method: drop the shadowing wrapper
                delattr(owner, attr)
            else:
                setattr(owner, attr, raw)
        self.undo.clear()

    def snapshot(self) -> dict[str, float]:
        return dict(self.seconds)


def install(prof: Profiler) -> None:
    """The wrappers. Names imported into a module (``from x import f``) are patched where they are
    looked up at call time (the importing module), methods on their class."""
    w = prof.wrap
    # -- answering: the engine and the default strategy's two sources
    w(QAEngine, "answer_batch", "engine.other")
    w(engine_mod, "template_text", "engine.template_text")
    w(strategies_mod, "uncovered_words", "engine.probe_check")
    w(sources_mod.SymbolicSource, "_compiled", "skg.other")
    w(sources_mod, "covered_parts", "skg.covered_parts")
    w(sources_mod, "render_markdown", "skg.render_context")
    w(compiler_mod.Compiler, "answer", "skg.answer.other")
    w(compiler_mod.Compiler, "_compile", "skg.compile.other")
    w(QuestionVocabulary, "for_question", "skg.vocabulary")
    w(CatalogSpotter, "apply", "skg.spot")
    w(compiler_mod, "measure_words", "skg.measure_words")
    w(compiler_mod, "ground_names", "skg.ground.names")
    w(compiler_mod, "scope_entries", "skg.ground.scope_entries")
    for method in ("numeric", "feature", "value", "date", "attribute", "date_order"):
        w(Grounder, method, "skg.ground.constraints")
    w(reading_mod, "read_question", "skg.read")
    w(reading_mod.Reading, "coverage_caps", "skg.coverage")
    w(reading_mod.Reading, "unread_factor", "skg.coverage")
    w(compiler_mod, "means_of", "skg.phrases")
    w(compiler_mod, "date_event", "skg.phrases")
    for name in ("where_clauses", "select_query", "relative_blocks"):
        w(compiler_mod, name, "skg.emit")
    w(compiler_mod, "check_query", "skg.check_query")
    w(compiler_mod, "run_select", "skg.final_query")
    w(compiler_mod.Compiler, "_from_tables", "skg.final_query")  # the same rows, from the per-product tables
    w(compiler_mod, "read_answer", "skg.read_answer")
    w(sources_mod.TextualSource, "ask", "tkg.other")
    w(EntityVoteRetriever, "retrieve", "tkg.retrieve")
    w(FaissIndex, "search", "tkg.vector_search")
    w(FaissIndex, "range_search", "tkg.vector_search")
    w(LexicalIndex, "search", "tkg.lexical_search")
    w(EntityVoteRetriever, "_rank", "tkg.rank")
    w(EntityVoteRetriever, "_names_in", "tkg.names_in")
    w(retrieval_mod, "vote", "tkg.vote_pack")
    w(retrieval_mod._ChunkPacker, "scored", "tkg.vote_pack")
    w(retrieval_mod._ChunkPacker, "result", "tkg.vote_pack")
    w(sources_mod, "read_products", "tkg.read")
    w(ExampleRouter, "route", "router")
    # -- shared leaves, charged to their caller
    w(compiler_mod, "parse_question", "parse", attach=True)
    w(sources_mod, "parse_question", "parse", attach=True)
    w(OxigraphStore, "select", "sparql", attach=True)
    # the read-only guard parses each distinct query text once (lru_cache), in the store and the compiler
    w(oxigraph_mod, "read_query", "guard", attach=True)
    w(safety_mod, "read_query", "guard", attach=True)
    w(OxigraphStore, "ask", "sparql", attach=True)
    try:  # a remote store needs the [endpoint] extra
        from dualgraph.stores.endpoint import SparqlEndpointStore

        w(SparqlEndpointStore, "select", "sparql", attach=True)
    except ImportError:
        pass
    w(CachedEmbedder, "embed", "embed.cache", attach=True)
    w(SentenceTransformerEmbedder, "embed", "embed.minilm", attach=True)
    # -- engine open
    w(QAEngine, "open", "open.other")
    w(factory_mod, "build_models", "open.models")
    w(index_store_mod, "open_store", "open.store")
    w(PatternIndex, "load", "open.patterns")
    w(AnswerNames, "detect", "open.names")
    w(compiler_mod.Compiler, "__init__", "open.compiler")
    w(lexicon_mining_mod, "load_prose_synonyms", "open.prose_synonyms")
    w(TextualKG, "open", "open.tkg")
    w(TextualKG, "entity_vote", "open.tkg_retriever")
    w(ExampleRouter, "__post_init__", "open.router")


def _cache_redirect(prof: Profiler, mode: str, scratch: Path) -> None:
    """Point the engine's response cache away from the index (``copy``/``empty``)."""
    if mode == "index":
        return
    original = factory_mod.index_models

    def redirected(index_dir):
        models = original(index_dir)
        target = scratch / "cache"
        target.mkdir(parents=True, exist_ok=True)
        if mode == "copy":
            for src in Path(models.cache_dir).glob(f"{factory_mod.CACHE_FILE}*"):  # the db and its WAL
                shutil.copy2(src, target / src.name)
        return models.model_copy(update={"cache_dir": target})

    prof.undo.append((factory_mod, "index_models", original))
    factory_mod.index_models = redirected


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def _pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q)) if xs else float("nan")


def _diff(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: v - before.get(k, 0.0) for k, v in after.items() if v - before.get(k, 0.0) > 0}


def _final_sparql_alone(store, sparql: str | None, reps: int) -> float | None:
    """Median wall time of the question's final query on the store alone (checks included, as run_select does)."""
    if not sparql:
        return None
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        try:
            run_select(store, sparql, row_cap=FINAL_ROW_CAP, timeout_s=FINAL_TIMEOUT_S)
        except Exception:
            return None
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _read_all(paths: list[Path]) -> list[tuple[str, str]]:
    if len(paths) == 1:
        return read_questions(paths[0])
    return [(f"{n}:{qid}", q) for n, path in enumerate(paths, 1) for qid, q in read_questions(path)]


def bulk_speed(engine: QAEngine, items: list[tuple[str, str]], batch: int, repeat: int) -> dict[str, Any]:
    """Questions per second answered in batches, unprofiled: the first pass, then all ``repeat`` passes."""
    passes = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for b in range(0, len(items), batch):
            engine.answer_batch(items[b : b + batch])
        passes.append(time.perf_counter() - t0)
    n = len(items)
    return {
        "batch": batch,
        "repeat": repeat,
        "questions": n,
        "pass_s": passes,
        "qps_first": n / passes[0] if passes and passes[0] else float("nan"),
        "qps_all": n * len(passes) / sum(passes) if passes and sum(passes) else float("nan"),
    }


def profile(args: argparse.Namespace) -> dict[str, Any]:
    items = _read_all(args.questions)
    if args.limit:
        items = items[: args.limit]
    prof = Profiler()
    install(prof)
    scratch = Path(tempfile.mkdtemp(prefix="profile_ask-"))
    _cache_redirect(prof, args.cache, scratch)
    try:
        rss0 = _rss_mib()
        t0 = time.perf_counter()
        options: dict[str, Any] = {"in_memory_quads": args.in_memory_quads}
        if args.strategy:
            options["strategy"] = args.strategy
        engine = QAEngine.open(args.index, AskConfig(**options))
        prepare = getattr(engine, "prepare", None)
        prepared = bool(args.prepare and callable(prepare))
        if prepared:
            with_stage = prof.timed(prepare, "open.prepare", False)
            with_stage()
        open_s = time.perf_counter() - t0
        open_stages = prof.snapshot()
        rss_open = _rss_mib()
        strategy = engine.config.strategy
        compiler = cast(Any, engine.kit.symbolic).compiler  # the zero-token SymbolicSource's
        store = compiler.store
        if args.warmup:
            engine.answer(WARMUP_QUESTION, qid="warmup")
        prof.seconds.clear()
        prof.calls.clear()
        rows: list[dict[str, Any]] = []
        for b in range(0, len(items), args.batch):
            batch = items[b : b + args.batch]
            before = prof.snapshot()
            t1 = time.perf_counter()
            records = engine.answer_batch(batch)
            wall = (time.perf_counter() - t1) / len(batch)
            # a batch is profiled as a whole: each question gets an even share of it
            share = {k: v / len(batch) for k, v in _diff(prof.snapshot(), before).items()}
            for (qid, question), rec in zip(batch, records):
                alone = _final_sparql_alone(store, rec.evidence.sparql, args.reps)
                rows.append(
                    {
                        "id": qid,
                        "question": question,
                        "latency_s": rec.latency_s,
                        "wall_s": wall,
                        "final_sparql_alone_s": alone,
                        "route": "+".join(rec.route),
                        "error": rec.error,
                        "rows_total": rec.evidence.rows_total,
                        "stages": share,
                    }
                )
            done = len(rows)
            rate = done / sum(r["wall_s"] for r in rows)  # answering only, not the SPARQL reruns
            last = rows[-1]
            print(
                f"[{done}/{len(items)}] {last['id']}: {1000 * last['wall_s']:.0f} ms"
                f" (final SPARQL alone {_ms(last['final_sparql_alone_s'])}) route {last['route']}"
                f" | {rate:.2f} q/s",
                flush=True,
            )
        answer_s = sum(r["wall_s"] for r in rows)
        calls = dict(prof.calls)
        rss_end = _rss_mib()
        embedder = getattr(compiler.patterns, "embedder", None)
        cache_hits, cache_misses = getattr(embedder, "hits", None), getattr(embedder, "misses", None)
        prof.restore()  # the bulk pass runs as shipped, without the timing wrappers
        bulk = bulk_speed(engine, items, args.bulk_batch, args.repeat) if args.repeat else None
        if bulk:
            print(f"bulk: {bulk['qps_first']:.2f} q/s first pass, {bulk['qps_all']:.2f} q/s over {args.repeat}")
        engine.close()
    finally:
        prof.restore()
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "index": str(args.index),
        "questions_file": ", ".join(str(q) for q in args.questions),
        "strategy": strategy,
        "prepared": prepared,
        "bulk": bulk,
        "batch": args.batch,
        "cache": args.cache,
        "warmup": args.warmup,
        "reps": args.reps,
        # the final SPARQL alone runs on the engine's own store: the memory copy when there is one
        "store": type(store).__name__ + ("" if getattr(store, "path", None) else " in memory"),
        "n": len(rows),
        "open_s": open_s,
        "open_stages": open_stages,
        "answer_s": answer_s,
        "calls": calls,
        "rss_mib": {"start": rss0, "after_open": rss_open, "peak": rss_end},
        "embed_cache": {"hits": cache_hits, "misses": cache_misses},
        "host": {"cpus": os.cpu_count(), "python": platform.python_version(), "machine": platform.machine()},
        "questions": rows,
    }


def _ms(s: float | None) -> str:
    return "–" if s is None else f"{1000 * s:.1f} ms"


def _kind(stage: str) -> str:
    head = stage.split(" @ ")[0]
    return head.split(".")[0]


def stage_table(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = result["questions"]
    n = max(1, len(rows))
    names = sorted({s for r in rows for s in r["stages"]})
    total_all = sum(sum(r["stages"].values()) for r in rows) or 1.0
    out = []
    for s in names:
        per_q = [r["stages"].get(s, 0.0) for r in rows]
        total = sum(per_q)
        out.append(
            {
                "stage": s,
                "calls": result["calls"].get(s, 0),
                "total_s": total,
                "share": 100 * total / total_all,
                "mean_ms": 1000 * total / n,
                "p50_ms": 1000 * _pct(per_q, 50),
                "p90_ms": 1000 * _pct(per_q, 90),
            }
        )
    return sorted(out, key=lambda r: -r["total_s"])


def summarize(result: dict[str, Any]) -> dict[str, float]:
    """The headline figures of a run (also of an earlier run's JSON, for ``--baseline``)."""
    qs = result["questions"]
    lat = [r["wall_s"] for r in qs]
    alone = [r["final_sparql_alone_s"] for r in qs if r["final_sparql_alone_s"] is not None]
    ratios = [r["wall_s"] / r["final_sparql_alone_s"] for r in qs if r["final_sparql_alone_s"]]
    lat_p50, alone_p50 = _pct(lat, 50), _pct(alone, 50)
    bulk = result.get("bulk") or {}
    return {
        "qps": len(qs) / result["answer_s"] if result["answer_s"] else float("nan"),
        "bulk_qps_first": bulk.get("qps_first", float("nan")),
        "bulk_qps_all": bulk.get("qps_all", float("nan")),
        "open_s": result["open_s"],
        "latency_p50_ms": 1000 * lat_p50,
        "latency_p90_ms": 1000 * _pct(lat, 90),
        "final_sparql_p50_ms": 1000 * alone_p50,
        "ratio_p50": lat_p50 / alone_p50 if alone else float("nan"),
        "ratio_median_per_question": statistics.median(ratios) if ratios else float("nan"),
    }


_COMPARED = (
    ("engine open (with prepare when run), s", "open_s", "{:.2f}"),
    ("answering, profiled, q/s (batch 1)", "qps", "{:.2f}"),
    ("bulk, unprofiled, first pass q/s", "bulk_qps_first", "{:.2f}"),
    ("bulk, unprofiled, all passes q/s", "bulk_qps_all", "{:.2f}"),
    ("latency p50, ms", "latency_p50_ms", "{:.0f}"),
    ("latency p90, ms", "latency_p90_ms", "{:.0f}"),
    ("final SPARQL alone p50, ms", "final_sparql_p50_ms", "{:.1f}"),
    ("**latency p50 / final-SPARQL-alone p50** (goal ≤ 3)", "ratio_p50", "{:.1f}"),
    ("median of per-question latency / SPARQL-alone", "ratio_median_per_question", "{:.1f}"),
)


def baseline_lines(result: dict[str, Any], base: dict[str, Any]) -> list[str]:
    """Markdown: this run beside an earlier one, headline figures and per-stage mean ms/q."""
    now, before = summarize(result), summarize(base)

    def fmt(pattern: str, v: float) -> str:
        return "–" if v != v else pattern.format(v)  # NaN: not measured

    lines = [
        "## Before and after",
        "",
        f"Before: `{base.get('questions_file')}` on `{base.get('index')}` ({base.get('n')} questions, "
        f"embedding cache `{base.get('cache')}`).",
        "",
        "| measure | before | after | after / before |",
        "|---|---:|---:|---:|",
    ]
    for label, key, pattern in _COMPARED:
        b, a = before[key], now[key]
        ratio = f"{a / b:.2f}" if b == b and a == a and b else "–"
        lines.append(f"| {label} | {fmt(pattern, b)} | {fmt(pattern, a)} | {ratio} |")
    rows_now = {t["stage"]: t for t in stage_table(result)}
    rows_before = {t["stage"]: t for t in stage_table(base)}
    names = sorted(
        set(rows_now) | set(rows_before),
        key=lambda s: -max(rows_now.get(s, {}).get("mean_ms", 0.0), rows_before.get(s, {}).get("mean_ms", 0.0)),
    )
    lines += [
        "",
        "Answering by stage, mean ms per question (exclusive), stages of 0.1 ms or more in either run:",
        "",
        "| stage | before | after |",
        "|---|---:|---:|",
    ]
    for name in names:
        b = rows_before.get(name, {}).get("mean_ms", 0.0)
        a = rows_now.get(name, {}).get("mean_ms", 0.0)
        if max(a, b) >= 0.1:
            lines.append(f"| {name} | {b:.1f} | {a:.1f} |")
    total_b = sum(t["mean_ms"] for t in rows_before.values())
    total_a = sum(t["mean_ms"] for t in rows_now.values())
    lines += [f"| **all stages** | **{total_b:.1f}** | **{total_a:.1f}** |", ""]
    return lines


def write_markdown(result: dict[str, Any], path: Path, baseline: dict[str, Any] | None = None) -> dict[str, float]:
    qs = result["questions"]
    lat = [r["wall_s"] for r in qs]
    rec_lat = [r["latency_s"] for r in qs]
    alone = [r["final_sparql_alone_s"] for r in qs if r["final_sparql_alone_s"] is not None]
    lat_p50, alone_p50 = _pct(lat, 50), _pct(alone, 50)
    summary = summarize(result)
    table = stage_table(result)
    by_kind: dict[str, float] = defaultdict(float)
    for t in table:
        by_kind[_kind(t["stage"])] += t["total_s"]
    total_stages = sum(by_kind.values()) or 1.0
    rss = result["rss_mib"]
    cache = result["embed_cache"]
    lines = [
        f"# Profile of answering: `{result['index']}`",
        "",
        f"Questions: `{result['questions_file']}` ({result['n']}), strategy `{result['strategy']}`, "
        f"batch {result['batch']}, embedding cache `{result['cache']}`"
        f"{', one warm-up question first' if result['warmup'] else ''}, store {result.get('store', '?')}; "
        f"{result['host']['cpus']} CPUs, Python {result['host']['python']}. "
        f"Written by `bench/profile_ask.py`.",
        "",
        "## Summary",
        "",
        "| measure | value |",
        "|---|---|",
        f"| engine open (store, patterns, TKG, MiniLM) | {result['open_s']:.2f} s |",
        f"| answering, all questions | {result['answer_s']:.2f} s ({summary['qps']:.2f} q/s) |",
        f"| latency p50 / p90 / max (wall) | {1000 * lat_p50:.0f} / {1000 * _pct(lat, 90):.0f} / "
        f"{1000 * max(lat, default=float('nan')):.0f} ms |",
        f"| latency p50 (record's `latency_s`) | {1000 * _pct(rec_lat, 50):.0f} ms |",
        f"| final SPARQL alone p50 / p90 ({len(alone)} questions with a query, median of {result['reps']}) | "
        f"{1000 * alone_p50:.1f} / {1000 * _pct(alone, 90):.1f} ms |",
        f"| **latency p50 / final-SPARQL-alone p50** (goal ≤ 3) | **{summary['ratio_p50']:.1f}** |",
        f"| median of per-question latency / SPARQL-alone | {summary['ratio_median_per_question']:.1f} |",
        f"| peak RSS after open / after answering | {rss['after_open']:.0f} / {rss['peak']:.0f} MiB |",
        f"| embedding cache hits / misses (distinct texts, open + answering) | {cache['hits']} / {cache['misses']} |",
    ]
    bulk = result.get("bulk")
    if bulk:
        lines.append(
            f"| **bulk, unprofiled** ({bulk['questions']} questions × {bulk['repeat']}, batches of {bulk['batch']}) "
            f"| **{bulk['qps_first']:.2f} q/s** first pass, {bulk['qps_all']:.2f} q/s all passes |"
        )
    lines += [
        f"| engine prepared (per-index work at open) | {'yes' if result.get('prepared') else 'no'} |",
        "",
        *(baseline_lines(result, baseline) if baseline else []),
        "## Answering time by stage (exclusive)",
        "",
        "Each stage's own time, without the wrapped stages it calls; `X @ Y`: X called from stage Y. "
        "Per-question mean, p50 and p90 are over all questions (0 where a question skips the stage).",
        "",
        "| stage | calls | total s | share % | mean ms/q | p50 ms | p90 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {t['stage']} | {t['calls']} | {t['total_s']:.3f} | {t['share']:.1f} | {t['mean_ms']:.1f} "
        f"| {t['p50_ms']:.1f} | {t['p90_ms']:.1f} |"
        for t in table
    ]
    lines += ["", "### By kind", "", "| kind | total s | share % |", "|---|---:|---:|"]
    lines += [
        f"| {k} | {v:.3f} | {100 * v / total_stages:.1f} |" for k, v in sorted(by_kind.items(), key=lambda kv: -kv[1])
    ]
    open_stages = sorted(result["open_stages"].items(), key=lambda kv: -kv[1])
    lines += ["", "## Engine open by stage (exclusive)", "", "| stage | s |", "|---|---:|"]
    lines += [f"| {k} | {v:.2f} |" for k, v in open_stages if v >= 0.005]
    lines += [
        "",
        "## Per question",
        "",
        "| id | wall ms | final SPARQL alone ms | ratio | route | largest stage |",
        "|---|---:|---:|---:|---|---|",
    ]
    for r in qs:
        top = max(r["stages"].items(), key=lambda kv: kv[1], default=("–", 0.0))
        alone_s = r["final_sparql_alone_s"]
        ratio = f"{r['wall_s'] / alone_s:.1f}" if alone_s else "–"
        lines.append(
            f"| {r['id']} | {1000 * r['wall_s']:.0f} | {_ms(alone_s).removesuffix(' ms')} | {ratio} | "
            f"{r['route'] or '–'}{' (error)' if r['error'] else ''} | {top[0]} {1000 * top[1]:.0f} ms |"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return summary


def write_plot(result: dict[str, Any], path: Path, top: int = 10) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = stage_table(result)
    shown = [t["stage"] for t in table[:top]]
    qs = result["questions"]
    fig, (ax_total, ax_q) = plt.subplots(
        1, 2, figsize=(16, max(5, 0.3 * len(table) + 1)), gridspec_kw={"width_ratios": [1, 2]}
    )
    ax_total.barh([t["stage"] for t in table][::-1], [t["total_s"] for t in table][::-1], color="tab:blue")
    ax_total.set_xlabel("total s (exclusive)")
    ax_total.set_title(f"by stage, {result['n']} questions")
    ax_total.tick_params(axis="y", labelsize=7)
    x = np.arange(len(qs))
    bottom = np.zeros(len(qs))
    colours = cast(Any, plt.get_cmap("tab20")).colors
    for i, s in enumerate([*shown, "other"]):
        if s == "other":
            vals = np.array([sum(v for k, v in r["stages"].items() if k not in shown) for r in qs])
        else:
            vals = np.array([r["stages"].get(s, 0.0) for r in qs])
        ax_q.bar(x, 1000 * vals, bottom=bottom, label=s, color=colours[i % len(colours)], width=0.85)
        bottom += 1000 * vals
    alone = [1000 * r["final_sparql_alone_s"] if r["final_sparql_alone_s"] else np.nan for r in qs]
    ax_q.plot(x, alone, "k_", markersize=8, label="final SPARQL alone")
    ax_q.set_xticks(x, [r["id"] for r in qs], rotation=90, fontsize=6)
    ax_q.set_ylabel("ms")
    ax_q.set_title(f"per question, {result['strategy']} on {result['index']} (cache {result['cache']})")
    ax_q.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--index", type=Path, required=True, help="index directory (opened read-only)")
    ap.add_argument(
        "--questions", type=Path, nargs="+", required=True, help="questions file(s) (SpecsQA JSON or a list)"
    )
    ap.add_argument("--limit", type=int, default=0, help="first N questions only (0: all)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench/results/profile_ask", help="writes OUT.md/.png/.json")
    ap.add_argument("--strategy", default=None, help="default: AskConfig's default strategy")
    ap.add_argument("--batch", type=int, default=1, help="questions per answer_batch call (1: exact per question)")
    ap.add_argument("--cache", choices=("copy", "empty", "index"), default="copy", help="embedding cache (see above)")
    ap.add_argument("--reps", type=int, default=3, help="reruns of each final SPARQL alone (median kept)")
    ap.add_argument("--no-warmup", dest="warmup", action="store_false", help="charge first-call costs to question 1")
    ap.add_argument("--no-prepare", dest="prepare", action="store_false", help="skip QAEngine.prepare() (lazy)")
    ap.add_argument("--repeat", type=int, default=3, help="bulk pass: times the set is answered (0: no bulk pass)")
    ap.add_argument("--bulk-batch", type=int, default=8, help="bulk pass: questions per answer_batch call")
    ap.add_argument("--baseline", type=Path, help="an earlier OUT.json: its figures beside this run's")
    ap.add_argument(
        "--in-memory-quads",
        type=int,
        default=0,
        help="copy the store into memory at open when it has at most this many quads (AskConfig.in_memory_quads; "
        "default 0: on disk)",
    )
    args = ap.parse_args(argv)
    if args.batch < 1 or args.reps < 1 or args.bulk_batch < 1 or args.repeat < 0:
        ap.error("--batch, --reps and --bulk-batch must be at least 1, --repeat at least 0")
    result = profile(args)
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    baseline = json.loads(args.baseline.read_text(encoding="utf-8")) if args.baseline else None
    summary = write_markdown(result, out.with_suffix(".md"), baseline)
    write_plot(result, out.with_suffix(".png"))
    result["summary"] = summary
    out.with_suffix(".json").write_text(json.dumps(result, indent=1, default=str), encoding="utf-8")
    print(
        f"open {result['open_s']:.1f} s; {result['n']} questions in {result['answer_s']:.1f} s "
        f"({summary['qps']:.2f} q/s); latency p50 {summary['latency_p50_ms']:.0f} ms; "
        f"final SPARQL alone p50 {summary['final_sparql_p50_ms']:.1f} ms; "
        f"ratio {summary['ratio_p50']:.1f} (goal ≤ 3); peak RSS {result['rss_mib']['peak']:.0f} MiB"
    )
    print(f"wrote {out.with_suffix('.md')}, {out.with_suffix('.png')}, {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
