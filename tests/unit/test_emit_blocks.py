"""Which conditions the emitter writes as sub-selects, and that either form selects the same rows."""

from __future__ import annotations

from dualgraph.query.ground.base import Grounding
from dualgraph.query.read.model import Intent
from dualgraph.query.sparql.emit import select_query, where_clauses
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
