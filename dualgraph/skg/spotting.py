"""Every quantity inside a spec value, wherever it stands, with the words next to it as its label.

Shops write several facts in one value ("8 GB RAM, 128 GB inbuilt", "5000 mAh Battery with 33W
Fast Charging", "50 MP + 8 MP + 2 MP Triple Rear & 16 MP Front Camera"). The whole-value parser
(:mod:`dualgraph.skg.quantities`) reads a value that *is* one quantity; this module finds each
one and says what it measures:

* a **measure** is a number with a unit after it (the unit table of ``units.yaml``: "33W",
  "6.67 inches", "2.2 GHz"), a range ("50 - 60 Hz"), dimensions ("1080 x 2400 px"), or a bare
  number the entry names a unit for ("Weight (g)": "180"); a value that is a bare number stays a
  unitless number, as before;
* a **count** is an English multiplier word before a noun ("Octa Core" = 8 cores, "Dual Sim");
* a **version** is a number ending a clause right after a name ("Android v14", "Bluetooth 5.3"):
  comparable, but never a measure;
* model numbers, band lists, ratios and "5G"/"4K"/"IP68" give nothing.

The **label** is the words beside a quantity in its clause (clauses end at punctuation, "&",
"/", "with", ...), minus stop words, qualifier words and the words of the entry and section
names, which the graph already says: "8 GB RAM" under entry "Memory" is labelled ``ram``;
"33W Fast Charging" under "Battery" ``fast charging``. Quantities chained by "+" share the label
at the chain's end ("50 MP + 8 MP Dual Rear": both ``rear``). ``position`` counts the
quantities of one dimension in the value, so "the first rear camera" stays addressable.

The word lists are general English, in ``words.yaml``.

>>> [(x.value, x.unit, x.label) for x in spot("8 GB RAM, 128 GB inbuilt", entry="Memory")]
[(8.0, 'GB', 'ram'), (128.0, 'GB', 'inbuilt')]
>>> [(x.value, x.unit, x.label) for x in spot("5000 mAh Battery with 33W Fast Charging", entry="Battery")]
[(5000.0, 'mAh', ''), (33.0, 'W', 'fast charging')]
>>> [(x.dimension, x.value, x.label) for x in spot("Octa Core, 2.2 GHz Processor", entry="Processor")]
[('count', 8.0, 'core'), ('frequency', 2200000000.0, '')]
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

import yaml

from dualgraph.skg import currencies
from dualgraph.skg import quantities as Q

__all__ = ["Spotted", "spot", "spot_parts"]

_MAX_CHARS = 4000  # longer text is prose to be read by the TKG; the cap bounds the work per value


@dataclass(frozen=True, slots=True)
class Spotted:
    """One fact read from a value: the quantity fields of :class:`~dualgraph.skg.quantities.Quantity`,
    the label words beside it, its order among the value's facts of the same dimension, and its span."""

    value: float | None
    unit: str | None
    dimension: str | None
    dims: tuple[float, ...] = ()
    low: float | None = None
    high: float | None = None
    qualifier: str | None = None
    original_unit: str | None = None
    label: str = ""
    position: int = 0
    start: int = 0
    end: int = 0
    kind: str = "measure"  # "measure", "count" or "version"


class _Words:
    def __init__(self, raw: dict[str, Any]) -> None:
        self.multipliers: dict[str, int] = {k.casefold(): int(v) for k, v in raw["multipliers"].items()}
        self.qualifiers: dict[str, str] = {k.casefold(): v for k, v in raw["qualifiers"].items()}
        self.clause_words = frozenset(w.casefold() for w in raw["clause_words"])
        self.stop = frozenset(w.casefold() for w in raw["stop_words"])
        self.version_markers = frozenset(w.casefold() for w in raw["version_markers"])
        self.version_entry_words = frozenset(w.casefold() for w in raw["version_entry_words"])
        multi = "|".join(sorted(map(re.escape, self.multipliers), key=len, reverse=True))
        self.count_re = re.compile(rf"(?<![\w-])({multi})[\s-]+([^\W\d_][\w'-]*)", re.I)
        words = "|".join(sorted(map(re.escape, self.clause_words), key=len, reverse=True))
        self.boundary_re = re.compile(rf"[,;|()\[\]{{}}&+]|(?<=\s)[-/](?=\s)|/|\.\s|\b(?:{words})\b", re.I)
        quals = "|".join(sorted((re.escape(q) for q in self.qualifiers), key=len, reverse=True))
        self.qual_before = re.compile(rf"(?:^|\s|\()({quals}|~|≈|<=?|>=?|≤|≥)\s*:?\s*$", re.I)
        self.qual_bracket = re.compile(rf"\s*[(\[]\s*({quals})\s*[)\]]", re.I)


