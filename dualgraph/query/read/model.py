"""What the question parser produces: an intent and one constraint per clause, each with the
exact span of the question it came from (so grounding and ``--explain`` can point at it)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Literal

Op = Literal["<", "<=", ">", ">=", "=", "between"]
Direction = Literal["max", "min"]
DateOp = Literal["in", "<", ">", ">=", "<=", "between"]


@dataclass(frozen=True, slots=True)
class Span:
    """Characters ``start:end`` of the question."""

    start: int
    end: int
    text: str


@dataclass(slots=True)
class NumericConstraint:
    """``<attribute> <op> <number> [unit]``, e.g. "at least 8GB of RAM", "under ₹20k", "between 300 and 400".

    ``value``/``high`` are in ``unit`` (canonical, as :mod:`dualgraph.skg.quantities` stores
    numbers), or raw when the question gave no unit. ``attribute``: the words that name
    what is measured ("RAM", "battery", "price", "display"), or "" when only the unit says.
    """

    span: Span
    op: Op
    value: float
    high: float | None = None
    unit: str | None = None
    dimension: str | None = None
    attribute: str = ""


@dataclass(slots=True)
class FeatureConstraint:
    """A yes/no property: "5G", "wireless charging", "no NFC", "4G only" (``only`` = exclusive)."""

    span: Span
    phrase: str
    negated: bool = False
    only: bool = False
    context: str = ""
    """The phrase with the plain words that follow it ("infrared" → "infrared remote blaster"):
    what the pages' prose is matched by, where the specs know the short name."""


@dataclass(slots=True)
class ValueConstraint:
    """A categorical value named in the question: "Dynamic AMOLED 2X", "Snapdragon 8 Elite", "Wi-Fi 7"."""

    span: Span
    phrase: str
    attribute: str = ""
    negated: bool = False
    only: bool = False
    """ "sold only in Canada", "Canada only": the products hold this value and no other of its entry."""


@dataclass(slots=True)
class EntityRef:
    """A named product, range, series, brand or category: "Galaxy S25", "Flip 7", "A series", "phones"."""

    span: Span
    phrase: str
    kind: Literal["product", "range", "brand", "category", "phrase", "unknown"] = "unknown"
    """``phrase``: words two product names or more hold in a row ("corner sofas"), a name filter."""
    negated: bool = False
    """Left out by the question ("anything but Sony", "Canon apart"): the products must not be it."""


@dataclass(slots=True)
class DateConstraint:
    """A product's date (of ``event``; "" = any) relates to the period ``start``..``end`` by ``op``
    (see :mod:`dualgraph.query.read.dates`): "released in 2023", "announced before June 2022".

    ``span``: the time expression with its preposition and trailer ("before June 2023", "between
    2021 and 2023", "2022 or later"); ``event_span``: where the event word stands, if anywhere.
    """

    span: Span
    op: DateOp
    start: datetime.date
    end: datetime.date
    event: str = ""
    event_span: Span | None = None
    word_span: Span | None = None
    """The content word right before the time expression ("*certified* in 2020", "*registered*
    before 2019"): the catalog may hold a date entry it names, whatever the event words know."""


Constraint = NumericConstraint | FeatureConstraint | ValueConstraint | DateConstraint


@dataclass(slots=True)
class Intent:
    """What kind of answer is wanted.

    ``kind``: list, count, superlative (``direction`` max/min over ``attribute``, top ``k``),
    compare (which of the named products has more/less of ``attribute``), describe, yesno.
    ``then_direction``/``then_attribute``: a superlative's tie-breaker ("... at the lowest price").
    ``difference``: a compare that asks by how much ("How much more does A cost than B?"): the
    answer is the gap between the named products' values, not the winner.
    """

    kind: Literal["list", "count", "superlative", "compare", "describe", "yesno", "average"] = "list"
    attribute: str = ""
    direction: Direction | None = None
    k: int = 1
    then_attribute: str = ""
    then_direction: Direction | None = None
    difference: bool = False
    lookup: bool = False
    """A superlative over one named product: the question asks its value ("What does X cost?")."""
    word: str = ""
    """The comparative or superlative word that set ``direction`` ("faster", "lightest"), as read."""
    total: bool = False
    """An average that asks for the sum instead ("What do all the X weigh together?")."""
    share: bool = False
    """A count asked as a share of the products the question's subject names ("What share of the
    Galanz units meet the criteria?"): the answer is how many of those meet the rest, in percent."""
    statistic: Literal["mean", "median", "spread"] = "mean"
    """What an average reads of the values: their mean (or sum, ``total``), their median ("the median
    height"), or their spread, the largest less the smallest ("how many cm separate the widest and
    the narrowest")."""
    by: str = ""
    """What a superlative ranks or a count counts instead of products: "brand", "line" or "category"
    ("Which brand has the most fridges?", "How many different brands are the e-bikes from?")."""
    groups: tuple[str, ...] = ()
    """The groups an average or count compares, by name ("whose cameras are lighter, Canon's or
    Nikon's?"): the answer is the group that wins by ``direction``."""


@dataclass(slots=True)
class ParsedQuestion:
    question: str
    intent: Intent
    entities: list[EntityRef] = field(default_factory=list)
    constraints: list[Constraint] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    """Human-readable notes on each decision, for ``dualgraph ask --explain``."""
