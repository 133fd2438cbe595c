"""Sums of a measure and amounts said the way people talk, on an invented bike-parts shop.

- "add up", "the total", "in total", "weigh together", "what would it come to": the sum of a measure
  over the products in scope or named (the price when no measure is named), in the unit asked;
- "a grand", "two grand", "more than a kilo": amounts with "a" for one and "grand" for a thousand.
Each test fails without its mechanism (the sum was read as a list of the products; the amounts were
no numbers at all, or "two" with no unit).
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.query.read.parse import parse_question
from tests.unit.test_compiler import compile_catalog

#        name (the brand is its first word), category, price USD, weight
SHOP = [
    ("Arc Wheelset", "Wheels", 950, "1.45 kg"),
    ("Arc Carbon Wheelset", "Wheels", 2100, "1.20 kg"),
    ("Dune Wheelset", "Wheels", 600, "1.90 kg"),
    ("Arc Trail Fork", "Forks", 1200, "1.95 kg"),
    ("Dune Coil Fork", "Forks", 700, "2.60 kg"),
    ("Dune Air Fork", "Forks", 1050, "2.05 kg"),
]


def _variant(name: str, cat: str, price: int, weight: str) -> Variant:
    specs = (("General:Weight", weight), ("Price", f"{price} USD"))
    return Variant(name=name, prod_range=name, categories=(cat,), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("parts"), currency="USD")


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("What do all the Dune forks add up to?", 700 + 1050),
        ("What's the total weight of the Arc products, in kilos?", 1.45 + 1.20 + 1.95),
        ("How much do the Arc Wheelset and the Dune Coil Fork weigh together, in grams?", 1450 + 2600),
        ("If I bought every wheelset, what would it come to?", 950 + 2100 + 600),
    ],
)
def test_a_sum_over_the_products_in_scope(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.intent == "sum" and ans.value == pytest.approx(want), ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Which products cost more than a grand?", ["Arc Carbon Wheelset", "Arc Trail Fork", "Dune Air Fork"]),
        ("Any wheelsets under two grand?", ["Arc Wheelset", "Dune Wheelset"]),
        ("Which forks weigh more than two kilos?", ["Dune Air Fork", "Dune Coil Fork"]),
        ("Which forks weigh less than two kilos?", ["Arc Trail Fork"]),
        ("Which wheelsets weigh more than a kilo?", ["Arc Carbon Wheelset", "Arc Wheelset", "Dune Wheelset"]),
    ],
)
def test_amounts_said_in_words(compiler, question, want):
    assert sorted(compiler.answer(question).answer_list or []) == want


def test_a_gap_in_a_unit_named_after_how_many(compiler):
    ans = compiler.answer("How many more grams does the Dune Coil Fork weigh than the Arc Trail Fork?")
    assert ans.value == pytest.approx(650), ans.trace
    # a unit spelled with a capital right after "how many more" is no product name
    parsed = parse_question("How many more kWh per year does the Nova A1 use than the Nova B2?")
    assert [e.phrase for e in parsed.entities] == ["Nova A1", "Nova B2"]


def test_a_capitalised_word_opening_a_sentence_is_no_missing_name(compiler):
    # "Answer" opens the second sentence: no product the comparison needs and could not find
    ans = compiler.answer("Is the Arc Trail Fork heavier than the Dune Coil Fork? Answer yes or no.")
    assert ans.value == "no", ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # compared with the mean of the products in scope: forks 1.95, 2.60, 2.05 kg (mean 2.2)
        ("Which forks are heavier than the average fork?", ["Dune Coil Fork"]),
        ("Which wheelsets are cheaper than average?", ["Arc Wheelset", "Dune Wheelset"]),
        ("Which forks have an above-average weight?", ["Dune Coil Fork"]),
    ],
)
def test_compared_with_the_average_in_scope(compiler, question, want):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list or []) == want, ans.trace


def test_a_comparison_reads_an_attribute_said_as_a_verb_and_newer_as_a_date(tmp_path):
    # "travels more": the catalogue's "Travel" said as a verb (not the price); "the newer frame": by
    # date, not by the frame's number
    def fork(name: str, travel: str, frame: str, released: str, price: str) -> Variant:
        specs = (("Suspension:Travel", travel), ("Frame:Frame number", frame), ("General:Release date", released))
        return Variant(name=name, prod_range=name, categories=("Forks",), specs=(*specs, ("Price", price)))

    rows = [
        fork("Arc Fork", "140 mm", "900", "2021-03-01", "900 USD"),
        fork("Dune Fork", "160 mm", "100", "2023-05-01", "800 USD"),
    ]
    c = compile_catalog(rows, tmp_path, currency="USD")
    ans = c.answer("Which one travels more, the Arc Fork or the Dune Fork?")
    assert ans.value == "Dune Fork", ans.trace
    ans = c.answer("Which is the newer frame, the Arc Fork or the Dune Fork?")
    assert ans.value == "Dune Fork", ans.trace


@pytest.mark.parametrize(
    ("question", "kind", "want"),
    [
        # wheelsets cost 600, 950 and 2100; forks weigh 1.95, 2.60 and 2.05 kg
        ("What is the median price of the wheelsets?", "median", 950),
        ("What's the median weight of the forks, in grams?", "median", 2050),
        ("How many dollars separate the most expensive and the cheapest fork?", "spread", 1200 - 700),
        ("What's the difference in weight between the heaviest and the lightest wheelset, in grams?", "spread", 700),
    ],
)
def test_the_median_and_the_spread_of_a_measure(compiler, question, kind, want):
    ans = compiler.answer(question)
    assert ans.intent == kind and ans.value == pytest.approx(want), ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # Dune: 600, 700, 1050 USD; forks weigh 1.95, 2.60 and 2.05 kg
        ("What share of the Dune products cost more than a grand?", 100 / 3),
        ("What percentage of the forks weigh more than two kilos? Give a percentage.", 200 / 3),
    ],
)
def test_a_share_of_the_products_the_subject_names(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == pytest.approx(want, abs=0.01), ans.trace
