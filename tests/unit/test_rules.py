"""The packaged rules on a hand-written catalog: each derived fact, and each non-fact."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_graph import derive_catalog_facts
from dualgraph.skg.rules import FixpointError, Rule, RuleError, apply_rules, load_rules
from dualgraph.stores.base import StoreError
from dualgraph.stores.oxigraph import OxigraphStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skg"
DOCS = [FIXTURES / "samsung_s25_ultra.nq", FIXTURES / "tabular_a_series.nq"]

# Predicates the rules add (ontology constants still to come for some of them).
LACKS = O.SKG + "lacksFeature"
SOME = O.SKG + "someVariantHasFeature"
MIN_PRICE, MAX_PRICE = O.SKG + "minPrice", O.SKG + "maxPrice"
VARIANT_COUNT = O.SKG + "variantCount"
PRICE_SUMMARY = O.SKG + "hasPriceSummary"
COMMON_SPEC = O.SKG + "hasCommonSpec"

S25_BLACK = N.product_iri("Galaxy S25 Ultra 256GB Titanium Black", "SM-S938B")
S25_SILVER = N.product_iri("Galaxy S25 Ultra 512GB Titanium Silverblue", "SM-S938B")
A16 = N.product_iri("Galaxy A16 128GB Black")
A16_LTE = N.product_iri("Galaxy A16 LTE 128GB Grey")  # 4G only; Wi-Fi "2.4G/5G" and "5GHz Wi-Fi: Yes"
R_S25, R_A16 = N.range_iri("Galaxy S25 Ultra"), N.range_iri("Galaxy A16")
# coded terms of the catalog graph (dualgraph.skg.coded_terms), which the range rules summarise
F_5G, F_4G, F_8K = N.feature_iri("5G"), N.feature_iri("4G"), N.feature_iri("8K")
NFC = N.entry_iri("Connectivity", "NFC")
WIRELESS = N.entry_iri("General Feature", "Wireless Charging")
BAROMETER = N.entry_iri("Sensors", "Barometer")


def _store(*docs: Path) -> OxigraphStore:
    store = OxigraphStore.in_memory()
    for doc in docs:
        store.bulk_load(doc)
    return store


@pytest.fixture(scope="module")
def derived() -> OxigraphStore:
    store = _store(*DOCS)
    derive_catalog_facts(store)  # as the index does: brands, lines, types and coded terms first
    apply_rules(store, load_rules())
    return store


def has(store: OxigraphStore, s: str, p: str, o: str) -> bool:
    """Whether the derived graph holds the triple (``o`` an IRI or a SPARQL literal)."""
    obj = f"<{o}>" if "://" in o else o
    return store.ask(f"ASK {{ GRAPH <{O.DERIVED_GRAPH}> {{ <{s}> <{p}> {obj} }} }}")


def objects(store: OxigraphStore, s: str, p: str) -> set[str]:
    res = store.select(f"SELECT ?o WHERE {{ GRAPH <{O.DERIVED_GRAPH}> {{ <{s}> <{p}> ?o }} }}")
    return {row["o"]["value"] for row in res["results"]["bindings"]}


def derived_triples(store: OxigraphStore) -> set[tuple[str, str, str]]:
    return set(store.construct(f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ GRAPH <{O.DERIVED_GRAPH}> {{ ?s ?p ?o }} }}"))


def test_packaged_rules_load() -> None:
    rules = load_rules()
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)) >= 8
    assert {"yes-feature", "no-feature", "price", "tag-feature", "category"} <= set(ids)
    assert all("{{" not in r.where.replace("{{focus}}", "") for r in rules)  # defs were spliced in


def test_yes_values_are_features(derived: OxigraphStore) -> None:
    assert has(derived, S25_BLACK, O.HAS_FEATURE, NFC)  # "Yes"
    assert has(derived, S25_SILVER, O.HAS_FEATURE, NFC)  # "yes"
    assert has(derived, S25_BLACK, O.HAS_FEATURE, WIRELESS)  # "Supported"
    assert has(derived, NFC, O.TYPE, O.FEATURE)
    assert not has(derived, S25_SILVER, O.HAS_FEATURE, WIRELESS)  # "No"
    assert not has(derived, A16, O.HAS_FEATURE, NFC)  # "Not supported"


def test_explicit_negatives_only_are_lacks(derived: OxigraphStore) -> None:
    assert has(derived, S25_SILVER, LACKS, WIRELESS)
    assert has(derived, A16, LACKS, NFC)
    # Missing data is not "no": the LTE model has no NFC entry, the silver S25 no barometer.
    assert not has(derived, A16_LTE, LACKS, NFC)
    assert not has(derived, S25_SILVER, LACKS, BAROMETER)
    assert not has(derived, S25_BLACK, LACKS, NFC)


def test_no_rule_names_a_product_domain() -> None:
    # features of a domain ("5G", "8K") come from the catalog's own codes, not from rules naming them
    text = " ".join(r.where + r.insert for r in load_rules()).casefold()
    for word in ("5g", "4g", "lte", "8k", "network", "cellular", "video", "camera", "phone"):
        assert not re.search(rf"\b{word}", text), word


def test_price_literals_on_the_product(derived: OxigraphStore) -> None:
    res = derived.select(f"SELECT ?price ?cur WHERE {{ <{S25_BLACK}> skg:hasPrice ?price ; skg:hasCurrency ?cur }}")[
        "results"
    ]["bindings"]
    assert res == [
        {
            "price": {"type": "literal", "value": "1249", "datatype": O.XSD_DECIMAL},
            "cur": {"type": "literal", "value": "GBP"},
        }
    ]
    assert objects(derived, A16_LTE, O.HAS_PRICE) == {"179"}  # "Old Price" 229 is not a price
    assert derived.ask("ASK { ?p skg:hasPrice ?n FILTER(?n < 200) }")


def test_category_inherited(derived: OxigraphStore) -> None:
    category = N.category_iri("smartphones")
    for product in (S25_BLACK, S25_SILVER, A16, A16_LTE):
        assert has(derived, product, O.BELONGS, category)


def test_range_features_every_versus_some(derived: OxigraphStore) -> None:
    for feature in (F_5G, F_4G, F_8K, NFC):
        assert has(derived, R_S25, O.HAS_FEATURE, feature), feature
    # One S25 lacks wireless charging, one has no barometer entry: "some", never "all".
    for feature in (WIRELESS, BAROMETER):
        assert not has(derived, R_S25, O.HAS_FEATURE, feature)
        assert has(derived, R_S25, SOME, feature)
    assert not has(derived, R_A16, O.HAS_FEATURE, F_5G)
    assert has(derived, R_A16, SOME, F_5G)
    assert has(derived, R_A16, O.HAS_FEATURE, F_4G)
    assert not has(derived, R_A16, SOME, F_8K)
    # Only one A16 explicitly lacks NFC: the range does not lack it.
    assert not has(derived, R_A16, LACKS, NFC)


def test_range_prices_and_counts(derived: OxigraphStore) -> None:
    assert objects(derived, R_S25, MIN_PRICE) == {"1249"}
    assert objects(derived, R_S25, MAX_PRICE) == {"1349"}
    assert objects(derived, R_S25, O.HAS_CURRENCY) == {"GBP"}
    assert objects(derived, R_A16, MIN_PRICE) == {"179"}
    assert objects(derived, R_A16, MAX_PRICE) == {"199"}
    assert objects(derived, R_S25, VARIANT_COUNT) == {"2"}
    assert objects(derived, R_A16, VARIANT_COUNT) == {"2"}
    row = derived.select(f"SELECT ?n WHERE {{ <{R_A16}> skg:minPrice ?n }}")["results"]["bindings"][0]
    assert row["n"]["datatype"] == O.XSD_DECIMAL


def test_range_prices_per_currency() -> None:
    store = _store(*DOCS, FIXTURES / "eu_prices.nq")
    apply_rules(store, load_rules())
    # Two currencies: no single min/max on the range, one summary per currency instead.
    assert objects(store, R_S25, MIN_PRICE) == set()
    summaries = store.select(
        f"""SELECT ?cur ?min ?max WHERE {{ <{R_S25}> skg:hasPriceSummary ?s .
            ?s skg:hasCurrency ?cur ; skg:minPrice ?min ; skg:maxPrice ?max }} ORDER BY ?cur"""
    )["results"]["bindings"]
    got = [(r["cur"]["value"], Decimal(r["min"]["value"]), Decimal(r["max"]["value"])) for r in summaries]
    assert got == [("EUR", Decimal(1449), Decimal(1449)), ("GBP", Decimal(1249), Decimal(1349))]
    assert objects(store, R_A16, MIN_PRICE) == {"179"}


def test_range_common_spec() -> None:
    # off by default (a full scan of all specs); a user turns it on in their rules file
    rules = [r.model_copy(update={"enabled": True}) if r.id == "range-common-spec" else r for r in load_rules()]
    assert not next(r for r in load_rules() if r.id == "range-common-spec").enabled
    derived = _store(*DOCS)
    apply_rules(derived, rules)
    entries = derived.select(
        f"SELECT ?name WHERE {{ <{R_S25}> <{COMMON_SPEC}> ?s . ?s skg:inEntry/skg:hasName ?name }}"
    )
    names = {r["name"]["value"] for r in entries["results"]["bindings"]}
    # Shared by both variants: NFC "Yes", 8K video, battery; not the differing network lists.
    assert names == {"NFC", "Video Recording Resolution", "Battery Capacity (mAh, Typical)"}


def test_fixpoint_and_idempotence() -> None:
    store = _store(*DOCS)
    rules = load_rules()
    first = apply_rules(store, rules)
    assert first.total_added == store.count(graph=O.DERIVED_GRAPH) > 0
    strata = {r.stratum for r in rules}  # facts; tag features; their absence; ranges
    assert first.rounds <= 2 * len(strata)  # each stratum done after one productive and one empty round
    before = derived_triples(store)
    second = apply_rules(store, load_rules())
    assert derived_triples(store) == before
    assert second.added == first.added
    summary = json.loads(json.dumps(second.to_dict()))
    assert (
        summary["total_added"] == len(before) and summary["added"]["price"] == 8
    )  # hasPrice + hasCurrency, 4 products


def test_derived_graph_is_recomputed_from_documents() -> None:
    store = _store(*DOCS)
    stale = O.SKG + "stale"
    store.insert_where(f"<{stale}> <{stale}> <{stale}>", "", graph=O.DERIVED_GRAPH)
    apply_rules(store, load_rules())
    assert not has(store, stale, stale, stale)
    store.drop_graph(O.document_graph("tabular-a-series"))
    assert has(store, A16, LACKS, NFC)
    apply_rules(store, load_rules())
    assert not has(store, A16, LACKS, NFC)
    assert has(store, S25_BLACK, O.HAS_FEATURE, NFC)


def _rules_file(tmp_path: Path, body: str) -> Path:
    f = tmp_path / "my_rules.yaml"
    f.write_text(body)
    return f


GOOD = """
  - id: ok
    description: fine
    where: "?p skg:variantOf ?r"
    insert: "?p skg:inRange ?r"
