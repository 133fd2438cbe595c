"""A hyphenated word the catalog writes as one ("e-bikes" for the category "Ebikes - Mountain") names
that category, not every category holding "bikes". Invented catalog through the real converter,
rules, pattern index and compiler; expectations come from the rows below."""

from __future__ import annotations

import pytest
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.catalog_names import category_heads, spot_categories

BIKES = [
    ("Volt Trail 1", "Ebikes - Mountain", 4200),
    ("Volt Trail 2", "Ebikes - Mountain", 3100),
    ("Ridge 5", "Trail Bikes", 2500),
    ("Drop 9", "Downhill Bikes", 3900),
]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    docs = [Variant(name=n, prod_range=n, categories=(c,), specs=(("Price", f"{p}.00 USD"),)) for n, c, p in BIKES]
    return compile_catalog(docs, tmp_path_factory.mktemp("glued"))


def test_a_hyphenated_word_is_the_category_written_as_one(compiler):
    ans = compiler.answer("Which e-bikes cost less than $4,000?")
    assert sorted(ans.answer_list) == sorted(n for n, c, p in BIKES if c.startswith("Ebikes") and p < 4000), ans.trace


def test_facets_of_a_category_name_split_at_a_spaced_dash():
    heads = category_heads(["Ebikes - Mountain", "Trail Bikes"])
    assert {"ebike", "mountain", "bike"} <= set(heads)
    q = "Which e-bikes are cheap?"
    assert [q[a:b] for a, b in spot_categories(q, heads, [])] == ["e-bikes"]
