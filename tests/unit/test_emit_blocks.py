"""Which conditions the emitter writes as sub-selects, and that either form selects the same rows."""

from __future__ import annotations

from dualgraph.query.ground.base import Grounding
from dualgraph.query.read.model import Intent
from dualgraph.query.sparql.emit import order_block, select_query, where_clauses
from dualgraph.stores.oxigraph import OxigraphStore

S = "https://w3id.org/dualgraph/skg#"
VALUE_WORD = (
    "?p skg:hasSpec {s} . {s} skg:inEntry <" + S + "entry-design.origin> ; skg:hasValue {v} . "
    '{v} skg:hasName {v}_n . FILTER(REGEX(LCASE(STR({v}_n)), "(^|[^a-z0-9])taiwan([^a-z0-9]|$)"))'
)
DATES_OF_A_FEW = "VALUES {s}_e { <" + S + "entry-a> <" + S + "entry-b> } ?p skg:hasSpec {s} . {s} skg:inEntry {s}_e ."
FEATURE = "?p skg:hasFeature <" + S + "entry-comms.nfc> ."
CATEGORY = "?p skg:belongs <" + S + "category-tablets> ."


def _blocks(*snippets: str) -> list[str]:
    return where_clauses([], [], [Grounding(None, "x", snippet=s) for s in snippets])[0]


NOT_A_WORD = (
    "?p skg:hasSpec {s} . {s} skg:inEntry <" + S + "entry-design.origin> ; skg:hasValue {v} . "
    "FILTER NOT EXISTS { ?p skg:hasSpec {s}x . {s}x skg:inEntry <" + S + "entry-design.origin> ; "
    "skg:hasValue <" + S + "value-taiwan> }"
)


def test_a_condition_on_a_named_entry_is_a_sub_select_and_the_rest_stay_inline():
    word, dates, feature, category, negated = _blocks(VALUE_WORD, DATES_OF_A_FEW, FEATURE, CATEGORY, NOT_A_WORD)
    # a negation tests the few products the other conditions leave: inline
    assert negated.startswith("?p skg:hasSpec ?s5 .") and "SELECT" not in negated
    assert word.startswith("{ SELECT DISTINCT ?p WHERE {") and "?s1 skg:inEntry <" in word
    assert dates.startswith("{ SELECT DISTINCT ?p WHERE {") and "?s2_e" in dates
    assert feature == "?p skg:hasFeature <" + S + "entry-comms.nfc> ."
    assert category == CATEGORY


def _store() -> OxigraphStore:
    store = OxigraphStore.in_memory()
    rows = []
    for i, (cat, origin) in enumerate(
        [("tablets", "Taiwan"), ("tablets", "Made in Taiwan"), ("tablets", "Vietnam"), ("phones", "Taiwan")]
    ):
        p, s, v = f"<{S}product-{i}>", f"<{S}spec-{i}>", f"<{S}value-{i}>"
        rows += [
            f'{p} a <https://w3id.org/dualgraph/skgt#Product> ; <{S}hasName> "P{i}" ; <{S}belongs> <{S}category-{cat}> ; <{S}hasSpec> {s} .',
            f"{s} <{S}inEntry> <{S}entry-design.origin> ; <{S}hasValue> {v} .",
            f'{v} <{S}hasName> "{origin}" .',
        ]
    store.update("INSERT DATA { " + "\n".join(rows) + " }")
    return store


def test_either_form_selects_the_same_products():
    store = _store()
    inline = [CATEGORY, VALUE_WORD.replace("{s}", "?s1").replace("{v}", "?v1")]
    nested = _blocks(CATEGORY, VALUE_WORD)
    assert nested != inline
    names = []
    for blocks in (inline, nested):
        sparql = select_query(Intent("list"), blocks, [], ordered=False, tie_broken=False, count_ranges=False)
        names.append(sorted(b["name"]["value"] for b in store.select(sparql)["results"]["bindings"]))
    assert names[0] == names[1] == ["P0", "P1"]


BATTERY = (
    "?p skg:hasSpec {s} . {s} skg:inEntry <" + S + "entry-battery> ; skg:hasQuantity {s}_q . "
    "{s}_q skg:hasNumericValue {v} ."
)


def _battery_store() -> OxigraphStore:
    store = OxigraphStore.in_memory()
    rows = []
    # P2 states two capacities (the most counts); P3 is a phone; P4 states none
    for i, (cat, mah) in enumerate([("tablets", [5000]), ("tablets", [7000]), ("tablets", [4000, 9000]),
                                    ("phones", [12000]), ("tablets", [])]):  # fmt: skip
        p = f"<{S}product-{i}>"
        rows.append(
            f'{p} a <https://w3id.org/dualgraph/skgt#Product> ; <{S}hasName> "P{i}" ; <{S}belongs> <{S}category-{cat}> .'
        )
        for j, n in enumerate(mah):
            s, q = f"<{S}spec-{i}-{j}>", f"<{S}q-{i}-{j}>"
            rows.append(
                f"{p} <{S}hasSpec> {s} . {s} <{S}inEntry> <{S}entry-battery> ; <{S}hasQuantity> {q} . {q} <{S}hasNumericValue> {n} ."
            )
    store.update("INSERT DATA { " + "\n".join(rows) + " }")
    return store


def test_an_ordering_on_a_named_entry_is_a_sub_select_unless_products_are_named():
    alone = order_block(BATTERY, "?so", "?val", named=False)
    assert alone.startswith("{ SELECT ?p ?val WHERE {") and "?so skg:inEntry <" in alone
    # a few named products: their own specs, inline
    assert order_block(BATTERY, "?so", "?val", named=True) == BATTERY.replace("{s}", "?so").replace("{v}", "?val")
    # an ordering on no named entry (a price, a feature count) stays inline
    assert order_block("?p skg:hasPrice {v} .", "?so", "?val", named=False) == "?p skg:hasPrice ?val ."


def test_either_ordering_form_ranks_and_averages_the_same():
    store = _battery_store()
    inline = BATTERY.replace("{s}", "?so").replace("{v}", "?val")
    nested = order_block(BATTERY, "?so", "?val", named=False)
    assert nested != inline
    for intent, column in ((Intent("superlative", "battery", "max"), "value"), (Intent("average", "battery"), "value"),
                           (Intent("superlative", "battery", "min"), "value")):  # fmt: skip
        got = []
        for block in (inline, nested):
            sparql = select_query(intent, [CATEGORY, block], [], ordered=True, tie_broken=False, count_ranges=False)
            rows = store.select(sparql)["results"]["bindings"]
            got.append([(b.get("name", {}).get("value"), float(b[column]["value"])) for b in rows])
        assert got[0] == got[1] and got[0], intent
    top = select_query(Intent("superlative", "battery", "max"), [CATEGORY, nested], [], ordered=True,
                       tie_broken=False, count_ranges=False)  # fmt: skip
    first = store.select(top)["results"]["bindings"][0]
    assert (first["name"]["value"], float(first["value"]["value"])) == (
        "P2",
        9000.0,
    )  # the phone's 12000 is out of scope
