"""The vocabulary clean-up restricted to the nodes a re-index dropped (dualgraph.pipeline.vocabulary)
removes exactly what the whole clean-up removes, on a real Oxigraph store."""

from __future__ import annotations

import random
from pathlib import Path

from dualgraph.pipeline.vocabulary import collect_vocabulary_garbage, referenced_nodes
from dualgraph.skg import ontology as O
from dualgraph.stores.oxigraph import OxigraphStore

V = "http://example.org/v/"


def _store(seed: int, tmp: Path) -> tuple[OxigraphStore, list[str]]:
    """Documents pointing at shared values and entries; entries point at sections, sections at a
    root; a node the text graph alone points at; a derived graph pointing at a feature."""
    rnd = random.Random(seed)
    lines = []
    vocab = O.VOCAB_GRAPH
    for s in range(4):
        lines.append(f"<{V}section{s}> <{V}in> <{V}root> <{vocab}> .")
    for e in range(12):
        lines.append(f"<{V}entry{e}> <{V}inSection> <{V}section{e % 4}> <{vocab}> .")
        lines.append(f'<{V}entry{e}> <{V}label> "entry {e}" <{vocab}> .')
    for v in range(30):
        lines.append(f'<{V}value{v}> <{V}label> "value {v}" <{vocab}> .')
    lines.append(f'<{V}root> <{V}label> "root" <{vocab}> .')
    lines.append(f'<{V}feature> <{V}label> "feature" <{vocab}> .')
    docs = []
    # every entry and value has a referrer to begin with, as after an index run
    for d in range(6):
        graph = O.document_graph(f"doc{d}")
        docs.append(graph)
        for e in {*rnd.sample(range(12), 3), *range(d, 12, 6)}:
            lines.append(f"<{V}p{d}> <{V}has> <{V}entry{e}> <{graph}> .")
        for v in {*rnd.sample(range(30), 5), *range(d, 30, 6)}:
            lines.append(f"<{V}p{d}> <{V}value> <{V}value{v}> <{graph}> .")
    lines.append(f"<{V}x> <{V}mentions> <{V}value29> <{O.TEXT_GRAPH}> .")  # the text graph does not keep it
    lines.append(f"<{V}p0> <{V}hasFeature> <{V}feature> <{O.DERIVED_GRAPH}> .")
    store = OxigraphStore.in_memory()
    path = tmp / f"vocab-{seed}-{rnd.random()}.nq"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    store.bulk_load(path)
    return store, docs


def _vocab(store: OxigraphStore) -> list[str]:
    res = store.select(f"SELECT ?s ?p ?o WHERE {{ GRAPH <{O.VOCAB_GRAPH}> {{ ?s ?p ?o }} }} ORDER BY ?s ?p ?o")
    return [" ".join(b[k]["value"] for k in ("s", "p", "o")) for b in res["results"]["bindings"]]


def test_the_clean_up_of_what_was_dropped_equals_the_whole_clean_up(tmp_path):
    for seed in range(5):
        whole, docs = _store(seed, tmp_path)
        focused, _ = _store(seed, tmp_path)
        dropped = docs[:3]
        candidates = referenced_nodes(focused, [*dropped, O.DERIVED_GRAPH])
        for store in (whole, focused):
            for g in [*dropped, O.DERIVED_GRAPH]:
                store.drop_graph(g)
        removed_whole = collect_vocabulary_garbage(whole)
        removed_focused = collect_vocabulary_garbage(focused, candidates=candidates)
        assert _vocab(whole) == _vocab(focused), seed
        assert removed_whole == removed_focused > 0
    # every document gone: sections and their root go in later rounds
    store, docs = _store(0, tmp_path)
    candidates = referenced_nodes(store, [*docs, O.DERIVED_GRAPH])
    for g in [*docs, O.DERIVED_GRAPH]:
        store.drop_graph(g)
    collect_vocabulary_garbage(store, candidates=candidates)
    assert _vocab(store) == []


def test_nothing_dropped_means_nothing_tested(tmp_path):
    store, _ = _store(1, tmp_path)
    before = _vocab(store)
    assert collect_vocabulary_garbage(store, candidates=set()) == 0
    assert _vocab(store) == before
