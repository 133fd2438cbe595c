"""`build_index` end to end on the embedded store: bad input, idempotence, replacement, resume."""

import json

import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.stores.oxigraph import OxigraphStore
from tests.conftest import read_jsonl

INLINE = IndexConfig(runner="inline", progress=False, batch_size=2)


def phone(name, mah, price, storage="128 GB", five_g="Yes"):
    return Variant(
        name,
        name.rsplit(" ", 1)[0],
        ("smartphones",),
        (
            ("Battery:Capacity", f"{mah} mAh"),
            ("Storage:Capacity", storage),
            ("Network:5G", five_g),
            ("Price", f"{price} GBP"),
        ),
    )


PAGES = [
    ("a", "Phone A text", [phone("Alpha 1", 5000, 450), phone("Alpha 2", 5000, 520, "1 TB")]),
    ("b", "Phone B text", [phone("Beta 1", 4500, 300, "512 GB", "No")]),
    ("c", "Phone C text", [phone("Gamma 1", 6000, 499.99, "2 TB")]),
]


def names(index, query):
    with OxigraphStore(IndexLayout(index).store, read_only=True) as s:
        res = s.select(query)
    return sorted(b["n"]["value"] for b in res["results"]["bindings"])


BIG_CHEAP = """SELECT DISTINCT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:hasPrice ?price ;
    skg:hasSpec ?s . ?s skg:inSection/skg:hasName "Battery" ; skg:hasQuantity/skg:hasNumericValue ?mah .
    FILTER(?mah >= 5000 && ?price < 500) }"""


