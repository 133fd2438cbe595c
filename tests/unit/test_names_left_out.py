"""Names the question leaves out ("anything but Arc or Dune", "excluding Arc", "Arc apart", "any
brand other than Dune") restrict the products to those that are not them. Before, they were read
as the products named (a comparison of two names) or as scope, the opposite of what was asked."""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

SHOP = [
    ("Arc One", "Arc", "410 g", "12"),
    ("Arc Two", "Arc", "620 g", "24"),
    ("Dune Lite", "Dune", "300 g", "16"),
    ("Dune Pro", "Dune", "900 g", "20"),
    ("Vela S", "Vela", "350 g", "30"),
    ("Vela X", "Vela", "700 g", "40"),
]


def _variant(name: str, brand: str, weight: str, megapixels: str) -> Variant:
    specs = (("General:Brand", brand), ("Body:Weight", weight), ("Sensor:Megapixels", megapixels), ("Price", "500 USD"))
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


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # the measure of an average said as "how <adjective>", or in words the catalogue does not name
        ("On average, how heavy are the Arc cameras?", 515),
        ("Arc versus Vela: which has the higher average megapixel count?", "Vela"),
    ],
)
def test_the_measure_an_average_is_asked_of(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == want, ans.trace
