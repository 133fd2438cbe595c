"""How a question's feature phrases are read: the plain words after a known feature word, verbs of
having and capability, the longest attribute before "of", and "X with Y" as one capability."""

from __future__ import annotations

import pytest

from dualgraph.lexicon.vocabulary import QuestionVocabulary
from dualgraph.query.ground.grounder import Grounding
from dualgraph.query.interpret.compiler import means_of
from dualgraph.query.read.model import FeatureConstraint, Intent, ParsedQuestion, Span
from dualgraph.query.read.parse import parse_question
from dualgraph.query.read.reading import Reading


def features(q: str) -> list[tuple[str, str, bool]]:
    return [(c.phrase, c.context, c.negated) for c in parse_question(q).constraints if isinstance(c, FeatureConstraint)]


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # the phrase the pages are matched by goes on over plain words; the spec name stays short
        ("Which phones have an infrared remote blaster?", [("infrared", "infrared remote blaster", False)]),
        ("Which tablets have NFC and a stylus?", [("NFC", "", False), ("stylus", "", False)]),
        ("Which phones have NFC under 300 pounds?", [("NFC", "", False)]),
        # verbs of having and of capability open a feature phrase
        ("How many tablets accept memory cards?", [("memory cards", "", False)]),
        ("Which phones can take a microSD card?", [("microSD card", "", False)]),
        ("Which speakers provide stereo sound?", [("stereo sound", "", False)]),
        # "takes" alone is no possession verb ("a student who takes notes")
        ("I am a student who takes notes. Which tablet is cheapest?", []),
        ("Which phones do not support memory cards?", [("memory cards", "", True)]),
        # an auxiliary leads to the feature, as a negation does
        ("Which covers have been abrasion-tested?", [("abrasion-tested", "", False)]),
        # a pronoun or a word for any product is no feature ("have anything", "what have you got")
        ("Do you have anything for sale in Germany?", []),
        ("Anything under 300 pounds? What have you got?", []),
    ],
)
def test_feature_phrases(question, want):
    assert features(question) == want


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("Which phones have a selfie camera of at least 32 MP?", "selfie camera"),
        ("Which phones have a front camera of at least 16 MP?", "front camera"),
        ("Which tablets have a screen of 10 inches or more?", "screen"),
    ],
)
def test_longest_attribute_before_of(question, attribute):
    (c,) = parse_question(question).constraints
    assert c.attribute == attribute


def _read(q: str) -> Reading:
    return Reading(q, ParsedQuestion(q, Intent("list")))


def _feature(q: str, phrase: str, snippet: str) -> Grounding:
    at = q.index(phrase)
    return Grounding(FeatureConstraint(Span(at, at + len(phrase), phrase), phrase), "feature", snippet=snippet)


def test_x_with_y_is_one_capability():
    q = "Which phones support contactless payments with NFC?"
    a = _feature(q, "contactless payments", "?p skg:hasTextFeature <a> .")
    b = _feature(q, "NFC", "?p skg:hasFeature <n> .")
    trace: list[str] = []
    (merged,) = means_of(_read(q), [a, b], trace)
    assert "EXISTS { ?p skg:hasTextFeature <a> . } || EXISTS { ?p skg:hasFeature <n> . }" in merged.snippet
    assert "one capability" in trace[0]


def test_and_keeps_two_conditions():
    q = "Which phones have NFC and wireless charging?"
    a = _feature(q, "NFC", "?p skg:hasFeature <n> .")
    b = _feature(q, "wireless charging", "?p skg:hasFeature <w> .")
    assert means_of(_read(q), [a, b], []) == [a, b]


KITCHEN = QuestionVocabulary.of(categories=["Fridges"], features=["ice dispenser", "stylus", "NFC"])


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # conjuncts of one noun phrase share its negation, whichever reader found each of them
        # and a lone modifier the catalog names nothing by takes the head noun after it
        ("Which fridges have no water and ice dispenser?", [("water dispenser", True), ("ice dispenser", True)]),
        ("Which fridges have NFC and ice dispenser?", [("NFC", False), ("ice dispenser", False)]),
        ("Which fridges have no NFC or stylus?", [("NFC", True), ("stylus", True)]),
        # an article or a contrast starts a new phrase, which is not negated
        ("Which fridges have no NFC and a stylus?", [("NFC", True), ("stylus", False)]),
        ("Which fridges have no NFC but a stylus?", [("NFC", True), ("stylus", False)]),
        # a negation reaches over a verb of use and its grammar words, not over another clause
        ("Which fridges can't be run with a stylus?", [("stylus", True)]),
        ("Which fridges must not be hung on the NFC?", [("NFC", True)]),
        ("Which fridges that aren't too expensive have a stylus?", [("stylus", False)]),
    ],
)
def test_negation_shared_by_conjuncts(question, want):
    got = parse_question(question, vocabulary=KITCHEN).constraints
    assert [(c.phrase, c.negated) for c in got if isinstance(c, FeatureConstraint)] == want
