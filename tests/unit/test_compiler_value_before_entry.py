"""A listed value followed by the word naming its entry is that value of that entry: "automatic
defrost" is the Defrost type "Automatic", "manual defrosting" the Defrost type "Manual", though no
feature and no value is called "automatic defrost". Before, the phrase went to the pages, which never
say it, and the count was 0. An invented fridge catalogue (real converter and rules, in-memory
Oxigraph); every expected answer is read from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

RECORDS = [
    {"name": "Polar 120", "defrost": "Automatic", "kwh": 210},
    {"name": "Polar 140", "defrost": "Automatic", "kwh": 260},
    {"name": "Polar 160", "defrost": "Manual", "kwh": 180},
    {"name": "Tundra 90", "defrost": "Manual", "kwh": 150},
    {"name": "Tundra 110", "defrost": "Automatic", "kwh": 230},
    {"name": "Tundra 130", "defrost": "Cycle", "kwh": 240},
]


def _variant(r: dict) -> Variant:
    specs = (
        ("Type & build:Defrost type", r["defrost"]),
        ("Energy:Annual energy use", f"{r['kwh']} kWh/yr"),
    )
    return Variant(r["name"], r["name"].split()[0], ("Refrigerators",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("fridges"))


def test_a_value_and_its_entry_word_count_that_value(compiler):
    ans = compiler.answer("How many refrigerators have automatic defrost?")
    assert ans.value is not None and int(ans.value) == sum(r["defrost"] == "Automatic" for r in RECORDS), ans.trace


def test_an_inflected_entry_word_names_the_entry(compiler):
    ans = compiler.answer("Which refrigerators need manual defrosting?")
    assert sorted(ans.answer_list or []) == sorted(r["name"] for r in RECORDS if r["defrost"] == "Manual"), ans.trace


# A word inside listed values ("pentaprism" in "Optical (pentaprism)"), before the word that names
# their entry outright, is those values of that entry: no value is called "pentaprism" exactly.
CAMERAS = [
    {"name": "Kite D1", "finder": "Optical (pentaprism)"},
    {"name": "Kite D2", "finder": "Optical (pentaprism)"},
    {"name": "Kite D3", "finder": "Optical (pentamirror)"},
    {"name": "Wren M1", "finder": "Electronic"},
    {"name": "Wren M2", "finder": "None"},
]


@pytest.fixture(scope="module")
def cameras(tmp_path_factory) -> Compiler:
    rows = [
        Variant(c["name"], c["name"].split()[0], ("Cameras",), (("Screen & viewfinder:Viewfinder", c["finder"]),))
        for c in CAMERAS
    ]
    return compile_catalog(rows, tmp_path_factory.mktemp("cameras"))


def test_a_word_inside_listed_values_and_the_entry_it_names(cameras):
    ans = cameras.answer("Which models have a pentaprism viewfinder?")
    assert sorted(ans.answer_list or []) == [c["name"] for c in CAMERAS if "pentaprism" in c["finder"]], ans.trace
