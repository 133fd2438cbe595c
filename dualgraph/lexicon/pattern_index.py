"""The :class:`PatternIndex`: patterns searchable by meaning and by exact names, saved and loaded
as one folder whose manifest guards against a mix of builds, and :func:`build_pattern_index`,
which collects, indexes and saves in one go.

The dense (FAISS, over each pattern's sentence) and lexical (BM25, over its names) rankings are
fused by reciprocal rank: a paraphrase is found by meaning, an exact entry or value name by name.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from dualgraph.lexicon.holders import HOLDERS_FILE, EntryHolders
from dualgraph.lexicon.pattern import KINDS, Pattern
from dualgraph.lexicon.pattern_collection import collect_patterns
from dualgraph.lexicon.value_names import VALUE_NAMES_FILE, ValueNames
from dualgraph.models.base import Embedder
from dualgraph.skg.spec_table import SpecTables, holder_rows, value_name_rows
from dualgraph.stores.base import SparqlStore
from dualgraph.stores.faiss_index import FaissIndex
from dualgraph.stores.vector import IndexMismatchError, id_ranks, top_columns
from dualgraph.tkg.lexical import LexicalIndex

__all__ = ["IndexMismatchError", "PatternIndex", "build_pattern_index"]

RRF_K = 60
"""The reciprocal rank fusion constant (Cormack et al.)."""
FORMAT = 1
PATTERNS_FILE = "patterns.jsonl"
MANIFEST_FILE = "manifest.json"
DENSE_DIR = "dense"
LEXICAL_DIR = "lexical"


def read_patterns(src: str | Path) -> list[Pattern]:
    """The patterns a saved pattern index lists, without its vectors (no embedder needed)."""
    with open(Path(src) / PATTERNS_FILE, encoding="utf-8") as f:
        return [Pattern.from_dict(json.loads(line)) for line in f if line.strip()]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class PatternIndex:
    """Patterns searchable by meaning (FAISS over ``text``) and by exact names (BM25 over
    :attr:`Pattern.lexical_text`), fused by reciprocal rank.

    >>> import numpy as np
    >>> class Toy:  # a two-word toy embedder, for this example only
    ...     name, dim = "toy", 2
    ...     def embed(self, texts, *, stage="default"):
    ...         rows = np.array([[t.count("battery") + 0.1, t.count("screen") + 0.1] for t in texts], "float32")
    ...         return rows / np.linalg.norm(rows, axis=1, keepdims=True)
    >>> pats = [Pattern("a", "spec_numeric", "battery capacity mAh", "", section="Battery", unit="mAh"),
    ...         Pattern("b", "spec_value", "screen type", "", section="Display", entry="Type")]
    >>> index = PatternIndex.build(pats, Toy())
    >>> [[p.pattern_id for p, _ in hits] for hits in index.search(["battery mAh", "display screen"], k=1)]
    [['a'], ['b']]
    >>> index.search(["battery"], k=2, kinds=["spec_value"])[0][0][0].pattern_id
    'b'
    """

    def __init__(self, patterns: list[Pattern], embedder: Embedder, dense: FaissIndex, lexical: LexicalIndex) -> None:
        self.patterns = list(patterns)
        self.embedder = embedder
        self._by_id = {p.pattern_id: p for p in self.patterns}
        if len(self._by_id) != len(self.patterns):
            raise ValueError("pattern ids must be unique")
        self._dense = dense
        self._lexical = lexical
        # which products hold each entry (lexicon.holders), when the index was built from spec tables
        self.holders: EntryHolders | None = None
        self.value_names: ValueNames | None = None
        # a batch's texts scored against every pattern in one pass (prefetch): text -> (dense, lexical)
        self._scored: dict[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]] = {}
        # the tables _fuse_scores reads, set once by _columns (under the lock: batch threads search at once)
        self._columns_lock = threading.Lock()
        self._dense_ids: list[str] = []  # the dense index's column order (set last: the tables are ready)
        empty = np.zeros(0, dtype=np.int64)
        self._dense_ranks = self._lexical_ranks = self._pattern_ranks = empty  # ids' sorted places
        self._dense_at = self._lexical_at = empty  # column -> place in self.patterns
        self._kind_of = np.zeros(0, dtype=object)

    @classmethod
    def build(
        cls,
        patterns: list[Pattern],
        embedder: Embedder,
        *,
        gpu: bool | str = False,
        progress: bool = False,
        batch_size: int = 1024,
    ) -> PatternIndex:
        """Embed every pattern's text and index its names."""
        from dualgraph.progress import progress_bar

        ids = [p.pattern_id for p in patterns]
        dense = FaissIndex(embedder.dim, gpu=gpu)
        with progress_bar("embed patterns", total=len(patterns), unit="text", enabled=progress) as bar:
            for start in range(0, len(patterns), batch_size):
                part = patterns[start : start + batch_size]
                dense.add(ids[start : start + batch_size], embedder.embed([p.text for p in part], stage="patterns"))
                bar.update(len(part))
        lexical = LexicalIndex.build(ids, [p.lexical_text for p in patterns])
        return cls(patterns, embedder, dense, lexical)

    def __len__(self) -> int:
        return len(self.patterns)

    def get(self, pattern_id: str) -> Pattern:
        return self._by_id[pattern_id]

    def search(
        self,
        texts: list[str],
        *,
        k: int = 10,
        kinds: list[str] | tuple[str, ...] | None = None,
        depth: int | None = None,
    ) -> list[list[tuple[Pattern, float]]]:
        """Top-``k`` patterns per text, by reciprocal rank fusion of the dense and lexical rankings.

        ``kinds`` keeps only patterns of those kinds (filtered before the cut, so ``k``
        of them come back when there are that many). ``depth``: how deep each ranking
        is read before fusing (default ``max(5k, 50)``, grown when a filter needs more).
        Scores are RRF sums, ``1/(60+rank)`` per ranking a pattern appears in.
        """
        if not texts:
            return []
        if k <= 0 or not self.patterns:
            return [[] for _ in texts]
        wanted = set(kinds) if kinds is not None else None
        if wanted is not None and not wanted <= set(KINDS):
            raise ValueError(f"unknown kinds {sorted(wanted - set(KINDS))}; known: {KINDS}")
        texts = list(texts)
        scored = self._scores([t for t in dict.fromkeys(texts) if t not in self._scored])
        n = len(self.patterns)
        depth = min(n, depth or max(5 * k, 50))
        out: list[list[tuple[Pattern, float]]] = []
        for text in texts:
            query, dense_scores, lexical_scores = self._scored.get(text) or scored[text]
            d = depth
            while True:
                # both rankings are cuts of the text's scores (an approximate index is searched again)
                if dense_scores is not None:
                    fused = self._fuse_scores(dense_scores, lexical_scores, d, wanted)
                else:
                    dense = self._dense.search(query[None, :], k=d)[0]
                    fused = self._fuse(dense, self._lexical._top(lexical_scores, d), wanted)
                if len(fused) >= k or d >= n:
                    break
                d = min(n, 4 * d)
            out.append(fused[:k])
        return out

    def prefetch(self, texts: list[str]) -> int:
        """Score a batch's texts against every pattern in one pass (one matrix product over a flat
        dense index, the BM25 scores of each text), so this batch's :meth:`search` calls for them
        cut their rankings from memory; the last batch's scores are let go. Returns the texts scored.

        >>> class Toy:
        ...     dim = 2
        ...     def embed(self, texts, *, stage="default"):
        ...         return np.array([[t.count("a") + 0.1, t.count("b") + 0.1] for t in texts], "float32")
        >>> pats = [Pattern("x", "spec_value", "aa", "", section="S", entry="aa"),
        ...         Pattern("y", "spec_value", "bb", "", section="S", entry="bb")]
        >>> index = PatternIndex.build(pats, Toy())
        >>> index.prefetch(["a", "b", "a"]), index.search(["b"], k=1)[0][0][0].pattern_id
        (2, 'y')
        """
        self._scored.clear()
        wanted = [t for t in dict.fromkeys(texts) if t.strip()]
        self._scored.update(self._scores(wanted))
        return len(wanted)

    def _scores(self, texts: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray | None, np.ndarray]]:
        """Per text: its query vector, its dense score against every pattern (in ``self._dense_ids``
        order; None for an approximate index, searched per depth instead) and its BM25 scores."""
        if not texts:
            return {}
        queries = np.asarray(self.embedder.embed(texts, stage="query"), dtype=np.float32)
        dense = self._dense.scores(queries)
        if dense is not None:
            matrix, ids = dense
            if ids != self._dense_ids:  # once: the patterns never change
                self._columns(ids)
        return {
            t: (queries[i], matrix[i] if dense is not None else None, self._lexical.scores(t))
            for i, t in enumerate(texts)
        }

    def _columns(self, ids: list[str]) -> None:
        """The tables that fuse rankings in numpy, for the dense index's columns ``ids``: each column's
        pattern, every id's sorted place (the tie-breaks), each pattern's kind."""
        with self._columns_lock:
            if ids == self._dense_ids:
                return
            where = {p.pattern_id: i for i, p in enumerate(self.patterns)}
            lexical_ids = self._lexical.ids()
            self._dense_at = np.array([where[i] for i in ids], dtype=np.int64)
            self._lexical_at = np.array([where[i] for i in lexical_ids], dtype=np.int64)
            self._dense_ranks, self._lexical_ranks = id_ranks(ids), id_ranks(lexical_ids)
            self._pattern_ranks = id_ranks([p.pattern_id for p in self.patterns])
            self._kind_of = np.array([p.kind for p in self.patterns])
            self._dense_ids = ids  # last: a search that sees these columns finds their tables

    def _fuse_scores(
        self, dense: np.ndarray, lexical: np.ndarray, depth: int, wanted: set[str] | None
    ) -> list[tuple[Pattern, float]]:
        """:meth:`_fuse` of the two rankings cut at ``depth`` from a text's scores, in numpy: the same
        patterns, ranks and sums (the float additions in the same order), without a tuple per hit."""
        fused = np.zeros(len(self.patterns), dtype=np.float64)
        cuts = (
            self._dense_at[top_columns(dense, depth, ranks=self._dense_ranks)],
            self._lexical_at[top_columns(lexical, depth, ranks=self._lexical_ranks, positive=True)],
        )
        for ranked in cuts:
            if wanted is not None:
                ranked = ranked[np.isin(self._kind_of[ranked], list(wanted))]
            fused[ranked] += 1.0 / (RRF_K + np.arange(1, ranked.size + 1, dtype=np.float64))
        hit = np.flatnonzero(fused)
        hit = hit[np.lexsort((self._pattern_ranks[hit], -fused[hit]))]
        return [(self.patterns[i], float(fused[i])) for i in hit]

    def _fuse(self, dense, lexical, wanted) -> list[tuple[Pattern, float]]:
        scores: dict[str, float] = {}
        for ranking in (dense, lexical):
            rank = 0
            for pid, _ in ranking:
                if wanted is not None and self._by_id[pid].kind not in wanted:
                    continue
                rank += 1
                scores[pid] = scores.get(pid, 0.0) + 1.0 / (RRF_K + rank)
        return [(self._by_id[pid], s) for pid, s in sorted(scores.items(), key=lambda x: (-x[1], x[0]))]

    # -- persistence ----------------------------------------------------------------------

    def save(self, directory: str | os.PathLike) -> None:
        """Write patterns, both indexes and a manifest (with their hashes) into ``directory``.

        Everything goes to a fresh sibling folder first, which then replaces
        ``directory`` by renames: a crash leaves the old index, or a folder without a
        manifest that :meth:`load` refuses, never a mix of two builds that loads.
        """
        out = Path(directory)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        with open(tmp / PATTERNS_FILE, "w", encoding="utf-8") as f:
            for p in self.patterns:
                f.write(json.dumps(p.to_dict(), ensure_ascii=False, sort_keys=True) + "\n")
        self._dense.save(tmp / DENSE_DIR)
        self._lexical.save(tmp / LEXICAL_DIR)
        if self.holders is not None:
            self.holders.write(tmp / HOLDERS_FILE)
        if self.value_names is not None:
            self.value_names.write(tmp / VALUE_NAMES_FILE)
        manifest = {
            "format": FORMAT,
            "embedder": getattr(self.embedder, "name", None),
            "dim": int(self.embedder.dim),
            "patterns": len(self.patterns),
            "counts": _counts(self.patterns),
            "files": {rel: _sha256(tmp / rel) for rel in _hashed_files(tmp)},
        }
        mtmp = tmp / f".{MANIFEST_FILE}.tmp"
        with open(mtmp, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(mtmp, tmp / MANIFEST_FILE)
        old = out.with_name(f".{out.name}.{os.getpid()}.old")
        shutil.rmtree(old, ignore_errors=True)
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
        shutil.rmtree(old, ignore_errors=True)

    @classmethod
    def load(cls, directory: str | os.PathLike, embedder: Embedder, *, gpu: bool | str = False) -> PatternIndex:
        """Read an index written by :meth:`save`, for searching with ``embedder``.

        Raises :class:`IndexMismatchError` when the manifest is missing, a file differs
        from the one saved, the pattern ids of the three parts disagree, or ``embedder``
        is not the one the patterns were embedded with.
        """
        src = Path(directory)
        manifest_path = src / MANIFEST_FILE
        if not manifest_path.is_file():
            raise IndexMismatchError(f"{manifest_path} is missing: no complete pattern index in {src}")
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            raise IndexMismatchError(f"{src} holds pattern index format {manifest.get('format')}, expected {FORMAT}")
        files = manifest.get("files", {})
        present = set(_hashed_files(src))
        if present != set(files):
            raise IndexMismatchError(f"{src}: files {sorted(present ^ set(files))} differ from the manifest's list")
        for rel, digest in files.items():
            if _sha256(src / rel) != digest:
                raise IndexMismatchError(f"{src / rel} is not the file the manifest was saved with")
        if int(embedder.dim) != manifest["dim"] or getattr(embedder, "name", None) != manifest["embedder"]:
            raise IndexMismatchError(
                f"{src} was embedded with {manifest['embedder']!r} (dim {manifest['dim']}), "
                f"not {getattr(embedder, 'name', None)!r} (dim {embedder.dim})"
            )
        patterns = read_patterns(src)
        dense = FaissIndex.load(src / DENSE_DIR, gpu=gpu)
        lexical = LexicalIndex.load(src / LEXICAL_DIR)
        ids = [p.pattern_id for p in patterns]
        if len(ids) != manifest["patterns"] or set(ids) != set(dense.ids()) or ids != lexical.ids():
            raise IndexMismatchError(f"{src}: patterns, dense and lexical indexes hold different pattern ids")
        index = cls(patterns, embedder, dense, lexical)
        if (src / HOLDERS_FILE).is_file():
            index.holders = EntryHolders.read(src / HOLDERS_FILE)
        if (src / VALUE_NAMES_FILE).is_file():
            index.value_names = ValueNames.read(src / VALUE_NAMES_FILE)
        return index


def _hashed_files(root: Path) -> list[str]:
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and p.name != MANIFEST_FILE and not p.name.startswith(".")
    )


