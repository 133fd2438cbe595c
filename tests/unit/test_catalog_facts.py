"""Brands, product lines and types derived from plain catalog records (no store)."""

import random
from urllib.parse import quote, unquote

import pytest

from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_facts import (
    CatalogFacts,
    ProductRecord,
    derive_facts,
    load_words,
    name_key,
    pick_brand_entries,
)
from dualgraph.skg.catalog_graph import brand_iri, line_iri, to_nquads
from dualgraph.stores.oxigraph import OxigraphStore


def rec(name, rng=None, cats=("gadgets",), brands=()):
    """A record whose IRI is its name (unique in these catalogs)."""
    return ProductRecord(iri=name, name=name, range=rng if rng is not None else name, categories=cats, brands=brands)


def variants(rng, *extras, cats=("gadgets",), brands=()):
    """Several variants of one range ("Rng (8GB)", "Rng (12GB)")."""
    return [rec(f"{rng} ({x})", rng, cats, brands) for x in extras]


# Invented brands; names carry the brand first, in two casings for Qubit.
NAMED = [
    *variants("Orbix Nova N5", "8GB", "12GB"),
    *variants("Orbix Nova N6", "8GB"),
    *variants("Orbix Nova Prime P2", "8GB"),
    *variants("Orbix Nova Prime P3", "8GB"),
    rec("Orbix Terra T1"),
    rec("Orbix Terra T2"),
    rec("Orbix Solo 1 (4GB)", "Orbix Solo 1"),  # one-off model: no "Solo" line
    rec("Orbix Solo 1 (8GB)", "Orbix Solo 1"),
    rec("QUBIT Flux 7"),
    rec("Qubit Flux 8"),
    rec("Qubit Edge 3"),
    rec("Qubit Edge 4"),
    rec("Loner X1"),  # a brand word that opens one range only is no brand
    rec("Loner X1 (blue)", "Loner X1"),
]


def brands_of(facts: CatalogFacts, names):
    return [facts.brand_name(n) for n in names]


def test_brands_from_names_group_casing_and_skip_one_range_words():
    facts = derive_facts(NAMED)
    assert sorted(b.name for b in facts.brands.values()) == ["Orbix", "Qubit"]
    assert brands_of(facts, ["QUBIT Flux 7", "Qubit Edge 3", "Orbix Terra T1", "Loner X1"]) == [
        "Qubit",
        "Qubit",
        "Orbix",
        None,
    ]
    assert facts.brands["qubit"].products == 4
    assert {facts.brand_source[p] for p in facts.product_brand} == {"name"}


def test_lines_nest_and_one_off_models_are_no_lines():
    facts = derive_facts(NAMED)
    orbix = {x.name: x for x in facts.lines.values() if x.brand == "orbix"}
    assert sorted(orbix) == ["Nova", "Nova N", "Nova Prime", "Nova Prime P", "Terra", "Terra T"]
    assert orbix["Nova Prime P"].broader == name_key("Nova Prime")
    assert orbix["Nova Prime"].broader == name_key("Nova") and orbix["Nova"].broader is None
    assert orbix["Nova"].ranges == 4 and orbix["Nova"].products == 5
    assert facts.line_names("Orbix Nova Prime P2 (8GB)") == ["Nova", "Nova Prime", "Nova Prime P"]
    assert facts.line_names("Orbix Solo 1 (4GB)") == []  # two variants, one range
    qubit = sorted(x.name for x in facts.lines.values() if x.brand == "qubit")
    assert qubit == ["Edge", "Flux"]  # "QUBIT Flux 7" and "Qubit Flux 8" meet on one line


def test_thresholds_are_options():
    strict = derive_facts(NAMED, min_line_ranges=3)
    assert sorted(x.name for x in strict.lines.values()) == ["Nova"]
    assert derive_facts(NAMED, min_brand_ranges=5).brands.keys() == {"orbix"}
    short = derive_facts(NAMED, max_line_words=1)
    assert "Nova Prime" not in {x.name for x in short.lines.values()}


def test_lines_differing_in_case_or_spacing_are_one():
    facts = derive_facts([rec("Orbix ZenBook 3"), rec("Orbix Zen Book 5"), rec("ORBIX zenbook 7")])
    lines = list(facts.lines.values())
    assert len(lines) == 1 and lines[0].ranges == 3
    assert lines[0].name == "ZenBook" or lines[0].name == "Zen Book"
    assert all(facts.product_lines[p] == (("orbix", "zenbook"),) for p in facts.product_brand)


