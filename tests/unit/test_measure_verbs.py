"""A verb of measure before a number names what it measures ("holds at least 500 litres": the
capacity, not any other volume), and a hyphenated value ("bottom-freezer") is the value a list holds
before a loosely named feature. An invented catalog through the real converter, rules, pattern
index and compiler; expectations come from the rows below."""

from __future__ import annotations

import pytest
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant

# name, type, total capacity (l), freezer volume (l), a "bottom freezer drawer" (a feature sharing the words)
FRIDGES = [
    ("Polar 1", "Bottom Freezer", 520, 180, True),
    ("Polar 2", "Top Freezer", 430, 120, True),
    ("Polar 3", "Bottom Freezer", 380, 110, False),
    ("Glacier 9", "Side by Side", 610, 240, True),
]


def _docs():
    # a chest freezer states only its freezer volume: more products hold that entry than the capacity
    chest = Variant(
        name="Tundra Chest",
        prod_range="Tundra Chest",
        categories=("refrigerators",),
        specs=(("Build:Type", "Chest"), ("Capacity:Freezer Volume", "700 l")),
    )
    return [chest] + [
        Variant(
            name=n,
            prod_range=n,
            categories=("refrigerators",),
            specs=(
                ("Build:Type", t),
                ("Capacity:Capacity (Total Volume)", f"{cap} l"),
                ("Capacity:Freezer Volume", f"{fz} l"),
                ("Features:Bottom Freezer Drawer", "Yes" if light else "No"),
            ),
        )
        for n, t, cap, fz, light in FRIDGES
    ]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog(_docs(), tmp_path_factory.mktemp("verbs"))


@pytest.mark.parametrize("question,at_least", [("Which fridges hold at least 500 litres?", 500)])
def test_hold_names_the_capacity(compiler, question, at_least):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list) == sorted(n for n, _, cap, _, _ in FRIDGES if cap >= at_least), ans.trace


def test_a_hyphenated_value_is_the_listed_value(compiler):
    ans = compiler.answer("Which bottom-freezer fridges hold more than 400 litres?")
    assert sorted(ans.answer_list) == sorted(n for n, t, cap, _, _ in FRIDGES if t == "Bottom Freezer" and cap > 400), (
        ans.trace
    )


def test_a_loose_feature_gives_way_to_an_exact_value(compiler):
    """Read as a feature, "bottom-freezer" shares its words with the feature "Bottom Freezer Drawer";
    the value list "Type" holds the very words, which win."""
    from dualgraph.query.read.model import FeatureConstraint, Span

    trace: list[str] = []
    g = compiler.grounder.feature(FeatureConstraint(Span(6, 20, "bottom-freezer"), "bottom-freezer"), trace)
    assert g.resolved and g.kind == "feature-value", trace
    assert "Bottom Freezer Drawer" not in (g.snippet or ""), trace
