"""A persistent response cache for models: re-indexing unchanged text costs nothing.

One SQLite file in WAL mode (several processes may read and write it at once; writers
wait on a busy timeout). Where the file cannot be written (an index on a read-only
directory or mount) it is read as it is and nothing new is stored. Every entry is keyed by ``(model name, prompt version,
sha256 of the exact input)``: changing the model or bumping a prompt's version misses,
and nothing is ever looked up by similarity. Two wrappers keep the protocol of what they
wrap: :class:`CachedEmbedder` and :class:`CachedLLM`.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from dualgraph.models.base import LLM, ChatRequest, ChatResult, Embedder, TokenMeter
from dualgraph.models.embedders import unique_texts

__all__ = ["CachedEmbedder", "CachedLLM", "ResponseCache", "request_digest", "text_digest"]

EMBED_VERSION = "embed-v1"  # the "prompt version" of embeddings: bump if inputs get preprocessed
_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL, version TEXT NOT NULL, digest TEXT NOT NULL,
    vector BLOB NOT NULL, PRIMARY KEY (model, version, digest)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
    model TEXT NOT NULL, version TEXT NOT NULL, digest TEXT NOT NULL,
    result TEXT NOT NULL, PRIMARY KEY (model, version, digest)) WITHOUT ROWID;
"""
_CHUNK = 500  # keys per SQL statement, well under SQLite's variable limit


def text_digest(text: str) -> str:
    """sha256 of the exact text (UTF-8).

    >>> text_digest("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_digest(request: ChatRequest) -> str:
    """sha256 of everything in a request that can change the answer.

    ``stage`` only labels metering and ``prompt_version`` is a key column of its own,
    so neither is part of the digest.

    >>> a = ChatRequest(messages=({"role": "user", "content": "hi"},), stage="a")
    >>> request_digest(a) == request_digest(replace(a, stage="b"))
    True
    >>> request_digest(a) == request_digest(replace(a, max_tokens=7))
    False
    """
    payload = {
        "messages": list(request.messages),
        "schema": request.schema,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
    }
    return text_digest(json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":")))


class ResponseCache:
    """The SQLite file behind the wrappers; one connection per process, opened lazily.

    >>> import tempfile, os
    >>> c = ResponseCache(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> c.put("chat", "m", "v1", {"d1": "x"}); c.get("chat", "m", "v1", ["d1", "d2"])
    {'d1': 'x'}
    >>> c.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1
        self.read_only = False  # True once the file turned out not to be writable: nothing is stored

    def _connection(self) -> sqlite3.Connection | None:
        """The process's connection; None when there is no cache to read (read-only, and no file)."""
        # A connection must not cross a fork (Ray workers, multiprocessing): reopen per process.
        if self._pid != os.getpid():
            conn = None
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=60.0, check_same_thread=False, isolation_level=None)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable enough for a cache
                conn.executescript(_SCHEMA)
                self.read_only = False
            except (OSError, sqlite3.OperationalError) as e:
                if conn is not None:
                    conn.close()
                if not _unwritable(e):
                    raise
                conn = self._read_only_connection()
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    def _read_only_connection(self) -> sqlite3.Connection | None:
        """The file as it is, without the WAL's side files a reader would have to create."""
        self.read_only = True
        if not self.path.is_file():
            return None
        uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
        return sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)

    def get(self, table: str, model: str, version: str, digests: list[str]) -> dict[str, Any]:
        """The stored values among ``digests`` (missing ones are absent)."""
        table = _table(table)
        found: dict[str, Any] = {}
        with self._lock:
            conn = self._connection()
            if conn is None:
                return found
            column = "vector" if table == "embeddings" else "result"
            for i in range(0, len(digests), _CHUNK):
                chunk = digests[i : i + _CHUNK]
                marks = ",".join("?" * len(chunk))
                try:
                    rows = conn.execute(
                        f"SELECT digest, {column} FROM {table} WHERE model=? AND version=? AND digest IN ({marks})",
                        (model, version, *chunk),
                    ).fetchall()
                except sqlite3.OperationalError:
                    if not self.read_only:
                        raise
                    return found  # a read-only file without this table: nothing cached
                found.update(rows)
        return found

    def put(self, table: str, model: str, version: str, values: dict[str, Any]) -> None:
        """Store ``digest -> value`` pairs in one transaction (existing keys are replaced)."""
        if not values:
            return
        table = _table(table)
        with self._lock:
            conn = self._connection()
            if conn is None or self.read_only:
                return  # a read-only index: answers are not remembered
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(
                        f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?, ?)",
                        [(model, version, d, v) for d, v in values.items()],
                    )
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as e:
                if not _unwritable(e):
                    raise
                # opened (the WAL's side files were there) but not writable: read it as it is from now on
                conn.close()
                self._conn = self._read_only_connection()

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn, self._pid = None, -1

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path}  # a pickled cache (e.g. sent to a Ray worker) reopens the file

    def __setstate__(self, state: dict[str, Any]) -> None:
        ResponseCache.__init__(self, state["path"])


