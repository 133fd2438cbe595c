"""A column that identifies products ("Electricity Meter ID", "ENERGY STAR Unique ID") labels them; it measures nothing,
so no ranking or average reads it unless the question names it (``identifier_words``). Before,
"electricity" read the ID column for its "ENERGY STAR" words and averaged the labels."""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

SHOP = [
    ("Polar One", "410 kWh/yr", "2298631"),
    ("Polar Duo", "520 kWh/yr", "2301177"),
    ("Frost Mini", "260 kWh/yr", "2412009"),
]


def _variant(name: str, use: str, ident: str) -> Variant:
    specs = (
        ("Energy:Annual Energy Use", use),
        ("Certification:Electricity Meter ID", ident),
        ("Price", "900 USD"),
    )
    return Variant(name=name, prod_range=name, categories=("Refrigerators",), specs=specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog([_variant(*row) for row in SHOP], tmp_path_factory.mktemp("ids"), currency="USD")


@pytest.mark.parametrize(
    ("question", "want"),
    [
        ("What is the average electricity use of a refrigerator?", 396.6667),
        ("Which refrigerator needs the most electricity?", "Polar Duo"),
        # named, the identifier is read
        ("Which refrigerator has the highest electricity meter ID?", "Frost Mini"),
    ],
)
def test_an_identifier_is_no_measure(compiler, question, want):
    ans = compiler.answer(question)
    assert ans.value == want, ans.trace
