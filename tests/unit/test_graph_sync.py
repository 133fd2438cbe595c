"""A derived graph brought to new content by its difference: the same quads as a reload."""

import random

import pytest

from dualgraph.pipeline.graph_sync import sync_graph
from dualgraph.skg.terms import literal
from dualgraph.stores.oxigraph import OxigraphStore

G = "http://x/g"


def quad(i, text="plain"):
    return f"<http://x/s{i}> <http://x/p> {literal(f'{text} {i}')} <{G}> ."


def store_lines(store):
    rows = store.select(f"SELECT ?s ?o WHERE {{ GRAPH <{G}> {{ ?s ?p ?o }} }}")["results"]["bindings"]
    return sorted((r["s"]["value"], r["o"]["value"]) for r in rows)


@pytest.mark.parametrize("seed", range(4))
def test_a_sync_leaves_the_same_quads_as_a_reload(tmp_path, seed):
    rnd = random.Random(seed)
    # texts a DELETE DATA must spell exactly as the loader read them
    texts = ['say "hi"', "line\nbreak", "tab\there", "back\\slash", "ünïcødé ✓", "𝄞 clef"]
    pool = [quad(i, rnd.choice(texts)) for i in range(300)]
    synced, fresh = OxigraphStore.in_memory(), OxigraphStore.in_memory()
    current = rnd.sample(pool, 150)
    r = sync_graph(synced, G, current, tmp_path / "g.nq")
    assert r["reloaded"] and r["added"] == 150
    for _ in range(3):
        current = rnd.sample(current, 140) + rnd.sample(pool, 20)
        current = list(dict.fromkeys(current))
        r = sync_graph(synced, G, current, tmp_path / "g.nq")
        assert not r["reloaded"] and r["removed"] > 0 and r["added"] > 0
    sync_graph(fresh, G, current, tmp_path / "fresh.nq")
    assert store_lines(synced) == store_lines(fresh)
    assert synced.count(graph=G) == len(current)


def test_an_interrupted_sync_reloads_the_graph_whole(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(1), quad(2)], saved)
    (tmp_path / "g.nq.pending").write_text("killed\n")  # a run stopped between touching the graph and saving
    store.update(f"INSERT DATA {{ GRAPH <{G}> {{ <http://x/stray> <http://x/p> 1 . }} }}")
    r = sync_graph(store, G, [quad(2), quad(3)], saved)
    assert r["reloaded"] and store.count(graph=G) == 2
    assert not (tmp_path / "g.nq.pending").exists()


def test_a_store_that_disagrees_with_the_saved_file_is_reloaded(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(1), quad(2)], saved)
    store.drop_graph(G)  # e.g. dropped by hand
    r = sync_graph(store, G, [quad(1), quad(2)], saved)
    assert r["reloaded"] and store.count(graph=G) == 2


def test_a_line_of_another_graph_is_refused(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(1)], saved)
    with pytest.raises(ValueError, match="not a quad of"):
        sync_graph(store, G, ["<http://x/a> <http://x/p> <http://x/b> <http://x/other> ."], saved)
