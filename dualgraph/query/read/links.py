"""Links the parser makes between a feature phrase and a number next to it.

- a versioned feature with an open end ("Bluetooth 5.0 or newer", "at least USB 3") is a number
  compared on the version (:func:`versions`);
- a feature right after a measured number with no attribute is what the number measures ("a 3.5
  mm audio jack"): the feature becomes the number's attribute (:func:`measured_by`);
- a condition joined to a negated one ("without NFC or 5G", "outside the UK and Ireland") is
  negated too (:func:`carry_negation`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from dualgraph.lexicon.earlier_price import PRICE_CUT, says_price_cut
from dualgraph.query.read.model import Constraint, FeatureConstraint, NumericConstraint, Op, Span, ValueConstraint

__all__ = ["carry_negation", "mark_only", "measured_by", "versions"]

# "or", "nor" and a comma join alternatives a negation covers; "and" only after a word that excludes
# a set ("outside the UK and Ireland", "except A and B"), where "with no A and B" may mean "and with B"
_JOIN_ANY = re.compile(r"\s*(?:,\s*(?:(?:or|nor)\s+)?|(?:or|nor)\s+)(?:(?:the|a|an|any)\s+)?", re.I)
_JOIN_AND = re.compile(r"\s*,?\s*and\s+(?:(?:the|a|an|any)\s+)?", re.I)
_EXCLUDES = re.compile(r"\b(?:outside(?:\s+of)?|except(?:\s+for)?|excluding|other\s+than|apart\s+from)\s", re.I)

_VERSION = re.compile(r"(?P<name>.*?[^\W\d_])[\s-]*v?(?P<num>\d+(?:\.\d+)?)")
_NEWER = re.compile(r"\s*(?:or|and)\s+(?:newer|later|higher|above|better|up|greater)\b|\+", re.I)
_OLDER = re.compile(r"\s*(?:or|and)\s+(?:older|earlier|lower|below)\b", re.I)
_AT_LEAST = re.compile(r"\b(?:at\s+least|minimum|min\.?)\s+$", re.I)


def versions(q: str, features: list[FeatureConstraint], trace: list[str]) -> list[NumericConstraint]:
    """A versioned feature with an open end ("Bluetooth 5.0 or newer", "at least USB 3") compares the
    version number: ``>=``/``<=`` on the number, its name as the attribute."""
    out = []
    for f in features:
        m = _VERSION.fullmatch(f.phrase)
        if not m or f.negated:
            continue
        a, b = f.span.start, f.span.end
        op: Op | None = None
        if n := _NEWER.match(q, b):
            op, b = ">=", n.end()
        elif n := _OLDER.match(q, b):
            op, b = "<=", n.end()
        elif n := _AT_LEAST.search(q[:a]):
            op, a = ">=", n.start()
        if op is None:
            continue
        out.append(NumericConstraint(Span(a, b, q[a:b]), op, float(m.group("num")), attribute=m.group("name").strip()))
        trace.append(f"version {f.phrase!r}: {m.group('name').strip()} {op} {m.group('num')}")
    return out


def measured_by(
    q: str, numerics: list[NumericConstraint], features: list[FeatureConstraint], trace: list[str]
) -> list[FeatureConstraint]:
    """A feature right after a measured number with no attribute is what it measures: "a 3.5 mm audio
    jack" is the jack's size, not a jack and some 3.5 mm thing."""
    out = []
    for f in features:
        n = next(
            (
                n
                for n in numerics
                if n.unit
                and not n.attribute
                and n.dimension != "currency"
                and not f.negated
                and 0 <= f.span.start - n.span.end <= 1
            ),
            None,
        )
        if n is None or q[n.span.end : f.span.start].strip():
            out.append(f)
            continue
        n.attribute = f.phrase
        trace.append(f"feature {f.phrase!r} after {n.span.text!r}: what the number measures")
    return out


