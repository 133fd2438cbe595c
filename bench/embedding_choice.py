"""Which embedder on the default index path (issue 12): retrieval quality and speed, side by side.

    .venv/bin/python bench/embedding_choice.py [--quick] [--e2e] [--reembed-minilm]

Compares MiniLM (all-MiniLM-L6-v2, a transformer pass per text) with the static table
distilled from it (:mod:`dualgraph.models.static_embedder`) and with BM25 alone, on the
dev indexes and question sets:

* chunk retrieval: BM25 over chunks, MiniLM chunk vectors, static chunk vectors;
* entity retrieval (entity vote, as the engine runs it: dense + BM25 fused, and dense
  alone, and BM25 alone), top-k and exhaustive (list questions);
* the pattern index: the searches the engine makes while answering the questions
  (recorded with MiniLM), re-run over a static pattern index: top-k agreement;
* recall@k: the share of a question's gold products among the products of the top-k
  chunks (gold from the sets' own answers, see :func:`gold_groups`);
* speed: texts/s of each embedder on entity, chunk and pattern texts, and load time;
* with ``--e2e``: the dev scores with each embedder as the index's embedder (fresh
  index copies under ``--work``, ``dualgraph index / ask / eval``).

MiniLM vectors of entities and chunks come from the saved indexes (checked on a sample
against fresh MiniLM vectors) unless ``--reembed-minilm``; static vectors are always
computed here. Nothing under ``runs/`` is written. Writes
``bench/results/embedding_choice.{md,json}``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dualgraph.eval.inputs import Question, load_questions  # noqa: E402
from dualgraph.eval.metrics import normalise_name  # noqa: E402
from dualgraph.models.base import Embedder  # noqa: E402
from dualgraph.stores.faiss_index import FaissIndex, string_id_hash  # noqa: E402
from dualgraph.tkg.loader import TextualKG  # noqa: E402
from dualgraph.tkg.retrieval import (  # noqa: E402
    BM25Retriever,
    EntityVoteRetriever,
    NaiveVectorRetriever,
    Retrieval,
    entity_text,
)

SHARED = ROOT.parent / "shared" / "eval"
KS = (5, 10, 20)
EXHAUSTIVE_THRESHOLD = 0.45  # the engine's default cut, tuned for MiniLM

# (set, questions, index, dataset, label of the index copy): devmix and devmix_b share the devmix3 catalog.
SETS = [
    (
        "smartprix",
        SHARED / "smartprix/questions.json",
        "runs/smartprix_raw2/raw/index",
        "runs/smartprix_raw2/raw/dataset",
        "sp_raw",
    ),
    ("icecat", SHARED / "icecat/questions.json", "runs/icecat2/ix", "runs/icecat2/ds", "icecat"),
    (
        "devmix",
        ROOT / "bench/own_sets/devmix/questions.json",
        "runs/own_sets/devmix3/index",
        "runs/own_sets/devmix3/dataset",
        "devmix3",
    ),
    (
        "devmix_b",
        ROOT / "bench/own_sets/devmix_b/questions.json",
        "runs/own_sets/devmix3/index",
        "runs/own_sets/devmix3/dataset",
        "devmix3",
    ),
]
# Scored end to end only: the cleaned Smartprix catalog (same questions).
E2E_EXTRA = [
    (
        "smartprix_cleaned",
        SHARED / "smartprix/questions.json",
        "runs/smartprix_raw2/cleaned/index",
        "runs/smartprix_raw2/cleaned/dataset",
        "sp_cleaned",
    ),
]
QUICK_SETS = ("smartprix", "icecat")
# The issue's 2,000-product catalog: texts per stage, to turn texts/s into index seconds.
ISSUE_CATALOG = {"entities": 2670, "chunks": 1260, "patterns": 2959}


# -- gold ----------------------------------------------------------------------------------


def _norm(name: Any) -> str:
    return normalise_name(name, loose=True)


_PAREN_TAIL = re.compile(r"\s*\([^()]*\)\s*$")


class ProductNames:
    """The catalog's product names (from the chunks), for finding the products a question names."""

    def __init__(self, names: Iterable[str]) -> None:
        self.by_norm: dict[str, str] = {}
        self.by_base: dict[str, set[str]] = {}
        for name in names:
            n = _norm(name)
            self.by_norm.setdefault(n, name)
            # "Phone X (8GB RAM + 128GB)": a question may name the model without its variant
            base = _norm(_PAREN_TAIL.sub("", name))
            if base and base != n:
                self.by_base.setdefault(base, set()).add(n)
        self._patterns = {s: re.compile(rf"(?<![\w]){re.escape(s)}(?![\w])") for s in [*self.by_norm, *self.by_base]}

    def mentioned(self, question: str) -> list[set[str]]:
        """Groups of normalised names the question names (a base name: all its variants), longest first;
        a name inside a longer one that also matched is not counted twice."""
        q = _norm(question)
        found = [s for s, rx in self._patterns.items() if s in q and rx.search(q)]
        found.sort(key=len, reverse=True)
        kept: list[str] = []
        for s in found:
            if not any(s in longer for longer in kept):
                kept.append(s)
        groups = []
        for s in kept:
            groups.append({s} if s in self.by_norm else set(self.by_base[s]))
        return groups


