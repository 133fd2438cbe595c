"""Value words a question names without a link the parser knows: a money name said with no amount,
a capitalised initialism of one multi-word value, a word with digits inside a listed value. The
value lists below are invented; each expectation follows from them, not from the code's output."""

import pytest

from dualgraph.lexicon.pattern import Pattern
from dualgraph.query.read.value_words import ValueSpellings, spot_values


def _list(entry: str, section: str, names: list[str], count: int) -> Pattern:
    return Pattern(
        pattern_id=f"v-{entry}",
        kind="spec_value",
        text=entry,
        sparql="",
        section=section,
        entry=entry,
        count=count,
        distinct_values=len(names),
        values=[{"name": n, "iri": f"urn:v:{n}", "count": 1} for n in names],
    )


LISTS = [
    _list("Currency", "Listing", ["GBP", "EUR", "zł"], 100),
    _list("Country", "Location", ["United Kingdom", "Ireland", "United States", "Uruguay"], 100),
    _list("Wheel size", "Wheels", ['27.5" / 650B', '29"', "700C"], 90),
    _list("Finish", "Frame", ["Satin Black", "Matte"], 10),
]
SPELLINGS = ValueSpellings(LISTS)


def spot(q: str):
    return [(v.span.text, v.phrase, v.attribute, v.negated) for v in spot_values(q, LISTS, [], spellings=SPELLINGS)]


@pytest.mark.parametrize(
    "question,expected",
    [
        ("How many listings are priced in euros?", [("euros", "EUR", "Currency", False)]),
        ("Which bikes are sold in Polish zloty?", [("Polish zloty", "zł", "Currency", False)]),
        ("Which bikes are for sale in the UK?", [("UK", "United Kingdom", "Country", False)]),
        ("Which bikes are for sale outside the US?", [("US", "United States", "Country", True)]),
        ("How many bikes have 650B wheels?", [("650B", "650B", "Wheel size", False)]),
    ],
)
def test_coded_value_words(question, expected):
    assert spot(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "Which bikes cost under 500 euros?",  # an amount: a price, read by the number parser
        "Which bikes have a 650B fork?",  # no word names the wheel entry
        "Which bikes are UV resistant?",  # "UV" spells no listed value's initials
        "Which bikes are sold in the U2 shop?",  # digits, but no value holds the word
    ],
)
def test_no_value_without_its_evidence(question):
    assert spot(question) == []


def test_an_initialism_two_values_share_is_no_value():
    lists = [*LISTS, _list("Colour", "Frame", ["Ultra Kind", "Blue"], 5)]
    assert [v.phrase for v in spot_values("bikes in the UK", lists, [])] == []


def test_a_value_said_before_what_the_catalog_sells_qualifies_it():
    """ "desktop processors": a value of a short list right before a category noun is a condition;
    the same word elsewhere, or a value of a long list, is not taken without a link."""
    segment = _list("Vertical segment", "Essentials", ["Desktop", "Mobile", "Server", "Embedded"], 400)
    names = _list("Code name", "Essentials", [f"Lake {i}" for i in range(30)] + ["desktop"], 400)
    lists = [segment, names]
    nouns = frozenset({"processors", "processor", "cpu", "cpus"})

    def spot_n(q: str):
        return [(v.span.text, v.phrase, v.attribute) for v in spot_values(q, lists, [], nouns=nouns)]

    assert spot_n("Which desktop processors have 8 cores?") == [("desktop", "desktop", "Vertical segment")]
    assert spot_n("Which server CPUs cost under $500?") == [("server", "server", "Vertical segment")]
    assert spot_n("Which processors suit a desktop build?") == []
