"""Our quantity and price readers against well-kept libraries: pint, quantulum3, price-parser.

Accuracy and rate on the same labelled strings, side by side:

* whole values: ``tests/fixtures/value_strings/real_values.jsonl`` (472 real strings, read
  from the shared data folder by the fixture's references (``dualgraph.shared_data``), 687
  parts; each part labelled with its expected ``parse_quantity``). A tool finds a part's
  quantity when one of its readings has the expected dimension and canonical number (the
  value, else the range's low and high, else the dimensions, within 1e-9 relative;
  qualifiers are not compared). Tools: ours (``parse_quantity`` per part, and the new
  ``spot`` when importable), quantulum3 (its units mapped onto our dimensions through their
  symbols and names, its entities deciding which of our dimensions may match), and pint fed
  the number+unit spans a plain regex finds (``ureg.Quantity("5000 mAh")``, then converted to
  our canonical unit by pint). Spotters read each part; their neighbouring readings are
  joined the way ours are ("1920 x 1080 pixels": dimensions, "50 - 60 Hz": a range), which
  helps the baselines. Caveat: the fixture was drafted by our parser and then reviewed by
  hand, so ours scores near 100% on it by construction; what the baselines miss is the signal.
* spotting: ``tests/fixtures/value_strings/spotted.jsonl`` when present (real strings with
  ALL their quantities): recall and precision over every expected quantity.
* prices: ``Price.fromstring`` vs ``parse_price`` on the Smartprix raw ``price`` column (truth:
  its digits, INR; they equal the cleaned CSV's ``price_inr`` wherever the model is in both),
  on the Icecat sample's prices as the importer writes them ("693.60 USD"), and on the
  fixture's ``price`` labels; price-parser's currency text is mapped to an ISO code with our
  unit table. False prices: parts without a price that a tool reads as amount + currency.
* pint as a converter: every conversion our parser made on the fixture redone by pint, and
  every spelling in units.yaml that pint also reads compared with what pint makes of it.

Rates are strings per second with every result cache emptied before each pass (the best of
a few passes for the fast tools), on the fixture's digit-bearing parts and on a seeded sample
of distinct digit-bearing values from the datasets (``bench/value_coverage.py``'s readers).

quantulum3 0.10 ships a classifier pickled with an old scikit-learn that newer ones cannot
load; it is then retrained once (its own ``train_classifier``, needs the ``stemming``
package) into ``~/.cache/dualgraph/``.

    .venv/bin/python bench/quantity_libs.py [--sample 2000] [--no-quantulum]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import csv
import functools
import importlib.util
import io
import json
import logging
import math
import random
import re
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import value_coverage  # noqa: E402

from dualgraph.shared_data import shared_data_dir, with_strings  # noqa: E402
from dualgraph.skg import quantities as Q  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures" / "value_strings"
DATA = shared_data_dir()
RATE_FLOOR = 20_000  # values/s a reader must sustain for catalogs of millions of values

_DIGIT = re.compile(r"\d")


# --------------------------------------------------------------------------- readings


@dataclass(frozen=True)
class Found:
    """One reading in our canonical units (what the fixture labels compare)."""

    dimension: str | None
    value: float | None = None
    low: float | None = None
    high: float | None = None
    dims: tuple[float, ...] = ()
    kind: str = "measure"  # our spotter also reports "count" ("Octa Core") and "version" ("Android 14")


@dataclass(frozen=True)
class Raw:
    """A spotter's reading before joining and conversion: numbers as written, our unit symbol."""

    start: int
    end: int
    value: float
    unit: str | None  # the unit as the tool names it; None for a bare number
    dimension: str | None
    low: float | None = None
    high: float | None = None
    canon: Callable[[float], float] | None = None  # the tool's own conversion to our canonical unit


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def matches(found: Found, want: dict) -> bool:
    if found.dimension != want.get("dimension"):
        return False
    if want.get("value") is not None:
        return _close(found.value, want["value"])
    if want.get("dims"):
        return len(found.dims) == len(want["dims"]) and all(map(_close, found.dims, want["dims"]))
    return _close(found.low, want.get("low")) and _close(found.high, want.get("high"))


def _from_quantity(q) -> Found:
    return Found(q.dimension, q.value, q.low, q.high, tuple(q.dims), getattr(q, "kind", "measure"))


_DIMS_GAP = re.compile(r"\s*[xX×*]\s*")
_RANGE_GAP = re.compile(r"\s*(?:-|–|~|to)\s*", re.I)


