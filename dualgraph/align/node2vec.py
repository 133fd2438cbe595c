"""Node2vec embeddings of the SKG export (pecanpy walks, gensim skip-gram), kept in a folder and updated.

The aligner needs, for each SKG node, a vector that says where the node sits in the graph: which
products share which specs and values. Label text cannot say that; node2vec learns it from biased
random walks (``p``: return, ``q``: in-out), and pecanpy's ``SparseOTF`` computes the walk's
second-order probabilities on the fly from a CSR matrix, so memory stays linear in the edges.

pecanpy 2.0.9 imports nptyping 2.0.1, which reads numpy aliases that numpy 2 removed (``np.float_``,
``np.bool8``, ...) while it is imported. :func:`import_pecanpy` lends numpy those aliases for that
import only and takes them back: other libraries test ``hasattr(np, "float_")`` to tell numpy 1.

:func:`embed_or_reuse` keeps the result in a folder with a manifest. An unchanged graph is not
embedded again; when few nodes changed, training continues on walks around them; else all is redone.

>>> e = Node2VecEmbeddings(["http://x/a"], np.ones((1, 2), np.float32), "digest", Node2VecConfig(dim=2))
>>> m, found = e.lookup(["http://x/a", "http://x/z"])
>>> m.tolist(), found.tolist()
([[1.0, 1.0], [0.0, 0.0]], [True, False])
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from dualgraph.align.graph_export import GraphExport

MANIFEST, VECTORS, MODEL = "node2vec.json", "node2vec.npz", "node2vec.model"
FORMAT = 1
_INSTALL = "pip install -e '.[align]'"


class Node2VecConfig(BaseModel):
    """How the SKG's nodes are embedded (node2vec walks, then skip-gram over them)."""

    model_config = ConfigDict(extra="forbid")

    dim: int = Field(64, ge=1, description="Length of each node's vector.")
    walks_per_node: int = Field(10, ge=1, description="Random walks started from every node.")
    walk_length: int = Field(20, ge=1, description="Steps of one walk (it visits walk_length + 1 nodes).")
    window: int = Field(5, ge=1, description="Skip-gram context: nodes this many steps apart in a walk are paired.")
    p: float = Field(1.0, gt=0, description="Return parameter: below 1 a walk steps back to where it came from more.")
    q: float = Field(
        1.0, gt=0, description="In-out parameter: below 1 walks move outward (DFS-like), above 1 stay near."
    )
    epochs: int = Field(1, ge=1, description="Skip-gram passes over the walks.")
    workers: int = Field(
        1, ge=1, description="Threads for walks and skip-gram; only 1 gives the same vectors for the same seed."
    )
    seed: int = Field(0, ge=0, description="Seed of the walks and of the skip-gram's initial vectors.")
    incremental_max_fraction: float = Field(
        0.2,
        ge=0,
        le=1,
        description="The largest fraction of changed nodes (added, removed or with other neighbours, relative to "
        "the new graph) for which an update continues training on walks around them instead of redoing all.",
    )


def _space(config: Node2VecConfig) -> dict[str, Any]:
    """The settings that decide the embedding; threads and the update policy only decide how it is reached."""
    return config.model_dump(exclude={"workers", "incremental_max_fraction"})


# numpy 2 removed these (alias -> its numpy 2 name); nptyping 2.0.1 reads each one at import time
_NUMPY1_ALIASES = {
    "bool8": "bool_", "object0": "object_", "int0": "intp", "uint0": "uintp", "float_": "float64",
    "longfloat": "longdouble", "complex_": "complex128", "singlecomplex": "csingle", "cfloat": "cdouble",
    "longcomplex": "clongdouble", "clongfloat": "clongdouble", "void0": "void", "string_": "bytes_",
    "bytes0": "bytes_", "unicode_": "str_", "str0": "str_",
}  # fmt: skip
_IMPORT_LOCK = threading.Lock()
_PECANPY: ModuleType | None = None


