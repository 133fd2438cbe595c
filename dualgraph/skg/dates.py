"""Dates in spec values: announcement, release and end-of-life dates as typed facts.

Catalogs write dates in every form a shop or a spec sheet uses ("2021-03-15", "Released
2020, March 15", "15/03/2021", "Q3 2021", "Exp. announcement 2024, Q1"). Each date found
becomes a ``DateFact`` that covers an exact run of days (``start``..``end``) and keeps the
precision it was written at, so "released before 2021", "the newest" and "which came out
first" can be asked of a day, a month, a quarter and a year alike.

Decisions:

* Every form needs a four-digit year from 1900 to 2099, but one: a quarter with an elided
  century ("Q4'08", "Q3 '21", as chip makers print launch dates), read with the POSIX pivot
  (00-68 are 2000-2068, 69-99 are 1969-1999). Other two-digit years ("15/03/21") and a day and
  month without a year ("March 15") are not read: there the digits may be a day or a month.
* A bare year ("2020") or a numeric month ("03/2021") is a date only where the entry or
  section names a date ("Announced", "Release date", "Year") or a date word stands just
  before it in the same clause ("Launched in early 2020") or just after it ("2020
  release"). "Galaxy 2020 Edition" and "1/2000 s" are not dates; a number followed by a
  unit ("2000 mAh", "1920 x 1080") never is.
* Numeric day/month order: a value that settles it by itself is read its way ("15/03/2021"
  is day first, "03/15/2021" month first, even against ``day_first``). An ambiguous one
  ("03/04/2021") follows ``day_first``, which a caller takes from ``infer_day_first`` over
  the values beside it; with ``day_first=None`` it is read as its year, from the earlier of its
  two days to the later (2021-03-04..2021-04-03, literal "2021"), rather than guessed or dropped. Dotted
  dates get no exception ("03.04.2021" is as ambiguous as "03/04/2021"). Year-first numeric
  dates ("2021-03-15", "2021/3/5") are always year-month-day.
* A quarter keeps its exact days (Q3 2021 is 2021-07-01..2021-09-30), but its literal is the
  gYear "2021": XSD has no quarter type. Halves are no precision of their own: "Expected H2
  2021" gives the year 2021 (a bare year after a date word).
* A fact's status comes from the nearest status words before it in its clause ("Exp.
  announcement" -> expected, "Released" -> released), else a status word right after it
  ("2019 (announced)"), else the entry or section name ("Announced", "Release date"). An
  expected-word turns announced/released into expected ("Expected release Q3 2021").
  ``date_status`` gives the furthest stage a whole value names: cancelled > discontinued >
  released > announced > expected. Status words are English only.
* Month names come from dateparser's locale data (en, de, fr, es, it, pt, nl, sv, da, pl,
  ru), less abbreviations that are English or spec words too ("set", "ago", "gen", "out").
  Measured with bench/dates.py (96 values: the test cases it was built on and hand-written
  forms; a busy 2-core machine, so ranges): this spotter reads 14k-42k values/s uncached
  (~1M/s from its cache) with 96/96 right; dateparser's ``search_dates`` 90-170/s with 68/96
  (no quarters, "5000 mAh" as the year 5000, "Sep. 5, 2020" as May 2020; 317/s and 65/96
  with English alone), its ``parse`` of the whole value 240-860/s with 63/96 (only values
  that are all date); dateparser reading the spans found here 600-1400/s with 92/96 (it
  misreads "Q4/2020", "2024, Q1", "third quarter of 2021"). So dateparser serves only its
  month names; spans and fields are read here.
"""

from __future__ import annotations

import bisect
import calendar
import datetime
import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

from dualgraph.skg import ontology as O
from dualgraph.skg.quantities import unit_symbol
from dualgraph.skg.terms import iri, literal

__all__ = [
    "PRECISIONS",
    "STATUSES",
    "DateFact",
    "date_status",
    "date_terms",
    "full_year",
    "infer_day_first",
    "spot_dates",
]

PRECISIONS = ("day", "month", "quarter", "year")
STATUSES = ("announced", "released", "expected", "cancelled", "discontinued")


