"""A unit named only in an entry's name applies to the bare numbers in its cells (issue 33).

Raw catalogs write "Weight (kg)", "Power [W]", "Price, USD", "Capacity (Total Volume) (ft3)",
"Annual Energy Use (kWh/yr)" or "Percent Less Energy Use than …" as the column name and bare
numbers in the cells. The number is then read in that unit and converted like any other quantity;
a unit written in the cell itself always wins. The question side reads the same units when they
take several words ("20 cubic feet", "400 kWh a year").
"""

from __future__ import annotations

import pytest

from dualgraph.query.read.parse import parse_question
from dualgraph.skg.quantities import convert, normalise_unit, parse_quantity, unit_at

CUBIC_FOOT_L = 28.316846592  # (0.3048 m)^3 in litres, exact


def _read(value: str, entry: str, section: str | None = None) -> tuple[float | None, str | None, str | None]:
    q = parse_quantity(value, entry=entry, section=section)
    assert q is not None, (value, entry)
    return q.value, q.unit, q.dimension


@pytest.mark.parametrize(
    ("entry", "value", "expected"),
    [
        ("Height (in)", "70", (1778.0, "mm", "length")),  # parenthesised symbol
        ("Power [W]", "65", (65.0, "W", "power")),  # bracketed
        ("Weight (kg)", "2.5", (2500.0, "g", "mass")),
        ("Depth, mm", "600", (600.0, "mm", "length")),  # after a comma
        ("Price, USD", "799", (799.0, "USD", "currency")),
        ("Volume (L)", "300", (300.0, "l", "volume")),
        ("Width in mm", "595", (595.0, "mm", "length")),  # "in" before a unit
        ("Capacity (Total Volume) (ft3)", "20", (20 * CUBIC_FOOT_L, "l", "volume")),  # the last bracket
        ("Adjusted Volume (cu ft)", "1.5", (1.5 * CUBIC_FOOT_L, "l", "volume")),
        ("Annual Energy Use (kWh/yr)", "350", (350.0, "kWh/yr", "energy_per_time")),
        ("Energy consumption (kWh/year)", "120", (120.0, "kWh/yr", "energy_per_time")),
        ("Daily consumption (kWh/day)", "1", (365.2425, "kWh/yr", "energy_per_time")),
        ("Efficiency (%)", "92", (92.0, "%", "percent")),
        ("Percent Less Energy Use than US Federal Standard", "10", (10.0, "%", "percent")),
        ("Percentage recycled", "35", (35.0, "%", "percent")),
    ],
)
def test_a_unit_in_the_entry_name_reads_a_bare_number(entry, value, expected):
    got = _read(value, entry)
    assert got[1:] == expected[1:]
    assert got[0] == pytest.approx(expected[0], rel=1e-12)


@pytest.mark.parametrize(
    ("entry", "value", "expected"),
    [
        ("Weight (kg)", "2 lb", (907.18474, "g", "mass")),  # the cell's own unit, not the name's
        ("Capacity (ft3)", "500 L", (500.0, "l", "volume")),
        ("Annual Energy Use (kWh/yr)", "1.2 kWh/day", (1.2 * 365.2425, "kWh/yr", "energy_per_time")),
        ("Height (in)", "180 cm", (1800.0, "mm", "length")),
        ("Percent Less Energy Use", "2 years", (63113904.0, "s", "time")),
    ],
)
def test_a_unit_in_the_cell_wins_over_the_name(entry, value, expected):
    got = _read(value, entry)
    assert got[1:] == expected[1:]
    assert got[0] == pytest.approx(expected[0], rel=1e-12)


@pytest.mark.parametrize(
    "entry",
    [
        "Capacity (Total Volume)",  # a bracket that names no unit
        "Made in USA",  # "in" followed by no unit
        "Built in",  # the word "in", not "(in)"
        "Plug-in Hybrid",
        "Colour, Black",  # a comma followed by no unit
        "Depth (min)",  # "(min)" is a minimum, not minutes
        "Port(s)",
        "Inputs, Outputs",
    ],
)
def test_a_name_that_only_looks_like_a_unit_leaves_the_number_bare(entry):
    assert _read("70", entry) == (70.0, None, None)


def test_a_percent_word_in_a_section_name_does_not_make_its_entries_percentages():
    assert _read("70", "Height", section="Percent of sales") == (70.0, None, None)
    assert _read("70", "Height (in)", section="Percent of sales")[1] == "mm"


def test_new_units_convert_like_the_others():
    assert normalise_unit("ft3") == ("l", "volume", CUBIC_FOOT_L)
    assert normalise_unit("cubic feet") == normalise_unit("cu ft") == normalise_unit("ft³")
    assert convert(1, "m³", "l") == 1000.0
    assert convert(12, "kWh/month", "kWh/yr") == 144.0
    assert convert(365.2425, "kWh/year", "kWh/day") == 1.0
    assert normalise_unit("percentage") == ("%", "percent", 1.0)
    with pytest.raises(ValueError):
        convert(1, "kWh/yr", "kWh")  # energy per time is not energy
    assert normalise_unit("cc") is None  # engines write it: not taken as a volume


def test_unit_at_takes_the_longest_spelling():
    q = "under 400 kWh a year"
    assert unit_at(q, q.index("400") + 3) == ("kWh/yr", len(q))
    assert unit_at("20 ft3", 2) == ("ft³", 6)
    assert unit_at("20 in stock", 2) == ("inch", 5)  # a spelling; the question reader decides
    assert unit_at("20 apples", 2) is None


def _numeric(question: str):
    cs = [c for c in parse_question(question).constraints if hasattr(c, "op")]
    assert len(cs) == 1, (question, cs)
    return cs[0]


@pytest.mark.parametrize(
    ("question", "op", "value", "unit", "dimension"),
    [
        ("Which fridges hold at least 20 cubic feet?", ">=", 20 * CUBIC_FOOT_L, "l", "volume"),
        ("fridges with at least 20 ft3", ">=", 20 * CUBIC_FOOT_L, "l", "volume"),
        ("Which fridges use under 400 kWh a year?", "<", 400.0, "kWh/yr", "energy_per_time"),
        ("fridges using less than 600 kWh per year", "<", 600.0, "kWh/yr", "energy_per_time"),
        ("fridges under 300 kWh/yr", "<", 300.0, "kWh/yr", "energy_per_time"),
        ("between 18 and 22 cu ft", "between", 18 * CUBIC_FOOT_L, "l", "volume"),
        ("Which fridges hold at least 800 litres?", ">=", 800.0, "l", "volume"),
    ],
)
def test_a_question_reads_units_of_several_words(question, op, value, unit, dimension):
    c = _numeric(question)
    assert (c.op, c.unit, c.dimension) == (op, unit, dimension)
    assert c.value == pytest.approx(value, rel=1e-12)


def test_a_question_range_in_cubic_feet_converts_both_ends():
    c = _numeric("between 18 and 22 cu ft")
    assert c.high == pytest.approx(22 * CUBIC_FOOT_L, rel=1e-12)


def test_a_preposition_after_a_number_stays_a_preposition():
    c = _numeric("TVs over 55 in stock")
    assert (c.value, c.unit) == (55.0, None)
