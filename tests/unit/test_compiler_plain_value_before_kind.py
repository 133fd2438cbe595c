"""A catalogue value written in lower case right before the category word it qualifies ("carbon
trail bikes", "steel bikes") is that value, not an English word left unread: before, the answer
was every bike of the category, the value reported unread. An invented bike shop (real converter and rules,
in-memory Oxigraph); every expected answer is read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

BIKES = [
    {"name": "Fell Ridge 1", "cat": "Trail Bikes", "frame": "Carbon Fiber", "price": 1900},
    {"name": "Fell Ridge 2", "cat": "Trail Bikes", "frame": "Aluminium", "price": 900},
    {"name": "Scree Line 3", "cat": "Trail Bikes", "frame": "Carbon Fiber", "price": 2600},
    {"name": "Scree Line 4", "cat": "Trail Bikes", "frame": "Steel", "price": 700},
    {"name": "Tor Drop 5", "cat": "Downhill Bikes", "frame": "Carbon Fiber", "price": 3100},
    {"name": "Tor Drop 6", "cat": "Downhill Bikes", "frame": "Aluminium", "price": 1500},
    {"name": "Gill Run 7", "cat": "Downhill Bikes", "frame": "Steel", "price": 1100},
]


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Compiler:
    rows = [
        Variant(
            b["name"], b["name"], (b["cat"],), (("Frame:Frame Material", b["frame"]), ("Price", f"{b['price']}.00 EUR"))
        )
        for b in BIKES
    ]
    return compile_catalog(rows, tmp_path_factory.mktemp("bikes"), currency="EUR")


def test_a_lower_case_value_before_the_category_word_is_that_value(shop):
    ans = shop.answer("Which carbon trail bikes cost under 2000 EUR?")
    want = sorted(
        b["name"] for b in BIKES if b["cat"] == "Trail Bikes" and b["frame"].startswith("Carbon") and b["price"] < 2000
    )
    assert sorted(ans.answer_list or []) == want, ans.trace
    assert "carbon" not in ans.unread, ans.trace
    ans = shop.answer("How many steel bikes are listed?")
    assert ans.value == sum(b["frame"] == "Steel" for b in BIKES), ans.trace