def _canonical(raw: Raw, x: float) -> float:
    if raw.canon is not None:
        return raw.canon(x)
    if raw.unit is None or raw.dimension == "currency":
        return x
    canonical = Q.normalise_unit(raw.unit)
    return Q.convert(x, raw.unit, canonical[0]) if canonical else x


def assemble(text: str, raws: list[Raw]) -> list[Found]:
    """Join neighbouring readings into dimensions and ranges, then convert to canonical units."""
    raws = sorted(raws, key=lambda r: r.start)
    groups: list[tuple[str, list[Raw]]] = []
    for r in raws:
        if groups and r.low is None:
            kind, last = groups[-1][0], groups[-1][1][-1]
            gap = text[last.end : r.start]
            if kind in ("one", "dims") and last.low is None and len(groups[-1][1]) < 3 and _DIMS_GAP.fullmatch(gap):
                groups[-1] = ("dims", [*groups[-1][1], r])
                continue
            if kind == "one" and last.low is None and _RANGE_GAP.fullmatch(gap):
                groups[-1] = ("range", [last, r])
                continue
        groups.append(("one", [r]))
    out = []
    for kind, members in groups:
        shown = next((m for m in reversed(members) if m.unit is not None or m.canon is not None), members[-1])
        if kind == "one":
            r = members[0]
            if r.low is not None:
                low, high = _canonical(r, r.low), _canonical(r, r.high)  # type: ignore[arg-type]
                out.append(Found(r.dimension, low if low == high else None, low, high))
            else:
                out.append(Found(r.dimension, _canonical(r, r.value)))
            continue
        # A bare member takes the unit shown to its right (or the last one).
        units = [
            next((m for m in members[i:] if m.unit is not None or m.canon is not None), shown)
            for i in range(len(members))
        ]
        values = [_canonical(u if m.unit is None and m.canon is None else m, m.value) for m, u in zip(members, units)]
        if kind == "dims":
            out.append(Found(shown.dimension, None, dims=tuple(values)))
        elif values[0] <= values[1]:
            out.append(Found(shown.dimension, values[0] if values[0] == values[1] else None, values[0], values[1]))
    return out


# --------------------------------------------------------------------------- tools: ours


def ours_parse(part: str, entry: str | None, section: str | None = None) -> list[Found]:
    q = Q.parse_quantity(part, entry=entry, section=section)
    if q is None and (price := Q.parse_price(part)) is not None:
        return [Found("currency", float(price[0]))]
    return [] if q is None else [_from_quantity(q)]


def ours_split_parse(text: str, entry: str | None, section: str | None = None) -> list[Found]:
    """The old path over a whole value: split, then one quantity per part."""
    return [f for part in Q.split_values(text) for f in ours_parse(part, entry, section)]


def load_spot() -> Callable[..., list[Found]] | None:
    try:
        from dualgraph.skg.spotting import spot  # type: ignore[import-not-found]
    except ImportError:
        return None

    def ours_spot(text: str, entry: str | None, section: str | None = None) -> list[Found]:
        return [_from_quantity(x) for x in spot(text, entry=entry, section=section)]

    return ours_spot


def clear_caches(*modules) -> None:
    """Empty the result caches keyed by the value text (quantities._parse, spotting._spot); the
    caches keyed by a unit spelling or an entry name stay warm, as they are in a long run."""
    for module in modules:
        for name in ("_parse", "_spot"):
            if hasattr(getattr(module, name, None), "cache_clear"):
                getattr(module, name).cache_clear()


# --------------------------------------------------------------------------- tools: quantulum3

# quantulum3 entity -> our dimensions its units may land in.
Q3_ENTITIES: dict[str, set[str | None]] = {
    "length": {"length"},
    "mass": {"mass"},
    "data storage": {"data", "bits"},
    "data transfer rate": {"data_rate", "byte_rate"},
    "frequency": {"frequency"},
    "instance frequency": {"frequency", "frame_rate", "rotation_speed"},
    "angular speed": {"rotation_speed"},
    "power": {"power"},
    "charge": {"charge"},
    "energy": {"energy"},
    "electric potential": {"voltage"},
    "current": {"current"},
    "time": {"time"},
    "area": {"area"},
    "volume": {"volume"},
    "temperature": {"temperature"},
    "angle": {"angle"},
    "typographical element": {"pixels", "resolution_mp"},
    "image resolution": {"pixel_density", "dot_density"},
    "luminance": {"luminance"},
    "luminous flux": {"luminous_flux"},
    "electrical resistance": {"resistance"},
    "pressure": {"pressure"},
    "sound level": {"decibel"},
    "dimensionless": {"percent", "multiplier"},
}


