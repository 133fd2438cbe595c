"""Quantities in spec values: numbers with units, ranges, dimensions, prices and lists.

Every parsed value is converted into the canonical unit of its dimension (the unit as
written survives in ``Quantity.original_unit``); the table is ``units.yaml``:

    data GB          length mm        area mm²          mass g            frequency Hz
    power W          charge mAh       energy Wh         voltage V         current A
    time s           data_rate Mbps   byte_rate MB/s    transfer_rate GT/s  pixels px
    resolution_mp MP luminance nit    percent %         temperature °C    angle °
    decibel dB       frame_rate fps   rotation_speed rpm  pixel_density ppi  dot_density dpi
    volume l         luminous_flux lm resistance ohm    pressure Pa       bits bit
    specific_absorption W/kg          multiplier x ("100x" zoom)   energy_per_time kWh/yr
    currency: each ISO code is its own unit and is never converted.

Decisions (the reference parser's weak points):

* A bare number takes the unit its entry's name gives: "Weight (kg)", "Power [W]", "Width in mm",
  "Price, USD", "Capacity (Total Volume) (ft3)" (the last bracket), and a percentage where the
  entry's name says "percent" ("Percent Less Energy Use than …"). A unit in the value wins.
* 1 TB = 1000 GB (SI, as shops count). Time is stored in seconds, exact from ms to years
  (a month is the average Gregorian month, so 24 months == 2 years).
* A quantity starts with its number, after an optional qualifier ("Up to", "Approx.", "~",
  "<", "Min." ...), or is "label: number unit". "Snapdragon 8 Gen 3", "Android 14",
  "Bluetooth 5.3", "5G", "4K", "IP68" and "802.11ax" are not quantities.
* After a known unit any words may follow ("5000 mAh Battery with 68W Fast Charging" is
  5000 mAh, "6.7\\" (170.3mm)" is 6.7 inch); after a bare number only brackets may. A sum,
  a choice or a count of quantities is not one quantity: "8 GB + 128 GB", "12MP + 50MP",
  "2.4 GHz / 5 GHz", "2x 3.5 GHz", "2 x 8 GB" give None.
* Commas between digits: "2,520" and "1,920" are thousands (a lead of 1-2 digits, then
  3-digit groups); a 3-digit lead ("128,256", "800,850") is a list unless every later group
  is "000" or a currency is attached (then Indian "1,72,999" is read too); anything else
  ("900,1800") is a list; a lone "1,5 kg" (decimal comma or list?) is neither split nor
  parsed. A decimal comma is read only in prices ("€949,00", "1.299,99 EUR"); a single
  dot is always a decimal point ("€1.299" is 1.299).
* ...unless the document is written in a decimal-comma locale: :func:`infer_decimal_comma` reads
  that from the document's own measures ("12,5 cm", "1.234,5 kg" against "22.4 in"), and
  :func:`delocalise` then rewrites its numbers into the form read here ("1.299,00 €" becomes
  "1,299.00 €", "12,5 cm" "12.5 cm"; same length, so spans still point into the value). Digit
  groups split by a no-break, narrow or thin space ("1 234,5") are thousands in any document.
"""

from __future__ import annotations

import decimal
import functools
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from types import MappingProxyType
from typing import NamedTuple

import yaml

from dualgraph.skg import currencies

__all__ = [
    "Quantity",
    "convert",
    "delocalise",
    "format_number",
    "infer_decimal_comma",
    "normalise_unit",
    "parse_price",
    "parse_quantity",
    "split_values",
    "unit_at",
    "unit_symbol",
]


@dataclass(frozen=True, slots=True)
class Quantity:
    value: float | None  # scalar in the canonical unit; None for dims and most ranges
    unit: str | None  # canonical unit symbol; None for a unitless number
    dimension: str | None
    dims: tuple[float, ...] = ()  # W x H [x D] in the canonical unit
    low: float | None = None
    high: float | None = None
    qualifier: str | None = None  # "up_to", "at_least", "approx", "range" or None
    original_unit: str | None = None  # the unit's own symbol before conversion, e.g. "TB"


class _Unit(NamedTuple):
    symbol: str
    dimension: str
    canonical: str
    factor: float
    offset: float = 0.0
    binary: tuple[float, int] | None = None  # (factor, step): for a whole multiple of the step (units.yaml)


class _Measure(NamedTuple):
    raw: str | Decimal  # the number as written, or the value of a fraction
    unit: _Unit | None
    end: int
    plus: bool  # "18+ months"


