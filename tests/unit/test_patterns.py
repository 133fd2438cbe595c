"""The graph pattern index on a small SKG built by the real converter and rules.

Most search tests use :class:`HashBowEmbedder`, a deterministic test embedder written
here (a hashed bag of words, no model); one test uses the real MiniLM.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.patterns import (
    KINDS,
    IndexMismatchError,
    Pattern,
    PatternIndex,
    build_pattern_index,
    collect_patterns,
)
from dualgraph.skg import names as N
from dualgraph.skg.catalog_graph import derive_catalog_facts
from dualgraph.skg.rules import apply_rules, load_rules
from dualgraph.skg.triples import convert_document
from dualgraph.stores.oxigraph import OxigraphStore


class HashBowEmbedder:
    """Test embedder: each lower-cased word hashed (BLAKE2b) into one of ``dim`` buckets, L2-normalised."""

    def __init__(self, dim: int = 512, name: str = "test-hash-bow") -> None:
        self.dim, self.name = dim, name

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"\w+", text.casefold()):
                h = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "big")
                out[i, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def _v(name: str, rng: str, cats: tuple[str, ...], **specs: str) -> Variant:
    return Variant(
        name=name,
        prod_range=rng,
        categories=cats,
        specs=tuple((k.replace("__", ":").replace("_", " "), v) for k, v in specs.items()),
    )


PHONES = ("smartphones",)
VARIANTS = [
    _v(
        "Alpha One 128GB",
        "Alpha One",
        PHONES,
        Battery__Capacity="5000 mAh",
        Memory__Storage="128 GB",
        Display__Type="Dynamic AMOLED 2X",
        Display__Refresh_Rate="120 Hz",
        Network__5G="Yes",
        Price="799.00 GBP",
        Model_Code="A1-128",
    ),
    _v(
        "Alpha One 1TB",
        "Alpha One",
        PHONES,
        Battery__Capacity="5000 mAh",
        Memory__Storage="1 TB",
        Display__Type="Dynamic AMOLED 2X",
        Display__Refresh_Rate="120 Hz",
        Network__5G="Yes",
        Price="1099.00 GBP",
        Model_Code="A1-1T",
    ),
    _v(
        "Beta Two",
        "Beta Two",
        PHONES,
        Battery__Capacity="4000 mAh",
        Memory__Storage="64 GB",
        Display__Type="IPS LCD",
        Display__Refresh_Rate="90 Hz",
        Network__5G="No",
        Price="19999 INR",
    ),
    _v(
        "Gamma Tab",
        "Gamma Tab",
        ("tablets",),
        Battery__Capacity="7000 mAh",
        Memory__Storage="256 GB",
        Display__Type="OLED",
        Display__Refresh_Rate="60 Hz",
        Network__5G="Yes",
        Price="45999 INR",
    ),
    _v("Delta Mini", "Delta Mini", PHONES, Battery__Capacity="1000 mAh", Memory__Storage="2 TB", Display__Type="OLED"),
]
P = {v.name: N.product_iri(v.name, v.model_code) for v in VARIANTS}
ALL = set(P.values())


def _skg(variants: list[Variant], tmp: Path) -> OxigraphStore:
    store = OxigraphStore.in_memory()
    for i, v in enumerate(variants):  # one document per variant, like separate pages
        f = tmp / f"doc{i}.nq"
        f.write_text(convert_document(f"doc-{v.name}", [v]).nquads, encoding="utf-8")
        store.bulk_load(f)
    derive_catalog_facts(store)  # as the index does: coded terms ("5G") are features too
    apply_rules(store, load_rules())
    return store


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    return _skg(VARIANTS, tmp_path_factory.mktemp("skg"))


@pytest.fixture(scope="module")
def patterns(store) -> list[Pattern]:
    return collect_patterns(store)


@pytest.fixture(scope="module")
def index(patterns) -> PatternIndex:
    return PatternIndex.build(patterns, HashBowEmbedder())


def find(
    patterns: list[Pattern], kind: str, entry: str | None = None, unit: str | None = None, name: str | None = None
) -> Pattern:
    hits = [
        p
        for p in patterns
        if p.kind == kind
        and (entry is None or p.entry == entry)
        and (unit is None or p.unit == unit)
        and (name is None or p.name == name)
    ]
    assert len(hits) == 1, (kind, entry, unit, name, [p.text for p in hits])
    return hits[0]


def products_of(store: OxigraphStore, snippet: str) -> set[str]:
    res = store.select(f"SELECT DISTINCT ?p WHERE {{ ?p a skgt:Product . {snippet} }}")
    return {b["p"]["value"] for b in res["results"]["bindings"]}


# -- collection ---------------------------------------------------------------------------


def test_numeric_ranges_and_units(patterns):
    bat = find(patterns, "spec_numeric", "Capacity")
    assert (bat.section, bat.unit, bat.min, bat.max, bat.count) == ("Battery", "mAh", 1000, 7000, 5)
    assert bat.text == "Battery › Capacity: a number in mAh, from 1000 to 7000 (e.g. 5000 mAh)"
    assert bat.entry_iri == N.entry_iri("Battery", "Capacity")
    # GB and TB are one unit in the graph, so one pattern spans 64 GB .. 2 TB
    storage = [p for p in patterns if p.kind == "spec_numeric" and p.entry == "Storage"]
    assert len(storage) == 1
    assert (storage[0].unit, storage[0].min, storage[0].max, storage[0].count) == ("GB", 64, 2000, 5)
    assert storage[0].dimension == "data"
    hz = find(patterns, "spec_numeric", "Refresh Rate")
    assert (hz.unit, hz.min, hz.max, hz.count) == ("Hz", 60, 120, 4)


def test_mixed_units_give_one_numeric_pattern_per_unit(patterns):
    prices = {p.unit: p for p in patterns if p.kind == "spec_numeric" and p.entry == "Price"}
    assert set(prices) == {"GBP", "INR"}
    assert (prices["GBP"].min, prices["GBP"].max, prices["GBP"].count) == (799, 1099, 2)
    assert (prices["INR"].min, prices["INR"].max, prices["INR"].count) == (19999, 45999, 2)
    assert prices["GBP"].dimension == "currency"
    assert prices["GBP"].pattern_id != prices["INR"].pattern_id


def test_value_lists_with_counts(patterns):
    disp = find(patterns, "spec_value", "Type")
    assert disp.section == "Display" and disp.count == 5 and disp.distinct_values == 3
    assert [(v["name"], v["count"]) for v in disp.values] == [("Dynamic AMOLED 2X", 2), ("OLED", 2), ("IPS LCD", 1)]
    assert disp.values[0]["iri"] == N.value_iri("Display", "Type", "Dynamic AMOLED 2X")
    assert disp.text == "Display › Type: values like Dynamic AMOLED 2X, OLED, IPS LCD"


def coded_5g(patterns: list[Pattern]) -> Pattern:
    (p,) = [p for p in patterns if p.kind == "feature" and p.feature_iri == N.feature_iri("5G")]
    return p


def test_features_with_counts(patterns):
    g5 = coded_5g(patterns)  # the coded term, read from the entry's name
    assert (g5.count, g5.lacks_count, g5.name) == (3, 1, "5G")
    assert g5.text == "feature: 5G"
    (entry_feature,) = [p for p in patterns if p.kind == "feature" and p.section == "Network"]
    assert entry_feature.name == "5G" and entry_feature.text == "feature: 5G (Network)"  # the yes-valued entry
    assert (entry_feature.count, entry_feature.lacks_count) == (3, 1)


def test_categories_ranges_products(patterns):
    cats = {p.name: p.count for p in patterns if p.kind == "category"}
    assert cats == {"smartphones": 4, "tablets": 1}
    ranges = {p.name: p.count for p in patterns if p.kind == "range"}
    assert ranges == {"Alpha One": 2, "Beta Two": 1, "Gamma Tab": 1, "Delta Mini": 1}
    assert find(patterns, "range", name="Alpha One").text == "range: Alpha One"
    assert {p.node_iri for p in patterns if p.kind == "product"} == ALL
    assert {p.kind for p in patterns} <= set(KINDS)


def test_ids_are_stable_and_unique(patterns, tmp_path):
    ids = [p.pattern_id for p in patterns]
    assert len(ids) == len(set(ids))
    again = collect_patterns(_skg(list(reversed(VARIANTS)), tmp_path))
    assert [p.to_dict() for p in again] == [p.to_dict() for p in patterns]
    # ids depend on what a pattern stands for, not on its counts
    (tmp_path / "fewer").mkdir()
    fewer = collect_patterns(_skg(VARIANTS[:3], tmp_path / "fewer"))
    bat_ids = {p.pattern_id for p in fewer if p.entry == "Capacity"}
    assert bat_ids == {p.pattern_id for p in patterns if p.entry == "Capacity"}


def test_every_snippet_runs_and_matches_its_count(store, patterns):
    for p in patterns:
        got = products_of(store, p.fill(s="?s1", v="?v1"))
        assert len(got) == p.count, (p.text, p.sparql, got)
        if p.lacks_sparql:
            assert len(products_of(store, p.fill(snippet=p.lacks_sparql))) == p.lacks_count


def test_snippets_return_exactly_the_right_products(store, patterns):
    def run(p: Pattern) -> set[str]:
        return products_of(store, p.fill(s="?s1", v="?v1"))

    assert run(find(patterns, "spec_numeric", "Capacity")) == ALL
    gbp = [p for p in patterns if p.kind == "spec_numeric" and p.unit == "GBP"][0]
    assert run(gbp) == {P["Alpha One 128GB"], P["Alpha One 1TB"]}
    inr = [p for p in patterns if p.kind == "spec_numeric" and p.unit == "INR"][0]
    assert run(inr) == {P["Beta Two"], P["Gamma Tab"]}
    assert run(find(patterns, "spec_numeric", "Refresh Rate")) == ALL - {P["Delta Mini"]}
    g5 = coded_5g(patterns)
    assert run(g5) == {P["Alpha One 128GB"], P["Alpha One 1TB"], P["Gamma Tab"]}
    assert products_of(store, g5.lacks_sparql) == {P["Beta Two"]}
    assert run(find(patterns, "category", name="tablets")) == {P["Gamma Tab"]}
    assert run(find(patterns, "range", name="Alpha One")) == {P["Alpha One 128GB"], P["Alpha One 1TB"]}
    assert run(find(patterns, "product", name="Beta Two")) == {P["Beta Two"]}
    # the compiler's use: a numeric comparison on the filled-in value variable
    storage = find(patterns, "spec_numeric", "Storage")
    big = products_of(store, storage.fill(s="?s1", v="?v1") + " FILTER(?v1 >= 1000)")
    assert big == {P["Alpha One 1TB"], P["Delta Mini"]}
    disp = find(patterns, "spec_value", "Type")
    oled = products_of(store, disp.fill(s="?s1", v="?v1") + f" VALUES ?v1 {{ <{disp.values[1]['iri']}> }}")
    assert oled == {P["Gamma Tab"], P["Delta Mini"]}


def test_empty_store_has_no_patterns():
    assert collect_patterns(OxigraphStore.in_memory()) == []


# -- search -------------------------------------------------------------------------------


def test_search_finds_entries_features_and_filters_kinds(index):
    hits = index.search(["battery capacity mAh", "display type", "5G", "tablets"], k=3)
    assert len(hits) == 4 and all(len(h) == 3 for h in hits)
    assert (hits[0][0][0].section, hits[0][0][0].entry) == ("Battery", "Capacity")
    assert (hits[1][0][0].section, hits[1][0][0].entry) == ("Display", "Type")
    assert hits[3][0][0].kind == "category" and hits[3][0][0].name == "tablets"
    feat = index.search(["5G"], k=5, kinds=["feature"])[0]
    assert feat and all(p.kind == "feature" for p, _ in feat)
    assert [p.name for p, _ in feat[:2]] == ["5G", "5G"]  # the coded term and the yes-valued entry
    num = index.search(["battery capacity"], k=1, kinds=("spec_numeric",))[0]
    assert num[0][0].kind == "spec_numeric" and num[0][0].entry == "Capacity"
    scores = [s for _, s in hits[0]]
    assert scores == sorted(scores, reverse=True)


def test_lexical_side_matches_exact_value_names(index):
    # "IPS LCD" is only a value of Display › Type, not in any pattern's wording around it
    top = index.search(["phones with an IPS LCD"], k=1, kinds=["spec_value"])[0][0][0]
    assert top.entry == "Type"
    assert index.search(["Gamma Tab"], k=1, kinds=["product"])[0][0][0].name == "Gamma Tab"


def test_search_edge_cases(index):
    assert index.search([], k=3) == []
    assert index.search(["x"], k=0) == [[]]
    with pytest.raises(ValueError):
        index.search(["x"], kinds=["nonsense"])
    assert len(index.search(["battery"], k=1000)[0]) == len(index)


def test_real_minilm_grounds_battery_and_screen(patterns):
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    index = PatternIndex.build(patterns, SentenceTransformerEmbedder())
    bat, screen = index.search(["battery capacity mAh", "screen type"], k=3)
    assert (bat[0][0].section, bat[0][0].entry) == ("Battery", "Capacity")
    assert (screen[0][0].section, screen[0][0].entry, screen[0][0].kind) == ("Display", "Type", "spec_value")


# -- persistence --------------------------------------------------------------------------


def test_save_load_round_trip(index, tmp_path):
    out = tmp_path / "patterns"
    index.save(out)
    index.save(out)  # saving over an existing index replaces it
    loaded = PatternIndex.load(out, HashBowEmbedder())
    assert [p.to_dict() for p in loaded.patterns] == [p.to_dict() for p in index.patterns]
    queries = ["battery capacity mAh", "5G", "Alpha One"]
    assert [[(p.pattern_id, s) for p, s in h] for h in loaded.search(queries, k=4)] == [
        [(p.pattern_id, s) for p, s in h] for h in index.search(queries, k=4)
    ]
    assert not [f for f in tmp_path.iterdir() if f.name.startswith(".")]  # no temp folders left


def test_divergence_is_detected(index, patterns, tmp_path):
    out = tmp_path / "a"
    index.save(out)
    other = tmp_path / "b"
    PatternIndex.build(patterns[:5], HashBowEmbedder()).save(other)

    bad = tmp_path / "lexical-from-another-build"
    shutil.copytree(out, bad)
    shutil.rmtree(bad / "lexical")
    shutil.copytree(other / "lexical", bad / "lexical")
    with pytest.raises(IndexMismatchError):
        PatternIndex.load(bad, HashBowEmbedder())

    edited = tmp_path / "edited"
    shutil.copytree(out, edited)
    lines = (edited / "patterns.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["count"] += 1
    (edited / "patterns.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(IndexMismatchError):
        PatternIndex.load(edited, HashBowEmbedder())

    half = tmp_path / "half-written"
    shutil.copytree(out, half)
    (half / "manifest.json").unlink()
    with pytest.raises(IndexMismatchError, match="manifest"):
        PatternIndex.load(half, HashBowEmbedder())

    with pytest.raises(IndexMismatchError, match="embedded with"):
        PatternIndex.load(out, HashBowEmbedder(dim=64))
    with pytest.raises(IndexMismatchError, match="embedded with"):
        PatternIndex.load(out, HashBowEmbedder(name="another-model"))
    assert len(PatternIndex.load(out, HashBowEmbedder())) == len(patterns)


def test_build_pattern_index_reports_counts(store, tmp_path):
    report = build_pattern_index(store, HashBowEmbedder(), tmp_path / "patterns")
    assert report["counts"]["spec_numeric"] == 5  # capacity, storage, refresh rate, price GBP and INR
    assert report["counts"]["category"] == 2 and report["counts"]["product"] == 5
    assert report["patterns"] == sum(report["counts"].values())
    assert report["seconds"]["total"] >= 0
    assert len(PatternIndex.load(tmp_path / "patterns", HashBowEmbedder())) == report["patterns"]
