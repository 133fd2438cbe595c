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


def saved_lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("as_file", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_unsorted_repeated_input_syncs_to_what_a_fresh_load_holds(tmp_path, seed, as_file):
    rnd = random.Random(seed)
    pool = [quad(i, rnd.choice(["a", 'q"uote', "x\ty", "ü ✓"])) for i in range(200)]
    synced, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"

    def content(lines, name):
        if not as_file:
            return lines
        path = tmp_path / name
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return path

    current = rnd.sample(pool, 100)
    for step in range(4):
        # repeats and any order, as the text-fact generators give them
        given = current + rnd.sample(current, 30)
        rnd.shuffle(given)
        r = sync_graph(synced, G, content(given, f"in{step}.nq"), saved)
        assert r["reloaded"] == (step == 0)
        assert r["added"] + r["kept"] == len(current) == synced.count(graph=G)
        assert saved_lines(saved) == sorted(current, key=lambda line: line.encode())
        current = list(dict.fromkeys(rnd.sample(current, 80) + rnd.sample(pool, 30)))
    fresh = OxigraphStore.in_memory()
    sync_graph(fresh, G, content(current, "fresh-in.nq"), tmp_path / "fresh.nq")
    r = sync_graph(synced, G, content(current, "last.nq"), saved)
    assert store_lines(synced) == store_lines(fresh)
    assert not (tmp_path / "g.nq.pending").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no sort files left


def test_the_counts_say_what_changed(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(i) for i in range(10)], saved)
    r = sync_graph(store, G, [quad(i) for i in range(3, 15)] + [quad(4)], saved)
    assert r == {"removed": 3, "added": 5, "kept": 7, "reloaded": False}
    assert store_lines(store) == sorted((f"http://x/s{i}", f"plain {i}") for i in range(3, 15))


def test_a_sort_that_spills_to_disk_gives_the_same_file(tmp_path):
    lines = [quad(i, "padding " * 20) for i in range(20_000)]
    random.Random(0).shuffle(lines)
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, lines, saved, sort_memory="1M")  # a few MB of input: several runs to merge
    assert saved_lines(saved) == sorted(lines, key=lambda line: line.encode())
    assert store.count(graph=G) == len(lines)


def test_line_separators_inside_literals_stay_in_their_line(tmp_path):
    # str.splitlines() would cut these lines in two; N-Quads only ends a line at \n
    odd = [quad(1, "page\x0cbreak"), quad(2, "para\u2028graph"), quad(3, "next\x85line")]
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, odd, saved)
    path = tmp_path / "in.nq"
    path.write_text("\n".join(odd[1:]) + "\n", encoding="utf-8")
    r = sync_graph(store, G, path, saved)
    assert (r["removed"], r["added"], store.count(graph=G)) == (1, 0, 2)
    assert sorted(o for _, o in store_lines(store)) == ["next\x85line 3", "para\u2028graph 2"]


def test_a_saved_file_of_an_older_version_in_any_order_is_still_diffed(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    lines = [quad(i) for i in (5, 1, 3)]
    sync_graph(store, G, lines, saved)
    saved.write_text("\n".join(lines) + "\n", encoding="utf-8")  # unsorted, as the old writer left it
    r = sync_graph(store, G, [quad(3), quad(1), quad(7)], saved)
    assert (r["reloaded"], r["removed"], r["added"]) == (False, 1, 1)
    assert [s for s, _ in store_lines(store)] == ["http://x/s1", "http://x/s3", "http://x/s7"]


def test_a_count_that_disagrees_with_the_file_reloads(tmp_path):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(1), quad(2)], saved)
    store.update(f"INSERT DATA {{ GRAPH <{G}> {{ <http://x/stray> <http://x/p> 1 . }} }}")  # not in the file
    r = sync_graph(store, G, [quad(2), quad(3)], saved)
    assert r["reloaded"] and [s for s, _ in store_lines(store)] == ["http://x/s2", "http://x/s3"]


@pytest.mark.parametrize("as_file", [False, True])
def test_a_bad_line_is_named_and_nothing_is_touched(tmp_path, as_file):
    store, saved = OxigraphStore.in_memory(), tmp_path / "g.nq"
    sync_graph(store, G, [quad(1), quad(2)], saved)
    before = saved.read_bytes()
    bad = "<http://x/a> <http://x/p> <http://x/b> <http://x/other> ."
    lines = [quad(3), bad, quad(4)]
    if as_file:
        (tmp_path / "in.nq").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"not a quad of <http://x/g>: .*http://x/other"):
        sync_graph(store, G, tmp_path / "in.nq" if as_file else lines, saved)
    assert saved.read_bytes() == before and store.count(graph=G) == 2
    assert not (tmp_path / "g.nq.pending").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_string_is_neither_a_file_nor_lines(tmp_path):
    with pytest.raises(TypeError, match="Path to an N-Quads file"):
        sync_graph(OxigraphStore.in_memory(), G, str(tmp_path / "in.nq"), tmp_path / "g.nq")


def test_sort_files_of_a_killed_run_are_removed(tmp_path):
    stale = tmp_path / ".g.nq.sync-abc"
    stale.mkdir()
    (stale / "new.nq").write_text("left over\n")
    sync_graph(OxigraphStore.in_memory(), G, [quad(1)], tmp_path / "g.nq")
    assert not stale.exists()


@pytest.mark.parametrize("seed", range(3))
def test_the_difference_of_two_sorted_files_is_the_set_difference(tmp_path, seed):
    from dualgraph.pipeline.graph_sync import _diff

    rnd = random.Random(seed)
    # prefixes of one another and bytes above ASCII: where a careless comparison goes wrong
    pool = sorted({"".join(rnd.choice('ab <"é') for _ in range(rnd.randint(1, 6))) for _ in range(400)})
    old, new = set(rnd.sample(pool, 150)), set(rnd.sample(pool, 150))
    for name, lines in (("old", old), ("new", new)):
        (tmp_path / name).write_bytes(b"".join(sorted(x.encode() + b"\n" for x in lines)))
    n_gone, n_added = _diff(tmp_path / "old", tmp_path / "new", gone=tmp_path / "gone", added=tmp_path / "added")
    gone = set((tmp_path / "gone").read_text(encoding="utf-8").splitlines())
    added = set((tmp_path / "added").read_text(encoding="utf-8").splitlines())
    assert (gone, added) == (old - new, new - old)
    assert (n_gone, n_added) == (len(old - new), len(new - old))


def test_files_out_of_order_are_an_error_not_a_wrong_difference(tmp_path):
    from dualgraph.pipeline.graph_sync import _diff

    (tmp_path / "old").write_text("b\na\n", encoding="utf-8")
    (tmp_path / "new").write_text("c\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="comm"):
        _diff(tmp_path / "old", tmp_path / "new", gone=tmp_path / "gone", added=tmp_path / "added")
