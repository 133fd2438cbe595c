"""Time conditions and orderings by date read from questions (dualgraph.query.read.dates)."""

import datetime

import pytest

from dualgraph.query.read.dates import find_dates, find_event, time_superlative

D = datetime.date


def one(question):
    found = find_dates(question)
    assert len(found) == 1, (question, found)
    c = found[0]
    assert question[c.span.start : c.span.end] == c.span.text
    return c


@pytest.mark.parametrize(
    ("question", "op", "start", "end", "event"),
    [
        # years
        ("Which phones were released in 2023?", "in", D(2023, 1, 1), D(2023, 12, 31), "released"),
        ("tablets announced in 2022", "in", D(2022, 1, 1), D(2022, 12, 31), "announced"),
        ("List the phones from 2021", "in", D(2021, 1, 1), D(2021, 12, 31), ""),
        ("handsets launched 2019", "in", D(2019, 1, 1), D(2019, 12, 31), "released"),
        ("show me the 2023 models", "in", D(2023, 1, 1), D(2023, 12, 31), ""),
        ("phones that hit the market during 2020", "in", D(2020, 1, 1), D(2020, 12, 31), "released"),
        ("what came out back in 2018?", "in", D(2018, 1, 1), D(2018, 12, 31), "released"),
        ("phones released in the year 2017", "in", D(2017, 1, 1), D(2017, 12, 31), "released"),
        ("released in late 2022", "in", D(2022, 1, 1), D(2022, 12, 31), "released"),
        # months, days, quarters, halves, decades
        ("phones launched in March 2024", "in", D(2024, 3, 1), D(2024, 3, 31), "released"),
        ("anything announced in Sept. 2021?", "in", D(2021, 9, 1), D(2021, 9, 30), "announced"),
        ("models released in 2024-03", "in", D(2024, 3, 1), D(2024, 3, 31), "released"),
        ("which phone came out on March 14, 2023", "in", D(2023, 3, 14), D(2023, 3, 14), "released"),
        ("unveiled on 2 February 2022", "in", D(2022, 2, 2), D(2022, 2, 2), "announced"),
        ("released in Q4 2022", "in", D(2022, 10, 1), D(2022, 12, 31), "released"),
        ("announced in the third quarter of 2021", "in", D(2021, 7, 1), D(2021, 9, 30), "announced"),
        ("launched in H2 2023", "in", D(2023, 7, 1), D(2023, 12, 31), "released"),
        ("phones from the first half of 2020", "in", D(2020, 1, 1), D(2020, 6, 30), ""),
        ("phones from the 2010s", "in", D(2010, 1, 1), D(2019, 12, 31), ""),
        # before / after / since / until
        ("phones released before 2022", "<", D(2022, 1, 1), D(2022, 12, 31), "released"),
        ("anything announced prior to May 2021", "<", D(2021, 5, 1), D(2021, 5, 31), "announced"),
        ("phones launched earlier than 2020", "<", D(2020, 1, 1), D(2020, 12, 31), "released"),
        ("released after June 2023", ">", D(2023, 6, 1), D(2023, 6, 30), "released"),
        ("tablets newer than 2019", ">", D(2019, 1, 1), D(2019, 12, 31), ""),
        ("phones released since 2021", ">=", D(2021, 1, 1), D(2021, 12, 31), "released"),
        ("phones from 2022 or later", ">=", D(2022, 1, 1), D(2022, 12, 31), ""),
        ("models launched 2020 and newer", ">=", D(2020, 1, 1), D(2020, 12, 31), "released"),
        ("launched from 2021 onwards", ">=", D(2021, 1, 1), D(2021, 12, 31), "released"),
        ("phones starting from 2022", ">=", D(2022, 1, 1), D(2022, 12, 31), ""),
        ("announced not before 2020", ">=", D(2020, 1, 1), D(2020, 12, 31), "announced"),
        ("phones released 2019 or earlier", "<=", D(2019, 1, 1), D(2019, 12, 31), "released"),
        ("phones announced until 2020", "<=", D(2020, 1, 1), D(2020, 12, 31), "announced"),
        ("devices available by 2022", "<=", D(2022, 1, 1), D(2022, 12, 31), "released"),
        ("released no later than April 2021", "<=", D(2021, 4, 1), D(2021, 4, 30), "released"),
        # ranges
        ("phones released between 2021 and 2023", "between", D(2021, 1, 1), D(2023, 12, 31), "released"),
        ("phones from 2020 to 2022", "between", D(2020, 1, 1), D(2022, 12, 31), ""),
        ("launched between March 2022 and June 2022", "between", D(2022, 3, 1), D(2022, 6, 30), "released"),
        ("what came out in 2019-2021", "between", D(2019, 1, 1), D(2021, 12, 31), "released"),
        ("announced from Q1 2020 through Q2 2020", "between", D(2020, 1, 1), D(2020, 6, 30), "announced"),
        ("phones released in 2021 or 2022", "between", D(2021, 1, 1), D(2022, 12, 31), "released"),
        ("launched in May 2022 or June 2022", "between", D(2022, 5, 1), D(2022, 6, 30), "released"),
        # the events
        ("phones to be released in 2025", "in", D(2025, 1, 1), D(2025, 12, 31), "expected"),
        ("which upcoming phones are due in 2025", "in", D(2025, 1, 1), D(2025, 12, 31), "expected"),
        ("phones discontinued in 2023", "in", D(2023, 1, 1), D(2023, 12, 31), "discontinued"),
        ("the 2022 releases", "in", D(2022, 1, 1), D(2022, 12, 31), "released"),
        ("phones from 2023 that were announced", "in", D(2023, 1, 1), D(2023, 12, 31), "announced"),
        ("which phones went on sale in 2020", "in", D(2020, 1, 1), D(2020, 12, 31), "released"),
    ],
)
def test_time_conditions(question, op, start, end, event):
    c = one(question)
    assert (c.op, c.start, c.end, c.event) == (op, start, end, event)


