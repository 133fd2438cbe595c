"""A maker the catalogue's brand facts name exactly is that brand, where names put a year first
("What does an Orange go for" is not every name holding the word); a number asked ", in dollars"
asks for money, said or not; "(rounded)" and "approx." shorten the number answered."""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

SHOP = [
    ("2019 Arc Trail 1", "Arc", 1000),
    ("2021 Arc Enduro 2", "Arc", 3001),
    ("2020 Arc Hardtail", "Arc", 1500),
    ("2018 Dune XC Black/Arc fade", "Dune", 500),  # the word, not the maker
    ("2022 Dune Trail", "Dune", 2200),
]


def _variant(name: str, brand: str, price: int) -> Variant:
    specs = (("Listing:Brand", brand), ("Price", f"{price} USD"))
    return Variant(name=name, prod_range=name, categories=("Bikes",), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    rows = [_variant(*row) for row in SHOP]
    return compile_catalog(rows, tmp_path_factory.mktemp("makers"), currency="USD", catalog_facts=True)


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # the brand's three bikes, not the Dune whose name holds the word; money asked, rounded
        ("What does an Arc go for on average here, in dollars (rounded)?", 1834),
        ("What does an Arc go for on average, in dollars, approx.?", 1834),
        ("What does an Arc go for on average, in dollars?", 1833.6667),
    ],
)
def test_a_makers_mean_price_asked_in_dollars(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == want, ans.trace
    assert ans.confidence > 0.5, ans.trace  # money asked: the measure is named, not guessed