def _counts(patterns: list[Pattern]) -> dict[str, int]:
    counts = dict.fromkeys(KINDS, 0)
    for p in patterns:
        counts[p.kind] += 1
    return counts


def build_pattern_index(
    store: SparqlStore,
    embedder: Embedder,
    out_dir: str | os.PathLike,
    *,
    progress: bool = False,
    specs: SpecTables | None = None,
) -> dict[str, Any]:
    """Collect the patterns of ``store``, index them with ``embedder`` and save to ``out_dir``.

    ``specs``: the converter's spec tables (:mod:`dualgraph.skg.spec_table`), which spare the
    store five passes over every spec. Returns ``{"patterns": n, "counts": {kind: n}, "seconds":
    {"collect", "index", "save", "total"}}``.
    """
    t0 = time.perf_counter()
    patterns = collect_patterns(store, progress=progress, specs=specs)
    from dualgraph.align.output import annotate, read_alignments

    # the pairs an earlier `dualgraph align` accepted stay aliases of the rebuilt patterns
    if pairs := read_alignments(Path(out_dir).parent / "align"):
        patterns, _ = annotate(patterns, pairs)
    t1 = time.perf_counter()
    index = PatternIndex.build(patterns, embedder, progress=progress)
    held = holder_rows(specs) if specs is not None else None
    if held is not None:
        index.holders = EntryHolders(held)
    if specs is not None:
        index.value_names = ValueNames(value_name_rows(specs))
    t2 = time.perf_counter()
    index.save(out_dir)
    t3 = time.perf_counter()
    return {
        "patterns": len(patterns),
        "counts": _counts(patterns),
        "seconds": {
            "collect": round(t1 - t0, 3),
            "index": round(t2 - t1, 3),
            "save": round(t3 - t2, 3),
            "total": round(t3 - t0, 3),
        },
    }
