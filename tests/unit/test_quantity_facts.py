"""Quantities read inside spec values as nodes of their own, and what reads them: the price rule,
the tag-list rules (features and their absence) and the numeric patterns per entry, unit and label.

Every catalog here goes through the real converter, rules and pattern collection.
"""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.pattern_collection import collect_patterns
from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg.rules import apply_rules, load_rules
from dualgraph.skg.triples import convert_document
from dualgraph.stores.oxigraph import OxigraphStore


def _v(name: str, *specs: tuple[str, str]) -> Variant:
    return Variant(name=name, prod_range=name, categories=("phones",), specs=specs)


def _ox(nquads: str) -> ox.Store:
    s = ox.Store()
    s.load(nquads.encode(), format=ox.RdfFormat.N_QUADS)
    return s


def _rows(store: ox.Store, query: str) -> list[dict[str, str | None]]:
    sols = store.query(query, prefixes=O.PREFIXES, use_default_graph_as_union=True)
    names = [v.value for v in sols.variables]
    return [{n: (None if s[n] is None else s[n].value) for n in names} for s in sols]


def _skg(variants: list[Variant], tmp: Path) -> OxigraphStore:
    """One document per variant (like separate shop pages), rules applied."""
    store = OxigraphStore.in_memory()
    for i, v in enumerate(variants):
        f = tmp / f"doc{i}.nq"
        f.write_text(convert_document(f"doc-{i}", [v]).nquads, encoding="utf-8")
        store.bulk_load(f)
    apply_rules(store, load_rules())
    return store


def _iri(v: Variant) -> str:
    return N.product_iri(v.name, v.model_code)


def _products(store: OxigraphStore, snippet: str) -> set[str]:
    res = store.select(f"SELECT DISTINCT ?p WHERE {{ ?p a skgt:Product . {snippet} }}")
    return {b["p"]["value"] for b in res["results"]["bindings"]}


# -- quantity nodes ---------------------------------------------------------------------------


def test_two_value_parts_give_two_labelled_quantities_in_order():
    phone = _v("Phone M", ("Memory:Memory", "8 GB RAM, 128 GB inbuilt"))
    store = _ox(convert_document("d", [phone]).nquads)
    rows = _rows(
        store,
        """SELECT ?s ?q ?n ?u ?d ?l ?pos WHERE {
             ?p skg:hasSpec ?s . ?s skg:inEntry/skg:hasName "Memory" ; skg:hasQuantity ?q .
             ?q a skgt:Quantity ; skg:hasNumericValue ?n ; skg:hasUnit ?u ; skg:hasDimension ?d ;
                skg:hasLabel ?l ; skg:hasPosition ?pos } ORDER BY ?pos""",
    )
    got = [(float(r["n"]), r["u"], r["d"], r["l"], int(r["pos"])) for r in rows]
    assert got == [(8.0, "GB", "data", "ram", 0), (128.0, "GB", "data", "inbuilt", 1)]
    assert len({r["s"] for r in rows}) == 2 and len({r["q"] for r in rows}) == 2  # one per value part
    # the numbers live on the quantity nodes only, not on the spec
    assert not _rows(store, "SELECT ?s WHERE { ?s skg:inEntry ?e ; skg:hasNumericValue ?n }")
    assert not _rows(store, "SELECT ?s WHERE { ?s skg:inEntry ?e ; skg:hasUnit ?u }")


def test_one_value_part_with_two_quantities_keeps_both_on_one_spec():
    phone = _v("Phone B", ("Battery:Battery", "5000 mAh Battery with 33W Fast Charging"))
    store = _ox(convert_document("d", [phone]).nquads)
    rows = _rows(
        store,
        """SELECT ?s ?n ?u ?d ?l WHERE {
             ?s skg:inEntry/skg:hasName "Battery" ; skg:hasQuantity ?q .
             ?q skg:hasNumericValue ?n ; skg:hasUnit ?u ; skg:hasDimension ?d .
             OPTIONAL { ?q skg:hasLabel ?l } } ORDER BY ?n""",
    )
    got = [(float(r["n"]), r["u"], r["d"], r["l"]) for r in rows]
    # "Battery" is the entry's own name, so the capacity has no label; the charger's words label it
    assert got == [(33.0, "W", "power", "fast charging"), (5000.0, "mAh", "charge", None)]
    assert len({r["s"] for r in rows}) == 1
    specs = _rows(store, 'SELECT ?s WHERE { ?s skg:inEntry/skg:hasName "Battery" }')
    assert len(specs) == 1  # one value part, not split at "with"