@functools.cache
def _words() -> _Words:
    return _Words(yaml.safe_load(resources.files("dualgraph.skg").joinpath("words.yaml").read_text("utf-8")))


# A number that starts a quantity: not glued to a word, a model number ("i5-1235U"), a ratio
# ("16:9") or a list of codes ("850/900").
_START = re.compile(r"(?<![\w.,:/\-])[-+]?\d")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_TOKEN = re.compile(r"[^\s,;:|()\[\]{}&+/]+")


def _label_words(text: str) -> list[str]:
    """Words of ``text`` that may label a quantity: tokens with a digit are names or codes ('i5', '14k')."""
    return [t.strip(".'\"-") for t in _TOKEN.findall(text) if not any(c.isdigit() for c in t) and _WORD.match(t)]


_NX = re.compile(r"(\d+)\s*[x×]\s*$", re.I)  # "2x 3.5 GHz": a cluster of two
_VERSION = re.compile(
    r"(?<![\w.])([^\W\d_][\w+-]*)\s+(v\.?\s?|ver\.?\s?|version\s)?(\d{1,2}(?:\.\d{1,3}){0,2})(?![\w.+]|\.\d)", re.I
)
_VERSION_V = re.compile(r"(?<![\w.])v(\d{1,3}(?:\.\d{1,3}){0,2})(?![\w.]|\.\d)", re.I)


def spot(text: str, *, entry: str | None = None, section: str | None = None) -> list[Spotted]:
    """Every quantity, count and version in ``text`` in order of appearance (empty for plain text).

    >>> facts = spot("50 MP + 8 MP + 2 MP Triple Rear & 16 MP Front Camera", entry="Camera")
    >>> [(x.value, x.label, x.position) for x in facts if x.kind == "measure"]
    [(50.0, 'rear', 0), (8.0, 'rear', 1), (2.0, 'rear', 2), (16.0, 'front', 3)]
    >>> [(x.value, x.label) for x in facts if x.kind == "count"]
    [(3.0, 'rear')]
    >>> [(x.kind, x.label, x.value) for x in spot("Android v14")]
    [('version', 'android', 14.0)]
    >>> spot("Dimensity 6300, 5G, IP68, 16:9, B1/B3")
    []
    """
    return list(_spot(text, entry, section, currencies.hint()))


def spot_parts(parts: list[str], *, entry: str | None = None, section: str | None = None) -> list[list[Spotted]]:
    """:func:`spot` over the parts of one split value; positions run across the parts.

    >>> [[(x.value, x.position) for x in p] for p in spot_parts(["8 GB RAM", "128 GB inbuilt"], entry="Memory")]
    [[(8.0, 0)], [(128.0, 1)]]
    """
    return [list(p) for p in _spot_parts(tuple(parts), entry, section, currencies.hint())]


