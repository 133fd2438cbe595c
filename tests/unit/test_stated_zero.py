""" "No <measured thing>" read as the catalogue's own zero.

An invented scooter shop states "Suspension › Front Travel" on every scooter, as "0 mm (Rigid)" on
the rigid ones. "Which scooters have no front suspension?" names that entry with words of the entry
and its section; a stated zero is how this catalogue says "none", so the answer is the rigid
scooters. Without the rule the negated phrase found no feature, value or page entity and fell to
the text side, which answered by meaning (or not at all).
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

#          name,          front travel,     weight
SCOOTERS = [
    ("Glide One", "0 mm (Rigid)", "11 kg"),
    ("Glide Two", "80 mm", "13 kg"),
    ("Kerb Pro", "0 mm (Rigid)", "12 kg"),
    ("Kerb Max", "120 mm", "16 kg"),
]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    variants = [
        Variant(
            name=name,
            prod_range=name,
            categories=("Scooters",),
            specs=(("Suspension:Front Travel", travel), ("General:Weight", weight), ("Price", "300.00 GBP")),
        )
        for name, travel, weight in SCOOTERS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("scooters"), currency="GBP")


def test_no_measured_thing_is_its_stated_zero(compiler):
    ans = compiler.answer("Which scooters have no front suspension?")
    assert sorted(ans.answer_list or []) == ["Glide One", "Kerb Pro"], ans.trace
    ans = compiler.answer("How many scooters come without front suspension?")
    assert ans.value == 2, ans.trace