"""


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('    where: "?p skg:variantOf ?r FILTER("\n    insert: "?p skg:x ?r"', "malformed"),
        ('    where: "?p skg:variantOf ?r"\n    insert: "?p skg:x [ skg:y ?r ]"', "blank nodes"),
        ('    where: "?p skg:variantOf ?r"\n    insert: "?p skg:x _:b"', "blank nodes"),
        ('    where: "SERVICE <http://e.com/q> { ?p ?q ?r }"\n    insert: "?p skg:x ?r"', "SERVICE"),
        ('    where: "  "\n    insert: "?p skg:x ?r"', "where: Value error, must not be empty"),
        ('    where: "?p skg:n {{nope}}"\n    insert: "?p skg:x ?r"', "unknown def"),
        ('    where: "?p skg:variantOf ?r"', "insert: Field required"),
        ('    where: "?p skg:variantOf ?r"\n    focus: p\n    insert: "?r skg:x ?p"', "writes about \\?r"),
        ('    where: "?p skg:variantOf ?r"\n    focus: q\n    insert: "?q skg:x ?r"', "does not occur"),
    ],
)
def test_broken_user_rule_names_its_id(tmp_path: Path, body: str, message: str) -> None:
    f = _rules_file(tmp_path, "rules:" + GOOD + "  - id: broken-rule\n    description: bad\n" + body + "\n")
    with pytest.raises(RuleError, match=message) as e:
        load_rules(f)
    assert "'broken-rule'" in str(e.value) and "my_rules.yaml" in str(e.value)


def test_duplicate_ids_and_bad_files(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="'ok': duplicate rule id"):
        load_rules(_rules_file(tmp_path, "rules:" + GOOD + GOOD))
    with pytest.raises(RuleError, match="`rules` list"):
        load_rules(_rules_file(tmp_path, "defs: {}\n"))
    with pytest.raises(RuleError, match="rule False: the id must be a string"):
        load_rules(_rules_file(tmp_path, "rules:" + GOOD.replace("id: ok", "id: off")))
    with pytest.raises(RuleError, match="cannot read"):
        load_rules(tmp_path / "absent.yaml")


def test_user_rules_file_with_defs_and_disabled_rules(tmp_path: Path) -> None:
    f = _rules_file(
        tmp_path,
        "defs:\n  big: '^5000$'\nrules:"
        + GOOD
        + """
  - id: big-battery
    description: uses a def
    where: '?p skg:hasSpec/skg:hasQuantity/skg:hasNumericValue ?n FILTER(REGEX(STR(?n), "{{big}}"))'
    insert: "?p skg:bigBattery true"
  - id: switched-off
    description: disabled
    enabled: false
    where: "?p a skgt:Product"
    insert: "?p skg:never true"
