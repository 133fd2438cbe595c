"""What an index holds, per source document, kept crash-safe with a write-ahead journal.

``state.json`` is a checkpoint; every change after it is appended to
``state.journal.jsonl`` (one JSON object per line, flushed at once), so saving after
each loaded shard costs one line per document instead of rewriting the whole state.
Opening replays the journal; :meth:`IndexState.checkpoint` folds it into the file.

Records are keyed by market and metadata path (``"uk:file-a/file-a.json"``, see
:func:`state_key`): the same document directory indexed for two markets is two records.
A version-2 state (before markets) and its journal lines are read as the default market's.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

from dualgraph.pipeline.layout import json_text, write_json_atomic
from dualgraph.skg.ontology import DEFAULT_MARKET

STATE_VERSION = 3
_READABLE = (2, 3)  # 2: keyed by metadata path alone, every document in the default market


def state_key(market: str, meta: str) -> str:
    """The record key of a document of a market (market codes hold no ``:``).

    >>> state_key("uk", "file-a/file-a.json")
    'uk:file-a/file-a.json'
    """
    return f"{market}:{meta}"


def split_key(key: str) -> tuple[str, str]:
    """``(market, metadata path)`` of a record key.

    >>> split_key("uk:file-a:b/file-a:b.json")
    ('uk', 'file-a:b/file-a:b.json')
    """
    market, _, meta = key.partition(":")
    return market, meta


def journal_path(state_path: Path) -> Path:
    """The journal beside a state file.

    >>> journal_path(Path("ix/state.json")).name
    'state.journal.jsonl'
    """
    return state_path.with_name(state_path.stem + ".journal.jsonl")


def _migrated(meta: str, doc: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    # a record from before markets: the default market's, under its metadata path
    return state_key(DEFAULT_MARKET, meta), {**doc, "market": DEFAULT_MARKET}


class IndexState:
    """Per-document records (keyed by metadata path) plus which derived views are stale.

    A view (``"rules"``: the rule-derived graph, ``"tkg"``: the merged Textual KG,
    ``"patterns"``: the graph pattern index, ``"lexicon"``: the prose lexicon; the plan is
    :data:`dualgraph.pipeline.views.PLAN`; ``"vocabulary"``: shared nodes to collect) is stale
    from the moment a document changes until it has been rebuilt.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "state.json"
    >>> s = IndexState.open(p)
    >>> s.record({"uk:file-a/file-a.json": {"doc_id": "file-a", "market": "uk", "hash": "h", "loaded": True}})
    >>> IndexState.open(p).documents["uk:file-a/file-a.json"]["hash"]   # replayed from the journal
    'h'
    """

    # "vocabulary" is not a view but a pending clean-up: shared nodes (values, entries) left
    # without a referrer once document graphs were dropped. It comes last, so that a journal
    # cut short after its line has the lines of the real views too.
    VIEWS = ("rules", "tkg", "patterns", "lexicon", "vocabulary")
    DERIVED = ("rules", "tkg", "patterns", "lexicon")

    def __init__(self, path: Path, documents: dict[str, dict[str, Any]], stale: dict[str, bool]) -> None:
        self.path = path
        self.journal = journal_path(path)
        self.documents = documents
        self.stale = {v: stale.get(v, True) for v in self.VIEWS}
        self.signatures: dict[str, str] = {}
        self._fh: TextIO | None = None

    @classmethod
    def open(cls, path: str | os.PathLike) -> IndexState:
        path = Path(path)
        docs: dict[str, dict[str, Any]] = {}
        stale: dict[str, bool] = {}
        data: dict[str, Any] = {}
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("version") == 2:
                docs = dict(_migrated(m, d) for m, d in data["documents"].items())
                stale = data["stale"]
            elif data.get("version") == STATE_VERSION:
                docs, stale = data["documents"], data["stale"]
        state = cls(path, docs, stale)
        if data.get("version") in _READABLE:
            state.signatures = dict(data.get("signatures", {}))
        if state.journal.is_file():
            for line in state.journal.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    break  # a line torn by a crash: everything after it never happened
                state._apply(entry)
        return state

    def _apply(self, entry: dict[str, Any]) -> None:
        if "stale" in entry:
            self.stale[entry["view"]] = entry["stale"]
        elif "signature" in entry:
            self.signatures[entry["view"]] = entry["signature"]
        elif "drop_key" in entry:
            self.documents.pop(entry["drop_key"], None)
        elif "drop" in entry:  # a version-2 journal line
            self.documents.pop(state_key(DEFAULT_MARKET, entry["drop"]), None)
        elif "key" in entry:
            self.documents[entry["key"]] = entry["doc"]
        else:  # a version-2 journal line
            key, doc = _migrated(entry["meta"], entry["doc"])
            self.documents[key] = doc

    def _append(self, entries: list[dict[str, Any]]) -> None:
        if self._fh is None:
            self._fh = open(self.journal, "a", encoding="utf-8")  # noqa: SIM115 -- kept open for appends; close() closes it
        self._fh.write("".join(json_text(e) + "\n" for e in entries))
        self._fh.flush()
        for e in entries:
            self._apply(e)

    def record(self, docs: dict[str, dict[str, Any]]) -> None:
        """Save the records of these documents (record key, see :func:`state_key` -> record)."""
        self._append([{"key": k, "doc": d} for k, d in docs.items()])

    def drop(self, keys: list[str]) -> None:
        self._append([{"drop_key": k} for k in keys])

    def of_market(self, market: str) -> dict[str, dict[str, Any]]:
        """The records of one market, by metadata path."""
        out = {}
        for key, doc in self.documents.items():
            m, meta = split_key(key)
            if m == market:
                out[meta] = doc
        return out

    def markets(self) -> list[str]:
        """The markets that have at least one record."""
        return sorted({split_key(k)[0] for k in self.documents})

    def set_stale(self, stale: bool, *, views: tuple[str, ...] = DERIVED) -> None:
        changes = [{"view": v, "stale": stale} for v in views if self.stale[v] != stale]
        if changes:
            self._append(changes)

    def check_signature(self, view: str, signature: str) -> None:
        """Mark ``view`` stale when what builds it (rules, models, settings) changed since it was built."""
        if self.signatures.get(view) != signature:
            self.set_stale(True, views=(view,))
            self._append([{"view": view, "signature": signature}])

    def checkpoint(self) -> None:
        """Write the whole state and empty the journal."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        write_json_atomic(
            self.path,
            {"version": STATE_VERSION, "documents": self.documents, "stale": self.stale, "signatures": self.signatures},
            indent=None,  # tens of MB for a large catalog, read by programs only
        )
        self.journal.unlink(missing_ok=True)
