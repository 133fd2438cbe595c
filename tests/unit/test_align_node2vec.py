"""Node2vec over the SKG export: the numpy 2 shim, embeddings that see clusters, saving, reuse and updates.

Every new graph costs a numba compile of pecanpy's walk kernel (seconds), so the embedded graphs are few:
one full run shared by the module, one more for determinism, one incremental update, one under Ray.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys

import numpy as np
import pytest

from dualgraph.align import node2vec as nv
from dualgraph.align.graph_export import GraphExport

pytestmark = pytest.mark.skipif(importlib.util.find_spec("pecanpy") is None, reason="needs the [align] extra (pecanpy)")

CONFIG = nv.Node2VecConfig(dim=16, epochs=5)  # 5 passes: a 30-node graph gives few walks
K = 15


def two_cliques(extra_edges=(), extra_nodes=()) -> GraphExport:
    """Two 15-cliques joined by one edge; node i is in clique i % 2, so the cliques interleave in row order."""
    a, b = list(range(0, 2 * K, 2)), list(range(1, 2 * K, 2))
    edges = {(min(i, j), max(i, j)) for c in (a, b) for i in c for j in c if i < j}
    edges |= {(a[-1], b[0]), *extra_edges}
    nodes = [f"http://x/n{i:02d}" for i in range(2 * K)] + list(extra_nodes)
    return GraphExport(nodes, np.array(sorted(edges), dtype=np.int64))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """The two cliques embedded once into a folder: (export, embeddings, report, folder)."""
    folder = tmp_path_factory.mktemp("align")
    export = two_cliques()
    embeddings, report = nv.embed_or_reuse(export, CONFIG, folder)
    return export, embeddings, report, folder


def test_the_shim_takes_the_numpy_aliases_back() -> None:
    pecanpy = nv.import_pecanpy()
    assert pecanpy.pecanpy.SparseOTF is not None and nv.import_pecanpy() is pecanpy
    if np.__version__ >= "2":
        assert not hasattr(np, "float_")
        assert [a for a in nv._NUMPY1_ALIASES if hasattr(np, a)] == []


def test_a_missing_pecanpy_names_the_extra_and_leaves_numpy_clean(monkeypatch) -> None:
    monkeypatch.setattr(nv, "_PECANPY", None)
    monkeypatch.setitem(sys.modules, "pecanpy", None)  # import fails as if not installed
    with pytest.raises(ImportError, match=r"\.\[align\]"):
        nv.import_pecanpy()
    if np.__version__ >= "2":
        assert not hasattr(np, "float_")


def test_embeddings_keep_row_order_and_separate_the_cliques(saved) -> None:
    export, embeddings, report, _ = saved
    assert report["mode"] == "full" and (report["nodes"], report["edges"]) == (30, 211)
    v = embeddings.vectors
    assert v.shape == (30, 16) and v.dtype == np.float32 and embeddings.nodes == export.nodes
    unit = v / np.linalg.norm(v, axis=1, keepdims=True)
    cosine = unit @ unit.T
    same = np.equal.outer(np.arange(30) % 2, np.arange(30) % 2)
    np.fill_diagonal(same, False)
    across = ~same
    np.fill_diagonal(across, False)
    assert cosine[same].mean() > cosine[across].mean() + 0.3


def test_the_same_seed_gives_the_same_vectors(saved) -> None:
    export, embeddings, _, _ = saved
    again = nv.embed_graph(export, CONFIG)
    assert again.dtype == np.float32 and np.array_equal(again, embeddings.vectors)


def test_an_empty_graph_has_no_rows() -> None:
    empty = GraphExport([], np.zeros((0, 2), np.int64))
    assert nv.embed_graph(empty, CONFIG).shape == (0, 16)


def test_save_and_load_round_trip(saved) -> None:
    export, embeddings, _, folder = saved
    loaded = nv.load_embeddings(folder)
    assert loaded is not None
    assert loaded.nodes == export.nodes and np.array_equal(loaded.vectors, embeddings.vectors)
    assert loaded.graph_digest == nv.graph_digest(export) and loaded.config == CONFIG
    assert np.array_equal(loaded.vector(export.nodes[3]), embeddings.vectors[3])
    matrix, found = loaded.lookup([export.nodes[5], "http://x/nowhere"])
    assert found.tolist() == [True, False] and np.array_equal(matrix[0], embeddings.vectors[5])
    assert not matrix[1].any()
    manifest = json.loads((folder / nv.MANIFEST).read_text())
    assert set(manifest["files"]) == {nv.VECTORS, nv.MODEL}


@pytest.mark.parametrize("name", [nv.VECTORS, nv.MODEL])
def test_a_changed_file_is_named_when_loading(saved, tmp_path, name) -> None:
    copy = tmp_path / "align"
    shutil.copytree(saved[3], copy)
    data = bytearray((copy / name).read_bytes())
    data[len(data) // 2] ^= 0xFF
    (copy / name).write_bytes(bytes(data))
    with pytest.raises(nv.EmbeddingsCorrupt, match=name):
        nv.load_embeddings(copy)


def test_no_manifest_loads_nothing_and_a_failed_save_leaves_none(saved, tmp_path) -> None:
    assert nv.load_embeddings(tmp_path) is None
    copy = tmp_path / "align"
    shutil.copytree(saved[3], copy)

    class Broken:
        def save(self, f):
            raise OSError("disk full")

    export, embeddings = saved[0], saved[1]
    with pytest.raises(OSError, match="disk full"):
        nv.save_embeddings(copy, export.nodes, embeddings.vectors, graph_digest="x", config=CONFIG, model=Broken())
    assert nv.load_embeddings(copy) is None  # the new vectors are in place, the old model is: neither loads
    assert not list(copy.glob(".*tmp"))


def test_the_digest_ignores_how_edges_are_listed() -> None:
    g = two_cliques()
    flipped = GraphExport(g.nodes, g.edges[::-1, ::-1].copy())
    assert nv.graph_digest(flipped) == nv.graph_digest(g)
    assert nv.graph_digest(two_cliques(extra_edges=[(0, 1)])) != nv.graph_digest(g)


def test_an_unchanged_graph_is_reused(saved) -> None:
    export, embeddings, _, folder = saved
    again, report = nv.embed_or_reuse(export, CONFIG.model_copy(update={"workers": 2}), folder)
    assert report["mode"] == "reused" and np.array_equal(again.vectors, embeddings.vectors)


def test_changed_nodes_are_the_added_the_rewired_and_the_neighbours_of_the_removed(saved) -> None:
    export, embeddings = saved[0], saved[1]
    nodes = export.nodes[1:] + ["http://x/z"]  # n00 removed, z added next to n01
    at = {n: i for i, n in enumerate(nodes)}
    edges = [(at[export.nodes[i]], at[export.nodes[j]]) for i, j in export.edges.tolist() if i != 0]
    edges += [(at["http://x/n01"], at["http://x/z"]), (at["http://x/n02"], at["http://x/n03"])]  # 2, 3: across
    changed, removed = nv._changed(embeddings, GraphExport(nodes, np.array(edges)))
    was_neighbour_of_n00 = {export.nodes[j] for i, j in export.edges.tolist() if i == 0}
    expected = was_neighbour_of_n00 | {"http://x/z", "http://x/n01", "http://x/n02", "http://x/n03"}
    assert removed == 1 and {nodes[i] for i in np.flatnonzero(changed)} == expected


def test_a_small_change_updates_incrementally(saved, tmp_path) -> None:
    _, embeddings, _, folder = saved
    copy = tmp_path / "align"
    shutil.copytree(folder, copy)
    grown = two_cliques(extra_edges=[(0, 3), (29, 30)], extra_nodes=["http://x/z"])  # z joins n29
    updated, report = nv.embed_or_reuse(grown, CONFIG, copy)
    assert report["mode"] == "incremental" and report["changed_nodes"] == 4  # n00, n03, n29, z
    assert 4 <= report["walk_starts"] <= 31
    assert updated.vectors.shape == (31, 16) and updated.nodes == grown.nodes
    loaded = nv.load_embeddings(copy)
    assert loaded is not None and loaded.graph_digest == nv.graph_digest(grown)
    assert np.array_equal(loaded.vectors, updated.vectors)
    assert not np.array_equal(updated.vectors[:30], embeddings.vectors)  # training went on
    _, report = nv.embed_or_reuse(grown, CONFIG, copy)
    assert report["mode"] == "reused"


def test_a_mostly_new_graph_or_a_new_configuration_is_recomputed(saved, tmp_path, monkeypatch) -> None:
    calls = []

    def fake_training(export, config, *, progress=False):  # the choice is under test, not the training
        calls.append(len(export.nodes))
        return np.zeros((len(export.nodes), config.dim), np.float32), None

    monkeypatch.setattr(nv, "train_embeddings", fake_training)
    copy = tmp_path / "align"
    shutil.copytree(saved[3], copy)
    other = GraphExport([f"http://y/{i}" for i in range(10)], np.array([(i, i + 1) for i in range(9)]))
    _, report = nv.embed_or_reuse(other, CONFIG, copy)
    assert report["mode"] == "full" and report["changed_nodes"] == 40 and calls == [10]
    _, report = nv.embed_or_reuse(other, CONFIG.model_copy(update={"dim": 8}), copy)
    assert report["mode"] == "full" and "configuration" in report["reason"] and calls == [10, 10]


@pytest.mark.ray
def test_a_ray_task_writes_the_same_embeddings(saved, tmp_path) -> None:
    export, embeddings, _, folder = saved
    result, report = nv.run_node2vec(export, CONFIG, tmp_path, use_ray=True)
    assert report["mode"] == "full"
    assert result.nodes == export.nodes and np.array_equal(result.vectors, embeddings.vectors)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in folder.iterdir())
