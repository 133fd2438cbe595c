"""Links the parser makes between a feature phrase and a number next to it.

- a versioned feature with an open end ("Bluetooth 5.0 or newer", "at least USB 3") is a number
  compared on the version (:func:`versions`);
- a feature right after a measured number with no attribute is what the number measures ("a 3.5
  mm audio jack"): the feature becomes the number's attribute (:func:`measured_by`).
"""

from __future__ import annotations

import re

from dualgraph.query.read.model import FeatureConstraint, NumericConstraint, Op, Span

__all__ = ["measured_by", "versions"]

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
