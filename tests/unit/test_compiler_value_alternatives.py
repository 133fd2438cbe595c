"""Values of a short list said before the question's noun, in either English spelling, and joined
by "or": an invented bike catalog (real converter and rules, in-memory Oxigraph); every expected
answer is computed from the rows below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.corpus.model import Variant
from dualgraph.query.interpret.compiler import Compiler

MATERIALS = ["Steel", "Chromoly", "Aluminium", "Carbon Fiber"]
COUNTRIES = ["Wales", "Scotland", "England", "Ireland"]
RECORDS = [
    {"name": f"Ridge {i}", "material": MATERIALS[i % 4], "country": COUNTRIES[(i // 4) % 4], "price": 300 + 45 * i}
    for i in range(24)
]


def _variant(r: dict) -> Variant:
    specs = (
        ("Frame:Frame Material", r["material"]),
        ("Location:Country", r["country"]),
        ("Price", f"{r['price']}.00 USD"),
    )
    return Variant(r["name"], r["name"], ("Trail Bikes",), specs)


@pytest.fixture(scope="module")
def compiler(tmp_path_factory) -> Compiler:
    return compile_catalog([_variant(r) for r in RECORDS], tmp_path_factory.mktemp("bikes"), currency="USD")


def names(pred) -> list[str]:
    return sorted(r["name"] for r in RECORDS if pred(r))


@pytest.mark.parametrize(
    ("question", "pred"),
    [
        # two values of one entry joined by "or": either will do (as two conditions, none has both)
        ("Which steel or chromoly hardtails are listed?", lambda r: r["material"] in ("Steel", "Chromoly")),
        ("Which bikes are for sale in Wales or Scotland?", lambda r: r["country"] in ("Wales", "Scotland")),
        (
            "Which bikes are for sale in Wales, Scotland or Ireland?",
            lambda r: r["country"] in ("Wales", "Scotland", "Ireland"),
        ),
        # the American spelling of the listed British value, before a noun the catalog does not use
        ("Which aluminum hardtails cost less than $800?", lambda r: r["material"] == "Aluminium" and r["price"] < 800),
        ("Which aluminium hardtails cost less than $800?", lambda r: r["material"] == "Aluminium" and r["price"] < 800),
        # values of two entries stay two conditions
        ("Which steel bikes are for sale in Wales?", lambda r: r["material"] == "Steel" and r["country"] == "Wales"),
    ],
)
def test_value_alternatives_and_spellings(compiler, question, pred):
    ans = compiler.answer(question)
    assert sorted(ans.answer_list or []) == names(pred), (ans.sparql, ans.trace)
    assert names(pred)  # each question has members
