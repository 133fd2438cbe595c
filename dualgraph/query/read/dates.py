"""Time in a question: "released in 2023", "announced before June 2022", "between 2021 and 2023",
"the newest phone", "which came out first, A or B".

:func:`find_dates` reads each time condition as a :class:`DateConstraint`: the period the
question names (``start``..``end``, whole days), how a product's date must relate to it (``op``)
and the event it is about; :func:`time_superlative` reads an ordering by date ("newest", "oldest",
"came out first", "more recent").

Decisions:

* **Periods.** A day, a month, a quarter ("Q3 2021", "the third quarter of 2021") are read by
  :func:`dualgraph.skg.dates.spot_dates`, the catalog's own date reader, so a question and a
  spec value mean the same days; halves ("H2 2023", "the first half of 2023"), decades ("the
  2010s") and bare years are read here. "early/mid/late 2023" is the year 2023 (the modifier is
  vague; the span keeps it). Relative times ("last year", "this spring") need a clock and are
  not read; nor is a month without a year ("in March").
* **A bare year needs a time context**, because questions are full of four-digit numbers that
  are no years ("5000 mAh", "under 2000", "Galaxy S23", "iPhone 2020 Edition"): a time
  preposition right before it (in, since, before, after, from, between, until, during …), a
  trailer ("2022 or later", "2021 onwards"), an event word right before it ("launched 2022"), or
  a product/release noun right after it ("2023 models", "the 2022 releases"). Weak prepositions
  that are as common with prices ("by", "of", "up to", "through", "on") count only when the
  question also names an event ("released", "announced" …). Never a year: a number followed by
  a unit or currency ("in 2000 mAh", "2023 rupees"), after a currency sign, or one end of a
  numeric range whose other end is no year ("from 2000 to 3000").
* **Operators.** ``start``/``end`` are always the named period (for ``between`` the first
  period's start and the last one's end); ``op`` says how a product's date (its own run of days
  ``ds``..``de``) must relate: ``in``/``between`` containment (``ds >= start`` and ``de <= end``:
  a product released "2023-05-02" or "2023" is in 2023, one released "Q4 2022" is not; one
  released "2023" is not in March 2023), ``<`` "before" (``de < start``), ``>`` "after"
  (``ds > end``: "after June 2023" is from July), ``>=`` "since", "2021 or later", "from 2021
  onwards", "not before" (``ds >= start``), ``<=`` "until", "by", "2020 or earlier", "no later
  than" (``de <= end``). A lone "from 2023" is "in 2023" ("phones from 2023"). "in 2021 or 2022"
  is one run of time (``between``) because the periods touch; periods apart ("in 2019 or 2022")
  are no condition one date range can say, and only the first is read.
* **Events.** ``event`` is the lifecycle status the question's event word names, in the SKG's
  words (:data:`dualgraph.skg.dates.STATUSES`): "released" (released, launched, came out, went
  on sale, available, shipped), "announced" (announced, unveiled, introduced), "expected"
  (expected, upcoming, coming, due, to be released), "discontinued"; "" when the question names
  none. A constraint takes the nearest event word before it, else the first one after it
  ("2023 releases", "phones from 2023 that were announced"). English only.
"""

from __future__ import annotations

import datetime
import re
from typing import NamedTuple

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.read.model import DateConstraint, DateOp, Direction, Span
from dualgraph.skg import currencies
from dualgraph.skg.dates import spot_dates
from dualgraph.skg.quantities import unit_symbol

__all__ = [
    "DATE_ATTRIBUTES",
    "DateConstraint",
    "DateOp",
    "TimeOrder",
    "date_event",
    "find_dates",
    "find_event",
    "is_event_word",
    "orders_by_date",
    "time_superlative",
]

DATE_ATTRIBUTES = {
    "": "date",
    "released": "release date",
    "announced": "announcement date",
    "expected": "expected date",
    "discontinued": "discontinuation date",
}
"""The intent attribute an ordering by date of each event is given (so the compiler knows to order by date)."""


class TimeOrder(NamedTuple):
    """An ordering by date: "newest" (max) or "oldest" (min), of ``event`` ("" = any)."""

    direction: Direction
    event: str
    span: Span


