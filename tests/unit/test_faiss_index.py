"""FaissIndex: stable string ids, upserts, removal, collisions, persistence checks, batch search.

Vectors are seeded random numbers (no embedder needed).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dualgraph.stores import faiss_index as fi
from dualgraph.stores.faiss_index import FaissIndex, string_id_hash
from dualgraph.stores.vector import IdCollisionError, IndexMismatchError, VectorIndex

DIM = 16


def unit_rows(n: int, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def index() -> FaissIndex:
    idx = FaissIndex(DIM, gpu=False)
    idx.add([f"id-{i}" for i in range(50)], unit_rows(50))
    return idx


def test_is_a_vector_index_on_cpu(index):
    assert isinstance(index, VectorIndex)
    assert index.capabilities.gpu is False and index.capabilities.exact
    assert len(index) == 50 and "id-3" in index and "nope" not in index


def test_key_is_a_stable_nonnegative_hash():
    # A fixed value: the key must not depend on the run, the process or insertion order.
    assert string_id_hash("entity:IP68") == string_id_hash("entity:IP68")
    assert 0 <= string_id_hash("x") < 2**63
    other = FaissIndex(DIM, gpu=False)
    other.add(["b", "a"], unit_rows(2))
    one = FaissIndex(DIM, gpu=False)
    one.add(["a"], unit_rows(1))
    assert one._key_of["a"] == other._key_of["a"] == string_id_hash("a")


def test_search_finds_each_vector_itself_in_a_batch(index):
    rows = unit_rows(50)
    hits = index.search(rows[[7, 3, 41]], k=3)
    assert [h[0][0] for h in hits] == ["id-7", "id-3", "id-41"]
    for h in hits:
        assert h[0][1] == pytest.approx(1.0, abs=1e-5)
        assert [s for _, s in h] == sorted((s for _, s in h), reverse=True)


def test_batch_search_equals_one_query_at_a_time(index):
    queries = unit_rows(10, seed=5)
    batch = index.search(queries, k=5)
    single = [index.search(q, k=5)[0] for q in queries]
    assert [[i for i, _ in h] for h in batch] == [[i for i, _ in h] for h in single]


def test_queries_and_vectors_are_normalised():
    idx = FaissIndex(2, gpu=False)
    idx.add(["x"], np.array([[10.0, 0.0]]))
    assert idx.search(np.array([0.5, 0.0]), k=1) == [[("x", pytest.approx(1.0))]]


def test_k_larger_than_index_and_empty_index():
    idx = FaissIndex(DIM, gpu=False)
    assert idx.search(unit_rows(2), k=5) == [[], []]
    assert idx.range_search(unit_rows(1), min_score=0.0) == [[]]
    idx.add(["a", "b"], unit_rows(2))
    assert len(idx.search(unit_rows(1), k=10)[0]) == 2


def test_equal_scores_are_ordered_by_id():
    idx = FaissIndex(2, gpu=False)
    idx.add(["z", "m", "a"], np.array([[1.0, 0.0]] * 3))
    assert [i for i, _ in idx.search(np.array([1.0, 0.0]), k=3)[0]] == ["a", "m", "z"]


def test_ties_at_the_cutoff_are_decided_by_id_not_storage_order():
    ids = [f"t{i:02d}" for i in range(40)]
    forward, backward = FaissIndex(2, gpu=False), FaissIndex(2, gpu=False)
    forward.add(ids, np.ones((40, 2)))
    backward.add(ids[::-1], np.ones((40, 2)))
    query = np.array([[1.0, 1.0], [1.0, 0.0]])
    assert forward.search(query, k=3) == backward.search(query, k=3)
    assert [i for i, _ in forward.search(query, k=3)[0]] == ["t00", "t01", "t02"]


def test_upsert_replaces_rather_than_duplicates(index):
    rows = unit_rows(50)
    index.add(["id-7"], rows[[8]])
    assert len(index) == 50
    top = index.search(rows[8], k=2)[0]
    assert {i for i, _ in top} == {"id-7", "id-8"}
    assert index.search(rows[7], k=1)[0][0][0] != "id-7"
    assert index.ids().count("id-7") == 1


def test_duplicate_ids_in_one_add_are_refused(index):
    with pytest.raises(ValueError, match="twice"):
        index.add(["n", "n"], unit_rows(2))


def test_remove(index):
    assert index.remove(["id-1", "id-2", "missing", "id-1"]) == 2
    assert len(index) == 48 and "id-1" not in index
    found = {i for h in index.search(unit_rows(50), k=48) for i, _ in h}
    assert "id-1" not in found and "id-2" not in found
    index.add(["id-1"], unit_rows(50)[[1]])  # can come back afterwards
    assert index.search(unit_rows(50)[1], k=1)[0][0][0] == "id-1"


def test_range_search_is_inclusive_and_sorted():
    idx = FaissIndex(2, gpu=False)
    idx.add(["same", "near", "far"], np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0]]))
    hits = idx.range_search(np.array([[1.0, 0.0], [0.0, 1.0]]), min_score=0.6)
    assert [i for i, _ in hits[0]] == ["same", "near"]
    assert [i for i, _ in hits[1]] == ["far", "near"]  # "near" scores exactly 0.6


def test_collision_is_refused_not_merged(monkeypatch):
    monkeypatch.setattr(fi, "string_id_hash", lambda s: len(s))  # a deliberately bad hash
    idx = FaissIndex(DIM, gpu=False)
    idx.add(["ab"], unit_rows(1))
    with pytest.raises(IdCollisionError, match="'ab' and 'cd'"):
        idx.add(["cd"], unit_rows(1, seed=1))
    with pytest.raises(IdCollisionError):
        idx.add(["xyz", "uvw"], unit_rows(2))  # a collision inside one batch
    assert idx.ids() == ["ab"] and len(idx) == 1


def test_save_load_keeps_ids_and_results(index, tmp_path):
    queries = unit_rows(5, seed=9)
    before = index.search(queries, k=4)
    index.save(tmp_path / "ents")
    loaded = FaissIndex.load(tmp_path / "ents", gpu=False)
    assert loaded.ids() == index.ids() and len(loaded) == 50
    assert loaded.search(queries, k=4) == before
    loaded.add(["id-0"], unit_rows(1, seed=3))  # upsert still works after a load
    assert len(loaded) == 50


def test_load_refuses_an_index_file_from_another_save(index, tmp_path):
    index.save(tmp_path / "a")
    index.add(["extra"], unit_rows(1, seed=2))
    index.save(tmp_path / "b")
    (tmp_path / "a" / fi.INDEX_FILE).write_bytes((tmp_path / "b" / fi.INDEX_FILE).read_bytes())
    with pytest.raises(IndexMismatchError, match=r"index\.faiss.*ids\.json"):
        FaissIndex.load(tmp_path / "a", gpu=False)


def test_load_refuses_an_id_map_that_disagrees(index, tmp_path):
    index.save(tmp_path)
    meta_path = tmp_path / fi.IDS_FILE
    meta = json.loads(meta_path.read_text())
    meta["ids"][0] = "renamed"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="hashes of the ids"):
        FaissIndex.load(tmp_path, gpu=False)
    meta["ids"] = meta["ids"][1:]
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="49 ids"):
        FaissIndex.load(tmp_path, gpu=False)


def test_load_names_a_missing_file(index, tmp_path):
    index.save(tmp_path)
    (tmp_path / fi.IDS_FILE).unlink()
    with pytest.raises(IndexMismatchError, match="ids.json is missing"):
        FaissIndex.load(tmp_path, gpu=False)


def test_l2_metric_scores_higher_is_better():
    idx = FaissIndex(2, metric="l2", gpu=False)
    idx.add(["o", "p"], np.array([[0.0, 0.0], [3.0, 4.0]]))
    assert idx.search(np.array([0.0, 0.0]), k=2)[0] == [("o", 0.0), ("p", -25.0)]
    assert [i for i, _ in idx.range_search(np.array([0.0, 0.0]), min_score=-25.0)[0]] == ["o", "p"]


def test_bad_arguments():
    with pytest.raises(ValueError):
        FaissIndex(4, metric="cosine")
    idx = FaissIndex(4, gpu=False)
    with pytest.raises(ValueError, match="dim 4"):
        idx.add(["a"], np.zeros((1, 3)))
    with pytest.raises(ValueError, match="2 ids for 1"):
        idx.add(["a", "b"], np.zeros((1, 4)))


def test_gpu_true_without_gpu_is_an_error():
    if fi.gpu_available():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match="faiss-gpu"):
        FaissIndex(4, gpu=True)
    assert FaissIndex(4, gpu="auto").capabilities.gpu is False


@pytest.mark.parametrize("metric", ["ip", "l2"])
def test_scores_cut_at_any_depth_equal_the_search(metric):
    """A flat index scored once and cut with top_hits ranks as its own search does, ties included."""
    from dualgraph.stores.vector import id_ranks, top_hits

    idx = FaissIndex(DIM, metric=metric, gpu=False)
    rows = unit_rows(60, seed=3)
    rows[10:20] = rows[10]  # a block of equal vectors: ties that cross the cut-off
    ids = [f"v{(i * 37) % 60:02d}" for i in range(60)]  # storage order is not id order
    idx.add(ids, rows)
    queries = np.vstack([unit_rows(4, seed=4), rows[10:11]])
    scores, order = idx.scores(queries)
    assert scores.shape == (5, 60) and order == idx.ids()
    ranks = id_ranks(order)
    for k in (1, 5, 12, 15, 60):
        searched = idx.search(queries, k=k)
        for i in range(5):
            for cut in (top_hits(scores[i], order, k), top_hits(scores[i], order, k, ranks=ranks)):
                assert [h for h, _ in cut] == [h for h, _ in searched[i]], (metric, k, i)
                assert np.allclose([s for _, s in cut], [s for _, s in searched[i]], atol=1e-5)


def test_an_approximate_index_is_not_scored_whole():
    idx = FaissIndex(DIM, gpu=False)
    idx.kind = "hnsw"  # the flag scores() reads; an approximate index is never scored in full
    assert idx.scores(unit_rows(1)) is None
