"""``dualgraph index``: a dataset directory into a queryable index.

Stages (read → convert → shard) run on Ray Data, or inline; the driver then
bulk-loads the shard files into the store, one named graph per document, and
derives rule facts to a fixpoint. Re-running on the same input changes nothing:
documents whose content hash is unchanged are skipped, changed ones have their
graph replaced, vanished ones are dropped. The state is journaled after every
bulk-load pass, so a crashed run resumes where it stopped.
"""

from __future__ import annotations

import logging
import os
import time
from collections import defaultdict
from contextlib import closing
from pathlib import Path
from typing import Any

from tqdm import tqdm

from dualgraph.config import IndexConfig
from dualgraph.corpus.markets import check_market
from dualgraph.corpus.specsqa import scan_dataset
from dualgraph.corpus.stamps import stamp_from_row
from dualgraph.models.base import TokenMeter
from dualgraph.pipeline.faults import fault_point
from dualgraph.pipeline.generations import CACHE, Generation, writing
from dualgraph.pipeline.index_check import open_checked_state, read_manifest, record_parts, repair_before_index
from dualgraph.pipeline.index_stages import convert_stage, read_stage, shard_stage, unchanged_documents
from dualgraph.pipeline.index_store import open_store, save_store_config
from dualgraph.pipeline.layout import IndexLayout, write_json_atomic, write_jsonl_atomic
from dualgraph.pipeline.llm_extract import extract_with_batch_llm, needs_batch_llm
from dualgraph.pipeline.rule_focus import expand_focus
from dualgraph.pipeline.stage import ContractError, Row, Stage, run_in_processes, run_inline
from dualgraph.pipeline.state import IndexState, state_key
from dualgraph.pipeline.tkg_stages import chunk_stage, extract_stage, extraction_signature, tkg_shard_stage
from dualgraph.pipeline.views import Build, check_keys, walk
from dualgraph.pipeline.vocabulary import collect_vocabulary_garbage, referenced_nodes
from dualgraph.skg import ontology as O
from dualgraph.skg.rules import forget_focus, load_rules
from dualgraph.skg.spec_table import SpecTables, companion_paths, read_spec_tables
from dualgraph.skg.triples import CONVERTER_VERSION, COVERAGE_FIELDS
from dualgraph.stores.heap import release_free_memory

log = logging.getLogger(__name__)


def run_stages(
    stages: list[Stage], rows: list[Row], config: IndexConfig, *, used: list[str] | None = None
) -> list[Row]:
    """Run the stages over Ray Data, a local process pool or inline, and check that every input
    row came back once.

    Rows the driver already found unchanged (``known_hash``) stay in this process, and so do the
    rest when neither Ray nor a process pool would pay (:func:`_where`)."""
    quick = [r for r in rows if r.get("known_hash")]
    work = [r for r in rows if not r.get("known_hash")]
    out = run_inline(stages, quick, batch_size=max(config.batch_size, 1024)) if quick else []
    where, workers = _where(config, len(work))
    if used is not None:
        used.append(where)
    if where == "ray":
        out += _run_on_ray(stages, work, config)
    else:
        with tqdm(total=len(work), unit="doc", desc="convert", disable=not config.progress, mininterval=0.5) as bar:
            if where == "processes":
                out += run_in_processes(
                    stages, work, workers=workers, batch_size=config.batch_size, on_batch=bar.update
                )
            else:
                out += run_inline(stages, work, batch_size=config.batch_size, on_batch=bar.update)
    keys = [r["meta_path"] for r in rows]
    got = [r["meta_path"] for r in out]
    if sorted(keys) != sorted(got):
        raise ContractError(f"pipeline returned {len(got)} rows for {len(keys)} documents (rows lost or duplicated)")
    return out