@dataclass(frozen=True, slots=True)
class DateFact:
    start: datetime.date  # first day the written date covers
    end: datetime.date  # last day it covers (== start for a day)
    precision: str  # "day", "month", "quarter" or "year"
    literal: str  # lexical form at the written precision: "2021-03-15", "2021-03", "2021"
    datatype: str  # XSD_DATE, XSD_GYEARMONTH or XSD_GYEAR (a quarter's literal is its year)
    status: str | None  # "announced", "released", "expected", "cancelled", "discontinued"
    start_char: int  # span of the date in the text given
    end_char: int


# One character for one, so spans found in the folded text are spans of the original.
_FOLD = str.maketrans(
    {
        "\u00a0": " ",
        "\u202f": " ",
        "\u2009": " ",
        "\u2007": " ",
        "–": "-",
        "—": "-",
        "‒": "-",
        "−": "-",
        "’": "'",
        "‘": "'",
        "／": "/",
    }
)

_ENGLISH_MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
_LOCALES = ("en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "pl", "ru")
_LOCALE_KEYS = tuple(calendar.month_name[i].lower() for i in range(1, 13))  # dateparser's keys
# Foreign abbreviations that are also English or spec words: "Gen 3", "set of 2", "out".
_NOT_MONTHS = frozenset(
    {"set", "ago", "out", "gen", "sie", "lip", "mag", "lut", "lis", "gru", "cze", "sty", "kwi", "wrz"}
)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}


def _locale_months() -> Iterator[tuple[str, int]]:
    try:
        from dateparser.languages.loader import LocaleDataLoader
    except ImportError:  # without dateparser the English table still reads every English form
        return
    loader = LocaleDataLoader()
    for code in _LOCALES:
        info = loader.get_locale(code).info
        for month, key in enumerate(_LOCALE_KEYS, 1):
            for name in info.get(key, ()):
                yield name, month


@functools.cache
def _months() -> Mapping[str, int]:
    """Casefolded month name or abbreviation -> month number; names two locales disagree on are dropped."""
    names = dict(_ENGLISH_MONTHS)
    clashes = set()
    for name, month in _locale_months():
        key = name.casefold().rstrip(".")
        if len(key) < 3 or key in _NOT_MONTHS or not key.isalpha():
            continue
        if names.setdefault(key, month) != month:
            clashes.add(key)
    for key in clashes - _ENGLISH_MONTHS.keys():
        del names[key]
    return MappingProxyType(names)


# Status words, most specific first: "not yet released" is expected, "not released" says nothing.
_STATUS_SOURCES = (
    ("expected", r"not\s+yet\s+(?:been\s+)?(?:released|announced|launched|available)"),
    ("discontinued", r"no\s+longer\s+(?:available|sold|produced|made|in\s+production)"),
    ("", r"not\s+(?:been\s+)?(?:released|announced|launched|available)"),
    (
        "expected",
        r"expected|exp\.|coming(?:\s+soon)?|upcoming|rumou?r(?:ed|s)?|planned|scheduled|anticipated|tb[ad]"
        r"|to\s+be\s+(?:announced|released|launched)|pre-?orders?",
    ),
    ("cancelled", r"cancell?ed|cancell?ation|scrapped|abandoned"),
    ("discontinued", r"discontinued|end[\s-]+of[\s-]+(?:life|sale)|eol|withdrawn|phased\s+out|out\s+of\s+production"),
    ("announced", r"announc(?:ed|ement|es|ing|e)|unveil(?:ed|s|ing)?|introduc(?:ed|tion)"),
    (
        "released",
        r"releas(?:ed|es|ing|e)|launch(?:ed|es|ing)?|available|availability|on\s+sale|ship(?:s|ped|ping)"
        r"|sales?\s+start(?:ed|s)?|first\s+sold",
    ),
)
_STATUS_ALTERNATION = "|".join(f"(?P<s{i}>{src})" for i, (_, src) in enumerate(_STATUS_SOURCES))
_WORD = r"(?<![^\W\d_])(?:{})(?![^\W\d_])"  # whole words only: "eol" is not in "Aeolus"
_STATUS = re.compile(_WORD.format(_STATUS_ALTERNATION), re.I)
# Words that make a bare year or a numeric month a date: any status word, or these.
_DATE_WORD = re.compile(
    _WORD.format(_STATUS_ALTERNATION + r"|dated?|datum|years?|jahr|année|annee|fecha|año|anno|since|manufactured"), re.I
)
_GAP = re.compile(r"[\s:,(\-]*(?:(?:[^\W\d_]+|[Hh][12]|[12][Hh])[\s:,(\-]*){0,3}")
_AFTER_STATUS = re.compile(r"[\s(\-,:]*(?=\w)", re.I)
_RANK = {"expected": 0, "announced": 1, "released": 2, "discontinued": 3, "cancelled": 4}
_BOUNDARY = re.compile(r"[;|•\n]|\.(?=\s|$)")
_LAST_WORD = re.compile(r"([^\W\d_]+)$")
_ABBREVIATIONS = frozenset({"exp", "approx", "est", "ca", "no", "nr", "vs", "incl", "e.g", "i.e", "appr", "ver"})
# a four-digit year, or a quarter with an elided century ("Q4'08"): every form holds one of them
_ANY_YEAR = re.compile(r"(?<![0-9])(?:19|20)[0-9]{2}(?![0-9])|Q[1-4]\s*['’][0-9]{2}(?![0-9])", re.I)
_SMALL_WORDS = frozenset({"in", "at", "a", "an", "as", "on", "and", "or", "to", "by", "for", "of", "the", "from"})
_VERB_NEXT = re.compile(r"\s+[^\W\d_]")
_UNNAMED = re.compile(r"\(\?P<\w+>")
_NEXT_WORD = re.compile(r"\s*([^\W\d_][\w/]*)")


