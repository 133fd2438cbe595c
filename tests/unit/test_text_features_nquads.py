"""Text-feature N-Quads: statements with evidence, has/lacks edges, conflicts; the query-side
matcher with a deterministic embedder, and the SPARQL snippet, on an in-memory Oxigraph."""

import numpy as np
import pytest

from dualgraph.pipeline.graph_sync import sync_graph
from dualgraph.query.ground.text_features import (
    TextFeature,
    TextFeatureMatcher,
    feature_constraint,
    lexical_score,
    load_text_features,
)
from dualgraph.skg import ontology as O
from dualgraph.skg.terms import iri, literal
from dualgraph.stores.oxigraph import OxigraphStore
from dualgraph.tkg.model import Chunk, Entity
from dualgraph.tkg.text_facts import entity_iri, iter_text_fact_nquads, text_fact_nquads
from dualgraph.tkg.text_features import (
    HAS_TEXT_FEATURE,
    LACKS_TEXT_FEATURE,
    PageText,
    chunk_pages,
    iter_text_feature_nquads,
    statement_iri,
    text_feature_nquads,
)

P1, P2, P3, P4 = (f"http://x/p{i}" for i in range(1, 5))
FEATURES = {"NFC": "nfc", "IR blaster": "ir", "headphone jack": "jack"}


def quads(text):
    return [line for line in text.splitlines() if line]


def test_has_and_lacks_edges_with_one_statement_each():
    page = PageText((P1,), "It supports NFC but lacks an IR blaster. Nothing on the jack here.", FEATURES)
    out = quads(text_feature_nquads([page]))
    g = iri(O.TEXT_GRAPH)
    assert f"{iri(P1)} {iri(HAS_TEXT_FEATURE)} {iri(entity_iri('nfc'))} {g} ." in out
    assert f"{iri(P1)} {iri(LACKS_TEXT_FEATURE)} {iri(entity_iri('ir'))} {g} ." in out
    assert not any(entity_iri("jack") in q for q in out)  # never stated: unknown
    node = iri(statement_iri(P1, entity_iri("ir"), "It supports NFC but lacks an IR blaster."))
    about = sorted(q.split(" ", 2)[1] for q in out if q.startswith(node))
    assert about == sorted(
        iri(p)
        for p in (O.TYPE, O.SKG + "aboutProduct", O.SKG + "statesFeature", O.SKG + "polarity", O.SKG + "evidence")
    )
    assert f'{node} {iri(O.SKG + "polarity")} "false"^^<{O.XSD}boolean> {g} .' in out
    assert f"{node} {iri(O.SKG + 'evidence')} {literal('It supports NFC but lacks an IR blaster.')} {g} ." in out
    assert all(q.endswith(f"{g} .") for q in out)


def test_every_product_of_a_page_gets_the_statements():
    out = quads(text_feature_nquads([PageText((P1, P2), "It keeps the headphone jack.", FEATURES)]))
    edges = [q for q in out if f"<{HAS_TEXT_FEATURE}>" in q]
    assert sorted(q.split()[0] for q in edges) == [iri(P1), iri(P2)]
    assert sum(f"<{O.SKG}aboutProduct>" in q for q in out) == 2


def test_a_conflict_keeps_both_statements_and_no_edge():
    pages = [
        PageText((P1,), "It keeps the headphone jack.", FEATURES),
        PageText((P1,), "Sadly, there is no headphone jack.", FEATURES),  # another chunk or page
        PageText((P2,), "It has no headphone jack.", FEATURES),
    ]
    out = quads(text_feature_nquads(pages))
    jack = entity_iri("jack")
    assert not any(q.startswith(iri(P1)) and jack in q for q in out)
    assert f"{iri(P2)} {iri(LACKS_TEXT_FEATURE)} {iri(jack)} {iri(O.TEXT_GRAPH)} ." in out
    p1_statements = [q for q in out if f"<{O.SKG}aboutProduct> {iri(P1)}" in q]
    assert len(p1_statements) == 2


def test_repeated_sentences_and_empty_pages_add_nothing():
    once = text_feature_nquads([PageText((P1,), "It lacks NFC.", FEATURES)])
    twice = text_feature_nquads(
        [PageText((P1,), "It lacks NFC.", FEATURES), PageText((P1,), "Intro.\nIt lacks NFC.", FEATURES)]
    )
    assert once == twice
    assert text_feature_nquads([PageText((), "It lacks NFC.", FEATURES)]) == ""
    assert text_feature_nquads([PageText((P1,), "Does it have NFC?", FEATURES)]) == ""


