"""The aligner's two sides read from a store, and the anchors found between them."""

from __future__ import annotations

import pytest

from dualgraph.align.anchors import Anchor, find_anchors, split_anchors
from dualgraph.align.sides import Side, load_sides, product_groups
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

X = "http://x/"


def _store() -> OxigraphStore:
    """Six phones in three families (two variants each). Specs: a feature "NFC" (families a, b), an
    entry "Battery › Capacity" on all, "Display › Type" on all ("AMOLED" for families a, c, "LCD" for b) and a
    value "No" under "Headphone jack". Pages: "NFC" (a, b), "battery life" (all), "vivid screen"
    (a, c), "5000 mAh" (a number), and the product name "Phone A1"."""
    doc, text = f"<{X}doc>", f"<{O.TEXT_GRAPH}>"
    t = []
    fam = {"a": ["a1", "a2"], "b": ["b1", "b2"], "c": ["c1", "c2"]}
    for f, ps in fam.items():
        t.append(f"<{X}r-{f}> a skgt:ProductRange ; skg:hasName 'Family {f}' .")
        for p in ps:
            t.append(f"<{X}{p}> a skgt:Product ; skg:variantOf <{X}r-{f}> ; skg:hasName 'Phone {p.upper()}' .")
            t.append(f"<{X}{p}> skg:hasSpec <{X}s-{p}-bat> . <{X}s-{p}-bat> skg:inEntry <{X}e-bat> .")
            if f in "ab":
                t.append(f"<{X}{p}> skg:hasFeature <{X}f-nfc> .")
            panel = "amoled" if f in "ac" else "lcd"
            t.append(
                f"<{X}{p}> skg:hasSpec <{X}s-{p}-dt> . <{X}s-{p}-dt> skg:inEntry <{X}e-dt> ; skg:hasValue <{X}v-{panel}> ."
            )
            t.append(
                f"<{X}{p}> skg:hasSpec <{X}s-{p}-hj> . <{X}s-{p}-hj> skg:inEntry <{X}e-hj> ; skg:hasValue <{X}v-no> ."
            )
            t.append(f"<{X}{p}> skg:belongs <{X}cat> .")
    t += [
        f"<{X}f-nfc> a skgt:Feature ; skg:hasName 'NFC' .",
        f"<{X}e-bat> a skgt:Entry ; skg:hasName 'Capacity' ; skg:inSection <{X}sec-bat> .",
        f"<{X}sec-bat> skg:hasName 'Battery' .",
        f"<{X}e-dt> a skgt:Entry ; skg:hasName 'Type' ; skg:inSection <{X}sec-d> . <{X}sec-d> skg:hasName 'Display' .",
        f"<{X}e-hj> a skgt:Entry ; skg:hasName 'Headphone jack' ; skg:inSection <{X}sec-a> . <{X}sec-a> skg:hasName 'Audio' .",
        f"<{X}v-amoled> a skgt:Value ; skg:hasName 'AMOLED' .",
        f"<{X}v-lcd> a skgt:Value ; skg:hasName 'LCD' .",
        f"<{X}v-no> a skgt:Value ; skg:hasName 'No' .",
        f"<{X}cat> a skgt:Category ; skg:hasName 'Phones' .",
    ]
    ents = {
        "nfc": ("NFC", ["a1", "a2", "b1", "b2"]),
        "bl": ("battery life", ["a1", "a2", "b1", "b2", "c1", "c2"]),
        "vivid": ("vivid screen", ["a1", "a2", "c1", "c2"]),
        "num": ("5000 mAh", ["a1"]),
        "name": ("Phone A1", ["a1"]),
    }
    tx = []
    for key, (name, ps) in ents.items():
        tx.append(f"<{X}t-{key}> a skgt:UTKG_Entity ; skg:hasName '{name}' ; skg:hasDescription 'said of {name}' .")
        tx += [f"<{X}{p}> skg:mentions <{X}t-{key}> ." for p in ps]
    tx.append(f"<{X}t-name> skg:alignsWith <{X}a1> .")
    store = OxigraphStore.in_memory()
    store.update(
        O.sparql_prologue() + f"INSERT DATA {{ GRAPH {doc} {{ {' '.join(t)} }} GRAPH {text} {{ {' '.join(tx)} }} }}"
    )
    return store


@pytest.fixture(scope="module")
def sides():
    store = _store()
    skg, tkg, products = load_sides(store)
    return skg, tkg, products, product_groups(store, products)


def test_sides_hold_properties_with_their_products(sides):
    skg, tkg, products, groups = sides
    assert len(products) == 6 and len(set(groups)) == 3
    by_name = dict(zip(skg.texts, zip(skg.kinds, skg.products, strict=True), strict=True))
    assert by_name["NFC"][0] == "feature" and len(by_name["NFC"][1]) == 4
    assert by_name["Battery › Capacity"] == ("entry", frozenset(range(6)))
    assert by_name["Type: AMOLED"][0] == "value"
    # a yes/no value is its entry's feature; the category is kept
    assert not any(t.endswith(": No") for t in skg.texts) and "Phones" in by_name
    # the product's name and the bare number are not properties
    assert sorted(tkg.names) == ["NFC", "battery life", "vivid screen"]
    assert tkg.descriptions[tkg.names.index("NFC")] == "said of NFC"


def test_anchors_by_name_then_by_families(sides):
    skg, tkg, products, groups = sides
    anchors = find_anchors(skg, tkg, len(products), min_jaccard=0.6, min_support=2, max_share=0.9, groups=groups)
    got = {(tkg.names[a.text], skg.texts[a.skg], a.source) for a in anchors}
    assert ("NFC", "NFC", "name") in got
    # "vivid screen" holds for the families of AMOLED, and for no other node as well: mined
    assert ("vivid screen", "Type: AMOLED", "mined") in got
    # "battery life" matches the entry and the category equally (every family): a tie, no anchor
    assert not any(n == "battery life" for n, _, _ in got)


def test_agreement_within_one_family_is_not_evidence(sides):
    skg, tkg, products, groups = sides
    # counted per product the vivid screen / AMOLED pair has 4 products in common; per family only 2
    per_family = find_anchors(skg, tkg, len(products), min_support=3, max_share=0.9, groups=groups)
    per_product = find_anchors(skg, tkg, len(products), min_support=3, max_share=0.9)
    assert not any(a.source == "mined" for a in per_family)
    assert any(a.source == "mined" for a in per_product)


def test_held_out_split_is_per_source_and_seeded():
    anchors = [Anchor(i, i, "name") for i in range(20)] + [Anchor(20 + i, i, "mined") for i in range(4)]
    a = split_anchors(anchors, held_out=0.25, seed=1)
    b = split_anchors(anchors, held_out=0.25, seed=1)
    assert a == b and len(a[1]) == 6 and {x.source for x in a[1]} == {"name", "mined"}
    assert not set(a[0]) & set(a[1])
    assert split_anchors(anchors, held_out=0.25, seed=2) != a


def test_empty_sides_give_no_anchors():
    assert find_anchors(Side(), Side(), 0) == []
