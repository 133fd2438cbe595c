"""Grounding time: a :class:`~dualgraph.query.read.dates.DateConstraint` becomes a block over the
product's dated specs with FILTERs on their days; "newest"/"oldest"/"which came first" becomes
an ordering value.

The SKG keeps every date read from a spec value as a node (:mod:`dualgraph.skg.dates`)::

    ?p skg:hasSpec ?s . ?s skg:inEntry ?e ; skg:hasDate ?d .
    ?d skg:hasDateStart ?ds ; skg:hasDateEnd ?de ; skg:hasDateStatus "released" .

Which dates count (decisions):

* **By status, not by entry name.** Each date node already carries the status its own words or
  its entry's name give ("Released 2023, March 14", "Exp. announcement 2024, Q1", an entry
  "Announced"), so the question's event picks statuses: released → released dates,
  announced → announced dates, expected → expected, discontinued → discontinued.
* **Per product, in tiers.** A question with no event word prefers a release date, then an
  announcement date, then a date without a status: each product uses its release dates if it
  has any, else its announcement dates, else its status-less ones (``FILTER NOT EXISTS`` on the
  earlier tiers). "released in 2023" never matches a product only *announced* or *expected* in
  2023; a product with no release date may still match through a status-less date.
* **Status-less dates** only count from entries whose names speak of a year or a date ("Year",
  "Model year", "Date") and of nothing else (not "Support end date", "Warranty expiry", "Date of
  manufacture"): the catalog is asked which entries hold dates (:func:`date_entries`).
* **Fallback.** When the catalog has no date of the event's status, the tiers of a question with
  no event word are used (confidence 0.5, said in the trace); with none of those either, any
  date at all (0.4). A catalog with no dates leaves the constraint unresolved.
* A product with several matching dates (released in two markets) matches when any of them
  satisfies the condition; a product without a date never does.

Each block binds the date node ``{s}_d``; a constraint reads its first and last day into
``{v}``/``{v}_end`` (xsd:date, so any precision compares) and filters them; an ordering binds
``{v}`` to the first day as a sortable number (``yyyymmdd``: the answer reader compares values as
numbers). ``{s}_e``, ``{s}_x``, ``{s}_y`` are helper variables, unique per block like ``{s}``.
"""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass
from typing import Any

from dualgraph.query.ground.base import Grounding, GroundingContext, literal, unresolved
from dualgraph.query.read.dates import DateConstraint

__all__ = [
    "DateEntry",
    "DateGrounder",
    "DatePlan",
    "choose_dates",
    "date_attribute",
    "date_entries",
    "date_filters",
    "ground_date",
    "named_dates",
]

_TIERS: dict[str, tuple[str | None, ...]] = {  # statuses a question's event accepts, best first
    "": ("released", "announced", None),
    "released": ("released", None),
    "announced": ("announced", None),
    "expected": ("expected",),
    "discontinued": ("discontinued",),
}
_DATE_NAME = re.compile(r"\b(?:years?|dates?|dated|when)\b", re.I)
_OTHER_DATE = re.compile(
    r"end|expir|warrant|support|update|until|valid|eol|discontinu|purchase|deliver|manufactur|production|batch"
    r"|service|patch|security|last|test|certif|warranty|renew|subscription",
    re.I,
)


@dataclass(frozen=True, slots=True)
class DateEntry:
    """One entry holding dates of one status (``None``: dates without a status), in ``products`` products."""

    entry_iri: str
    entry: str
    section: str
    status: str | None
    products: int

    @property
    def label(self) -> str:
        return f"{self.section} › {self.entry}" if self.section else self.entry


@dataclass(frozen=True, slots=True)
class _Tier:
    status: str | None  # the status its dates carry; None: no status, from ``entries`` only
    entries: tuple[str, ...] = ()
    anything: bool = False  # the last resort: every date
    named: bool = False  # the dates of ``entries``, whatever their status: the question named them


@dataclass(frozen=True, slots=True)
class DatePlan:
    """Which dates a product's condition is read from: ``tiers`` best first, each product using the first it has."""

    tiers: tuple[_Tier, ...]
    confidence: float
    note: str


