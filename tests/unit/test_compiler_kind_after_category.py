"""A category word and the noun after it that product names write together ("TV benches": the names
say "TV bench", the category is "TV & media furniture") ask for that kind, not for the whole
category with the noun left unread. An invented furniture catalog (real converter and rules,
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

RANGES = ["Nordo", "Visby", "Kalmar", "Umeå", "Lulea"]
RECORDS = [
    # the kind, right after the range's name, led by the category's first word
    *({"name": f"{r} TV bench, {90 + 30 * i}x40 cm", "width": 90 + 30 * i, "cat": "TV & media furniture"}
      for i, r in enumerate(RANGES)),
    # other kinds of the same category, narrow ones too
    *({"name": f"{r} Wall shelf, {40 + 20 * i}x20 cm", "width": 40 + 20 * i, "cat": "TV & media furniture"}
      for i, r in enumerate(RANGES)),
    *({"name": f"{r} Desk, {100 + 10 * i}x60 cm", "width": 100 + 10 * i, "cat": "Tables & desks"}
      for i, r in enumerate(RANGES)),
]  # fmt: skip


def _variant(r: dict) -> Variant:
    specs = (("Dimensions:Width", f"{r['width']} cm"), ("Price", f"{r['width'] * 3}.00 EUR"))
    return Variant(r["name"], r["name"], (r["cat"],), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("tv"), currency="EUR")


def test_the_kind_after_a_category_word_is_read(compiler):
    ans = compiler.answer("Which TV benches are narrower than 150 cm?")
    want = sorted(r["name"] for r in RECORDS if "TV bench" in r["name"] and r["width"] < 150)
    assert sorted(ans.answer_list or []) == want, ans.trace
    assert "benches" not in " ".join(ans.unread), ans.trace


def test_the_category_alone_is_still_the_category(compiler):
    ans = compiler.answer("Which TV furniture is narrower than 100 cm?")
    want = sorted(r["name"] for r in RECORDS if r["cat"].startswith("TV") and r["width"] < 100)
    assert sorted(ans.answer_list or []) == want, ans.trace


# A category named "<kind> - <qualifier>" holds that kind whole: its word asked alone is the category,
# though two listings also write the kind in their names. ("Sofas & armchairs" joins two kinds: there
# "armchairs" is a part, and the names that state it are the answer; see above.)
BIKES = [
    {"name": "Kestrel Volt 150", "cat": "Ebikes - Mountain", "price": 2300},
    {"name": "Orla E-bike, Large", "cat": "Ebikes - Mountain", "price": 2900},
    {"name": "Sorrel E-bike, Medium", "cat": "Ebikes - Mountain", "price": 3400},
    {"name": "Tarn Amp 2", "cat": "Ebikes - Mountain", "price": 1900},
    {"name": "Fell Ridge 3", "cat": "Trail Bikes", "price": 900},
    {"name": "Scree Line 5", "cat": "Trail Bikes", "price": 1200},
]


@pytest.fixture(scope="module")
def bike_shop(tmp_path_factory) -> Compiler:
    rows = [Variant(b["name"], b["name"], (b["cat"],), (("Price", f"{b['price']}.00 EUR"),)) for b in BIKES]
    return compile_catalog(rows, tmp_path_factory.mktemp("bikes"), currency="EUR")


def test_the_kind_a_qualified_category_is_made_of_names_the_category(bike_shop):
    ans = bike_shop.answer("Which e-bike is the cheapest?")
    want = min((b for b in BIKES if b["cat"].startswith("Ebikes")), key=lambda b: b["price"])["name"]
    assert ans.answer_list == [want] or ans.value == want, ans.trace
    ans = bike_shop.answer("Which e-bikes cost under 3000 EUR?")
    want_list = sorted(b["name"] for b in BIKES if b["cat"].startswith("Ebikes") and b["price"] < 3000)
    assert sorted(ans.answer_list or []) == want_list, ans.trace
