"""A comparison said as makers' words and a shared kind ("odda tv bench or halva tv bench") is
between the products each maker has of that kind, when the store finds one or a few a side
(dualgraph.query.interpret.sides). Read as scope, the two makers excluded each other and nothing
was compared. A side of several products stays a group, compared on its mean."""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.vocabulary import QuestionVocabulary, use
from dualgraph.query.read.model import FeatureConstraint
from dualgraph.query.read.parse import parse_question
from tests.unit.test_compiler import compile_catalog

SHOP = [
    ("ODDA TV bench, 120x40x50 cm", "TV benches", 900, "50 cm"),
    ("ODDA Bookcase, 80x30x200 cm", "Bookcases", 700, "200 cm"),
    ("ODDA Bookcase, 40x30x200 cm", "Bookcases", 750, "200 cm"),
    ("HALVA TV bench, 150x45x60 cm", "TV benches", 1100, "60 cm"),
    ("HALVA Bookcase, 80x28x180 cm", "Bookcases", 650, "180 cm"),
    ("HALVA Wall shelf, 60 cm", "Shelves", 120, "20 cm"),
]


def _variant(name: str, cat: str, price: int, height: str) -> Variant:
    specs = (("Dimensions:Height", height), ("Price", f"{price} SAR"))
    return Variant(name=name, prod_range=name, categories=(cat,), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("sides"), currency="SAR")


@pytest.mark.parametrize(
    ("question", "winner"),
    [
        ("odda tv bench or halva tv bench, which is taller?", "HALVA TV bench, 150x45x60 cm"),
        ("odda tv bench and halva tv bench: which one is cheaper?", "ODDA TV bench, 120x40x50 cm"),
        ("Which is taller, the HALVA TV bench or the ODDA TV bench?", "HALVA TV bench, 150x45x60 cm"),
    ],
)
def test_one_product_a_side_is_compared_as_products(compiler, question, winner):
    ans = compiler.answer(question)
    assert ans.intent == "compare" and ans.value == winner, ans.trace
    assert any(line.startswith("sides: the comparison is between") for line in ans.trace), ans.trace


def test_a_side_of_several_products_is_a_group(compiler):
    # ODDA's two bookcases (mean 725) against HALVA's one (650): groups on their mean price
    ans = compiler.answer("Whose bookcases are cheaper on average, ODDA's or HALVA's?")
    assert ans.value == "HALVA", ans.trace


@pytest.mark.parametrize(
    ("question", "names", "features"),
    [
        # a word in capitals that starts one product's name as written is that name's word
        ("loft bed VITVAL vs TUFFING, which one is taller?", ["VITVAL", "TUFFING"], []),
    ],
)
def test_a_capitalised_first_word_of_one_name_is_a_name(question, names, features):
    vocabulary = QuestionVocabulary.of(
        brands=["vitval"], name_starts=["VITVAL", "TUFFING", "Dh"], categories=["Beds", "Bikes"]
    )
    with use(vocabulary):
        parsed = parse_question(question)
    assert [e.phrase for e in parsed.entities if e.phrase in ("VITVAL", "TUFFING", "DH")] == names
    assert [c.phrase for c in parsed.constraints if isinstance(c, FeatureConstraint)] == features
