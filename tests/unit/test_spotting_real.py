"""Real spec value strings against dualgraph.skg.spotting.spot (fixture: value_strings/spotted.jsonl).

The strings are read from the public data sets in the shared data folder (the fixture holds
where each lies, and our labels); the tests that need them skip when that folder is absent.

The fixture was written by hand from the spotting rules (see the fixture README), not from the
implementation. One test compares every string's facts with the expectation and reports all
mismatches at once; another varies spacing, case, thousands separators and unit spellings of a
sample of strings and requires the same facts.
"""

from __future__ import annotations

import json
import math
import random
import re
import zlib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
import yaml

from dualgraph import shared_data
from dualgraph.skg.quantities import split_values
from dualgraph.skg.spotting import spot_parts

# Hand labels for real value strings; each string is read from the public data set it came from
# (dualgraph.shared_data), never copied into the repository.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "value_strings" / "spotted.jsonl"
LABELS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
NO_DATA = shared_data.missing(sorted({r["ref"]["file"] for r in LABELS}))
RECORDS = LABELS if NO_DATA else [shared_data.with_strings(r) for r in LABELS]
needs_data = pytest.mark.skipif(NO_DATA is not None, reason=f"real value strings: {NO_DATA}")

# Share of fixture strings allowed to mismatch. 0 = exact; relax only with a documented reason here.
# First contact of spot() with this hand-written set: 91/457 (19.9%). After the general fixes (number words,
# '+' chains ending in an unnumbered lens, versions named by the entry, tokens with digits never label, the
# converter's split-then-spot path): 63/457 (13.8%). What still differs, known and left:
#   - lists sharing a unit written with '/' ("50/60 Hz", "4gb/64gb") and fractions ('1/1.3"', "5/16 inch");
#   - one-letter units glued to codes or words ("802.11g", "4g hspa+", "ac 120v", "12v 3a");
#   - "N x" before a noun read as a multiplier ("2x DIMM") or as dimensions ('1x 3.5"');
#   - versions followed by words ("Android 14 Go Edition", "Windows 11 Pro"), and 3-part versions kept
#     as major.minor (2.5.3 -> 2.5, a comparable key) where the fixture wants no number;
#   - prose labels: our stop list is longer than the fixture's ("are", "from", "includes").
MAX_MISMATCH_RATE = 0.14
# Share of generated variants allowed to differ from their string's expectation.
MAX_VARIANT_MISMATCH_RATE = 0.0

REL_TOL = 1e-6
# Spotted's attribute for each fixture field (read with getattr, so names can be aligned in one place).
FIELD = {
    "value": "value",
    "low": "low",
    "high": "high",
    "dims": "dims",
    "unit": "unit",
    "dimension": "dimension",
    "qualifier": "qualifier",
    "label": "label",
    "position": "position",
}
NUMBERS = ("value", "low", "high")
QUALIFIERS = {None, "up_to", "at_least", "approx", "range", "typical", "max", "min"}


# --------------------------------------------------------------------------- comparison


def _words(label: object) -> frozenset[str]:
    if label is None:
        return frozenset()
    if isinstance(label, str):
        return frozenset(label.split())
    return frozenset(w for part in label for w in str(part).split())  # a tuple/list of words


def _num(x: object) -> float | None:
    if x is None:
        return None
    try:
        return float(x)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan  # e.g. a version string: never equal to a number


def _num_eq(a: object, b: object) -> bool:
    a, b = _num(a), _num(b)
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-9)


def _got(fact: object) -> dict:
    """One Spotted as a plain dict in the fixture's shape."""
    out = {name: getattr(fact, attr, None) for name, attr in FIELD.items()}
    out["dims"] = [float(d) for d in out["dims"] or ()]
    return out


def _diff(want: list[dict], got: list[dict]) -> list[str]:
    """The kinds of mismatch between expected and spotted facts (empty when they agree)."""
    if len(want) != len(got):
        return ["fact count"]
    kinds = []
    for w, g in zip(want, got, strict=True):
        if w["dimension"] != g["dimension"]:
            kinds.append("dimension")
        if w["unit"] != g["unit"]:
            kinds.append("unit")
        wd, gd = w.get("dims") or [], g["dims"]
        if not all(_num_eq(w[k], g[k]) for k in NUMBERS) or len(wd) != len(gd) or not all(map(_num_eq, wd, gd)):
            kinds.append("number")
        if w["qualifier"] != g["qualifier"]:
            kinds.append("qualifier")
        if w["position"] != g["position"]:
            kinds.append("position")
        if _words(w["label"]) != _words(g["label"]):
            kinds.append("label")
    return sorted(set(kinds))


