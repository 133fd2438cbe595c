"""Tests for dualgraph.skg.dates: date forms, negatives, day/month order, status, RDF terms."""

from __future__ import annotations

import calendar
import dataclasses
import datetime
import random
import re

import pyoxigraph as ox
import pytest

from dualgraph.skg import ontology as O
from dualgraph.skg.dates import DateFact, date_status, date_terms, infer_day_first, spot_dates

D = datetime.date


def facts(text: str, **kw) -> list[tuple[str, str, str, str | None]]:
    """(start, end, precision, status) of every date found, ISO strings for easy reading."""
    return [(f.start.isoformat(), f.end.isoformat(), f.precision, f.status) for f in spot_dates(text, **kw)]


# Each case: value, keyword arguments, expected (start, end, precision, status) per date.
CASES: list[tuple[str, dict, list[tuple[str, str, str, str | None]]]] = [
    ("2021-03-15", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("2021-03", {}, [("2021-03-01", "2021-03-31", "month", None)]),
    ("2020, March 15", {}, [("2020-03-15", "2020-03-15", "day", None)]),
    ("March 15, 2020", {}, [("2020-03-15", "2020-03-15", "day", None)]),
    ("15 March 2020", {}, [("2020-03-15", "2020-03-15", "day", None)]),
    ("March 2020", {}, [("2020-03-01", "2020-03-31", "month", None)]),
    ("Mar 2020", {}, [("2020-03-01", "2020-03-31", "month", None)]),
    ("Feb 2024", {}, [("2024-02-01", "2024-02-29", "month", None)]),
    ("Q3 2021", {}, [("2021-07-01", "2021-09-30", "quarter", None)]),
    ("2021 Q3", {}, [("2021-07-01", "2021-09-30", "quarter", None)]),
    ("Q4/2020", {}, [("2020-10-01", "2020-12-31", "quarter", None)]),
    ("third quarter of 2021", {}, [("2021-07-01", "2021-09-30", "quarter", None)]),
    # a quarter with an elided century, as chip makers print launch dates (POSIX pivot at 69)
    ("Q4'08", {}, [("2008-10-01", "2008-12-31", "quarter", None)]),
    ("Q3 '21", {}, [("2021-07-01", "2021-09-30", "quarter", None)]),
    ("Q2'99", {}, [("1999-04-01", "1999-06-30", "quarter", None)]),
    ("15/03/2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("03/15/2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("15.03.2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("15-03-2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("2021/3/5", {}, [("2021-03-05", "2021-03-05", "day", None)]),
    ("04/04/2021", {}, [("2021-04-04", "2021-04-04", "day", None)]),  # the same either way
    ("15th of March, 2020", {}, [("2020-03-15", "2020-03-15", "day", None)]),
    ("Tuesday, 15 March 2020", {}, [("2020-03-15", "2020-03-15", "day", None)]),
    ("Release date: 15/03/2021", {}, [("2021-03-15", "2021-03-15", "day", "released")]),
    ("Launched March 2020", {}, [("2020-03-01", "2020-03-31", "month", "released")]),
    ("Available. Released 2020, March 15", {}, [("2020-03-15", "2020-03-15", "day", "released")]),
    (
        "Announced 2019, September 10. Released 2019, September 20",
        {},
        [("2019-09-10", "2019-09-10", "day", "announced"), ("2019-09-20", "2019-09-20", "day", "released")],
    ),
    ("Exp. announcement 2024, Q1", {}, [("2024-01-01", "2024-03-31", "quarter", "expected")]),
    ("Status: Available. Released 2021, April", {}, [("2021-04-01", "2021-04-30", "month", "released")]),
    ("Expected release Q3 2021", {}, [("2021-07-01", "2021-09-30", "quarter", "expected")]),
    ("Release expected Q3 2021", {}, [("2021-07-01", "2021-09-30", "quarter", "expected")]),
    ("Not yet released. Expected Q3 2021", {}, [("2021-07-01", "2021-09-30", "quarter", "expected")]),
    ("Discontinued 2022, March", {}, [("2022-03-01", "2022-03-31", "month", "discontinued")]),
    ("Cancelled in 2023", {}, [("2023-01-01", "2023-12-31", "year", "cancelled")]),
    (
        "Announced 2023, expected release 2024, Q2",
        {},
        [("2023-01-01", "2023-12-31", "year", "announced"), ("2024-04-01", "2024-06-30", "quarter", "expected")],
    ),
    (
        "Released 2019 (announced 2018)",
        {},
        [("2019-01-01", "2019-12-31", "year", "released"), ("2018-01-01", "2018-12-31", "year", "announced")],
    ),
    ("2019 (announced)", {}, [("2019-01-01", "2019-12-31", "year", "announced")]),
    # A bare year, only with a date word next to it or a date-naming entry/section.
    ("Launched 2020", {}, [("2020-01-01", "2020-12-31", "year", "released")]),
    ("Released in early 2020", {}, [("2020-01-01", "2020-12-31", "year", "released")]),
    ("2020 release", {}, [("2020-01-01", "2020-12-31", "year", "released")]),
    ("mid-2021 launch", {}, [("2021-01-01", "2021-12-31", "year", "released")]),
    ("Model year: 2018", {}, [("2018-01-01", "2018-12-31", "year", None)]),
    ("2020", {"entry": "Announced"}, [("2020-01-01", "2020-12-31", "year", "announced")]),
    ("2020", {"entry": "Year"}, [("2020-01-01", "2020-12-31", "year", None)]),
    ("2020", {"entry": "Release date"}, [("2020-01-01", "2020-12-31", "year", "released")]),
    (
        "2019, September 10",
        {"entry": "Announced", "section": "Launch"},
        [("2019-09-10", "2019-09-10", "day", "announced")],
    ),
    ("2019, September 10", {"entry": "Date", "section": "Launch"}, [("2019-09-10", "2019-09-10", "day", "released")]),
    ("03/2021", {"entry": "Launched"}, [("2021-03-01", "2021-03-31", "month", "released")]),
    ("Released: 03/2021", {}, [("2021-03-01", "2021-03-31", "month", "released")]),
    # Month names in other languages (dateparser's locale data).
    ("15. März 2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("15 mars 2021", {}, [("2021-03-15", "2021-03-15", "day", None)]),
    ("octubre 2019", {}, [("2019-10-01", "2019-10-31", "month", None)]),
    ("Dezember 2022", {}, [("2022-12-01", "2022-12-31", "month", None)]),
    # A date amid other spec text.
    ("6.7 inch, 5000 mAh, released 2021-03-15 in India", {}, [("2021-03-15", "2021-03-15", "day", "released")]),
    ("Galaxy S10 March 2020", {}, [("2020-03-01", "2020-03-31", "month", None)]),
]

NEGATIVES = [
    "5000 mAh",
    "Android 14",
    "Snapdragon 8 Gen 3",
    "2x 3.5 GHz",
    "1080 x 2400",
    "1920 x 1080",
    "Bluetooth 5.3",
    "Galaxy 2020 Edition",
    "Nokia 2020",
    "Model 2021",
    "1/2000 s",
    "Price 2020 INR",
    "2000 mAh",
    "Released with 2000 mAh",
    "2019-2020",
    "Discontinued",
    "Cancelled",
    "Coming soon",
    "March 15",  # no year
    "15/03/21",  # two-digit year
    "Q5'10",  # no fifth quarter
    "5'10",  # feet and inches, no quarter
    "31/04/2021",  # no such day either way
    "",
]


@pytest.mark.parametrize(("text", "kw", "want"), CASES, ids=[c[0] for c in CASES])
def test_forms(text, kw, want):
    assert facts(text, **kw) == want


@pytest.mark.parametrize("text", NEGATIVES)
def test_not_dates(text):
    assert spot_dates(text) == []


@pytest.mark.parametrize("text", ["5000 mAh", "Android 14", "1080 x 2400", "2000 mAh", "1920 x 1080"])
def test_not_dates_even_where_a_date_is_expected(text):
    assert spot_dates(text, entry="Release date") == []


@pytest.mark.parametrize(("text", "kw", "want"), CASES, ids=[c[0] for c in CASES])
def test_literal_datatype_and_span(text, kw, want):
    for f in spot_dates(text, **kw):
        lexical, datatype = {
            "day": (f.start.isoformat(), O.XSD_DATE),
            "month": (f.start.isoformat()[:7], O.XSD_GYEARMONTH),
            "quarter": (f.start.isoformat()[:4], O.XSD_GYEAR),
            "year": (f.start.isoformat()[:4], O.XSD_GYEAR),
        }[f.precision]
        assert (f.literal, f.datatype) == (lexical, datatype)
        span = text[f.start_char : f.end_char]
        # the span holds the year as written: four digits, or the last two after an elided century
        assert span == span.strip() and (f.literal[:4] in span or re.search(rf"['’]{f.literal[2:4]}$", span))


def test_spans_locate_each_date():
    text = "Announced 2019, September 10. Released 2019, September 20"
    assert [text[f.start_char : f.end_char] for f in spot_dates(text)] == ["2019, September 10", "2019, September 20"]
    text = "Price\u00a0₹ 12,999 – launched\u00a015\u00a0March\u00a02020"  # folded spaces keep offsets
    (f,) = spot_dates(text)
    assert text[f.start_char : f.end_char] == "15\u00a0March\u00a02020"


# --------------------------------------------------------------------------- day/month order


def test_an_ambiguous_numeric_date_without_an_order_is_its_year_between_its_two_days():
    # not dropped: "certified in 2021" must find it, "before April 2021" must not take a side
    assert facts("03/04/2021") == [("2021-03-04", "2021-04-03", "year", None)]
    assert [f.literal for f in spot_dates("09/02/2020")] == ["2020"]
    assert facts("04/04/2021") == [("2021-04-04", "2021-04-04", "day", None)]  # both readings agree


def test_ambiguous_numeric_dates_read_by_an_order():
    assert facts("03/04/2021", day_first=True) == [("2021-04-03", "2021-04-03", "day", None)]
    assert facts("03/04/2021", day_first=False) == [("2021-03-04", "2021-03-04", "day", None)]
    assert facts("03.04.2021", day_first=True) == [("2021-04-03", "2021-04-03", "day", None)]


def test_a_value_that_settles_its_order_overrides_day_first():
    assert facts("15/03/2021", day_first=False) == [("2021-03-15", "2021-03-15", "day", None)]
    assert facts("03/15/2021", day_first=True) == [("2021-03-15", "2021-03-15", "day", None)]


def test_infer_day_first():
    european = ["15/03/2021", "28.02.2020", "Released 31/12/2019", "03/04/2021", "5000 mAh"]
    american = ["03/15/2021", "12/31/2019", "Released 02/28/2020", "03/04/2021"]
    assert infer_day_first(european) is True
    assert infer_day_first(american) is False
    assert infer_day_first(["03/04/2021", "Q3 2021", "2021-03-15"]) is None  # nothing settles it
    assert infer_day_first([]) is None
    assert infer_day_first(european + american) is None  # mixed: no locale
    assert infer_day_first(european * 4 + american[:1]) is True  # four votes in five
    assert infer_day_first(iter(american)) is False  # any iterable, read once
    # Then the catalog's order reads its ambiguous values.
    order = infer_day_first(european)
    assert facts("03/04/2021", day_first=order) == [("2021-04-03", "2021-04-03", "day", None)]


# --------------------------------------------------------------------------- generated variations


def _variants(day: D, rng: random.Random) -> list[tuple[str, str, D, D]]:
    """(text, precision, start, end) for one date written many ways."""
    month = calendar.month_name[day.month]
    abbr = calendar.month_abbr[day.month]
    abbrs = [abbr, abbr + "."] + (["Sept", "Sept.", "Sep."] if day.month == 9 else [])
    last = D(day.year, day.month, calendar.monthrange(day.year, day.month)[1])
    q = (day.month - 1) // 3
    q_start, q_end = D(day.year, 3 * q + 1, 1), D(day.year, 3 * q + 3, calendar.monthrange(day.year, 3 * q + 3)[1])
    y, m, d = day.year, day.month, day.day
    comma = rng.choice([",", ""])
    sp = " " * rng.randint(1, 3)
    out = [
        (f"{month} {d}{comma} {y}", "day", day, day),
        (f"{d}{sp}{month}{sp}{y}", "day", day, day),
        (f"{y}{comma} {month} {d}", "day", day, day),
        (f"{rng.choice(abbrs)} {d}, {y}", "day", day, day),
        (f"{d} {rng.choice(abbrs)} {y}", "day", day, day),
        (f"{y}-{m:02d}-{d:02d}", "day", day, day),
        (f"{month}{comma}{sp}{y}", "month", day, last),
        (f"{rng.choice(abbrs)} {y}", "month", day.replace(day=1), last),
        (f"{y}, {month}", "month", day.replace(day=1), last),
        (f"{y}-{m:02d}", "month", day.replace(day=1), last),
        (f"Q{q + 1} {y}", "quarter", q_start, q_end),
        (f"{y}{comma} Q{q + 1}", "quarter", q_start, q_end),
        (f"Launched{sp}{y}", "year", D(y, 1, 1), D(y, 12, 31)),
    ]
    if d > 12:  # numeric forms that settle their own order
        out += [(f"{d:02d}/{m:02d}/{y}", "day", day, day), (f"{m}/{d}/{y}", "day", day, day)]
        out += [(f"{d}.{m:02d}.{y}", "day", day, day)]
    cased = []
    for text, *rest in out:
        cased.append((rng.choice([str.lower, str.upper, str.title, str])(text), *rest))
        cased.append((f"Released{sp}{text}", *rest))
    return cased


def _random_days(n: int, seed: int) -> list[D]:
    rng = random.Random(seed)
    first, span = D(1995, 1, 1).toordinal(), D(2030, 12, 31).toordinal() - D(1995, 1, 1).toordinal()
    return [D.fromordinal(first + rng.randrange(span)) for _ in range(n)]


@pytest.mark.parametrize("day", _random_days(60, seed=11), ids=str)
def test_generated_variations(day):
    rng = random.Random(day.toordinal())
    for text, precision, start, end in _variants(day, rng):
        start = start if precision != "month" else start.replace(day=1)
        got = [(f.start, f.end, f.precision) for f in spot_dates(text)]
        assert got == [(start, end, precision)], text


def test_every_month_name_and_abbreviation():
    for m in range(1, 13):
        for name in {calendar.month_name[m], calendar.month_abbr[m], calendar.month_abbr[m] + "."}:
            (f,) = spot_dates(f"Released {name} 2022")
            assert (f.start, f.precision, f.status) == (D(2022, m, 1), "month", "released"), name


def test_spacing_and_case_do_not_matter():
    base = facts("Released 2020, March 15")
    for text in [
        "RELEASED 2020, MARCH 15",
        "released   2020 ,  march 15",
        "Released 2020 March 15",
        "released 2020,March 15",
    ]:
        assert facts(text) == base, text


# --------------------------------------------------------------------------- status


@pytest.mark.parametrize(
    ("text", "entry", "want"),
    [
        ("Discontinued", None, "discontinued"),
        ("Cancelled", None, "cancelled"),
        ("Canceled", None, "cancelled"),
        ("Coming soon", None, "expected"),
        ("Rumored", None, "expected"),
        ("Available. Released 2020, March 15", None, "released"),
        ("Status: Available. Released 2021, April", None, "released"),
        ("Announced 2019, September 10. Released 2019, September 20", None, "released"),
        ("Exp. announcement 2024, Q1", None, "expected"),
        ("Announced 2023, expected release 2024, Q2", None, "announced"),
        ("Discontinued. Released 2018", None, "discontinued"),
        ("No longer available", None, "discontinued"),
        ("Not yet released", None, "expected"),
        ("Not released", None, None),
        ("2019, September 10", "Announced", "announced"),
        ("15/03/2021", "Release date", "released"),
        ("No", "Discontinued", None),  # no date, no status word: the entry says nothing of this value
        ("5000 mAh", None, None),
        ("", None, None),
    ],
)
def test_date_status(text, entry, want):
    assert date_status(text, entry) == want


def test_status_words_must_be_whole_words():
    assert date_status("Aeolus") is None and date_status("Relaunched") is None  # "eol", "launched" inside a word


# --------------------------------------------------------------------------- RDF terms


def _ntriples(named: dict[str, DateFact]) -> str:
    lines = []
    for name, fact in named.items():
        node = f"<{O.SKG}date-{name}>"
        lines.append(f"{node} <{O.TYPE}> <{O.DATE}> .")
        lines += [f"{node} <{p}> {o} ." for p, o in date_terms(fact)]
    return "\n".join(lines) + "\n"


def test_date_terms_shape():
    (f,) = spot_dates("Exp. announcement 2024, Q1")
    terms = dict(date_terms(f))
    assert terms[O.HAS_DATE_VALUE] == f'"2024"^^<{O.XSD_GYEAR}>'
    assert terms[O.HAS_DATE_START] == f'"2024-01-01"^^<{O.XSD_DATE}>'
    assert terms[O.HAS_DATE_END] == f'"2024-03-31"^^<{O.XSD_DATE}>'
    assert terms[O.HAS_PRECISION] == '"quarter"'
    assert terms[O.HAS_DATE_STATUS] == '"expected"'
    (g,) = spot_dates("2021-03")
    assert O.HAS_DATE_STATUS not in dict(date_terms(g))


def test_date_terms_load_and_compare_in_sparql():
    named = {
        "day": spot_dates("Released 2020, March 15")[0],
        "month": spot_dates("Launched December 2020")[0],
        "quarter": spot_dates("Q4 2020")[0],
        "year": spot_dates("2021", entry="Year")[0],
        "late": spot_dates("Announced 2021-01-01")[0],
    }
    data = _ntriples(named)
    quads = list(ox.parse(data, format=ox.RdfFormat.N_TRIPLES))
    assert len(quads) == sum(len(date_terms(f)) + 1 for f in named.values())
    store = ox.Store()
    store.load(data, format=ox.RdfFormat.N_TRIPLES)
    prologue = O.sparql_prologue()

    def names(where: str, order: str = "?d") -> list[str]:
        q = f"{prologue}SELECT ?d WHERE {{ ?d a skgt:Date ; {where} }} ORDER BY {order}"
        return [sol["d"].value.rpartition("date-")[2] for sol in store.query(q)]

    # Every precision compares through its first and last day.
    got = names('skg:hasDateEnd ?end . FILTER(?end < "2021-01-01"^^xsd:date)')
    assert sorted(got) == sorted(n for n, f in named.items() if f.end < D(2021, 1, 1))
    assert sorted(got) == ["day", "month", "quarter"]
    overlapping_2021 = names(
        'skg:hasDateStart ?s ; skg:hasDateEnd ?e . FILTER(?s <= "2021-12-31"^^xsd:date && ?e >= "2021-01-01"^^xsd:date)'
    )
    assert sorted(overlapping_2021) == ["late", "year"]
    newest = names("skg:hasDateStart ?s .", order="DESC(?s) ?d")
    assert newest == [n for n, _ in sorted(named.items(), key=lambda kv: (-kv[1].start.toordinal(), kv[0]))]
    # The value literal keeps its type; the status and precision are plain strings.
    rows = store.query(
        f"{prologue}SELECT ?v ?p WHERE {{ <{O.SKG}date-month> skg:hasDateValue ?v ; skg:hasPrecision ?p }}"
    )
    (row,) = list(rows)
    assert (row["v"].value, row["v"].datatype.value, row["p"].value) == ("2020-12", O.XSD_GYEARMONTH, "month")
    (ask,) = [store.query(f'{prologue}ASK {{ ?d skg:hasDateStatus "released" ; skg:hasPrecision "day" }}')]
    assert bool(ask)


# --------------------------------------------------------------------------- the object itself


def test_fact_is_frozen_and_results_are_fresh_lists():
    first = spot_dates("Launched March 2020")
    first.clear()
    assert len(spot_dates("Launched March 2020")) == 1  # the cache hands out copies
    f = spot_dates("Launched March 2020")[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.status = "cancelled"  # type: ignore[misc]
    assert not hasattr(f, "__dict__")


def test_many_values_read_quickly():
    days = _random_days(2000, seed=5)
    texts = [f"Released {d.year}, {calendar.month_name[d.month]} {d.day} (#{i})" for i, d in enumerate(days)]
    got = [spot_dates(t)[0].start for t in texts]
    assert got == days