def _unwritable(error: BaseException) -> bool:
    """Whether opening the cache failed because its file or folder cannot be written."""
    if isinstance(error, OSError):
        return error.errno in (errno.EACCES, errno.EPERM, errno.EROFS)
    text = str(error).lower()
    return "readonly" in text or "read-only" in text or "unable to open" in text


def _table(name: str) -> str:
    if name not in ("embeddings", "chat"):
        raise ValueError(f"unknown cache table {name!r}")
    return name


class CachedEmbedder:
    """An :class:`Embedder` that answers repeated texts from the cache file.

    Cached rows are returned as stored; the misses of one call go to the wrapped
    embedder in a single batch. ``hits``/``misses`` count distinct texts.
    """

    def __init__(self, inner: Embedder, path: str | os.PathLike[str], *, meter: TokenMeter | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.cache = ResponseCache(path)
        self.meter = meter if meter is not None else getattr(inner, "meter", None)
        self.hits = 0
        self.misses = 0

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        """One L2-normalised float32 row per text, in order; only unseen texts are embedded."""
        distinct, rows = unique_texts(list(texts))
        digests = [text_digest(t) for t in distinct]
        stored = self.cache.get("embeddings", self.name, EMBED_VERSION, digests)
        out = np.zeros((len(distinct), self.dim), dtype=np.float32)
        missing: list[int] = []
        for i, d in enumerate(digests):
            blob = stored.get(d)
            if blob is not None and len(blob) == 4 * self.dim:
                out[i] = np.frombuffer(blob, dtype=np.float32)
            else:
                missing.append(i)
        if missing:
            fresh = np.asarray(self.inner.embed([distinct[i] for i in missing], stage=stage), dtype=np.float32)
            out[missing] = fresh
            self.cache.put(
                "embeddings", self.name, EMBED_VERSION, {digests[i]: fresh[k].tobytes() for k, i in enumerate(missing)}
            )
        hits = len(distinct) - len(missing)
        self.hits += hits
        self.misses += len(missing)
        if self.meter is not None and hits:
            self.meter.record(stage, cache_hits=hits)
        return out[rows]


class CachedLLM:
    """An :class:`LLM` that answers repeated requests from the cache file.

    Only successful results (``error is None``) are stored. A hit comes back with
    ``cached=True``, zero tokens and zero attempts. Identical requests within one call
    are sent once. ``hits``/``misses`` count requests.
    """

    def __init__(self, inner: LLM, path: str | os.PathLike[str], *, meter: TokenMeter | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.cache = ResponseCache(path)
        self.meter = meter if meter is not None else getattr(inner, "meter", None)
        self.hits = 0
        self.misses = 0

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        """One result per request, in order; only requests not seen before reach the model."""
        results: list[ChatResult | None] = [None] * len(requests)
        digests = [request_digest(r) for r in requests]
        by_version: dict[str, list[int]] = {}
        for i, r in enumerate(requests):
            by_version.setdefault(r.prompt_version, []).append(i)
        for version, idx in by_version.items():
            stored = self.cache.get("chat", self.name, version, [digests[i] for i in idx])
            for i in idx:
                if digests[i] in stored:
                    results[i] = _from_json(stored[digests[i]])
        # Send each distinct missing request once; duplicates share its answer.
        first_of: dict[tuple[str, str], int] = {}
        for i, res in enumerate(results):
            if res is None:
                first_of.setdefault((requests[i].prompt_version, digests[i]), i)
        to_send = list(first_of.values())
        answers = self.inner.complete([requests[i] for i in to_send]) if to_send else []
        fresh = dict(zip(to_send, answers))
        for i, res in enumerate(results):
            if res is None:
                j = first_of[(requests[i].prompt_version, digests[i])]
                results[i] = fresh[j] if i == j else _as_duplicate(fresh[j])
        good: dict[str, dict[str, str]] = {}
        for i, answer in fresh.items():
            if answer.error is None:
                good.setdefault(requests[i].prompt_version, {})[digests[i]] = _to_json(answer)
        for version, values in good.items():
            self.cache.put("chat", self.name, version, values)
        self.misses += len(to_send)
        self.hits += len(requests) - len(to_send)
        done = [r for r in results if r is not None]
        if self.meter is not None:
            for request, result in zip(requests, done):
                if result.cached:
                    self.meter.record(request.stage, cache_hits=1)
        return done


def _to_json(result: ChatResult) -> str:
    return json.dumps(
        {
            "text": result.text,
            "parsed": result.parsed,
            "finish_reason": result.finish_reason,
            "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens,
        },
        ensure_ascii=False,
    )


def _from_json(raw: str) -> ChatResult:
    data = json.loads(raw)
    return ChatResult(
        text=data["text"], parsed=data.get("parsed"), finish_reason=data.get("finish_reason"), cached=True, attempts=0
    )


def _as_duplicate(result: ChatResult) -> ChatResult:
    """A repeat within one call: the same answer, which cost nothing itself (errors stay errors)."""
    if result.error is not None:
        return replace(result)
    return replace(result, prompt_tokens=0, completion_tokens=0, cached=True, attempts=0)