def test_chunk_pages_take_extracted_and_spelled_names_but_not_product_names():
    chunks = [
        Chunk("c1", "d1", "The Nova 5 lacks NFC and an IR blaster.", products=("Nova 5",)),
        Chunk("c2", "d2", "The Orbit keeps NFC.", products=("Orbit",)),
        Chunk("c3", "d3", "No products here lack NFC."),
    ]
    entities = [
        Entity("nova", "Nova 5", "", ["c1"]),
        Entity("nfc", "NFC", "", ["c2"]),
        Entity("ir", "IR blaster", "", ["c1"]),
    ]
    pages = chunk_pages(chunks, entities, {"c1": [P1], "c2": [P2]})
    assert [(p.products, sorted(p.features)) for p in pages] == [((P1,), ["IR blaster", "NFC"]), ((P2,), ["NFC"])]
    only_extracted = chunk_pages(chunks, entities, {"c1": [P1]}, every_name=False)
    assert sorted(only_extracted[0].features) == ["IR blaster"]


@pytest.fixture
def store(tmp_path):
    s = OxigraphStore.in_memory()
    entities = [Entity(e, n, "", []) for n, e in FEATURES.items()] + [Entity("tv", "TV remote", "", [])]
    tv = FEATURES | {"TV remote": "tv"}
    pages = [
        PageText((P1,), "It supports NFC. Its IR blaster doubles as a TV remote.", tv),
        PageText((P2,), "It lacks NFC. It cannot act as a TV remote without an IR blaster.", tv),
        PageText((P3,), "It has a big screen.", FEATURES),
        PageText((P4,), "NFC is missing. It keeps the headphone jack.", FEATURES),
    ]
    path = tmp_path / "text.nq"
    path.write_text(text_fact_nquads(entities, {}) + text_feature_nquads(pages), encoding="utf-8")
    s.bulk_load(path, format="nquads")
    for p, name in ((P1, "A"), (P2, "B"), (P3, "C"), (P4, "D")):
        s.update(f'INSERT DATA {{ <{p}> a <{O.PRODUCT}> ; <{O.HAS_NAME}> "{name}" }}')
    return s


def products(store, pattern):
    q = f"SELECT DISTINCT ?n WHERE {{ ?p a skgt:Product ; skg:hasName ?n . {pattern} }}"
    return sorted(b["n"]["value"] for b in store.select(q)["results"]["bindings"])


def test_sparql_over_the_edges(store):
    nfc, jack = entity_iri("nfc"), entity_iri("jack")
    assert products(store, feature_constraint([nfc])) == ["A"]
    assert products(store, feature_constraint([nfc], negated=True)) == ["B", "D"]  # C: unknown
    assert products(store, feature_constraint([jack], negated=True)) == []
    # one synonym had, another lacked: excluded unless asked otherwise
    ir, tv = entity_iri("ir"), entity_iri("tv")
    assert products(store, feature_constraint([ir, tv], negated=True)) == ["B"]
    both = feature_constraint([nfc], feature_var="f1") + " " + feature_constraint([tv], feature_var="f2")
    assert products(store, both) == ["A"]


def test_load_text_features(store):
    feats = {f.name: f for f in load_text_features(store)}
    assert sorted(feats) == ["IR blaster", "NFC", "TV remote", "headphone jack"]
    assert feats["NFC"].products == frozenset({P1, P2, P4}) and feats["NFC"].iri == entity_iri("nfc")


def toy_embed(texts):
    """Deterministic bag of concept words: enough to test the matcher's logic, not MiniLM."""
    concepts = (("card", "microsd", "memory"), ("infrared", "ir", "blaster"), ("remote", "tv"), ("nfc", "contactless"))
    rows = np.array(
        [[sum(w in t.lower().replace("-", " ").split() for w in c) for c in concepts] for t in texts], "float32"
    )
    rows += 0.05
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


FEATS = [
    TextFeature("f:nfc", "NFC", frozenset({"a", "b", "c"})),
    TextFeature("f:card", "microSD card", frozenset({"a"})),
    TextFeature("f:ir", "IR blaster", frozenset({"a", "b", "d"})),
    TextFeature("f:tv", "TV remote", frozenset({"a", "b"})),
    TextFeature("f:jack", "headphone jack", frozenset({"c"})),
]


def test_matcher_lexical_embedding_and_cooccurrence():
    m = TextFeatureMatcher(FEATS, embed=toy_embed)
    got = {x.name: x.how for x in m.match("contactless payments with NFC")}
    assert got == {"NFC": "lexical"}
    assert [(x.name, x.how) for x in m.match("memory card slot")] == [("microSD card", "embedding")]
    tv = m.match("TV remote")
    assert [(x.name, x.how) for x in tv] == [("TV remote", "lexical")]  # IR blaster: cosine under the floor
    loose = TextFeatureMatcher(FEATS, embed=toy_embed, cooccurrence_min_cosine=0.0).match("TV remote")
    # without the cosine floor, co-occurrence alone cannot tell the blaster from NFC: both are
    # stated for the same two products as "TV remote"
    assert loose[0].name == "TV remote"
    assert {(x.name, x.how) for x in loose[1:]} == {("IR blaster", "cooccurrence"), ("NFC", "cooccurrence")}
    assert all(x.score < m.min_cosine for x in loose[1:])  # indirect links rank under every direct hit
    assert TextFeatureMatcher(FEATS).match("memory card slot") == []  # no embedder: lexical only


