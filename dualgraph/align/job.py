"""``dualgraph align``: train the aligner on an index and write what it accepts.

One run, each step's seconds and the peak memory in the report:

1. export the SKG (:mod:`~dualgraph.align.graph_export`) and embed it with node2vec
   (:mod:`~dualgraph.align.node2vec`, a Ray task with ``use_ray``), reused when the graph is unchanged;
2. read both sides and their anchors (:mod:`~dualgraph.align.sides`, :mod:`~dualgraph.align.anchors`);
   split the anchors into train / validation / test;
3. train the heads (:mod:`~dualgraph.align.train`), early-stopped on the validation anchors;
4. measure recall@1/@10 on the test anchors for the aligner and for name similarity, text embedding
   and node2vec alone;
5. candidates: each entity's nearest SKG nodes in the shared space (FAISS, mutual best); the judge
   (:mod:`~dualgraph.align.judge`: the LLM when the index has one, else a rule calibrated on the
   validation anchors) accepts some;
6. write the accepted pairs: ``skg:alignsWith`` edges and scored ``skgt:Alignment`` nodes in their own
   graph, ``align/alignments.jsonl``, and aliases in the pattern index (:mod:`~dualgraph.align.output`).
"""

from __future__ import annotations

import json
import resource
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from dualgraph.align.anchors import Anchor, find_anchors, split_anchors
from dualgraph.align.node2vec import Node2VecConfig
from dualgraph.align.sides import Side, load_sides, product_groups
from dualgraph.align.train import TrainConfig, recall_at, train_heads

__all__ = ["ALIGN_DIR", "AlignConfig", "align_index"]

ALIGN_DIR = "align"
"""The folder inside an index that holds the node2vec embeddings, the heads, the judge and the pairs."""


class AlignConfig(BaseModel):
    """How ``dualgraph align`` trains and judges."""

    model_config = ConfigDict(extra="forbid")

    keep_types: bool = Field(
        False, description="Keep rdf:type edges in the graph node2vec walks (every product then meets every class)."
    )
    max_degree: int | None = Field(
        None,
        ge=1,
        description="Drop nodes of more edges than this from the walks (hubs such as a value 'Yes'); None: keep all.",
    )
    node2vec: Node2VecConfig = Field(default_factory=Node2VecConfig, description="Walks and skip-gram.")
    train: TrainConfig = Field(default_factory=TrainConfig, description="The projection heads' training.")
    held_out: float = Field(
        0.4,
        ge=0,
        lt=1,
        description="Fraction of anchors held out: half for early stopping and the judge, half for the test.",
    )
    split_seed: int = Field(0, description="Seed of the anchor split.")
    min_jaccard: float = Field(
        0.6, gt=0, le=1, description="Mined anchors: least Jaccard of the two sets of product families."
    )
    min_support: int = Field(3, ge=1, description="Mined anchors: least number of product families in common.")
    max_share: float = Field(
        0.5, gt=0, le=1, description="Mined anchors: neither side may hold for more than this share of products."
    )
    k: int = Field(10, ge=1, description="Nearest SKG nodes looked up per entity.")
    keep_top: int = Field(
        1, ge=0, description="Besides mutual best pairs, each entity's top-n candidates go to the judge."
    )
    target_precision: float = Field(
        0.9, gt=0, le=1, description="The rule judge's threshold is set to reach this precision."
    )
    use_llm: bool = Field(True, description="Judge with the index's LLM when it has one (models.llm).")
    llm_band: float = Field(
        0.2,
        ge=0,
        le=1,
        description="With an LLM, candidates the rule scores at least threshold − this are asked (the rest "
        "stay rejected without a request); 1 asks about every candidate.",
    )


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(n > 0, n, 1.0)