def orders_by_date(word: str, attribute: str) -> bool:
    """Whether a comparative ``word`` orders by date whatever noun it is said of ("the newer chip, A
    or B": later in time), not by ``attribute``; "a newer Android version" orders versions, and an
    attribute that names a dated event is that event.

    >>> orders_by_date("newer", "chip"), orders_by_date("newer", "android version"), orders_by_date("faster", "chip")
    (True, False, False)
    """
    return (
        bool(re.fullmatch(r"newer|older", word, re.I)) and date_event(attribute) is None and "version" not in attribute
    )


def date_event(attribute: str) -> str | None:
    """The event an intent attribute of :data:`DATE_ATTRIBUTES` orders by; ``None`` for any other attribute.

    >>> date_event("release date"), date_event("date"), date_event("battery")
    ('released', '', None)
    """
    return next((event for event, name in DATE_ATTRIBUTES.items() if name == attribute), None)


# ---------------------------------------------------------------------------------- events

_EVENT_SOURCES = (  # most specific first: "to be released" is a plan, not a release
    (
        "expected",
        r"(?:will|to|going\s+to|set\s+to|due\s+to)\s+(?:be\s+)?(?:releas(?:e|ed)|launch(?:ed)?|announc(?:e|ed)"
        r"|come\s+out|arrive|debut)|expected|upcoming|coming(?:\s+out)?|planned|scheduled|rumou?red"
        r"|due(?=\s+(?:in|out|for|by|before|after|around)\b)",
    ),
    ("discontinued", r"discontinued|retired|end[\s-]of[\s-]life|eol"),
    ("announced", r"announc(?:e|ed|es|ing|ements?)|unveil(?:ed|s|ing)?|introduc(?:ed|tion)|reveal(?:ed|s)?"),
    (
        "released",
        r"releas(?:e|es|ed|ing)|launch(?:ed|es|ing)?|(?:came|come|comes)\s+out|debut(?:ed|s)?"
        r"|hit\s+(?:the\s+)?(?:market|shelves|stores)|(?:went|goes|go)\s+on\s+sale|on\s+sale|available"
        r"|availability|ship(?:ped|ping)|first\s+sold",
    ),
)
_EVENT = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?P<e{i}>{src})" for i, (_, src) in enumerate(_EVENT_SOURCES)) + r")(?![\w-])",
    re.I,
)


def _event_of(m: re.Match[str]) -> str:
    return _EVENT_SOURCES[int((m.lastgroup or "e0")[1:])][0]


def is_event_word(word: str) -> bool:
    """Whether ``word`` is an event word ("released", "announced"): never a brand, even before "phones".

    >>> is_event_word("announced"), is_event_word("Launched"), is_event_word("zenith")
    (True, True, False)
    """
    return _EVENT.fullmatch(word.strip()) is not None


def find_event(question: str, lo: int, hi: int) -> tuple[str, Span | None]:
    """The event a time expression at ``lo:hi`` is about: the nearest event word before it, else the
    first after it; ("", None) when the question names none.

    >>> find_event("phones announced in 2022 and released in 2023", 37, 44)[0]
    'released'
    >>> find_event("the 2023 releases", 4, 8)[0], find_event("phones from 2023", 7, 16)
    ('released', ('', None))
    """
    found = list(_EVENT.finditer(question))
    before = [m for m in found if m.end() <= lo]
    after = [m for m in found if m.start() >= hi]
    m = before[-1] if before else after[0] if after else None
    if m is None:
        return "", None
    return _event_of(m), Span(m.start(), m.end(), m.group())


# ---------------------------------------------------------------------------------- periods


class _Period(NamedTuple):
    lo: int
    hi: int
    start: datetime.date
    end: datetime.date
    bare: bool  # a lone year: a date only in a time context


_Y = r"(?P<y>(?:19|20)[0-9]{2})"
_HALF = re.compile(
    rf"(?<![\w.])(?:H(?P<h>[12])|(?P<h2>[12])H|(?:the\s+)?(?P<hw>first|second|1st|2nd)\s+half(?:\s+of)?)"
    rf"\s*[-/,']?\s*{_Y}(?![0-9])|(?<![\w.]){_Y.replace('y>', 'y2>')}\s*[-/,]?\s*H(?P<h3>[12])(?!\w)",
    re.I,
)
_DECADE = re.compile(r"(?<![\w.$€£¥₹#+])(?P<d>(?:19|20)[0-9])0'?s(?!\w)", re.I)
_YEAR = re.compile(rf"(?<![\w.,/$€£¥₹#+]){_Y}(?![\w%°'\"]|[.,/][0-9])")
_SMALL_WORDS = frozenset({"in", "at", "a", "an", "as", "on", "and", "or", "to", "by", "for", "of", "the", "from"})
_NEXT_WORD = re.compile(r"\s*([^\W\d_][\w/]*)")
_PREV_WORD = re.compile(r"([^\W\d_][\w.]*)\s*$")