def _dimension_of(symbol: str | None) -> str | None:
    n = Q.normalise_unit(symbol) if symbol else None
    return n[1] if n else None


class Quantulum:
    def __init__(self) -> None:
        logging.getLogger("quantulum3").setLevel(logging.ERROR)
        warnings.filterwarnings("ignore", module="quantulum3")
        warnings.filterwarnings("ignore", module="sklearn")
        from quantulum3 import parser

        self.parser = parser
        self.classifier_path = self._classifier()
        self.unmapped: collections.Counter[str] = collections.Counter()

    @staticmethod
    def _classifier() -> str | None:
        from quantulum3 import classifier

        if not classifier.USE_CLF:
            return None
        try:
            classifier.classifier()
            return None  # the shipped one loads
        except Exception:
            pass
        import sklearn

        path = Path.home() / ".cache" / "dualgraph" / f"quantulum3-clf-sklearn{sklearn.__version__}.joblib"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            print(
                f"quantulum3: retraining its classifier for scikit-learn {sklearn.__version__} -> {path}",
                file=sys.stderr,
            )
            try:
                classifier.train_classifier(store=True, output_path=str(path), n_jobs=1)
            except Exception as e:  # e.g. no `stemming` package: quantulum3 then runs without classifier
                print(f"quantulum3: cannot retrain ({e}); running it without its classifier", file=sys.stderr)
                classifier.USE_CLF = False
                return None
        return str(path)

    @functools.cache  # noqa: B019 (one instance per run)
    def unit(self, unit) -> tuple[str | None, str | None]:
        """(our symbol, our dimension) for a quantulum3 unit; (None, None) for a bare number."""
        entity = unit.entity.name
        if entity == "currency":
            code = Q.unit_symbol(unit.currency_code or "") if unit.currency_code else None
            return (code, "currency") if code else ("?", "?")
        if unit.name in ("dimensionless", "unk"):
            return None, None
        allowed = Q3_ENTITIES.get(entity)
        for name in (*unit.symbols, unit.name, *unit.surfaces, *self._composed(unit)):
            symbol = Q.unit_symbol(name)
            if symbol is not None and (allowed is None or _dimension_of(symbol) in allowed):
                return symbol, _dimension_of(symbol)
        self.unmapped[f"{unit.name} ({entity})"] += 1
        return "?", "?"  # a unit none of ours is: it can only miss

    def _composed(self, unit) -> list[str]:
        """Spellings of a derived unit ("gigabyte per second" -> "GB/s", "square millimetre" -> "mm2")
        from the symbols of its parts, which quantulum3 builds on the fly and leaves unnamed."""
        from quantulum3 import load

        names = load.units("en_US").names
        num, den = [], []
        for d in unit.dimensions or []:
            base = names.get(d.get("base"))
            options = [d["surface"]] if d.get("surface") else []
            options += list(base.symbols) if base is not None else []
            symbol = next((o for o in options if Q.unit_symbol(o) is not None), options[0] if options else None)
            if symbol is None:
                return []
            power = d.get("power", 1)
            if power == 1:
                num.append(symbol)
            elif power == 2:
                num.append(f"{symbol}2")
            elif power == -1:
                den.append(symbol)
            else:
                return []
        if len(num) != 1 or len(den) > 1:
            return []
        return [f"{num[0]}/{den[0]}" if den else num[0]]

    def raws(self, text: str) -> list[Raw]:
        out = []
        for q in self.parser.parse(text, classifier_path=self.classifier_path):
            symbol, dimension = self.unit(q.unit)
            start, end = q.span
            surface = q.surface.rstrip()
            if symbol is None and surface[-1:] in "xX":  # "1920 x" before "1080 pixels"
                end = start + len(surface[:-1].rstrip())
            unc = q.uncertainty
            low = high = None
            if unc:
                low, high = q.value - unc, q.value + unc
            out.append(Raw(start, end, q.value, None if symbol == "?" else symbol, dimension, low, high))
        return out

    def read(self, text: str, entry: str | None = None, section: str | None = None) -> list[Found]:
        return assemble(text, self.raws(text))


# --------------------------------------------------------------------------- tools: pint


