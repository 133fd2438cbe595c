""" "No <measured thing>" read as the catalogue's own zero; a measured-looking word nothing read, reported.

An invented scooter shop states "Suspension › Front Travel" on every scooter, as "0 mm (Rigid)" on
the rigid ones. "Which scooters have no front suspension?" names that entry with words of the entry
and its section; a stated zero is how this catalogue says "none", so the answer is the rigid
scooters. Without the rule the negated phrase found no feature, value or page entity and fell to
the text side, which answered by meaning (or not at all). "4K" in "record 4K video" looked like a
number and a unit (4 kelvin) to the coverage check, so it was neither read nor reported unread.
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


def test_a_number_with_letters_that_nothing_read_is_reported_unread():
    from dualgraph.query.read.coverage import uncovered_words

    # "4K" is no 4 kelvin: with no number read at all, it is said to be unread, not dropped
    assert "4k" in uncovered_words("Which cameras can record 4K video?", ["cameras"])
    # an ordinal, and a number with its unit beside a number that was read, stay as before
    assert uncovered_words("Which is the 2nd cheapest camera?", ["cheapest", "camera"]) == []
    assert "500g" not in uncovered_words("Cameras under 500g or 1.2 lb", ["Cameras", "1.2 lb"])
