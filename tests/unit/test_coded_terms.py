"""Coded terms ("5G", "8K") read from a catalog's values and entry names, with their sense checked
against the entry that states them most."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_graph import derive_catalog_facts
from dualgraph.skg.coded_terms import code_tokens, derive_coded_terms, read_sources
from dualgraph.stores.oxigraph import OxigraphStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skg"
S25_BLACK = N.product_iri("Galaxy S25 Ultra 256GB Titanium Black", "SM-S938B")
S25_SILVER = N.product_iri("Galaxy S25 Ultra 512GB Titanium Silverblue", "SM-S938B")
A16 = N.product_iri("Galaxy A16 128GB Black")
A16_LTE = N.product_iri("Galaxy A16 LTE 128GB Grey")


@pytest.mark.parametrize(
    ("raw", "codes"),
    [
        ("GSM / HSPA / LTE / 5G", ["5G"]),
        ("Li-Po 5000 mAh, 5G", ["5G"]),  # a quantity beside the code is no code
        ("3G,4G,5G", ["3G", "4G", "5G"]),
        ("5G nr sub6", ["5G"]),
        ("earbud 5g", []),  # lower-case "g" is a gram
        ("UHD 8K (7680 x 4320)@30fps, 4K@60fps", ["8K", "4K"]),
        ("Wi-Fi 6E", ["6E"]),
        ("2.4G/5G", ["5G"]),  # "2.4G" is a decimal
        ("2,4G", []),
        ("Vo5G, 5GHz, 5 GHz, 18K gold", ["18K"]),
        ("2nd gen, 3rd, 5V/2A, 8GB, 2x zoom, 120Hz", []),  # ordinals and units
        ("N78(3500), B1(2100), A15, RJ-45, 1080p, 2014-06-10t00:00:01z", []),
    ],
)
def test_code_tokens_on_raw_strings(raw: str, codes: list[str]) -> None:
    assert code_tokens(raw) == codes


def test_main_entry_gives_the_sense() -> None:
    # a network entry states 5G for three products; a Wi-Fi entry says "5G" of products the
    # network entry calls 4G: another sense, left out
    value_rows = [("a", "net", "5G NR"), ("b", "net", "5G, 4G"), ("c", "net", "5G"), ("d", "net", "4G LTE")]
    value_rows += [("d", "wifi", "2.4G/5G"), ("e", "wifi", "2.4G/5G")]
    t = derive_coded_terms(value_rows, [])
    assert t.has["5G"] == {"a", "b", "c"} and t.entries["5G"] == ["net"]
    # the same Wi-Fi entry agreeing with the network entry counts
    agree = [(p, "wifi", "5G") for p in ("a", "b", "e")]
    t = derive_coded_terms(value_rows[:4] + agree, [])
    assert t.has["5G"] == {"a", "b", "c", "e"} and t.entries["5G"] == ["net", "wifi"]


def test_entry_names_state_and_deny_codes() -> None:
    rows = [
        ("a", "4g-bands", "4G bands supported", ["1800 MHz", "800 MHz"]),
        ("b", "talk-4g", "Talk time (4G)", ["20 h"]),
        ("c", "5g-std", "5G standard", ["Not supported"]),
        ("d", "5g-std", "5G standard", ["Sub6 SA/NSA"]),
        ("e", "5g", "5G", ["No"]),
        ("f", "5g", "5G", ["Yes"]),
    ]
    t = derive_coded_terms([], rows)
    assert t.has["4G"] == {"a", "b"}
    assert t.has["5G"] == {"d", "f"} and t.lacks["5G"] == {"c", "e"}


def test_a_stated_no_outweighs_a_mention_elsewhere() -> None:
    t = derive_coded_terms(
        [("a", "net", "5G"), ("b", "net", "5G"), ("c", "wifi", "2.4G/5G")], [("c", "5g", "5G", ["No"])]
    )
    assert t.has["5G"] == {"a", "b"} and t.lacks["5G"] == {"c"}


def test_one_product_is_no_code() -> None:
    assert derive_coded_terms([("a", "x", "7Q plug")], []).has == {}


def test_catalog_graph_holds_the_coded_features() -> None:
    store = OxigraphStore.in_memory()
    for doc in ("samsung_s25_ultra.nq", "tabular_a_series.nq"):
        store.bulk_load(FIXTURES / doc)
    report = derive_catalog_facts(store)
    assert report["coded_terms"]["codes"] >= 3

    def has(p: str, pred: str, code: str) -> bool:
        return store.ask(f"ASK {{ GRAPH <{O.CATALOG_GRAPH}> {{ <{p}> <{pred}> <{N.feature_iri(code)}> }} }}")

    # "Network Type: 5G Sub6 FDD" (S25s) and "Network: 5G = Yes" (A16)
    for p in (S25_BLACK, S25_SILVER, A16):
        assert has(p, O.HAS_FEATURE, "5G"), p
    # the LTE model's Wi-Fi says "2.4G/5G" but its "5G" entry says No
    assert not has(A16_LTE, O.HAS_FEATURE, "5G") and has(A16_LTE, O.LACKS_FEATURE, "5G")
    for p in (S25_BLACK, S25_SILVER, A16, A16_LTE):
        assert has(p, O.HAS_FEATURE, "4G"), p
    # 8K recording on the S25s; the A16s record FHD
    assert has(S25_BLACK, O.HAS_FEATURE, "8K") and not has(A16, O.HAS_FEATURE, "8K")
    names = store.select(f"SELECT ?n WHERE {{ <{N.feature_iri('5G')}> skg:hasName ?n }}")["results"]["bindings"]
    assert [r["n"]["value"] for r in names] == ["5G"]
    assert read_sources(store).entries["5G"][0].endswith("network_type")


def test_only_rules_out_a_higher_code_however_the_catalog_states_it(tmp_path: Path) -> None:
    """A tag list ("4G, 5G, VoLTE") states 5G twice: as a tag (whose absence is a stated lack) and as a
    coded term (which lacks only where a product says no). "4G only" needs either lack, not both."""
    from dualgraph.corpus.model import Variant
    from dualgraph.lexicon.patterns import PatternIndex, collect_patterns
    from dualgraph.query.interpret.compiler import Compiler
    from dualgraph.skg.rules import apply_rules, load_rules
    from dualgraph.skg.triples import convert_document
    from tests.unit.test_compiler import catalog_embedder

    lists = {"Aster 1": "4G, 5G, VoLTE", "Aster 2": "4G, 5G, VoLTE", "Birch 1": "4G, VoLTE", "Birch 2": "4G, VoLTE"}
    store = OxigraphStore.in_memory()
    for i, (name, tags) in enumerate(lists.items()):
        v = Variant(name, name, ("Smartphones",), (("Network:Connectivity", tags), ("Price", f"{100 + i} GBP")))
        f = tmp_path / f"d{i}.nq"
        f.write_text(convert_document(f"d{i}", [v]).nquads, encoding="utf-8")
        store.bulk_load(f)
    derive_catalog_facts(store)
    apply_rules(store, load_rules())
    patterns = collect_patterns(store)
    assert [p.name for p in patterns if p.kind == "feature"].count("5G") == 2  # the tag and the coded term
    compiler = Compiler(store, PatternIndex.build(patterns, catalog_embedder()), currency="GBP")
    for question in ("Which phones are 4G-only?", "phones with 4G only"):
        ans = compiler.answer(question)
        assert sorted(ans.answer_list) == ["Birch 1", "Birch 2"], (question, ans.trace)