def graph_vectors(skg: Side, tkg: Side, products: list[str], nodes: list[str], vectors: np.ndarray):
    """node2vec rows for SKG nodes (their own; the mean of their products' when outside the walks)
    and for TKG entities (the mean of the rows of the products their pages belong to)."""
    dim = vectors.shape[1] if vectors.ndim == 2 and len(vectors) else 1
    at = {n: i for i, n in enumerate(nodes)}
    prow = np.array([at.get(p, -1) for p in products], dtype=np.int64)

    def mean_of(ps: frozenset[int]) -> np.ndarray:
        rows = prow[list(ps)] if ps else np.zeros(0, np.int64)
        rows = rows[rows >= 0]
        return vectors[rows].mean(axis=0) if len(rows) else np.zeros(dim, np.float32)

    s = np.stack([vectors[at[x]] if x in at else mean_of(ps) for x, ps in zip(skg.iris, skg.products, strict=True)])
    t = np.stack([mean_of(ps) for ps in tkg.products]) if len(tkg) else np.zeros((0, dim), np.float32)
    return _normalise(s), _normalise(t)


def name_ranks(queries: list[str], names: list[str], k: int) -> np.ndarray:
    """For each query, the ``k`` names most similar by :func:`~dualgraph.align.judge.name_similarity`."""
    from dualgraph.align.judge import name_similarity

    out = np.zeros((len(queries), min(k, len(names))), dtype=np.int64)
    for i, q in enumerate(queries):
        sims = np.array([name_similarity(q, n) for n in names])
        out[i] = np.argsort(-sims, kind="stable")[: out.shape[1]]
    return out


def _recall_from_ids(ids: np.ndarray, gold: list[set[int]], ks=(1, 10)) -> dict[str, float]:
    out = {f"recall@{k}": float(np.mean([bool(set(ids[i, :k].tolist()) & g) for i, g in enumerate(gold)])) for k in ks}
    return out


def recall_table(
    test: list[Anchor],
    skg: Side,
    tkg: Side,
    vecs: dict[str, tuple[np.ndarray, np.ndarray]],
) -> dict[str, dict[str, dict[str, float]]]:
    """Recall@1/@10 per method (``vecs``: method -> (skg rows, tkg rows); plus name similarity),
    for all test anchors and per anchor source."""
    table: dict[str, dict[str, dict[str, float]]] = {}
    groups = {"all": test, **{s: [a for a in test if a.source == s] for s in sorted({a.source for a in test})}}
    for group, anchors in groups.items():
        if not anchors:
            continue
        gold = [{a.skg, *a.also} for a in anchors]
        rows = [a.text for a in anchors]
        row: dict[str, dict[str, float]] = {
            "name similarity": _recall_from_ids(name_ranks([tkg.names[i] for i in rows], skg.names, 10), gold)
        }
        for method, (s, t) in vecs.items():
            r = recall_at(t[rows], s, gold)
            row[method] = {k: v for k, v in r.items() if k.startswith("recall")}
        table[group] = {"n": {"anchors": float(len(anchors))}, **row}
    return table


def align_index(
    index_dir: str | Path,
    config: AlignConfig | None = None,
    *,
    use_ray: bool = False,
    progress: bool = False,
    write: bool = True,
    embedder=None,
    llm=None,
    out_dir: str | Path | None = None,
    graph: str | Path | None = None,
) -> dict[str, Any]:
    """Train the aligner on the index in ``index_dir``; with ``write``, store the accepted pairs.
    ``embedder``/``llm``: the index's own models unless given. ``out_dir``: where the embeddings,
    heads, judge and report go (default ``INDEX/align``; a dry run elsewhere leaves the index as it
    was). ``graph``: node pairs written by the Spark job (``jobs/spark_node2vec_graph.py``) instead
    of the in-process export. Returns the report (also saved as ``report.json`` there).

    A run that writes builds the index's next generation and publishes it at the end, as an
    index run does (:mod:`dualgraph.pipeline.generations`): readers meanwhile see the index as it
    was, and a failed run leaves it so. A dry run reads the current generation. The store is the
    one ``store.json`` names, opened through the same check as every reader's (a password goes
    only to an endpoint the user named: :func:`~dualgraph.pipeline.index_store.index_store_config`)."""
    from dualgraph.pipeline.generations import lease, resolve, unshare, writing

    root = Path(index_dir)
    if not write:
        with lease(root) as held:
            out = Path(out_dir) if out_dir is not None else held.dir / ALIGN_DIR
            if out_dir is None:
                unshare(out)  # its files may be shared with another generation's
            return _align(held.dir, config, use_ray, progress, False, embedder, llm, out, graph)
    allowed = {(root / ALIGN_DIR).resolve(), (resolve(root) / ALIGN_DIR).resolve()}
    if out_dir is not None and Path(out_dir).resolve() not in allowed:
        # a later index run re-reads the accepted pairs from INDEX/align to keep the pattern aliases
        raise ValueError(f"a run that writes keeps its files in {root / ALIGN_DIR}, not {out_dir}")
    with writing(root, purpose="align") as gen:
        unshare(gen.dir / ALIGN_DIR, gen.dir / "patterns")  # rewritten here, shared with the last generation
        report = _align(gen.dir, config, use_ray, progress, True, embedder, llm, gen.dir / ALIGN_DIR, graph)
        gen.publish()
    return report