def _statuses(text: str) -> list[str]:
    """Status words in reading order; a negated one ("not released") is dropped."""
    return [status for m in _STATUS.finditer(text) if (status := _status_word(m))]


def _status_word(m: re.Match[str]) -> str:
    """The status a match of _STATUS names; "" for a negated word."""
    return _STATUS_SOURCES[int((m.lastgroup or "s0")[1:])][0]


def _pick(words: list[str]) -> str | None:
    """The status that a run of status words gives the date after it: the nearest one,
    except that an expected-word makes an announcement or release a plan."""
    if not words:
        return None
    last = words[-1]
    return "expected" if last in ("announced", "released") and "expected" in words else last


# --------------------------------------------------------------------------- forms


class _Forms(NamedTuple):
    any: re.Pattern[str]  # the union, to find where a date may start
    digit: tuple[tuple[str, re.Pattern[str]], ...]  # tried in order at a start on a digit
    letter: tuple[tuple[str, re.Pattern[str]], ...]  # ... and on a letter


@functools.cache
def _patterns() -> _Forms:
    names = sorted(_months(), key=len, reverse=True)  # longest first: "september" before "sep"
    mon = "|".join(re.escape(n) for n in names)
    y = r"(?P<y>(?:19|20)[0-9]{2})"
    end = r"(?![0-9]|[-/.,][0-9])"
    left = r"(?<![\w.,/-])"  # not glued to a word, a number or a version ("S10", "5.2021")
    m = rf"(?P<mon>{mon})(?![^\W\d_])\.?"
    d = r"(?P<d>[0-3]?[0-9])(?:st|nd|rd|th)?(?!\w|[.,:][0-9])"
    sources = (
        ("iso_ymd", rf"{left}{y}(?P<s1>[-/.])(?P<m>[0-9]{{1,2}})(?P<s2>[-/.])(?P<d>[0-9]{{1,2}}){end}"),
        ("iso_ym", rf"{left}{y}-(?P<m>0[1-9]|1[0-2]){end}"),
        ("y_q", rf"{left}{y}\s*[-/,]?\s*Q(?P<q>[1-4])(?!\w)"),
        ("y_m_d", rf"{left}{y}(?:\s*[,/-]\s*|\s+){m}[\s/-]*{d}"),
        ("y_m", rf"{left}{y}(?:\s*[,/-]\s*|\s+){m}"),
        ("m_d_y", rf"(?<![^\W\d_]){m}[\s/-]*{d}(?:\s*[,/-]\s*|\s+){y}{end}"),
        ("m_y", rf"(?<![^\W\d_]){m}[\s,/'-]*(?:of\s+)?{y}{end}"),
        ("d_m_y", rf"{left}{d}(?:\s*[-./]\s*|\s+)(?:of\s+)?{m}[\s,./-]*{y}{end}"),
        ("num", rf"{left}(?P<a>[0-9]{{1,2}})(?P<s1>[-/.])(?P<b>[0-9]{{1,2}})(?P<s2>[-/.]){y}{end}"),
        (
            "q_y",
            r"(?<![\w.])(?:Q(?P<q>[1-4])|(?P<q2>[1-4])Q|(?P<qw>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter"
            rf"(?:\s+of)?)\s*[-/,']?\s*{y}{end}",
        ),
        ("q_yy", r"(?<![\w.])Q(?P<q>[1-4])\s*'(?P<yy>[0-9]{2})(?![0-9])"),
        ("num_my", rf"{left}(?P<m>0?[1-9]|1[0-2])[/.-]{y}{end}"),
        ("year", rf"(?<![\w.,/$€£¥₹#+])(?<![0-9]-){y}(?![\w%°'\"]|[.,/-][0-9])"),
    )
    forms = [(name, re.compile(src, re.I)) for name, src in sources]
    # The finder takes any word for a month name: one alternation of 200 names tried at
    # every position costs more than the forms tried where a word stands next to a year.
    finder = (_UNNAMED.sub("(?:", src.replace(f"(?P<mon>{mon})", r"[^\W\d_]{3,15}")) for _, src in sources)
    union = "|".join(f"(?:{src})" for src in finder)
    return _Forms(
        re.compile(union, re.I),
        tuple((n, rx) for n, rx in forms if n not in ("m_d_y", "m_y")),
        tuple((n, rx) for n, rx in forms if n in ("m_d_y", "m_y", "q_y", "q_yy")),
    )