# keyed on the currency hint too, as quantities._parse is
@functools.lru_cache(maxsize=1 << 16)
def _spot_parts(
    parts: tuple[str, ...], entry: str | None, section: str | None, hint: frozenset[str]
) -> tuple[tuple[Spotted, ...], ...]:
    seen: dict[str | None, int] = {}
    out = []
    for part in parts:
        facts = tuple(
            replace(x, position=seen[x.dimension] + x.position) if seen.get(x.dimension) else x
            for x in _spot(part, entry, section, hint)
        )
        for x in facts:
            seen[x.dimension] = max(seen.get(x.dimension, 0), x.position + 1)
        out.append(facts)
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _spot(text: str, entry: str | None, section: str | None, _hint: frozenset[str]) -> tuple[Spotted, ...]:
    s = Q._norm(text)
    if not s.strip() or len(s) > _MAX_CHARS:
        return ()
    if not any(c.isdigit() for c in s):  # text alone can only hold counts ("Octa Core")
        return tuple(_numbered(_counts(s, [])))
    whole = _whole(s, entry, section)
    if whole is not None:
        return (whole,)
    dims_hint = Q._hints(entry, section)[1]
    facts: list[Spotted] = []
    pos = 0
    for m in _START.finditer(s):
        if m.start() < pos:
            continue
        got = _read_at(s, m.start(), dims_hint)
        if got is not None:
            facts.append(got)
            pos = got.end
    facts = _drop_restatements(s, facts)
    facts += _counts(s, facts)
    facts += _versions(s, facts)
    facts.sort(key=lambda x: x.start)
    named = _name_words(entry, section)
    facts = [_labelled(s, x, facts, named) for x in facts]
    facts = _count_after_plus(s, _share_chain_labels(s, facts))
    return tuple(_numbered(facts))


def _whole(s: str, entry: str | None, section: str | None) -> Spotted | None:
    """A value that is one bare number (with a unit the entry names, or none), or a price."""
    price = Q.parse_price(s)
    if price is not None:
        unit = Q._lookup(price[1])
        return Spotted(
            float(price[0]), price[1], "currency", original_unit=unit.symbol if unit else price[1], end=len(s)
        )
    body = s.strip()
    if not re.fullmatch(r"(?:[^\d\s]{1,12}\s*)?[-+~≈<>≤≥]?\s*\d[\d,.]*\+?(?:\s*\([^()]*\))?", body):
        return None
    q = Q.parse_quantity(body, entry=entry, section=section)
    if q is None:
        return None
    if q.unit is None and q.value is not None and _name_words(entry, None) & _words().version_entry_words:
        return Spotted(q.value, None, "version", start=0, end=len(s), kind="version")
    return _from_quantity(q, 0, len(s))


def _from_quantity(q: Q.Quantity, start: int, end: int, label: str = "") -> Spotted:
    return Spotted(
        q.value, q.unit, q.dimension, q.dims, q.low, q.high, q.qualifier, q.original_unit, label, 0, start, end
    )


def _read_at(s: str, i: int, dims_hint: Q._Unit | None) -> Spotted | None:
    m1 = Q._measure(s, i, dims=True)
    if m1 is None:
        return None
    if Q._DIM_SEP.match(s, m1.end):
        return _dims_at(s, i, m1, dims_hint)
    if m1.unit is not None:
        m1 = Q._measure(s, i) or m1
    sep = Q._RANGE_SEP.match(s, m1.end)
    m2 = Q._measure(s, sep.end()) if sep is not None else None
    # "50 - 60 Hz": the first number takes the second's unit
    if m2 is not None and m2.unit is not None and (m1.unit is None or m2.unit.dimension == m1.unit.dimension):
        lo, hi = Q._canon(m1.raw, m1.unit or m2.unit), Q._canon(m2.raw, m2.unit)
        if lo is not None and hi is not None and lo <= hi:
            u = m2.unit
            return Spotted(
                lo if lo == hi else None, u.canonical, u.dimension, (), lo, hi, "range", u.symbol, start=i, end=m2.end
            )
    if m1.unit is None:
        return None  # a bare number inside text: a model number, a count without a noun, a year
    if _glued_to_name(s, i, m1):
        return None
    value = Q._canon(m1.raw, m1.unit)
    if value is None:
        return None
    u = m1.unit
    qual = "at_least" if m1.plus else None
    return Spotted(
        value, u.canonical, u.dimension, (), value if qual else None, None, qual, u.symbol, start=i, end=m1.end
    )


def _glued_to_name(s: str, i: int, m: Q._Measure) -> bool:
    """'Snapdragon 8s Gen3', 'Unisoc 9863A': a one-letter unit glued to a number that follows a name is
    part of a model name ('33W' after 'with' is a measure)."""
    written = s[i : m.end].lstrip("-+0123456789.,")
    if len(written) != 1:
        return False
    clause = s[:i]
    if b := list(_words().boundary_re.finditer(clause)):
        clause = clause[b[-1].end() :]
    words = [w.casefold() for w in _WORD.findall(clause)]
    return any(w not in _words().qualifiers and w not in _words().stop for w in words)