def test_counts_and_versions_are_unitless_quantities():
    phone = _v("Phone C", ("Processor:Processor", "Octa Core"), ("Software:Operating System", "Android v14"))
    store = _ox(convert_document("d", [phone]).nquads)
    rows = _rows(
        store,
        """SELECT ?e ?n ?d ?l ?u WHERE { ?s skg:inEntry/skg:hasName ?e ; skg:hasQuantity ?q .
             ?q skg:hasNumericValue ?n ; skg:hasDimension ?d ; skg:hasLabel ?l . OPTIONAL { ?q skg:hasUnit ?u } }
           ORDER BY ?e""",
    )
    got = [(r["e"], float(r["n"]), r["d"], r["l"], r["u"]) for r in rows]
    assert got == [("Operating System", 14.0, "version", "android", None), ("Processor", 8.0, "count", "core", None)]


# -- price rule -------------------------------------------------------------------------------


def test_price_rule_reads_the_quantity_node(tmp_path):
    rupees = _v("Budget Phone", ("Price", "₹8,999"), ("Memory:Memory", "8 GB RAM"))
    pounds = _v("UK Phone", ("Price", "499 GBP"))
    no_price = _v("Unpriced Phone", ("Memory:Memory", "8 GB RAM"))
    store = _skg([rupees, pounds, no_price], tmp_path)
    res = store.select("SELECT ?p ?n ?c WHERE { ?p skg:hasPrice ?n ; skg:hasCurrency ?c }")
    got = {(b["p"]["value"], float(b["n"]["value"]), b["c"]["value"]) for b in res["results"]["bindings"]}
    assert got == {(_iri(rupees), 8999.0, "INR"), (_iri(pounds), 499.0, "GBP")}
    # a number: comparisons work on it
    assert _products(store, "?p skg:hasPrice ?n FILTER(?n < 1000)") == {_iri(pounds)}


# -- tag lists --------------------------------------------------------------------------------

WITH_NFC = [
    _v("Nfc One", ("Network:Connectivity", "Dual Sim, 4G, Wi-Fi, NFC"), ("Processor:Chipset", "Dimensity 6300")),
    _v("Nfc Two", ("Network:Connectivity", "Dual Sim, 4G, Wi-Fi, NFC"), ("Processor:Chipset", "Helio G85")),
]
WITHOUT_NFC = [
    _v("Plain One", ("Network:Connectivity", "Dual Sim, 4G, Wi-Fi"), ("Processor:Chipset", "Dimensity 6300")),
    _v("Plain Two", ("Network:Connectivity", "Dual Sim, 4G, Wi-Fi"), ("Processor:Chipset", "Helio G85")),
]
NO_LIST = _v("Bare Phone", ("Processor:Chipset", "Helio G85"))  # no Connectivity entry at all
CONNECTIVITY = N.entry_iri("Network", "Connectivity")
CHIPSET = N.entry_iri("Processor", "Chipset")
NFC, WIFI = N.value_iri("Network", "Connectivity", "NFC"), N.value_iri("Network", "Connectivity", "Wi-Fi")
HAS, LACKS = O.SKG + "hasFeature", O.SKG + "lacksFeature"


@pytest.fixture(scope="module")
def tagged(tmp_path_factory) -> OxigraphStore:
    return _skg([*WITH_NFC, *WITHOUT_NFC, NO_LIST], tmp_path_factory.mktemp("tags"))


def _holders(store: OxigraphStore, pred: str, feature: str) -> set[str]:
    return _products(store, f"?p <{pred}> <{feature}> .")


def test_tag_list_values_become_features_and_their_absence(tagged):
    assert tagged.ask(f"ASK {{ <{NFC}> a skgt:Feature ; skg:fromEntry <{CONNECTIVITY}> }}")
    assert _holders(tagged, HAS, NFC) == {_iri(v) for v in WITH_NFC}
    assert _holders(tagged, LACKS, NFC) == {_iri(v) for v in WITHOUT_NFC}
    # a tag every listing product has: nobody lacks it
    assert _holders(tagged, HAS, WIFI) == {_iri(v) for v in WITH_NFC + WITHOUT_NFC}
    assert _holders(tagged, LACKS, WIFI) == set()


