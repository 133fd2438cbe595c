"""Re-indexing after a change derives rule facts for the changed products and ranges only, and
the derived graph it leaves is the one a fresh index of the changed catalog has."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from dualgraph.config import IndexConfig
from dualgraph.pipeline.index import build_index
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import gen_catalog

CONFIG = IndexConfig(runner="inline", progress=False, patterns=False, tkg={"enabled": False}, batch_size=16)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gen") / "ds"
    gen_catalog.generate(root, 150, seed=5)
    return root


def _docs(ds: Path) -> list[Path]:
    return sorted(d for d in ds.iterdir() if d.name.startswith("file-"))


def _edit(doc: Path, change) -> None:
    inject = next(doc.glob("inject-*.json"))
    records = json.loads(inject.read_text(encoding="utf-8"))
    change(records)
    inject.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")


def _graphs(index: Path) -> dict[str, set[tuple[str, str, str]]]:
    store = OxigraphStore(index / "skg" / "oxigraph", read_only=True)
    try:
        return {
            g: set(store.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{g}> {{ ?s ?p ?o }} }}"))
            for g in (O.DERIVED_GRAPH, O.CATALOG_GRAPH, O.VOCAB_GRAPH)
        }
    finally:
        store.close()


def _flip_yes_no(records: list[dict]) -> None:
    for rec in records:
        for key, value in rec["specs"].items():
            if value in ("Yes", "No"):
                rec["specs"][key] = "No" if value == "Yes" else "Yes"
                return


def _new_range_and_price(records: list[dict]) -> None:
    # the first variant leaves its range for a new one; its old range's summaries must follow
    records[0]["prod_range"] += " Max"
    records[0]["name"] += " Max"
    for key in list(records[0]["specs"]):
        if key.startswith("Price"):
            records[0]["specs"][key] = "9999.00 GBP"


def _copy_document(src: Path, stem: str) -> Path:
    old = src.name.removeprefix("file-")
    dst = src.with_name(f"file-{stem}")
    dst.mkdir()
    for f in src.iterdir():
        (dst / f.name.replace(old, stem)).write_text(f.read_text(encoding="utf-8").replace(old, stem), "utf-8")
    return dst


def _join_range_of(other: Path):
    # a new document sells one more variant of a range another document holds, in one more
    # category: the other document's variants inherit it (and the range's summaries change)
    theirs = json.loads(next(other.glob("inject-*.json")).read_text(encoding="utf-8"))[0]

    def change(records: list[dict]) -> None:
        del records[1:]
        records[0]["name"] = theirs["prod_range"] + " Special Edition"
        records[0]["prod_range"] = theirs["prod_range"]
        records[0]["categories"] = [*theirs["categories"], "Gift Ideas"]
        records[0]["specs"].pop("Model Code", None)

    return change


def _change(ds: Path) -> None:
    docs = _docs(ds)
    _edit(docs[1], _flip_yes_no)
    _edit(docs[4], _new_range_and_price)
    shutil.rmtree(docs[7])  # a document that goes away takes its products' facts with it
    _edit(_copy_document(docs[10], "9999999-extra"), _join_range_of(docs[12]))


def _fresh_and_incremental(catalog: Path, tmp_path: Path, change) -> tuple[dict, dict, dict]:
    ds = tmp_path / "ds"
    shutil.copytree(catalog, ds)
    build_index(ds, tmp_path / "inc", CONFIG)
    change(ds)
    manifest = build_index(ds, tmp_path / "inc", CONFIG)
    build_index(ds, tmp_path / "fresh", CONFIG)
    return manifest, _graphs(tmp_path / "inc"), _graphs(tmp_path / "fresh")


def test_a_small_change_rederives_only_its_products(catalog: Path, tmp_path: Path) -> None:
    manifest, inc, fresh = _fresh_and_incremental(catalog, tmp_path, _change)
    rules = manifest["rules"]
    assert rules["mode"] == "incremental", rules
    assert 0 < rules["focus"] < manifest["products"] / 2
    assert len(inc[O.DERIVED_GRAPH]) > 500
    for graph in fresh:
        assert inc[graph] == fresh[graph], (graph, sorted(inc[graph] ^ fresh[graph])[:5])


def test_a_change_to_what_the_whole_catalog_shares_rebuilds(catalog: Path, tmp_path: Path) -> None:
    def spread_a_new_tag(ds: Path) -> None:
        # two products of different documents now list a new tag under a tag-list entry:
        # it becomes common, so every product that lists that entry without it lacks it
        added = 0
        for doc in _docs(ds):
            records = json.loads(next(doc.glob("inject-*.json")).read_text(encoding="utf-8"))
            key = next((k for k, v in records[0]["specs"].items() if v.count(",") >= 2 and "Health" in k), None)
            if key is None:
                continue

            def add_tag(recs: list[dict], key: str = key) -> None:
                recs[0]["specs"][key] += ", Zeta sensor"

            _edit(doc, add_tag)
            added += 1
            if added == 2:
                return
        pytest.skip("the generated catalog has no tag list to extend")

    manifest, inc, fresh = _fresh_and_incremental(catalog, tmp_path, spread_a_new_tag)
    assert manifest["rules"]["mode"] == "full"
    assert "tag-value" in manifest["rules"]["why"]
    assert inc[O.DERIVED_GRAPH] == fresh[O.DERIVED_GRAPH]


def test_nothing_changed_runs_no_rules(catalog: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    shutil.copytree(catalog, ds)
    build_index(ds, tmp_path / "ix", CONFIG)
    assert build_index(ds, tmp_path / "ix", CONFIG)["rules"] == "unchanged"


def test_rules_changed_since_the_last_run_rebuild_whole(catalog: Path, tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    shutil.copytree(catalog, ds)
    build_index(ds, tmp_path / "ix", CONFIG)
    _edit(_docs(ds)[2], _flip_yes_no)
    rules = Path(__file__).resolve().parents[2] / "dualgraph" / "skg" / "rules.yaml"
    mine = tmp_path / "rules.yaml"
    mine.write_text(rules.read_text(encoding="utf-8") + "\n# a comment changes no rule\n", encoding="utf-8")
    text = mine.read_text(encoding="utf-8").replace("skg:variantCount ?n .", "skg:variantCount ?n .\n      ")
    mine.write_text(text.replace("The number of variants of a range.", "How many variants a range has."), "utf-8")
    manifest = build_index(ds, tmp_path / "ix", CONFIG.model_copy(update={"rules_path": mine}))
    assert manifest["rules"]["mode"] == "full"


def test_a_focus_of_long_iris_is_split_to_fit_the_query_limit():
    # at 100k products a re-index's focus of 1,000 IRIs made a 165k-character query, which the
    # store's guard refuses; the focus is now sliced by the length of the query it makes
    from dualgraph.skg.rules import apply_rules, load_rules
    from dualgraph.stores.oxigraph import OxigraphStore

    store = OxigraphStore.in_memory()
    focus = [f"https://w3id.org/dualgraph/skg/product-{'x' * 150}-{i}" for i in range(2500)]
    report = apply_rules(store, load_rules(None), focus=focus)
    assert report.mode == "incremental" and report.runs > 0