class _Hit(NamedTuple):
    start: datetime.date
    end: datetime.date
    precision: str
    literal: str
    datatype: str
    lo: int
    hi: int


def _valid(y: int, m: int, d: int) -> datetime.date | None:
    try:
        return datetime.date(y, m, d)
    except ValueError:
        return None


def _span(y: int, first: int, last: int, precision: str, lo: int, hi: int) -> _Hit:
    """The months first..last of year y as one hit at ``precision`` (month, quarter or year)."""
    start = datetime.date(y, first, 1)
    end = datetime.date(y, last, calendar.monthrange(y, last)[1])
    if precision == "month":
        return _Hit(start, end, precision, f"{y:04d}-{first:02d}", O.XSD_GYEARMONTH, lo, hi)
    return _Hit(start, end, precision, f"{y:04d}", O.XSD_GYEAR, lo, hi)


def _day(day: datetime.date | None, lo: int, hi: int) -> _Hit | None:
    return None if day is None else _Hit(day, day, "day", day.isoformat(), O.XSD_DATE, lo, hi)


def _order(a: int, b: int, y: int, day_first: bool | None) -> datetime.date | None:
    """A numeric a/b/year date: whichever reading alone is a real day, else ``day_first``'s."""
    as_day_first, as_month_first = _valid(y, b, a), _valid(y, a, b)
    if as_day_first is None or as_month_first is None or a == b:
        return as_day_first or as_month_first
    return None if day_first is None else as_day_first if day_first else as_month_first


def _both(a: int, b: int, y: int) -> tuple[datetime.date, datetime.date] | None:
    """The two days an a/b/year date may be, earlier first, when both are real days."""
    days = sorted(d for d in (_valid(y, b, a), _valid(y, a, b)) if d is not None)
    return (days[0], days[-1]) if len(days) == 2 else None