def gold_groups(q: Question, names: ProductNames) -> list[set[str]]:
    """The products a question's gold answer needs, as groups of acceptable normalised names.

    List questions: one group per gold item (its title too, where the set gives one).
    Value questions: the gold value when it is a product, and the products the question
    names (found by name in the text), since those are what the text must be found for.
    Aggregations ("how many…") have none and are left out of recall.
    """
    titles = q.gt_answer_titles or []
    if q.is_list:
        items = list(q.gt_answer_list or [])
        return [{_norm(x), *([_norm(titles[i])] if i < len(titles) else [])} for i, x in enumerate(items)]
    groups = []
    value = q.gt_value
    if value is not None:
        alias = {_norm(value), *(_norm(t) for t in titles)}
        if alias & set(names.by_norm):
            groups.append(alias)
    for g in names.mentioned(q.question):
        if not any(g & other for other in groups):
            groups.append(g)
    return groups


def recall(products: Sequence[str], groups: list[set[str]]) -> float:
    found = {_norm(p) for p in products}
    return sum(1 for g in groups if g & found) / len(groups)


# -- embedders and indexes ---------------------------------------------------------------


class _NoDense:
    """A vector index that finds nothing, for BM25-only entity retrieval."""

    def search(self, queries: np.ndarray, *, k: int) -> list[list[tuple[str, float]]]:
        return [[] for _ in range(len(queries))]

    def range_search(self, queries: np.ndarray, *, min_score: float) -> list[list[tuple[str, float]]]:
        return [[] for _ in range(len(queries))]


class _ZeroEmbedder:
    name, dim = "none", 1

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        return np.zeros((len(texts), 1), dtype=np.float32)


def _faiss(ids: list[str], vectors: np.ndarray) -> FaissIndex:
    index = FaissIndex(vectors.shape[1], gpu=False)
    index.add(ids, vectors)
    return index


def _saved_vectors(index: FaissIndex, ids: list[str]) -> np.ndarray:
    # The wrapper keeps no public way to read vectors back; its IndexIDMap2 does.
    inner = index._index
    return np.stack([inner.reconstruct(string_id_hash(i)) for i in ids]).astype(np.float32)


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def short_entity_text(name: str, description: str, words: int = 12) -> str:
    """An entity's name and the first ``words`` words of its description: the "short description"
    the issue proposes embedding instead of the whole (up to 120-token) description."""
    head = " ".join(description.split()[:words])
    return f"{name}: {head}" if head else name


def _embed_all(embedder: Embedder, texts: list[str], batch: int = 256) -> np.ndarray:
    parts = [embedder.embed(texts[i : i + batch], stage="bench") for i in range(0, len(texts), batch)]
    return np.concatenate(parts) if parts else np.zeros((0, embedder.dim), np.float32)


