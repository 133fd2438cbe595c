"""FaissIndex at scale: the choice by size, the recall check, shard-wise builds, IVF/HNSW persistence.

Small clustered sets (a few thousand vectors of dim 32) stand in for large ones: thresholds
are lowered rather than data made big.
"""

from __future__ import annotations

import json

import faiss
import numpy as np
import pytest

from dualgraph.stores import faiss_index as fi
from dualgraph.stores.faiss_ann import AnnConfig, RecallNotMetError, RecallWarning
from dualgraph.stores.faiss_index import FaissIndex, string_id_hash
from dualgraph.stores.vector import IndexMismatchError, VectorIndex, VectorIndexError

DIM = 32
N = 4000


def clustered(n: int, seed: int = 0, clusters: int = 20) -> np.ndarray:
    """Unit vectors around shared centres (the centres are fixed, so draws of any seed mix)."""
    centres = np.random.default_rng(99).standard_normal((clusters, DIM)).astype(np.float32)
    rng = np.random.default_rng(seed)
    x = centres[rng.integers(0, clusters, n)] + 0.6 * rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def ids_for(n: int) -> list[str]:
    return [f"ent-{i}" for i in range(n)]


def shards(ids: list[str], rows: np.ndarray, size: int = 700):
    for s in range(0, len(ids), size):
        yield ids[s : s + size], rows[s : s + size]


@pytest.fixture(scope="module")
def data() -> np.ndarray:
    return clustered(N)


@pytest.fixture(scope="module")
def flat(data) -> FaissIndex:
    index = FaissIndex(DIM, gpu=False)
    index.add(ids_for(N), data)
    return index


@pytest.fixture(scope="module")
def ivf(data) -> FaissIndex:
    config = AnnConfig(threshold=1000, train_sample=2000)
    return FaissIndex.build(DIM, shards(ids_for(N), data), size=N, config=config, gpu=False)


def top_ids(hits) -> list[list[str]]:
    return [[i for i, _ in h] for h in hits]


def test_kind_is_chosen_by_size():
    config = AnnConfig(threshold=1000)
    assert [config.choose(n) for n in (1, 999, 1000, 10**7)] == ["flat", "flat", "ivf", "ivf"]
    assert AnnConfig(kind="hnsw", threshold=1000).choose(5) == "hnsw"
    assert AnnConfig(kind="flat").choose(10**9) == "flat"
    with pytest.raises(ValueError):
        AnnConfig(kind="lsh")
    with pytest.raises(ValueError):
        AnnConfig(recall_target=1.5)


def test_below_the_threshold_nothing_changes(flat, data):
    built = FaissIndex.build(DIM, shards(ids_for(N), data), size=N, config=AnnConfig(threshold=N + 1), gpu=False)
    assert built.kind == "flat" and built.capabilities.exact and built.recall is None
    assert built.ids() == flat.ids()
    queries = clustered(20, seed=5)
    assert built.search(queries, k=10) == flat.search(queries, k=10)
    # the default threshold keeps every small index as it is: the very same object
    assert flat.for_size() is flat


def test_ivf_build_meets_the_recall_target_and_agrees_with_flat(ivf, flat):
    assert isinstance(ivf, VectorIndex)
    assert ivf.kind == "ivf" and not ivf.capabilities.exact and ivf.capabilities.remove
    assert ivf.recall is not None and ivf.recall.met and ivf.recall.recall >= 0.95
    assert ivf.recall.param == "nprobe" and ivf.recall.tried[-1] == (ivf.recall.value, ivf.recall.recall)
    # measured independently on held-out queries: the check must not flatter itself
    queries = clustered(100, seed=7)
    approx, exact = top_ids(ivf.search(queries, k=10)), top_ids(flat.search(queries, k=10))
    recall = np.mean([len(set(a) & set(e)) / 10 for a, e in zip(approx, exact, strict=True)])
    assert recall >= 0.9
    assert sorted(ivf.ids()) == sorted(flat.ids()) and len(ivf) == N


def test_an_impossible_target_is_reported_not_hidden(flat):
    config = AnnConfig(kind="ivf", recall_target=1.0, max_nprobe=1, train_sample=2000)
    with pytest.warns(RecallWarning, match=r"MISSES the target 1\.0.*nprobe=1"):
        index = flat.for_size(config)
    assert index.recall is not None and not index.recall.met and index.recall.recall < 1.0
    assert index.recall.tried == [(1, index.recall.recall)]
    with pytest.raises(RecallNotMetError, match="nprobe=1"):
        flat.for_size(config.model_copy(update={"on_recall_miss": "raise"}))


def test_shardwise_build_returns_the_same_ids_as_flat_for_stored_vectors(ivf, flat, data):
    picks = [0, 1, 699, 700, 2500, N - 1]  # shard edges included
    assert top_ids(ivf.search(data[picks], k=1)) == top_ids(flat.search(data[picks], k=1))
    assert top_ids(ivf.search(data[picks], k=1)) == [[f"ent-{i}"] for i in picks]
    assert ivf._key_of == flat._key_of  # the id hashing is the same in both kinds
    assert all(ivf._key_of[i] == string_id_hash(i) for i in ("ent-0", "ent-3999"))