class _Text:
    """One folded value with its clause starts, for the context and status look-ups."""

    def __init__(self, text: str) -> None:
        self.s = text.translate(_FOLD)
        self.cuts = [0]
        for m in _BOUNDARY.finditer(self.s):
            if m.group() == "." and (w := _LAST_WORD.search(self.s, max(0, m.start() - 12), m.start())):
                word = w.group().casefold()
                if word in _ABBREVIATIONS or word in _months():  # "Exp. release", "Sep. 5"
                    continue
            self.cuts.append(m.end())

    def clause_start(self, pos: int) -> int:
        return self.cuts[bisect.bisect_right(self.cuts, pos) - 1]

    @functools.cached_property
    def _word_spans(self) -> tuple[list[int], list[int]]:
        # every date word once, so each year looks its word up by bisection, not by a rescan of
        # its clause (a value of many bare years was quadratic)
        spans = [m.span() for m in _DATE_WORD.finditer(self.s)]
        return [a for a, _ in spans], [b for _, b in spans]

    def dated_by_words(self, lo: int, hi: int) -> bool:
        """Whether a date word stands just before lo in its clause, or right after hi ("2020 release")."""
        starts, ends = self._word_spans
        last = bisect.bisect_right(ends, lo) - 1
        if last >= 0 and starts[last] >= self.clause_start(lo) and _GAP.fullmatch(self.s, ends[last], lo):
            return True
        return (m := _AFTER_STATUS.match(self.s, hi)) is not None and _DATE_WORD.match(self.s, m.end()) is not None

    def unit_follows(self, hi: int) -> bool:
        m = _NEXT_WORD.match(self.s, hi)
        return m is not None and m.group(1).casefold() not in _SMALL_WORDS and unit_symbol(m.group(1)) is not None


def full_year(yy: int) -> int:
    """A year written by its last two digits, with the POSIX pivot: 00-68 are 2000-2068, 69-99 are
    1969-1999 ("Q4'08", "announced in '24", "'99").

    >>> full_year(8), full_year(68), full_year(69), full_year(99)
    (2008, 2068, 1969, 1999)
    """
    return 2000 + yy if yy < 69 else 1900 + yy


def _read(form: str, m: re.Match[str], t: _Text, dated: bool, day_first: bool | None) -> _Hit | None:
    lo, hi = m.span()
    if form == "q_yy":
        return _span(full_year(int(m["yy"])), 3 * int(m["q"]) - 2, 3 * int(m["q"]), "quarter", lo, hi)
    y = int(m["y"])
    if form in ("year", "num_my"):
        if t.unit_follows(hi) or not (dated or t.dated_by_words(lo, hi)):
            return None
        return (
            _span(y, 1, 12, "year", lo, hi) if form == "year" else _span(y, int(m["m"]), int(m["m"]), "month", lo, hi)
        )
    if form in ("y_q", "q_y"):
        q = int(m["q"] or m["q2"]) if form == "y_q" or not m["qw"] else _QUARTER_WORDS[m["qw"].lower()]
        return _span(y, 3 * q - 2, 3 * q, "quarter", lo, hi)
    if form == "iso_ymd":
        return _day(_valid(y, int(m["m"]), int(m["d"])), lo, hi) if m["s1"] == m["s2"] else None
    if form == "iso_ym":
        return _span(y, int(m["m"]), int(m["m"]), "month", lo, hi)
    if form == "num":
        if m["s1"] != m["s2"]:
            return None
        a, b = int(m["a"]), int(m["b"])
        if (day := _order(a, b, y, day_first)) is None and (both := _both(a, b, y)) is not None:
            # neither the value nor its document settles the order: the date is one of two days of
            # that year, kept as the span between them (a year, not a guessed day)
            return _Hit(both[0], both[1], "year", f"{y:04d}", O.XSD_GYEAR, lo, hi)
        return _day(day, lo, hi)
    month = _months()[m["mon"].casefold()]
    if form in ("y_m", "m_y"):
        if form == "y_m" and m["mon"] == "may" and _VERB_NEXT.match(t.s, hi):  # "2020 may vary": a verb
            return None
        return _span(y, month, month, "month", lo, hi)
    return _day(_valid(y, month, int(m["d"])), lo, hi)


@functools.lru_cache(maxsize=1024)
def _context(entry: str | None, section: str | None) -> tuple[bool, str | None]:
    """(whether the names say the value is a date, the status they imply)."""
    names = [n for n in (entry, section) if n]
    dated = any(_DATE_WORD.search(n) for n in names)
    status = next((s for n in names if (s := _pick(_statuses(n)))), None)
    return dated, status