""",
    )
    rules = load_rules(f)
    store = _store(*DOCS)
    report = apply_rules(store, rules)
    assert report.added == {"ok": 4, "big-battery": 2}
    assert has(store, S25_BLACK, O.SKG + "bigBattery", "true")
    assert not store.ask("ASK { ?p skg:never ?x }")


def test_no_fixpoint_raises() -> None:
    counter = [
        Rule(id="seed", description="", where="BIND(0 AS ?n)", insert="skg:c skg:n ?n"),
        Rule(id="inc", description="", where="skg:c skg:n ?n BIND(?n + 1 AS ?m)", insert="skg:c skg:n ?m"),
    ]
    with pytest.raises(FixpointError, match="after 5 rounds"):
        apply_rules(OxigraphStore.in_memory(), counter, max_rounds=5)


def test_rules_built_in_python_fail_with_their_id() -> None:
    bad = Rule(id="typo", description="", where="?p skg:variantOf ?r FILTER(", insert="?p skg:x ?r")
    with pytest.raises(StoreError, match="rule 'typo' failed: malformed"):
        apply_rules(_store(*DOCS), [bad])
    ok = Rule(id="twice", description="", where="?p skg:variantOf ?r", insert="?p skg:x ?r")
    with pytest.raises(RuleError, match="duplicate rule ids"):
        apply_rules(_store(*DOCS), [ok, ok])


def test_read_only_store_refused(tmp_path: Path) -> None:
    with OxigraphStore(tmp_path / "db") as s:
        s.bulk_load(DOCS[0])
    with OxigraphStore(tmp_path / "db", read_only=True) as ro, pytest.raises(StoreError, match="read-only"):
        apply_rules(ro, load_rules())


def _one_spec(tmp_path: Path, key: str, value: str) -> OxigraphStore:
    """A store with one product holding one spec ``key`` (``Section:Entry``) = ``value``, as the converter writes it."""
    from dualgraph.corpus.model import Variant
    from dualgraph.skg.triples import convert_document

    conv = convert_document("probe", [Variant("Probe Phone", "Probe", (), ((key, value),))])
    f = tmp_path / "probe.nq"
    f.write_text(conv.nquads, encoding="utf-8")
    store = _store(f)
    apply_rules(store, load_rules())
    return store


PROBE = N.product_iri("Probe Phone")


@pytest.mark.parametrize(
    ("key", "value", "has_feature", "lacks_feature"),
    [
        ("Connectivity:NFC", "Yes", True, False),
        ("Connectivity:NFC", "YES (Ultra only)", True, False),
        ("Connectivity:NFC", "Built-in", True, False),
        ("Connectivity:NFC", "Included", True, False),
        ("Connectivity:NFC", "✓", True, False),
        ("Connectivity:NFC", "TRUE", True, False),
        ("Connectivity:NFC", "no", False, True),
        ("Connectivity:NFC", "None", False, True),
        ("Connectivity:NFC", "Not included", False, True),
        ("Connectivity:NFC", "false", False, True),
        ("Connectivity:NFC", "Y", True, False),  # as spreadsheets abbreviate yes and no
        ("Connectivity:NFC", "n", False, True),
        ("Connectivity:NFC", "N/A", False, False),  # unknown, not "no"
        ("Connectivity:NFC", "-", False, False),
        ("Connectivity:NFC", "Yesterday", False, False),
        ("Connectivity:NFC", "Nothing Phone", False, False),
    ],
)
def test_affirmatives_and_negatives(
    tmp_path: Path, key: str, value: str, has_feature: bool, lacks_feature: bool
) -> None:
    store = _one_spec(tmp_path, key, value)
    entry = N.entry_iri(*N.split_spec_key(key))
    assert has(store, PROBE, O.HAS_FEATURE, entry) is has_feature
    assert has(store, PROBE, LACKS, entry) is lacks_feature


def test_a_rule_without_focus_owns_its_kind_of_triple(tmp_path: Path) -> None:
    # recomputed by its difference from the graph's triples of its shape, it would take back another rule's
    two = """
  - id: mine
    description: x
    where: "?p skg:variantOf ?r"
    insert: "?p skg:tagged ?r"
  - id: theirs
    description: y
    where: "?p skg:belongs ?r"
    focus: p
    insert: "?p skg:tagged ?r"
