"""The NL→SPARQL compiler on a small invented catalog (real converter + rules, in-memory Oxigraph).

The pattern index uses a deterministic test embedder (a hashed bag of words, no model),
defined here. Every expected answer is computed from the ``CATALOG`` rows below, never from
the system's own output.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.query.compiler import Compiler
from dualgraph.query.grounding import norm_tokens, token_match
from dualgraph.query.model import EntityRef, FeatureConstraint, NumericConstraint, Span
from dualgraph.query.patterns import PatternIndex, collect_patterns
from dualgraph.query.safety import check_query
from dualgraph.skg.rules import apply_rules, load_rules
from dualgraph.skg.triples import convert_document
from dualgraph.stores.oxigraph import OxigraphStore


class HashBowEmbedder:
    """Test embedder: lower-cased words hashed (BLAKE2b) into ``dim`` buckets, L2-normalised."""

    def __init__(self, dim: int = 256, name: str = "test-compiler-bow") -> None:
        self.dim, self.name = dim, name

    def embed(self, texts, *, stage="default"):
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for w in re.findall(r"\w+", text.casefold()):
                out[i, int.from_bytes(hashlib.blake2b(w.encode(), digest_size=8).digest(), "big") % self.dim] += 1
        n = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(n == 0, 1.0, n)


# name, range, category, RAM GB, storage GB, battery mAh, screen inch, panel, cores, 5G, NFC, price GBP
_COLS = "name rng cat ram sto bat inch panel cores g5 nfc price".split()
CATALOG = [dict(zip(_COLS, r)) for r in [
    ("Nova X1 128GB", "Nova X1", "smartphones", 8, 128, 5000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 799),
    ("Nova X1 1TB", "Nova X1", "smartphones", 12, 1000, 5000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 1099),
    ("Nova Lite", "Nova Lite", "smartphones", 4, 64, 4000, 6.1, "IPS LCD", 4, False, False, 299),
    ("Orbit Phone 7", "Orbit Phone 7", "smartphones", 8, 256, 4500, 6.5, "OLED", 8, True, None, 499),
    ("Orbit Phone 7 Pro", "Orbit Phone 7 Pro", "smartphones", 12, 512, 5500, 6.8, "LTPO OLED", 8, True, True, 899),
    ("Zenith Basic", "Zenith Basic", "smartphones", 2, 32, 3000, 5.5, "IPS LCD", 4, False, False, 299),
    ("Zenith Tab 10", "Zenith Tab 10", "tablets", 6, 128, 8000, 10.5, "IPS LCD", 8, False, None, 349),
    ("Orbit Flip7", "Orbit Flip7", "smartphones", 8, 256, 4000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 999),
]]


def _variant(r: dict) -> Variant:
    sto = f"{r['sto'] // 1000} TB" if r["sto"] >= 1000 else f"{r['sto']} GB"
    specs = [("Memory:RAM", f"{r['ram']} GB"), ("Memory:Internal Storage", sto),
             ("Battery:Capacity", f"{r['bat']} mAh"), ("Display:Screen Size", f"{r['inch']} inches"),
             ("Display:Type", r["panel"]), ("Processor:CPU Cores", str(r["cores"])),
             ("Network:5G", "Yes" if r["g5"] else "No"), ("Network:4G", "Yes")]
    if r["nfc"] is not None:  # missing data: neither has nor lacks NFC
        specs.append(("Connectivity:NFC", "Yes" if r["nfc"] else "No"))
    specs.append(("Price", f"{r['price']}.00 GBP"))
    return Variant(name=r["name"], prod_range=r["rng"], categories=(r["cat"],), specs=tuple(specs))


def names(pred) -> list[str]:
    return sorted(r["name"] for r in CATALOG if pred(r))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    tmp: Path = tmp_path_factory.mktemp("skg")
    st = OxigraphStore.in_memory()
    for i, r in enumerate(CATALOG):
        f = tmp / f"doc{i}.nq"
        f.write_text(convert_document(f"doc-{i}", [_variant(r)]).nquads, encoding="utf-8")
        st.bulk_load(f)
    apply_rules(st, load_rules())
    return st


@pytest.fixture(scope="module")
def compiler(store) -> Compiler:
    return Compiler(store, PatternIndex.build(collect_patterns(store), HashBowEmbedder()), currency="GBP")


LIST_CASES = [
    ("Which phones have at least 8GB RAM?", lambda r: r["cat"] == "smartphones" and r["ram"] >= 8),
    ("Which phones have under 8 GB RAM?", lambda r: r["cat"] == "smartphones" and r["ram"] < 8),
    ("phones with at least 1TB storage", lambda r: r["cat"] == "smartphones" and r["sto"] >= 1000),
    ("phones with at least 0.5 TB storage", lambda r: r["cat"] == "smartphones" and r["sto"] >= 500),
    ("phones with more than 5000 mAh battery", lambda r: r["cat"] == "smartphones" and r["bat"] > 5000),
    ("phones with a screen of at least 6.6 inch", lambda r: r["cat"] == "smartphones" and r["inch"] >= 6.6),
    ("phones under £500", lambda r: r["cat"] == "smartphones" and r["price"] < 500),
    ("phones under 500", lambda r: r["cat"] == "smartphones" and r["price"] < 500),
    ("phones between £300 and £900", lambda r: r["cat"] == "smartphones" and 300 <= r["price"] <= 900),
    ("phones with at least 8 cores", lambda r: r["cat"] == "smartphones" and r["cores"] >= 8),
    ("phones with 5G", lambda r: r["cat"] == "smartphones" and r["g5"]),
    ("Which phones support NFC?", lambda r: r["cat"] == "smartphones" and r["nfc"] is True),
    ("phones without NFC", lambda r: r["cat"] == "smartphones" and r["nfc"] is False),  # missing data excluded
    ("phones with 4G only", lambda r: r["cat"] == "smartphones" and not r["g5"]),
    ("phones with an IPS LCD display", lambda r: r["cat"] == "smartphones" and r["panel"] == "IPS LCD"),
    ("phones with a Dynamic AMOLED 2X display", lambda r: r["cat"] == "smartphones" and r["panel"] == "Dynamic AMOLED 2X"),
    ("phones with an OLED display", lambda r: r["cat"] == "smartphones" and re.search(r"\bOLED\b", r["panel"])),
    ("orbit phones with 5G", lambda r: r["cat"] == "smartphones" and r["name"].startswith("Orbit") and r["g5"]),
    ("nova phones under £1000 with at least 8GB RAM",
     lambda r: r["name"].startswith("Nova") and r["price"] < 1000 and r["ram"] >= 8),
    ("Which tablets have 5G?", lambda r: r["cat"] == "tablets" and r["g5"]),
    ("Which tablets have at least 6GB RAM?", lambda r: r["cat"] == "tablets" and r["ram"] >= 6),
    ("Which phones with NFC have at least 256GB storage and cost under £950?",
     lambda r: r["cat"] == "smartphones" and r["nfc"] is True and r["sto"] >= 256 and r["price"] < 950),
]


@pytest.mark.parametrize("question,pred", LIST_CASES, ids=[q for q, _ in LIST_CASES])
def test_list_questions(compiler, question, pred):
    ans = compiler.answer(question)
    assert ans.error is None, (ans.error, ans.trace)
    assert sorted(ans.answer_list) == names(pred), (ans.sparql, ans.trace)
    assert 0 < ans.confidence <= 1
    check_query(ans.sparql)


def test_count(compiler):
    ans = compiler.answer("How many phones have at least 256GB storage?")
    assert ans.value == len(names(lambda r: r["cat"] == "smartphones" and r["sto"] >= 256)), ans.sparql
    assert "COUNT(DISTINCT ?p)" in ans.sparql


def test_count_features(compiler):
    ans = compiler.answer("How many phones have 5G?")
    assert ans.value == len(names(lambda r: r["cat"] == "smartphones" and r["g5"]))


def test_superlative_cheapest_keeps_ties(compiler):
    ans = compiler.answer("Which is the cheapest phone?")
    low = min(r["price"] for r in CATALOG if r["cat"] == "smartphones")
    assert sorted(ans.answer_list) == names(lambda r: r["cat"] == "smartphones" and r["price"] == low)
    assert len(ans.answer_list) == 2  # Nova Lite and Zenith Basic tie


def test_superlative_top_k(compiler):
    ans = compiler.answer("top 3 most expensive phones")
    prices = sorted((r["price"] for r in CATALOG if r["cat"] == "smartphones"), reverse=True)
    assert sorted(ans.answer_list) == names(lambda r: r["cat"] == "smartphones" and r["price"] >= prices[2])


def test_superlative_battery(compiler):
    ans = compiler.answer("Which phone has the biggest battery?")
    top = max(r["bat"] for r in CATALOG if r["cat"] == "smartphones")
    assert ans.answer_list == names(lambda r: r["cat"] == "smartphones" and r["bat"] == top), ans.trace


def test_compare_named_products(compiler):
    ans = compiler.answer("Which is cheaper, the Orbit Phone 7 Pro or the Nova X1 128GB?")
    assert ans.error is None, ans.trace
    assert ans.value == "Nova X1 128GB", ans.sparql
    ans = compiler.answer("Which has the bigger battery, the Orbit Flip 7 or the Zenith Basic?")
    assert ans.value == "Orbit Flip7", (ans.sparql, ans.trace)  # "Flip 7" is "Flip7"


def test_yesno(compiler):
    assert compiler.answer("Does the Nova Lite support 5G?").value == "no"
    assert compiler.answer("Does the Orbit Flip7 support 5G?").value == "yes"
    # missing NFC data is not a "no NFC"
    assert compiler.answer("Does the Orbit Phone 7 have no NFC?").value == "no"


def test_describe(compiler):
    ans = compiler.answer("Tell me about the Zenith Basic")
    assert ans.value == "Zenith Basic"
    assert any(r["value"]["value"] == "IPS LCD" for r in ans.rows)


def test_range_name_matches_all_variants(compiler):
    ans = compiler.answer("Which Nova X1 models have at least 8GB RAM?")
    assert sorted(ans.answer_list) == names(lambda r: r["rng"] == "Nova X1" and r["ram"] >= 8), ans.trace


def test_unknown_product_is_an_error(compiler):
    ans = compiler.answer("Does the Quasar Z9 support 5G?")
    assert ans.error and ans.value is None and ans.confidence < 0.35


def test_other_currency_is_reported_not_converted(store, compiler):
    ans = compiler.answer("phones under $500")
    assert any("not converting between currencies" in t for t in ans.trace)
    assert ans.confidence <= 0.5


def test_grounding_units_and_trace(compiler):
    g, trace = compiler.grounder, []
    c = NumericConstraint(Span(0, 6, "1.5 TB"), ">=", 1500.0, unit="GB", dimension="data", attribute="storage")
    gr = g.numeric(c, trace)
    assert gr.pattern.entry == "Internal Storage" and gr.filters == ["{v} >= 1500"] and trace
    c = NumericConstraint(Span(0, 6, "8 GB"), ">=", 8.0, unit="GB", dimension="data", attribute="RAM")
    assert g.numeric(c, []).pattern.entry == "RAM"


def test_feature_negation_and_only(compiler):
    g = compiler.grounder
    neg = g.feature(FeatureConstraint(Span(0, 3, "NFC"), "NFC", negated=True), [])
    assert "lacksFeature" in neg.snippet and "hasFeature" not in neg.snippet
    only = g.feature(FeatureConstraint(Span(0, 2, "4G"), "4G", only=True), [])
    assert "hasFeature" in only.snippet and "lacksFeature" in only.snippet


def test_prose_fallback_is_low_confidence(compiler):
    gr = compiler.grounder.feature(FeatureConstraint(Span(0, 9, "hologram"), "holographic projector"), [])
    assert gr.kind == "prose" and gr.confidence < 0.5 and "skg:mentions" in gr.snippet


def test_brand_entity(compiler):
    gr = compiler.grounder.entity(EntityRef(Span(0, 5, "zenith"), "zenith", "brand"), [])
    assert gr.name_filter and "STRSTARTS" in gr.name_filter


def test_token_names():
    assert token_match(norm_tokens("Flip 7"), norm_tokens("Orbit Flip7"))
    assert not token_match(norm_tokens("Orbit Phone 7"), norm_tokens("Orbit Phone 7 Pro"))
    assert token_match(norm_tokens("Orbit Phone 7 Pro"), norm_tokens("Orbit Phone 7 Pro"))
