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


def test_values_before_the_head_of_the_subject_qualify_it():
    """ "Which steel or chromoly hardtails …": values of a short list said before the noun the
    question asks about qualify it whatever that noun is (here one no category names), joined
    by "or"; the noun itself, words after the verb and values of a long list are not taken."""
    material = _list("Frame material", "Frame", ["Steel", "Chromoly", "Aluminium", "Carbon Fiber"], 900)
    riders = _list("Rider", "Fit", [f"Rider {i}" for i in range(30)] + ["commuter"], 900)
    lists = [material, riders]

    def spot_n(q: str):
        return [(v.span.text, v.phrase, v.attribute) for v in spot_values(q, lists, [])]

    assert spot_n("Which steel or chromoly hardtails are listed for under $800?") == [
        ("steel", "steel", "Frame material"),
        ("chromoly", "chromoly", "Frame material"),
    ]
    assert spot_n("How many steel bikes are listed?") == [("steel", "steel", "Frame material")]
    assert spot_n("List all steel, chromoly hardtails") == [
        ("steel", "steel", "Frame material"),
        ("chromoly", "chromoly", "Frame material"),
    ]
    assert spot_n("Which hardtails are good for steel lovers?") == []  # after the verb: no link, no taking
    assert spot_n("Which commuter hardtails are cheap?") == []  # a value of a long list needs its link
    assert spot_n("Which frames are 29 steel hardtails?") == []  # not before the subject's head


def test_a_value_spelled_the_other_english_way_is_the_listed_value():
    """ "aluminum" (American) is the listed "Aluminium" (British), and the other way round."""
    material = _list("Frame material", "Frame", ["Steel", "Aluminium"], 900)
    colour = _list("Colour", "Frame", ["Gray", "Black"], 900)
    got = spot_values("Which aluminum hardtails cost less than $600?", [material, colour], [])
    assert [(v.span.text, v.attribute) for v in got] == [("aluminum", "Frame material")]
    got = spot_values("Which grey hardtails are listed?", [material, colour], [])
    assert [(v.span.text, v.attribute) for v in got] == [("grey", "Colour")]
