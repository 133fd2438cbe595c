"""Graph analytics over an exported SKG triple table (dualgraph.spark.triples + dualgraph.spark.graph)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyspark", reason="the `spark` extra (pyspark) is not installed")

from dualgraph.corpus.model import Variant
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.skg.names import product_iri
from dualgraph.skg.triples import convert_document
from dualgraph.spark.graph import analyse, components_fallback, components_graphframes, products, spec_values
from dualgraph.spark.options import GraphOptions
from dualgraph.spark.session import graphframes_missing
from dualgraph.spark.triples import export_triples

pytestmark = pytest.mark.spark
# kilobytes of data: compiling and re-planning queries would cost more than running them


def phone(name: str, ram: str, battery: str, price: str | None = None) -> Variant:
    specs = [("Memory:RAM", ram), ("Battery:Capacity", battery)] + ([("Price", price)] if price else [])
    return Variant(name, name, ("phones",), tuple(specs))


# uk and de list one product (one node) in both; "Nova 7 8GB EU" is the Nova 7 (8GB) again under
# another name (same specs, its own node); "solo  1" is "Solo 1" spelled otherwise.
UK = [
    phone("Nova 7 (8GB)", "8 GB", "5000 mAh", "199 GBP"),
    phone("Nova 7 (12GB)", "12 GB", "5000 mAh", "249 GBP"),
    phone("Zen 3", "12 GB", "4500 mAh"),  # linked to Nova 7 (8GB) only through Nova 7 (12GB)
    phone("Solo 1", "3 GB", "3000 mAh"),
]
DE = [
    phone("Nova 7 (8GB)", "8 GB", "5000 mAh", "229 EUR"),
    phone("Nova 7 8GB EU", "8 GB", "5000 mAh", "229 EUR"),
    phone("solo  1", "6 GB", "2000 mAh"),
]
P = {name: product_iri(name) for name in [v.name for v in UK + DE]}


@pytest.fixture(scope="module")
def triples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import pyoxigraph as ox

    root = tmp_path_factory.mktemp("skg")
    layout = IndexLayout(root / "index")
    nquads = "".join(convert_document(f"file-{m}", docs, market=m).nquads for m, docs in (("uk", UK), ("de", DE)))
    layout.store.mkdir(parents=True)
    store = ox.Store(str(layout.store))
    store.bulk_load(nquads.encode("utf-8"), format=ox.RdfFormat.N_QUADS)
    store.flush()
    del store  # releases the RocksDB lock before the read-only export
    out = root / "triples.parquet"
    assert export_triples(layout.root, out, batch_rows=50, progress=False) == len(
        set(nquads.splitlines())
    )  # the store keeps one of each
    return out


def expected_components(*groups: list[str]) -> dict[str, str]:
    return {P[n]: min(P[m] for m in group) for group in groups for n in group}


def test_export_keeps_every_quad_with_its_graph_and_literal_type(triples: Path):
    import pyarrow.parquet as pq

    table = pq.read_table(triples).to_pylist()
    name = [r for r in table if r["s"] == P["Zen 3"] and r["p"].endswith("hasName")]
    assert [(r["o"], r["o_kind"], r["o_datatype"]) for r in name] == [
        ("Zen 3", "literal", "http://www.w3.org/2001/XMLSchema#string")
    ]
    assert name[0]["g"].endswith("/market/uk/doc/file-uk")
    assert pq.ParquetFile(triples).metadata.num_row_groups > 1


def test_components_hubs_and_duplicates_by_label_propagation(spark, triples: Path, tmp_path: Path):
    report = analyse(spark, triples, tmp_path, GraphOptions(use_graphframes=False, top=3, progress=False))
    assert report.method == "label-propagation" and report.iterations and report.iterations >= 2
    rows = spark.read.parquet(str(tmp_path / "components.parquet")).collect()
    assert {r["product"]: r["component"] for r in rows} == expected_components(
        ["Nova 7 (8GB)", "Nova 7 (12GB)", "Zen 3", "Nova 7 8GB EU"], ["Solo 1"], ["solo  1"]
    )
    assert {r["market"] for r in rows if r["product"] == P["Nova 7 (8GB)"]} == {"uk", "de"}
    assert (report.products, report.components, report.largest_components) == (6, 3, [4, 1, 1])
    assert [(h["entry_name"], h["products"]) for h in report.hub_entries[:2]] == [("Capacity", 6), ("RAM", 6)]
    assert (report.hub_values[0]["value_name"], report.hub_values[0]["products"]) == ("5000 mAh", 3)
    assert all(h["entry_name"] != "Price" for h in report.hub_entries)  # prices are left out
    found = {(d["by"], tuple(d["products"]), tuple(d["markets"])) for d in report.duplicates}
    assert found == {
        ("specs", tuple(sorted([P["Nova 7 (8GB)"], P["Nova 7 8GB EU"]])), ("de", "uk")),
        ("name", tuple(sorted([P["Solo 1"], P["solo  1"]])), ("de", "uk")),
    }
    assert json.loads((tmp_path / "report.json").read_text())["components"] == 3


def test_hub_values_can_be_kept_from_linking_products(spark, triples: Path):
    frame = spark.read.parquet(str(triples))
    listed, values = products(frame).localCheckpoint(), spec_values(frame, ["Price"]).localCheckpoint()
    comps, _ = components_fallback(listed, values, max_value_products=2)
    got = {r["product"]: r["component"] for r in comps.collect()}
    # 5000 mAh is held by three products: without it the Nova 7s fall apart
    assert got == expected_components(
        ["Nova 7 (8GB)", "Nova 7 8GB EU"], ["Nova 7 (12GB)", "Zen 3"], ["Solo 1"], ["solo  1"]
    )


def test_graphframes_finds_the_components_the_fallback_finds(spark, triples: Path):
    why = graphframes_missing(spark)
    if why:
        pytest.skip(f"GraphFrames is not usable here: {why}")
    frame = spark.read.parquet(str(triples))
    listed, values = products(frame), spec_values(frame, ["Price"])
    fallback, _ = components_fallback(listed, values)
    framed = components_graphframes(spark, listed, values)
    assert sorted(map(tuple, framed.collect())) == sorted(map(tuple, fallback.collect()))
