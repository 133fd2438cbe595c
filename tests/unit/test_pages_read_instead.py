"""An empty answer read from the pages' features by another name leaves the phrase to the text.

"Which bikes have never been ridden?" grounded "ridden" on the page feature "ridden once" (by
name, not the very name), which no bike lacks: the answer was empty, and the text side was told the
specs had read every word. The rule hands such phrases to the text as unread and says the empty
answer restricts nothing; a feature matched by its very name (score 1.0) keeps its empty answer.
"""

from __future__ import annotations

from dualgraph.query.ground.base import Grounding
from dualgraph.query.interpret import Emission
from dualgraph.query.interpret.compiler import Answer, Compiler
from dualgraph.query.read.model import FeatureConstraint, Intent, Span


def _emission(*groundings: Grounding) -> Emission:
    return Emission(Intent("list"), [], [], list(groundings))


def _feature(phrase: str, start: int = 20) -> FeatureConstraint:
    return FeatureConstraint(Span(start, start + len(phrase), phrase), phrase, negated=True)


def test_a_feature_read_by_another_name_goes_to_the_text():
    by_other_name = Grounding(
        _feature("ridden"), "text-feature", snippet="?p skg:lacksTextFeature {s} .", candidates=[("ridden once", 0.9)]
    )
    ans = Answer("Which bikes have never been ridden?", "list", confidence=0.8)
    Compiler._pages_read_instead(_emission(by_other_name), ans)
    assert ans.unread == ["ridden"] and ans.restricts is False and ans.confidence == 0.4


def test_a_feature_read_by_its_very_name_keeps_its_empty_answer():
    named = Grounding(
        _feature("waterproof"), "text-feature", snippet="?p skg:hasTextFeature {s} .", candidates=[("waterproof", 1.0)]
    )
    ans = Answer("Which tents are waterproof?", "list", confidence=0.8)
    Compiler._pages_read_instead(_emission(named), ans)
    assert ans.unread == [] and ans.restricts is True and ans.confidence == 0.8