def _year_span(y: int, first: int = 1, last: int = 12) -> tuple[datetime.date, datetime.date]:
    end = datetime.date(y, 12, 31) if last == 12 else datetime.date(y, last + 1, 1) - datetime.timedelta(days=1)
    return datetime.date(y, first, 1), end


def _not_a_year(q: str, lo: int, hi: int) -> bool:
    """A four-digit number that is a measure, a price or one end of a numeric range."""
    nxt = m.group(1) if (m := _NEXT_WORD.match(q, hi)) else ""
    if nxt and nxt.casefold() not in _SMALL_WORDS and (unit_symbol(nxt) or currencies.table().candidates(nxt)):
        return True
    if re.match(r"\s*[x×*]\s*[0-9]", q[hi:]) or re.search(r"[$€£¥₹]\s*$", q[:lo]):
        return True
    if (p := _PREV_WORD.search(q, 0, lo)) and (unit_symbol(p.group(1)) or "").isupper():  # "INR 2000", "Rs 2000"
        return True
    # "from 2000 to 3000", "between 1500 and 2000": a range whose other end is no year
    after = re.match(r"\s*(?:-|–|—|to|and)\s*([0-9]+(?:[,.][0-9]+)*)", q[hi:])
    before = re.search(r"([0-9]+(?:[,.][0-9]+)*)\s*(?:-|–|—|to|and)\s*$", q[:lo])
    return any(x is not None and not re.fullmatch(r"(?:19|20)[0-9]{2}", x.group(1)) for x in (after, before))


def _periods(q: str) -> list[_Period]:
    out: list[_Period] = []

    def free(lo: int, hi: int) -> bool:
        return all(hi <= p.lo or lo >= p.hi for p in out)

    for m in _HALF.finditer(q):
        y = int(m["y"] or m["y2"])
        half = int(m["h"] or m["h2"] or m["h3"] or (1 if m["hw"].lower() in ("first", "1st") else 2))
        out.append(_Period(m.start(), m.end(), *_year_span(y, 6 * half - 5, 6 * half), bare=False))
    for m in _DECADE.finditer(q):
        if free(*m.span()):
            d = int(m["d"]) * 10
            out.append(_Period(m.start(), m.end(), datetime.date(d, 1, 1), datetime.date(d + 9, 12, 31), bare=False))
    # a day, month or quarter: read as the catalog's values are read (its years are read below)
    for f in spot_dates(q):
        if f.precision != "year" and free(f.start_char, f.end_char):
            out.append(_Period(f.start_char, f.end_char, f.start, f.end, bare=False))
    for m in _YEAR.finditer(q):
        if free(*m.span()) and not _not_a_year(q, *m.span()):
            out.append(_Period(m.start(), m.end(), *_year_span(int(m["y"])), bare=True))
    return sorted(out)


# ---------------------------------------------------------------------------------- context

_FILLER = r"(?:the\s+)?(?:year\s+)?(?:(?:early|mid|late|earlier|later)[\s-]+)?"
# (pattern, op, strong): a weak cue makes a bare year a date only when the question names an event
_LEADS: tuple[tuple[str, DateOp, bool], ...] = (
    (r"not\s+(?:before|earlier\s+than|prior\s+to)|no\s+earlier\s+than|(?:on|in)\s+or\s+after", ">=", True),
    (r"not\s+(?:after|later\s+than)|no\s+later\s+than|(?:on|in)\s+or\s+before", "<=", True),
    (r"since|(?:starting|beginning)(?:\s+(?:in|from|with))?|as\s+of", ">=", True),
    (r"until|till|til|up\s+until", "<=", True),
    (r"by|up\s+to|through|thru", "<=", False),
    (r"before|prior\s+to|earlier\s+than|older\s+than|pre-?", "<", True),
    (r"after|later\s+than|newer\s+than|more\s+recent(?:ly)?\s+than|post-?", ">", True),
    (r"(?:back\s+|sometime\s+|some\s+time\s+)?in|during|throughout|from", "in", True),
    (r"of|on|around|circa|ca\.|within", "in", False),
)
_LEAD = [(re.compile(rf"(?<![\w-])(?:{src})\s*{_FILLER}$", re.I), op, strong) for src, op, strong in _LEADS]
_TRAILERS: tuple[tuple[re.Pattern[str], DateOp], ...] = (
    (
        re.compile(
            r"\s*(?:(?:or|and)\s+(?:later|newer|after|above|beyond|up|onwards?|more\s+recent(?:ly)?)\b"
            r"|(?:onwards?|forward)\b|\+(?!\w))",
            re.I,
        ),
        ">=",
    ),
    (re.compile(r"\s*(?:or|and)\s+(?:earlier|older|before|prior|below)\b", re.I), "<="),
)
_NOUN_AFTER = re.compile(r"\s+([\w-]+)")
_EVENT_BEFORE = re.compile(
    rf"(?:{_EVENT.pattern})\s+(?:(?:back|first|originally|initially|officially|only)\s+)?{_FILLER}$", re.I
)
_OPENERS = frozenset("which what show list find give any all are were the some name get compare do did how".split())
_RANGE_LEAD = re.compile(rf"(?<![\w-])(?P<w>between|from)\s+{_FILLER}$", re.I)
_RANGE_GAP = re.compile(rf"\s*(?:-|–|—|to|through|thru|until|till|and|or)\s*{_FILLER}", re.I)