"""
    with pytest.raises(RuleError, match="'mine' \\(no focus\\) and rule 'theirs' both write skg:tagged"):
        load_rules(_rules_file(tmp_path, "rules:" + two))


def test_a_focused_run_equals_a_full_one() -> None:
    """Change one product's documents, then bring the derived graph up to date for it alone."""
    store = _store(*DOCS)
    derive_catalog_facts(store)
    rules = load_rules()
    apply_rules(store, rules)
    # the S25 Ultra in black loses NFC and gains a price; its range's summaries must follow
    g = O.document_graph("edit")
    store.update(
        f"DELETE {{ GRAPH ?g {{ <{S25_BLACK}> skg:hasSpec ?s }} }} WHERE {{ GRAPH ?g {{ <{S25_BLACK}> skg:hasSpec ?s . "
        f"?s skg:inEntry <{NFC}> }} }}"
    )
    store.update(f'INSERT DATA {{ GRAPH <{g}> {{ <{S25_BLACK}> skg:hasName "renamed" }} }}')
    focus = sorted({S25_BLACK, R_S25, S25_SILVER})
    report = apply_rules(store, rules, focus=focus)
    assert report.mode == "incremental" and report.focus == 3
    incremental = derived_triples(store)
    assert apply_rules(store, rules).mode == "full"
    assert incremental == derived_triples(store)
    assert not has(store, S25_BLACK, O.HAS_FEATURE, NFC)


def test_the_focus_is_not_enough_when_shared_facts_change() -> None:
    store = _store(*DOCS)
    rules = load_rules()
    apply_rules(store, rules)
    # a tag list no product listed before: two products list it now, so it is a tag of its entry
    g = O.document_graph("tags")
    lines = []
    for i, p in enumerate((A16, A16_LTE)):
        lines.append(f"<{p}> skg:hasSpec <http://x/s{i}a> , <http://x/s{i}b> .")
        lines.append(f"<http://x/s{i}a> skg:inEntry <http://x/e> ; skg:hasValue <http://x/v1> .")
        lines.append(f"<http://x/s{i}b> skg:inEntry <http://x/e> ; skg:hasValue <http://x/v2> .")
    store.update(f"PREFIX skg: <{O.SKG}> INSERT DATA {{ GRAPH <{g}> {{ {' '.join(lines)} }} }}")
    report = apply_rules(store, rules, focus=[A16])
    assert report.mode == "full" and "tag-value" in report.why
    assert has(store, A16_LTE, O.HAS_FEATURE, "http://x/v1")