# Look-alike characters folded before anything else ("º" would become "o" under NFKC).
_FOLD = str.maketrans(
    {
        "−": "-",
        "–": "-",
        "—": "-",
        "‒": "-",
        "×": "x",
        "∗": "*",
        "º": "°",
        "˚": "°",
        "″": '"',
        "”": '"',
        "“": '"',
        "′": "'",
        "’": "'",
        "\u00a0": " ",
        "\u202f": " ",
    }
)
_DIMS_OK = frozenset({"length", "pixels", "dot_density", "pixel_density"})
_NUM = re.compile(r"[-+]?(?:\d[\d,.]*\d|\d)")
_HEX = re.compile(r"0x[\da-f]+\b", re.I)  # "0x116" is an id, not 0 by 116
_DIM_SEP = re.compile(r"\s*[xX*]\s*(?=[-+]?\d)")
_RANGE_SEP = re.compile(r"\s*(?:-|~|\.\.)\s*(?=[-+]?\d)|\s+to\s+(?=[-+]?\d)", re.I)
_AXIS = re.compile(r"\s*(?:\(\s*[lwhdv]\s*\)|[lwhd]\b)", re.I)
_PREFIX_QUAL = re.compile(
    r"(?:(?P<up_to>up\s*to|max(?:imum)?\.?|<=?|≤|less\s+than|under|below)"
    r"|(?P<at_least>min(?:imum)?\.?|>=?|≥|at\s+least|over|more\s+than|above)"
    r"|(?P<approx>approx(?:imately|\.)?|about|around|ca\.|circa|~|≈|roughly))(?![a-z])\s*:?\s*",
    re.I,
)
_SUFFIX_QUAL = re.compile(
    r"\s*(?:(?P<at_least>and\s+(?:up|above|over|more)|or\s+(?:more|above|higher|greater|over)|\+(?=\s*$))"
    r"|(?P<up_to>or\s+(?:less|below|lower|fewer)|max(?:imum)?\.?|\(max(?:imum)?\.?\)))(?![a-z])",
    re.I,
)
_COMPOUND = re.compile(r"[,;]|\d|(?:[+&/~-]|(?:and|or|to)\b)\s*\D{0,4}?\d", re.I)
_LABEL = re.compile(r"([^\W\d][^:\d]{0,39}):\s*(?=\S)")
# The unit an entry's name gives its bare numbers: "Weight (kg)", "Power [W]", "Width in mm", "Price, USD".
_PAREN_UNIT = re.compile(r"(?:[(\[]\s*([^()\[\]]{1,12}?)\s*[)\]]|\bin\s+(\S{1,12})|,\s*([^,()\[\]]{1,12}?))\s*$", re.I)
# "Percent Less Energy Use than …", "Battery (% of design)": a share, whatever else the name says.
_PERCENT_NAME = re.compile(r"(?<![^\W_])(?:percent(?:age)?|pct)(?![^\W_])|%", re.I)
_NOT_HINTS = frozenset({"min", "s", "x"})  # "Depth (min)" is a minimum, "Port(s)" a plural
_PX_HINT = re.compile(r"resolution|\bpixels?\b(?!\s*(?:size|pitch|density))|\bdisplay\b|\bscreen\b", re.I)
_MM_HINT = re.compile(r"dimension|\bsize\b|\b[whdl]\s*x\s*[whdl]\b|vesa|mounting interface", re.I)
_FRACTION = re.compile(r"(\d{1,3})/(\d+(?:\.\d+)?)(?![\d/])")  # a fraction before a unit: "1/4000 sec"
_RUN = re.compile(r"(?<![\d.])\d+(?:,\d+)+")
_SPLIT_AT = re.compile(r"[()\[\]{},;]")
_DIGIT = re.compile(r"\d")
_BARE = re.compile(r"[-+]?\d+(?:\.\d+)?")
_SENTENCE = re.compile(r"[a-z0-9)][.!?]\s+[A-Z]")
_SUBCLAUSE = re.compile(
    r",\s+(?:which|but|so|while|where|who|whose|because|although|though|making|allowing|"
    r"meaning|thanks|yet)\b"
)


