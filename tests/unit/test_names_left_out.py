"""Names the question leaves out ("anything but Arc or Dune", "excluding Arc", "Arc apart", "any
brand other than Dune") restrict the products to those that are not them. Before, they were read
as the products named (a comparison of two names) or as scope, the opposite of what was asked."""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

SHOP = [
    ("Arc One", "Arc", "410 g"),
    ("Arc Two", "Arc", "620 g"),
    ("Dune Lite", "Dune", "300 g"),
    ("Dune Pro", "Dune", "900 g"),
    ("Vela S", "Vela", "350 g"),
    ("Vela X", "Vela", "700 g"),
]


def _variant(name: str, brand: str, weight: str) -> Variant:
    specs = (("General:Brand", brand), ("Body:Weight", weight), ("Price", "500 USD"))
    return Variant(name=name, prod_range=name, categories=("Cameras",), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    rows = [_variant(*row) for row in SHOP]
    return compile_catalog(rows, tmp_path_factory.mktemp("left_out"), currency="USD", catalog_facts=True)


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("Cameras over 500 g; anything but Arc or Dune.", ["Vela X"]),
        ("List the cameras under 500 g, excluding Dune and Vela.", ["Arc One"]),
        ("Which cameras weigh over 600 g, any brand other than Dune?", ["Arc Two", "Vela X"]),
        ("cameras over 600 g that are not from vela", ["Arc Two", "Dune Pro"]),
    ],
)
def test_names_left_out_are_not_in_the_answer(compiler, question, want):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list or []) == want, ans.trace


def test_a_name_left_out_of_a_superlative(compiler):
    ans = compiler.answer("Which camera is the heaviest, Dune apart?")
    assert ans.value == "Vela X", ans.trace
