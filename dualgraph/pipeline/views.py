"""The derived views of an index, as a declared plan the index driver walks.

The document pass (read, convert, load: :mod:`dualgraph.pipeline.index`) keeps one graph per
source document up to date by content hash. Everything else in an index is derived from those
graphs and their spec tables, and each derived part is a :class:`View` here: what it reads, what it
writes, the key whose change makes it stale (its recipe: rules, models, settings), and how it is
built. :func:`walk` builds, in plan order, every view that is stale: marked so in the index state
(a document changed, an earlier run stopped half-way) or because a view it reads was just rebuilt.

``dualgraph plan`` prints :func:`describe` (the same table is in docs/index-layout.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dualgraph.config import IndexConfig
from dualgraph.lexicon.holders import TABLES_VERSION
from dualgraph.pipeline.faults import fault_point
from dualgraph.pipeline.generations import unshare
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.pipeline.rule_focus import expand_focus
from dualgraph.pipeline.stage import Row
from dualgraph.pipeline.state import IndexState, state_key
from dualgraph.skg.catalog_facts import CATALOG_FACTS_VERSION
from dualgraph.skg.catalog_graph import changed_subjects, derive_catalog_facts
from dualgraph.skg.rules import apply_rules
from dualgraph.stores.heap import release_free_memory


def signature(parts: Any) -> str:
    """A short, stable hash of JSON-able ``parts`` (a view's recipe).

    >>> signature({"b": 1, "a": [2]}) == signature({"a": [2], "b": 1})
    True
    """
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass
class Build:
    """What a view's build is handed: this run's store, state and settings, and what the
    document pass found (its rows, the records of every loaded document, the products whose
    derived facts may change)."""

    layout: IndexLayout
    store: Any
    state: IndexState
    config: IndexConfig
    rules: list[Any]
    market: str
    known: dict[str, dict[str, Any]]
    rows: list[Row]
    focus: set[str]
    rules_by_focus: bool
    specs: Any
    """The spec tables of the loaded documents (``tables``; None for an index older than them)."""
    models: Any
    """The embedder and LLM, loaded on first use (``embedder``, ``llm``)."""
    derive_market_prices: Callable[[Any, list[str]], Any] | None = None
    reports: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class View:
    """One derived part of an index.

    ``reads``: the document graphs and tables (``"documents"``) and the views it derives from;
    a view is rebuilt after any view it reads. ``writes``: the graphs and files it replaces.
    ``key``: its recipe's signature from the settings and rules (None: it follows what it reads
    only). ``enabled``: whether the settings build it at all. ``build`` returns its manifest
    entries. ``persisted``: whether the index state keeps its stale flag (crash-safe)."""

    name: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    summary: str
    build: Callable[[Build], dict[str, Any]]
    key: Callable[[IndexConfig, list[Any]], str] | None = None
    enabled: Callable[[IndexConfig], bool] = lambda config: True
    reports: tuple[str, ...] = ()


def _rules_key(config: IndexConfig, rules: list[Any]) -> str:
    # the catalog facts (brands, lines, types) are derived with the rules: a new derivation re-runs them
    return signature([r.model_dump() for r in rules] + [{"catalog_facts": CATALOG_FACTS_VERSION}])


def _tkg_key(config: IndexConfig, rules: list[Any]) -> str:
    return signature(
        [
            config.tkg.model_dump(),
            config.models.embedder.model_dump(),
            config.models.llm.model if config.models.llm else None,
            # only when set: an index built before the batch stage existed keeps its signature
            *([config.models.llm_batch.model] if config.models.llm_batch else []),
        ]
    )


def _patterns_key(config: IndexConfig, rules: list[Any]) -> str:
    # patterns describe derived facts too (features), so they follow the rules, and the tables
    # written beside them (an index built before a table existed builds it once)
    return signature([config.models.embedder.model_dump(), config.patterns, _rules_key(config, rules), TABLES_VERSION])


def _build_rules(b: Build) -> dict[str, Any]:
    """Catalog facts, then the rules (for the changed products alone when the derived graph was
    whole), then each market's price summaries."""
    saved_catalog = b.layout.root / "skg" / "catalog.nq"
    before = saved_catalog.with_name("catalog.before.nq")
    if saved_catalog.is_file():
        os.replace(saved_catalog, before)
    catalog = derive_catalog_facts(b.store, progress=b.config.progress, specs=b.specs.tables, keep=saved_catalog)
    fault_point("catalog")
    run_focus: set[str] | None = None  # None: recompute the whole derived graph
    if b.rules_by_focus and before.is_file():  # else which products the catalog facts touch is unknown
        # the records just written for the loaded documents hold their products
        keys = [state_key(b.market, r["meta_path"]) for r in b.rows if r["status"] == "ok"]
        loaded_now = {p for k in keys if k in b.known for p in b.known[k].get("product_iris", [])}
        run_focus = expand_focus(b.store, b.focus | loaded_now | changed_subjects(before, saved_catalog))
    products = sum(len(d.get("product_iris", [])) for d in b.known.values() if d.get("loaded"))
    if run_focus is not None and len(run_focus) > b.config.incremental_rules_share * products:
        run_focus = None  # most of the catalog changed: one pass over everything costs less
    report = apply_rules(
        b.store,
        b.rules,
        progress=b.config.progress,
        focus=sorted(run_focus) if run_focus is not None else None,
        tables=b.specs.tables,
    )
    before.unlink(missing_ok=True)
    if b.derive_market_prices is not None:
        b.derive_market_prices(b.store, b.state.markets())
    fault_point("rules")
    release_free_memory()  # the rule twins' Arrow group-bys and the SPARQL results are gone
    return {"rules": report.to_dict(), "catalog": catalog}