# Numbers as a decimal-comma locale writes them ("1.234,5", "12,5", "1.299"), and the unambiguous
# ones on either side, which decide the locale: a 1-2 digit fraction, or two or more groups of three.
_COMMA_NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?![\d.,]*\d)")
_BY_COMMA = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+,\d+|\d{1,3}(?:\.\d{3}){2,}|\d+,\d{1,2})(?![\d.,]*\d)")
_BY_POINT = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:,\d{3})+\.\d+|\d{1,3}(?:,\d{3}){2,}|\d+\.\d{1,2})(?![\d.,]*\d)")
_SPACED = re.compile(r"(?<![\d.,])\d{1,3}(?:[\u00a0\u202f\u2009]\d{3})+(?![\d\u00a0\u202f\u2009]*\d)")
_MARKS = str.maketrans({",": ".", ".": ","})
_CANONICAL_PRICE = re.compile(r"\d+(?:\.\d+)? [A-Z]{3}")


def document_currencies(values: Iterable[str]) -> frozenset[str]:
    """The currencies ``values`` (one document's) name by ISO code in a whole price ("2176 SAR",
    "SAR 2,375"): the hint under which its other amounts are read ("SR 2,375", "$59" beside them
    are riyals, Canadian dollars). A symbol several currencies share names none here.

    >>> sorted(document_currencies(["2176 SAR", "SR 2,375", "5 kg"])), sorted(document_currencies(["$ 20", "£5"]))
    (['SAR'], [])
    """
    out: set[str] = set()
    for text in values:
        if (price := parse_price(text)) is not None and re.search(rf"(?<![A-Za-z]){price[1]}(?![A-Za-z])", text):
            out.add(price[1])
    return frozenset(out)


def infer_decimal_comma(values: Iterable[str]) -> bool:
    """Whether ``values`` (one document's) write decimals with a comma: more of their measures say
    so than say the point. A measure is a number before a unit, after a currency or standing alone,
    so "Bluetooth 5.3" and model numbers do not vote; "1.299" and "1,500" are either and do not vote.

    >>> infer_decimal_comma(["Gewicht 6,3 kg", "1.299,00 €", "Bluetooth 5.3", "1.500 g"])
    True
    >>> infer_decimal_comma(["4,00 GHz", "1,15 GHz", "1.35V", "138.00 USD"])  # the last: an importer's price
    True
    >>> infer_decimal_comma(["22.4 in", "1,5 kg", "33.1 in"]), infer_decimal_comma(["1,500 g", "2021"])
    (False, False)
    """
    votes = 0
    for text in values:
        if "," not in text and "." not in text:
            continue
        s = text.strip()
        if _CANONICAL_PRICE.fullmatch(s):
            continue  # the importers' own form of a price ("138.00 USD"), whatever the page wrote
        for pattern, vote in ((_BY_COMMA, 1), (_BY_POINT, -1)):
            votes += vote * sum(_measure_like(s, m) for m in pattern.finditer(s))
    return votes > 0


def _measure_like(s: str, m: re.Match[str]) -> bool:
    table = _table()
    if m.start() == 0 and m.end() == len(s):
        return True
    return (
        table.unit_re.match(s, m.end()) is not None
        or table.money_before.search(s, max(0, m.start() - 5), m.start()) is not None
    )


def delocalise(text: str, *, decimal_comma: bool) -> str:
    """``text`` with its numbers in the form the parsers here read, and of the same length:
    space-grouped thousands take a comma, and in a decimal-comma document the comma and the
    dot of each number change places.

    >>> delocalise("1.299,00 € or 12,5 cm, made 15.03.2021", decimal_comma=True)
    '1,299.00 € or 12.5 cm, made 15.03.2021'
    >>> delocalise("1\u202f234,5 mm", decimal_comma=True), delocalise("2,520 mAh", decimal_comma=False)
    ('1,234.5 mm', '2,520 mAh')
    """
    if any(c in text for c in "\u00a0\u202f\u2009"):
        text = _SPACED.sub(lambda m: re.sub(r"\D", "." if decimal_comma else ",", m.group()), text)
    if decimal_comma and ("," in text or "." in text):
        text = _COMMA_NUMBER.sub(lambda m: m.group().translate(_MARKS), text)
    return text


def _norm(text: str) -> str:
    text = text.translate(_FOLD)
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


class _Table(NamedTuple):
    exact: Mapping[str, _Unit]
    loose: Mapping[str, _Unit]  # casefolded spellings of 3+ characters that name one unit only
    unit_re: re.Pattern[str]  # a unit right after a number (optionally after "-")
    dims_unit_re: re.Pattern[str]  # the same, but may be followed by an axis letter ('33"l')
    price_re: re.Pattern[str]
    money_before: re.Pattern[str]  # a currency ending right before a number
    money_after: re.Pattern[str]


