"""Words the catalogue knows, said around the question's own noun for its products, or as the word
before a time.

An invented cooler shop: a "Type" list (Compact, Upright), a "Defrost Type" list (Manual,
Automatic), and two dated entries, "Date Certified" and "Date Available On Market". Three readings:

- "the compact fridges": a value of a short list said right before the noun the question calls the
  products by (here not a word of any category name) qualifies them;
- "manual-defrost fridges": one hyphenated word holding a value ("manual") and a word naming its
  entry ("defrost" ~ "Defrost Type");
- "certified in 2020": the word before the time names the dated entry the question means, whatever
  the lifecycle words know; a date whose day and month could be either way round ("07/08/2020")
  is still a date of 2020.

Each assertion fails without its mechanism: the value or the entry was left unread and the answer
covered every cooler, or every date.
"""

from __future__ import annotations

import pytest

from dualgraph.corpus.model import Variant
from tests.unit.test_compiler import compile_catalog

#        name,        type,      defrost,     kWh, certified,    on market
COOLERS = [
    ("Arcto 10", "Compact", "Manual", 200, "03/15/2020", "04/01/2021"),
    ("Arcto 20", "Compact", "Automatic", 240, "05/20/2021", "06/01/2020"),
    ("Borea 30", "Upright", "Automatic", 400, "07/08/2020", "08/09/2020"),  # nothing on the page settles the order
    ("Borea 40", "Upright", "Manual", 380, "09/25/2019", "10/28/2020"),
    ("Corvo 50", "Upright", "Automatic", 420, "11/26/2021", "12/27/2021"),
]


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    variants = [
        Variant(
            name=name,
            prod_range=name,
            categories=("Refrigerators",),
            specs=(
                ("Build:Type", kind),
                ("Build:Compact", "Yes" if kind == "Compact" else "No"),
                ("Build:Defrost Type", defrost),
                ("Energy:Annual Energy Use (kWh/yr)", str(kwh)),
                ("Energy:Star rating", "5" if kwh < 300 else "3"),
                ("Certification:Date Certified", certified),
                ("Certification:Date Available On Market", market),
                ("Certification:Markets", "Canada" if name == "Arcto 20" else "United States, Canada"),
                ("Price", "500.00 GBP"),
            ),
        )
        for name, kind, defrost, kwh, certified, market in COOLERS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("coolers"), currency="GBP")


def test_a_value_before_the_questions_own_noun_qualifies_the_products(compiler):
    ans = compiler.answer("What is the average annual energy use of the compact fridges?")
    assert ans.value == pytest.approx(220), ans.trace


def test_a_hyphenated_value_and_entry_word(compiler):
    ans = compiler.answer("Which manual-defrost fridges are there?")
    assert sorted(ans.answer_list or []) == ["Arcto 10", "Borea 40"], ans.trace


def test_the_word_before_a_time_names_its_dated_entry(compiler):
    ans = compiler.answer("Which fridges were certified in 2020?")
    assert sorted(ans.answer_list or []) == ["Arcto 10", "Borea 30"], ans.trace
    ans = compiler.answer("How many fridges were certified in 2021?")
    assert ans.value == 2, ans.trace


def test_a_yes_no_question_that_reads_nothing_of_its_product_is_a_guess(compiler):
    # colours are nowhere in the specs: the product was found, what is asked of it was not read
    ans = compiler.answer("Is the Arcto 10 available in other colours?")
    assert ans.confidence <= 0.3, ans.trace
    ans = compiler.answer("Is the Arcto 10 a compact fridge?")
    assert ans.value == "yes" and ans.confidence > 0.5, ans.trace


def test_an_attribute_said_right_before_a_bare_number_is_its_value(compiler):
    ans = compiler.answer("Which fridges have a star rating of 5?")
    assert sorted(ans.answer_list or []) == ["Arcto 10", "Arcto 20"], ans.trace


def test_a_phrase_nothing_names_is_read_by_its_gloss_in_brackets(compiler):
    # a "frugal motor" is on no page and in no spec: the bracket says what it means
    ans = compiler.answer("Which fridges have a frugal motor (star rating 5)?")
    assert sorted(ans.answer_list or []) == ["Arcto 10", "Arcto 20"], ans.trace


CARDS = [  # name, memory type, watts: two names hold the code their memory type lists
    ("Volta 5670 1GB GDDR5", "GDDR5", 60),
    ("Volta 7770 2GB GDDR5", "GDDR5", 90),
    ("Volta 7750", "GDDR5", 70),
    ("Volta 7990", "GDDR5", 250),
    ("Volta 4350", "DDR3", 20),
    ("Volta 5450", "DDR3", 25),
]


@pytest.fixture(scope="module")
def cards(tmp_path_factory):
    variants = [
        Variant(
            name=name,
            prod_range=name,
            categories=("Graphics Cards",),
            specs=(
                ("Memory:Memory", "2048 MB"),
                ("Memory:Memory Type", memory),
                ("Power:Max Power", f"{watts} W"),
                ("Price", "100.00 GBP"),
            ),
        )
        for name, memory, watts in CARDS
    ]
    return compile_catalog(variants, tmp_path_factory.mktemp("cards"), currency="GBP")


def test_a_code_said_with_its_entry_is_a_listed_value_not_a_name(cards):
    # "GDDR5" is also a word of two cards' names; said with "memory" it is the memory type
    ans = cards.answer("Which graphics cards with GDDR5 memory draw under 75 watts?")
    assert sorted(ans.answer_list or []) == ["Volta 5670 1GB GDDR5", "Volta 7750"], ans.trace


def test_a_value_said_with_only_excludes_every_other_value_of_its_entry(compiler):
    ans = compiler.answer("Which fridges are sold only in Canada?")
    assert ans.answer_list == ["Arcto 20"], ans.trace
    assert compiler.answer("How many fridges are sold in Canada only?").value == 1
    assert compiler.answer("How many fridges are sold in Canada?").value == len(COOLERS)


def test_a_lifecycle_word_before_a_time_is_read_by_the_dates_statuses():
    # "released in 2021": the statuses decide, over every entry holding released dates ("Launch ›
    # Status: Released 2021, March"), not the one entry whose name holds the word ("Release date")
    import datetime

    from dualgraph.query.ground.dates import DateEntry, ground_date
    from dualgraph.query.read.dates import find_dates

    entries = [
        DateEntry("e:rel", "Release date", "General", "released", 2),
        DateEntry("e:status", "Status", "Launch", "released", 5),
        DateEntry("e:cert", "Date Certified", "Certification", None, 5),
    ]
    (released,) = find_dates("Which phones were released in 2021?")
    assert released.event == "released" and released.word_span.text == "released"
    g = ground_date(released, entries, [])
    assert 'skg:hasDateStatus "released"' in g.snippet and "<e:rel>" not in g.snippet and not g.covers
    (certified,) = find_dates("Which phones were certified in 2021?")
    g = ground_date(certified, entries, [])
    assert "<e:cert>" in g.snippet and g.covers == ["certified"]
    assert certified.start == datetime.date(2021, 1, 1)


def test_a_unit_after_a_superlative_names_what_is_ranked(compiler):
    # "kWh" is no product name: the products are ranked by what is measured in it
    ans = compiler.answer("Which fridge has the least kWh per year?")
    assert ans.answer_list == ["Arcto 10"], ans.trace
    # a superlative in brackets glosses the vaguer one before it ("most energy-efficient")
    ans = compiler.answer("What is the most energy-efficient fridge (least kWh per year)?")
    assert ans.answer_list == ["Arcto 10"], ans.trace
