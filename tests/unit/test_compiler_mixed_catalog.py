"""The compiler over a catalog merged from two sources that write the same attributes differently:
one shop writes "8 GB RAM, 128 GB inbuilt" under Memory and "… with 33W Fast Charging" under
Battery and prices in GBP; a spec-sheet feed writes "RAM capacity", "Virtual RAM (max)",
"Internal storage capacity", "Charging power (max)" and prices in USD, for phones and tablets.
Brands come in two spellings ("ACME" / "Acme"), product lines in the names ("Nova", "Terra").
Real converter, rules and catalog facts, in-memory Oxigraph; expected answers come from the rows.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

# name, source, category, ram, virtual ram, storage, charging W, price
ROWS = [
    ("ACME Nova 5", "shop", "Smartphones", 6, None, 128, 33, 199),
    ("Acme Nova 7", "shop", "Smartphones", 8, None, 256, 45, 299),
    ("Acme Nova 7 Pro", "shop", "Smartphones", 12, None, 512, 120, 499),
    ("Acme Terra 2", "shop", "Smartphones", 4, None, 64, 18, 129),
    ("Acme Terra 3", "shop", "Smartphones", 6, None, 128, 25, 159),
    ("Brio One", "shop", "Smartphones", 8, None, 128, 67, 249),
    ("Brio Two", "shop", "Smartphones", 16, None, 512, 100, 599),
    ("Acme Nova 8", "feed", "Smartphones", 12, 12, 256, 65, 520),
    ("Acme Nova 9", "feed", "Smartphones", 8, 16, 128, 30, 410),
    ("Acme Slate 10", "feed", "Tablets", 8, 8, 256, 45, 350),
    ("Acme Slate 11", "feed", "Tablets", 4, 4, 64, 20, 230),
    ("Brio Pad", "feed", "Tablets", 6, 8, 128, 33, 280),
    ("Brio Pad Max", "feed", "Tablets", 12, 12, 512, 45, 640),
]
_COLS = ("name", "source", "cat", "ram", "vram", "sto", "w", "price")
RECORDS = [dict(zip(_COLS, r)) for r in ROWS]


def android(r: dict) -> int:
    return 15 if r["price"] >= 299 else 14


def rugged(r: dict) -> bool:
    return "Terra" in r["name"] or r["name"] == "Acme Slate 11"


def _variant(r: dict) -> Variant:
    if r["source"] == "shop":
        specs: tuple[tuple[str, str], ...] = (
            ("Memory:Memory", f"{r['ram']} GB RAM, {r['sto']} GB inbuilt"),
            ("Battery:Battery", f"5000 mAh Battery with {r['w']}W Fast Charging"),
            ("Software:Operating System", f"Android v{android(r)}"),
            ("Price", f"{r['price']}.00 GBP"),
        )
    else:
        specs = (
            ("Memory:RAM capacity", f"{r['ram']} GB"),
            ("Memory:Virtual RAM (max)", f"{r['vram']} GB"),
            ("Storage:Internal storage capacity", f"{r['sto']} GB"),
            ("Power:Charging power (max)", f"{r['w']} W"),
            ("Software:Operating system installed", f"Android {android(r)}"),
            ("Price", f"{r['price']}.00 USD"),
        )
    # a second category that cuts across the types: a facet of some phones and some tablets
    cats = (r["cat"], "Rugged devices") if rugged(r) else (r["cat"],)
    return Variant(r["name"], r["name"], cats, specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("mixed"), catalog_facts=True)


def names(pred) -> list[str]:
    return sorted(r["name"] for r in RECORDS if pred(r))


def phone(r: dict) -> bool:
    return r["cat"] == "Smartphones"


def acme(r: dict) -> bool:
    return r["name"].casefold().startswith("acme")


@pytest.mark.parametrize(
    ("question", "pred"),
    [
        # one attribute, two entries: the shop's labelled "RAM" and the feed's "RAM capacity";
        # "Virtual RAM" sits on the same products as "RAM capacity", so it is another attribute
        ("Which phones have at least 12 GB of RAM?", lambda r: phone(r) and r["ram"] >= 12),
        ("Which tablets have 8 GB of RAM or more?", lambda r: r["cat"] == "Tablets" and r["ram"] >= 8),
        ("Which phones have 512 GB of storage?", lambda r: phone(r) and r["sto"] == 512),
        ("Which phones support charging at 60 W or more?", lambda r: phone(r) and r["w"] >= 60),
        # brand in any case, intersected with the type; a line by its name or its plural
        ("Which acme tablets are there?", lambda r: acme(r) and r["cat"] == "Tablets"),
        ("Which ACME phones have at least 8 GB of RAM?", lambda r: acme(r) and phone(r) and r["ram"] >= 8),
        ("Which Nova phones charge at 45 W or faster?", lambda r: "Nova" in r["name"] and r["w"] >= 45),
        ("List the Terra phones.", lambda r: "Terra" in r["name"]),
        ("Which Novas have 256 GB of storage?", lambda r: "Nova" in r["name"] and r["sto"] == 256),
        # "Android 15" is a value in the feed and the version 15 labelled "android" in the shop's "Android v15"
        ("Which phones run Android 15?", lambda r: phone(r) and android(r) == 15),
        # categories that share products are facets: both hold
        ("Which phones are rugged devices?", lambda r: phone(r) and rugged(r)),
    ],
)
def test_list(compiler: Compiler, question: str, pred) -> None:
    res = compiler.answer(question)
    assert sorted(res.answer_list or []) == names(pred), (res.sparql, res.trace)


def test_count_keeps_brand_and_type(compiler: Compiler) -> None:
    res = compiler.answer("How many Brio tablets are there?")
    assert res.value == len(names(lambda r: r["name"].startswith("Brio") and r["cat"] == "Tablets"))


def test_superlative_reads_every_entry(compiler: Compiler) -> None:
    # the most RAM among Acme phones is on a feed product (RAM capacity), not in the shop's Memory value
    res = compiler.answer("Which Acme phone has the most RAM?")
    best = max(r["ram"] for r in RECORDS if acme(r) and phone(r))
    assert sorted(res.answer_list or []) == names(lambda r: acme(r) and phone(r) and r["ram"] == best), (
        res.sparql,
        res.trace,
    )


def test_currency_follows_the_scope(compiler: Compiler) -> None:
    # tablets are priced in USD only: "the cheapest tablet" needs no currency named
    res = compiler.answer("Which tablet is the cheapest?")
    low = min(r["price"] for r in RECORDS if r["cat"] == "Tablets")
    assert (res.answer_list or [])[:1] == names(lambda r: r["cat"] == "Tablets" and r["price"] == low), (
        res.sparql,
        res.trace,
    )


def test_a_choice_between_two_names_is_no_yes_no(compiler: Compiler) -> None:
    # "Is the A or the B …?" asks which; "Is the A … than the B?" asks whether
    nova7, terra2 = (r for r in RECORDS if r["name"] in ("Acme Nova 7", "Acme Terra 2"))
    res = compiler.answer("Is the Acme Nova 7 or the Acme Terra 2 more expensive?")
    assert res.value == max((nova7, terra2), key=lambda r: r["price"])["name"], (res.sparql, res.trace)
    res = compiler.answer("Is the Acme Nova 7 cheaper than the Acme Terra 2?")
    assert res.value == ("yes" if nova7["price"] < terra2["price"] else "no"), (res.sparql, res.trace)


def test_how_big_is_the_attribute_of_a_product(compiler: Compiler) -> None:
    res = compiler.answer("How big is the RAM of the Brio One, in GB?")
    assert res.value == next(r["ram"] for r in RECORDS if r["name"] == "Brio One"), (res.sparql, res.trace)