@functools.cache
def _table() -> _Table:
    return _build_table(resources.files("dualgraph.skg").joinpath("units.yaml").read_text("utf-8"))


def _build_table(text: str) -> _Table:
    raw = yaml.safe_load(text)
    exact: dict[str, _Unit] = {}
    loose: dict[str, _Unit] = {}
    clashes = set()
    for dimension, block in raw.items():
        for symbol, spec in block["units"].items():
            spec = spec if isinstance(spec, dict) else {"factor": spec[0], "spellings": spec[1:]}
            factor, offset, names = spec["factor"], spec.get("offset", 0), spec.get("spellings", [])
            binary = (float(spec["binary"][0]), int(spec["binary"][1])) if spec.get("binary") else None
            unit = _Unit(symbol, dimension, block["canonical"] or symbol, float(factor), float(offset), binary)
            for name in {_norm(str(n)).strip() for n in (symbol, *names)}:
                if exact.setdefault(name, unit) != unit:
                    raise ValueError(f"units.yaml: {name!r} names two units")
                if len(name) > 2 and loose.setdefault(name.casefold(), unit) != unit:
                    clashes.add(name.casefold())
    for key in clashes:
        del loose[key]
    exact, loose = MappingProxyType(exact), MappingProxyType(loose)  # type: ignore[assignment]

    def alternation(names: list[str]) -> str:
        names = sorted(names, key=len, reverse=True)  # longest first: "GB/s" before "GB"
        return "|".join(re.escape(n).replace(r"\ ", r"\s+") for n in names)

    # money comes from the currency table (ISO codes in upper case only: "ALL", "TOP" and "PEN" are
    # currencies, "all", "top" and "pen" words); a spelling that names a unit here stays that unit
    cur = currencies.table()
    names = [n for n in cur.spellings() if n not in cur.codes and n not in exact and n not in loose]
    codes = "|".join(sorted(cur.codes))
    money = rf"{alternation(names)}|(?-i:{codes})"
    units = rf"{alternation([*exact, *loose])}|{money}"
    edge = r"(?![^\W_]|[/\-°%\"'])"
    return _Table(
        exact,
        loose,
        re.compile(rf"(?:\s*|-)({units}){edge}", re.I),
        re.compile(rf"(?:\s*|-)({units})(?:{edge}|(?=[lwhdLWHD]\b))", re.I),
        re.compile(
            rf"(?:(?P<pre>{money})\s*)?(?P<num>\d[\d,.]*\d|\d)(?:\s*(?P<post>{money}){edge})?"
            rf"\s*(?:/-)?(?P<rest>.*)",
            re.I | re.S,
        ),
        re.compile(rf"(?<![a-z])(?:{money})\s*$", re.I),
        re.compile(rf"\s*(?:{money}){edge}", re.I),
    )


def _lookup(text: str) -> _Unit | None:
    """The unit ``text`` names; a currency through :mod:`dualgraph.skg.currencies` (an ambiguous
    symbol such as "$" reads as the catalog's own currency where :func:`~currencies.hinted` names it)."""
    return _unit_named(text) or _money(currencies.lookup(_norm(text).strip()))


@functools.lru_cache(maxsize=4096)
def _unit_named(text: str) -> _Unit | None:
    name = _norm(text).strip()
    return _table().exact.get(name) or _table().loose.get(name.casefold())


@functools.cache
def _money(code: str | None) -> _Unit | None:
    return None if code is None else _Unit(code, "currency", code, 1.0)


def _grouped(groups: list[str], currency: bool) -> bool:
    """Whether comma-separated digit groups form one number with thousands separators."""
    if len(groups) < 2 or not all(g.isdigit() for g in groups):
        return False
    lead, rest = groups[0], groups[1:]
    if all(len(g) == 3 for g in rest):
        return lead[0] != "0" if len(lead) < 3 else len(lead) == 3 and (currency or all(g == "000" for g in rest))
    # Indian grouping (1,72,999) only where a currency vouches for it.
    return currency and len(lead) <= 2 and len(rest[-1]) == 3 and all(len(g) == 2 for g in rest[:-1])