ENTRIES = [
    # the names never spell the brand: the entries give it
    rec("iWidget 15", brands=("Pomme",)),
    rec("iWidget 16", brands=("POMME",)),
    rec("iWidget 16 Max (1TB)", "iWidget 16 Max", brands=("pomme",)),
    rec("iWidget 17"),  # no entry: learned from the three above
    rec("Pomme Tablo 2", brands=("Pomme",)),
    rec("Pomme Tablo 3"),  # no entry: the name spells a brand the entries know
    # "Smart" opens names of two makers: not a brand, even with the names of 3 ranges
    rec("Smart Lamp 2", brands=("Lumo",)),
    rec("Smart Plug 4", brands=("Voltra",)),
    rec("Smart Kettle 9"),
    rec("Lumo Glow 1", brands=("Lumo",)),
    rec("Voltra Spark 5", brands=("voltra",)),
]


def test_brand_entries_group_and_teach_leading_words():
    facts = derive_facts(ENTRIES)
    assert facts.brand_name("iWidget 17") == "Pomme" and facts.brand_source["iWidget 17"] == "learned"
    assert facts.brand_name("Pomme Tablo 3") == "Pomme" and facts.brand_source["Pomme Tablo 3"] == "name"
    assert facts.brand_source["iWidget 15"] == "entry"
    # the names spell "Pomme" twice, the entries three ways: the names' casing is shown
    assert facts.brands["pomme"].name == "Pomme" and facts.brands["pomme"].products == 6
    # the iWidgets have no brand words, so their line starts at the name's first word
    assert facts.line_names("iWidget 16 Max (1TB)") == ["iWidget"]
    assert facts.lines[("pomme", "iwidget")].ranges == 4
    assert facts.line_names("Pomme Tablo 2") == ["Tablo"]


def test_a_common_word_shared_across_brands_is_no_brand():
    facts = derive_facts(ENTRIES)
    assert facts.brand_name("Smart Kettle 9") is None
    assert brands_of(facts, ["Smart Lamp 2", "Smart Plug 4"]) == ["Lumo", "Voltra"]
    assert "smart" not in facts.brands
    # without the entries, the same word would be taken for a brand: the test can fail
    bare = derive_facts([ProductRecord(r.iri, r.name, r.range, r.categories) for r in ENTRIES])
    assert bare.brand_name("Smart Kettle 9") == "Smart"


def test_learning_needs_agreement():
    records = [
        rec("Nimbus A1", brands=("Skyco",)),
        rec("Nimbus A2", brands=("Skyco",)),
        rec("Nimbus A3", brands=("Cloudia",)),
        rec("Nimbus A4"),
    ]
    assert derive_facts(records).brand_name("Nimbus A4") is None  # 2 of 3 is below 0.8
    assert derive_facts(records, learn_purity=0.6).brand_name("Nimbus A4") == "Skyco"
    assert derive_facts(records[:2] + records[3:], learn_min_ranges=3).brand_name("Nimbus A4") == "Nimbus"


def test_a_name_that_opens_with_another_brand_overrules_a_reseller_entry():
    records = [
        rec("Orbix Nova 5", brands=("Orbix",)),
        rec("Orbix Nova 6", brands=("Orbix",)),
        rec("Orbix Nova 7", brands=("ShopMart",)),  # the listing's reseller
        rec("Widget by Orbix", brands=("ShopMart",)),  # the name does not open with Orbix
        rec("Cases Orbix Nova sleeve", brands=("Casey",)),  # mentions another brand, opens with its own words
    ]
    facts = derive_facts(records)
    assert facts.brand_name("Orbix Nova 7") == "Orbix" and facts.brand_source["Orbix Nova 7"] == "name-over-entry"
    assert facts.brand_name("Widget by Orbix") == "ShopMart"
    assert facts.brand_name("Cases Orbix Nova sleeve") == "Casey"
    assert facts.lines[("orbix", "nova")].ranges == 3


def test_several_entry_values_prefer_the_one_the_name_opens_with():
    facts = derive_facts(
        [
            rec("Orbix Nova 5", brands=("Fabrico", "Orbix")),
            rec("Orbix Nova 6", brands=("Orbix",)),
            rec("Terra 2", brands=("Fabrico",)),
        ]
    )
    assert brands_of(facts, ["Orbix Nova 5", "Orbix Nova 6", "Terra 2"]) == ["Orbix", "Orbix", "Fabrico"]


TYPED = [
    rec("Orbix Pad 1", cats=("Tablets", "Android Tablets")),
    rec("Orbix Pad 2", cats=("Tablets", "Android Tablets")),
    rec("Orbix Pad 3", cats=("Tablets",)),
    rec("Orbix Book 1", cats=("Gaming Laptops",)),
    rec("Orbix Book 2", cats=("Laptop",)),
    rec("Orbix Phone 1", cats=("Phones", "Smartphones")),
    rec("Orbix Phone 2", cats=("Phones", "Smartphones")),
    rec("Orbix Phone 3", cats=("Phones",)),
    rec("Orbix Cam 1", cats=("Cameras", "Smartphones")),  # Smartphones is then no subset of Phones
    rec("Orbix Cam 2", cats=("Cameras",)),
]


