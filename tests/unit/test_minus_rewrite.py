"""In a sub-select, a feature constraint's "not stated the other way" check runs as a MINUS from the
listed features (once), not a FILTER NOT EXISTS (once per row): the same products come back, on a
real Oxigraph store; a NOT EXISTS inside a nested block is left alone."""

from __future__ import annotations

from dualgraph.query.ground.features import either, values_first
from dualgraph.query.ground.text_features import feature_constraint
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

F, G, H = (f"{O.SKG}entity-{x}" for x in ("f", "g", "h"))


def _store() -> OxigraphStore:
    st = OxigraphStore.in_memory()
    facts = [
        ("p1", "hasTextFeature", F),
        ("p2", "hasTextFeature", F),
        ("p2", "lacksTextFeature", F),  # stated both ways: answers neither question
        ("p3", "hasTextFeature", G),
        ("p3", "lacksTextFeature", H),
        ("p4", "hasFeature", f"{O.SKG}entry-x"),
        ("p5", "lacksTextFeature", F),
    ]
    data = " ".join(f"<{O.SKG}{s}> <{O.SKG}{p}> <{o}> ." for s, p, o in facts)
    st.update(f"INSERT DATA {{ GRAPH <http://x/g> {{ {data} }} }}")
    return st


def _products(st: OxigraphStore, block: str) -> list[str]:
    rows = st.select(f"SELECT DISTINCT ?p WHERE {{ {block} }} ORDER BY ?p")["results"]["bindings"]
    return [r["p"]["value"].rsplit("#", 1)[-1] for r in rows]


def test_minus_keeps_the_rows_of_not_exists():
    st = _store()
    for negated in (False, True):
        snippet = feature_constraint([F, G], negated=negated)
        assert "FILTER NOT EXISTS" in snippet  # a flat pattern keeps the per-row check
        rewritten = values_first(snippet)
        assert "MINUS" in rewritten and "NOT EXISTS" not in rewritten
        assert _products(st, rewritten) == _products(st, snippet), negated
    assert _products(st, values_first(feature_constraint([F, G]))) == ["p1", "p3"]
    assert _products(st, values_first(feature_constraint([F, H], negated=True))) == ["p3", "p5"]


def test_the_sub_select_of_either_uses_minus_and_answers_alike():
    st = _store()
    block = either(f"?p skg:hasFeature <{O.SKG}entry-x> .", feature_constraint([F]))
    assert block.startswith("{ SELECT DISTINCT ?p") and "MINUS" in block
    plain = f"{{ ?p skg:hasFeature <{O.SKG}entry-x> . }} UNION {{ {feature_constraint([F])} }}"
    assert _products(st, block) == _products(st, plain) == ["p1", "p4"]


def test_a_nested_not_exists_is_left_alone():
    nested = "?p skg:a ?x . FILTER NOT EXISTS { ?p skg:b ?y . FILTER NOT EXISTS { ?p skg:c ?z . FILTER(?z IN (<a>)) } }"
    assert values_first(nested) == nested