def _amount(raw: str, *, currency: bool = False) -> Decimal | None:
    sign, raw = (raw[0], raw[1:]) if raw[0] in "+-" else ("", raw)
    if "," in raw and "." in raw:
        dec = "," if raw.rfind(",") > raw.rfind(".") else "."
        if dec == "," and not currency:
            return None
        whole, _, frac = raw.rpartition(dec)
        if not _grouped(whole.split("." if dec == "," else ","), currency):
            return None
    elif "," in raw:
        whole, _, frac = raw.partition(",")
        if not (currency and len(frac) == 2 and frac.isdigit() and whole.isdigit()):
            whole, frac = raw, ""
            if not _grouped(raw.split(","), currency):
                return None
    elif raw.count(".") > 1:
        whole, frac = raw, ""
        if not (currency and _grouped(raw.split("."), currency)):
            return None
    else:
        whole, _, frac = raw.partition(".")
    digits = sign.replace("+", "") + whole.replace(",", "").replace(".", "")
    return Decimal(f"{digits}.{frac}" if frac else digits)


def _clean(x: float) -> float:
    # 15 significant digits remove conversion noise (6.7 * 25.4 = 170.17999999999998).
    return float(f"{x:.15g}")


def _canon(raw: str | Decimal, unit: _Unit | None) -> float | None:
    """The amount in the canonical unit.

    >>> [_canon(x, _lookup("MB")) for x in ("16384", "1536", "1000", "500", "16000")]
    [16.0, 1.5, 1.0, 0.5, 16.0]
    """
    amount = (
        raw if isinstance(raw, Decimal) else _amount(raw, currency=unit is not None and unit.dimension == "currency")
    )
    if amount is None:
        return None
    if unit is None:
        return _clean(float(amount))
    factor = unit.factor
    if unit.binary is not None and amount % unit.binary[1] == 0 and amount % 1000 and amount >= unit.binary[1]:
        factor = unit.binary[0]  # "16384 MB" is 16 GB, "16000 MB" stays 16 GB: powers of two (units.yaml)
    return _clean(float(amount) * factor + unit.offset)


def _measure(s: str, pos: int, *, dims: bool = False) -> _Measure | None:
    if not (m := _NUM.match(s, pos)):
        return None
    if (f := _FRACTION.match(s, pos)) and (after := _fraction_unit(s, f.end())):
        num, den = Decimal(f.group(1)), Decimal(f.group(2))
        if 0 < num < den:  # "1/2000 sec", '1/2.3"'; "2133/2400" is a list of two
            return _Measure(num / den, after[0], after[1], False)
    end, plus = m.end(), False
    if s.startswith("+", end) and not _COMPOUND.match(s, end):
        end, plus = end + 1, True
    um = None if _DIM_SEP.match(s, end) else (_table().dims_unit_re if dims else _table().unit_re).match(s, end)
    if um is None or (unit := _lookup(um.group(1))) is None:  # in "2 x 3" the x is no unit
        return _Measure(m.group(), None, end, plus)
    end = ax.end() if dims and (ax := _AXIS.match(s, um.end())) else um.end()
    return _Measure(m.group(), unit, end, plus)


def _fraction_unit(s: str, pos: int) -> tuple[_Unit, int] | None:
    um = _table().unit_re.match(s, pos)
    unit = _lookup(um.group(1)) if um else None
    return None if unit is None or unit.dimension == "currency" else (unit, um.end())  # type: ignore[union-attr]


def _rest_ok(rest: str, unit: _Unit | None) -> bool:
    """Whether text after a quantity leaves it one quantity: only brackets after a bare number."""
    rest = rest.strip()
    if not rest or unit is None or unit.dimension == "multiplier":
        return not rest or rest[0] in "(["
    return not _COMPOUND.match(rest)


@functools.lru_cache(maxsize=1024)
def _hints(entry: str | None, section: str | None) -> tuple[_Unit | None, _Unit | None]:
    """(unit for a bare number, unit for unitless dimensions) from entry/section names."""
    scalar = dims = None
    for name in filter(None, (entry, section)):
        named = (m.group(1) or m.group(2) or m.group(3)) if (m := _PAREN_UNIT.search(name)) else None
        if scalar is None and named is not None:
            scalar = None if named in _NOT_HINTS else _lookup(named)
        if scalar is None and name is entry and named not in _NOT_HINTS and _PERCENT_NAME.search(name):
            scalar = _lookup("%")  # the entry's own name only: a section's "%" says nothing of its entries
        if dims is None:
            if scalar is not None and scalar.dimension in _DIMS_OK:
                dims = scalar
            elif _MM_HINT.search(name):  # before pixels: "Display dimensions" are mm
                dims = _lookup("mm")
            elif _PX_HINT.search(name):
                dims = _lookup("px")
    return scalar, dims


