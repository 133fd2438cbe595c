"""The reader keeps alternatives and checks them on the store (issue 33): the beam over readings,
scope nouns read from the catalogue's own categories, unread phrases reported, and the text
fallback kept inside the grounded scope.

Invented catalogues (kettles, storage), real converter and rules, in-memory Oxigraph, the real
MiniLM; every expected answer is computed from the rows below.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.answer.sources import SourceResult
from dualgraph.answer.strategies import within_scope
from dualgraph.corpus.model import Variant
from dualgraph.query.ground.base import Grounding
from dualgraph.query.interpret import BeamConfig, Emission, reconsider
from dualgraph.query.interpret.beam import alternatives
from dualgraph.query.read.model import FeatureConstraint, Intent, Span
from dualgraph.stores.oxigraph import OxigraphStore

# name, category, capacity litres, power W, price GBP
KETTLES = [
    ("Brewmaster One", "Electric Kettles", 1.7, 3000, 35),
    ("Brewmaster Mini", "Electric Kettles", 0.8, 1500, 12),
    ("Quickboil Pro", "Electric Kettles", 1.5, 2200, 49),
    ("Hearth Classic", "Stovetop Kettles", 2.0, None, 30),
    ("Hearth Petite", "Stovetop Kettles", 1.2, None, 18),
    ("Roamer Fold", "Kettles - Travel", 1.6, 800, 27),
    ("Roamer Tiny", "Kettles - Travel", 0.6, 600, 15),
]


def _kettle(row) -> Variant:
    name, cat, litres, watts, price = row
    specs = [("Capacity:Capacity", f"{litres} L"), ("Price", f"{price}.00 GBP")]
    if watts:
        specs.append(("Power:Power", f"{watts} W"))
    return Variant(name, name, (cat,), tuple(specs))


@pytest.fixture(scope="module")
def kettles(tmp_path_factory):
    return compile_catalog([_kettle(r) for r in KETTLES], tmp_path_factory.mktemp("kettles"))


def test_a_noun_every_category_holds_is_no_constraint(kettles):
    # "kettles" names what the catalogue sells: "Kettles - Travel" holds it too, though not as its head
    got = kettles.answer("Which kettles hold at least 1.5 litres?")
    want = sorted(n for n, _, litres, _, _ in KETTLES if litres >= 1.5)
    assert sorted(got.answer_list or []) == want
    assert "Roamer Fold" in want


def test_a_singular_category_phrase_is_that_category_only(kettles):
    got = kettles.answer("What is the cheapest stovetop kettle?")
    stovetop = [r for r in KETTLES if r[1] == "Stovetop Kettles"]
    assert got.value == min(stovetop, key=lambda r: r[4])[0]


def test_words_nothing_read_are_reported_unread(kettles):
    got = kettles.answer("Which kettles are glorptastic?")
    assert "glorptastic" in got.unread
    assert got.confidence < 0.5


def test_a_plural_acronym_names_a_category_by_meaning(tmp_path):
    rows = [
        ("Spinwell 2T", "Hard Disk Drives", "2 TB"),
        ("Spinwell 4T", "Hard Disk Drives", "4 TB"),
        ("Spinwell 1T", "Hard Disk Drives", "1 TB"),
        ("Snapcard 256", "Memory Cards", "256 GB"),
        ("Snapcard 2T", "Memory Cards", "2 TB"),
    ]
    c = compile_catalog([Variant(n, n, (cat,), (("Storage:Capacity", cap),)) for n, cat, cap in rows], tmp_path)
    got = c.answer("Which HDDs hold at least 2 TB?")
    assert sorted(got.answer_list or []) == ["Spinwell 2T", "Spinwell 4T"]


# -- the beam, on hand-made groundings over a three-product store -----------------------------


@pytest.fixture(scope="module")
def tiny():
    st = OxigraphStore.in_memory()
    st.update(
        "INSERT DATA { "
        'skg:a a skgt:Product ; skg:hasName "A" ; skg:litres 1.0 ; skg:cups 4 ; skg:tag "steel" . '
        'skg:b a skgt:Product ; skg:hasName "B" ; skg:litres 2.0 ; skg:cups 8 . '
        'skg:c a skgt:Product ; skg:hasName "C" ; skg:litres 3.0 ; skg:cups 12 ; skg:tag "glass" . }'
    )
    return st


def _feature(phrase: str, *, negated: bool = False, confidence: float = 0.4) -> Grounding:
    src = FeatureConstraint(Span(0, len(phrase), phrase), phrase, negated=negated)
    return Grounding(src, "feature", snippet='?p skg:tag {v} . FILTER({v} = "copper")', confidence=confidence)


def _numeric(prop: str, low: float, *, confidence: float, alts: list[Grounding] | None = None) -> Grounding:
    src = FeatureConstraint(Span(0, 4, "size"), "size")
    return Grounding(
        src,
        "numeric",
        snippet=f"?p skg:{prop} {{v}} .",
        filters=[f"{{v}} >= {low}"],
        confidence=confidence,
        alternatives=alts or [],
        note=prop,
    )


def _emission(rest: list[Grounding], subject_end: int = 100) -> Emission:
    # the hand-made mentions sit at the question's start: inside its subject unless told otherwise
    return Emission(Intent("list"), [], [], rest, subject_end=subject_end)


def test_the_beam_takes_the_best_reading_the_store_confirms(tiny):
    # litres >= 3 holds of C; a weak "copper" condition empties the first reading
    rest = [_numeric("litres", 3, confidence=0.9), _feature("copper")]
    trace: list[str] = []
    chosen = reconsider(tiny, _emission(rest), BeamConfig(), trace)
    assert chosen is not None and chosen.unread == ["copper"]
    assert chosen.score == pytest.approx(0.3 / 0.4)
    assert any("'copper' read as no constraint" in t for t in trace)
    rows = tiny.select(_emission(rest).sparql(chosen.rest))["results"]["bindings"]
    assert [r["name"]["value"] for r in rows] == ["C"]


def test_a_swap_to_the_runner_up_entry_outranks_dropping(tiny):
    # "at least 10" read from litres finds nothing; the runner-up entry (cups) holds it
    cups = _numeric("cups", 10, confidence=0.7)
    rest = [_numeric("litres", 10, confidence=0.75, alts=[cups])]
    chosen = reconsider(tiny, _emission(rest), BeamConfig(), [])
    assert chosen is not None and chosen.unread == [] and chosen.rest[0] is cups


def test_confident_negated_and_condition_mentions_are_not_dropped(tiny):
    assert alternatives([_feature("copper", confidence=0.9)], BeamConfig(), 100) == []
    assert alternatives([_feature("copper", negated=True)], BeamConfig(), 100) == []
    assert reconsider(tiny, _emission([_feature("copper", negated=True)]), BeamConfig(), []) is None
    # a condition put on the subject ("kettles with a copper base"), not the subject itself
    assert alternatives([_feature("copper")], BeamConfig(), subject_end=0) == []
    assert reconsider(tiny, _emission([_feature("copper")], subject_end=0), BeamConfig(), []) is None


def test_the_subject_ends_at_its_first_verb_or_preposition():
    from dualgraph.query.read.reading import subject_end

    q = "Which GPUs came out in 2017?"
    assert q[: subject_end(q)] == "Which GPUs came "
    q = "Which kettles with a copper base hold 2 litres?"
    assert q[: subject_end(q)] == "Which kettles "


def test_a_zero_width_beam_reads_nothing_else(tiny):
    assert reconsider(tiny, _emission([_feature("copper")]), BeamConfig(width=0), []) is None


# -- the text fallback within the grounded scope -------------------------------------------------


class _Scoped:
    """A symbolic source whose grounded scope is the products named here."""

    def __init__(self, names: set[str] | None) -> None:
        self.names = names

    def scope_names(self, result: SourceResult):
        return None if self.names is None else frozenset(self.names)


def test_the_text_answer_stays_within_the_symbolic_scope():
    txt = SourceResult("tkg", intent="count", answer_list=["A", "B", "C"], value=3)
    trace: list[str] = []
    got = within_scope(_Scoped({"A", "C", "D"}), SourceResult("skg", scope="?p skg:x 1 ."), txt, trace)
    assert got.answer_list == ["A", "C"] and got.value == 2
    assert "2 of 3" in trace[0]
    assert within_scope(_Scoped(None), SourceResult("skg"), txt, []) is txt


# -- a question with nothing to read is refused, not answered with the whole catalogue ----------


@pytest.mark.parametrize("question", ["the the the", "{{{{", "Which?", "glorp blarg zint"])
def test_a_question_naming_nothing_is_refused(kettles, question):
    got = kettles.answer(question)
    assert got.refused and got.answer_list == [] and got.sparql is None
    assert got.confidence <= 0.1


def test_asking_for_every_product_is_no_refusal(kettles):
    got = kettles.answer("List all products")
    assert not got.refused and sorted(got.answer_list or []) == sorted(r[0] for r in KETTLES)


def test_a_refusal_stands_unless_the_text_anchors_an_answer():
    from dualgraph.answer.strategies import reconcile
    from dualgraph.answer.text_reader import ANCHORED

    sym = SourceResult("skg", answer_list=[], confidence=0.05, refused="nothing read")
    guess = SourceResult("tkg", answer_list=["A"], confidence=ANCHORED / 2)
    assert reconcile(sym, guess, []) is sym
    anchored = SourceResult("tkg", answer_list=["A"], confidence=ANCHORED + 0.1, anchor="glorp")
    assert reconcile(sym, anchored, []) is anchored


# -- one named product's value, however the question asks for it -------------------------------


def test_how_many_of_a_named_product_is_its_value_not_a_count(kettles):
    # "How many watts does X draw?" asks X's power; counting the one product named would say 1
    got = kettles.answer("How many watts does the Brewmaster One use?")
    assert got.value == 3000


def test_what_does_a_named_product_cost(kettles):
    assert kettles.answer("What does the Quickboil Pro cost?").value == 49


def test_a_condition_with_a_unit_stays_and_a_bare_unit_word_may_go(tiny):
    from dualgraph.query.read.model import NumericConstraint

    src = NumericConstraint(Span(0, 12, "under 0.1 kg"), "<", 100.0, unit="g", dimension="mass")
    heavy = Grounding(src, "numeric", snippet="?p skg:litres {v} .", filters=["{v} < 0.1"], confidence=0.5)
    assert alternatives([heavy], BeamConfig(), subject_end=0) == []
    unit = FeatureConstraint(Span(30, 33, "GHz"), "GHz")  # "… in GHz": the unit an answer is wanted in
    assert alternatives([Grounding(unit, "feature", snippet="?p skg:x {v} .", confidence=0.5)], BeamConfig(), 0)


# -- the fitted settings ------------------------------------------------------------------------


def test_the_fitted_settings_are_the_defaults_everywhere(kettles):
    from dualgraph.answer.engine import AskConfig
    from dualgraph.query.interpret.fitted import reader_config

    fitted = reader_config()
    assert kettles.beam == fitted.beam
    ask = AskConfig()
    assert (ask.min_confidence, ask.empty_min_confidence) == (fitted.min_confidence, fitted.empty_min_confidence)
    assert AskConfig(min_confidence=0.3).min_confidence == 0.3  # a user's setting still wins