def load_seconds(kind: str) -> float:
    """Seconds from import to a ready embedder, in a fresh process (what a CLI start pays)."""
    make = {
        "minilm": "from dualgraph.models.embedders import SentenceTransformerEmbedder as E; E()",
        "static": "from dualgraph.models.static_embedder import StaticEmbedder as E; E()",
    }[kind]
    code = f"import time; t=time.perf_counter(); {make}; print(time.perf_counter()-t)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


# -- per index ---------------------------------------------------------------------------


@dataclass
class IndexBench:
    """One index's TKG with every choice's retrievers built."""

    path: str
    tkg: TextualKG
    retrievers: dict[str, Any] = field(default_factory=dict)
    exhaustive: dict[str, tuple[Any, float | None]] = field(default_factory=dict)
    check: dict[str, float] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    entity_vectors: dict[str, np.ndarray] = field(default_factory=dict)


def build_index_bench(
    path: str, minilm: Embedder, static: Embedder, *, reembed_minilm: bool, rng: random.Random
) -> IndexBench:
    tkg = TextualKG.open(ROOT / path)
    chunks, entities = tkg.chunks, tkg.entities
    ent_ids, ent_texts = list(entities), [entity_text(e) for e in entities.values()]
    chunk_ids, chunk_texts = list(chunks), [c.text for c in chunks.values()]
    ib = IndexBench(path, tkg, sizes={"entities": len(ent_ids), "chunks": len(chunk_ids)})

    if reembed_minilm or tkg.chunk_index is None:
        m_ent, m_chunk = _embed_all(minilm, ent_texts, 64), _embed_all(minilm, chunk_texts, 64)
    else:
        m_ent, m_chunk = _saved_vectors(tkg.entity_index, ent_ids), _saved_vectors(tkg.chunk_index, chunk_ids)
        # the saved vectors stand for MiniLM only if fresh MiniLM vectors of a sample agree
        for label, ids, texts, saved in (
            ("entities", ent_ids, ent_texts, m_ent),
            ("chunks", chunk_ids, chunk_texts, m_chunk),
        ):
            rows = rng.sample(range(len(ids)), min(48, len(ids)))
            fresh = minilm.embed([texts[r] for r in rows], stage="bench")
            cos = np.sum(fresh * saved[rows], axis=1)
            ib.check[f"saved_vs_fresh_minilm_{label}_min_cos"] = round(float(cos.min()), 4)
    s_ent, s_chunk = _embed_all(static, ent_texts, 1024), _embed_all(static, chunk_texts, 1024)
    # MiniLM on names only, and on names with a short description: far fewer tokens a text
    m_names = _embed_all(minilm, [e.name for e in entities.values()], 256)
    m_short = _embed_all(minilm, [short_entity_text(e.name, e.description) for e in entities.values()], 128)

    vec = {"minilm": (m_ent, m_chunk), "static": (s_ent, s_chunk)}
    emb = {"minilm": minilm, "static": static}
    r = ib.retrievers
    r["chunks: BM25"] = BM25Retriever.from_chunks(chunks, top_chunks=max(KS), token_budget=10**9)
    ent_index: dict[str, FaissIndex] = {}
    for kind in ("minilm", "static"):
        e_vec, c_vec = vec[kind]
        ent_index[kind] = _faiss(ent_ids, e_vec)
        r[f"chunks: {kind} vectors"] = NaiveVectorRetriever(
            emb[kind], _faiss(chunk_ids, c_vec), chunks, top_chunks=max(KS), token_budget=10**9
        )
    for kind in ("minilm", "static"):
        common = dict(top_chunks=max(KS), token_budget=10**9)
        r[f"entities: hybrid {kind} + BM25"] = EntityVoteRetriever(
            emb[kind], ent_index[kind], entities, None, chunks, lexical=tkg.lexical, **common
        )
        r[f"entities: dense {kind}"] = EntityVoteRetriever(emb[kind], ent_index[kind], entities, None, chunks, **common)
    for label, vectors in (("names", m_names), ("name + 12 words", m_short)):
        r[f"entities: hybrid minilm({label}) + BM25"] = EntityVoteRetriever(
            minilm, _faiss(ent_ids, vectors), entities, None, chunks, lexical=tkg.lexical,
            top_chunks=max(KS), token_budget=10**9,
        )  # fmt: skip
    r["entities: BM25 only"] = EntityVoteRetriever(
        _ZeroEmbedder(), _NoDense(), entities, None, chunks, lexical=tkg.lexical, top_chunks=max(KS), token_budget=10**9
    )
    ib.exhaustive = {
        "minilm @0.45": (r["entities: hybrid minilm + BM25"], EXHAUSTIVE_THRESHOLD),
        "static @0.45": (r["entities: hybrid static + BM25"], EXHAUSTIVE_THRESHOLD),
        "minilm(names) @0.45": (r["entities: hybrid minilm(names) + BM25"], EXHAUSTIVE_THRESHOLD),
        "names only (no dense)": (r["entities: BM25 only"], EXHAUSTIVE_THRESHOLD),
    }
    ib.entity_vectors = {"minilm": m_ent, "static": s_ent}
    return ib