def parse_quantity(text: str, *, entry: str | None = None, section: str | None = None) -> Quantity | None:
    """Parse one value part into a Quantity in its canonical unit, or None.

    >>> parse_quantity("6.7 inch Dynamic AMOLED").value
    170.18
    >>> parse_quantity("Up to 29 hours")
    Quantity(value=104400.0, unit='s', dimension='time', dims=(), low=None, high=104400.0, qualifier='up_to', original_unit='h')
    >>> parse_quantity("3088 x 1440 (Quad HD+)", entry="Resolution").dims
    (3088.0, 1440.0)
    >>> parse_quantity("5000", entry="Battery Capacity (mAh)").unit
    'mAh'
    >>> [parse_quantity(t) for t in ("5G", "Snapdragon 8 Gen 3", "8 GB + 128 GB")]
    [None, None, None]
    """
    return _parse(text, entry, section, currencies.hint())


# the currency hint is part of the key: "SR 2,375" is money in a riyal catalogue only
@functools.lru_cache(maxsize=1 << 16)
def _parse(text: str, entry: str | None, section: str | None, _hint: frozenset[str]) -> Quantity | None:
    s = _norm(text).strip()
    if s.endswith(".") and not s.endswith(".."):
        s = s[:-1].rstrip()
    if not s or len(s) > 160:  # prose, not a value; the cap also keeps every float finite
        return None
    if (q := _parse_core(s, *_hints(entry, section))) is None and (m := _LABEL.match(s)):
        q = _parse_core(s[m.end() :], None, None)  # "Battery: 5000 mAh", but "Bluetooth: 5.3" is no quantity
        q = q if q is not None and q.unit is not None else None
    return q


def _parse_core(s: str, hint: _Unit | None, dims_hint: _Unit | None) -> Quantity | None:
    qual = None
    if m := _PREFIX_QUAL.match(s):
        qual, s = m.lastgroup, s[m.end() :]
    if price := _price(s):
        return _scalar(_clean(float(price[0])), _lookup(price[1]), qual)
    m1 = _measure(s, 0, dims=True)
    if m1 is None or _HEX.match(s):
        return None
    if _DIM_SEP.match(s, m1.end):
        return _dimensions(s, m1, dims_hint, qual)
    if m1.unit is not None:  # measure again without the axis letters only dimensions may carry
        m1 = _measure(s, 0) or m1
    if sep := _RANGE_SEP.match(s, m1.end):
        return _range(s, m1, sep.end(), hint)
    if m1.unit is not None and m1.unit.dimension == "currency":
        return None  # a currency suffix the price grammar refused ("799 GBP + 20 GBP")
    unit, rest = m1.unit or hint, s[m1.end :]
    if (suffix := _SUFFIX_QUAL.match(rest)) and qual is None:
        qual, rest = suffix.lastgroup, rest[suffix.end() :]
    if m1.plus:
        qual = qual or "at_least"
    if not _rest_ok(rest, m1.unit):
        return None
    value = _canon(m1.raw, unit)
    return None if value is None else _scalar(value, unit, qual)


def _scalar(value: float, unit: _Unit | None, qual: str | None) -> Quantity:
    return Quantity(
        value,
        unit.canonical if unit else None,
        unit.dimension if unit else None,
        low=value if qual == "at_least" else None,
        high=value if qual == "up_to" else None,
        qualifier=qual,
        original_unit=unit.symbol if unit else None,
    )


def _range(s: str, m1: _Measure, pos: int, hint: _Unit | None) -> Quantity | None:
    m2 = _measure(s, pos)
    # "2 GHz - 3" is refused: the second number has no unit of its own.
    if m2 is None or not _rest_ok(s[m2.end :], m2.unit) or (m1.unit is not None and m2.unit is None):
        return None
    u2 = m2.unit or hint
    u1 = m1.unit or u2
    if u1 is not None and u2 is not None and u1.dimension != u2.dimension:
        return None
    low, high = _canon(m1.raw, u1), _canon(m2.raw, u2)
    if low is None or high is None or low > high:
        return None
    return Quantity(
        low if low == high else None,
        u2.canonical if u2 else None,
        u2.dimension if u2 else None,
        low=low,
        high=high,
        qualifier="range",
        original_unit=u2.symbol if u2 else None,
    )