def _where(config: IndexConfig, documents: int) -> tuple[str, int]:
    """Where ``documents`` to convert run: ``("ray", 0)``, ``("processes", workers)`` or ``("inline", 1)``.

    >>> c = IndexConfig(ray_min_cpus=10**6, local_processes=2)
    >>> _where(c, 500), _where(c, 5), _where(c.model_copy(update={"runner": "inline"}), 500)
    (('processes', 2), ('inline', 1), ('inline', 1))
    >>> _where(c.model_copy(update={"local_processes": 1}), 500), _where(IndexConfig(ray_min_cpus=1), 500)
    (('inline', 1), ('ray', 0))
    """
    if _ray_pays(config, documents):
        return "ray", 0
    if config.runner == "inline" or documents < max(config.ray_min_documents, 1):
        return "inline", 1
    # a machine too small for Ray: its cores still convert side by side in a plain process pool
    workers = min(config.local_processes or (os.cpu_count() or 1), documents)
    return ("processes", workers) if workers > 1 else ("inline", 1)


def _ray_pays(config: IndexConfig, documents: int) -> bool:
    """Whether converting ``documents`` on Ray beats doing it in this process.

    >>> _ray_pays(IndexConfig(ray_min_cpus=1), 500), _ray_pays(IndexConfig(ray_min_cpus=1), 5)
    (True, False)
    >>> _ray_pays(IndexConfig(runner="inline", ray_min_cpus=1), 500), _ray_pays(IndexConfig(ray_min_cpus=10**6), 500)
    (False, False)
    >>> _ray_pays(IndexConfig(ray_min_cpus=10**6, ray_address="auto"), 500)
    True
    """
    if config.runner == "inline" or documents < max(config.ray_min_documents, 1):
        return False
    return config.ray_address is not None or (os.cpu_count() or 1) >= config.ray_min_cpus