def _hits(t: _Text, dated: bool, day_first: bool | None) -> list[_Hit]:
    pats, hits, pos = _patterns(), [], 0
    while (found := pats.any.search(t.s, pos)) is not None:
        at = found.start()
        hit = None
        for form, rx in pats.digit if t.s[at].isdigit() else pats.letter:
            # Later forms get their turn when an earlier one matches but does not read
            # ("2021, April 31" is still April 2021).
            if (m := rx.match(t.s, at)) is not None and (hit := _read(form, m, t, dated, day_first)) is not None:
                break
        if hit is None:
            pos = at + 1
            continue
        hits.append(hit)
        pos = hit.hi
    return hits


def _status_of(t: _Text, hits: list[_Hit], i: int, fallback: str | None) -> str | None:
    hit, clause = hits[i], t.clause_start(hits[i].lo)
    seg = max(clause, hits[i - 1].hi if i else 0)
    if status := _pick(_statuses(t.s[seg : hit.lo])) or _pick(_statuses(t.s[clause : hit.lo])):
        return status
    # A status word right after the date, before the next date or clause: "2019 (announced)".
    nxt = min([c for c in t.cuts if c > hit.hi] + [hits[i + 1].lo if i + 1 < len(hits) else len(t.s)])
    if (m := _AFTER_STATUS.match(t.s, hit.hi, nxt)) and (s := _STATUS.match(t.s, m.end(), nxt)):
        return _status_word(s) or fallback
    return fallback


@functools.lru_cache(maxsize=1 << 16)
def _spot(text: str, entry: str | None, section: str | None, day_first: bool | None) -> tuple[DateFact, ...]:
    if not _ANY_YEAR.search(text):  # every form holds a 4-digit year: most values stop here
        return ()
    t = _Text(text)
    dated, fallback = _context(entry, section)
    hits = _hits(t, dated, day_first)
    return tuple(
        DateFact(h.start, h.end, h.precision, h.literal, h.datatype, _status_of(t, hits, i, fallback), h.lo, h.hi)
        for i, h in enumerate(hits)
    )


def spot_dates(
    text: str, *, entry: str | None = None, section: str | None = None, day_first: bool | None = None
) -> list[DateFact]:
    """Every date in a value, wherever it stands, with the status words next to it.

    ``entry``/``section`` (the spec's names) let a bare year be a date and give a status
    when the value has none of its own; ``day_first`` settles ambiguous numeric dates
    (None: they are not read). Facts without a date are not returned: see ``date_status``.

    >>> [(f.literal, f.precision, f.status) for f in spot_dates("Announced 2019, September 10. Released 2019, September 20")]
    [('2019-09-10', 'day', 'announced'), ('2019-09-20', 'day', 'released')]
    >>> f = spot_dates("Exp. announcement 2024, Q1")[0]
    >>> f.start, f.end, f.precision, f.literal, f.status
    (datetime.date(2024, 1, 1), datetime.date(2024, 3, 31), 'quarter', '2024', 'expected')
    >>> [f.literal for f in spot_dates("2020", entry="Year")], spot_dates("Galaxy 2020 Edition")
    (['2020'], [])
    >>> [(f.start, f.end, f.literal) for f in spot_dates("03/04/2021")], spot_dates("03/04/2021", day_first=True)[0].start
    ([(datetime.date(2021, 3, 4), datetime.date(2021, 4, 3), '2021')], datetime.date(2021, 4, 3))
    >>> [(f.start, f.precision) for f in spot_dates("Q4'08")], spot_dates("15/03/21")
    ([(datetime.date(2008, 10, 1), 'quarter')], [])
    """
    return list(_spot(text, entry, section, day_first))


@functools.lru_cache(maxsize=1 << 14)
def _value_status(text: str, entry: str | None) -> str | None:
    t = _Text(text)
    dated, fallback = _context(entry, None)
    hits = _hits(t, dated, None) if _ANY_YEAR.search(text) else []
    # Each stretch between clause ends and dates is read on its own, so "Announced 2023,
    # expected release 2024" is announced (the plan belongs to the release only).
    cuts = sorted({*t.cuts, *(h.hi for h in hits), len(t.s)})
    found = [s for a, b in zip(cuts, cuts[1:]) if (s := _pick(_statuses(t.s[a:b])))]
    if found:
        return max(found, key=_RANK.__getitem__)
    return fallback if hits else None