def calibrate_threshold(ib: IndexBench, questions: list[str], minilm: Embedder, static: Embedder) -> float:
    """The static cut whose mean count of matched entities equals MiniLM's at 0.45 (no gold used)."""
    vectors = ib.entity_vectors
    m_sim = minilm.embed(questions, stage="bench") @ vectors["minilm"].T
    s_sim = static.embed(questions, stage="bench") @ vectors["static"].T
    target = float((m_sim >= EXHAUSTIVE_THRESHOLD).sum(axis=1).mean())
    grid = np.round(np.arange(0.30, 0.951, 0.01), 2)
    counts = [(abs(float((s_sim >= t).sum(axis=1).mean()) - target), float(t)) for t in grid]
    return min(counts)[1]


# -- scoring -----------------------------------------------------------------------------


def score_topk(results: list[Retrieval], golds: list[list[set[str]]]) -> dict[str, float]:
    out = {}
    for k in KS:
        vals = []
        for res, groups in zip(results, golds, strict=True):
            products = list(dict.fromkeys(p for c in res.candidates[:k] for p in c.chunk.products))
            vals.append(recall(products, groups))
        out[f"r@{k}"] = float(np.mean(vals)) if vals else float("nan")
    return out


def score_exhaustive(results: list[Retrieval], golds: list[list[set[str]]]) -> dict[str, float]:
    rec, prec, size = [], [], []
    for res, groups in zip(results, golds, strict=True):
        products = res.products
        rec.append(recall(products, groups))
        wanted = set().union(*groups)
        size.append(len(products))
        prec.append(sum(1 for p in products if _norm(p) in wanted) / len(products) if products else 0.0)
    return {"recall": float(np.mean(rec)), "precision": float(np.mean(prec)), "products": float(np.mean(size))}


# -- pattern index -----------------------------------------------------------------------