def test_cooccurrence_needs_support():
    feats = [TextFeature("f:a", "alpha", frozenset({"a"})), TextFeature("f:b", "beta", frozenset({"a"}))]
    m = TextFeatureMatcher(feats, embed=lambda t: np.ones((len(t), 2), "float32") / np.sqrt(2), min_cosine=1.1)
    assert [x.name for x in m.match("alpha")] == ["alpha"]  # one shared product is no evidence


@pytest.mark.parametrize(
    ("phrase", "name", "score"),
    [
        ("memory card slots", "memory card slot", 1.0),
        ("Wi-Fi 6", "WiFi 6", 1.0),
        ("headphone jack", "3.5mm headphone jack", 0.9),
        ("infrared remote blaster", "IR blaster", 0.0),
        ("TV remote", "IR blaster", 0.0),
        ("the", "the", 1.0),
    ],
)
def test_lexical_score(phrase, name, score):
    assert lexical_score(phrase, name) == score


def test_constraint_needs_features():
    with pytest.raises(ValueError):
        feature_constraint([])


def test_a_sentence_said_of_several_products_is_one_statement_node():
    """Variants of one page, and other pages with the same sentence: one node, an edge per product."""
    pages = [
        PageText((P1, P2), "It keeps the headphone jack.", FEATURES),
        PageText((P3,), "It keeps the headphone jack.", FEATURES),
    ]
    out = quads(text_feature_nquads(pages))
    nodes = {q.split()[0] for q in out if f"<{O.SKG}statesFeature>" in q}
    assert len(nodes) == 1
    (node,) = nodes
    about = sorted(q.split()[2] for q in out if q.startswith(f"{node} <{O.SKG}aboutProduct>"))
    assert about == sorted(iri(p) for p in (P1, P2, P3))
    assert sum(f"<{O.SKG}evidence>" in q for q in out) == 1
    # the edges stay per product
    assert sorted(q.split()[0] for q in out if f"<{HAS_TEXT_FEATURE}>" in q) == sorted(iri(p) for p in (P1, P2, P3))


def test_streamed_lines_synced_hold_what_the_strings_load(tmp_path):
    """The generators may repeat lines (an entity met twice, a mention per chunk): the graph
    they sync to holds each quad once, the same quads the joined strings give."""
    entities = [Entity("nfc", "NFC", "Tap to pay.", ["c1", "c2"]), Entity("nfc", "NFC", "Tap to pay.", ["c2"])]
    chunk_products = {"c1": [P1], "c2": [P1, P2]}
    pages = [
        PageText((P1,), "It supports NFC.", FEATURES),
        PageText((P1, P2), "It supports NFC. Intro.\nIt supports NFC.", FEATURES),
    ]
    streamed = list(iter_text_fact_nquads(entities, chunk_products)) + list(iter_text_feature_nquads(pages))
    assert len(streamed) > len(set(streamed))  # the case this test is about
    joined = text_fact_nquads(entities, chunk_products) + text_feature_nquads(pages)
    assert sorted(set(streamed)) == sorted(joined.splitlines(keepends=True))
    synced, loaded = OxigraphStore.in_memory(), OxigraphStore.in_memory()
    r = sync_graph(synced, O.TEXT_GRAPH, iter(streamed), tmp_path / "text.nq")
    (tmp_path / "joined.nq").write_text(joined, encoding="utf-8")
    loaded.bulk_load(tmp_path / "joined.nq", format="nquads")
    assert r["added"] == synced.count(graph=O.TEXT_GRAPH) == loaded.count(graph=O.TEXT_GRAPH) == len(set(streamed))
    assert (tmp_path / "text.nq").read_text(encoding="utf-8") == "".join(sorted(set(streamed)))


def test_a_feature_named_as_the_phrase_negated_is_no_match_for_it():
    # "No ECC support, so use regular non-ECC RAM.": the page's phrase shares the asked words and
    # means their opposite; it must not widen "ECC memory" to the pages that deny it
    features = [
        TextFeature("f:ecc", "ECC memory", frozenset({"a", "b"})),
        TextFeature("f:non", "use regular non-ECC RAM", frozenset({"c"})),
        TextFeature("f:nosup", "no ECC support", frozenset({"d"})),
        TextFeature("f:other", "dual channel", frozenset({"e"})),
    ]
    matcher = TextFeatureMatcher(features)
    assert [m.name for m in matcher.match("ECC")] == ["ECC memory"]
    # asked for the negated phrase itself, its own name is no opposite
    assert "use regular non-ECC RAM" in [m.name for m in matcher.match("non-ECC RAM")]
