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


# name, range, category, RAM GB, storage GB, battery mAh, screen inch, panel, cores, 5G, NFC, price GBP,
# wired charging W, weight g
_COLS = "name rng cat ram sto bat inch panel cores g5 nfc price chg wt".split()
CATALOG = [dict(zip(_COLS, r)) for r in [
    ("Nova X1 128GB", "Nova X1", "smartphones", 8, 128, 5000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 799, 45, 196),
    ("Nova X1 1TB", "Nova X1", "smartphones", 12, 1000, 5000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 1099, 45, 196),
    ("Nova Lite", "Nova Lite", "smartphones", 4, 64, 4000, 6.1, "IPS LCD", 4, False, False, 299, 15, 172),
    ("Orbit Phone 7", "Orbit Phone 7", "smartphones", 8, 256, 4500, 6.5, "OLED", 8, True, None, 499, 27, 187),
    ("Orbit Phone 7 Pro", "Orbit Phone 7 Pro", "smartphones", 12, 512, 5500, 6.8, "LTPO OLED", 8, True, True, 899,
     65, 221),
    ("Zenith Basic", "Zenith Basic", "smartphones", 2, 32, 3000, 5.5, "IPS LCD", 4, False, False, 299, 10, 165),
    ("Zenith Tab 10", "Zenith Tab 10", "tablets", 6, 128, 8000, 10.5, "IPS LCD", 8, False, None, 349, 20, 480),
    ("Orbit Flip7", "Orbit Flip7", "smartphones", 8, 256, 4000, 6.7, "Dynamic AMOLED 2X", 8, True, True, 999, 25, 188),
    # a product named exactly like its range, which has a second variant
    ("Orbit Phone 8", "Orbit Phone 8", "smartphones", 8, 128, 4700, 6.4, "OLED", 8, True, True, 599, 45, 190),
    ("Orbit Phone 8 256GB", "Orbit Phone 8", "smartphones", 8, 256, 4700, 6.4, "OLED", 8, True, True, 649, 45, 190),
    # a product line word ("Aura") inside names, never a product or range name itself
    ("Zenith Aura 5", "Zenith Aura 5", "smartphones", 6, 128, 5000, 6.6, "IPS LCD", 8, True, False, 399, 33, 180),
    ("Zenith Aura 5 Plus", "Zenith Aura 5 Plus", "smartphones", 8, 256, 6000, 6.8, "IPS LCD", 8, True, True, 549,
     33, 205),
]]


def _variant(r: dict) -> Variant:
    sto = f"{r['sto'] // 1000} TB" if r["sto"] >= 1000 else f"{r['sto']} GB"
    specs = [("Memory:RAM", f"{r['ram']} GB"), ("Memory:Internal Storage", sto),
             ("Battery:Capacity", f"{r['bat']} mAh"), ("Display:Screen Size", f"{r['inch']} inches"),
             ("Display:Type", r["panel"]), ("Processor:CPU Cores", str(r["cores"])),
             ("Network:5G", "Yes" if r["g5"] else "No"), ("Network:4G", "Yes"),
             ("Charging:Wired Charging", f"{r['chg']} W"), ("Body:Weight", f"{r['wt']} g")]
    if r["nfc"] is not None:  # missing data: neither has nor lacks NFC
        specs.append(("Connectivity:NFC", "Yes" if r["nfc"] else "No"))
    specs.append(("Price", f"{r['price']}.00 GBP"))
    return Variant(name=r["name"], prod_range=r["rng"], categories=(r["cat"],), specs=tuple(specs))


def names(pred) -> list[str]:
    return sorted(r["name"] for r in CATALOG if pred(r))


def catalog_store(tmp: Path) -> OxigraphStore:
    """The fixture catalog through the real converter and rules, one document per row, in memory."""
    st = OxigraphStore.in_memory()
    for i, r in enumerate(CATALOG):
        f = tmp / f"doc{i}.nq"
        f.write_text(convert_document(f"doc-{i}", [_variant(r)]).nquads, encoding="utf-8")
        st.bulk_load(f)
    apply_rules(st, load_rules())
    return st


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    return catalog_store(tmp_path_factory.mktemp("skg"))


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


# -- exact names, value answers, compare after name resolution, verb attributes, name words ------


def test_exact_product_name_beats_range(compiler):
    ans = compiler.answer("Does the Orbit Phone 8 have at least 256GB storage?")
    assert ans.value == "no", (ans.sparql, ans.trace)  # the 128GB product alone, not its 256GB sibling
    ans = compiler.answer("Tell me about the orbit phone 8")
    assert ans.answer_list == ["Orbit Phone 8"], ans.trace
    gr = compiler.grounder.entity(EntityRef(Span(0, 13, "Orbit-Phone 8"), "Orbit-Phone 8", "product"), [])
    assert len(gr.products) == 1 and not gr.ranges