def cut_measured(
    q: str, numerics: list[NumericConstraint], features: list[FeatureConstraint], trace: list[str]
) -> list[FeatureConstraint]:
    """A price-cut word right before an amount of money is what the amount measures: "a discount of
    more than $20", "reduced by at least 50 riyals" bound the cut, not the price.

    >>> q = "phones discounted by more than 20 dollars"
    >>> n = NumericConstraint(Span(21, 41, "more than 20 dollars"), ">", 20.0, None, "USD", "currency", "price")
    >>> f = FeatureConstraint(Span(7, 17, "discounted"), "discounted")
    >>> cut_measured(q, [n], [f], []), n.attribute
    ([], 'price cut')
    """
    out = []
    for f in features:
        n = next(
            (
                n
                for n in numerics
                if n.dimension == "currency"
                and not f.negated
                and re.fullmatch(r"\s*(?:of|by)?\s*", q[f.span.end : n.span.start])
            ),
            None,
        )
        if n is None or not says_price_cut(f.phrase):
            out.append(f)
            continue
        n.attribute = PRICE_CUT
        n.span = Span(f.span.start, n.span.end, q[f.span.start : n.span.end])  # the cut's words are read
        trace.append(f"{n.span.text!r} after {f.phrase!r}: the amount of the price cut")
    return out


def carry_negation(q: str, constraints: Sequence[Constraint]) -> list[Constraint]:
    """``constraints`` with a feature or value right after a negated one, joined by "or"/"nor"/a
    comma (or by "and" after "outside", "except", "excluding", "other than"), negated as well.

    >>> q = "bikes for sale outside the UK and Ireland"
    >>> cs = [ValueConstraint(Span(27, 29, "UK"), "United Kingdom", "Country", True),
    ...       ValueConstraint(Span(34, 41, "Ireland"), "Ireland", "")]
    >>> [c.negated for c in carry_negation(q, cs)]
    [True, True]
    """
    out = list(constraints)
    order = sorted(range(len(out)), key=lambda i: out[i].span.start)
    for prev, cur in zip(order, order[1:]):
        a, b = out[prev], out[cur]
        if not isinstance(a, (FeatureConstraint, ValueConstraint)) or not isinstance(
            b, (FeatureConstraint, ValueConstraint)
        ):
            continue
        if not a.negated or b.negated:
            continue
        gap = q[a.span.end : b.span.start]
        if _JOIN_ANY.fullmatch(gap) or (
            _JOIN_AND.fullmatch(gap) and _EXCLUDES.search(q[max(0, a.span.start - 25) : a.span.start])
        ):
            out[cur] = dataclasses.replace(b, negated=True)
    return out


_ONLY_BEFORE = re.compile(r"\bonly\s+(?:(?:in|on|at|as|from|with|by|to|for)\s+)?(?:the\s+)?$", re.I)
_ONLY_AFTER = re.compile(r"\s+only\b", re.I)


def mark_only(q: str, constraints: Sequence[Constraint]) -> list[Constraint]:
    """``constraints`` with a value said with "only" right before it ("sold only in Canada") or right
    after it ("Canada only") marked ``only``: the value and no other of its entry.

    >>> q = "Which fridges are sold only in Canada?"
    >>> [c.only for c in mark_only(q, [ValueConstraint(Span(31, 37, "Canada"), "Canada", "")])]
    [True]
    >>> [c.only for c in mark_only("fridges sold in Canada", [ValueConstraint(Span(16, 22, "Canada"), "Canada", "")])]
    [False]
    """
    out = list(constraints)
    for i, c in enumerate(out):
        if not isinstance(c, ValueConstraint) or c.negated or c.only:
            continue
        if _ONLY_BEFORE.search(q[max(0, c.span.start - 25) : c.span.start]) or _ONLY_AFTER.match(q, c.span.end):
            out[i] = dataclasses.replace(c, only=True)
    return out