def test_types_nest_by_products_and_by_head_noun():
    facts = derive_facts(TYPED)
    assert set(facts.type_broader) == {("Android Tablets", "Tablets"), ("Gaming Laptops", "Laptop")}
    assert facts.product_types["Orbix Book 1"] == ("Gaming Laptops", "Laptop")
    assert facts.product_types["Orbix Pad 1"] == ("Tablets", "Android Tablets")
    assert set(derive_facts(TYPED, broader_by_name=False).type_broader) == {("Android Tablets", "Tablets")}
    assert derive_facts(TYPED, min_type_products=3, broader_by_name=False).type_broader == ()


def test_only_direct_type_links_are_kept():
    records = [
        rec("a1", cats=("Devices", "Phones", "Smartphones")),
        rec("a2", cats=("Devices", "Phones", "Smartphones")),
        rec("a3", cats=("Devices", "Phones")),
        rec("a4", cats=("Devices",)),
    ]
    facts = derive_facts(records)
    assert set(facts.type_broader) == {("Smartphones", "Phones"), ("Phones", "Devices")}


def test_same_result_in_any_order():
    records = NAMED + ENTRIES + TYPED
    first = derive_facts(records)
    shuffled = list(records)
    random.Random(7).shuffle(shuffled)
    again = derive_facts(shuffled)
    assert first == again
    assert to_nquads(first) == to_nquads(again)


def test_pick_brand_entries_drops_a_parts_maker():
    names = {"p": "Orbix Nova 5", "q": "Qubit Flux 7", "r": "Pomme iWidget 2"}
    entries = {
        "spec": ("Specifications", {"p": ["orbix"], "q": ["qubit"], "r": ["pomme"]}),
        "cpu": ("Processor", {"p": ["Chipco"], "q": ["Chipco"], "r": ["Pomme"]}),
        "odd": ("Design", {"p": ["Orbix"], "q": ["Qubit"]}),  # not a general section, but the names agree
    }
    assert pick_brand_entries(entries, names) == ["odd", "spec"]
    assert pick_brand_entries({"cpu": entries["cpu"]}, names) == []
    assert load_words().is_brand_entry("Manufacturer") and not load_words().is_brand_entry("Processor Manufacturer")


def test_nquads_load_and_answer_brand_line_type_queries(tmp_path):
    records = [ProductRecord("http://x/" + quote(r.name), r.name, r.range, r.categories) for r in NAMED + TYPED]
    facts = derive_facts(records)
    f = tmp_path / "c.nq"
    f.write_text(to_nquads(facts), encoding="utf-8")
    store = OxigraphStore.in_memory()
    store.bulk_load(f)
    assert store.graphs() == [O.CATALOG_GRAPH]

    def col(q):
        return sorted(
            unquote(b["x"]["value"].removeprefix("http://x/")) for b in store.select(q)["results"]["bindings"]
        )

    assert col('SELECT ?x WHERE { ?x skg:hasBrand/skg:hasName "Qubit" ; skg:inLine/skg:hasName "Edge" }') == [
        "Qubit Edge 3",
        "Qubit Edge 4",
    ]
    assert col(
        """SELECT DISTINCT ?x WHERE { ?x skg:inLine ?l . ?l skg:hasName "Nova Prime P" ;
           skg:broader/skg:broader/skg:hasName "Nova" ; skg:hasBrand/skg:hasName "Orbix" }"""
    ) == ["Orbix Nova Prime P2 (8GB)", "Orbix Nova Prime P3 (8GB)"]
    # a product is typed with its own categories and the broader ones
    assert col("SELECT ?x WHERE { ?x skg:hasType/skg:broader ?wide }") == ["Orbix Book 1", "Orbix Pad 1", "Orbix Pad 2"]
    assert brand_iri("qubit") in col("SELECT ?x WHERE { ?x a skgt:Brand }")
    assert line_iri("orbix", "novaprimep") in col("SELECT ?x WHERE { ?x a skgt:ProductLine }")


@pytest.mark.parametrize("bad", ["", "   ", "(8GB)", "123"])
def test_names_without_words_give_nothing(bad):
    facts = derive_facts([rec(bad), rec(bad + " "), rec("Orbix Nova 1"), rec("Orbix Nova 2")])
    assert facts.brand_name(bad) is None and facts.line_names(bad) == []
    assert facts.brand_name("Orbix Nova 1") == "Orbix"


def test_a_word_with_digits_is_no_brand_on_names_alone():
    facts = derive_facts([rec("C65 Pro"), rec("C65 Max"), rec("Orbix C65"), rec("Orbix C66")])
    assert facts.brand_name("C65 Pro") is None and facts.brand_name("Orbix C65") == "Orbix"
    assert facts.line_names("Orbix C66") == ["C"]
