"""Entries an ordering attribute names equally well are told apart by the way the question orders.

An invented camera shop keeps two exposure times per camera, "Min. shutter speed" (the longest
exposure: 15-60 s) and "Max. shutter speed" (the shortest: 1/2000-1/8000 s). "Exposure" names both
equally. The longest exposure is read from the entry whose values reach furthest up, the shortest
from the one reaching furthest down; before, one search score picked the same entry for both, so one
of the two questions below was always wrong.
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

CAMERAS = [("Alpha One", 30, 4000), ("Beta Two", 60, 8000), ("Gamma Three", 15, 2000)]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    variants = [
        Variant(
            name=name,
            prod_range=name,
            categories=("Cameras",),
            specs=(
                ("Exposure:Min. shutter speed", f"{slow} s"),
                ("Exposure:Max. shutter speed", f"1/{fast} s"),
                ("Price", "500.00 GBP"),
            ),
        )
        for name, slow, fast in CAMERAS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("cams"), currency="GBP")


def test_the_longest_exposure_is_the_slow_end(compiler):
    ans = compiler.answer("What is the longest exposure the Gamma Three can take?")
    assert ans.value == 15, ans.trace
    ans = compiler.answer("Which camera has the longest exposure?")
    assert ans.answer_list[:1] == ["Beta Two"], ans.trace


def test_the_shortest_exposure_is_the_fast_end(compiler):
    ans = compiler.answer("What is the shortest exposure the Gamma Three can take?")
    assert ans.value == pytest.approx(1 / 2000), ans.trace