def _lead(q: str, lo: int) -> tuple[int, DateOp, bool] | None:
    """(where the cue starts, its op, whether it is strong) for the words right before ``lo``."""
    head = q[max(0, lo - 40) : lo]
    base = max(0, lo - 40)
    best = None
    for rx, op, strong in _LEAD:
        if (m := rx.search(head)) and (best is None or m.start() < best[0] - base):
            best = (base + m.start(), op, strong)
    return best


def _trailer(q: str, hi: int, next_lo: int | None) -> tuple[int, DateOp] | None:
    for rx, op in _TRAILERS:
        if m := rx.match(q, hi):
            # "after June 2023 and before Q2 2024": a cue of the next period, not a trailer
            if next_lo is not None and re.fullmatch(rf"\s*{_FILLER}", q[m.end() : next_lo], re.I):
                return None
            return m.end(), op
    return None


def _event_right_before(q: str, lo: int) -> bool:
    return _EVENT_BEFORE.search(q[max(0, lo - 60) : lo]) is not None


def _single(q: str, p: _Period, next_lo: int | None, has_event: bool) -> tuple[int, int, DateOp] | None:
    """(span start, span end, op) of one period with its cues; ``None`` for a year in no time context."""
    lead, trail = _lead(q, p.lo), _trailer(q, p.hi, next_lo)
    lo, hi = (lead[0] if lead else p.lo), (trail[0] if trail else p.hi)
    if trail:
        return lo, hi, trail[1]
    if lead and (lead[2] or has_event or not p.bare):
        return lo, hi, lead[1]
    if not p.bare or _event_right_before(q, p.lo):
        return p.lo, hi, "in"
    if (n := _NOUN_AFTER.match(q, p.hi)) and _product_word(n.group(1)):
        prev = _PREV_WORD.search(q, 0, p.lo)
        named = prev is not None and any(c.isupper() for c in prev.group(1))
        if named and prev is not None and prev.start() == 0 and prev.group(1).casefold() in _OPENERS:
            named = False  # "Which 2023 phones …": the question's first word
        if not named:  # "the 2023 models", not "Nova 2023 models" (a name)
            return p.lo, hi, "in"
    return None


def _range(q: str, a: _Period, b: _Period, has_event: bool) -> tuple[int, int] | None:
    """The span of "between A and B", "from A to B", "A-B" (with a time context), else ``None``."""
    gap = _RANGE_GAP.fullmatch(q, a.hi, b.lo)
    if gap is None:
        return None
    if re.match(r"\s*or\b", q[a.hi : b.lo], re.I) or (
        re.match(r"\s*and\b", q[a.hi : b.lo], re.I) and not re.search(r"\bbetween\s+\S*\s*$", q[: a.lo], re.I)
    ):
        # "in 2021 or 2022", "in March and April 2023": one run of time when the periods touch; periods
        # apart ("in 2019 or 2022") are no condition one date range can say, and only the first is read
        cue = _lead(q, a.lo)
        touch = b.start == a.end + datetime.timedelta(days=1)
        ok = cue is not None and cue[1] == "in" and (cue[2] or has_event or not a.bare)
        return (cue[0], b.hi) if touch and cue is not None and ok else None
    lead = _RANGE_LEAD.search(q[max(0, a.lo - 40) : a.lo])
    is_and = re.match(r"\s*and\b", q[a.hi : b.lo], re.I) is not None
    if lead:
        if is_and and lead["w"].lower() != "between":
            return None
        return max(0, a.lo - 40) + lead.start(), b.hi
    if is_and:
        return None
    cue = _lead(q, a.lo)
    if (cue and (cue[2] or has_event)) or not (a.bare and b.bare) or _event_right_before(q, a.lo):
        return (cue[0] if cue else a.lo), b.hi
    return None


