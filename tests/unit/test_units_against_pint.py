"""units.yaml checked against pint: every factor (and offset) to the canonical unit of its dimension.

pint is an independent, widely used unit table. For each unit of ``units.yaml`` that pint
knows, converting 0 and 1 of it to the dimension's canonical unit must give our offset and
factor within 1e-9 relative. Where pint spells a unit differently, ``PINT_NAMES`` maps our
symbol to pint's name; units pint lacks (or reads as something else) are skipped with the
reason in ``SKIP``. A unit added to units.yaml that pint does not know and that is in
neither table fails ``test_every_unit_is_checked_or_skipped``: map it or give the reason.
"""

from __future__ import annotations

import functools
from importlib import resources

import pytest
import yaml

from dualgraph.skg.quantities import convert, normalise_unit

pint = pytest.importorskip("pint")

# Our symbol -> (pint unit name, multiplier): 1 of ours is `multiplier` of pint's unit.
PINT_NAMES: dict[str, tuple[str, float]] = {
    "KB": ("kB", 1),  # pint's kilo prefix is lower-case only
    "KB/s": ("kB/s", 1),
    "kbps": ("kbit/s", 1),  # pint reads "kbps" as kilobaud
    "Mbps": ("Mbit/s", 1),
    "Gbps": ("Gbit/s", 1),
    "mm²": ("mm**2", 1),
    "cm²": ("cm**2", 1),
    "m²": ("m**2", 1),
    "°C": ("degC", 1),
    "°F": ("degF", 1),
    "°": ("degree", 1),
    "%": ("percent", 1),
    "fl oz": ("fluid_ounce", 1),  # the US fluid ounce
    # Our year and month are Gregorian (365.2425 days, so that 24 months == 2 years); pint's
    # plain "year" and "month" are Julian (365.25 days), its Gregorian year is named apart.
    "year": ("gregorian_year", 1),
    "month": ("gregorian_year", 1 / 12),
    "kWh/yr": ("kWh/gregorian_year", 1),
    "kWh/month": ("kWh/gregorian_year", 12),  # a month is a twelfth of our year
    "ft³": ("ft**3", 1),
    "in³": ("inch**3", 1),
    "m³": ("m**3", 1),
    "cm³": ("cm**3", 1),
    "px": ("pixel", 1),  # pint's "px" is the CSS pixel, a length
    "MP": ("megapixel", 1),  # pint's "MP" is the megapoise
    "ppi": ("pixels_per_inch", 1),
    "dpi": ("dots_per_inch", 1),  # pint's "dpi" is the dry pint
    "dB": ("decibel", 1),
}

SKIP: dict[str, str] = {
    "MT/s": "pint has no transfers (it reads MT/s as megatesla per second)",
    "GT/s": "pint has no transfers (it reads GT/s as gigatesla per second)",
    "fps": "pint has no frames (it reads fps as foot per second)",
    "x": "pint has no multiplier unit ('100x' zoom)",
}
SKIP_DIMENSIONS: dict[str, str] = {
    "currency": "currencies are never converted (and pint has none)",
}


def _table() -> list[tuple[str, str, str]]:
    raw = yaml.safe_load(resources.files("dualgraph.skg").joinpath("units.yaml").read_text("utf-8"))
    return [
        (dimension, str(symbol), str(block["canonical"] or symbol))
        for dimension, block in raw.items()
        for symbol in block["units"]
    ]


UNITS = _table()


@functools.cache
def _registry():
    return pint.UnitRegistry()


def _pint_name(symbol: str) -> tuple[str, float]:
    return PINT_NAMES.get(symbol, (symbol, 1.0))


def _skip_reason(dimension: str, symbol: str, canonical: str) -> str | None:
    return SKIP_DIMENSIONS.get(dimension) or SKIP.get(symbol) or SKIP.get(canonical)


def _pint_to(amount: float, symbol: str, canonical: str) -> float:
    """`amount` of our `symbol` in our `canonical` unit, as pint converts it."""
    ureg = _registry()
    name, mult = _pint_name(symbol)
    target, target_mult = _pint_name(canonical)
    return float(ureg.Quantity(amount * mult, name).to(target).magnitude) / target_mult


@pytest.mark.parametrize(("dimension", "symbol", "canonical"), UNITS, ids=[f"{d}:{s}" for d, s, _ in UNITS])
def test_factor_matches_pint(dimension, symbol, canonical):
    if reason := _skip_reason(dimension, symbol, canonical):
        pytest.skip(reason)
    canon, dim, factor = normalise_unit(symbol)
    assert (canon, dim) == (canonical, dimension)
    offset = convert(0, symbol, canonical)
    pint_offset = _pint_to(0.0, symbol, canonical)
    pint_factor = _pint_to(1.0, symbol, canonical) - pint_offset
    assert factor == pytest.approx(pint_factor, rel=1e-9), f"{symbol}: factor {factor} != pint's {pint_factor}"
    assert offset == pytest.approx(pint_offset, rel=1e-9, abs=1e-12), (
        f"{symbol}: offset {offset} != pint's {pint_offset}"
    )


def test_every_unit_is_checked_or_skipped():
    ureg = _registry()
    unknown = []
    for dimension, symbol, canonical in UNITS:
        if _skip_reason(dimension, symbol, canonical):
            continue
        try:
            ureg.Unit(_pint_name(symbol)[0])
        except Exception:
            unknown.append(symbol)
    assert not unknown, f"pint does not know {unknown}: add them to PINT_NAMES or SKIP (with the reason)"


def test_the_check_would_catch_a_wrong_factor():
    # Decimal vs binary gigabytes differ by 7%: far beyond the tolerance.
    assert _pint_to(1.0, "GiB", "GB") == pytest.approx(1.073741824, rel=1e-12)
    assert _pint_to(1.0, "GiB", "GB") != pytest.approx(1.0, rel=1e-9)
    assert _pint_to(1.0, "month", "s") == pytest.approx(2629746, rel=1e-12)
