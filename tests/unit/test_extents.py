"""Sizes written as one value ("146.7 x 71.5 x 7.8 mm"): each axis answers for itself. An invented
catalog through the real converter, rules, pattern index and compiler; expectations come from the
rows below."""

from __future__ import annotations

import pytest
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.ground.extents import axes_of

# name, width, height, depth (mm) of a phone; a shelf gives its size as "W x D x H" in cm
PHONES = [("Quill One", 70.5, 146.0, 7.8), ("Quill Max", 77.0, 161.0, 8.9), ("Brick Two", 68.0, 140.0, 11.2)]
SHELVES = [("Tall Shelf", 80, 30, 202), ("Low Shelf", 120, 40, 90)]


def _docs():
    docs = [
        Variant(name=n, prod_range=n, categories=("phones",), specs=(("Body:Dimensions", f"{w} x {h} x {d} mm"),))
        for n, w, h, d in PHONES
    ]
    docs += [
        Variant(name=n, prod_range=n, categories=("shelves",), specs=(("Size:Size (W x D x H)", f"{w}x{d}x{h} cm"),))
        for n, w, d, h in SHELVES
    ]
    return docs


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    return compile_catalog(_docs(), tmp_path_factory.mktemp("extents"))


def test_the_thinnest_is_the_least_depth(compiler):
    ans = compiler.answer("Which phone is the thinnest?")
    assert ans.answer_list == [min(PHONES, key=lambda r: r[3])[0]], ans.trace


def test_a_condition_on_one_axis(compiler):
    ans = compiler.answer("Which phones are wider than 70 mm?")
    assert sorted(ans.answer_list) == sorted(n for n, w, _, _ in PHONES if w > 70), ans.trace


def test_the_axes_a_catalog_names_are_read_by_its_letters(compiler):
    """ "Size (W x D x H)": the third number is the height, not the depth."""
    ans = compiler.answer("Which shelves are taller than 150 cm?")
    assert ans.answer_list == [n for n, _, _, h in SHELVES if h > 150], ans.trace


def test_axes_of_names():
    assert axes_of("Dimensions") == ("width", "height", "depth")
    assert axes_of("Size (W x D x H)") == ("width", "depth", "height")