def import_pecanpy() -> ModuleType:
    """The ``pecanpy`` package, imported once with numpy 1's aliases lent for the import and taken back after.

    The rest of the stack is on numpy 2, and the extra pins nptyping 2.0.1 because pip would otherwise
    take a release that downgrades numpy. Another thread may see the aliases during the import.
    """
    global _PECANPY
    with _IMPORT_LOCK:
        if _PECANPY is None:
            lent = [name for name in _NUMPY1_ALIASES if not hasattr(np, name)]
            for name in lent:
                setattr(np, name, getattr(np, _NUMPY1_ALIASES[name]))
            try:
                import pecanpy.pecanpy
            except ModuleNotFoundError as e:
                raise ImportError(f"node2vec needs pecanpy and gensim ({e.name} is not installed): {_INSTALL}") from e
            finally:
                for name in lent:
                    delattr(np, name)
            _PECANPY = pecanpy
    return _PECANPY


def _stable_hash(text: str) -> int:
    """gensim's ``hashfxn``: Python's ``hash`` of a string changes with PYTHONHASHSEED, this does not."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _csr(export: GraphExport) -> Any:
    """The symmetric adjacency matrix, neighbours sorted (pecanpy merges sorted lists), each edge once."""
    from scipy.sparse import coo_matrix

    n = len(export.nodes)
    e = np.asarray(export.edges, dtype=np.int64).reshape(-1, 2)
    rows, cols = np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]])
    adj = coo_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(n, n)).tocsr()
    adj.sort_indices()
    adj.data[:] = 1  # a pair listed twice is still one unweighted edge
    return adj


def _walk_graph(export: GraphExport, config: Node2VecConfig, adj: Any, *, progress: bool) -> Any:
    pecanpy = import_pecanpy()
    g = pecanpy.pecanpy.SparseOTF(
        p=config.p, q=config.q, workers=config.workers, verbose=progress, random_state=config.seed
    )
    g.indptr, g.indices = adj.indptr.astype(np.uint32), adj.indices.astype(np.uint32)
    g.data = adj.data.astype(np.float32)
    # node ids are the IRIs, not row numbers: the skip-gram vocabulary must outlive row numbers (they
    # shift when a node is added) for incremental updates, and the strings are the export's own, not copies
    g.set_node_ids(export.nodes)
    return g


@contextmanager
def _walk_threads(workers: int) -> Iterator[None]:
    """Numba's thread count for the walks (the walk RNG is seeded per thread: one thread, one order),
    and numpy's global generator restored afterwards (pecanpy reseeds it)."""
    import numba

    before, state = numba.get_num_threads(), np.random.get_state()
    numba.set_num_threads(min(workers, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]  # set at run time
    try:
        yield
    finally:
        numba.set_num_threads(before)
        np.random.set_state(state)


def _walks_from(g: Any, starts: np.ndarray, config: Node2VecConfig, *, progress: bool) -> list[list[str]]:
    """``walks_per_node`` walks from each of ``starts`` only: pecanpy 2.0.9 (pinned) walks from every node,
    so its walk kernel is called here directly."""
    from numba_progress import ProgressBar

    g._preprocess_transition_probs()
    begin = np.tile(starts.astype(np.uint32), config.walks_per_node)
    np.random.default_rng(config.seed).shuffle(begin)  # long and short walks spread over the threads
    with ProgressBar(total=begin.size, disable=not progress) as bar:
        steps = g._random_walks(
            begin.size, config.walk_length, config.seed, begin, g.get_has_nbrs(), g.get_move_forward(), bar
        )
    return [g._map_walk(row) for row in steps]


def _rows(model: Any, nodes: Sequence[str]) -> np.ndarray:
    at = model.wv.key_to_index
    return np.asarray(model.wv.vectors[[at[n] for n in nodes]], dtype=np.float32).reshape(len(nodes), -1)


def train_embeddings(export: GraphExport, config: Node2VecConfig, *, progress: bool = False) -> tuple[np.ndarray, Any]:
    """The node vectors (row i: ``export.nodes[i]``) and the trained gensim ``Word2Vec`` (None for an empty graph)."""
    if not export.nodes:
        return np.zeros((0, config.dim), np.float32), None
    g = _walk_graph(export, config, _csr(export), progress=progress)
    with _walk_threads(config.workers):
        walks = g.simulate_walks(config.walks_per_node, config.walk_length)
    from gensim.models import Word2Vec

    model = Word2Vec(
        walks, vector_size=config.dim, window=config.window, sg=1, min_count=0, workers=config.workers,
        epochs=config.epochs, seed=config.seed, hashfxn=_stable_hash,
    )  # fmt: skip
    return _rows(model, export.nodes), model


def embed_graph(export: GraphExport, config: Node2VecConfig) -> np.ndarray:
    """Node2vec vectors of the export's nodes: float32 (n_nodes, dim), row i for ``export.nodes[i]``."""
    return train_embeddings(export, config)[0]


def graph_digest(export: GraphExport) -> str:
    """A sha256 of the nodes and the (undirected, deduplicated) edges; the order edges are listed in does not count."""
    h = hashlib.sha256(len(export.nodes).to_bytes(8, "little"))
    for iri in export.nodes:
        raw = iri.encode()
        h.update(len(raw).to_bytes(8, "little") + raw)
    edges = np.unique(np.sort(np.asarray(export.edges, dtype=np.int64).reshape(-1, 2), axis=1), axis=0)
    h.update(edges.astype("<i8").tobytes())
    return h.hexdigest()


class EmbeddingsCorrupt(ValueError):
    """A saved embedding folder whose files do not match its manifest."""


@dataclass(eq=False)  # arrays do not compare to one truth value
class Node2VecEmbeddings:
    """Saved node vectors: row i of ``vectors`` belongs to ``nodes[i]``."""

    nodes: list[str]
    vectors: np.ndarray
    graph_digest: str
    config: Node2VecConfig
    edges: np.ndarray | None = field(default=None, repr=False)
    """The graph's edges when saved with them (an incremental update compares neighbour sets)."""

    @cached_property
    def _index(self) -> dict[str, int]:
        return {iri: i for i, iri in enumerate(self.nodes)}

    def vector(self, iri: str) -> np.ndarray:
        """The node's vector; KeyError when the node was not embedded (e.g. outside the exported component)."""
        if iri not in self._index:
            raise KeyError(f"no node2vec vector for {iri}")
        return self.vectors[self._index[iri]]

    def lookup(self, iris: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """A (len(iris), dim) matrix of the nodes' vectors (zeros for unknown ones) and which were found."""
        rows = np.fromiter((self._index.get(i, -1) for i in iris), dtype=np.int64, count=len(iris))
        found = rows >= 0
        matrix = np.zeros((len(iris), self.vectors.shape[1]), np.float32)
        matrix[found] = self.vectors[rows[found]]
        return matrix, found


def _sha256(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _write(path: Path, fill: Callable[[IO[bytes]], object]) -> str:
    """Write through a temporary name and move it into place; the sha256 of what was written."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("wb") as f:
            fill(f)
            f.flush()
            os.fsync(f.fileno())
        digest = _sha256(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return digest


def save_embeddings(
    directory: str | Path,
    nodes: Sequence[str],
    vectors: np.ndarray,
    *,
    graph_digest: str,
    config: Node2VecConfig,
    model: Any = None,
    edges: np.ndarray | None = None,
) -> Path:
    """Save vectors (and the gensim model, the edges, for later incremental updates); the manifest's path."""
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.shape != (len(nodes), config.dim):
        raise ValueError(f"vectors are {vectors.shape}, expected ({len(nodes)}, {config.dim})")
    if any("\n" in n for n in nodes):
        raise ValueError("a node name holds a line break: nodes are saved one a line")
    names = np.frombuffer("\n".join(nodes).encode(), dtype=np.uint8)
    arrays: dict[str, Any] = {"nodes": names, "vectors": vectors}
    if edges is not None:
        arrays["edges"] = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    # no manifest, nothing loads: a crash from here on leaves the folder empty-handed, never a mix of two saves
    (folder / MANIFEST).unlink(missing_ok=True)
    files = {VECTORS: _write(folder / VECTORS, lambda f: np.savez(f, **arrays))}
    if model is not None:
        files[MODEL] = _write(folder / MODEL, model.save)  # one pickle: a path would split big arrays off
    else:
        (folder / MODEL).unlink(missing_ok=True)
    manifest = {
        "format": FORMAT,
        "graph_digest": graph_digest,
        "nodes": len(nodes),
        "config": config.model_dump(),
        "files": files,
    }
    _write(folder / MANIFEST, lambda f: f.write(json.dumps(manifest, indent=2).encode()))
    return folder / MANIFEST


def load_embeddings(directory: str | Path) -> Node2VecEmbeddings | None:
    """The saved embeddings; None without a manifest; :class:`EmbeddingsCorrupt` when a file does not match it."""
    folder = Path(directory)
    manifest_path = folder / MANIFEST
    if not manifest_path.exists():
        return None
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise EmbeddingsCorrupt(f"{manifest_path} is not JSON: {e}") from e
    if manifest.get("format") != FORMAT:
        raise EmbeddingsCorrupt(f"{manifest_path}: format {manifest.get('format')!r}, this version reads {FORMAT}")
    for name, expected in manifest["files"].items():
        path = folder / name
        if not path.exists():
            raise EmbeddingsCorrupt(f"{path} is missing (listed in {manifest_path})")
        if _sha256(path) != expected:
            raise EmbeddingsCorrupt(f"{path} does not match its sha256 in {manifest_path}: changed or partly written")
    with np.load(folder / VECTORS, allow_pickle=False) as saved:
        text = saved["nodes"].tobytes().decode()
        vectors, edges = saved["vectors"], saved.get("edges")
    nodes = text.split("\n") if text else []
    config = Node2VecConfig.model_validate(manifest["config"])
    return Node2VecEmbeddings(nodes, vectors, manifest["graph_digest"], config, edges)


def _changed(old: Node2VecEmbeddings, export: GraphExport) -> tuple[np.ndarray, int]:
    """Which new nodes are added or have other neighbours than before (a mask), and how many old ones went."""
    assert old.edges is not None
    n = len(export.nodes)
    at = {iri: i for i, iri in enumerate(export.nodes)}
    moved = np.fromiter((at.get(iri, -1) for iri in old.nodes), dtype=np.int64, count=len(old.nodes))
    changed = np.ones(n, dtype=bool)
    changed[moved[moved >= 0]] = False  # nodes in both graphs; the rest are new
    ends = moved[old.edges] if len(old.edges) else np.zeros((0, 2), np.int64)
    lost = (ends < 0).any(axis=1)
    survivors = ends[lost].ravel()
    changed[survivors[survivors >= 0]] = True  # a neighbour was removed
    before = np.sort(ends[~lost], axis=1)
    after = np.sort(np.asarray(export.edges, dtype=np.int64).reshape(-1, 2), axis=1)
    flipped = np.setxor1d(before[:, 0] * n + before[:, 1], after[:, 0] * n + after[:, 1])
    changed[flipped // n] = changed[flipped % n] = True  # an edge added or removed between kept nodes
    return changed, int((moved < 0).sum())


def _incremental(
    old_model: Any, export: GraphExport, config: Node2VecConfig, changed: np.ndarray, *, progress: bool
) -> tuple[np.ndarray, int]:
    """Continue training on walks from the changed nodes and their neighbours; vectors of all nodes.

    All rows come from the updated model: a node no new walk reaches keeps its vector exactly (skip-gram
    only moves the input vectors of the words it sees), and one that is reached moved with its neighbours,
    so mixing in its old row would put it out of step with them.
    """
    adj = _csr(export)
    seeds = np.flatnonzero(changed)
    starts = np.union1d(seeds, adj[seeds].indices) if len(seeds) else seeds
    if len(starts):
        g = _walk_graph(export, config, adj, progress=progress)
        with _walk_threads(config.workers):
            walks = _walks_from(g, starts, config, progress=progress)
        old_model.workers = config.workers
        old_model.build_vocab(walks, update=True)
        old_model.train(walks, total_examples=len(walks), epochs=old_model.epochs)
    return _rows(old_model, export.nodes), len(starts)


def embed_or_reuse(
    export: GraphExport, config: Node2VecConfig, directory: str | Path, *, progress: bool = False
) -> tuple[Node2VecEmbeddings, dict[str, Any]]:
    """The export's embeddings, saved in ``directory``: reused, updated or recomputed; and a report of which."""
    started = time.perf_counter()
    folder, digest = Path(directory), graph_digest(export)
    report: dict[str, Any] = {"nodes": len(export.nodes), "edges": len(export.edges)}
    try:
        old = load_embeddings(folder)
    except EmbeddingsCorrupt as e:
        old, report["discarded"] = None, str(e)
    if old is not None and old.graph_digest == digest and _space(old.config) == _space(config):
        report.update(mode="reused", seconds=round(time.perf_counter() - started, 3))
        return old, report

    vectors, model, reason = None, None, "no saved embeddings"
    if old is not None and _space(old.config) != _space(config):
        reason = "the configuration changed"
    elif old is not None and (old.edges is None or not (folder / MODEL).exists()):
        reason = "no saved model to continue"
    elif old is not None:
        changed, removed = _changed(old, export)
        k = int(changed.sum()) + removed
        report["changed_nodes"] = k
        reason = f"{k} changed nodes > {config.incremental_max_fraction:.0%} of {len(export.nodes)}"
        if k <= config.incremental_max_fraction * len(export.nodes):
            from gensim.models import Word2Vec

            model = Word2Vec.load(str(folder / MODEL))
            try:
                vectors, starts = _incremental(model, export, config, changed, progress=progress)
                report.update(mode="incremental", walk_starts=starts)
            except KeyError:  # a node the saved vocabulary lacks (it was saved from another graph)
                vectors, model, reason = None, None, "a node missing from the saved model"
    if vectors is None:
        vectors, model = train_embeddings(export, config, progress=progress)
        report.update(mode="full", reason=reason)
    save_embeddings(folder, export.nodes, vectors, graph_digest=digest, config=config, model=model, edges=export.edges)
    report["seconds"] = round(time.perf_counter() - started, 3)
    edges = np.asarray(export.edges, dtype=np.int64).reshape(-1, 2)
    return Node2VecEmbeddings(list(export.nodes), vectors, digest, config, edges), report


def _embed_task(export: GraphExport, config: Node2VecConfig, directory: str) -> dict[str, Any]:
    return embed_or_reuse(export, config, directory)[1]  # the vectors travel through the folder, not Ray


def run_node2vec(
    export: GraphExport, config: Node2VecConfig, directory: str | Path, *, use_ray: bool = False, progress: bool = False
) -> tuple[Node2VecEmbeddings, dict[str, Any]]:
    """:func:`embed_or_reuse`, inline or as one Ray task of ``config.workers`` CPUs (the folder must be
    reachable from the worker: local Ray or shared storage); a Ray started here is stopped after.
    ``progress``: the walks' bar (inline only: a Ray worker's output is not this terminal)."""
    if not use_ray:
        return embed_or_reuse(export, config, directory, progress=progress)
    import ray

    from dualgraph.pipeline.ray_logging import init_ray
    from dualgraph.pipeline.ray_session import ray_session

    with ray_session():
        init_ray()
        cpus = min(config.workers, int(ray.cluster_resources().get("CPU", 1)))  # more would wait forever
        task = ray.remote(num_cpus=cpus)(_embed_task)
        report = ray.get(task.remote(export, config, str(directory)))
    embeddings = load_embeddings(directory)
    if embeddings is None:
        raise RuntimeError(f"the node2vec task reported {report} but left no embeddings in {directory}")
    return embeddings, report
