"""Markets: one snapshot per country/shop in one index (embedded Oxigraph, inline runner, no TKG).

One product sold in two markets is one node with one offer per market; `--market` limits
reads to the shared graphs and that market's documents; re-indexing one market never touches
another's graphs; the manifest names exactly the documents re-processed; a state from before
markets still loads."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dualgraph.cli import main
from dualgraph.config import IndexConfig
from dualgraph.corpus.markets import MarketError
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.index_store import open_store
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.pipeline.state import IndexState
from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog  # bench is a folder of scripts

_BASE = IndexConfig(runner="inline", progress=False, batch_size=2, patterns=False)
FAST = _BASE.model_copy(update={"tkg": _BASE.tkg.model_copy(update={"enabled": False})})
PRICES = (
    "SELECT ?n ?price ?cur WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:hasPrice ?price ; skg:hasCurrency ?cur }"
)


def phone(name: str, price: str, *, five_g: str = "Yes") -> Variant:
    return Variant(
        name,
        name.rsplit(" ", 1)[0],
        ("smartphones",),
        (
            ("Battery:Capacity", "5000 mAh"),
            ("Network:5G", five_g),
            ("Connectivity:Features", "NFC, Wi-Fi 6, Bluetooth 5.3"),
            ("Price", price),
        ),
    )


def uk_pages(a_price: str = "199.00 GBP") -> list:
    return [
        ("a", "Alpha page", [phone("Alpha 1", a_price)]),
        ("b", "Beta page", [phone("Beta 1", "99.00 GBP", five_g="No")]),
    ]


DE_PAGES = [
    ("a", "Alpha Seite", [phone("Alpha 1", "229.00 EUR")]),
    ("c", "Gamma Seite", [phone("Gamma 1", "300.00 EUR")]),
]


def rows(store, query: str) -> set[tuple[str, ...]]:
    res = store.select(query)
    return {tuple(b[v]["value"] for v in res["head"]["vars"] if v in b) for b in res["results"]["bindings"]}


def quads(index: Path, prefix: str) -> set[str]:
    import pyoxigraph as ox

    store = ox.Store.read_only(str(IndexLayout(index).store))
    return {str(q) for q in store.quads_for_pattern(None, None, None, None) if q.graph_name.value.startswith(prefix)}


@pytest.fixture
def two_markets(tmp_path: Path) -> Path:
    write_dataset(tmp_path / "uk", uk_pages())
    write_dataset(tmp_path / "de", DE_PAGES)
    build_index(tmp_path / "uk", tmp_path / "ix", FAST, market="uk")
    m = build_index(tmp_path / "de", tmp_path / "ix", FAST, market="de")
    assert m["market"] == "de" and m["markets"] == {"de": 2, "uk": 2}
    return tmp_path


def test_one_product_two_markets_and_market_views(two_markets: Path) -> None:
    ix = two_markets / "ix"
    alpha = N.product_iri("Alpha 1")
    with OxigraphStore(IndexLayout(ix).store, read_only=True) as store:
        assert rows(store, "SELECT DISTINCT ?p WHERE { ?p a skgt:Product }") == {
            (alpha,),
            (N.product_iri("Beta 1"),),
            (N.product_iri("Gamma 1"),),
        }
        offers = rows(
            store,
            f"SELECT ?m ?price ?cur WHERE {{ <{alpha}> skg:hasOffer ?o . ?o skg:inMarket/skg:hasName ?m ; "
            "skg:hasPrice ?price ; skg:hasCurrency ?cur }",
        )
        assert offers == {("uk", "199", "GBP"), ("de", "229", "EUR")}
        assert rows(store, f"SELECT ?m WHERE {{ <{alpha}> skg:soldIn/skg:hasName ?m }}") == {("uk",), ("de",)}
        # no market's price reaches the shared derived graph, which every market's view reads
        assert not store.ask(f"ASK {{ GRAPH <{O.DERIVED_GRAPH}> {{ ?p skg:hasPrice ?x }} }}")
    with open_store(IndexConfig().store, ix, read_only=True, market="uk") as uk:
        assert rows(uk, PRICES) == {("Alpha 1", "199", "GBP"), ("Beta 1", "99", "GBP")}
        assert not uk.ask('ASK { GRAPH ?g { ?s skg:hasCurrency "EUR" } }')
        # range summaries too are per market, in the market's own graph
        rng = N.range_iri("Alpha")
        assert rows(uk, f"SELECT ?min ?cur WHERE {{ <{rng}> skg:minPrice ?min ; skg:hasCurrency ?cur }}") == {
            ("199", "GBP")
        }
    with open_store(IndexConfig().store, ix, read_only=True, market="de") as de:
        assert rows(de, PRICES) == {("Alpha 1", "229", "EUR"), ("Gamma 1", "300", "EUR")}
        # facts derived per product hold in every market
        assert de.ask(f"ASK {{ <{alpha}> skg:hasFeature ?f }}")
    with pytest.raises(StoreError, match=r"no documents of market 'fr'.*markets: de, uk"):
        open_store(IndexConfig().store, ix, read_only=True, market="fr")


def test_sparql_cli_market(two_markets: Path, capsys) -> None:
    ix = str(two_markets / "ix")
    assert main(["sparql", PRICES, "--index", ix, "--market", "de"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {b["n"]["value"] for b in out["results"]["bindings"]} == {"Alpha 1", "Gamma 1"}
    assert main(["sparql", PRICES, "--index", ix]) == 0  # all markets
    out = json.loads(capsys.readouterr().out)
    assert {b["n"]["value"] for b in out["results"]["bindings"]} == {"Alpha 1", "Beta 1", "Gamma 1"}
    assert main(["sparql", PRICES, "--index", ix, "--market", "d e"]) == 2
    assert "not a market code" in capsys.readouterr().err
    assert main(["index", str(two_markets / "de"), "--index", ix, "--market", "x/y", "--runner", "inline"]) == 2
    assert "'x/y' is not a market code" in capsys.readouterr().err


def test_derived_features_do_not_depend_on_markets(two_markets: Path, tmp_path: Path) -> None:
    """The same products in one market or in two: the same rule facts, prices aside."""
    write_dataset(tmp_path / "alone", uk_pages() + DE_PAGES[1:])
    build_index(tmp_path / "alone", tmp_path / "ix-alone", FAST, market="uk")
    price_terms = ("minPrice", "maxPrice", "hasPriceSummary", "hasCurrency", "PriceSummary", "-price-")

    def derived(ix: Path) -> set[str]:
        return {q for q in quads(ix, O.DERIVED_GRAPH) if not any(t in q for t in price_terms)}

    assert derived(two_markets / "ix") == derived(tmp_path / "ix-alone")
    assert any("hasFeature" in q for q in derived(tmp_path / "ix-alone"))


def test_reindex_one_market_leaves_the_other_untouched(two_markets: Path) -> None:
    ix, uk_dir = two_markets / "ix", two_markets / "uk"
    de_before = quads(ix, O.market_graphs("de"))
    uk_b = O.document_graph("file-b", "uk")
    # Alpha's UK price changes and Beta leaves the UK snapshot
    (uk_dir / "file-b" / "file-b.json").unlink()
    for f in (uk_dir / "file-b").iterdir():
        f.unlink()
    (uk_dir / "file-b").rmdir()
    write_dataset(uk_dir, uk_pages("189.00 GBP")[:1])
    m = build_index(uk_dir, ix, FAST, market="uk")
    assert m["documents"]["reprocessed"] == ["file-a"] and m["documents"]["removed_documents"] == ["file-b"]
    assert quads(ix, O.market_graphs("de")) == de_before
    assert quads(ix, uk_b) == set()
    with open_store(IndexConfig().store, ix, read_only=True, market="uk") as uk:
        assert rows(uk, PRICES) == {("Alpha 1", "189", "GBP")}
    again = build_index(uk_dir, ix, FAST, market="uk")
    assert again["documents"]["reprocessed"] == [] and again["documents"]["unchanged"] == 1


def test_a_document_removed_from_one_market_stays_in_the_other(two_markets: Path) -> None:
    ix = two_markets / "ix"
    write_dataset(two_markets / "uk-b-only", uk_pages()[1:])
    m = build_index(two_markets / "uk-b-only", ix, FAST, market="uk")
    assert m["documents"]["removed_documents"] == ["file-a"] and m["documents"]["reprocessed"] == []
    assert quads(ix, O.document_graph("file-a", "uk")) == set()
    assert quads(ix, O.document_graph("file-a", "de"))
    with open_store(IndexConfig().store, ix, read_only=True, market="uk") as uk:
        assert rows(uk, PRICES) == {("Beta 1", "99", "GBP")}
    with open_store(IndexConfig().store, ix, read_only=True, market="de") as de:
        assert ("Alpha 1", "229", "EUR") in rows(de, PRICES)
    with open_store(IndexConfig().store, ix, read_only=True) as every:
        alpha = N.product_iri("Alpha 1")
        assert rows(every, f"SELECT ?m WHERE {{ <{alpha}> skg:soldIn/skg:hasName ?m }}") == {("de",)}


def test_manifest_lists_exactly_the_changed_documents(tmp_path: Path) -> None:
    per = gen_catalog.generate_per_market(tmp_path / "cat", 40, seed=3, markets=("uk", "de"))
    assert set(per) == {"uk", "de"}
    for market in ("uk", "de"):
        build_index(tmp_path / "cat" / market, tmp_path / "ix", FAST, market=market)
    de_before = quads(tmp_path / "ix", O.market_graphs("de"))
    changed = gen_catalog.mutate(tmp_path / "cat" / "uk", 10, seed=5)
    m = build_index(tmp_path / "cat" / "uk", tmp_path / "ix", FAST, market="uk")
    assert m["documents"]["reprocessed"] == changed and m["documents"]["reprocessed_count"] == len(changed) > 0
    assert m["documents"]["unchanged"] == per["uk"]["documents"] - len(changed)
    assert quads(tmp_path / "ix", O.market_graphs("de")) == de_before


def test_mutate_is_deterministic(tmp_path: Path) -> None:
    for d in ("x", "y"):
        gen_catalog.generate(tmp_path / d, 30, seed=1)
    assert gen_catalog.mutate(tmp_path / "x", 20, seed=9) == gen_catalog.mutate(tmp_path / "y", 20, seed=9)
    with pytest.raises(ValueError, match="percent"):
        gen_catalog.mutate(tmp_path / "x", 0)


def test_a_state_from_before_markets_is_migrated(tmp_path: Path) -> None:
    write_dataset(tmp_path / "ds", uk_pages())
    build_index(tmp_path / "ds", tmp_path / "ix", FAST)
    layout = IndexLayout(tmp_path / "ix")
    data = json.loads(layout.state.read_text())
    assert data["version"] == 3 and all(k.startswith("default:") for k in data["documents"])
    # rewrite it as version 2 wrote it: keyed by metadata path, no market, plus a journal line
    old = {k.split(":", 1)[1]: {f: v for f, v in d.items() if f != "market"} for k, d in data["documents"].items()}
    line = {"meta": "file-b/file-b.json", "doc": old.pop("file-b/file-b.json")}
    layout.state.write_text(json.dumps({**data, "version": 2, "documents": old}))
    journal = layout.state.with_name(layout.state.stem + ".journal.jsonl")
    journal.write_text(json.dumps(line) + "\n")
    state = IndexState.open(layout.state)
    assert sorted(state.documents) == ["default:file-a/file-a.json", "default:file-b/file-b.json"]
    assert {d["market"] for d in state.documents.values()} == {"default"}
    m = build_index(tmp_path / "ds", tmp_path / "ix", FAST)
    assert m["documents"]["unchanged"] == 2 and m["documents"]["reprocessed"] == []
    assert json.loads(layout.state.read_text())["version"] == 3
    # the default market's graphs keep their names, and --market default reads them
    assert quads(tmp_path / "ix", O.document_graph("file-a"))
    with open_store(IndexConfig().store, tmp_path / "ix", read_only=True, market="default") as s:
        assert ("Beta 1", "99", "GBP") in rows(s, PRICES)


def test_bad_market_codes_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    write_dataset(tmp_path / "ds", uk_pages())
    with pytest.raises(MarketError, match="--market: market code 'ü'"):
        build_index(tmp_path / "ds", tmp_path / "ix", FAST, market="ü")
    assert not (tmp_path / "ix").exists()


@pytest.mark.network
def test_market_views_on_virtuoso(tmp_path: Path, virtuoso, endpoint_store) -> None:
    """The same two markets in Virtuoso: reads restricted by the protocol's dataset parameters."""
    pytest.importorskip("SPARQLWrapper")
    from dualgraph.config import StoreConfig

    config = FAST.model_copy(
        update={
            "store": StoreConfig(
                kind="endpoint",
                query_url=virtuoso.sparql_url,
                graph_store_url=virtuoso.graph_store_url,
                user="dba",
                password="dba",
                max_rows=10_000,
            )
        }
    )
    write_dataset(tmp_path / "uk", uk_pages())
    write_dataset(tmp_path / "de", DE_PAGES)
    build_index(tmp_path / "uk", tmp_path / "ix", config, market="uk")
    build_index(tmp_path / "de", tmp_path / "ix", config, market="de")
    assert rows(endpoint_store, PRICES) >= {("Alpha 1", "199", "GBP"), ("Alpha 1", "229", "EUR")}
    with open_store(config.store, tmp_path / "ix", read_only=True, market="uk") as uk:
        assert rows(uk, PRICES) == {("Alpha 1", "199", "GBP"), ("Beta 1", "99", "GBP")}
        assert uk.count(graph=O.document_graph("file-a", "de")) > 0  # admin reads still see every graph
    de_before = {g: endpoint_store.count(graph=g) for g in endpoint_store.graphs() if "/market/de/" in g}
    write_dataset(tmp_path / "uk", uk_pages("189.00 GBP")[:1])
    m = build_index(tmp_path / "uk", tmp_path / "ix", config, market="uk")
    assert m["documents"]["reprocessed"] == ["file-a"]
    assert {g: endpoint_store.count(graph=g) for g in endpoint_store.graphs() if "/market/de/" in g} == de_before
    with open_store(config.store, tmp_path / "ix", read_only=True, market="de") as de:
        assert rows(de, PRICES) == {("Alpha 1", "229", "EUR"), ("Gamma 1", "300", "EUR")}


def test_a_price_question_over_all_markets_reads_amount_and_currency_from_one_offer(tmp_path):
    """Without --market a product holds a price per market; "over 200 pounds" must not pass a
    product whose GBP price is lower because its EUR amount is higher."""
    from dualgraph.answer.engine import AskConfig, QAEngine

    pages = {
        "uk": [
            ("a", "Alpha page", [phone("Alpha 1", "150.00 GBP")]),
            ("b", "Beta page", [phone("Beta 1", "250.00 GBP")]),
        ],
        "de": [
            ("a", "Alpha page", [phone("Alpha 1", "300.00 EUR")]),
            ("b", "Beta page", [phone("Beta 1", "280.00 EUR")]),
        ],
    }
    config = _BASE.model_copy(update={"patterns": True, "tkg": _BASE.tkg.model_copy(update={"enabled": False})})
    for market, docs in pages.items():
        write_dataset(tmp_path / market, docs)
        build_index(tmp_path / market, tmp_path / "ix", config, market=market)
    engine = QAEngine.open(tmp_path / "ix", AskConfig(strategy="skg"))
    try:
        record = engine.answer("Which smartphones cost more than 200 GBP?")
    finally:
        engine.close()
    assert record.answer_list == ["Beta 1"], record
