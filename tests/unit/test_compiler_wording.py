"""Wordings a shopper uses that name no attribute the catalog's way, over the invented catalog of
``test_compiler`` (real converter, rules, in-memory Oxigraph, real MiniLM); every expected answer is
computed from the catalog rows: "how many grams", "how much more … than", "the starting price",
"the top charging wattage", "whose battery is bigger", a category word no category name holds, a
category said to be left out, and a brand followed by one of its lines ("the Acme Terra series")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import CATALOG, catalog_compiler, catalog_store, phones
from test_compiler_mixed_catalog import RECORDS
from test_compiler_mixed_catalog import compiler as mixed_compiler  # noqa: F401  (a fixture, used by name)

from dualgraph.query.interpret.compiler import Compiler


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return catalog_compiler(catalog_store(tmp_path_factory.mktemp("wording"), cases=True))


def row(name: str) -> dict:
    return next(r for r in CATALOG if r["name"] == name)


def test_how_many_units_asks_a_measure_not_a_count(compiler):
    ans = compiler.answer("How many grams does the Nova Lite weigh?")
    assert ans.value == row("Nova Lite")["wt"], ans.trace
    ans = compiler.answer("How many phones weigh more than 190 grams?")  # a count stays a count
    assert ans.value == len(phones(lambda r: r["wt"] > 190)), ans.trace


@pytest.mark.parametrize(
    ("question", "a", "b", "key"),
    [
        ("How much more does the Nova X1 1TB cost than the Nova Lite?", "Nova X1 1TB", "Nova Lite", "price"),
        ("What is the difference in weight between the Zenith Tab 10 and the Nova Lite?", "Zenith Tab 10",
         "Nova Lite", "wt"),
        ("How many more mAh does the Orbit Phone 7 battery hold than the Nova Lite's?", "Orbit Phone 7", "Nova Lite",
         "bat"),
    ],
)  # fmt: skip
def test_by_how_much_is_the_gap_between_two_named_products(compiler, question, a, b, key):
    ans = compiler.answer(question)
    assert ans.value == abs(row(a)[key] - row(b)[key]), ans.trace


def test_no_gap_without_a_value_for_both(compiler):
    # the tablet states its battery in Wh, which no mAh can be read from: no number is made up
    ans = compiler.answer("How many more mAh does the Zenith Tab 10 battery hold than the Nova Lite's?")
    assert ans.value is None and any("one has none" in t for t in ans.trace), ans.trace


def test_starting_and_top_are_the_lowest_and_the_highest(compiler):
    ans = compiler.answer("What's the starting price of Orbit phones?")
    assert ans.value == min(r["price"] for r in CATALOG if r["name"].startswith("Orbit") and r["cat"] == "smartphones")
    ans = compiler.answer("What is the top charging wattage of any Nova phone?")
    assert ans.value == max(r["chg"] for r in CATALOG if r["name"].startswith("Nova")), ans.trace


def test_the_subject_of_a_comparative_is_its_attribute(compiler):
    ans = compiler.answer("Whose battery is bigger, the Nova Lite's or the Orbit Phone 7's?")
    bigger = max(["Nova Lite", "Orbit Phone 7"], key=lambda n: row(n)["bat"])
    assert ans.value == bigger, ans.trace


def test_a_category_word_no_name_holds_is_read_by_meaning(compiler):
    ans = compiler.answer("Which mobiles cost under £400?")
    assert sorted(ans.answer_list) == phones(lambda r: r["price"] < 400), ans.trace


def test_a_category_said_to_be_left_out_is_no_scope(compiler):
    ans = compiler.answer("Which phone is the heaviest without its case?")
    top = max(r["wt"] for r in CATALOG if r["cat"] == "smartphones")
    assert ans.answer_list == phones(lambda r: r["wt"] == top), ans.trace


def test_a_brand_and_one_of_its_lines_intersect(mixed_compiler):  # noqa: F811
    ans = mixed_compiler.answer("Which Acme Terra series phones have at least 6 GB RAM?")
    want = sorted(r["name"] for r in RECORDS if "Terra" in r["name"] and r["ram"] >= 6)
    assert sorted(ans.answer_list) == want, ans.trace


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many Pixel phones are listed?", "count"),  # "pixel" is also a unit: a capitalised name here
        ("how many pixel phones are listed", "count"),  # ... and a thing counted before a category word
        ("How many megapixels does the Nova Lite's camera have?", "list"),  # a measure (read as its value)
    ],
)
def test_how_many_before_a_name_or_a_category_still_counts(question, kind):
    from dualgraph.query.read.parse import parse_question

    assert parse_question(question).intent.kind == kind


TABS = [  # name, diagonal, weight, energy, HDMI ports, HDMI version
    ("Acme Tab 10.1", '25.6 cm (10.1")', "480 g", "175 kWh", "2", "2.0"),
    ("Acme Tab 8", '21.1 cm (8.3")', "350 g", "120 kWh", "1", "2.1"),
    ("Brio Slate 11", '27.9 cm (11")', "510 g", "190 kWh", "2", "1.4"),
]


@pytest.fixture(scope="module")
def tablets(tmp_path_factory):
    from test_compiler import compile_catalog

    from dualgraph.corpus.model import Variant

    specs = (
        "Display:Display diagonal",
        "Weight & dimensions:Weight",
        "Power:Annual energy consumption",
        "Ports & interfaces:HDMI ports quantity",
        "Ports & interfaces:HDMI version",
    )
    variants = [Variant(n, n, ("Tablets",), tuple(zip(specs, vals, strict=True))) for n, *vals in TABS]
    return compile_catalog(variants, tmp_path_factory.mktemp("tabs"), catalog_facts=True)


def test_a_value_written_in_two_units_is_answered_as_written_in_the_asked_one(tablets):
    ans = tablets.answer("What is the display diagonal of the Acme Tab 8, in inches?")
    assert ans.value == 8.3, ans.trace  # the catalog's own 8.3, not 211 mm converted (8.31)
    ans = tablets.answer("What is the smallest display diagonal, in inches?")
    assert ans.value == 8.3, ans.trace


def test_plain_words_name_an_attribute_no_word_list_knows(tablets):
    ans = tablets.answer("What is the annual energy consumption of the Brio Slate 11, in kWh?")
    assert ans.value == 190, ans.trace
    ans = tablets.answer("How much does the Acme Tab 10.1 weigh, in grams?")  # a weight, not a price
    assert ans.value == 480, ans.trace


def test_a_number_of_things_a_product_has_is_a_count(tablets):
    ans = tablets.answer("Which tablets have 2 HDMI inputs?")
    assert sorted(ans.answer_list) == sorted(n for n, *v in TABS if v[3] == "2"), ans.trace
    ans = tablets.answer("Which tablets have 1 HDMI port?")  # singular: no plural noun, no count read
    assert not any("count of" in t for t in ans.trace), ans.trace


def test_counts_written_as_words(tablets):
    ans = tablets.answer("Which tablets have two HDMI inputs?")
    assert sorted(ans.answer_list) == sorted(n for n, *v in TABS if v[3] == "2"), ans.trace
    from dualgraph.query.read.parse import parse_question

    (c,) = parse_question("Which tablets have an eight-core processor?").constraints
    assert (c.value, c.attribute, c.dimension) == (8.0, "processor cores", "count")
