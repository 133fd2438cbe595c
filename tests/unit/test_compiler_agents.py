"""A question "Who <verb> X?" asks for the entry English names after whoever does it: "Who designed X?" the
designer, "Who makes X?" the maker or manufacturer. An invented lamp catalog (real converter and
rules, in-memory Oxigraph); every expected answer is read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.english import agent_nouns
from dualgraph.query.interpret.compiler import Compiler

DESIGNERS = ["Ana Berg", "Tomas Lind", "House of Holt"]
MAKERS = ["Lumafab", "Glowworks"]
RECORDS = [
    {
        "name": f"{word} Lamp",
        "designer": DESIGNERS[i % 3],  # "House of Holt": capitalised words joined by a grammar word
        "maker": MAKERS[i % 2],
        "height": 30 + 7 * i,
        "price": 40 + 11 * i,
    }
    for i, word in enumerate(["Arc", "Dome", "Reed", "Orb", "Cone", "Fern", "Slate", "Halo"])
]


def _variant(r: dict) -> Variant:
    specs = (
        ("Details:Designer", r["designer"]),
        ("Details:Manufacturer", r["maker"]),
        ("Dimensions:Height", f"{r['height']} cm"),
        ("Price", f"{r['price']}.00 EUR"),
    )
    return Variant(r["name"], r["name"], ("Table Lamps",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("lamps"), currency="EUR")


def test_agent_nouns_are_general_english():
    assert agent_nouns("designed")[0] == "designer"
    assert "manufacturer" in agent_nouns("manufactures")
    assert agent_nouns("made")[0] == "maker" and agent_nouns("built")[0] == "builder"
    assert agent_nouns("was") == ()  # a grammar word names no one


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("Who designed the Reed Lamp?", "designer"),
        ("Who is the designer of the Orb Lamp?", "designer"),
        ("Who manufactures the Fern Lamp?", "maker"),
        ("Who made the Halo Lamp?", "maker"),
    ],
)
def test_who_did_it_reads_the_entry_named_after_the_doer(compiler, question, key):
    name = next(r["name"] for r in RECORDS if r["name"].split()[0] in question)
    want = next(r[key] for r in RECORDS if r["name"] == name)
    ans = compiler.answer(question)
    assert ans.value == want or ans.answer_list == [want], ans.trace


def test_designed_by_a_value_lists_what_that_designer_drew(compiler):
    ans = compiler.answer("Which lamps were designed by Tomas Lind?")
    assert sorted(ans.answer_list or []) == sorted(r["name"] for r in RECORDS if r["designer"] == "Tomas Lind")


def test_who_with_a_superlative_still_asks_for_the_product():
    from dualgraph.query.read.asked import asks_value

    # "who" is the one that has it, unless the question goes on as "who is the <attribute> of"
    assert not asks_value("Who has the lowest price?", "price")
    assert asks_value("What is the lowest price?", "price")


def test_a_value_of_capitalised_words_joined_by_a_grammar_word_is_one_value(compiler):
    # read as two names ("House", "Holt") it was a comparison of two products, answering nothing
    ans = compiler.answer("Which lamps were designed by House of Holt?")
    assert sorted(ans.answer_list or []) == sorted(r["name"] for r in RECORDS if r["designer"] == "House of Holt")