def date_entries(store: Any) -> list[DateEntry]:
    """The catalog's entries that hold dates, per status, with how many products have them."""
    # counted first, named after: OPTIONAL names inside the aggregate were joined for every
    # dated spec (4.5 s on a 10,000-product catalog, against 0.5 s)
    res = store.select(
        "SELECT ?e ?en ?sn ?st ?n WHERE { { SELECT ?e ?st (COUNT(DISTINCT ?p) AS ?n) WHERE { "
        "?s skg:hasDate ?d . ?s skg:inEntry ?e . ?p skg:hasSpec ?s . OPTIONAL { ?d skg:hasDateStatus ?st } } "
        "GROUP BY ?e ?st } OPTIONAL { ?e skg:hasName ?en } OPTIONAL { ?e skg:inSection/skg:hasName ?sn } }"
    )
    out = [
        DateEntry(
            b["e"]["value"],
            b.get("en", {}).get("value", ""),
            b.get("sn", {}).get("value", ""),
            b["st"]["value"] if "st" in b else None,
            int(b["n"]["value"]),
        )
        for b in res["results"]["bindings"]
    ]
    return sorted(out, key=lambda d: (-d.products, d.entry_iri, d.status or ""))


def _names_a_date(d: DateEntry) -> bool:
    """Whether a status-less entry's names say the product's own date ("Year", "Model year", "Date")."""
    names = f"{d.section} {d.entry}"
    return bool(_DATE_NAME.search(names)) and not _OTHER_DATE.search(names)


def _tiers(entries: list[DateEntry], statuses: tuple[str | None, ...]) -> list[_Tier]:
    out = []
    for st in statuses:
        if st is not None and any(d.status == st for d in entries):
            out.append(_Tier(st))
        elif st is None and (iris := sorted({d.entry_iri for d in entries if d.status is None and _names_a_date(d)})):
            out.append(_Tier(None, tuple(iris)))
    return out


def choose_dates(entries: list[DateEntry], event: str) -> DatePlan | None:
    """The dates a question about ``event`` ("" = none named) reads; ``None`` when the catalog has no date.

    >>> es = [DateEntry("e1", "Announced", "Launch", "announced", 3), DateEntry("e2", "Year", "", None, 2)]
    >>> [(t.status, t.entries) for t in choose_dates(es, "").tiers]
    [('announced', ()), (None, ('e2',))]
    >>> p = choose_dates(es, "discontinued"); [t.status for t in p.tiers], p.confidence
    (['announced', None], 0.5)
    """
    if not entries:
        return None
    wanted = _TIERS.get(event, _TIERS[""])
    if tiers := _tiers(entries, wanted):
        exact = tiers[0].status == wanted[0]
        return DatePlan(tuple(tiers), 0.85 if exact and event else 0.8 if exact else 0.7, "")
    if event and (tiers := _tiers(entries, _TIERS[""])):
        return DatePlan(tuple(tiers), 0.5, f"no {event} dates in the catalog: any release or announcement date")
    return DatePlan((_Tier(None, anything=True),), 0.4, "none of the catalog's dates fits: any date")


def _branch(tier: _Tier, earlier: list[str]) -> str:
    if tier.anything:
        return "?p skg:hasSpec {s} . {s} skg:hasDate {s}_d ."
    if tier.named:
        iris = " ".join(f"<{e}>" for e in tier.entries)
        return f"VALUES {{s}}_e {{ {iris} }} ?p skg:hasSpec {{s}} . {{s}} skg:inEntry {{s}}_e ; skg:hasDate {{s}}_d ."
    if tier.status is not None:
        parts = ["?p skg:hasSpec {s} . {s} skg:hasDate {s}_d . {s}_d skg:hasDateStatus " + literal(tier.status) + " ."]
    else:
        iris = " ".join(f"<{e}>" for e in tier.entries)
        parts = [
            f"VALUES {{s}}_e {{ {iris} }} ?p skg:hasSpec {{s}} . {{s}} skg:inEntry {{s}}_e ; skg:hasDate {{s}}_d .",
            "FILTER NOT EXISTS { {s}_d skg:hasDateStatus {s}_x }",
        ]
    if len(earlier) == 1:  # the product has no date of a better tier
        parts.append(f"FILTER NOT EXISTS {{ ?p skg:hasSpec/skg:hasDate/skg:hasDateStatus {literal(earlier[0])} }}")
    elif earlier:
        among = ", ".join(literal(s) for s in earlier)
        parts.append(
            f"FILTER NOT EXISTS {{ ?p skg:hasSpec/skg:hasDate/skg:hasDateStatus {{s}}_y . FILTER({{s}}_y IN ({among})) }}"
        )
    return " ".join(parts)