def test_range_expands_without_an_exact_product(compiler):
    gr = compiler.grounder.entity(EntityRef(Span(0, 7, "Nova X1"), "Nova X1", "range"), [])
    assert len(gr.products) == len(names(lambda r: r["rng"] == "Nova X1")) and gr.ranges


VALUE_CASES = [
    ("What is the lowest price of the Nova X1?", lambda r: r["rng"] == "Nova X1", "price", min),
    ("What's the biggest battery capacity available on an Orbit phone?",
     lambda r: r["name"].startswith("Orbit") and r["cat"] == "smartphones", "bat", max),
    ("What is the fastest charging wattage among zenith phones?",
     lambda r: r["name"].startswith("Zenith") and r["cat"] == "smartphones", "chg", max),
    ("How much does the cheapest phone with 5G cost?", lambda r: r["cat"] == "smartphones" and r["g5"], "price", min),
    ("What is the price of the most expensive tablet?", lambda r: r["cat"] == "tablets", "price", max),
]


@pytest.mark.parametrize("question,pred,col,fn", VALUE_CASES, ids=[q for q, *_ in VALUE_CASES])
def test_superlative_value_answers(compiler, question, pred, col, fn):
    ans = compiler.answer(question)
    assert ans.error is None, ans.trace
    best = fn(r[col] for r in CATALOG if pred(r))
    assert ans.value == best, (ans.sparql, ans.trace)
    assert sorted(ans.answer_list) == names(lambda r: pred(r) and r[col] == best)


def test_which_superlative_value_is_one_name_ties_kept(compiler):
    ans = compiler.answer("Which is the cheapest phone?")
    tied = names(lambda r: r["cat"] == "smartphones" and r["price"] == 299)
    assert sorted(ans.answer_list) == tied and ans.value == tied[0]
    ans = compiler.answer("What is the cheapest phone?")  # asks for a product, not a number
    assert ans.value == tied[0]
    ans = compiler.answer("What is the weight of the cheapest phone?")  # not the price: the product
    assert ans.value == tied[0]
    top = max(r["bat"] for r in CATALOG if r["cat"] == "smartphones")
    assert compiler.answer("Which phone has the biggest battery?").value == names(
        lambda r: r["cat"] == "smartphones" and r["bat"] == top)[0]


COMPARE_LOWER = [
    ("which is cheaper, nova lite or orbit flip7", "Nova Lite"),
    ("show the bigger battery of orbit phone 7 pro and zenith basic", "Orbit Phone 7 Pro"),
    ("which of orbit flip7 and nova lite charges faster", "Orbit Flip7"),
    ("which of orbit flip7 and orbit phone 7 pro weighs less", "Orbit Flip7"),
    ("which of nova lite and zenith aura 5 plus lasts longer", "Zenith Aura 5 Plus"),
]


@pytest.mark.parametrize("question,winner", COMPARE_LOWER, ids=[q for q, _ in COMPARE_LOWER])
def test_compare_decided_after_name_resolution(compiler, question, winner):
    ans = compiler.answer(question)
    assert ans.intent == "compare" and ans.error is None, ans.trace
    assert ans.value == winner, (ans.sparql, ans.trace)


def test_compare_verbs_and_ties(compiler):
    ans = compiler.answer("Which costs less, the Orbit Flip7 or the Nova Lite?")
    assert ans.value == "Nova Lite", ans.trace
    ans = compiler.answer("Which weighs less, the Orbit Flip7 or the Zenith Basic?")
    assert ans.value == "Zenith Basic", ans.trace
    ans = compiler.answer("Which is cheaper, the Nova Lite or the Zenith Basic?")  # both 299
    assert sorted(ans.answer_list) == ["Nova Lite", "Zenith Basic"] and ans.value == "Nova Lite"


def test_more_than_a_number_is_no_compare(compiler):
    ans = compiler.answer("nova lite and zenith basic with more than 2 GB RAM")
    assert ans.intent == "list", ans.trace


def test_name_word_filter(compiler):
    ans = compiler.answer("Which Aura models have NFC?")
    assert sorted(ans.answer_list) == names(lambda r: " Aura " in f" {r['name']} " and r["nfc"] is True), ans.trace
    assert "REGEX(STR(?name)" in ans.sparql and any("name word 'Aura'" in t for t in ans.trace)
    ans = compiler.answer("Which Aura phones have at least 8GB RAM?")  # read as a brand first
    assert ans.answer_list == names(lambda r: " Aura " in f" {r['name']} " and r["ram"] >= 8), ans.trace


def test_name_word_needs_two_products(compiler):
    gr = compiler.grounder.entity(EntityRef(Span(0, 4, "Tab"), "Tab", "unknown"), [])
    assert gr.kind != "name-word"  # only one product has the word
