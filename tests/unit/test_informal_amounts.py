"""Amounts said the way people talk: "a grand", "two grand", "more than a kilo", "at least a gig".
"A"/"an" is the number one before a spelled-out unit or a multiplier, never before the ordinal a
time unit shares ("a second camera") or an abbreviation ("a mAh rating")."""

from __future__ import annotations

import pytest

from dualgraph.query.read.model import NumericConstraint
from dualgraph.query.read.parse import parse_question


def amounts(q: str) -> list[tuple[str, float, str | None]]:
    return [(c.op, c.value, c.unit) for c in parse_question(q).constraints if isinstance(c, NumericConstraint)]


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # "grand" is a thousand of money: a bare amount with a multiplier is a price
        ("Any bikes going for more than ten grand?", [(">", 10000.0, None)]),
        ("Carbon bikes under two grand?", [("<", 2000.0, None)]),
        ("Anything for under a grand?", [("<", 1000.0, None)]),
        # "a"/"an" before a unit is one of it
        ("How many cameras weigh more than a kilo?", [(">", 1000.0, "g")]),
        ("Which desks are more than a metre deep?", [(">", 1000.0, "mm")]),
        ("Which laptop GPUs have at least a gig of memory?", [(">=", 1.0, "GB")]),
        ("Which tablets last more than an hour?", [(">", 3600.0, "s")]),
        ("Which scales read half a kilo?", [("=", 500.0, "g")]),
        # an ordinal, an abbreviation, a thing: no amount
        ("Which phones have a second camera?", []),
        ("Which batteries have a mAh rating?", []),
        ("Which fridges have a freezer?", []),
    ],
)
def test_informal_amounts(question, want):
    assert amounts(question) == want


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # thousands grouped by a space or a dot, as much of Europe writes an amount of money
        ("Show me everything over 10 000 dollars.", [(">", 10000.0, "USD")]),
        ("Anything under $10 000?", [("<", 10000.0, "USD")]),
        ("A carbon bike, budget 2.000 dollars max.", [("<=", 2000.0, "USD")]),
        ("Bikes under 1.200,50 €?", [("<", 1200.5, "EUR")]),
        # not money: a space parts two numbers, a dot is a decimal point
        ("Is the iPhone 15 128 GB in stock?", [("=", 128.0, "GB")]),
        ("Which bikes weigh under 2.500 kg?", [("<", 2500.0, "g")]),
    ],
)
def test_grouped_thousands(question, want):
    assert [a for a in amounts(question) if a[1] != 15.0] == want


@pytest.mark.parametrize(
    ("question", "want"),
    [
        # energy units spelled out are the units of the table, not a power in kilowatts
        ("Which fridges use over 750 kilowatt hours a year?", [(">", 750.0, "kWh/yr")]),
        ("What do the Bosch units use in total, in megawatt hours?", []),
        ("Which batteries store at least 2 kilowatt-hours?", [(">=", 2000.0, "Wh")]),
    ],
)
def test_energy_spelled_out(question, want):
    assert amounts(question) == want
