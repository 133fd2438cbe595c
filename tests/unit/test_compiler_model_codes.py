"""A model code written in lower case after a line's name ("Core i5", "Vega r7") is part of that
name, and a lower-case code alone before a category word ("k9 chips") names the products that hold
it. Before, the code after a name was read as a maker (and then dropped from the query) or not read
at all, so the whole line came back; and a maker word that turned out to name a range was left out
of the query, so the whole catalog came back. An invented chip catalog (real converter and rules, in-memory
Oxigraph); every expected answer is read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

CHIPS = [
    {"name": "Vantor Core k5-2400", "cores": 4},
    {"name": "Vantor Core k5-3470", "cores": 4},
    {"name": "Vantor Core k5-4200U", "cores": 2},
    {"name": "Vantor Core k7-2600", "cores": 4},
    {"name": "Vantor Core k7-5960X", "cores": 8},
    {"name": "Vantor Core k9-7980", "cores": 18},
    {"name": "Vantor Core M-5Y10", "cores": 2},
    {"name": "Vantor Atom Z520", "cores": 1},
    {"name": "Vantor Atom Z3735F", "cores": 4},
    {"name": "Vantor Zenon E5-2680", "cores": 8},
    {"name": "Vantor Zenon E5-2699", "cores": 18},
    {"name": "Vantor Zenon E3-1230", "cores": 4},
]


def _variant(c: dict) -> Variant:
    specs = (("Performance:Number of Cores", str(c["cores"])), ("Price", f"{100 + 20 * c['cores']}.00 USD"))
    return Variant(c["name"], c["name"], ("Processors",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(c) for c in CHIPS], tmp_path_factory.mktemp("chips"), currency="USD")


def _names(code: str, **where) -> list[str]:
    return sorted(c["name"] for c in CHIPS if f"Core {code}-" in c["name"] and all(c[k] == v for k, v in where.items()))


def test_a_model_code_after_the_line_name_is_one_name_with_it(compiler):
    ans = compiler.answer("Which Core k5 chips have 4 cores?")
    assert sorted(ans.answer_list or []) == _names("k5", cores=4), ans.trace
    ans = compiler.answer("How many Core k7 processors are there?")
    assert ans.value == len(_names("k7")), ans.trace


def test_a_model_code_alone_before_a_category_word_names_its_products(compiler):
    ans = compiler.answer("Which k5 processors have 2 cores?")
    assert sorted(ans.answer_list or []) == _names("k5", cores=2), ans.trace


def test_a_name_word_read_as_a_maker_restricts_to_the_products_named_so(compiler):
    # "Core" before a category word is first taken for a maker; no name starts with it, so it names
    # the range of products holding it, and that range must reach the query (it was dropped: 12)
    ans = compiler.answer("How many Core processors are there?")
    assert ans.value == sum("Core" in c["name"] for c in CHIPS), ans.trace
