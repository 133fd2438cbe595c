"""A value asked in a unit ("…, in metres?", "How many inches tall is X?") comes in that unit, and the
words that asked for it count as read: no "unread" phrase, no confidence lost for them. The invented
lamp catalogue of test_compiler_agents (heights in cm); every expected value is computed from its rows."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog
from test_compiler_agents import RECORDS, _variant

from dualgraph.query.interpret.compiler import Compiler

CM_PER = {"mm": 0.1, "m": 100.0, "inch": 2.54}


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("lamps"), currency="EUR")


def _height(name: str) -> int:
    return next(r["height"] for r in RECORDS if r["name"] == name)


@pytest.mark.parametrize(
    ("question", "name", "unit"),
    [
        ("What is the height of the Reed Lamp in metres?", "Reed Lamp", "m"),
        ("How tall is the Reed Lamp in inches?", "Reed Lamp", "inch"),
        ("How many millimetres tall is the Orb Lamp?", "Orb Lamp", "mm"),
        ("How many inches tall is the Orb Lamp?", "Orb Lamp", "inch"),
    ],
)
def test_a_value_comes_in_the_unit_asked_and_the_unit_is_read(compiler, question, name, unit):
    ans = compiler.answer(question)
    assert ans.value is not None, ans.trace
    assert float(ans.value) == pytest.approx(_height(name) / CM_PER[unit], rel=1e-6), ans.trace
    assert ans.unread == [], ans.trace


def test_the_verb_that_asks_the_value_is_read(tmp_path):
    import test_compiler_roman_numerals as cameras

    compiler = compile_catalog([cameras._variant(r) for r in cameras.RECORDS], tmp_path, currency="EUR")
    ans = compiler.answer("How much does the Pelle Series 5 weigh?")
    assert float(str(ans.value).split()[0]) == cameras._row("Pelle Series 5")["weight"], ans.trace
    assert ans.unread == [], ans.trace


def test_the_extreme_value_in_the_unit_asked(compiler):
    ans = compiler.answer("What is the height of the tallest lamp, in metres?")
    assert float(ans.value) == pytest.approx(max(r["height"] for r in RECORDS) / 100) and ans.unread == [], ans.trace