def find_dates(question: str) -> list[DateConstraint]:
    """Every time condition in ``question``, in order.

    >>> [(c.span.text, c.op, str(c.start), str(c.end), c.event) for c in find_dates("phones released in 2023")]
    [('in 2023', 'in', '2023-01-01', '2023-12-31', 'released')]
    >>> [(c.span.text, c.op, str(c.start)) for c in find_dates("announced after June 2023 and before Q2 2024")]
    [('after June 2023', '>', '2023-06-01'), ('before Q2 2024', '<', '2024-04-01')]
    >>> [(c.op, str(c.start), str(c.end)) for c in find_dates("launched between 2021 and 2023")]
    [('between', '2021-01-01', '2023-12-31')]
    >>> find_dates("a Galaxy S23 with 5000 mAh under 2000"), find_dates("the iPhone 2020 Edition")
    ([], [])
    """
    q = question
    has_event = _EVENT.search(q) is not None
    periods = _periods(q)
    out: list[DateConstraint] = []
    i = 0
    while i < len(periods):
        p = periods[i]
        found: tuple[int, int, DateOp, datetime.date, datetime.date] | None = None
        if i + 1 < len(periods) and (r := _range(q, p, periods[i + 1], has_event)):
            b = periods[i + 1]
            found = (*r, "between", min(p.start, b.start), max(p.end, b.end))
            i += 1
        elif s := _single(q, p, periods[i + 1].lo if i + 1 < len(periods) else None, has_event):
            found = (*s, p.start, p.end)
        i += 1
        if found is None:
            continue
        lo, hi, op, start, end = found
        event, where = find_event(q, lo, hi)
        out.append(DateConstraint(Span(lo, hi, q[lo:hi]), op, start, end, event, where, word_before(q, lo)))
    return out


def word_before(question: str, lo: int) -> Span | None:
    """The content word before ``lo``, past auxiliaries and adverbs of time ("were *certified* in
    2020", "*made* first in 2019"); ``None`` when another function word stands there.

    >>> word_before("How many fridges were certified in 2020?", 32).text
    'certified'
    >>> word_before("Which phones from 2023?", 13).text, word_before("phones that are in 2020", 16)
    ('phones', None)
    """
    skip = general_words("auxiliaries") | general_words("time_adverbs")
    grammar = general_words("function_words")
    for m in reversed(list(re.finditer(r"[^\W\d_][\w'-]*", question[:lo]))[-4:]):
        low = m.group().casefold()
        if low in skip:
            continue
        if low in grammar or len(low) < 3 or not _only_words(question[m.end() : lo]):
            return None
        return Span(m.start(), m.end(), m.group())
    return None


def _only_words(text: str) -> bool:
    return re.fullmatch(r"[\s\w'-]*", text) is not None


# ---------------------------------------------------------------------------------- ordering

_ORDER_SOURCES: tuple[tuple[str, Direction, str], ...] = (  # (pattern, direction, how it is confirmed)
    (r"most\s+recent(?:ly)?|newest|latest", "max", "noun"),
    (r"oldest|earliest|least\s+recent(?:ly)?", "min", "noun"),
    (r"newer|more\s+recent(?:ly)?", "max", "noun"),
    (r"older|less\s+recent(?:ly)?", "min", "noun"),
    (r"later|sooner|last", "max", "event"),
    (r"earlier|first", "min", "event"),
)
_ORDER = re.compile(
    r"(?<![\w-])(?:" + "|".join(f"(?P<o{i}>{src})" for i, (src, _, _) in enumerate(_ORDER_SOURCES)) + r")(?![\w-])",
    re.I,
)
# nouns that stand for a product in time questions, beyond the catalog's categories and "models"
_RELEASE_NOUN = re.compile(r"releases?|launch(?:es)?|announcements?|line-?ups?|generations?", re.I)
_CLAUSE_END = re.compile(
    r"\s*(?:[,:;?.!)]|$|(?:with|that|which|who|from|in|by|among|amongst|of|on|for|under|over|at|and|or|to|than"
    r"|is|was|are|were|has|have|having|out|overall|ever|yet|so\s+far)\b)",
    re.I,
)
_TIME_NOUN = re.compile(
    r"\s+(?:years?|months?|weeks?|days?|quarters?|half|decades?|seasons?|spring|summer|autumn|fall|winter|time)\b",
    re.I,
)
_TOKEN = re.compile(r"\s+([\w+][\w+.-]*)")
# "the earliest year of any X", "the newest year listed": a year ranked, where "last year" is a time
_RANKS_YEARS = re.compile(r"(?:est|recent)$", re.I)  # a superlative ranks years; "last year" names one
_YEAR_ORDER = re.compile(r"\s+years?(?=\s+(?:of|among|amongst|for|in\s+which|listed|on\s+record)\b|\s*[?.,]|$)", re.I)