def test_index_builds_and_answers(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    m = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    assert m["documents"] == {
        "total": 3,
        "converted": 3,
        "unchanged": 0,
        "quarantined": 0,
        "removed": 0,
        "ignored": 0,
        "orphan_graphs_dropped": 0,
        "read_to_compare": 0,
        "reprocessed": ["file-a", "file-b", "file-c"],
        "reprocessed_count": 3,
        "removed_documents": [],
    }
    assert m["products"] == 4 and m["quarantined_records"] == 0
    assert names(tmp_path / "ix", BIG_CHEAP) == ["Alpha 1", "Gamma 1"]
    manifest = json.loads((tmp_path / "ix" / "manifest.json").read_text())
    assert manifest["triples"] == m["triples"] > 0


def test_storage_in_gb_and_tb_compares(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    q = """SELECT DISTINCT ?n WHERE {{ ?p skg:hasName ?n ; skg:hasSpec ?s . ?s skg:inSection/skg:hasName "Storage" ;
           skg:hasQuantity ?q . ?q skg:hasNumericValue ?v ; skg:hasUnit ?u . FILTER(?v {op} {x}) }}"""
    # 512 GB < 1 TB < 2 TB, whatever unit the store keeps
    with OxigraphStore(IndexLayout(tmp_path / "ix").store, read_only=True) as s:
        res = s.select("""SELECT ?v WHERE { ?p skg:hasName "Beta 1" ; skg:hasSpec ?s .
                          ?s skg:inSection/skg:hasName "Storage" ; skg:hasQuantity/skg:hasNumericValue ?v }""")
    x = res["results"]["bindings"][0]["v"]["value"]
    assert names(tmp_path / "ix", q.format(op=">", x=x)) == ["Alpha 2", "Gamma 1"]
    order = """SELECT ?n WHERE { ?p skg:hasName ?n ; skg:hasSpec ?s . ?s skg:inSection/skg:hasName "Storage" ;
               skg:hasQuantity/skg:hasNumericValue ?v } ORDER BY ?v"""
    with OxigraphStore(IndexLayout(tmp_path / "ix").store, read_only=True) as s:
        ordered = [b["n"]["value"] for b in s.select(order)["results"]["bindings"]]
    assert ordered == ["Alpha 1", "Beta 1", "Alpha 2", "Gamma 1"]


def test_rerun_changes_nothing_and_edits_replace(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    first = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    again = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    assert again["documents"]["unchanged"] == 3 and again["documents"]["converted"] == 0
    assert again["triples"] == first["triples"] and again["rules"] == "unchanged"
    # edit one page (Gamma gets pricier), delete another
    write_dataset(tmp_path / "ds", [("c", "Phone C text", [phone("Gamma 1", 6000, 650, "2 TB")])])
    import shutil

    shutil.rmtree(tmp_path / "ds" / "file-b")
    third = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    assert third["documents"]["converted"] == 1 and third["documents"]["removed"] == 1
    assert third["products"] == 3
    assert names(tmp_path / "ix", BIG_CHEAP) == ["Alpha 1"]
    # the removed page's range and its values left with it; shared ones stayed
    assert names(tmp_path / "ix", "SELECT ?n WHERE { ?r a skgt:ProductRange ; skg:hasName ?n }") == ["Alpha", "Gamma"]
    values = names(tmp_path / "ix", 'SELECT ?n WHERE { ?v a skgt:Value ; skg:hasName ?n . FILTER(STRENDS(?n, " GB")) }')
    assert values == ["128 GB"] and "512 GB" not in values
    # the shard file of the replaced page went with it: one left from the first run (a, b), one new (c)
    assert len(list((tmp_path / "ix" / "skg" / "shards").glob("*.nq"))) == 2
    # the same content indexed from scratch gives the same store
    fresh = build_index(tmp_path / "ds", tmp_path / "ix2", INLINE)
    assert fresh["triples"] == third["triples"]


def test_bad_input_is_quarantined_and_the_rest_indexed(tmp_path):
    ds = tmp_path / "ds"
    write_dataset(
        ds,
        PAGES
        + [
            ("bad1", "x", [phone("Delta 1", 1, 1)]),
            ("bad2", "y", [phone("Eps 1", 1, 1)]),
            ("bad3", "z", [phone("Zeta 1", 7000, 100)]),
        ],
    )
    (ds / "file-bad1" / "file-bad1.json").write_text("{not json")
    inj = ds / "file-bad2" / "inject-bad2.json"
    inj.write_text(inj.read_text()[:25])
    (ds / "file-bad3" / "part-bad3.md").unlink()
    write_dataset(ds, [("odd", "o", [Variant("Odd 1", "Odd", (), (("Battery:Capacity", "50OO mAh"),))])])
    m = build_index(ds, tmp_path / "ix", INLINE)
    # a number-like value the parser cannot read is kept as text and listed, not dropped
    assert m["values_kept_as_text"] == 1
    (kept,) = read_jsonl(tmp_path / "ix" / "values_kept_as_text.jsonl")
    assert kept["value"] == "50OO mAh" and kept["document"] == "file-odd"
    assert "50OO mAh" in names(tmp_path / "ix", "SELECT ?n WHERE { ?v a skgt:Value ; skg:hasName ?n }")
    assert m["documents"]["quarantined"] == 1 and m["documents"]["converted"] == 6
    assert m["quarantined_records"] == 3
    q = read_jsonl(tmp_path / "ix" / "quarantine.jsonl")
    by_file = {r["file"].rsplit("/", 1)[-1]: r["reason"] for r in q}
    assert "malformed metadata" in by_file["file-bad1.json"]
    assert "truncated" in by_file["inject-bad2.json"]
    assert by_file["part-bad3.md"] == "markdown file is missing"
    # Zeta's specs survived its missing markdown
    assert "Zeta 1" in names(tmp_path / "ix", "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")
    # the report is complete on a rerun too (problems of unchanged documents are kept)
    build_index(ds, tmp_path / "ix", INLINE)
    assert len(read_jsonl(tmp_path / "ix" / "quarantine.jsonl")) == 3


def test_resume_after_a_crash_mid_load(tmp_path, monkeypatch):
    write_dataset(tmp_path / "ds", PAGES)
    from dualgraph.stores import oxigraph as ox_module

    calls = {"n": 0}
    real = OxigraphStore.bulk_load

    def flaky(self, path, **kw):
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("simulated crash")
        return real(self, path, **kw)

    one_shard_a_pass = INLINE.model_copy(update={"load_group_quads": 1})
    monkeypatch.setattr(ox_module.OxigraphStore, "bulk_load", flaky)
    with pytest.raises(RuntimeError, match="simulated crash"):
        build_index(tmp_path / "ds", tmp_path / "ix", one_shard_a_pass)
    monkeypatch.setattr(ox_module.OxigraphStore, "bulk_load", real)
    m = build_index(tmp_path / "ds", tmp_path / "ix", one_shard_a_pass)
    # one of the two shards (2 documents + 1) was loaded before the crash; only the other is redone
    assert sorted([m["documents"]["unchanged"], m["documents"]["converted"]]) == [1, 2]
    assert m["products"] == 4
    fresh = build_index(tmp_path / "ds", tmp_path / "ix2", INLINE)
    assert fresh["triples"] == m["triples"]


@pytest.mark.ray
def test_ray_runner_matches_inline(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    a = build_index(tmp_path / "ds", tmp_path / "ix-inline", INLINE)
    b = build_index(
        tmp_path / "ds",
        tmp_path / "ix-ray",
        IndexConfig(runner="ray", ray_min_documents=0, ray_min_cpus=1, progress=False, batch_size=1),
    )
    assert {k: a[k] for k in ("products", "triples", "specs", "features")} == {
        k: b[k] for k in ("products", "triples", "specs", "features")
    }


def test_a_page_with_text_but_no_specs_reaches_the_tkg(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    first = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    write_dataset(tmp_path / "ds", [("guide", "# Buying guide\n\nStereo speakers matter for films.", [])])
    second = build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    assert second["documents"]["converted"] == 1
    assert second["tkg"] != "unchanged" and second["tkg"]["chunks"] > first["tkg"]["chunks"]


def test_changed_rules_are_applied_without_reconverting(tmp_path):
    write_dataset(tmp_path / "ds", PAGES)
    build_index(tmp_path / "ds", tmp_path / "ix", INLINE)
    rules = tmp_path / "rules.yaml"
    rules.write_text("""rules:
  - id: only-category
    description: Products belong to their range's category.
    where: "?p skg:variantOf ?r . ?r skg:belongs ?c ."
    insert: "?p skg:belongs ?c ."
""")
    m = build_index(tmp_path / "ds", tmp_path / "ix", INLINE.model_copy(update={"rules_path": rules}))
    assert m["documents"]["converted"] == 0 and m["rules"] != "unchanged" and m["patterns"] != "unchanged"
    # no rule derives a feature now; the catalog's coded terms ("5G") are catalog facts, not rules
    assert m["features"] == m["catalog"]["coded_terms"]["codes"] and m["derived_triples"] == m["products"]
    again = build_index(tmp_path / "ds", tmp_path / "ix", INLINE.model_copy(update={"rules_path": rules}))
    assert again["rules"] == "unchanged" and again["patterns"] == "unchanged"
