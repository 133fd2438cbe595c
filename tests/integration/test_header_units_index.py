"""Units named only in column names, end to end (issue 33): a tiny catalog with bare numbers under
"Capacity (ft3)", "Annual Energy Use (kWh/yr)" and "Percent Less Energy Use …" is indexed, and
questions in cubic feet, litres, kWh a year and percent are answered against it."""

from __future__ import annotations

import pytest

from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.lexicon.patterns import PatternIndex
from dualgraph.models.embedders import SentenceTransformerEmbedder
from dualgraph.pipeline.index import build_index
from dualgraph.query.interpret.compiler import Compiler
from dualgraph.stores.oxigraph import OxigraphStore

ROWS = {  # name: (capacity ft3, annual kWh, percent less than the standard)
    "Coldbox 100": ("12.5", "310", "10"),
    "Coldbox 200": ("20.5", "420", "12"),
    "Coldbox 300": ("25", "610", "40"),
    "Coldbox 400": ("4.4", "250", "35"),
}


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    root = tmp_path_factory.mktemp("header-units")
    pages = []
    for name, (cap, kwh, pct) in ROWS.items():
        specs = (
            ("Capacity:Capacity (Total Volume) (ft3)", cap),
            ("Energy:Annual Energy Use (kWh/yr)", kwh),
            ("Energy:Percent Less Energy Use than US Federal Standard", pct),
            ("Dimensions:Height (in)", "70"),
        )
        pages.append((name.lower().replace(" ", "-"), f"{name} text", [Variant(name, name, ("fridges",), specs)]))
    write_dataset(root / "ds", pages)
    build_index(root / "ds", root / "ix", IndexConfig(runner="inline", progress=False, tkg={"enabled": False}))
    store = OxigraphStore(root / "ix" / "skg" / "oxigraph", read_only=True)
    return Compiler(store, PatternIndex.load(root / "ix" / "patterns", SentenceTransformerEmbedder()))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which fridges hold at least 20 cubic feet?", ["Coldbox 200", "Coldbox 300"]),
        ("Which fridges hold more than 600 litres?", ["Coldbox 300"]),  # 25 ft3 = 708 l, 20.5 ft3 = 580 l
        ("Which fridges use under 400 kWh a year?", ["Coldbox 100", "Coldbox 400"]),
        ("Which fridges use less than 300 kWh/yr?", ["Coldbox 400"]),
        ("Which fridges use at least 35% less energy than the federal standard?", ["Coldbox 300", "Coldbox 400"]),
    ],
)
def test_questions_ground_against_units_from_column_names(compiler, question, expected):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list) == expected, ans.trace


@pytest.mark.parametrize(
    "question",
    [
        "What is the largest total capacity of any fridge, in cubic feet?",
        "What is the largest total capacity of any fridge?",
    ],
)
def test_a_value_is_given_in_the_unit_of_the_column_name_or_the_question(compiler, question):
    # stored in litres (708.0 l); given back as the catalog wrote it, or in the unit the question names
    ans = compiler.answer(question)
    assert (ans.value, ans.unit) == (25, "ft³"), ans.trace