def _align(
    index_dir: Path,
    config: AlignConfig | None,
    use_ray: bool,
    progress: bool,
    write: bool,
    embedder,
    llm,
    out_dir: Path,
    graph: str | Path | None,
) -> dict[str, Any]:
    """:func:`align_index` on one generation's directory, ``out_dir`` settled."""
    from dualgraph.align.candidates import mutual_best
    from dualgraph.align.graph_export import export_graph
    from dualgraph.align.node2vec import run_node2vec
    from dualgraph.models.factory import build_models, index_models
    from dualgraph.pipeline.index_store import index_store_config, open_store

    config = config or AlignConfig()
    out_dir.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"config": config.model_dump(mode="json"), "seconds": {}}
    secs = report["seconds"]
    t_all = time.perf_counter()
    if embedder is None:
        embedder, index_llm = build_models(index_models(index_dir))
        llm = llm if llm is not None else index_llm
    with closing(open_store(index_store_config(index_dir), index_dir, read_only=not write)) as store:
        t = time.perf_counter()
        if graph is not None:
            from dualgraph.align.graph_export import read_graph

            export = read_graph(graph)
        else:
            export = export_graph(store, keep_types=config.keep_types, max_degree=config.max_degree)
        secs["export"] = round(time.perf_counter() - t, 2)
        report["graph"] = {"nodes": len(export.nodes), "edges": len(export.edges), "dropped": export.dropped}
        t = time.perf_counter()
        emb, report["node2vec"] = run_node2vec(export, config.node2vec, out_dir, use_ray=use_ray, progress=progress)
        secs["node2vec"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        skg, tkg, products = load_sides(store)
        anchors = find_anchors(
            skg, tkg, len(products), min_jaccard=config.min_jaccard, min_support=config.min_support,
            max_share=config.max_share, groups=product_groups(store, products),
        )  # fmt: skip
        train, held = split_anchors(anchors, held_out=config.held_out, seed=config.split_seed)
        val, test = split_anchors(held, held_out=0.5, seed=config.split_seed + 1)
        secs["sides_and_anchors"] = round(time.perf_counter() - t, 2)
        report["sides"] = {"skg_nodes": len(skg), "tkg_entities": len(tkg), "products": len(products)}
        report["anchors"] = {
            "all": _by_source(anchors), "train": _by_source(train), "validation": _by_source(val), "test": _by_source(test),
        }  # fmt: skip
        if not len(skg) or not len(tkg):
            report["note"] = "nothing to align: no SKG nodes or no TKG entities"
            return _finish(report, out_dir, t_all)
        t = time.perf_counter()
        skg_text = _embed(embedder, skg.texts, "embed SKG names", progress)
        tkg_text = _embed(embedder, tkg.texts, "embed TKG names", progress)
        skg_graph, tkg_graph = graph_vectors(skg, tkg, products, emb.nodes, emb.vectors)
        secs["embed_texts"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        result = train_heads(skg_text, skg_graph, tkg_text, tkg_graph, train, val, config.train, progress=progress)
        secs["train"] = round(time.perf_counter() - t, 2)
        report["training"] = {
            "best_epoch": result.best_epoch, "epochs_run": result.epochs_run, "seconds": round(result.seconds, 2),
            "history": result.history[:: max(1, len(result.history) // 50)],
        }  # fmt: skip
        heads = result.heads
        skg_proj = heads.project("skg", skg_text, skg_graph)
        tkg_proj = heads.project("tkg", tkg_text, tkg_graph)
        heads.save(out_dir / "heads.pt")
        report["recall"] = recall_table(
            test, skg, tkg,
            {"text embedding": (skg_text, tkg_text), "node2vec": (skg_graph, tkg_graph), "aligner": (skg_proj, tkg_proj)},
        )  # fmt: skip
        t = time.perf_counter()
        # the links are one-to-one where the names already decide: an entity named like an SKG node is
        # that node's, so neither is offered to another ("Width (without stand)" is not "Width (with
        # stand)", though the two are close in every space)
        linked_text = {a.text for a in anchors}
        linked_skg = {j for a in anchors for j in (a.skg, *a.also)}
        found = mutual_best(tkg_proj, skg_proj, k=config.k, keep_top=config.keep_top)
        cands = [c for c in found if c.src not in linked_text and c.dst not in linked_skg]
        report["candidates"] = {"found": len(found), "after_anchors": len(cands)}
        secs["candidates"] = round(time.perf_counter() - t, 2)
        t = time.perf_counter()
        judged, judge_report = _judge(config, skg, tkg, skg_proj, tkg_proj, val, test, cands, llm, out_dir)
        secs["judge"] = round(time.perf_counter() - t, 2)
        report["judge"] = judge_report

        def pair(i: int, j: int, score: float, how: str, cosine: float, anchor: bool) -> dict[str, Any]:
            return {
                "text_iri": tkg.iris[i], "text_name": tkg.names[i], "skg_iri": skg.iris[j], "skg_name": skg.texts[j],
                "skg_kind": skg.kinds[j], "score": round(score, 4), "judge": how, "cosine": round(cosine, 4),
                "anchor": anchor,
            }  # fmt: skip

        pairs = [
            pair(a.text, j, 1.0, a.source, float(tkg_proj[a.text] @ skg_proj[j]), True)
            for a in anchors
            for j in (a.skg, *a.also)
        ]
        new = [
            pair(c.src, c.dst, d.score, d.how, float(c.score), False)
            for c, d in zip(cands, judged, strict=True)
            if d.accepted
        ]
        pairs += new
        # a yes/no entry is also its feature node (one IRI, two rows): one pair per IRI pair
        pairs = list({(p["text_iri"], p["skg_iri"]): p for p in reversed(pairs)}.values())[::-1]
        new = [p for p in pairs if not p["anchor"]]
        report["accepted"] = {
            "anchors": len(pairs) - len(new), "new": len(new), "new_by_kind": _count(p["skg_kind"] for p in new),
        }  # fmt: skip
        with open(out_dir / "alignments.jsonl", "w", encoding="utf-8") as f:
            for p in pairs:
                f.write(json.dumps(p, ensure_ascii=False, sort_keys=True) + "\n")
        if write:
            from dualgraph.align.output import write_alignment_graph
            from dualgraph.align.patterns import apply_to_patterns

            t = time.perf_counter()
            report["written"] = {
                "graph": write_alignment_graph(store, pairs, out_dir / "alignment.nq"),
                "patterns": apply_to_patterns(index_dir, embedder, pairs),
            }
            from dualgraph.pipeline.index_check import refresh_parts

            # the index's manifest must vouch for the patterns and the store as they are now
            refresh_parts(index_dir, store=store, under=("patterns/",))
            secs["write"] = round(time.perf_counter() - t, 2)
    return _finish(report, out_dir, t_all)


def _judge(config, skg, tkg, skg_proj, tkg_proj, val, test, cands, llm, out_dir):
    """Fit the rule on validation anchors (positives; their nearest other nodes as negatives), report it
    on the test anchors, and judge the candidates (the LLM first when there is one)."""
    from dualgraph.align.judge import JudgePair, LLMJudge, RuleJudge, features, judge_candidates

    def feats(i: int, j: int) -> np.ndarray:
        return features(
            float(tkg_proj[i] @ skg_proj[j]), set(tkg.products[i]), set(skg.products[j]), tkg.names[i], skg.names[j]
        )

    def labelled(anchors: list[Anchor]) -> tuple[np.ndarray, np.ndarray]:
        from dualgraph.align.candidates import knn

        pos: list[np.ndarray] = []
        neg: list[np.ndarray] = []
        if anchors:
            _, ids = knn(tkg_proj[[a.text for a in anchors]], skg_proj, k=6)
            for a, row in zip(anchors, ids, strict=True):
                gold = {a.skg, *a.also}
                pos.append(feats(a.text, a.skg))
                neg.extend(feats(a.text, int(j)) for j in row.tolist() if j not in gold)
        return np.array(pos).reshape(-1, 3), np.array(neg).reshape(-1, 3)

    # calibrated on name anchors only: mined anchors were chosen for agreeing products, so as
    # positives they would teach the rule that agreeing products alone make a link
    vpos, vneg = labelled([a for a in val if a.source == "name"])
    tpos, tneg = labelled([a for a in test if a.source == "name"])
    if len(vpos) >= 10 and len(vneg):
        rule = RuleJudge.fit(vpos, vneg, target_precision=config.target_precision)
        how = "fitted on validation anchors"
    else:
        rule = RuleJudge.default()
        how = f"default (uncalibrated): {len(vpos)} validation anchors, fewer than 10"
    rule.save(out_dir / "judge.json")
    rep: dict[str, Any] = {"rule": how, "threshold": rule.threshold, "weights": np.asarray(rule.weights).tolist()}
    if len(tpos):
        rep["test"] = {
            "positives_accepted": float(rule.accept(tpos).mean()),
            "negatives_accepted": float(rule.accept(tneg).mean()) if len(tneg) else None,
            "positives": len(tpos), "negatives": len(tneg),
        }  # fmt: skip
    X = np.array([feats(c.src, c.dst) for c in cands]).reshape(-1, 3)
    llm_judge = LLMJudge(llm) if (llm is not None and config.use_llm) else None
    pairs = [JudgePair(tkg.names[c.src], tkg.descriptions[c.src], skg.names[c.dst], skg.texts[c.dst]) for c in cands]
    judged = (
        judge_candidates(X, rule=rule, llm_judge=llm_judge, pairs=pairs, band=config.llm_band) if len(cands) else []
    )
    rep["judged_by"] = _count(h for _, _, h in judged)
    return judged, rep


def _embed(embedder, texts: list[str], what: str, progress: bool, batch: int = 512) -> np.ndarray:
    """Normalised text vectors, a batch at a time under a progress bar."""
    from dualgraph.progress import progress_bar

    parts = []
    with progress_bar(what, total=len(texts), unit="text", enabled=progress) as bar:
        for s in range(0, len(texts), batch):
            parts.append(embedder.embed(texts[s : s + batch], stage="align"))
            bar.update(len(texts[s : s + batch]))
    return _normalise(np.concatenate(parts)) if parts else np.zeros((0, int(embedder.dim)), np.float32)


def _by_source(anchors: list[Anchor]) -> dict[str, int]:
    return _count(a.source for a in anchors)


def _count(items) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in items:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def _finish(report: dict[str, Any], out_dir: Path, t0: float) -> dict[str, Any]:
    report["seconds"]["total"] = round(time.perf_counter() - t0, 2)
    report["peak_rss_mb"] = round(_peak_mb(), 1)
    tmp = out_dir / ".report.json.tmp"
    tmp.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(out_dir / "report.json")
    return report


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The report without the training history: what a person reads after a run."""
    out = {k: v for k, v in report.items() if k not in ("config", "training")}
    if "training" in report:
        out["training"] = {k: v for k, v in report["training"].items() if k != "history"}
    return out