def date_status(text: str, entry: str | None = None) -> str | None:
    """The lifecycle status a whole value states: the furthest stage it names.

    Order: cancelled > discontinued > released > announced > expected. Without status words
    a value with a date takes the entry's ("Announced"); one without a date gives None.

    >>> date_status("Discontinued"), date_status("Coming soon"), date_status("Cancelled")
    ('discontinued', 'expected', 'cancelled')
    >>> date_status("Available. Released 2020, March 15"), date_status("2019, September 10", entry="Announced")
    ('released', 'announced')
    >>> date_status("Announced 2023, expected release 2024, Q2"), date_status("No", entry="Discontinued")
    ('announced', None)
    """
    return _value_status(text, entry)


@functools.lru_cache(maxsize=1 << 14)
def _numeric_orders(value: str) -> tuple[bool, ...]:
    """For each numeric a/b/year date in a value that only one order reads: True if day first."""
    return tuple(_orders(value)) if _DIGIT_RUN.search(value) else ()


def _orders(value: str) -> Iterator[bool]:
    rx = dict(_patterns().digit)["num"]
    s = value.translate(_FOLD)
    for m in rx.finditer(s):
        a, b, y = int(m["a"]), int(m["b"]), int(m["y"])
        as_day_first, as_month_first = _valid(y, b, a), _valid(y, a, b)
        if m["s1"] == m["s2"] and (as_day_first is None) != (as_month_first is None):
            yield as_day_first is not None


_DIGIT_RUN = re.compile(r"\d[/.\-]\d|\d[/.\-]\s?\d")


def infer_day_first(values: Iterable[str]) -> bool | None:
    """A catalog's numeric date order, from its values that settle it ("15/03/2021").

    Every such value votes (repeats count); the order wins with at least four votes in
    five, else (no votes, or a mixed catalog) None, and ambiguous dates stay unread.

    >>> infer_day_first(["15/03/2021", "03/04/2021", "Released 28.02.2020"])
    True
    >>> infer_day_first(["03/15/2021", "12/31/2020"]), infer_day_first(["03/04/2021", "Q3 2021"])
    (False, None)
    >>> infer_day_first(["15/03/2021", "03/15/2021"]) is None
    True
    """
    votes: Counter[bool] = Counter()
    for value, n in Counter(values).items():
        for first_is_day in _numeric_orders(value):
            votes[first_is_day] += n
    day, month = votes[True], votes[False]
    if day + month == 0 or max(day, month) * 5 < (day + month) * 4:
        return None
    return day > month


def _typed(lexical: str, datatype: str) -> str:
    return literal(lexical) + "^^" + iri(datatype)


def date_terms(fact: DateFact) -> list[tuple[str, str]]:
    """(predicate IRI, N-Triples object) pairs describing a date node.

    The value at its written precision, the first and last day as xsd:date (so dates of any
    precision compare), the precision, and the status when there is one.

    >>> for p, o in date_terms(spot_dates("Launched March 2020")[0]):
    ...     print(p.rpartition("#")[2], o)
    hasDateValue "2020-03"^^<http://www.w3.org/2001/XMLSchema#gYearMonth>
    hasDateStart "2020-03-01"^^<http://www.w3.org/2001/XMLSchema#date>
    hasDateEnd "2020-03-31"^^<http://www.w3.org/2001/XMLSchema#date>
    hasPrecision "month"
    hasDateStatus "released"
    """
    terms = [
        (O.HAS_DATE_VALUE, _typed(fact.literal, fact.datatype)),
        (O.HAS_DATE_START, _typed(fact.start.isoformat(), O.XSD_DATE)),
        (O.HAS_DATE_END, _typed(fact.end.isoformat(), O.XSD_DATE)),
        (O.HAS_PRECISION, literal(fact.precision)),
    ]
    if fact.status:
        terms.append((O.HAS_DATE_STATUS, literal(fact.status)))
    return terms