def _date_node(plan: DatePlan) -> str:
    """SPARQL binding ``{s}_d`` to each date the plan reads for ``?p``.

    >>> print(_date_node(DatePlan((_Tier("released"), _Tier(None, ("e2",))), 0.8, "")))
    { ?p skg:hasSpec {s} . {s} skg:hasDate {s}_d . {s}_d skg:hasDateStatus "released" . }
    UNION { VALUES {s}_e { <e2> } ?p skg:hasSpec {s} . {s} skg:inEntry {s}_e ; skg:hasDate {s}_d . FILTER NOT EXISTS { {s}_d skg:hasDateStatus {s}_x } FILTER NOT EXISTS { ?p skg:hasSpec/skg:hasDate/skg:hasDateStatus "released" } }
    """
    statuses = [t.status for t in plan.tiers if t.status is not None]
    branches = [
        _branch(t, statuses[: sum(1 for u in plan.tiers[:i] if u.status is not None)]) for i, t in enumerate(plan.tiers)
    ]
    if len(branches) == 1:
        return branches[0]
    return "\nUNION ".join(f"{{ {b} }}" for b in branches)


def _day(d: datetime.date) -> str:
    return f'"{d.isoformat()}"^^xsd:date'


def date_filters(c: DateConstraint) -> list[str]:
    """FILTERs over a date's first day ``{v}`` and last day ``{v}_end`` (see :mod:`~dualgraph.query.read.dates`).

    >>> from dualgraph.query.read.dates import find_dates
    >>> date_filters(find_dates("released in 2023")[0])
    ['{v} >= "2023-01-01"^^xsd:date', '{v}_end <= "2023-12-31"^^xsd:date']
    >>> date_filters(find_dates("after June 2023")[0]), date_filters(find_dates("before 2022")[0])
    (['{v} > "2023-06-30"^^xsd:date'], ['{v}_end < "2022-01-01"^^xsd:date'])
    """
    if c.op in ("in", "between"):
        return [f"{{v}} >= {_day(c.start)}", f"{{v}}_end <= {_day(c.end)}"]
    return {
        "<": [f"{{v}}_end < {_day(c.start)}"],
        ">": [f"{{v}} > {_day(c.end)}"],
        ">=": [f"{{v}} >= {_day(c.start)}"],
        "<=": [f"{{v}}_end <= {_day(c.end)}"],
    }[c.op]


def _describe(plan: DatePlan, entries: list[DateEntry]) -> str:
    parts = []
    for t in plan.tiers:
        if t.anything:
            parts.append("any date")
            continue
        if t.named:
            parts.append(f"dates of {', '.join(dict.fromkeys(d.label for d in entries if d.entry_iri in t.entries))}")
            continue
        held = [d for d in entries if (d.status == t.status and d.status is not None) or d.entry_iri in t.entries]
        where = ", ".join(dict.fromkeys(d.label for d in held))
        parts.append(f"{t.status or 'status-less'} dates ({where})")
    return " else ".join(parts) + (f"; {plan.note}" if plan.note else "")


