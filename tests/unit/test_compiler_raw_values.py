"""The compiler over a catalog written the way shops write it: several facts in one value, attributes
the catalog never names, tag lists, a long tail of chip names. Real converter + rules, in-memory
Oxigraph; every expected answer is computed from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

# name, RAM GB, storage GB, inches, Hz, mAh, charging W, NFC, chip
ROWS = [
    (f"Vela {i}", ram, sto, inch, hz, mah, w, nfc, f"Orion K{10 + i} Pro")
    for i, (ram, sto, inch, hz, mah, w, nfc) in enumerate(
        [
            (4, 64, 6.1, 60, 4000, 18, False),
            (6, 128, 6.4, 90, 4500, 25, False),
            (8, 128, 6.5, 120, 5000, 33, True),
            (8, 256, 6.7, 120, 5000, 45, True),
            (12, 256, 6.8, 144, 6000, 67, True),
            (12, 512, 6.9, 120, 5500, 80, False),
            (16, 512, 6.2, 165, 4800, 120, True),
        ]
        * 4  # 28 phones, 28 distinct chips: most chips fall outside an entry's listed values
    )
]
_COLS = ("name", "ram", "sto", "inch", "hz", "mah", "w", "nfc", "chip")
RECORDS = [dict(zip(_COLS, r)) for r in ROWS]


def _variant(r: dict) -> Variant:
    tags = "Dual Sim, 4G, 5G, VoLTE, Wi-Fi" + (", NFC" if r["nfc"] else "")
    specs = (
        ("Memory:Memory", f"{r['ram']} GB RAM, {r['sto']} GB inbuilt"),
        ("Display:Display", f"{r['inch']} inches, 1080 x 2400 px, {r['hz']} Hz Display with Punch Hole"),
        ("Battery:Battery", f"{r['mah']} mAh Battery with {r['w']}W Fast Charging"),
        ("Processor:Processor", f"{r['chip']}, Octa Core, 2.4 GHz Processor"),
        ("Network:Connectivity", tags),
        ("Price", "199.00 GBP"),
    )
    return Variant(r["name"], r["name"], ("smartphones",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("raw"), currency="GBP")


def names(pred) -> list[str]:
    return sorted(r["name"] for r in RECORDS if pred(r))


@pytest.mark.parametrize(
    ("question", "pred"),
    [
        # storage is always >= 12 GB too: only the label beside the number tells RAM apart
        ("Which phones have at least 12 GB of RAM?", lambda r: r["ram"] >= 12),
        # the catalog never says "refresh rate": the unit and the entries' value ranges decide
        ("Which phones have a refresh rate of 120 Hz or more?", lambda r: r["hz"] >= 120),
        ("Which phones support 60W or faster charging?", lambda r: r["w"] >= 60),
        ("Which phones have a battery of at least 5500 mAh?", lambda r: r["mah"] >= 5500),
        ("Which phones lack NFC?", lambda r: not r["nfc"]),
        ("Which phones are powered by the Orion K27 Pro chipset?", lambda r: r["chip"] == "Orion K27 Pro"),
    ],
)
def test_lists_over_raw_values(compiler, question, pred):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list or []) == names(pred), (ans.sparql, ans.trace)


def test_refresh_rate_grounding_is_confident(compiler):
    ans = compiler.answer("Which phones have a refresh rate of 120 Hz or more?")
    assert ans.confidence >= 0.7, ans.trace


def test_smallest_screen_orders_by_size_not_refresh_rate(compiler):
    ans = compiler.answer("Which phone has the smallest screen?")
    low = min(r["inch"] for r in RECORDS)
    assert sorted(ans.answer_list or []) == names(lambda r: r["inch"] == low), (ans.sparql, ans.trace)


def test_fastest_charging_orders_by_power(compiler):
    ans = compiler.answer("Which phone charges the fastest?")
    top = max(r["w"] for r in RECORDS)
    assert sorted(ans.answer_list or []) == names(lambda r: r["w"] == top), (ans.sparql, ans.trace)