def _dims_at(s: str, i: int, m1: Q._Measure, hint: Q._Unit | None) -> Spotted | None:
    comps, end = [m1], m1.end
    while len(comps) < 3 and (sep := Q._DIM_SEP.match(s, end)):
        m = Q._measure(s, sep.end(), dims=True)
        if m is None:
            break
        comps.append(m)
        end = m.end
    explicit = [c.unit for c in comps if c.unit is not None]
    if len(comps) < 2 or any(u.dimension not in Q._DIMS_OK for u in explicit):
        return None  # "2 x 8 GB" is a count of things: the "8 GB" is read on its own
    if explicit and any(u.dimension != explicit[0].dimension for u in explicit):
        return None
    units = (
        [next((c.unit for c in comps[k:] if c.unit), explicit[-1]) for k in range(len(comps))]
        if explicit
        else [hint] * len(comps)
    )
    shown = explicit[-1] if explicit else hint
    if shown is None:
        return None
    values = [Q._canon(c.raw, u) for c, u in zip(comps, units)]
    if any(v is None for v in values):
        return None
    return Spotted(
        None,
        shown.canonical,
        shown.dimension,
        tuple(v for v in values if v is not None),
        original_unit=shown.symbol,
        start=i,
        end=end,
    )


def _drop_restatements(s: str, facts: list[Spotted]) -> list[Spotted]:
    """'15.2 cm (6")': a bracket right after a quantity that restates it in another unit is not a second fact."""
    out: list[Spotted] = []
    for x in facts:
        prev = out[-1] if out else None
        if prev is not None and prev.dimension == x.dimension and re.fullmatch(r"\s*[(\[]\s*", s[prev.end : x.start]):
            continue
        out.append(x)
    return out


def _taken(facts: list[Spotted], a: int, b: int) -> bool:
    return any(x.start < b and a < x.end for x in facts)


def _counts(s: str, facts: list[Spotted]) -> list[Spotted]:
    words = _words()
    out = []
    for m in words.count_re.finditer(s):
        noun = m.group(2).casefold()
        if _taken(facts, m.start(), m.end()) or noun in words.stop or noun in words.clause_words:
            continue
        out.append(
            Spotted(
                float(words.multipliers[m.group(1).casefold()]),
                None,
                "count",
                label=_singular(noun),
                start=m.start(),
                end=m.end(),
                kind="count",
            )
        )
    return out


def _version_value(num: str) -> float:
    """A comparable number for a version: major.minor ("2.5.3" -> 2.5)."""
    return float(".".join(num.split(".")[:2]))


def _versions(s: str, facts: list[Spotted]) -> list[Spotted]:
    words = _words()
    out: list[Spotted] = []
    for m in _VERSION.finditer(s):
        name, marker, num = m.group(1), m.group(2), m.group(3)
        nxt = s[m.end() :].lstrip()
        # a version ends its clause ("Android 14", "Bluetooth 5.3,"); "Snapdragon 8 Gen 3" goes on
        ends = not nxt or bool(words.boundary_re.match(nxt)) or nxt[0] in ".:"
        if _taken(facts, m.start(3), m.end(3)) or not (ends or marker):
            continue
        clause = s[: m.start()]
        if b := list(words.boundary_re.finditer(clause)):
            clause = clause[b[-1].end() :]
        if re.search(r"\d", clause):
            continue  # "Snapdragon 8 Gen 3": a number before the name makes it a model name
        if name.casefold() in words.multipliers or name.casefold() in words.stop or Q._lookup(name) is not None:
            continue
        label = "" if name.casefold() in words.version_markers else name.casefold()
        out.append(
            Spotted(
                _version_value(num),
                None,
                "version",
                label=label,
                start=m.start(3),
                end=m.end(3),
                kind="version",
            )
        )
    for m in _VERSION_V.finditer(s):
        if _taken(facts + out, m.start(1), m.end(1)):
            continue
        num = m.group(1)
        out.append(
            Spotted(
                _version_value(num),
                None,
                "version",
                start=m.start(1),
                end=m.end(1),
                kind="version",
            )
        )
    return out