def test_a_product_without_the_entry_neither_has_nor_lacks_its_tags(tagged):
    bare = _iri(NO_LIST)
    assert tagged.ask(f"ASK {{ <{bare}> a skgt:Product }}")
    assert tagged.ask(f"ASK {{ ?f skg:fromEntry <{CONNECTIVITY}> }}")
    assert not tagged.ask(f"ASK {{ <{bare}> skg:hasFeature|skg:lacksFeature ?f . ?f skg:fromEntry <{CONNECTIVITY}> }}")


def test_an_entry_with_one_text_value_per_product_is_not_a_tag_list(tagged):
    # "Dimensity 6300" and "Helio G85" are each held by two or more products, yet a chipset is one name
    shared = tagged.select(
        f"""SELECT ?v (COUNT(DISTINCT ?p) AS ?n) WHERE {{ ?p skg:hasSpec ?s . ?s skg:inEntry <{CHIPSET}> ;
              skg:hasValue ?v }} GROUP BY ?v HAVING (COUNT(DISTINCT ?p) >= 2)"""
    )
    assert len(shared["results"]["bindings"]) == 2
    assert not tagged.ask(f"ASK {{ ?v skg:fromEntry <{CHIPSET}> }}")
    assert not tagged.ask(
        f"ASK {{ ?p skg:hasFeature|skg:lacksFeature ?v . ?s skg:inEntry <{CHIPSET}> ; skg:hasValue ?v }}"
    )


# -- numeric patterns -------------------------------------------------------------------------

PHONES = [
    _v("Eight", ("Memory:Memory", "8 GB RAM, 128 GB inbuilt"), ("Battery:Battery", "Li-Po 5000 mAh")),
    _v("Twelve", ("Memory:Memory", "12 GB RAM, 256 GB inbuilt"), ("Battery:Battery", "Li-Po 6000 mAh")),
    _v("Four", ("Memory:Memory", "4 GB RAM, 64 GB inbuilt"), ("Battery:Battery", "5000 mAh")),
    _v("Six", ("Memory:Memory", "6 GB RAM, 128 GB inbuilt"), ("Battery:Battery", "4500 mAh")),
    _v("Other Eight", ("Memory:Memory", "8 GB RAM, 256 GB inbuilt"), ("Battery:Battery", "5000 mAh")),
]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> tuple[OxigraphStore, list[Pattern]]:
    store = _skg(PHONES, tmp_path_factory.mktemp("patterns"))
    return store, collect_patterns(store)


def _numeric(patterns: list[Pattern], entry: str) -> list[Pattern]:
    return sorted((p for p in patterns if p.kind == "spec_numeric" and p.entry == entry), key=lambda p: p.label or "")


def test_labels_that_meet_on_one_product_are_patterns_of_their_own(catalog):
    _, patterns = catalog
    memory = _numeric(patterns, "Memory")
    assert [(p.label, p.unit, p.min, p.max) for p in memory] == [("inbuilt", "GB", 64, 256), ("ram", "GB", 4, 12)]
    assert len({p.pattern_id for p in memory}) == 2


def test_labels_that_never_meet_fold_into_one_pattern(catalog):
    store, patterns = catalog
    # the folding is real: some capacities are labelled, others not
    labels = store.select(
        """SELECT DISTINCT ?l WHERE { ?s skg:inEntry/skg:hasName "Battery" ; skg:hasQuantity ?q .
             ?q skg:hasUnit "mAh" ; skg:hasLabel ?l }"""
    )
    assert [b["l"]["value"] for b in labels["results"]["bindings"]] == ["li-po"]
    (battery,) = _numeric(patterns, "Battery")
    assert (battery.unit, battery.min, battery.max, battery.count) == ("mAh", 4500, 6000, 5)
    big = _products(store, battery.fill(s="?s1", v="?v1") + " FILTER(?v1 >= 5000)")
    assert big == {_iri(v) for v in PHONES if v.name in ("Eight", "Twelve", "Four", "Other Eight")}


def test_numeric_pattern_sparql_compares_the_labelled_quantity(catalog):
    store, patterns = catalog
    inbuilt, ram = _numeric(patterns, "Memory")
    # ">= 8 GB ram": every inbuilt figure is >= 8 GB too, so the label is what picks the products
    got = _products(store, ram.fill(s="?s1", v="?v1") + " FILTER(?v1 >= 8)")
    assert got == {_iri(v) for v in PHONES if v.name in ("Eight", "Twelve", "Other Eight")}
    got = _products(store, inbuilt.fill(s="?s1", v="?v1") + " FILTER(?v1 >= 200)")
    assert got == {_iri(v) for v in PHONES if v.name in ("Twelve", "Other Eight")}