def _fmt(facts: list[dict]) -> str:
    parts = []
    for f in facts:
        if f.get("dims"):
            num = " x ".join(f"{d:g}" for d in f["dims"])
        elif f["qualifier"] == "range" or (f["value"] is None and (f["low"] is not None or f["high"] is not None)):
            num = f"{f['low']}..{f['high']}"
        else:
            num = f"{f['value']}"
        qual = f" {f['qualifier']}" if f["qualifier"] else ""
        parts.append(
            f"{f['dimension']}:{num} {f['unit'] or ''} [{' '.join(sorted(_words(f['label'])))}]{qual} #{f['position']}"
        )
    return "; ".join(parts) or "(none)"


def _spot(text: str, rec: dict) -> list[dict]:
    # the converter's path: split the value into parts, then spot every part (positions run across them)
    parts = spot_parts(split_values(text), entry=rec["entry"], section=rec["section"])
    return [_got(f) for part in parts for f in part]


def _report(title: str, failures: list[tuple[dict, str, list[str], list[dict]]], total: int) -> str:
    by_src = Counter(rec["src"] for rec, *_ in failures)
    by_kind = Counter((rec["src"], kind) for rec, _, kinds, _ in failures for kind in kinds)
    lines = [
        f"{title}: {len(failures)}/{total} mismatched ({len(failures) / max(total, 1):.1%})",
        "by source: " + ", ".join(f"{s}={n}" for s, n in sorted(by_src.items())),
        "by source and kind: " + ", ".join(f"{s}/{k}={n}" for (s, k), n in sorted(by_kind.items())),
    ]
    for rec, text, kinds, got in failures:
        lines.append(
            f"- [{rec['src']}] entry={rec['entry']!r} section={rec['section']!r} value={text!r} ({', '.join(kinds)})"
        )
        lines.append(f"    want: {_fmt(rec['facts'])}")
        lines.append(f"    got:  {_fmt(got)}")
        if rec.get("note"):
            lines.append(f"    note: {rec['note']}")
    return "\n".join(lines)


def _failures() -> list[tuple[dict, str, list[str], list[dict]]]:
    out = []
    for rec in RECORDS:
        got = _spot(rec["value"], rec)
        if kinds := _diff(rec["facts"], got):
            out.append((rec, rec["value"], kinds, got))
    return out


# --------------------------------------------------------------------------- the fixture itself


def _canonical_units() -> dict[str, str]:
    table = yaml.safe_load(resources.files("dualgraph.skg").joinpath("units.yaml").read_text("utf-8"))
    return {dim: block["canonical"] for dim, block in table.items() if block["canonical"]}


@needs_data
def test_fixture_strings_are_distinct():
    values = [r["value"] for r in RECORDS]
    assert len(values) == len(set(values)), "values must be distinct"


def test_fixture_is_well_formed():
    counts = Counter(r["src"] for r in LABELS)
    assert len(LABELS) >= 300 and counts["smartprix"] >= 120 and counts["icecat"] >= 120 and counts["amazon"] >= 60
    canonical = _canonical_units()
    for rec in LABELS:
        assert set(rec) <= {"src", "entry", "section", "ref", "facts", "note"}, rec
        seen: Counter[str] = Counter()
        for f in rec["facts"]:
            where = f"{rec['ref']}: {f}"
            if f["dimension"] in ("count", "version"):
                assert f["unit"] is None, where
            else:
                assert canonical.get(f["dimension"]) == f["unit"], where
            assert f["qualifier"] in QUALIFIERS, where
            assert f["label"] == f["label"].lower().strip(), where
            assert f["position"] == seen[f["dimension"]], where
            seen[f["dimension"]] += 1
            if f["qualifier"] == "range":
                assert f["value"] is None and f["low"] is not None and f["high"] is not None, where
            if f.get("dims"):
                assert f["value"] is None and len(f["dims"]) >= 2, where


# --------------------------------------------------------------------------- real strings


@needs_data
def test_spot_real_values():
    failures = _failures()
    rate = len(failures) / len(RECORDS)
    assert rate <= MAX_MISMATCH_RATE, _report("spot() vs spotted.jsonl", failures, len(RECORDS))


# --------------------------------------------------------------------------- generated variations
# Only forms units.yaml accepts: a spelling of one or two characters keeps its case ("GB" never
# becomes "Gb", a gigabit), longer ones may change case; no decimal commas (not read outside prices).

