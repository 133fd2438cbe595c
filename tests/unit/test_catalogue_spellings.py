"""Words a question and a catalogue spell differently, on an invented cooler shop.

- "without a freezer" where the catalogue's value is one word, "Freezerless" (English "-less");
- "36 cubic feet or more", "20 cu ft or more", "36 ft3": a unit of several words, or glued to a digit,
  keeps the comparison after it (it was read as "= 36", or not at all, or as 3 forints);
- "1.2 metres across": a width;
- "went on sale in 2021": a release date, not a price cut; "first went on sale before 2021": no order;
- "r600a coolers": a word in a brand's place that no product name starts with but a spec value is.
Each test fails without its mechanism.
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.query.read.dates import time_superlative
from dualgraph.query.read.parse import parse_question
from tests.unit.test_compiler import compile_catalog

#        name (brand first), type, refrigerant, volume, width, height, on the market
SHOP = [
    ("Polar One", "Freezerless", "R-600a", "12.5 cu. ft.", "55 cm", "150 cm", "2019-03-01"),
    ("Polar Duo", "Bottom Freezer", "R-134a", "21.0 cu. ft.", "76 cm", "178 cm", "2020-05-01"),
    ("Polar Max", "Side by Side", "R-600a", "36.2 cu. ft.", "126 cm", "180 cm", "2022-02-01"),
    ("Frost Mini", "Freezerless", "R-134a", "4.4 cu. ft.", "48 cm", "85 cm", "2021-06-01"),
    ("Frost Tall", "Top Freezer", "R-600a", "18.0 cu. ft.", "71 cm", "185 cm", "2018-01-01"),
    ("Frost Wide", "French Door", "R-134a", "37.0 cu. ft.", "121 cm", "179 cm", "2021-09-01"),
]


def _variant(name: str, kind: str, gas: str, volume: str, width: str, height: str, day: str) -> Variant:
    specs = (
        ("Build:Configuration", kind),
        ("Build:Refrigerant", gas),
        ("Capacity:Total Volume", volume),
        ("Dimensions:Width", width),
        ("Dimensions:Height", height),
        ("Dates:Date Available On Market", day),
        ("Price", "900 USD"),
    )
    return Variant(name=name, prod_range=name, categories=("Coolers",), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("coolers"), currency="USD")


def _names(compiler, question):
    ans = compiler.answer(question)
    return sorted(ans.answer_list or []), ans


def test_without_a_thing_is_the_catalogues_less_word(compiler):
    got, ans = _names(compiler, "Which coolers come without a freezer?")
    assert got == ["Frost Mini", "Polar One"], ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Which coolers hold 36 cubic feet or more?", ["Frost Wide", "Polar Max"]),
        ("Which coolers offer a total volume of 36 ft3 or more?", ["Frost Wide", "Polar Max"]),
        ("Which coolers hold 20 cu ft or less?", ["Frost Mini", "Frost Tall", "Polar One"]),
        ("Which coolers measure more than 1.2 metres across?", ["Frost Wide", "Polar Max"]),
    ],
)
def test_units_of_several_words_keep_their_comparison(compiler, question, want):
    got, ans = _names(compiler, question)
    assert got == want, ans.trace


def test_a_glued_unit_is_no_price():
    (c,) = parse_question("Which coolers hold 36 ft3 or more?").constraints
    assert (c.op, c.unit, c.span.text) == (">=", "l", "36 ft3 or more")


def test_going_on_sale_dates_a_release(compiler):
    parsed = parse_question("Which coolers went on sale in 2021?")
    assert [type(c).__name__ for c in parsed.constraints] == ["DateConstraint"]
    got, ans = _names(compiler, "Which coolers went on sale in 2021?")
    assert got == ["Frost Mini", "Frost Wide"], ans.trace
    assert time_superlative("Which coolers first went on sale before 2020?") is None
    assert time_superlative("Which cooler went on sale first?") is not None
    got, ans = _names(compiler, "Which coolers first went on sale before 2020?")
    assert got == ["Frost Tall", "Polar One"], ans.trace


def test_a_word_in_a_brands_place_may_be_a_value(compiler):
    ans = compiler.answer("How many r600a coolers are there?")
    assert ans.value == 3, ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # a coded value said with other spacing, or digit by digit, is that value ("R-600a")
        ("Which coolers use r 600 a?", ["Frost Tall", "Polar Max", "Polar One"]),
        ("um which coolers use r six hundred a as the refrigerant", ["Frost Tall", "Polar Max", "Polar One"]),
        ("which coolers run on r one three four a", ["Frost Mini", "Frost Wide", "Polar Duo"]),
        # numbers spelled out, a year in two halves, a year shortened, a number taken back
        ("which coolers are wider than one hundred and twenty centimetres", ["Frost Wide", "Polar Max"]),
        ("um which coolers came on the market in twenty twenty one", ["Frost Mini", "Frost Wide"]),
        ("Which coolers went on sale in '21?", ["Frost Mini", "Frost Wide"]),
        ("coolers wider than seventy no wait wider than one hundred centimetres", ["Frost Wide", "Polar Max"]),
    ],
)
def test_said_otherwise(compiler, question, want):
    got, ans = _names(compiler, question)
    assert got == want, ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # an amount restated in brackets in another unit is one condition; "Yes or no." asks for one
        ("Is there any cooler wider than 70 cm (27.6 in) that went on sale before 2020? Yes or no.", "yes"),
        ("Is there any cooler wider than 1 m (39.4 in) that went on sale before 2020? Yes or no.", "no"),
        # an opening filler says nothing: the question is still put for a yes or a no
        ("um does any polar cooler use r 134 a", "yes"),
        ("hey does any frost cooler hold 30 cubic feet (850 l) or more", "yes"),
    ],
)
def test_yes_or_no_said_otherwise(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == want, ans.trace


def test_values_offered_as_alternatives_are_groups(compiler):
    # two values of one entry joined by "or" are one condition in a list, two groups in a comparison
    ans = compiler.answer("Which type holds more on average, Freezerless or French Door?")
    assert ans.value == "French Door", ans.trace