def _event_adjacent(q: str, lo: int, hi: int) -> re.Match[str] | None:
    """An event word at most one word before ``lo`` or after ``hi`` ("came out first", "latest release")."""
    before = list(_EVENT.finditer(q, max(0, lo - 40), lo))
    if before and re.fullmatch(r"\s+(?:\w+\s+)?", q[before[-1].end() : lo]):
        return before[-1]
    for gap in (r"\s+", r"\s+\w+\s+"):
        if (g := re.match(gap, q[hi:])) and (m := _EVENT.match(q, hi + g.end())):
            return m
    return None


def _product_word(word: str) -> bool:
    """A category of the catalog, a general product noun, or a word for a release ("launches")."""
    return bool(current().product_nouns.fullmatch(word) or _RELEASE_NOUN.fullmatch(word))


def _names_a_product(q: str, hi: int) -> bool:
    """Whether the words after an order word lead to a product ("newest zenith phone", "latest
    Galaxy?", "the oldest one") rather than to another attribute ("latest Android version")."""
    at = hi
    gap: list[str] = []
    for _ in range(5):
        if _CLAUSE_END.match(q, at):
            return all(w[0].isupper() or any(c.isdigit() for c in w) for w in gap)
        t = _TOKEN.match(q, at)
        if t is None:
            return False
        word = t.group(1)
        if _product_word(word):
            return True
        if current().attributes.fullmatch(word):
            return False
        gap.append(word)
        at = t.end()
    return False


def time_superlative(question: str) -> TimeOrder | None:
    """The ordering by date a question asks for, else ``None``: "the newest phone" (max), "which came out
    first" (min), "which is more recent, A or B" (max). Words inside a time condition ("2022 or
    later", "earlier than 2020") and "at the latest" are no ordering; "latest" before another
    attribute ("the latest Android version") is not one either.

    >>> time_superlative("Which is the newest zenith phone?")[:2], time_superlative("Which came out first, A or B?")[:2]
    (('max', ''), ('min', 'released'))
    >>> time_superlative("the most recently announced tablet")[:2]
    ('max', 'announced')
    >>> time_superlative("phones with the latest Android version"), time_superlative("released in 2022 or later")
    (None, None)
    """
    q = question
    taken = [(c.span.start, c.span.end) for c in find_dates(q)]
    for m in _ORDER.finditer(q):
        ranks_years = bool(_RANKS_YEARS.search(m.group()) and _YEAR_ORDER.match(q, m.end()))
        if (
            any(a <= m.start() < b for a, b in taken)
            or re.search(r"\bat\s+the\s+$", q[: m.start()], re.I)
            or (_TIME_NOUN.match(q, m.end()) and not ranks_years)  # "last year": a time, not an order
        ):
            continue
        _, direction, how = _ORDER_SOURCES[int((m.lastgroup or "o0")[1:])]
        adjacent = _event_adjacent(q, m.start(), m.end())
        if how == "event" and adjacent is None:
            continue
        if taken and adjacent is not None and adjacent.start() >= m.end() and not q[m.end() : adjacent.start()].strip():
            continue  # "first went on sale before 2013": an adverb of the dated event, not an order
        if how == "noun" and adjacent is None and not ranks_years and not _names_a_product(q, m.end()):
            continue
        event = _event_of(adjacent) if adjacent else (_event_of(e) if (e := _EVENT.search(q)) else "")
        return TimeOrder(direction, event, Span(m.start(), m.end(), m.group()))
    return None
