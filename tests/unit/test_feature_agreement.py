"""A prose feature close in meaning to the phrase asked joins it only when the pages state both the
same way: "automatic icemaker" is another name of "ice maker" (same polarity on every page that states
both), "ice dispenser" and "top freezer" are neighbouring facts (stated the other way on some), on a
real Oxigraph store."""

from __future__ import annotations

from dualgraph.query.ground.text_features import FeatureMatch, agreeing, stated_polarities
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

ICE, ICEMAKER, DISPENSER, TOP = (f"{O.SKG}entity-{x}" for x in ("ice", "icemaker", "dispenser", "top"))

#   product: what its page states (feature, has)
PAGES = {
    "p1": [(ICE, True), (ICEMAKER, True), (DISPENSER, False), (TOP, False)],
    "p2": [(ICE, False), (ICEMAKER, False), (DISPENSER, True), (TOP, True)],
    "p3": [(ICE, False), (DISPENSER, True), (TOP, True)],
    "p4": [(ICE, True), (ICEMAKER, True), (DISPENSER, True)],
    "p5": [(ICE, True), (ICE, False), (ICEMAKER, False)],  # both ways: says nothing of agreement
}


def _store() -> OxigraphStore:
    st = OxigraphStore.in_memory()
    rel = {True: "hasTextFeature", False: "lacksTextFeature"}
    data = " ".join(f"<{O.SKG}{p}> <{O.SKG}{rel[has]}> <{f}> ." for p, said in PAGES.items() for f, has in said)
    st.update(f"INSERT DATA {{ GRAPH <http://x/g> {{ {data} }} }}")
    return st


def _match(iri: str, name: str, score: float, how: str = "embedding") -> FeatureMatch:
    return FeatureMatch(iri, name, score, how)


def test_polarities_come_from_the_store_and_a_page_stated_both_ways_is_left_out():
    said = stated_polarities(_store(), [ICE, ICEMAKER])
    assert said[ICE] == {f"{O.SKG}p1": True, f"{O.SKG}p2": False, f"{O.SKG}p3": False, f"{O.SKG}p4": True}
    assert said[ICEMAKER][f"{O.SKG}p5"] is False


def test_only_names_stated_alike_join_the_exact_one():
    matches = [
        _match(ICE, "ice maker", 1.0, "lexical"),
        _match(ICEMAKER, "automatic icemaker", 0.81),
        _match(DISPENSER, "ice dispenser", 0.71),
        _match(TOP, "Top Freezer", 0.63),
    ]
    kept, notes = agreeing(matches, stated_polarities(_store(), [m.iri for m in matches]))
    assert [m.name for m in kept] == ["ice maker", "automatic icemaker"]
    assert len(notes) == 2 and "'Top Freezer' left out" in notes[1]


def test_without_an_exact_name_nothing_is_the_yardstick():
    # "mobile GPU", "multi-GPU setups" for "GPU": none is the phrase's own meaning, so none rules out another
    matches = [_match(DISPENSER, "ice dispenser", 0.9, "lexical"), _match(ICE, "ice", 0.9, "lexical")]
    kept, notes = agreeing(matches, stated_polarities(_store(), [m.iri for m in matches]))
    assert [m.name for m in kept] == ["ice dispenser", "ice"] and not notes