def pattern_agreement(
    index_path: str, question_sets: list[Path], minilm: Embedder, static: Embedder, limit: int | None
) -> dict[str, Any]:
    """Record the pattern searches the engine makes (MiniLM index) and re-run them on a static one."""
    from dualgraph.answer.engine import QAEngine
    from dualgraph.lexicon.pattern_index import PatternIndex, read_patterns

    calls: list[tuple[str, int, tuple[str, ...] | None]] = []
    original = PatternIndex.search

    def recording(self, texts, *, k=10, kinds=None, depth=None):
        for t in texts:
            calls.append((t, k, tuple(kinds) if kinds is not None else None))
        return original(self, texts, k=k, kinds=kinds, depth=depth)

    PatternIndex.search = recording  # type: ignore[method-assign]
    try:
        engine = QAEngine.open(ROOT / index_path)
        try:
            for qpath in question_sets:
                items = [(qid, q.question) for qid, q in load_questions(qpath).items()][:limit]
                engine.answer_batch(items)
        finally:
            engine.close()
    finally:
        PatternIndex.search = original  # type: ignore[method-assign]
    patterns = read_patterns(ROOT / index_path / "patterns")
    m_index = PatternIndex.load(ROOT / index_path / "patterns", minilm)
    s_index, s_build = _timed(lambda: PatternIndex.build(patterns, static))
    unique = list(dict.fromkeys(calls))
    overlap, top1 = [], []
    for text, k, kinds in unique:
        a = [p.pattern_id for p, _ in m_index.search([text], k=k, kinds=kinds)[0]]
        b = [p.pattern_id for p, _ in s_index.search([text], k=k, kinds=kinds)[0]]
        if not a:
            continue
        overlap.append(len(set(a) & set(b)) / len(a))
        top1.append(float(bool(b) and a[0] == b[0]))
    return {
        "patterns": len(patterns),
        "searches": len(unique),
        "overlap@k": float(np.mean(overlap)) if overlap else float("nan"),
        "top1_agreement": float(np.mean(top1)) if top1 else float("nan"),
        "static_build_s": round(s_build, 2),
    }


# -- speed -------------------------------------------------------------------------------


def speed(embedders: dict[str, Embedder], samples: dict[str, list[str]]) -> dict[str, dict[str, float]]:
    """texts/s per embedder and kind of text, on the same distinct texts, one after the other."""
    out: dict[str, dict[str, float]] = {}
    for kind, texts in samples.items():
        for name, e in embedders.items():
            e.embed(texts[:8], stage="warmup")
            _, secs = _timed(lambda e=e, texts=texts: _embed_all(e, texts, 64))
            out.setdefault(name, {})[kind] = len(texts) / secs
    return out


# -- end to end --------------------------------------------------------------------------


def _cli(*args: Any, log: Path) -> tuple[int, float]:
    t0 = time.perf_counter()
    with open(log, "w") as f:
        rc = subprocess.run(
            [sys.executable, "-m", "dualgraph.cli", *map(str, args)], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT
        ).returncode
    return rc, time.perf_counter() - t0


def end_to_end(work: Path, sets: list[tuple[str, Path, str, str, str]], *, reuse: bool) -> dict[str, Any]:
    """Index copies with each embedder (MiniLM starts from a copy of its index's response cache,
    so only the static side pays for embedding), answered and scored by the CLI."""
    work.mkdir(parents=True, exist_ok=True)
    static_cfg = work / "static.yaml"
    static_cfg.write_text("models:\n  embedder:\n    kind: static\n", encoding="utf-8")
    out: dict[str, Any] = {"build_s": {}, "ask_s": {}, "score": {}}
    for kind in ("minilm", "static"):
        answers = work / f"ans_{kind}"
        answers.mkdir(exist_ok=True)
        for name, qpath, index, dataset, label in sets:
            ix = work / f"ix_{label}_{kind}"
            if not (reuse and (ix / "manifest.json").is_file()):
                shutil.rmtree(ix, ignore_errors=True)
                extra: list[Any] = []
                if kind == "minilm":
                    (ix / "cache").mkdir(parents=True)
                    shutil.copy2(ROOT / index / "cache" / "responses.sqlite", ix / "cache")
                else:
                    extra = ["--config", static_cfg]
                rc, secs = _cli("index", ROOT / dataset, "--index", ix, "--runner", "inline", "--no-progress",
                                *extra, log=work / f"build_{ix.name}.log")  # fmt: skip
                out["build_s"][f"{ix.name}"] = round(secs, 1) if rc == 0 else f"failed rc={rc}"
            manifest = json.loads((ix / "manifest.json").read_text()) if (ix / "manifest.json").is_file() else {}
            out.setdefault("index_seconds", {})[ix.name] = (manifest.get("seconds") or {}).get("total")
            usage = manifest.get("model_usage") or {}
            out.setdefault("embed_seconds", {})[ix.name] = round(sum(v.get("seconds", 0.0) for v in usage.values()), 1)
            ans = answers / f"{name}.jsonl"
            if not (reuse and ans.is_file()):
                rc, secs = _cli("ask", "--index", ix, "--questions", qpath, "--out", ans, "--runner", "inline",
                                "--no-progress", "--no-resume", log=work / f"ask_{kind}_{name}.log")  # fmt: skip
                out["ask_s"][f"{kind}/{name}"] = round(secs, 1)
            report = work / f"rep_{kind}_{name}"
            rc, _ = _cli("eval", "--questions", qpath, "--answers", ans, "--report", report, log=work / "eval.log")
            metrics = json.loads((report / "metrics.json").read_text()) if rc == 0 else {}
            out["score"].setdefault(name, {})[kind] = (metrics.get("summary") or {}).get("overall")
    return out


