"""The pattern statistics counted from the converter's spec tables are the ones the store's
aggregate queries give: same patterns, on noisy generated pages and on two markets."""

import sys
from pathlib import Path

import pytest

from dualgraph.config import IndexConfig
from dualgraph.lexicon.pattern_collection import collect_patterns
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.state import IndexState
from dualgraph.skg.spec_table import companion_paths, read_spec_tables
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog

CONFIG = IndexConfig(runner="inline", progress=False, patterns=False, tkg={"enabled": False}, batch_size=16)


def _both(index):
    state = IndexState.open(index / "state.json")
    loaded = [d for d in state.documents.values() if d.get("loaded") and d.get("shard")]
    specs = read_spec_tables([d["shard"] for d in loaded], {(d["graph"], d["hash"]) for d in loaded})
    assert specs is not None and specs.values.num_rows > 0 and specs.quantities.num_rows > 0
    store = OxigraphStore(index / "skg" / "oxigraph", read_only=True)
    try:
        return collect_patterns(store), collect_patterns(store, specs=specs)
    finally:
        store.close()


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    root = tmp_path_factory.mktemp("gen")
    gen_catalog.generate(root / "ds", 120, seed=3, markets=("uk", "de"))
    return root


def test_tables_give_the_patterns_the_queries_give(catalog, tmp_path):
    build_index(catalog / "ds", tmp_path / "ix", CONFIG)
    by_query, by_table = _both(tmp_path / "ix")
    assert len(by_query) > 100
    assert by_table == by_query


def test_after_a_change_only_live_rows_count(catalog, tmp_path):
    import shutil

    ds = tmp_path / "ds"
    shutil.copytree(catalog / "ds", ds)
    build_index(ds, tmp_path / "ix", CONFIG.model_copy(update={"batch_size": 400}))  # one shard for all
    changed = gen_catalog.mutate(ds, 10, seed=2)
    removed = sorted(d.name for d in ds.iterdir() if d.name.startswith("file-"))[:3]
    for name in removed:
        shutil.rmtree(ds / name)
    build_index(ds, tmp_path / "ix", CONFIG)
    # the big shard still holds the old rows of the changed and removed documents
    assert len(changed) > 3 and any(
        companion_paths(p)[0].is_file() for p in (tmp_path / "ix" / "skg" / "shards").glob("*.nq")
    )
    by_query, by_table = _both(tmp_path / "ix")
    assert by_table == by_query


def test_markets_count_a_product_once(tmp_path):
    gen_catalog.generate_per_market(tmp_path / "m", 60, seed=4, markets=("uk", "de"))
    for market in ("uk", "de"):
        build_index(tmp_path / "m" / market, tmp_path / "ix", CONFIG, market=market)
    by_query, by_table = _both(tmp_path / "ix")
    assert by_table == by_query


def test_the_prose_lexicon_reads_the_same_facts_from_the_tables(catalog, tmp_path):
    from dualgraph.lexicon.mining import mine

    build_index(catalog / "ds", tmp_path / "ix", CONFIG)
    index = tmp_path / "ix"
    state = IndexState.open(index / "state.json")
    loaded = [d for d in state.documents.values() if d.get("loaded") and d.get("shard")]
    specs = read_spec_tables([d["shard"] for d in loaded], {(d["graph"], d["hash"]) for d in loaded})
    store = OxigraphStore(index / "skg" / "oxigraph", read_only=True)
    try:
        patterns = collect_patterns(store)
        pages = [(["http://x/p"], "The battery holds 5000 mAh and charges at 45 W.")]
        from dualgraph.lexicon import mining as lexicon_mining

        by_query = lexicon_mining._fact_rows(store, *_ids(patterns))
        by_table = lexicon_mining._fact_rows(store, *_ids(patterns), specs)
        assert sum(len(v) for v in by_query.values()) > 100
        assert _plain(by_table) == _plain(by_query)
        assert mine(store, patterns, pages, specs=specs) == mine(store, patterns, pages)
    finally:
        store.close()


def _plain(facts):
    # frozensets have no total order: compare them as sorted tuples
    return {k: sorted((u, x, tuple(sorted(words))) for u, x, words in v) for k, v in facts.items()}


def _ids(patterns):
    from dualgraph.lexicon.mining import variants

    numeric = [p for p in patterns if p.kind == "spec_numeric" and p.entry_iri and p.unit]
    ids = {(p.entry_iri or "", p.unit or "", p.label or ""): p.pattern_id for p in numeric}
    return ids, variants(numeric).distinct


def test_coded_terms_from_the_tables_are_the_ones_the_store_gives(catalog, tmp_path):
    from dualgraph.skg.coded_terms import read_sources, sources_from_tables

    build_index(catalog / "ds", tmp_path / "ix", CONFIG)
    state = IndexState.open(tmp_path / "ix" / "state.json")
    loaded = [d for d in state.documents.values() if d.get("loaded") and d.get("shard")]
    specs = read_spec_tables([d["shard"] for d in loaded], {(d["graph"], d["hash"]) for d in loaded})
    store = OxigraphStore(tmp_path / "ix" / "skg" / "oxigraph", read_only=True)
    try:
        by_store = read_sources(store)
    finally:
        store.close()
    by_table = sources_from_tables(specs)
    assert by_store.has and sum(len(v) for v in by_store.has.values()) > 20
    assert (by_table.has, by_table.lacks, by_table.entries) == (by_store.has, by_store.lacks, by_store.entries)


def test_a_moved_index_still_finds_its_tables(catalog, tmp_path):
    import shutil

    from dualgraph.pipeline.index import _LiveSpecs

    build_index(catalog / "ds", tmp_path / "ix", CONFIG)
    shutil.copytree(tmp_path / "ix", tmp_path / "moved")
    shutil.rmtree(tmp_path / "ix")  # the state still names the shards where they were built
    state = IndexState.open(tmp_path / "moved" / "state.json")
    tables = _LiveSpecs(state.documents, tmp_path / "moved" / "skg" / "shards").tables
    assert tables is not None and tables.values.num_rows > 0


def test_large_tables_are_let_go_and_read_again_the_same(catalog, tmp_path):
    from dualgraph.pipeline.index import _LiveSpecs

    build_index(catalog / "ds", tmp_path / "ix", CONFIG)
    state = IndexState.open(tmp_path / "ix" / "state.json")
    specs = _LiveSpecs(state.documents, tmp_path / "ix" / "skg" / "shards")
    first = specs.tables
    assert first is not None
    size = first.values.nbytes + first.quantities.nbytes
    assert not specs.release(above=size) and specs.tables is first  # within the bound: kept
    assert specs.release(above=size - 1)
    again = specs.tables
    assert again is not first and again.values.equals(first.values) and again.quantities.equals(first.quantities)