def _load_pint_names():
    """The symbol map of the pint check (tests/unit/test_units_against_pint.py), not a copy."""
    path = ROOT / "tests" / "unit" / "test_units_against_pint.py"
    spec = importlib.util.spec_from_file_location("units_against_pint", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


_PINT_NUMBER = re.compile(r"(?<![\w.,])-?\d+(?:[.,]\d+)*")
_PINT_UNIT = re.compile(r"[ \t]*([^\W\d_]|[%°\"'µμΩ])[^\s\d,;:()\[\]+&]*(?:/[^\W\d_]+)?")


class Pint:
    """pint as a unit-spelling reader and converter on spans a plain regex finds."""

    def __init__(self) -> None:
        import pint

        logging.getLogger("pint").setLevel(logging.ERROR)
        self.pint = pint
        self.ureg = pint.UnitRegistry()
        self.names = _load_pint_names()
        self.canon: dict[str, object] = {}  # our dimension -> pint unit of our canonical unit
        self.fixed: dict[str, tuple[object, float]] = {}
        for dimension, symbol, canonical in self.names.UNITS:
            if self.names._skip_reason(dimension, symbol, canonical) or dimension in self.canon:
                continue
            name, mult = self.names._pint_name(canonical)
            self.canon[dimension] = (self.ureg.Unit(name), mult)
        # pint dimensionality -> our dimension, where one dimensionality names one of ours
        self.by_dimensionality = {}
        for dimension, (unit, _) in self.canon.items():
            dim = self.ureg.get_dimensionality(unit)
            if dim and dim not in self.by_dimensionality:
                self.by_dimensionality[dim] = dimension

    def dimension(self, units) -> str | None:
        """Our dimension for a pint unit: by its name where pint's dimensions cannot tell
        (bytes, bits, degrees and percent are all dimensionless in pint; Hz and bit/s alike)."""
        name = str(units)
        if "byte" in name:
            return "byte_rate" if "/ second" in name else "data"
        if "bit" in name or "baud" in name:
            return "data_rate" if ("/ second" in name or "baud" in name) else "bits"
        if "pixels_per" in name or "dots_per" in name:
            return "pixel_density"
        if "megapixel" in name:
            return "resolution_mp"
        if "pixel" in name:
            return "pixels"
        if "revolution" in name:
            return "rotation_speed"
        for key, dimension in (("percent", "percent"), ("decibel", "decibel"), ("degree_", "temperature")):
            if key in name:
                return dimension
        if "degree" in name or "radian" in name:
            return "angle"
        return self.by_dimensionality.get(self.ureg.get_dimensionality(units))

    @functools.cache  # noqa: B019 (the unit-string cache a real use keeps: few spellings, many values)
    def unit(self, text: str):
        for candidate in (text, text.rstrip(".")):
            try:
                u = self.ureg.parse_units(candidate)
            except Exception:
                continue
            dimension = self.dimension(u)
            if dimension is None:
                continue
            try:  # pint's px is a length (the CSS pixel), no count of pixels: not ours then
                self.to_canonical(1.0, u, dimension)
            except Exception:
                continue
            return u, dimension
        return None

    def to_canonical(self, x: float, units, dimension: str) -> float:
        target, mult = self.canon[dimension]
        return float(self.ureg.Quantity(x, units).to(target).magnitude) / mult

    @staticmethod
    def number(raw: str) -> float | None:
        if re.fullmatch(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?", raw):
            return float(raw.replace(",", ""))
        head = raw.split(",")[0]
        try:
            return float(head)
        except ValueError:
            return None

    def raws(self, text: str) -> list[Raw]:
        out = []
        for m in _PINT_NUMBER.finditer(text):
            x = self.number(m.group())
            if x is None:
                continue
            end, unit, dimension, canon = m.end(), None, None, None
            if (um := _PINT_UNIT.match(text, m.end())) and (got := self.unit(um.group().strip())):
                u, dimension = got
                try:  # the whole span through pint, as a user would: ureg.Quantity("5000 mAh")
                    pq = self.ureg.Quantity(f"{x} {um.group().strip()}")
                    u = pq.units
                except Exception:
                    pass
                end, unit = um.end(), str(u)
                canon = functools.partial(self.to_canonical, units=u, dimension=dimension)
            out.append(Raw(m.start(), end, x, unit, dimension, canon=canon))
        return out

    def read(self, text: str, entry: str | None = None, section: str | None = None) -> list[Found]:
        try:
            return assemble(text, self.raws(text))
        except Exception:
            return []


# --------------------------------------------------------------------------- measuring


def rate(
    fn: Callable[[str, str | None, str | None], object],
    items: list[tuple[str, str | None, str | None]],
    clear: Callable[[], None] = lambda: None,
    min_seconds: float = 0.5,
    max_passes: int = 5,
) -> float:
    """Strings per second: the best pass, every cache emptied before each."""
    best, spent, passes = 0.0, 0.0, 0
    while passes < max_passes and (passes == 0 or spent < min_seconds):
        clear()
        t0 = time.perf_counter()
        for text, entry, section in items:
            fn(text, entry, section)
        dt = time.perf_counter() - t0
        best, spent, passes = max(best, len(items) / dt), spent + dt, passes + 1
    return best


def fixture_parts() -> list[dict]:
    records = read_fixture(FIXTURES / "real_values.jsonl")
    return [
        {"text": p["text"], "entry": r["entry"], "want": p["q"], "src": r["src"]}
        for r in records
        for p in r["parts"]
        if _DIGIT.search(p["text"])
    ]


def read_fixture(path: Path) -> list[dict]:
    """A value_strings fixture, its strings read from the shared data (the fixture holds references)."""
    labels = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [with_strings(r, DATA) for r in labels]


def hinted(part: dict) -> bool:
    """Whether the expected reading needs the entry name ("Weight (g)": "180"), which the
    libraries are never given."""
    want = part["want"]
    if want is None:
        return False
    bare = Q.parse_quantity(part["text"])
    return bare is None or bare.dimension != want.get("dimension")


def score_parts(name: str, read: Callable[..., list[Found]], parts: list[dict]) -> dict:
    hits = misses = claims = none_parts = free_hits = free = 0
    by_dim: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    missed, claimed = [], []
    for p in parts:
        try:
            found = read(p["text"], p["entry"], None)
        except Exception:
            found = []
        want = p["want"]
        if want is None:
            none_parts += 1
            if any(f.dimension is not None and f.kind == "measure" for f in found):
                claims += 1
                claimed.append(p["text"])
            continue
        ok = any(matches(f, want) for f in found)
        hits += ok
        misses += not ok
        if not ok:
            missed.append(
                f"{p['text']!r} (entry {p['entry']!r}): want {want.get('dimension')} {want.get('value', want.get('dims', (want.get('low'), want.get('high'))))}"
            )
        if not hinted(p):
            free += 1
            free_hits += ok
        cell = by_dim[str(want.get("dimension"))]
        cell[0] += ok
        cell[1] += 1
    return {
        "name": name,
        "hits": hits,
        "expected": hits + misses,
        "free_hits": free_hits,
        "free": free,
        "claims": claims,
        "none_parts": none_parts,
        "by_dim": by_dim,
        "missed": missed,
        "claimed": claimed,
    }


def spotted_records() -> list[dict] | None:
    path = FIXTURES / "spotted.jsonl"
    if not path.exists():
        return None
    out = []
    for r in read_fixture(path):
        text = r.get("value", r.get("text"))
        wants = next(
            (r[k] for k in ("spots", "spotted", "quantities", "expected", "facts") if isinstance(r.get(k), list)), None
        )
        if not isinstance(text, str) or wants is None:
            continue
        out.append(
            {
                "text": text,
                "entry": r.get("entry"),
                "section": r.get("section"),
                "wants": [w for w in wants if isinstance(w, dict)],
            }
        )
    return out


NOT_MEASURES = ("count", "version")


def score_spotting(read: Callable[..., list[Found]], records: list[dict], measures_only: bool = True) -> dict[str, int]:
    """Greedy one-to-one matching of readings to expected facts, per string.

    measures_only: expected counts ("Octa Core") and versions ("Android 14") are left out, and
    so are such readings of our spotter (the libraries have neither)."""
    out = dict.fromkeys(("tp", "expected", "reported", "tp_unit", "reported_unit"), 0)
    for r in records:
        try:
            found = list(read(r["text"], r["entry"], r["section"]))
        except Exception:
            found = []
        wants = r["wants"]
        if measures_only:
            found = [f for f in found if f.kind == "measure" and f.dimension not in NOT_MEASURES]
            wants = [w for w in wants if w.get("dimension") not in NOT_MEASURES]
        out["reported"] += len(found)
        out["reported_unit"] += sum(f.dimension is not None for f in found)
        out["expected"] += len(wants)
        for want in wants:
            i = next((i for i, f in enumerate(found) if matches(f, want)), None)
            if i is not None:
                out["tp"] += 1
                out["tp_unit"] += found[i].dimension is not None
                found.pop(i)
    return out


# --------------------------------------------------------------------------- prices


def price_cases() -> dict[str, list[tuple[str, Decimal, str]]]:
    cases: dict[str, list[tuple[str, Decimal, str]]] = {}
    with open(DATA / "smartprix-india-2025" / "smartphones_raw.csv", encoding="utf-8-sig", newline="") as f:
        cases["smartprix raw price"] = [
            (r["price"], Decimal(re.sub(r"\D", "", r["price"])), "INR")
            for r in csv.DictReader(f)
            if _DIGIT.search(r["price"])
        ]
    icecat = []
    for path in sorted((DATA / "icecat-sample").glob("*.ndjson")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line) if line.strip() else {}
            if isinstance(r.get("price"), (int, float)) and r.get("currency"):
                text = f"{r['price']:.2f} {r['currency'].strip().upper()}"  # as dualgraph.corpus.icecat writes it
                icecat.append((text, Decimal(f"{r['price']:.2f}"), r["currency"].strip().upper()))
    cases["icecat price"] = icecat
    cases["fixture price labels"] = [
        (r["value"], Decimal(r["price"][0]), r["price"][1])
        for r in read_fixture(FIXTURES / "real_values.jsonl")
        if r.get("price")
    ]
    return cases


def price_parser_read(text: str) -> tuple[Decimal, str] | None:
    from price_parser import Price

    p = Price.fromstring(text)
    if p.amount is None or not p.currency:
        return None
    code = Q.unit_symbol(p.currency.strip())
    return p.amount, code or p.currency


def ours_price(text: str) -> tuple[Decimal, str] | None:
    return Q.parse_price(text)


# --------------------------------------------------------------------------- report


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.3g}x" if b else "-"


def corpus_sample(n: int, seed: int = 7) -> list[tuple[str, str | None, str | None]]:
    seen, items = set(), []
    for reader in (value_coverage.smartprix_raw, value_coverage.icecat, value_coverage.amazon_pqa):
        for entry, section, value in reader():
            if _DIGIT.search(value) and value not in seen:
                seen.add(value)
                items.append((value, entry, section))
    random.Random(seed).shuffle(items)
    return items[:n]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sample", type=int, default=2000, help="distinct dataset values for the corpus rate")
    ap.add_argument("--no-quantulum", action="store_true", help="leave quantulum3 out (slow)")
    ap.add_argument("--show", action="append", metavar="TOOL", help="list the misses of the tools whose name starts so")
    args = ap.parse_args(argv)

    parts = fixture_parts()
    spot = load_spot()
    spotting_module = sys.modules.get("dualgraph.skg.spotting")
    pint_tool = Pint()
    tools: list[tuple[str, Callable[..., list[Found]], Callable[[], None]]] = [
        ("ours: parse_quantity", ours_parse, lambda: clear_caches(Q))
    ]
    if spot is not None:
        tools.append(("ours: spot (new)", spot, lambda: clear_caches(Q, spotting_module)))
    if not args.no_quantulum:
        with contextlib.redirect_stdout(io.StringIO()):
            q3 = Quantulum()
        tools.append(("quantulum3", q3.read, lambda: None))
    tools.append(("pint on regex spans", pint_tool.read, lambda: pint_tool.unit.cache_clear()))

    # --- whole-value fixture
    items = [(p["text"], p["entry"], None) for p in parts]
    sample = corpus_sample(args.sample)
    rows = []
    for name, read, clear in tools:
        score = score_parts(name, read, parts)
        slow = name == "quantulum3"
        score["rate"] = rate(read, items, clear, min_seconds=0 if slow else 0.5)
        score["corpus_rate"] = rate(read, sample[: 500 if slow else None], clear, min_seconds=0 if slow else 0.5)
        rows.append(score)
    ours = rows[0]
    print(f"## Whole values: {FIXTURES.name}/real_values.jsonl, {len(parts)} digit-bearing parts")
    print(f"(expected quantities: {ours['expected']}; parts expected to be no quantity: {ours['none_parts']})\n")
    print(
        "| tool | quantities found | recall | vs ours | recall without entry hints | unit claims on no-quantity parts | parts/s | vs ours | corpus values/s | vs ours |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['name']} | {r['hits']}/{r['expected']} | {_pct(r['hits'], r['expected'])} | {_ratio(r['hits'], ours['hits'])} "
            f"| {_pct(r['free_hits'], r['free'])} "
            f"| {r['claims']}/{r['none_parts']} | {r['rate']:,.0f} | {_ratio(r['rate'], ours['rate'])} "
            f"| {r['corpus_rate']:,.0f} | {_ratio(r['corpus_rate'], ours['corpus_rate'])} |"
        )
    print(
        f"\ncorpus: {len(sample)} distinct digit-bearing values of smartprix raw, icecat and amazon-pqa"
        + ("" if args.no_quantulum else " (quantulum3: the first 500)")
    )
    print(
        f"recall without entry hints: over the {ours['free']} expected quantities that need no entry name (the libraries get none)"
    )
    slow = [r["name"] for r in rows if min(r["rate"], r["corpus_rate"]) < RATE_FLOOR]
    print(f"below the floor of {RATE_FLOOR:,} values/s (catalogs have millions of values): {', '.join(slow) or 'none'}")
    print("unit claims: parts the fixture reads as no quantity where the tool reports one with a unit")
    print("(not all wrong: '8 GB + 128 GB' is no single quantity, but a spotter may find both)\n")
    dims = sorted({d for r in rows for d in r["by_dim"]}, key=lambda d: -ours["by_dim"][d][1])
    print("recall by expected dimension:\n")
    print("| dimension | n | " + " | ".join(r["name"] for r in rows) + " |")
    print("|---|---:|" + "---:|" * len(rows))
    for d in dims:
        n = ours["by_dim"][d][1]
        print(f"| {d} | {n} | " + " | ".join(_pct(r["by_dim"][d][0], n) for r in rows) + " |")
    for r in rows:
        if args.show and any(r["name"].startswith(x) for x in args.show):
            print(f"\n{r['name']}: missed")
            for line in r["missed"]:
                print("   ", line)
            print(f"{r['name']}: unit claims on no-quantity parts")
            for line in r["claimed"]:
                print("   ", repr(line))
    if not args.no_quantulum and q3.unmapped:
        print(
            "\nquantulum3 units with no counterpart among ours (counted as misses):",
            ", ".join(f"{k} x{v}" for k, v in q3.unmapped.most_common(12)),
        )

    # --- spotting fixture
    records = spotted_records()
    print("\n## Spotting: spotted.jsonl")
    if records is None:
        print("not present yet (tests/fixtures/value_strings/spotted.jsonl)")
    elif not records:
        print("present, but no record has a text and a list of expected quantities this script knows")
    else:
        spot_tools = [
            ("ours: split_values + parse_quantity (old)", ours_split_parse, lambda: clear_caches(Q)),
            *tools[1:],
        ]
        sitems = [(r["text"], r["entry"], r["section"]) for r in records]
        print(f"{len(records)} strings; quantities = expected facts but counts and versions\n")
        print(
            "| tool | recall | precision | precision (unit-bearing readings) | found/expected/reported | strings/s | vs old |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|")
        base = None
        for name, read, clear in spot_tools:
            m = score_spotting(read, records)
            slow = name == "quantulum3"
            rt = rate(read, sitems[: 300 if slow else None], clear, min_seconds=0 if slow else 0.5)
            base = base or rt
            print(
                f"| {name} | {_pct(m['tp'], m['expected'])} | {_pct(m['tp'], m['reported'])} | {_pct(m['tp_unit'], m['reported_unit'])} "
                f"| {m['tp']}/{m['expected']}/{m['reported']} | {rt:,.0f} | {_ratio(rt, base)} |"
            )
        if spot is not None:
            m = score_spotting(spot, records, measures_only=False)
            print(
                f"\nours: spot over all expected facts (counts and versions too): recall {_pct(m['tp'], m['expected'])}, precision {_pct(m['tp'], m['reported'])} ({m['tp']}/{m['expected']}/{m['reported']})"
            )

    # --- prices
    print("\n## Prices: parse_price vs price-parser (Price.fromstring)\n")
    print("| strings | n | ours: right | price-parser: right | ours/s | price-parser/s | vs ours |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    wrong: collections.Counter[tuple[str, str]] = collections.Counter()
    for label, cases in price_cases().items():
        right = {"ours": 0, "pp": 0}
        for text, amount, code in cases:
            for key, fn in (("ours", ours_price), ("pp", price_parser_read)):
                got = fn(text)
                ok = got is not None and got[0] == amount and got[1] == code
                right[key] += ok
                if not ok:
                    wrong[(key, f"{text!r} -> {got}")] += 1
        citems = [(t, None, None) for t, _, _ in cases]
        r_ours = rate(lambda t, e, s: ours_price(t), citems, lambda: clear_caches(Q))
        r_pp = rate(lambda t, e, s: price_parser_read(t), citems)
        print(
            f"| {label} | {len(cases)} | {_pct(right['ours'], len(cases))} | {_pct(right['pp'], len(cases))} | {r_ours:,.0f} | {r_pp:,.0f} | {_ratio(r_pp, r_ours)} |"
        )
    non_price = [p for p in parts if (p["want"] or {}).get("dimension") != "currency"]
    false_ours = sum(ours_price(p["text"]) is not None for p in non_price)
    false_pp = sum(price_parser_read(p["text"]) is not None for p in non_price)
    print(
        f"\nfalse prices on the fixture's {len(non_price)} digit-bearing parts that are no price: ours {false_ours}, price-parser {false_pp}"
    )
    for (key, what), n in wrong.most_common(8):
        print(f"  wrong ({'ours' if key == 'ours' else 'price-parser'}): {what}" + (f" x{n}" if n > 1 else ""))

    # --- pint as converter
    print("\n## pint as a converter and spelling reader\n")
    conv, disagree = [], []
    for p in parts:
        q = Q.parse_quantity(p["text"], entry=p["entry"])
        if q is None or q.value is None or q.original_unit is None or q.dimension == "currency":
            continue
        d, sym, canon = q.dimension, q.original_unit, q.unit
        if pint_tool.names._skip_reason(d, sym, canon):
            continue
        x = Q.convert(q.value, canon, sym)  # the number as written
        conv.append((x, sym, canon))
    ureg = pint_tool.ureg

    def pint_convert(x: float, sym: str, canon: str) -> float:
        name, mult = pint_tool.names._pint_name(sym)
        target, tmult = pint_tool.names._pint_name(canon)
        return float(ureg.Quantity(x * mult, name).to(target).magnitude) / tmult

    for x, sym, canon in conv:
        a, b = Q.convert(x, sym, canon), pint_convert(x, sym, canon)
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
            disagree.append(f"{x} {sym}: ours {a} {canon}, pint {b}")
    citems = [(f"{x}", sym, canon) for x, sym, canon in conv]
    r_conv = rate(lambda x, s, c: Q.convert(float(x), s, c), citems)
    r_pconv = rate(lambda x, s, c: pint_convert(float(x), s, c), citems)
    strings = [(f"{x} {pint_tool.names._pint_name(sym)[0]}", sym, canon) for x, sym, canon in conv]

    def pint_parse(text: str, *_) -> object:
        try:
            return ureg.Quantity(text)
        except pint_tool.pint.errors.OffsetUnitCalculusError:  # "25 degC" must be built as Quantity(25, "degC")
            return None

    r_pparse = rate(pint_parse, strings)
    print(
        f"conversions our parser made on the fixture (pint-known units): {len(conv)}; pint agrees on {len(conv) - len(disagree)}"
    )
    for d in disagree[:10]:
        print("  differs:", d)
    print(
        f"rate: ours convert() {r_conv:,.0f}/s, pint Quantity(x, unit).to(canonical) {r_pconv:,.0f}/s ({_ratio(r_pconv, r_conv)}); pint Quantity('6.7 inch') string parse {r_pparse:,.0f}/s"
    )

    same, redefined, other, unknown = spelling_report(pint_tool)
    print(
        f"\nunits.yaml spellings: pint reads {same} as the same unit, {len(redefined)} as the same unit defined "
        f"otherwise, {len(other)} as another unit, and does not know {unknown}"
    )
    for line in redefined:
        print("   same unit, other definition:", line)
    for line in other:
        print("   another unit:", line)
    return 0


def spelling_report(pint_tool: Pint) -> tuple[int, list[str], list[str], int]:
    """Each units.yaml spelling (currencies aside) as pint reads it: the same unit (factor and
    offset within 1e-9), the same unit defined otherwise (within 0.1%: pint's Julian year),
    another unit, or none."""
    raw = yaml.safe_load(resources.files("dualgraph.skg").joinpath("units.yaml").read_text("utf-8"))
    same, redefined, other, unknown = 0, [], [], 0
    for dimension, block in raw.items():
        if dimension == "currency":
            continue
        for symbol, spec in block["units"].items():
            names = spec.get("spellings", []) if isinstance(spec, dict) else spec[1:]
            ours = Q.normalise_unit(str(symbol))
            ours_offset = Q.convert(0, str(symbol), ours[0]) if ours else 0.0
            for spelling in (str(symbol), *map(str, names)):
                try:
                    u = pint_tool.ureg.parse_units(spelling)
                except Exception:
                    unknown += 1
                    continue
                factor = offset = None
                if pint_tool.dimension(u) == dimension:
                    with contextlib.suppress(Exception):
                        offset = pint_tool.to_canonical(0.0, u, dimension)
                        factor = pint_tool.to_canonical(1.0, u, dimension) - offset
                line = f"{spelling!r} (ours {symbol}) -> pint {u}"
                if ours is None or factor is None or offset is None:
                    other.append(line)
                elif math.isclose(factor, ours[2], rel_tol=1e-9) and math.isclose(offset, ours_offset, abs_tol=1e-9):
                    same += 1
                elif math.isclose(factor, ours[2], rel_tol=1e-3):
                    redefined.append(f"{line} (factor {factor:.10g} vs ours {ours[2]:.10g})")
                else:
                    other.append(line)
    return same, redefined, other, unknown


if __name__ == "__main__":
    sys.exit(main())
