"""A model or type numbered in roman numerals is the same name in arabic ones, either way round:
"Mark III" asked as "Mark 3", "Series 4" asked as "Series IV", "type 2" for a value "Type II". An
invented camera catalogue (real converter and rules, in-memory Oxigraph); every expected answer is
read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

# the catalogue writes some numbers in roman numerals and some in arabic ones
RECORDS = [
    {"name": "Orvan Mark II", "weight": 810, "card": "CompactFlash Type I", "price": 900},
    {"name": "Orvan Mark III", "weight": 860, "card": "CompactFlash Type II", "price": 1400},
    {"name": "Orvan Mark IV", "weight": 905, "card": "CompactFlash Type II", "price": 2100},
    {"name": "Pelle Series 3", "weight": 420, "card": "SD", "price": 500},
    {"name": "Pelle Series 4", "weight": 455, "card": "SD", "price": 650},
    {"name": "Pelle Series 5", "weight": 470, "card": "CompactFlash Type II", "price": 720},
]


def _variant(r: dict) -> Variant:
    specs = (
        ("Body:Weight", f"{r['weight']} g"),
        ("Storage:Storage types", r["card"]),
        ("Price", f"{r['price']}.00 EUR"),
    )
    return Variant(r["name"], r["name"], ("Cameras",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("cameras"), currency="EUR")


def _row(name: str) -> dict:
    return next(r for r in RECORDS if r["name"] == name)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How much does the Orvan Mark 3 weigh?", "Orvan Mark III"),
        ("What is the weight of the orvan mark iv?", "Orvan Mark IV"),
        ("What is the weight of the Pelle Series IV?", "Pelle Series 4"),
        ("What is the weight of the Orvan Mark II?", "Orvan Mark II"),  # as the catalogue writes it
    ],
)
def test_a_model_number_reads_in_either_numerals(compiler, question, name):
    ans = compiler.answer(question)
    want = _row(name)["weight"]
    assert ans.value is not None and float(str(ans.value).split()[0]) == want, (ans.value, ans.trace)


def test_two_models_compared_in_arabic_numerals(compiler):
    ans = compiler.answer("Which is heavier, the Orvan Mark 2 or the Orvan Mark 4?")
    assert ans.answer_list == ["Orvan Mark IV"] or ans.value == "Orvan Mark IV", ans.trace


def test_a_coded_value_reads_in_either_numerals(compiler):
    ans = compiler.answer("Which cameras take CompactFlash Type 2 cards?")
    want = sorted(r["name"] for r in RECORDS if r["card"] == "CompactFlash Type II")
    assert sorted(ans.answer_list or []) == want, ans.trace
