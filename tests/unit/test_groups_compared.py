"""Questions that compare groups of products (brands, sections), on the bike-parts shop of
``test_sums_and_amounts``: the answer is the group that wins on the mean of a measure, or on how
many of its products meet the conditions. Without the mechanism these questions found no product
named and answered nothing; a list over two brands stays a list."""

from __future__ import annotations

import pytest

from tests.unit.test_compiler import compile_catalog
from tests.unit.test_sums_and_amounts import SHOP, _variant


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("parts"), currency="USD")


@pytest.mark.parametrize(
    ("question", "winner"),
    [
        # the mean of a measure: Arc's fork 1.95 kg, Dune's 2.60 and 2.05 kg
        ("On average, whose forks are lighter, Arc's or Dune's?", "Arc"),
        ("On average, which brand is pricier: Arc or Dune?", "Arc"),
        ("Which brand's forks are heavier on average, Arc or Dune?", "Dune"),
        # how many: Arc has two wheelsets, Dune one; over a grand, Wheels holds one and Forks two
        ("Which brand has more wheelsets, Arc or Dune?", "Arc"),
        ("Which section has more products over a grand, Wheels or Forks?", "Forks"),
        ("Which brand has fewer forks, Arc or Dune?", "Arc"),
        # any plural noun of things before a condition counts them: Dune has two parts under $1000 (Arc
        # one, dearer: on the mean price Arc would win)
        ("Who sells more parts under $1000, Arc or Dune?", "Dune"),
        ("Arc or Dune: which one has more offerings under $1000?", "Dune"),
        # a comparative before the products' noun is no brand; "comparing A and B" offers both;
        # a superlative with "on average" orders the groups by its own measure
        ("Arc vs Dune: who makes the lighter forks on average?", "Arc"),
        ("Comparing Arc and Dune, which brand's forks have the larger average weight?", "Dune"),
        ("Of Arc and Dune, which brand's forks are heaviest on average?", "Dune"),
    ],
)
def test_the_group_that_wins(compiler, question, winner):
    ans = compiler.answer(question)
    assert ans.intent == "compare" and ans.value == winner, ans.trace


def test_a_list_over_two_brands_stays_a_list(compiler):
    ans = compiler.answer("Which Arc or Dune wheelsets cost under $1000?")
    assert sorted(ans.answer_list or []) == ["Arc Wheelset", "Dune Wheelset"], ans.trace


@pytest.mark.parametrize(
    ("question", "kind", "want"),
    [
        # the catalogue's sections ranked or counted by the products in scope
        ("Which section has the most products under $1000?", "superlative", "Wheels"),
        ("Which category has the fewest products over a grand?", "superlative", "Wheels"),
        ("How many different categories do the Dune products come from?", "count", 2),
    ],
)
def test_groupings_ranked_or_counted(compiler, question, kind, want):
    ans = compiler.answer(question)
    assert ans.intent == kind and ans.value == want, ans.trace


def test_a_superlative_over_products_is_no_grouping(compiler):
    ans = compiler.answer("Which category has the most expensive wheelset?")
    assert ans.value == "Arc Carbon Wheelset", ans.trace


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # one group set against the other with "than": yes when the first said wins
        ("Are Dune forks heavier on average than Arc's?", "yes"),
        ("Are Arc forks heavier on average than Dune's?", "no"),
    ],
)
def test_a_group_set_against_another_answers_yes_or_no(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == want, ans.trace


def test_a_comparative_said_with_more(compiler):
    # "more cheap" is "cheaper" (as learners of English say it), not "more" of whatever comes first
    ans = compiler.answer("Arc Trail Fork or Dune Air Fork, which is more cheap?")
    assert ans.value == "Dune Air Fork", ans.trace


# features offered as alternatives are groups too: Wi-Fi speakers weigh 1.0 and 1.4 kg on average
# 1.2 kg, NFC ones 0.5 and 0.7 kg
SPEAKERS = [
    ("Aura Home", "Yes", "No", "1.0 kg"),
    ("Aura Max", "Yes", "No", "1.4 kg"),
    ("Bolt Go", "No", "Yes", "0.5 kg"),
    ("Bolt Mini", "No", "Yes", "0.7 kg"),
]


def _speaker(name: str, wifi: str, bluetooth: str, weight: str):
    from dualgraph.corpus.model import Variant

    specs = (("Connectivity:Wi-Fi", wifi), ("Connectivity:NFC", bluetooth), ("Body:Weight", weight))
    return Variant(name=name, prod_range=name, categories=("Speakers",), specs=(*specs, ("Price", "99 USD")))


@pytest.fixture(scope="module")
def speakers(tmp_path_factory):
    return compile_catalog([_speaker(*row) for row in SPEAKERS], tmp_path_factory.mktemp("speakers"), currency="USD")


@pytest.mark.parametrize(
    ("question", "winner"),
    [
        ("Wi-Fi speakers versus NFC speakers: which are heavier on average?", "Wi-Fi"),
        ("Which are lighter on average, the ones with Wi-Fi or the ones with NFC?", "NFC"),
    ],
)
def test_features_offered_as_alternatives_are_groups(speakers, question, winner):
    ans = speakers.answer(question)
    assert ans.intent == "compare" and ans.value == winner, ans.trace