def test_ivf_upsert_remove_contains(data):
    index = FaissIndex.build(
        DIM, shards(ids_for(N), data), size=N, config=AnnConfig(kind="ivf", train_sample=2000), gpu=False
    )
    index.add(["ent-5"], data[[6]])  # an upsert moves ent-5 onto ent-6's vector
    assert len(index) == N and index.ids()[-1] == "ent-5"
    assert {i for i, _ in index.search(data[6], k=2)[0]} == {"ent-5", "ent-6"}
    assert index.remove(["ent-5", "ent-7", "missing"]) == 2
    assert len(index) == N - 2 and "ent-7" not in index and "ent-8" in index
    assert "ent-7" not in {i for h in index.search(data[[7]], k=20) for i, _ in h}


def test_save_load_round_trip_of_ivf(ivf, tmp_path):
    queries = clustered(10, seed=3)
    ivf.save(tmp_path / "ivf")
    meta = json.loads((tmp_path / "ivf" / fi.IDS_FILE).read_text())
    assert meta["format"] == 2 and meta["kind"] == "ivf"
    assert meta["recall"]["recall"] == ivf.recall.recall and meta["recall"]["met"] is True
    loaded = FaissIndex.load(tmp_path / "ivf", gpu=False)
    assert loaded.kind == "ivf" and loaded.recall == ivf.recall and loaded.ann == ivf.ann
    assert faiss.extract_index_ivf(loaded._index).nprobe == ivf.recall.value
    assert loaded.ids() == ivf.ids()
    assert loaded.search(queries, k=5) == ivf.search(queries, k=5)
    loaded.remove(["ent-1"])
    assert len(loaded) == N - 1


def test_save_load_round_trip_of_hnsw(flat, data, tmp_path):
    hnsw = flat.for_size(AnnConfig(kind="hnsw", hnsw_m=16))
    assert hnsw.kind == "hnsw" and hnsw.recall is not None and hnsw.recall.param == "efSearch" and hnsw.recall.met
    assert hnsw.capabilities.gpu is False and hnsw.capabilities.remove is False
    hnsw.save(tmp_path / "h")
    loaded = FaissIndex.load(tmp_path / "h", gpu=False)
    queries = clustered(10, seed=4)
    assert loaded.kind == "hnsw" and loaded.ids() == flat.ids()
    assert loaded.search(queries, k=5) == hnsw.search(queries, k=5)
    assert top_ids(loaded.search(data[[42]], k=1)) == [["ent-42"]]
    with pytest.raises(VectorIndexError, match="HNSW"):
        loaded.remove(["ent-1"])
    with pytest.raises(VectorIndexError, match="HNSW"):
        loaded.add(["ent-1"], data[[2]])
    loaded.add(["new"], data[[2]])  # a new id is fine
    assert "new" in loaded


def test_loads_an_index_saved_in_the_first_format(data, tmp_path):
    # written by hand the way the code before approximate indexes saved a flat index
    ids = ids_for(30)
    keys = np.asarray([string_id_hash(i) for i in ids], dtype=np.int64)
    raw = faiss.IndexIDMap2(faiss.IndexFlatIP(DIM))
    raw.add_with_ids(data[:30], keys)
    blob = faiss.serialize_index(raw).tobytes()
    (tmp_path / fi.INDEX_FILE).write_bytes(blob)
    meta = {
        "format": 1,
        "dim": DIM,
        "metric": "ip",
        "hash": "blake2b-63",
        "index_sha256": __import__("hashlib").sha256(blob).hexdigest(),
        "count": 30,
        "ids": ids,
    }
    (tmp_path / fi.IDS_FILE).write_text(json.dumps(meta))
    loaded = FaissIndex.load(tmp_path, gpu=False)
    assert loaded.kind == "flat" and loaded.capabilities.exact and loaded.ids() == ids
    assert top_ids(loaded.search(data[[3]], k=1)) == [["ent-3"]]
    loaded.save(tmp_path / "again")  # and a flat index is still saved in that format
    again = json.loads((tmp_path / "again" / fi.IDS_FILE).read_text())
    assert again["format"] == 1 and "kind" not in again


def test_load_refuses_a_kind_it_does_not_know(ivf, tmp_path):
    ivf.save(tmp_path)
    meta_path = tmp_path / fi.IDS_FILE
    meta = json.loads(meta_path.read_text())
    meta["kind"] = "lsh"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="kind 'lsh'"):
        FaissIndex.load(tmp_path, gpu=False)
    meta["kind"], meta["ids"][0] = "ivf", "renamed"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(IndexMismatchError, match="hashes of the ids"):
        FaissIndex.load(tmp_path, gpu=False)


def test_fewer_hits_than_k_is_not_taken_for_a_tie(data, monkeypatch):
    # one list of ~100 visited: fewer than k vectors come back, the rest are key -1 with
    # equal scores; that is no tie at the cut-off, so one FAISS search must do
    narrow = FaissIndex.build(
        DIM,
        shards(ids_for(N), data),
        size=N,
        config=AnnConfig(kind="ivf", nprobe=1, nlist=40, recall_target=0.01, train_sample=2000),
        gpu=False,
    )
    fetched: list[int] = []
    searcher = narrow._searcher
    monkeypatch.setattr(narrow, "_searcher", lambda k: fetched.append(k) or searcher(k))
    hits = narrow.search(data[[0]], k=1000)[0]
    assert 0 < len(hits) < 1000 and hits[0][0] == "ent-0"
    assert fetched == [1008]
