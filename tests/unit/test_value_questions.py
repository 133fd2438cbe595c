"""Value questions said the way people type them, on two invented shops (chips, cameras).

- a model code said alone is a name, not a number: "i7-6900K" (not 6,900 volts), "6900K" (not 6.9
  million dollars), "7820X" (not a ratio of 7,820), "E5-2699 v4";
- "how many more threads does A have than B" is the gap, not a count; "how many years after A did
  B come out" the years between their dates;
- ", in GHz" says how the answer is given, it is no condition; "avg" is an average;
- "Highest MP count among …" asks the value, of the entry named by the unit spelled out
  ("Megapixels"), not of "Multi Pattern" (the initials of a value); "closest" orders upwards.
Each test fails without its mechanism.
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.query.read.model import FeatureConstraint
from dualgraph.query.read.parse import parse_question
from tests.unit.test_compiler import compile_catalog

#       name, threads, boost clock, released, price USD
CHIPS = [
    ("Intel Core i7-6900K", "16", "3.7 GHz", "2016-05-30", 1089),
    ("Intel Xeon E5-2699V4", "44", "3.6 GHz", "2016-03-31", 4115),
    ("Intel Core i7-920", "8", "2.93 GHz", "2008-10-01", 284),
    ("Intel Core i7-7820X", "16", "4.3 GHz", "2017-04-01", 599),
]

#       name, megapixels, metering, macro focus, weight
CAMERAS = [
    ("Lumo A10", "12.1", "Multi Pattern", "1 cm", "300 g"),
    ("Lumo A20", "16.0", "Centre weighted", "5 cm", "420 g"),
    ("Lumo B5", "14.2", "Multi Pattern", "3 cm", "280 g"),
    ("Vesta Z1", "24.3", "Spot", "2 cm", "650 g"),
]


@pytest.fixture(scope="module")
def chips(tmp_path_factory):
    variants = [
        Variant(
            name=n,
            prod_range=n,
            categories=("Processors",),
            specs=(
                ("Performance:# of Threads", t),
                ("Performance:Max Turbo Frequency", clock),
                ("Essentials:Launch Date", day),
                ("Price", f"{price} USD"),
            ),
        )
        for n, t, clock, day, price in CHIPS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("chips"), currency="USD")


@pytest.fixture(scope="module")
def cameras(tmp_path_factory):
    variants = [
        Variant(
            name=n,
            prod_range=n,
            categories=("Cameras",),
            specs=(
                ("Sensor:Megapixels", mp),
                ("Exposure:Metering", metering),
                ("Lens:Macro focus range", macro),
                ("Body:Weight", weight),
            ),
        )
        for n, mp, metering, macro, weight in CAMERAS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("cams"), catalog_facts=True)


@pytest.mark.parametrize(
    "question",
    [
        "how many more threads does the E5-2699V4 have than the i7-6900K?",
        "how many more threads does an E5-2699 v4 have over a 6900K?",
    ],
)
def test_model_codes_are_names_and_the_gap_is_asked(chips, question):
    ans = chips.answer(question)
    assert ans.value == 28, ans.trace
    assert not [c for c in parse_question(question).constraints if hasattr(c, "op")]


def test_years_between_two_launches(chips):
    ans = chips.answer("how many years after the i7-920 did the 7820X come out?")
    assert ans.value == 9, ans.trace


def test_the_unit_the_answer_is_asked_in_is_no_condition(chips):
    question = "what's the highest boost clock on any of the Core chips, in GHz?"
    assert not [c for c in parse_question(question).constraints if isinstance(c, FeatureConstraint)]
    ans = chips.answer(question)
    assert ans.value == pytest.approx(4.3), ans.trace


def test_avg_is_an_average(cameras):
    ans = cameras.answer("avg weight of the lumo cameras, in grams?")
    assert ans.value == pytest.approx(1000 / 3, abs=0.01), ans.trace


def test_a_unit_names_the_entry_and_the_value_is_asked(cameras):
    ans = cameras.answer("Highest MP count among the Lumo cams?")
    assert ans.value == pytest.approx(16.0), ans.trace


def test_closest_orders_upwards(cameras):
    ans = cameras.answer("What's the closest macro focusing distance on any Lumo, in cm?")
    assert ans.value == pytest.approx(1.0), ans.trace