def _run_on_ray(stages: list[Stage], rows: list[Row], config: IndexConfig) -> list[Row]:
    import ray.data

    from dualgraph.pipeline.ray_logging import init_ray, ray_data_quiet

    init_ray(config.ray_address)
    blocks = max(1, min(len(rows) // config.batch_size + 1, 1000))
    # our bar, not Ray Data's (DUALGRAPH_RAY_LOGS=1 brings back Ray's own lines and bars)
    bar = tqdm(total=len(rows), unit="doc", desc="convert", disable=not config.progress)
    with ray_data_quiet(progress=config.progress), closing(bar):
        ds: ray.data.Dataset = ray.data.from_items(rows, override_num_blocks=blocks)
        for stage in stages:
            ds = ds.map_batches(stage.for_ray(), batch_format="pyarrow", batch_size=config.batch_size)
        out = []
        for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
            rows_ = batch.to_pylist()  # type: ignore[union-attr]  # a pyarrow.Table (batch_format)
            out.extend(rows_)
            bar.update(len(rows_))
    return out


def build_index(
    dataset_dir: str | Path, index_dir: str | Path, config: IndexConfig | None = None, *, market: str | None = None
) -> dict[str, Any]:
    """Index a SpecsQA dataset directory; returns the manifest (also written to ``manifest.json``).

    With ``market``, the directory is that market's whole snapshot: its documents get the
    market's graphs, the market's documents no longer in it are dropped, and other markets'
    graphs are left as they are. Without it, documents belong to the default market.

    >>> import tempfile
    >>> from dualgraph.corpus.model import Variant
    >>> from dualgraph.corpus.specsqa import write_dataset
    >>> ds, ix = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> _ = write_dataset(ds, [("a", "text", [Variant("Phone A", "Phone A", ("phones",), (("Battery:Capacity", "5000 mAh"),))])])
    >>> m = build_index(ds, ix, IndexConfig(runner="inline", progress=False))
    >>> (m["documents"]["total"], m["products"])
    (1, 1)
    """
    config = config or IndexConfig()
    market = check_market(market)  # a bad code fails the run before anything is written
    started = time.time()
    root = Path(dataset_dir).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"dataset directory not found: {root}")
    # built beside the generation readers see, published at the end by one rename; a killed run
    # leaves the old index as it was and resumes in the generation it left (pipeline.generations)
    with writing(Path(index_dir).resolve()) as gen:
        manifest = _build_generation(root, gen, config, market, started)
        removed = gen.publish()
    if removed:
        log.info("dualgraph index: removed the old generations %s", ", ".join(removed))
    return manifest


def _build_generation(root: Path, gen: Generation, config: IndexConfig, market: str, started: float) -> dict[str, Any]:
    """The body of :func:`build_index`, writing into the generation ``gen``."""
    meter = TokenMeter()
    layout = IndexLayout(gen.dir)
    layout.create()
    # the last run's record of every part: files that did not change keep their checksums
    last_parts = read_manifest(layout.root).get("parts")
    rules = load_rules(config.rules_path)
    state, repaired = open_checked_state(layout)
    # before anything is judged unchanged: a part that is gone or damaged is rebuilt, and the
    # records that vouched for what a lost store or shard held are forgotten
    repairs = repair_before_index(layout, state, tkg=config.tkg.enabled, patterns=bool(config.patterns))
    repaired += repairs.lines
    for line in repaired:
        log.warning("dualgraph index: %s", line)
    known = state.documents  # every market's records (views, shards and reports cover them all)
    # this market's records by metadata path, as they were before this run
    mine = state.of_market(market)

    # every entry of the dataset directory is a document or is listed as ignored, with why
    scan = scan_dataset(root)
    metas = scan.documents
    fault_point("scan")
    previous = {k: v["hash"] for k, v in mine.items() if v.get("loaded")}
    # One response cache per index unless configured: re-indexing unchanged text costs nothing.
    models = config.models.model_copy(update={"cache_dir": config.cache_dir or gen.root / CACHE})
    config = config.model_copy(update={"models": models})
    salt = CONVERTER_VERSION
    if config.tkg.enabled:
        salt += "|" + extraction_signature(config.tkg, config.models)
    stages = [read_stage(str(root), previous, salt=salt, limits=config.limits)]
    if config.tkg.enabled:
        stages += [chunk_stage(config.tkg), extract_stage(config.tkg, config.models)]
    stages += [convert_stage, shard_stage(str(layout.shards))]
    if config.tkg.enabled:
        stages.append(tkg_shard_stage(str(layout.tkg_shards)))
    # A view whose recipe changed is rebuilt even when no document did.
    check_keys(state, config, rules)
    # The derived graph can be brought up to date for the changed documents alone only when it
    # was whole after the last run: rules changed, or a run that stopped half-way, mean a rebuild.
    rules_by_focus = config.incremental_rules and not state.stale["rules"] and not state.stale["vocabulary"]
    save_store_config(config.store, layout.root)
    # Queries must embed with the model the index was built with: remember it (never the API key).
    (layout.root / "models.json").write_text(config.models.model_dump_json(indent=1), encoding="utf-8")
    # The store is opened before converting: a store that is down fails the run now, not after hours.
    with closing(open_store(config.store, layout.root)) as store:
        store.check_reachable()
        orphans = reconcile_document_graphs(store, state)
        t0 = time.time()
        same = unchanged_documents(
            root,
            metas,
            previous,
            salt=salt,
            limits=config.limits,
            progress=config.progress,
            stamps={m: d.get("stamp") for m, d in mine.items()} if config.trust_file_stamps else None,
        )
        if config.trust_file_stamps and same.restamped:
            state.record({state_key(market, m): {**mine[m], "stamp": st} for m, st in same.restamped.items()})
        inputs = [
            {"meta_path": m, "market": market, **({"known_hash": same.hashes[m]} if m in same.hashes else {})}
            for m in metas
        ]
        ran: list[str] = []
        if needs_batch_llm(config):
            # the LLM part of extraction is one Ray Data pass over every new chunk, between the halves
            cut = next(i for i, st in enumerate(stages) if st.name == "extract") + 1
            rows = run_stages(stages[:cut], inputs, config, used=ran)
            rows = run_stages(stages[cut:], extract_with_batch_llm(rows, config), config)
        else:
            rows = run_stages(stages, inputs, config, used=ran)
        t_convert = time.time() - t0

        for r in rows:
            for used in r.get("extract_usage") or ():
                meter.record(**used)
        by_meta = {r["meta_path"]: r for r in rows}
        removed = [m for m in mine if m not in by_meta]
        to_replace = [m for m, r in by_meta.items() if r["status"] in ("ok", "quarantined") and m in mine]
        t0 = time.time()
        # the products and ranges whose derived facts change: found while their old graphs are there
        focus = (
            expand_focus(store, [p for m in removed + to_replace for p in mine[m].get("product_iris", [])])
            if rules_by_focus
            else set()
        )
        # the shared nodes that what this run drops points to: the only ones that can become garbage
        # (None: a clean-up left by an earlier run, or a reconciliation, whose drops are not known)
        candidates: set[str] | None = None if state.stale["vocabulary"] else set()
        if removed or to_replace:
            if candidates is not None:
                candidates |= referenced_nodes(store, [_graph_of(mine[m]) for m in removed + to_replace])
            # write-ahead: the clean-up below is recorded as due before anything is dropped
            state.set_stale(True, views=state.VIEWS)
            for m in removed + to_replace:
                store.drop_graph(_graph_of(mine[m]))
                fault_point("drop")
            state.drop([state_key(market, m) for m in removed + to_replace])
            fault_point("forget")
        if state.stale["vocabulary"]:
            # derived graphs point at shared nodes too: they go first, and are rebuilt below
            state.set_stale(True)
            if candidates is not None:
                candidates |= referenced_nodes(store, [O.DERIVED_GRAPH, O.CATALOG_GRAPH, *market_view_graphs(store)])
            if rules_by_focus:
                # only what the changed products and ranges had is taken back; the rest stays
                forget_focus(store, rules, sorted(focus))
            else:
                store.drop_graph(O.DERIVED_GRAPH)
            store.drop_graph(O.CATALOG_GRAPH)
            # the text graph is brought up to date by its difference (tkg_build), not dropped: the
            # clean-up below does not count its links, which are rebuilt from live nodes only
            drop_market_views(store)
            collect_vocabulary_garbage(store, candidates=candidates)
            state.set_stale(False, views=("vocabulary",))
        if any(r["status"] == "ok" for r in rows):
            state.set_stale(True)  # new text alone (a page without specs) changes the TKG too
        # Nothing to load (no specs, or unreadable): recorded so reruns skip it.
        state.record(
            {
                state_key(market, r["meta_path"]): _doc_state(r, loaded=r["status"] == "ok", root=gen.root)
                for r in rows
                if r["status"] in ("ok", "quarantined") and not r["shard_path"]
            }
        )
        shards: dict[str, list[Row]] = defaultdict(list)
        for r in rows:
            if r["status"] == "ok" and r["shard_path"]:
                shards[r["shard_path"]].append(r)
        loaded_quads = 0
        # by bytes read: a large catalog loads in one pass, which a bar by documents would show only at its end
        bar = tqdm(
            total=sum(Path(p).stat().st_size for p in shards),
            unit="B",
            unit_scale=True,
            desc="load store",
            disable=not config.progress,
            mininterval=0.5,
        )
        for group in _load_groups(shards, config.load_group_quads):
            state.set_stale(True)
            loaded_quads += store.bulk_load(group, format="nquads", progress=bar.update)
            fault_point("load")
            docs = [r for path in group for r in shards[path]]
            state.record({state_key(market, r["meta_path"]): _doc_state(r, loaded=True, root=gen.root) for r in docs})
            fault_point("record")
        bar.close()
        t_load = time.time() - t0

        t0 = time.time()
        if repairs.lexicon:  # its file is gone or damaged: mined again though nothing it reads changed
            state.set_stale(True, views=("lexicon",))
        built = walk(
            Build(
                layout=layout,
                store=store,
                state=state,
                config=config,
                rules=rules,
                market=market,
                known=known,
                rows=rows,
                focus=focus,
                rules_by_focus=rules_by_focus,
                specs=_LiveSpecs(known, layout.shards),
                models=_LazyModels(config, meter),
                derive_market_prices=derive_market_prices,
            )
        )
        t_views = time.time() - t0
        fault_point("checkpoint")
        state.checkpoint()
        fault_point("manifest")
        _remove_dead_shards(layout, known)
        counts = _store_counts(store, progress=config.progress)

    problems = [p for d in known.values() for p in d.get("problems", [])]
    write_jsonl_atomic(layout.quarantine, problems)
    kept = [dict(k, document=d["doc_id"]) for d in known.values() for k in d.get("kept_as_text", [])]
    write_jsonl_atomic(layout.kept_as_text, kept)
    coverage = value_coverage(known.values(), kept)
    write_json_atomic(layout.root / "coverage.json", coverage)
    status_counts = {s: sum(1 for r in rows if r["status"] == s) for s in ("ok", "unchanged", "quarantined")}
    reprocessed = sorted(r["doc_id"] for r in rows if r["status"] == "ok")
    manifest = {
        "dataset": str(root),
        "index": str(gen.root),
        # which generation of the index this is, and what starting it from the last one cost
        "generation": gen.report(),
        "market": market,
        "documents": {
            "total": len(rows),
            "converted": status_counts["ok"],
            "unchanged": status_counts["unchanged"],
            "quarantined": status_counts["quarantined"],
            "removed": len(removed),
            "ignored": len(scan.ignored),
            "orphan_graphs_dropped": len(orphans),
            # known documents read to compare hashes; the rest were vouched for by their file stamps
            "read_to_compare": same.hashed,
            # which documents of this market were read and converted again, and which were dropped
            "reprocessed": reprocessed,
            "reprocessed_count": len(reprocessed),
            "removed_documents": sorted(mine[m]["doc_id"] for m in removed),
        },
        # loaded documents per market in the whole index after this run
        "markets": _market_counts(known),
        # entries of the dataset directory that are not documents, each with the reason
        "ignored": scan.ignored,
        "limits": config.limits.model_dump(),
        "quarantined_records": len(problems),
        "statements_read_this_run": loaded_quads,
        "values_kept_as_text": len(kept),
        "value_coverage": {"totals": coverage["totals"], "most_text": coverage["entries"][:15]},
        **counts,
        # each derived view's report, "unchanged" or "disabled" (pipeline.views), and what each cost
        **{k: v for k, v in built.items() if k != "views"},
        "views": built["views"],
        "model_usage": meter.to_dict(),
        "seconds": {
            "convert": round(t_convert, 3),
            "load": round(t_load, 3),
            "rules": built["views"]["rules"].get("seconds", 0.0),
            "views": round(t_views, 3),
            "total": round(time.time() - started, 3),
        },
        "runner": config.runner,
        # where the documents to convert ran: Ray, a local process pool or this process (_where)
        "converted_on": ran[0] if ran else "inline",
        # the damaged parts found before the run, and what was done about each
        "repaired": repaired,
        # every part with what verifies it (dualgraph.pipeline.index_check): `dualgraph check` reads it
        "parts": record_parts(layout.root, products=counts["products"], quads=counts["triples"], previous=last_parts),
    }
    write_json_atomic(layout.manifest, manifest)
    return manifest


def value_coverage(docs: Any, kept: list[dict[str, Any]], *, examples: int = 3) -> dict[str, Any]:
    """What the SKG read per entry: value parts, parts with digits, read as quantities / dates, kept as
    text, with examples and reasons of what stayed text; entries with the most text first.

    >>> docs = [{"coverage": {"B:Battery": {"values": 2, "with_digits": 2, "quantities": 1, "dates": 0, "text": 1}}}]
    >>> c = value_coverage(docs, [{"record": "X / B:Battery", "value": "Li-Po", "reason": "r"}])
    >>> c["totals"]["text"], c["entries"][0]["entry"], c["entries"][0]["examples"]
    (1, 'B:Battery', [{'value': 'Li-Po', 'reason': 'r'}])
    """
    per: dict[str, dict[str, Any]] = {}
    for d in docs:
        for key, counts in d.get("coverage", {}).items():
            row = per.setdefault(key, {"entry": key, **dict.fromkeys(COVERAGE_FIELDS, 0), "examples": []})
            for f in COVERAGE_FIELDS:
                row[f] += counts.get(f, 0)
    for k in kept:
        key = k["record"].rsplit(" / ", 1)[-1]
        found = per.get(key)
        seen = {e["value"] for e in found["examples"]} if found else set()
        if found is not None and len(found["examples"]) < examples and k["value"] not in seen:
            found["examples"].append({"value": k["value"], "reason": k.get("reason", "")})
    totals = {f: sum(r[f] for r in per.values()) for f in COVERAGE_FIELDS}
    totals["text_share_of_numeric"] = round(totals["text"] / totals["with_digits"], 4) if totals["with_digits"] else 0.0
    entries = sorted(per.values(), key=lambda r: (-r["text"], r["entry"]))
    return {"totals": totals, "entries": entries}


_MARKET_RANGE_PRICES = """
{{
  SELECT ?r ?cur (MIN(?n) AS ?min) (MAX(?n) AS ?max) WHERE {{
    ?o skg:inMarket <{market}> ; skg:hasPrice ?n ; skg:hasCurrency ?cur .
    ?p skg:hasOffer ?o ; skg:variantOf ?r .
  }}
  GROUP BY ?r ?cur
}}
BIND(IRI(CONCAT(STR(?r), "-price-{code}-", LCASE(STR(?cur)))) AS ?summary)
"""
_MARKET_RANGE_PRICE = """
{{
  SELECT ?r (MIN(?n) AS ?min) (MAX(?n) AS ?max) (SAMPLE(?cur) AS ?currency) WHERE {{
    ?o skg:inMarket <{market}> ; skg:hasPrice ?n ; skg:hasCurrency ?cur .
    ?p skg:hasOffer ?o ; skg:variantOf ?r .
  }}
  GROUP BY ?r
  HAVING (COUNT(DISTINCT ?cur) = 1)
}}
"""


def market_view_graphs(store) -> list[str]:
    """Every market's price summary graph."""
    return [g for g in store.graphs() if O.market_of_graph(g) is not None and not O.is_document_graph(g)]


def drop_market_views(store) -> None:
    """Drop every market's price summaries (they point at shared range nodes)."""
    for g in market_view_graphs(store):
        store.drop_graph(g)


def derive_market_prices(store, markets: list[str]) -> dict[str, int]:
    """Per market, the range price summaries the packaged rules give a catalog without markets
    (``skg:minPrice``/``skg:maxPrice``/``skg:hasCurrency`` on a range priced in one currency, a
    ``skgt:PriceSummary`` per currency), from that market's offers, in that market's own graph:
    a range's prices differ between markets, and the shared derived graph is read by all of them.
    Returns the quads written per market."""
    drop_market_views(store)
    out = {}
    for market in markets:
        if market == O.DEFAULT_MARKET:  # its prices are the rules' (no offers)
            continue
        g, node = O.market_derived_graph(market), O.market_node(market)
        n = store.insert_where(
            "?r skg:hasPriceSummary ?summary .\n"
            "?summary a skgt:PriceSummary ; skg:hasCurrency ?cur ; skg:minPrice ?min ; skg:maxPrice ?max ; "
            f"skg:inMarket <{node}> .",
            _MARKET_RANGE_PRICES.format(market=node, code=market),
            graph=g,
        )
        n += store.insert_where(
            "?r skg:minPrice ?min ; skg:maxPrice ?max ; skg:hasCurrency ?currency .",
            _MARKET_RANGE_PRICE.format(market=node),
            graph=g,
        )
        out[market] = n
    return out


class _LiveSpecs:
    """The spec tables of the loaded documents, read on first use and shared by the derived views
    (None for an index whose shards predate them: the views then ask the store)."""

    def __init__(self, known: dict[str, dict], shards: Path) -> None:
        self._known, self._shards = known, shards
        self._read = False
        self._tables: SpecTables | None = None

    @property
    def tables(self) -> SpecTables | None:
        if not self._read:
            loaded = [d for d in self._known.values() if d.get("loaded") and d.get("shard")]
            # by name in this index's shard folder: the state's paths are those of where it was built
            paths = [str(self._shards / Path(d["shard"]).name) for d in loaded]
            self._tables = read_spec_tables(paths, {(_graph_of(d), d["hash"]) for d in loaded})
            self._read = True
        return self._tables

    def release(self, *, above: int) -> bool:
        """Forget tables larger than ``above`` bytes (read again on next use); True if forgotten.

        At 100k products they take 1.9 GB, held through the Textual KG build that needs none
        of it; reading them again afterwards costs about 2 % of such a run."""
        tables = self._tables
        if tables is None or tables.values.nbytes + tables.quantities.nbytes <= above:
            return False
        self._tables, self._read = None, False
        release_free_memory()
        return True


class _LazyModels:
    """The embedder and LLM, loaded only if a step needs them (loading MiniLM takes seconds)."""

    def __init__(self, config: IndexConfig, meter: TokenMeter) -> None:
        self._config, self._meter = config, meter
        self._built: tuple[Any, Any] | None = None

    def _build(self):
        if self._built is None:
            from dualgraph.models.factory import build_models

            self._built = build_models(self._config.models, meter=self._meter)
        return self._built

    @property
    def embedder(self):
        return self._build()[0]

    @property
    def llm(self):
        llm = self._build()[1]
        batch = self._config.models.llm_batch
        if llm is None and batch is not None:
            # the summaries are one list-shaped call: one Ray Data pass through the batch stage,
            # its answers cached as the HTTP client's are
            from dualgraph.llm_batch.llm import RayDataLLM
            from dualgraph.models.cache import CachedLLM
            from dualgraph.models.factory import CACHE_FILE

            path = Path(self._config.models.cache_dir) / CACHE_FILE
            llm = CachedLLM(RayDataLLM(batch, meter=self._meter), path, meter=self._meter)
            self._built = (self._build()[0], llm)
        return llm


def _remove_dead_shards(layout: IndexLayout, known: dict[str, dict]) -> None:
    """Delete shard files that no loaded document points to (left over from replaced documents)."""
    live = {Path(d["shard"]).name for d in known.values() if d.get("shard")}
    live |= {
        f"{kind}-{d['tkg_shard']}.parquet"
        for d in known.values()
        if d.get("tkg_shard")
        for kind in ("chunks", "mentions")
    }
    live |= {p.name for d in known.values() if d.get("shard") for p in companion_paths(d["shard"])}
    for f in [
        *layout.shards.glob("shard-*.nq"),
        *layout.shards.glob("shard-*.parquet"),
        *layout.tkg_shards.glob("*.parquet"),
    ]:
        if f.name not in live:
            f.unlink()


def _load_groups(shards: dict[str, list[Row]], max_quads: int) -> list[list[str]]:
    """Shard files batched for one bulk-load pass each, about ``max_quads`` quads a pass."""
    groups: list[list[str]] = []
    size = max_quads
    for path in sorted(shards):
        n = sum(int(r["n_quads"]) for r in shards[path])
        if size + n > max_quads:
            groups.append([])
            size = 0
        groups[-1].append(path)
        size += n
    return groups


def reconcile_document_graphs(store, state: IndexState) -> list[str]:
    """Drop every document graph the state does not list as loaded; returns the graphs dropped.

    A run killed between a bulk load and the journal line that records it leaves a graph
    no record accounts for; left alone, a later edit of that document would load beside
    its old triples and a removal would never drop it. The derived views are marked stale
    first (write-ahead), since they may hold facts from the dropped graphs.
    """
    # every market's: a graph no record accounts for is part of no market's snapshot
    accounted = {_graph_of(d) for d in state.documents.values() if d.get("loaded")}
    orphans = sorted(g for g in store.graphs() if O.is_document_graph(g) and g not in accounted)
    if orphans:
        state.set_stale(True, views=state.VIEWS)
        for g in orphans:
            store.drop_graph(g)
            fault_point("reconcile")
    return orphans


def _graph_of(doc: dict[str, Any]) -> str:
    # the graph name is recorded, so a change of naming scheme never loses track of a graph
    return doc.get("graph") or O.document_graph(doc["doc_id"], doc.get("market"))


def _market_counts(docs: dict[str, dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for d in docs.values():
        if d.get("loaded"):
            counts[d.get("market") or O.DEFAULT_MARKET] += 1
    return dict(sorted(counts.items()))


def _doc_state(row: Row, *, loaded: bool, root: Path) -> dict[str, Any]:
    market = row.get("market") or O.DEFAULT_MARKET
    # the shard where readers find it whichever generation is current (INDEX/skg -> current/skg),
    # not in the generation that wrote it, which a later run deletes
    shard = str(root / "skg" / "shards" / Path(row["shard_path"]).name) if row.get("shard_path") else ""
    return {
        "doc_id": row["doc_id"],
        "market": market,
        "graph": O.document_graph(row["doc_id"], market) if row.get("shard_path") else "",
        "hash": row["content_hash"],
        "loaded": loaded,
        "products": int(row.get("n_products") or 0),
        "shard": shard,
        "tkg_shard": row.get("tkg_shard") or "",
        "product_iris": [p["iri"] for p in row.get("products") or ()],
        # what its files stat as: the next run takes it as unchanged without reading it (corpus.stamps)
        "stamp": stamp_from_row(row.get("stamp")),
        "problems": list(row.get("problems") or ()),
        # Number-like values the quantity parser could not read: stored as text, listed for review.
        "kept_as_text": list(row.get("kept_as_text") or ()),
        # Per entry: how many value parts became quantities, dates, or stayed text.
        "coverage": {c["entry"]: {f: c[f] for f in COVERAGE_FIELDS} for c in row.get("coverage") or ()},
    }


_COUNTS = {
    "products": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Product }",
    "ranges": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:ProductRange }",
    "categories": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Category }",
    "specs": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Spec }",
    "numeric_specs": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x skg:hasQuantity ?q }",
    "quantities": "SELECT (COUNT(DISTINCT ?q) AS ?n) WHERE { ?q a skgt:Quantity }",
    "features": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Feature }",
    "brands": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Brand }",
    "product_lines": "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:ProductLine }",
    "product_features": "SELECT (COUNT(*) AS ?n) WHERE { SELECT DISTINCT ?p ?f WHERE { ?p a skgt:Product ; skg:hasFeature ?f } }",
}


def _store_counts(store, *, progress: bool = False) -> dict[str, int]:
    from dualgraph.progress import progress_bar

    out = {}
    with progress_bar("count", total=len(_COUNTS), unit="query", enabled=progress) as bar:
        for name, q in _COUNTS.items():
            res = store.select(q)
            out[name] = int(res["results"]["bindings"][0]["n"]["value"])
            bar.update(1)
    out["triples"] = store.count()
    out["derived_triples"] = store.count(graph=O.DERIVED_GRAPH)
    out["graphs"] = len(store.graphs())
    return out
