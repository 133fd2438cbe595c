"""Shutter speeds written as fractions, a shop writing decimal commas, and "faster" on a time.

An invented camera shop (real converter and rules, in-memory Oxigraph) whose pages write
"1/4000 s" and "2,5 kg" and prices "1.299,00 €". A faster time is a shorter one: "the fastest
shutter" is the least time, "1/2000 s or faster" at most that time. Before, the fractions were
no numbers, the decimal commas were read as nothing, and "faster" asked for the most seconds.
Every expected answer is computed from the rows below.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

CAMERAS = [
    {"name": "Wren A1", "shutter": Fraction(1, 4000), "weight": "0,45", "price": "1.299,00"},
    {"name": "Wren A2", "shutter": Fraction(1, 8000), "weight": "0,62", "price": "2.199,00"},
    {"name": "Heron B1", "shutter": Fraction(1, 2000), "weight": "0,38", "price": "649,90"},
    {"name": "Heron B2", "shutter": Fraction(1, 1000), "weight": "1,05", "price": "399,00"},
    {"name": "Kite C1", "shutter": Fraction(1, 16000), "weight": "0,71", "price": "3.499,00"},
]


def _num(text: str) -> float:
    return float(text.replace(".", "").replace(",", "."))


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Compiler:
    rows = [
        Variant(
            c["name"],
            c["name"],
            ("Cameras",),
            (
                ("Exposure:Fastest shutter speed", f"1/{c['shutter'].denominator} s"),
                ("Body:Weight", f"{c['weight']} kg"),
                ("Price", f"{c['price']} €"),
            ),
        )
        for c in CAMERAS
    ]
    return compile_catalog(rows, tmp_path_factory.mktemp("cameras"), currency="EUR")


def test_a_faster_shutter_is_a_shorter_time(shop):
    fastest = min(CAMERAS, key=lambda c: c["shutter"])["name"]
    ans = shop.answer("Which camera has the fastest shutter speed?")
    assert ans.answer_list == [fastest] or ans.value == fastest, ans.trace
    a, b = CAMERAS[0], CAMERAS[2]
    ans = shop.answer(f"Which has the faster shutter speed, the {a['name']} or the {b['name']}?")
    assert ans.value == min((a, b), key=lambda c: c["shutter"])["name"], ans.trace


def test_a_fraction_in_the_question_and_or_faster(shop):
    ans = shop.answer("Which cameras have a shutter speed of 1/4000 s or faster?")
    want = sorted(c["name"] for c in CAMERAS if c["shutter"] <= Fraction(1, 4000))
    assert sorted(ans.answer_list or []) == want, ans.trace


def test_decimal_commas_are_read_as_the_shop_writes_them(shop):
    ans = shop.answer("Which cameras weigh under 0.5 kg?")
    assert sorted(ans.answer_list or []) == sorted(c["name"] for c in CAMERAS if _num(c["weight"]) < 0.5), ans.trace
    ans = shop.answer("Which cameras cost more than 1000 euros?")
    assert sorted(ans.answer_list or []) == sorted(c["name"] for c in CAMERAS if _num(c["price"]) > 1000), ans.trace