def _dimensions(s: str, m1: _Measure, hint: _Unit | None, qual: str | None) -> Quantity | None:
    comps, end = [m1], m1.end
    while len(comps) < 3 and (sep := _DIM_SEP.match(s, end)):
        if (m := _measure(s, sep.end(), dims=True)) is None:
            return None
        comps.append(m)
        end = m.end
    if _DIM_SEP.match(s, end):  # a fourth component
        return None
    explicit: list[_Unit] = [c.unit for c in comps if c.unit is not None]
    units: list[_Unit | None]
    if explicit:
        if any(u.dimension != explicit[0].dimension or u.dimension not in _DIMS_OK for u in explicit):
            return None  # "2 x 8 GB" is a count of things, not a size
        # A bare component takes the next unit to its right ("15 x 7 cm"), else the last one.
        units = [next((c.unit for c in comps[i:] if c.unit), explicit[-1]) for i in range(len(comps))]
    else:
        units = [hint] * len(comps)
    shown = explicit[-1] if explicit else hint
    if not _rest_ok(s[end:], shown):
        return None
    values = [v for c, u in zip(comps, units) if (v := _canon(c.raw, u)) is not None]
    if len(values) != len(comps):
        return None
    return Quantity(
        None,
        shown.canonical if shown else None,
        shown.dimension if shown else None,
        dims=tuple(values),
        qualifier=qual,
        original_unit=shown.symbol if shown else None,
    )


def _price(s: str) -> tuple[Decimal, str] | None:
    m = _table().price_re.fullmatch(s)
    if m is None or not (m.group("pre") or m.group("post")):
        return None
    units, rest = {_lookup(c) for c in (m.group("pre"), m.group("post")) if c}, m.group("rest")
    if len(units) != 1 or None in units or (rest[:1].strip() and rest[0] not in "([") or _COMPOUND.match(rest.strip()):
        return None
    amount = _amount(m.group("num"), currency=True)
    return None if amount is None else (amount, units.pop().symbol)  # type: ignore[union-attr]


def parse_price(text: str) -> tuple[Decimal, str] | None:
    """A price with its ISO currency code; None without a currency or with several amounts.

    >>> parse_price("799.00 GBP")
    (Decimal('799.00'), 'GBP')
    >>> parse_price("₹1,72,999"), parse_price("Rs. 12,499/-"), parse_price("€949,00")
    ((Decimal('172999'), 'INR'), (Decimal('12499'), 'INR'), (Decimal('949.00'), 'EUR'))
    >>> parse_price("799") is None
    True
    """
    return _price(_norm(text).strip())


def split_values(text: str) -> list[str]:
    """Split a spec value into items at commas/semicolons outside brackets.

    Thousands separators stay ("2,520 mAh"); prose stays whole. When every item but the
    last is a bare number and the last is "number unit", the unit is shared by all.

    >>> split_values("128,256 GB")
    ['128 GB', '256 GB']
    >>> split_values("1,920 x 1,080")
    ['1,920 x 1,080']
    >>> split_values("Memory Card (Hybrid, 2nd slot), upto 1 TB")
    ['Memory Card (Hybrid, 2nd slot)', 'upto 1 TB']
    """
    s = text.strip()
    if "," not in s and ";" not in s:
        return [s] if s else []
    if _is_prose(s):
        return [s]
    keep: set[int] = set()
    for run in _RUN.finditer(s):
        groups = run.group().split(",")
        # A lone "1,5 kg" may be a decimal comma or a list: keep it whole (parse_quantity refuses it).
        lone = len(groups) == 2 and len(groups[1]) < 3 and not _DIGIT.search(s[: run.start()] + s[run.end() :])
        if not (lone or _grouped(groups, _near_currency(s, run.start(), run.end()))):
            keep.clear()  # one digit,digit comma is a separator, so all are: "50 x 50,75 x 75,100 x 100"
            break
        keep.update(i for i in range(run.start(), run.end()) if s[i] == ",")
    parts, depth, start = [], 0, 0
    for m in _SPLIT_AT.finditer(s):
        ch, i = m.group(), m.start()
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and i not in keep:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    items = [p.strip() for p in parts if p.strip()]
    return _share_unit(items)


def _near_currency(s: str, start: int, end: int) -> bool:
    table = _table()
    before, after = table.money_before.search(s, max(0, start - 5), start), table.money_after.match(s, end)
    return any(m is not None and _lookup(m.group().strip()) is not None for m in (before, after))


