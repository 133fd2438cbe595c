"""What answers name: ranges for option-picker catalogs (SpecsQA 'Variant features'), products otherwise.

Built on real Oxigraph indexes of two tiny catalogs written here (no Textual KG, inline runner).
"""

from __future__ import annotations

import pytest

from dualgraph.answer.names import AnswerNames
from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.index import build_index
from dualgraph.stores.oxigraph import OxigraphStore


def _index(tmp_path, pages) -> OxigraphStore:
    ds, ix = tmp_path / "ds", tmp_path / "ix"
    write_dataset(ds, pages)
    build_index(ds, ix, IndexConfig(runner="inline", progress=False, tkg={"enabled": False}, patterns=False))
    return OxigraphStore(ix / "skg" / "oxigraph", read_only=True)


def _picker_page(range_name, options):
    return [
        Variant(
            f"{range_name} {o}",
            range_name,
            ("tablets",),
            (("Display:Size", "11 inch"), ("Variant features:Storage", o)),
        )
        for o in options
    ]


def test_option_picker_catalog_answers_with_ranges(tmp_path):
    store = _index(
        tmp_path,
        [
            ("t1", "Slate One text", _picker_page("Slate One", ["128GB", "256GB"])),
            ("t2", "Slate Two text", _picker_page("Slate Two", ["64GB"])),
        ],
    )
    names = AnswerNames.detect(store, "auto")
    assert names.mode == "range"
    assert names.apply(["Slate One 256GB", "Slate Two 64GB", "Slate One 128GB"]) == ["Slate One", "Slate Two"]
    assert names.value("Slate Two 64GB") == "Slate Two"
    assert AnswerNames.detect(store, "product").apply(["Slate One 256GB"]) == ["Slate One 256GB"]


def test_listing_catalog_answers_with_products(tmp_path):
    rows = [
        Variant("Dial X (8GB RAM + 128GB)", "Dial X", ("phones",), (("Memory:RAM", "8 GB"),)),
        Variant("Dial X (12GB RAM + 256GB)", "Dial X", ("phones",), (("Memory:RAM", "12 GB"),)),
    ]
    store = _index(tmp_path, [("d", "Dial X text", rows)])
    assert AnswerNames.detect(store, "auto").mode == "product"
    forced = AnswerNames.detect(store, "range")
    assert forced.apply(["Dial X (12GB RAM + 256GB)", "Dial X (8GB RAM + 128GB)"]) == ["Dial X"]


@pytest.mark.parametrize("mode", ["auto", "range"])
def test_unknown_names_pass_through(tmp_path, mode):
    store = _index(tmp_path, [("t1", "x", _picker_page("Slate One", ["128GB"]))])
    assert AnswerNames.detect(store, mode).apply(["Not In Catalog"]) == ["Not In Catalog"]


def test_counts_count_ranges_when_answers_name_ranges(tmp_path):
    from dualgraph.lexicon.patterns import PatternIndex
    from dualgraph.models.embedders import SentenceTransformerEmbedder
    from dualgraph.query.interpret.compiler import Compiler

    ds, ix = tmp_path / "ds", tmp_path / "ix"
    write_dataset(
        ds,
        [("t1", "x", _picker_page("Slate One", ["128GB", "256GB"])), ("t2", "y", _picker_page("Slate Two", ["64GB"]))],
    )
    build_index(ds, ix, IndexConfig(runner="inline", progress=False, tkg={"enabled": False}))
    store = OxigraphStore(ix / "skg" / "oxigraph", read_only=True)
    patterns = PatternIndex.load(ix / "patterns", SentenceTransformerEmbedder())
    q = "How many tablets have a display of at least 10 inches?"
    assert Compiler(store, patterns).answer(q).value == 3
    assert Compiler(store, patterns, count_ranges=True).answer(q).value == 2