# -- report ------------------------------------------------------------------------------


def _f(x: Any, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "-"
    return f"{x:.{digits}f}" if isinstance(x, float) else str(x)


def path_estimates(result: dict[str, Any]) -> dict[str, float]:
    """Seconds to embed the issue catalog on each candidate default path (texts / texts-per-second + load)."""
    m, st, load = result["speed"]["MiniLM"], result["speed"]["static"], result["load_s"]
    n = ISSUE_CATALOG
    return {
        "MiniLM: entities + chunks + patterns (today)": load["MiniLM"]
        + n["entities"] / m["entities"]
        + n["chunks"] / m["chunks"]
        + n["patterns"] / m["patterns"],
        "MiniLM: entities + patterns (no chunk vectors)": load["MiniLM"]
        + n["entities"] / m["entities"]
        + n["patterns"] / m["patterns"],
        "MiniLM: entity names + patterns": load["MiniLM"]
        + n["entities"] / m["entity names"]
        + n["patterns"] / m["patterns"],
        "MiniLM: entity name + 12 words + patterns": load["MiniLM"]
        + n["entities"] / m["entity name + 12 words"]
        + n["patterns"] / m["patterns"],
        "static: entities + chunks + patterns": load["static"]
        + n["entities"] / st["entities"]
        + n["chunks"] / st["chunks"]
        + n["patterns"] / st["patterns"],
    }


def write_report(result: dict[str, Any], out: Path) -> None:
    lines = ["# Embedding choice (issue 12)", "", f"Run: {result['run']}", ""]
    lines += ["## Recall@k of gold products among the products of the top-k chunks", ""]
    sets = list(result["recall"])
    head = "| choice | " + " | ".join(f"{s} r@{k}" for s in sets for k in KS) + " | mean r@10 |"
    lines += [head, "|" + "---|" * (2 + len(sets) * len(KS))]
    choices = list(next(iter(result["recall"].values()))["topk"])
    for c in choices:
        cells = [_f(result["recall"][s]["topk"][c][f"r@{k}"]) for s in sets for k in KS]
        mean = np.mean([result["recall"][s]["topk"][c]["r@10"] for s in sets])
        lines.append(f"| {c} | " + " | ".join(cells) + f" | {_f(float(mean))} |")
    lines += ["", "Questions with gold products per set: "
              + ", ".join(f"{s} {result['recall'][s]['n']} of {result['recall'][s]['questions']}" for s in sets), ""]  # fmt: skip
    lines += ["## Exhaustive entity mode (list questions): recall / precision / products returned", ""]
    ex_choices = list(next(iter(result["recall"].values()))["exhaustive"])
    lines += ["| choice | " + " | ".join(sets) + " |", "|" + "---|" * (1 + len(sets))]
    for c in ex_choices:
        cells = []
        for s in sets:
            x = result["recall"][s]["exhaustive"].get(c)
            cells.append("-" if x is None else f"{x['recall']:.3f} / {x['precision']:.3f} / {x['products']:.0f}")
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    lines += ["", "Static cut calibrated per index so that the mean count of matched entities equals MiniLM's at 0.45: "
              + ", ".join(f"{k} {v}" for k, v in result["calibrated_threshold"].items()), ""]  # fmt: skip
    lines += ["## Pattern index: searches the engine made (MiniLM), re-run on a static pattern index", ""]
    lines += ["| index | patterns | searches | overlap@k with MiniLM | top-1 agreement |", "|---|---|---|---|---|"]
    for ix, p in result["patterns"].items():
        lines.append(f"| {ix} | {p['patterns']} | {p['searches']} | {_f(p['overlap@k'])} | {_f(p['top1_agreement'])} |")
    lines += ["", "## Speed on this box (texts/s; same distinct texts, one embedder after the other)", ""]
    kinds = list(next(iter(result["speed"].values())))
    lines += ["| embedder | load s (fresh process) | " + " | ".join(kinds) + " |", "|" + "---|" * (2 + len(kinds))]
    for name, v in result["speed"].items():
        speeds = " | ".join(f"{v[k]:.1f}" if v[k] < 100 else f"{v[k]:.0f}" for k in kinds)
        lines.append(f"| {name} | {_f(result['load_s'].get(name), 2)} | {speeds} |")
    lines += ["", f"Estimated embedding seconds of the issue's 2,000-product catalog ({ISSUE_CATALOG} texts), "
              "from the texts/s above, plus the load:", "", "| path | seconds |", "|---|---|"]  # fmt: skip
    for path, seconds in path_estimates(result).items():
        lines.append(f"| {path} | {seconds:.1f} |")
    lines += ["", f"Checks: {json.dumps(result['checks'])}", ""]
    if result.get("e2e"):
        e = result["e2e"]
        lines += ["## End to end (fresh index copies, `dualgraph index/ask/eval`, overall score)", ""]
        lines += ["| set | MiniLM | static |", "|---|---|---|"]
        for s, v in e["score"].items():
            lines.append(f"| {s} | {_f(v.get('minilm'))} | {_f(v.get('static'))} |")
        lines += [
            "",
            f"Index seconds (manifest, whole build): {json.dumps(e.get('index_seconds', {}))}",
            f"Embedding seconds in those builds (MiniLM copies start from their index's response cache): "
            f"{json.dumps(e.get('embed_seconds', {}))}",
            f"Build seconds (wall, this run): {json.dumps(e['build_s'])}",
            f"Ask seconds: {json.dumps(e['ask_s'])}",
            "",
        ]
    out.with_suffix(".md").write_text("\n".join(lines), encoding="utf-8")
    out.with_suffix(".json").write_text(json.dumps(result, indent=1, default=float), encoding="utf-8")


# -- main --------------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="two small sets, small speed samples, fewer pattern questions")
    ap.add_argument("--e2e", action="store_true", help="also build index copies with each embedder, answer and score")
    ap.add_argument("--work", type=Path, default=Path("/tmp/embedding_choice"), help="folder for --e2e index copies")
    ap.add_argument("--reuse", action="store_true", help="--e2e: keep index copies and answers already in --work")
    ap.add_argument(
        "--e2e-only", action="store_true", help="keep the retrieval and speed results of --out; run only --e2e"
    )
    ap.add_argument("--reembed-minilm", action="store_true", help="embed entities and chunks with MiniLM here")
    ap.add_argument("--out", type=Path, default=ROOT / "bench/results/embedding_choice")
    args = ap.parse_args()
    rng = random.Random(12)
    sets = [s for s in SETS if not args.quick or s[0] in QUICK_SETS]
    if args.e2e_only:
        result = json.loads(args.out.with_suffix(".json").read_text(encoding="utf-8"))
        result["e2e"] = end_to_end(args.work, sets + ([] if args.quick else E2E_EXTRA), reuse=args.reuse)
        write_report(result, args.out)
        print(f"e2e: {result['e2e']}\nwrote {args.out.with_suffix('.md')}")
        return

    from dualgraph.models.embedders import SentenceTransformerEmbedder
    from dualgraph.models.static_embedder import StaticEmbedder

    load = {"static": load_seconds("static"), "minilm": load_seconds("minilm")}
    static = StaticEmbedder()
    minilm = SentenceTransformerEmbedder()
    print(f"loaded: {load}; static {static.name} dim {static.dim}", flush=True)

    benches: dict[str, IndexBench] = {}
    result: dict[str, Any] = {
        "run": f"{time.strftime('%Y-%m-%d %H:%M')} quick={args.quick} static={static.name}",
        "recall": {},
        "calibrated_threshold": {},
        "patterns": {},
        "checks": {},
        "load_s": {"MiniLM": round(load["minilm"], 2), "static": round(load["static"], 2)},
    }
    for name, qpath, index, _, _ in sets:
        questions = load_questions(qpath)
        if index not in benches:
            benches[index] = build_index_bench(index, minilm, static, reembed_minilm=args.reembed_minilm, rng=rng)
            ib = benches[index]
            all_q = [q.question for _, p2, i2, _, _ in sets if i2 == index for q in load_questions(p2).values()]
            cut = calibrate_threshold(ib, all_q, minilm, static)
            result["calibrated_threshold"][index] = cut
            ib.exhaustive["static @calibrated cut"] = (ib.retrievers["entities: hybrid static + BM25"], cut)
            result["checks"][index] = {**{k: v for k, v in ib.check.items()}, **ib.sizes}
        ib = benches[index]
        names = ProductNames(p for c in ib.tkg.chunks.values() for p in c.products)
        scored = [(q, g) for q in questions.values() if (g := gold_groups(q, names))]
        texts, golds = [q.question for q, _ in scored], [g for _, g in scored]
        topk = {c: score_topk(r.retrieve(texts), golds) for c, r in ib.retrievers.items()}
        lists = [(q.question, g) for q, g in scored if q.is_list]
        exhaustive = {}
        for c, (r, cut) in ib.exhaustive.items():
            got = r.retrieve([t for t, _ in lists], exhaustive=True, threshold=cut)
            exhaustive[c] = score_exhaustive(got, [g for _, g in lists])
        result["recall"][name] = {"n": len(scored), "questions": len(questions), "topk": topk, "exhaustive": exhaustive}
        print(f"{name}: {len(scored)} of {len(questions)} questions with gold", flush=True)
        for c, v in topk.items():
            print(f"  {c:34s} " + "  ".join(f"{k} {x:.3f}" for k, x in v.items()), flush=True)

    # pattern index: the engine's own searches while answering
    for index in dict.fromkeys(i for _, _, i, _, _ in sets):
        qsets = [p for _, p, i, _, _ in sets if i == index]
        result["patterns"][index] = pattern_agreement(index, qsets, minilm, static, 15 if args.quick else None)
        print(f"patterns {index}: {result['patterns'][index]}", flush=True)

    # speed: the same distinct texts through each embedder
    ib = benches[sets[-1][2]]
    n = 64 if args.quick else 256
    from dualgraph.lexicon.pattern_index import read_patterns

    pattern_texts = list(dict.fromkeys(p.text for p in read_patterns(ROOT / sets[-1][2] / "patterns")))
    ents = rng.sample(sorted(ib.tkg.entities.values(), key=lambda e: e.entity_id), n)
    samples = {
        "entities": list(dict.fromkeys(entity_text(e) for e in ents)),
        "entity names": list(dict.fromkeys(e.name for e in ents)),
        "entity name + 12 words": list(dict.fromkeys(short_entity_text(e.name, e.description) for e in ents)),
        "chunks": rng.sample(sorted({c.text for c in ib.tkg.chunks.values()}), n // 2),
        "patterns": rng.sample(pattern_texts, min(n, len(pattern_texts))),
    }
    result["speed"] = speed({"MiniLM": minilm, "static": static}, samples)
    result["speed_sample"] = {k: len(v) for k, v in samples.items()}
    print(f"speed: {result['speed']}", flush=True)

    if args.e2e:
        result["e2e"] = end_to_end(args.work, sets + ([] if args.quick else E2E_EXTRA), reuse=args.reuse)
        print(f"e2e: {result['e2e']}", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_report(result, args.out)
    print(f"wrote {args.out.with_suffix('.md')}")


if __name__ == "__main__":
    main()