def _share_unit(items: list[str]) -> list[str]:
    if len(items) < 2 or not all(_BARE.fullmatch(x) for x in items[:-1]):
        return items
    last = _norm(items[-1])
    m = _NUM.match(last)
    um = _table().unit_re.fullmatch(last, m.end()) if m else None
    if um is None or _lookup(um.group(1)) is None:
        return items
    return [f"{x} {um.group(1)}" for x in items[:-1]] + [items[-1]]


def _is_prose(s: str) -> bool:
    words = len(s.split())
    if words < 8:
        return False
    ends = s[-1] in ".!?" and words / (s.count(",") + s.count(";") + 1) >= 4
    return ends or bool(_SENTENCE.search(s) or _SUBCLAUSE.search(s))


def normalise_unit(unit_text: str) -> tuple[str, str, float] | None:
    """Any spelling of a unit -> (canonical unit, dimension, factor to canonical).

    Temperatures also need an offset: use convert() for them.

    >>> normalise_unit("tb"), normalise_unit('"'), normalise_unit("G")
    (('GB', 'data', 1000.0), ('mm', 'length', 25.4), None)
    """
    unit = _lookup(unit_text)
    return None if unit is None else (unit.canonical, unit.dimension, unit.factor)


def unit_at(text: str, pos: int = 0) -> tuple[str, int] | None:
    """The longest unit spelling starting at ``pos`` (after spaces or a hyphen): (its symbol, its end).

    Multi-word spellings count whole, so a question's "20 cubic feet" or "400 kWh a year" reads
    as one unit where a one-word reader sees "cubic" or "kWh".

    >>> unit_at("at least 20 cubic feet", 11), unit_at("under 400 kWh a year", 9), unit_at("20 apples", 2)
    (('ft³', 22), ('kWh/yr', 20), None)
    """
    m = _table().unit_re.match(text, pos)
    if m is None or (unit := _lookup(m.group(1))) is None:
        return None
    return unit.symbol, m.end()


def unit_symbol(unit_text: str) -> str | None:
    """Any spelling of a unit -> its own symbol (not the canonical one); None when unknown.

    >>> unit_symbol("inches"), unit_symbol("kgs"), unit_symbol("Wh"), unit_symbol("zork")
    ('inch', 'kg', 'Wh', None)
    """
    unit = _lookup(unit_text)
    return None if unit is None else unit.symbol


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert between two units of one dimension; ValueError across dimensions or currencies.

    >>> convert(1, "TB", "GB"), convert(6.7, "inch", "cm"), convert(212, "°F", "°C")
    (1000.0, 17.018, 100.0)
    """
    a, b = _lookup(from_unit), _lookup(to_unit)
    if a is None or b is None:
        raise ValueError(f"unknown unit: {from_unit if a is None else to_unit!r}")
    if a.dimension != b.dimension or a.canonical != b.canonical:
        raise ValueError(f"cannot convert {a.symbol} ({a.dimension}) to {b.symbol} ({b.dimension})")
    return _clean((value * a.factor + a.offset - b.offset) / b.factor)


DECIMAL_PLACES = 18
"""Digits after the point an xsd:decimal may carry: Oxigraph reads a literal with more as no number,
so every comparison with it fails and the value is silently out of every numeric filter."""


def format_number(x: float | Decimal) -> str:
    """A plain xsd:decimal literal: no exponent, no float noise, never "-0", at most
    :data:`DECIMAL_PLACES` digits after the point (1/180000 s is 0.000005555555555556).

    >>> format_number(6.7 * 25.4), format_number(2.2e-05), format_number(-0.0), format_number(Decimal("799.00"))
    ('170.18', '0.000022', '0', '799')
    >>> format_number(1 / 180000), format_number(1e-20)
    ('0.000005555555555556', '0')
    >>> format_number(Decimal("246446584885.7872449805146878336"))
    '246446584885.7872449805146878'
    """
    if isinstance(x, float) and not math.isfinite(x):
        raise ValueError(f"not a finite number: {x!r}")
    d = x if isinstance(x, Decimal) else Decimal(x) if isinstance(x, int) else Decimal(f"{x:.15g}")
    if not d.is_finite():
        raise ValueError(f"not a finite number: {x!r}")
    places = d.as_tuple().exponent
    if isinstance(places, int) and -places > DECIMAL_PLACES:
        # precision enough for every digit kept: the default 28 digits refuse a long integer part
        wide = decimal.Context(prec=len(d.as_tuple().digits) + DECIMAL_PLACES)
        d = d.quantize(Decimal(1).scaleb(-DECIMAL_PLACES), context=wide)
    return "0" if d == 0 else f"{d.normalize():f}"