_UNIT = r"mAh|GHz|MHz|kHz|Hz|GB|MB|TB|MP|inches|px|Wh|W|RPM|min|ms|mm|cm|kg|g|h|V|A|fps|ppi|m"
_AFTER_NUMBER = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)( ?)({_UNIT})(?![A-Za-z])")
_CASES = {
    "mAh": ["mah", "MAH"],
    "GHz": ["ghz", "Ghz", "GHZ"],
    "MHz": ["mhz", "Mhz"],
    "kHz": ["khz", "KHz"],
    "Hz": ["hz", "HZ"],
    "GB": ["gb"],
    "MB": ["mb"],
    "TB": ["tb"],
    "MP": ["mp", "Mp"],
    "inches": ["Inches", "INCHES"],
    "px": ["PX"],
    "W": ["w"],
    "RPM": ["rpm"],
}
_SPELLINGS = {
    "inches": ["inch", '"'],
    "mAh": ["mah"],
    "GHz": ["ghz"],
    "MHz": ["mhz"],
    "kHz": ["khz"],
    "Hz": ["hertz"],
    "px": ["pixels", "pixel"],
    "MP": ["megapixels", "megapixel"],
    "GB": ["gigabytes"],
    "MB": ["megabytes"],
    "TB": ["terabytes"],
    "W": ["watts", "watt"],
    "h": ["hours", "hrs"],
    "min": ["minutes", "mins"],
    "kg": ["kilograms", "kgs"],
    "g": ["grams"],
    "mm": ["millimeters", "millimetres"],
    "cm": ["centimeters"],
    "V": ["volts"],
    "A": ["amps"],
}
_WORD = re.compile(r"(?<![\w-])[A-Za-z]{3,}(?![\w-])")
_UNIT_WORDS = {u.casefold() for u in [*_CASES, *_SPELLINGS]} | {"ram", "upto"}
_GROUPABLE = re.compile(r"(?<![\d.,])(\d{4,6})(?= ?(?:mAh|MHz|RPM|min|m)\b)")
_VARIED_COLUMNS = {"Battery", "Display", "Camera", "Processor", "Memory"}
_SIMPLE_ICECAT = re.compile(rf"-?\d+(?:\.\d+)? (?:{_UNIT})")


def _toggle_space(text: str, rng: random.Random) -> str:
    def sub(m: re.Match) -> str:
        if rng.random() < 0.6:
            return m.group(1) + ("" if m.group(2) else " ") + m.group(3)
        return m.group(0)

    return _AFTER_NUMBER.sub(sub, text)


def _vary_case(text: str, rng: random.Random) -> str:
    def unit(m: re.Match) -> str:
        alts = _CASES.get(m.group(3))
        return m.group(1) + m.group(2) + rng.choice(alts) if alts and rng.random() < 0.6 else m.group(0)

    def word(m: re.Match) -> str:
        w = m.group(0)
        if w.casefold() in _UNIT_WORDS or rng.random() < 0.5:
            return w
        return rng.choice([w.upper(), w.lower(), w.capitalize()])

    return _WORD.sub(word, _AFTER_NUMBER.sub(unit, text))


def _thousands(text: str, rng: random.Random) -> str:  # rng unused: grouping is all or nothing
    return _GROUPABLE.sub(lambda m: f"{int(m.group(1)):,}", text)


def _respell(text: str, rng: random.Random) -> str:
    def sub(m: re.Match) -> str:
        alts = _SPELLINGS.get(m.group(3))
        if not alts or rng.random() < 0.4:
            return m.group(0)
        alt = rng.choice(alts)
        return m.group(1) + ("" if alt == '"' else " ") + alt

    return _AFTER_NUMBER.sub(sub, text)


_TRANSFORMS = (_toggle_space, _vary_case, _thousands, _respell)
VARIANTS_PER_STRING = 3


def _eligible(rec: dict) -> bool:
    if rec["src"] == "smartprix":
        return rec["entry"] in _VARIED_COLUMNS and bool(rec["facts"])
    return rec["src"] == "icecat" and bool(_SIMPLE_ICECAT.fullmatch(rec["value"]))


def variants(rec: dict) -> list[str]:
    """Deterministic rewrites of a value that must give the same facts."""
    out: list[str] = []
    for k in range(VARIANTS_PER_STRING):
        rng = random.Random(zlib.crc32(rec["value"].encode()) * 31 + k)
        text = rec["value"]
        for transform in rng.sample(_TRANSFORMS, rng.randint(1, len(_TRANSFORMS))):
            text = transform(text, rng)
        if text != rec["value"] and text not in out:
            out.append(text)
    return out


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:\.\d+)?", text.replace(",", ""))


@needs_data
def test_variants_generator_keeps_numbers():
    """The rewrites only touch spacing, case, grouping and unit spellings."""
    made = 0
    for rec in filter(_eligible, RECORDS):
        for text in variants(rec):
            made += 1
            assert _numbers(text) == _numbers(rec["value"]), (rec["value"], text)
    assert made >= 200


@needs_data
def test_spot_variants_keep_facts():
    exact = {id(rec) for rec in RECORDS if not _diff(rec["facts"], _spot(rec["value"], rec))}
    failures, total = [], 0
    for rec in RECORDS:
        if not _eligible(rec) or id(rec) not in exact:
            continue  # a string spot() already gets wrong is reported by test_spot_real_values
        for text in variants(rec):
            total += 1
            got = _spot(text, rec)
            if kinds := _diff(rec["facts"], got):
                failures.append((rec, text, kinds, got))
    if total == 0:
        pytest.skip("no fixture string is spotted exactly yet")
    assert len(failures) / total <= MAX_VARIANT_MISMATCH_RATE, _report("variants", failures, total)
