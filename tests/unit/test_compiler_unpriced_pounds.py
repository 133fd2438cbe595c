"""In a catalogue that prices nothing, "pounds" is a weight: "Which cameras weigh more than two
pounds?" asks for bodies over 907 g, not for a price the catalogue never states. Where the
catalogue prices in pounds sterling, "under 500 pounds" stays money. Invented camera catalogues
(real converter and rules, in-memory Oxigraph); every expected answer is read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

GRAMS_PER_POUND = 453.59237
RECORDS = [
    {"name": "Talon 1", "weight": 1450, "price": 2400},
    {"name": "Talon 2", "weight": 980, "price": 1800},
    {"name": "Wren 5", "weight": 620, "price": 700},
    {"name": "Wren 6", "weight": 410, "price": 450},
    {"name": "Pip X", "weight": 180, "price": 230},
]


def _variant(r: dict, *, priced: bool) -> Variant:
    specs = [("Body:Weight", f"{r['weight']} g")]
    if priced:
        specs.append(("Price", f"{r['price']}.00 GBP"))
    return Variant(r["name"], r["name"], ("Cameras",), tuple(specs))


@pytest.fixture(scope="module")
def unpriced(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r, priced=False) for r in RECORDS], tmp_path_factory.mktemp("unpriced"))


@pytest.fixture(scope="module")
def priced(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r, priced=True) for r in RECORDS], tmp_path_factory.mktemp("priced"))


@pytest.mark.parametrize(
    ("question", "pounds"), [("Which cameras weigh more than two pounds?", 2), ("Which cameras are over 1 pound?", 1)]
)
def test_pounds_are_a_weight_where_nothing_is_priced(unpriced, question, pounds):
    ans = unpriced.answer(question)
    want = sorted(r["name"] for r in RECORDS if r["weight"] > pounds * GRAMS_PER_POUND)
    assert want and sorted(ans.answer_list or []) == want, ans.trace


def test_pounds_stay_money_where_the_catalogue_prices_in_sterling(priced):
    ans = priced.answer("Which cameras cost under 500 pounds?")
    assert sorted(ans.answer_list or []) == sorted(r["name"] for r in RECORDS if r["price"] < 500), ans.trace
