"""Chatty questions: grammar words shouted in capitals, a code said in the plural, a capitalised
interjection opening the question. Each test fails without its mechanism ("DON'T" was a feature
"DON" and a name "T"; "NOT" a feature; "i7s" matched three names ending in S; "Heads up: which
i7s …" asked to compare two products it never named)."""

from __future__ import annotations

from dualgraph.query.read.model import FeatureConstraint
from dualgraph.query.read.parse import parse_question
from tests.unit.test_value_questions import chips  # noqa: F401  (the fixture)


def _features(question: str) -> list[tuple[str, bool]]:
    return [(c.phrase, c.negated) for c in parse_question(question).constraints if isinstance(c, FeatureConstraint)]


def test_shouted_negations_negate_and_name_nothing():
    assert _features("Nvidia cards that DON'T support SLI?") == [("SLI", True)]
    assert _features("which Xeons are listed as NOT supporting ECC memory?") == [("ECC memory", True)]
    assert not [e for e in parse_question("cards that DON'T support SLI").entities if e.phrase == "T"]
    assert _features("How many i7s here say no to ECC memory?") == [("ECC memory", True)]


def test_a_code_in_the_plural_is_its_line(chips):  # noqa: F811
    ans = chips.answer("How many i7s are there?")
    assert ans.value == 3, ans.trace


def test_an_interjection_and_a_line_are_no_two_products_to_compare(chips):  # noqa: F811
    ans = chips.answer("Heads up for builders: which i7s cost more than $500?")
    assert ans.answer_list == ["Intel Core i7-6900K", "Intel Core i7-7820X"], ans.trace