def test_spans_cover_the_cue_and_trailer():
    assert one("phones released before 2022 with 5G").span.text == "before 2022"
    assert one("phones from 2022 or later").span.text == "from 2022 or later"
    assert one("released between 2021 and 2023, under 500").span.text == "between 2021 and 2023"
    c = one("phones released in March 2024")
    assert c.span.text == "in March 2024" and c.event_span is not None and c.event_span.text == "released"


def test_two_conditions_each_with_its_own_event():
    a, b = find_dates("phones announced in 2022 and released after June 2023")
    assert (a.op, a.event, b.op, b.event) == ("in", "announced", ">", "released")
    assert b.start == D(2023, 6, 1) and b.end == D(2023, 6, 30)
    a, b = find_dates("released after 2020 and before 2023")
    assert (a.span.text, a.op, b.span.text, b.op) == ("after 2020", ">", "before 2023", "<")
    assert a.event == b.event == "released"


@pytest.mark.parametrize(
    "question",
    [
        "phones with a 5000 mAh battery",
        "a Galaxy S23 under 2000",
        "the iPhone 2020 Edition",
        "phones priced under 2023",
        "which phones cost less than 2021",
        "phones in 2000 mAh or more",
        "a screen of 1920 x 1080",
        "between 1500 and 2000 rupees",
        "from 2000 to 3000",
        "phones from Rs 2023",
        "phones for $2022",
        "phones with 2020 nits peak brightness",
        "phones up to 2000",  # a weak cue and no event: a price as likely as a year
        "Nova 2023 phones",
        "the 12/2021 edition",  # no date context for a numeric month
        "Zenith X2021 Pro",
        "phones with 2,023 reviews",
        "phones released in March",  # a month without a year needs a clock
        "phones from last year",
    ],
)
def test_numbers_that_are_no_times(question):
    assert find_dates(question) == []


def test_periods_apart_are_no_range():
    assert [(c.span.text, c.op) for c in find_dates("phones released in 2019 or 2022")] == [("in 2019", "in")]
    a, b = find_dates("released in 2021 and announced in 2022")
    assert (a.span.text, a.event, b.span.text, b.event) == ("in 2021", "released", "in 2022", "announced")


def test_a_year_next_to_a_measure_is_still_read_when_cued():
    assert [c.span.text for c in find_dates("1920 x 1080 screens released in 2020")] == ["in 2020"]


def test_find_event_prefers_the_nearest_word_before():
    assert find_event("announced in 2021, released in 2022", 29, 36)[0] == "released"
    assert find_event("phones in 2022 that were unveiled", 7, 14)[0] == "announced"
    assert find_event("phones in 2022", 7, 14) == ("", None)


@pytest.mark.parametrize(
    ("question", "direction", "event", "word"),
    [
        ("Which is the newest zenith phone?", "max", "", "newest"),
        ("What is the latest phone in the catalog?", "max", "", "latest"),
        ("Show me the oldest tablet", "min", "", "oldest"),
        ("the earliest model with 5G", "min", "", "earliest"),
        ("Which phone was released most recently?", "max", "released", "most recently"),
        ("the most recently announced tablet", "max", "announced", "most recently"),
        ("the most recent Galaxy?", "max", "", "most recent"),
        ("Which came out first, the Nova Lite or the Zenith Basic?", "min", "released", "first"),
        ("Which was released earlier, A1 or B2?", "min", "released", "earlier"),
        ("Which was announced later: the Nova or the Zenith?", "max", "announced", "later"),
        ("Which is newer, the Nova X or the Nova Y?", "max", "", "newer"),
        ("Is the Nova X older than the Zenith?", "min", "", "older"),
        ("which phone was announced last?", "max", "announced", "last"),
        ("the earliest release", "min", "released", "earliest"),
        ("the latest launch from Orbix", "max", "released", "latest"),
    ],
)
def test_orderings_by_date(question, direction, event, word):
    t = time_superlative(question)
    assert t is not None and (t.direction, t.event, t.span.text) == (direction, event, word)
    assert question[t.span.start : t.span.end] == word


@pytest.mark.parametrize(
    "question",
    [
        "phones with the latest Android version",
        "the latest Snapdragon chip",
        "what is the latest price of the Nova?",
        "released by 2022 at the latest",
        "phones released in 2022 or later",
        "phones launched earlier than 2020",
        "Which phone came out last year?",
        "phones released in the first half of 2023",
        "the first phone with 5G",
        "which phone has the biggest battery?",
        "I'll decide later",
    ],
)
def test_no_ordering_by_date(question):
    assert time_superlative(question) is None
