"""Brands, product lines and types derived by ``build_index`` and queried with SPARQL."""

import shutil

from dualgraph.config import IndexConfig, TkgConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_graph import derive_catalog_facts
from dualgraph.stores.oxigraph import OxigraphStore

SKG_ONLY = IndexConfig(runner="inline", progress=False, batch_size=3, tkg=TkgConfig(enabled=False), patterns=False)


def device(name, rng, cats, brand=None, chip="Chipco"):
    specs = [("Battery:Capacity", "5000 mAh"), ("Processor:Brand", chip)]
    if brand:
        specs.append(("Specifications:Brand", brand))
    return Variant(name, rng, cats, tuple(specs))


PHONE, TABLET = ("phones", "smartphones"), ("tablets",)
PAGES = [
    # Orbix: brand entries on every page, names with the brand first
    ("o1", "o", [device(f"Orbix Nova N5 {gb}GB", "Orbix Nova N5", PHONE, "orbix") for gb in (128, 256)]),
    ("o2", "o", [device("Orbix Nova N6", "Orbix Nova N6", PHONE, "orbix")]),
    ("o3", "o", [device("Orbix Nova Prime P2", "Orbix Nova Prime P2", PHONE, "orbix")]),
    ("o4", "o", [device("Orbix Nova Prime P3", "Orbix Nova Prime P3", PHONE, "orbix")]),
    ("o5", "o", [device("Orbix Tab T7", "Orbix Tab T7", TABLET, "orbix")]),
    ("o6", "o", [device("Orbix Tab T9", "Orbix Tab T9", TABLET)]),  # no entry: the name spells the brand
    # Pomme: the names never say "Pomme"; one product lacks the entry and learns it
    ("p1", "p", [device("iWidget 15", "iWidget 15", PHONE, "Pomme", chip="Pomme")]),
    ("p2", "p", [device("iWidget 16", "iWidget 16", PHONE, "Pomme", chip="Pomme")]),
    ("p3", "p", [device("iWidget 17", "iWidget 17", PHONE)]),
    # a one-off model and a phone whose only brand word opens a single range
    ("s1", "s", [device("Orbix Solo 1", "Orbix Solo 1", ("phones",), "orbix")]),
    ("l1", "l", [device("Loner X1", "Loner X1", ("phones",))]),
]


def rows(index, query, var="n"):
    with OxigraphStore(IndexLayout(index).store, read_only=True) as s:
        return sorted(b[var]["value"] for b in s.select(query)["results"]["bindings"])


def test_index_derives_brands_lines_and_types(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    m = build_index(tmp_path / "ds", tmp_path / "ix", SKG_ONLY)
    ix = tmp_path / "ix"
    report = m["catalog"]
    assert report["products"] == m["products"] == 12
    assert report["brands"] == m["brands"] == 2 and report["products_with_brand"] == 11
    assert report["example_brands"] == ["Orbix", "Pomme"]
    assert m["product_lines"] == report["lines"] > 0

    brand_of = "SELECT ?n ?b WHERE { ?p skg:hasName ?n ; skg:hasBrand/skg:hasName ?b }"
    with OxigraphStore(IndexLayout(ix).store, read_only=True) as s:
        got = {b["n"]["value"]: b["b"]["value"] for b in s.select(brand_of)["results"]["bindings"]}
    assert got["iWidget 17"] == "Pomme" and got["Orbix Tab T9"] == "Orbix"
    assert "Loner X1" not in got and "Chipco" not in got.values()  # the processor's maker is no product brand

    in_line = """SELECT DISTINCT ?n WHERE {{ ?p skg:hasName ?n ; skg:hasBrand/skg:hasName "{b}" ;
                 skg:inLine/skg:hasName "{line}" }}"""
    assert rows(ix, in_line.format(b="Pomme", line="iWidget")) == ["iWidget 15", "iWidget 16", "iWidget 17"]
    assert rows(ix, in_line.format(b="Orbix", line="Nova Prime")) == ["Orbix Nova Prime P2", "Orbix Nova Prime P3"]
    assert rows(ix, in_line.format(b="Orbix", line="Nova")) == [
        "Orbix Nova N5 128GB",
        "Orbix Nova N5 256GB",
        "Orbix Nova N6",
        "Orbix Nova Prime P2",
        "Orbix Nova Prime P3",
    ]
    lines = rows(ix, "SELECT ?n WHERE { ?l a skgt:ProductLine ; skg:hasName ?n }")
    assert "Solo" not in lines and "Nova N" in lines
    broader = rows(ix, 'SELECT ?n WHERE { ?l skg:hasName "Nova Prime P" ; skg:broader+/skg:hasName ?n }')
    assert broader == ["Nova", "Nova Prime"]

    # brand x type x line: Orbix tablets, and "smartphones" sits under "phones" by products
    tablets = """SELECT DISTINCT ?n WHERE { ?p skg:hasName ?n ; skg:hasBrand/skg:hasName "Orbix" ;
                 skg:hasType/skg:hasName "tablets" }"""
    assert rows(ix, tablets) == ["Orbix Tab T7", "Orbix Tab T9"]
    assert rows(ix, 'SELECT ?n WHERE { ?c skg:hasName "smartphones" ; skg:broader/skg:hasName ?n }') == ["phones"]

    # the facts sit in their own graph, seen once through the union default graph
    with OxigraphStore(IndexLayout(ix).store, read_only=True) as s:
        assert O.CATALOG_GRAPH in s.graphs() and s.count(graph=O.CATALOG_GRAPH) == report["quads"]
        n = s.select('SELECT (COUNT(*) AS ?n) WHERE { ?p skg:hasName "iWidget 17" ; skg:hasBrand ?b }')
        assert n["results"]["bindings"][0]["n"]["value"] == "1"


def test_rerun_keeps_and_edits_recompute_the_catalog(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    first = build_index(tmp_path / "ds", tmp_path / "ix", SKG_ONLY)
    again = build_index(tmp_path / "ds", tmp_path / "ix", SKG_ONLY)
    assert again["catalog"] == "unchanged" and again["brands"] == first["brands"]
    assert again["triples"] == first["triples"]
    # removing a Nova Prime page leaves one range: "Nova Prime" is no longer a line
    shutil.rmtree(tmp_path / "ds" / "file-o4")
    third = build_index(tmp_path / "ds", tmp_path / "ix", SKG_ONLY)
    assert third["catalog"] != "unchanged" and third["product_lines"] < first["product_lines"]
    lines = rows(tmp_path / "ix", "SELECT ?n WHERE { ?l a skgt:ProductLine ; skg:hasName ?n }")
    assert "Nova Prime" not in lines and "Nova" in lines
    hits = "SELECT ?n WHERE { ?p skg:hasName ?n ; skg:inLine/skg:hasName 'Nova Prime' }"
    assert rows(tmp_path / "ix", hits) == []


def test_paged_reads_give_the_same_graph(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    build_index(tmp_path / "ds", tmp_path / "ix", SKG_ONLY)
    with OxigraphStore(IndexLayout(tmp_path / "ix").store) as s:
        whole = sorted(s.construct(f"CONSTRUCT {{ ?a ?b ?c }} WHERE {{ GRAPH <{O.CATALOG_GRAPH}> {{ ?a ?b ?c }} }}"))
        report = derive_catalog_facts(s, page_size=2)
        paged = sorted(s.construct(f"CONSTRUCT {{ ?a ?b ?c }} WHERE {{ GRAPH <{O.CATALOG_GRAPH}> {{ ?a ?b ?c }} }}"))
    assert report["products"] == 12 and paged == whole and len(whole) == report["quads"]