@functools.lru_cache(maxsize=4096)
def _name_words(entry: str | None, section: str | None) -> frozenset[str]:
    names = " ".join(x for x in (entry, section) if x).casefold().replace("_", " ")
    return frozenset(w for t in _WORD.findall(names) for w in (t, _singular(t)))


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _clause_bounds(s: str, x: Spotted, facts: list[Spotted]) -> tuple[int, int]:
    """The stretch around ``x`` its label may come from: up to a boundary or another fact."""
    words = _words()
    left = 0
    for b in words.boundary_re.finditer(s, 0, x.start):
        left = b.end()
    right = len(s)
    if (nb := words.boundary_re.search(s, x.end)) is not None:
        right = nb.start()
    for y in facts:
        if y is x or y.kind == "count":  # "2 MP Triple Rear": the counted noun labels the camera too
            continue
        if y.end <= x.start:
            left = max(left, y.end)
        elif y.start >= x.end:
            right = min(right, y.start)
    return left, right


def _labelled(s: str, x: Spotted, facts: list[Spotted], named: frozenset[str]) -> Spotted:
    words = _words()
    if x.kind != "measure":
        return x
    left, right = _clause_bounds(s, x, facts)
    before, after = s[left : x.start], s[x.end : right]
    qualifier, low, high = x.qualifier, x.low, x.high
    if (qm := words.qual_before.search(before)) is not None:
        q = (
            words.qualifiers.get(qm.group(1).casefold())
            or {
                "~": "approx",
                "≈": "approx",
                "<": "up_to",
                "<=": "up_to",
                "≤": "up_to",
                ">": "at_least",
                ">=": "at_least",
                "≥": "at_least",
            }[qm.group(1)]
        )
        qualifier, before = q, before[: qm.start(1)]
    if (qb := words.qual_bracket.match(s, x.end)) is not None:
        qualifier = words.qualifiers[qb.group(1).casefold()]
    if qualifier in ("up_to", "max") and x.value is not None:
        high = x.value
    elif qualifier in ("at_least", "min") and x.value is not None:
        low = x.value
    if (qa := words.qual_before.search(after)) is not None:  # "... lasts up to 10 hours": the next fact's
        after = after[: qa.start(1)]
    label = []
    if (nx := _NX.search(before)) is not None:  # "2x 3.5 GHz": a core cluster
        label.append(f"{nx.group(1)}x")
        before = before[: nx.start()]
    skip = words.stop | set(words.qualifiers) | words.clause_words | set(words.multipliers) | named
    for w in _label_words(before) + _label_words(after):
        lw = w.casefold().strip("'-")
        if lw and lw not in skip and _singular(lw) not in named:
            label.append(lw)
    return replace(x, label=" ".join(label), qualifier=qualifier, low=low, high=high)


def _share_chain_labels(s: str, facts: list[Spotted]) -> list[Spotted]:
    """'50 MP + 8 MP + 2 MP Triple Rear': facts joined by '+' or '/' take the label of the next labelled one."""
    out = list(facts)
    for k in range(len(out) - 2, -1, -1):
        a, b = out[k], out[k + 1]
        joined = a.kind == b.kind == "measure" and re.fullmatch(r"\s*[+/]\s*", s[a.end : b.start])
        if joined and not a.label and b.label and a.dimension == b.dimension:
            out[k] = replace(a, label=b.label)
    return out


def _count_after_plus(s: str, facts: list[Spotted]) -> list[Spotted]:
    """'32 MP + Depth Sensor Dual Rear': a '+' chain that ends in a lens named without a number still
    says where the numbered one sits: it takes the label of the count that closes the chain."""
    out = list(facts)
    for k, x in enumerate(out):
        if x.kind != "measure" or x.label or not re.match(r"\s*\+", s[x.end :]):
            continue
        nxt = next((y for y in out[k + 1 :] if y.start >= x.end), None)
        if nxt is not None and nxt.kind == "count" and not re.search(r"[,;|&()\[\]]|\d", s[x.end : nxt.start]):
            out[k] = replace(x, label=nxt.label)
    return out


def _numbered(facts: list[Spotted]) -> list[Spotted]:
    seen: dict[str | None, int] = {}
    out = []
    for x in facts:
        n = seen.get(x.dimension, 0)
        seen[x.dimension] = n + 1
        out.append(replace(x, position=n))
    return out