def named_dates(entries: list[DateEntry], word: str) -> DatePlan | None:
    """The dates of the entries ``word`` names ("certified" → "Date Certified"), whatever their
    status; ``None`` when it names none. The entry's own name decides, past its words for a date
    ("Date", "Year"); a section name only where no entry name does ("Certification" holds both
    "Date Certified" and "Date Available On Market").

    >>> es = [DateEntry("e1", "Date Certified", "Certification", None, 9),
    ...       DateEntry("e2", "Date Available On Market", "Certification", "released", 9)]
    >>> named_dates(es, "certified").tiers[0].entries, named_dates(es, "sold")
    (('e1',), None)
    """
    key = _word_stem(word)
    if len(key) < 4:
        return None
    for part in ("entry", "section"):
        iris = sorted({d.entry_iri for d in entries if any(_same_stem(key, w) for w in _name_words(getattr(d, part)))})
        if iris:
            return DatePlan((_Tier(None, tuple(iris), named=True),), 0.85, "")
    return None


def _name_words(name: str) -> list[str]:
    return [_word_stem(w) for w in re.findall(r"[^\W\d_]+", name) if not _DATE_NAME.fullmatch(w)]


def _word_stem(word: str) -> str:
    return re.sub(r"(?:ied|ies|ed|ing|ion|s)$", "", word.casefold())


def _same_stem(a: str, b: str) -> bool:
    """ "certifi" (certified) and "certificat" (certification) share a stem: one starts the other, or
    both start with the same six letters and more."""
    short = min(len(a), len(b))
    return short >= 4 and (a.startswith(b) or b.startswith(a) or (short >= 6 and a[:6] == b[:6]))


def ground_date(c: DateConstraint, entries: list[DateEntry], trace: list[str]) -> Grounding:
    """The block and FILTERs for one time condition over the catalog whose dated entries are ``entries``;
    an entry the word before it names ("certified in 2020": "Date Certified") is read alone, when the
    question names no lifecycle event."""
    # a lifecycle word ("released", "announced") is read by the dates' statuses, which know more than
    # an entry's name (an "Announced" entry may hold "Released 2021, March")
    word = c.word_span.text if c.word_span and not c.event else ""
    plan = named_dates(entries, word) if word else None
    covers = [word] if plan is not None else []
    plan = plan or choose_dates(entries, c.event)
    if plan is None:
        return unresolved(c, "date", "the catalog holds no dates", trace)
    snippet = _date_node(plan) + "\n{s}_d skg:hasDateStart {v} ; skg:hasDateEnd {v}_end ."
    said = f"{word!r} names its entry" if covers else c.event or "no event named"
    trace.append(f"date {c.span.text!r} ({said}, {c.op} {c.start}..{c.end}) → {_describe(plan, entries)}")
    return Grounding(
        c, "date", snippet=snippet, filters=date_filters(c), confidence=plan.confidence, note=plan.note, covers=covers
    )


def date_attribute(entries: list[DateEntry], event: str, trace: list[str], source: Any = None) -> Grounding:
    """The ordering value of "newest"/"oldest"/"which came first": ``{v}`` is the first day of each date the
    plan reads, as the number ``yyyymmdd`` (the compiler aggregates ``MAX``/``MIN`` per product)."""
    plan = choose_dates(entries, event)
    if plan is None:
        return unresolved(source, "attribute", "the catalog holds no dates to order by", trace)
    snippet = (
        _date_node(plan) + "\n{s}_d skg:hasDateStart {v}_day ."
        " BIND(YEAR({v}_day) * 10000 + MONTH({v}_day) * 100 + DAY({v}_day) AS {v})"
    )
    trace.append(f"order by date ({event or 'no event named'}) → {_describe(plan, entries)}")
    return Grounding(source, "attribute", snippet=snippet, confidence=plan.confidence, note=plan.note)


class DateGrounder:
    """Grounds time conditions and orderings by date; the catalog's dated entries are asked once."""

    def __init__(self, ctx: GroundingContext) -> None:
        self.ctx = ctx

    @functools.cached_property
    def dated_entries(self) -> list[DateEntry]:
        return date_entries(self.ctx.store)

    def date(self, c: DateConstraint, trace: list[str]) -> Grounding:
        return ground_date(c, self.dated_entries, trace)

    def date_order(self, event: str, trace: list[str], source: Any = None) -> Grounding:
        return date_attribute(self.dated_entries, event, trace, source)