SPEC_TABLES_HELD_BYTES = 512 * 2**20
"""Spec tables up to this size stay in memory through the Textual KG build (about 25k products)."""


def _build_tkg(b: Build) -> dict[str, Any]:
    from dualgraph.pipeline.tkg_build import build_tkg

    b.specs.release(above=SPEC_TABLES_HELD_BYTES)
    # the text graph's files are shared with the last generation until now: some are rewritten in place
    unshare(*(b.layout.tkg / p for p in os.listdir(b.layout.tkg) if p != "shards"))
    report = build_tkg(b.layout, b.known, b.config, b.store, embedder=b.models.embedder, llm=b.models.llm)
    fault_point("tkg")
    release_free_memory()  # the merge's and the text graph's Python objects are gone
    return {"tkg": report}


def _build_patterns(b: Build) -> dict[str, Any]:
    from dualgraph.lexicon.patterns import build_pattern_index

    # the spec statistics from the converter's tables, not from queries over the whole store
    unshare(b.layout.root / "patterns")
    report = build_pattern_index(
        b.store, b.models.embedder, b.layout.root / "patterns", progress=b.config.progress, specs=b.specs.tables
    )
    fault_point("patterns")
    return {"patterns": report}


def _build_lexicon(b: Build) -> dict[str, Any]:
    from dualgraph.lexicon.mining import mine_index

    # page words beside spec values, read once here rather than by every question-answering process
    fault_point("lexicon")
    unshare(b.layout.tkg / "prose_lexicon.json")
    return {"prose_lexicon": mine_index(b.layout.root, b.store, progress=b.config.progress, specs=b.specs.tables)}


PLAN: tuple[View, ...] = (
    View(
        "rules",
        reads=("documents",),
        writes=("graph skg:catalog", "graph skg:derived", "market price graphs", "skg/catalog.nq"),
        summary="catalog facts (brands, lines, types), rule-derived features and ranges, market price summaries",
        build=_build_rules,
        key=_rules_key,
        reports=("rules", "catalog"),
    ),
    View(
        "tkg",
        reads=("documents",),
        writes=("graph skg:text", "tkg/ (entities, vectors, text facts, page hits)"),
        summary="the Textual KG: merged entities, their vectors, prose facts about products",
        build=_build_tkg,
        key=_tkg_key,
        enabled=lambda config: config.tkg.enabled,
        reports=("tkg",),
    ),
    View(
        "patterns",
        reads=("documents", "rules"),
        writes=("patterns/ (pattern index, holders, value names, statistics)",),
        summary="the graph pattern index and the per-entry tables the reader grounds with",
        build=_build_patterns,
        key=_patterns_key,
        enabled=lambda config: bool(config.patterns),
        reports=("patterns",),
    ),
    View(
        "lexicon",
        reads=("tkg", "patterns"),
        writes=("tkg/prose_lexicon.json",),
        summary="page words beside spec values, mined once for every answering process",
        build=_build_lexicon,
        enabled=lambda config: config.tkg.enabled and bool(config.patterns),
        reports=("prose_lexicon",),
    ),
)


def check_keys(state: IndexState, config: IndexConfig, rules: list[Any]) -> None:
    """Mark stale every view whose recipe changed since it was built (before any document is judged)."""
    for view in PLAN:
        if view.key is not None:
            state.check_signature(view.name, view.key(config, rules))


def walk(b: Build, *, plan: tuple[View, ...] = PLAN) -> dict[str, Any]:
    """Build every enabled view that is stale or reads a view rebuilt in this walk, in plan order;
    returns the manifest entries: each view's reports (``"unchanged"`` or ``"disabled"`` when not
    built) and ``views``: per view, whether it was built and its seconds."""
    rebuilt: set[str] = set()
    timing: dict[str, Any] = {}
    out: dict[str, Any] = {}
    for view in plan:
        if not view.enabled(b.config):
            out.update(dict.fromkeys(view.reports, "disabled"))
            timing[view.name] = {"built": False, "why": "disabled"}
            continue
        due = b.state.stale.get(view.name, True) or any(r in rebuilt for r in view.reads)
        if not due:
            out.update(dict.fromkeys(view.reports, "unchanged"))
            timing[view.name] = {"built": False, "why": "up to date"}
            continue
        t0 = time.time()
        out.update(view.build(b))
        b.state.set_stale(False, views=(view.name,))
        rebuilt.add(view.name)
        timing[view.name] = {"built": True, "seconds": round(time.time() - t0, 3)}
    out["views"] = timing
    return out


DOCUMENTS = {
    "view": "documents",
    "reads": "the dataset directory",
    "writes": "one graph per document; skg/shards (N-Quads, spec tables); tkg/shards (chunks, mentions)",
    "key": "content hash per document, with the converter's and extractor's versions",
    "holds": "the stages read, chunk, extract, convert, shard (typed columns: pipeline.columns), then a bulk load",
}
"""The document pass, kept per document by the index driver; every view reads what it writes."""


def describe(plan: tuple[View, ...] = PLAN) -> list[dict[str, str]]:
    """The plan as rows (view, reads, writes, key, what it holds), the document pass first, for
    ``dualgraph plan`` and the docs.

    >>> [row["view"] for row in describe()]
    ['documents', 'rules', 'tkg', 'patterns', 'lexicon']
    >>> describe()[4]["reads"], describe()[4]["key"]
    ('tkg, patterns', 'follows what it reads')
    """
    return [DOCUMENTS] + [
        {
            "view": v.name,
            "reads": ", ".join(v.reads),
            "writes": "; ".join(v.writes),
            "key": "recipe signature" if v.key is not None else "follows what it reads",
            "holds": v.summary,
        }
        for v in plan
    ]
