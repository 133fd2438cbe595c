"""An index that checks itself: every part it is made of, recorded in its manifest with what
verifies it, and checked by ``dualgraph index`` (which rebuilds what is damaged),
``dualgraph check`` (which reports) and the read paths (which refuse with one line).

The manifest's ``parts`` maps each part, by its path inside the index directory, to:

- ``{"kind": "file", "bytes": n, "blake2b": hex}`` for a file (the shards, the Textual KG's
  tables, vector and BM25 indexes, the pattern index, the saved catalog and text facts, the
  state and the model and store settings);
- ``{"kind": "store", "products": n, "quads": n}`` for the embedded store's directory (its
  files change under every write, so what it holds is counted instead);
- ``{"kind": "sqlite"}`` for the response cache, which every question writes to: it is checked
  by SQLite's own integrity check, and its absence is no damage (it fills again on use).

Checks come in two depths: ``deep`` reads every byte (checksums, the store's counts, SQLite's
check): ``check`` and ``index`` do that; the read paths look at presence and sizes only, and
go deep only to name the part after an open failed.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from dualgraph.corpus.stamps import RACY_NS
from dualgraph.pipeline.generations import index_root, lease, resolve
from dualgraph.pipeline.layout import IndexLayout, write_json_atomic
from dualgraph.pipeline.state import IndexState, journal_path

PARTS = "parts"
STORE_PART = "skg/oxigraph"
CACHE_PART = "cache/responses.sqlite"
STATE_PART = "state.json"
# where the files of an index live; reports (quarantine, coverage) are outputs, not parts
_FILE_ROOTS = ("state.json", "models.json", "store.json", "skg/catalog.nq", "skg/shards", "tkg", "patterns")
# content-addressed: a shard's name is a hash of what it holds, so its checksum never changes
_IMMUTABLE = ("skg/shards/", "tkg/shards/")
_PRODUCTS = "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { ?x a skgt:Product }"

Status = Literal["ok", "missing", "corrupt", "absent"]
Reader = Literal["store", "text", "engine"]


@dataclass(frozen=True)
class PartCheck:
    """What one check of one part found. ``absent`` is an optional part that is not there."""

    part: str
    status: Status
    why: str = ""

    @property
    def broken(self) -> bool:
        return self.status in ("missing", "corrupt")

    def line(self) -> str:
        """``"tkg/entities.parquet: corrupt: checksum differs from the manifest"``"""
        return f"{self.part}: {self.status}" + (f": {self.why}" if self.why else "")


class IndexDamaged(Exception):
    """A part of the index a read needs is missing or corrupt; the message is one line."""

    def __init__(self, index_dir: str | Path, problems: list[PartCheck]) -> None:
        self.index_dir = Path(index_dir)
        self.problems = problems
        first = problems[0]
        more = f" (and {len(problems) - 1} more damaged parts)" if len(problems) > 1 else ""
        super().__init__(
            f"index {self.index_dir}: {first.part} is {first.status}"
            + (f" ({first.why})" if first.why else "")
            + f"{more}: run `dualgraph index` to rebuild it; `dualgraph check --index {self.index_dir}` lists every part"
        )


def file_digest(path: Path) -> str:
    """blake2b (16 bytes) of a file's content, read in blocks.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "f"; _ = p.write_bytes(b"abc")
    >>> file_digest(p)
    'cf4ab791c62b8d2b2109c90275287816'
    """
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, lambda: hashlib.blake2b(digest_size=16)).hexdigest()


def read_manifest(root: Path) -> dict[str, Any]:
    """The manifest of the index at ``root``; ``{}`` when there is none or it cannot be read."""
    try:
        data = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _files(root: Path) -> Iterator[str]:
    """The part files under ``root``, as paths relative to it, in a stable order."""
    for top in _FILE_ROOTS:
        base = root / top
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else []
        for p in paths:
            rel = p.relative_to(root)
            # temporary files of an atomic write or of a graph sync, left by a killed run
            if any(part.startswith(".") for part in rel.parts) or p.name.endswith((".tmp", ".pending")):
                continue
            yield rel.as_posix()


def _embedded_store(root: Path) -> bool:
    from dualgraph.pipeline.index_store import load_store_config

    try:
        return load_store_config(root).kind == "oxigraph"
    except (OSError, ValueError):
        return True  # an unreadable store.json is reported as a part of its own


def _settled(entry: dict[str, Any] | None, st: os.stat_result) -> bool:
    """Whether ``entry``'s checksum still vouches for the file that stats as ``st``: the same size,
    modification time and inode as when it was taken, and a modification time older than the
    checksum by more than :data:`~dualgraph.corpus.stamps.RACY_NS` (a write in the same clock tick
    as the reading would leave the time as it was). A hard link of a later generation keeps all three.

    >>> from types import SimpleNamespace
    >>> st = SimpleNamespace(st_size=3, st_mtime_ns=10, st_ino=7)
    >>> entry = {"bytes": 3, "stat": [10, 7], "hashed_ns": RACY_NS + 11}
    >>> _settled(entry, st), _settled({**entry, "hashed_ns": 5}, st), _settled({**entry, "bytes": 4}, st)
    (True, False, False)
    """
    if not entry or "stat" not in entry or entry.get("bytes") != st.st_size:
        return False
    return entry["stat"] == [st.st_mtime_ns, st.st_ino] and st.st_mtime_ns < int(entry.get("hashed_ns", 0)) - RACY_NS


def file_entry(path: Path, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """A file part: its size and checksum, and the stat the checksum was taken of. The checksum of
    ``previous`` (the last manifest's entry) is kept when the file is the one it was taken of
    (:func:`_settled`): a re-index reads only the files it wrote, not every part of the index."""
    st = path.stat()
    if _settled(previous, st):
        assert previous is not None
        return {**previous, "kind": "file"}
    hashed_ns = time.time_ns()  # before reading: a write after this is racy, never trusted
    return {
        "kind": "file",
        "bytes": st.st_size,
        "blake2b": file_digest(path),
        "stat": [st.st_mtime_ns, st.st_ino],
        "hashed_ns": hashed_ns,
    }


def record_parts(
    root: Path, *, products: int, quads: int, previous: dict[str, Any] | None = None
) -> dict[str, dict[str, Any]]:
    """The ``parts`` of the manifest for the index at ``root`` as it is now; ``products`` and
    ``quads``: what its store holds (recorded for the embedded store only: a remote one is
    no part of the directory). ``previous``: the last manifest's parts, whose checksums are kept
    for the files that did not change since (:func:`file_entry`)."""
    parts: dict[str, dict[str, Any]] = {}
    previous = previous if isinstance(previous, dict) else {}
    if _embedded_store(root):
        parts[STORE_PART] = {"kind": "store", "products": products, "quads": quads}
    for rel in _files(root):
        parts[rel] = file_entry(root / rel, previous.get(rel))
    if (root / CACHE_PART).is_file():
        parts[CACHE_PART] = {"kind": "sqlite"}
    return parts


def store_counts(store) -> tuple[int, int]:
    """The products and quads a store holds, as the manifest records them."""
    products = int(store.select(_PRODUCTS)["results"]["bindings"][0]["n"]["value"])
    return products, store.count()


def refresh_parts(index_dir: str | Path, *, store=None, under: tuple[str, ...] = ()) -> None:
    """Record again, in the manifest, the files under the prefixes ``under`` and (given the open
    ``store``) the store's counts: for a command that changes a finished index (``align``)."""
    root = Path(index_dir)
    manifest = read_manifest(root)
    parts = manifest.get(PARTS)
    if not isinstance(parts, dict):
        return  # an index from before parts were recorded: nothing to keep up to date
    before = dict(parts)
    for rel in [r for r in parts if r.startswith(under)] if under else []:
        del parts[rel]
    for rel in _files(root):
        if under and rel.startswith(under):
            parts[rel] = file_entry(root / rel, before.get(rel))
    if store is not None and STORE_PART in parts:
        products, quads = store_counts(store)
        parts[STORE_PART] = {"kind": "store", "products": products, "quads": quads}
    write_json_atomic(root / "manifest.json", manifest)


# -- checking one part --------------------------------------------------------------------------


def _check_file(root: Path, rel: str, entry: dict[str, Any], *, deep: bool, trust_stat: bool = False) -> PartCheck:
    """``deep``: read every byte and compare checksums, unless ``trust_stat`` and the file stats as
    it did when its checksum was taken (:func:`_settled`: what a re-index relies on; `dualgraph
    check` reads every byte always)."""
    path = root / rel
    if not path.is_file():
        return PartCheck(rel, "missing")
    st = path.stat()
    size = st.st_size
    if size != entry.get("bytes"):
        return PartCheck(rel, "corrupt", f"{size} bytes, the manifest says {entry.get('bytes')}")
    if deep and not (trust_stat and _settled(entry, st)) and file_digest(path) != entry.get("blake2b"):
        return PartCheck(rel, "corrupt", "checksum differs from the manifest")
    return PartCheck(rel, "ok")


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:240]


def open_store_error(root: Path) -> str | None:
    """Why the embedded store of the index at ``root`` does not open read-only (None: it opens)."""
    from dualgraph.pipeline.index_store import load_store_config, open_store

    try:
        with closing(open_store(load_store_config(root), root, read_only=True)):
            return None
    except Exception as e:  # RocksDB reports damage in several shapes; the message says which
        return _first_line(e)


def _check_store(root: Path, entry: dict[str, Any] | None, *, deep: bool, counts: bool = True) -> PartCheck:
    from dualgraph.pipeline.index_store import load_store_config, open_store

    if not (IndexLayout(root).store / "CURRENT").is_file():
        return PartCheck(STORE_PART, "missing")
    if not deep:
        return PartCheck(STORE_PART, "ok")
    try:
        with closing(open_store(load_store_config(root), root, read_only=True)) as store:
            found = store_counts(store) if counts and entry else None
    except Exception as e:
        return PartCheck(STORE_PART, "corrupt", f"does not open: {_first_line(e)}")
    if found is None:
        return PartCheck(STORE_PART, "ok")
    want = (entry.get("products"), entry.get("quads")) if entry else found
    if found != want:
        return PartCheck(
            STORE_PART,
            "corrupt",
            f"holds {found[0]} products and {found[1]} quads, the manifest says {want[0]} and {want[1]}",
        )
    return PartCheck(STORE_PART, "ok", f"{found[0]} products, {found[1]} quads")


def _check_sqlite(root: Path, rel: str, *, deep: bool) -> PartCheck:
    path = root / rel
    if not path.is_file():
        return PartCheck(rel, "absent", "a cache, filled again on use")
    # Read only through SQLite, never with open(): closing any descriptor of the file drops every
    # POSIX lock this process holds on it, so an engine here with the cache open loses its WAL lock,
    # another process's last connection deletes the -wal and -shm files under it, and every later
    # connection in this process fails with "disk I/O error". SQLite keeps its descriptors of a
    # locked file open until the locks go. immutable: no lock taken, no -shm or -wal created.
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)) as db:
            db.execute("PRAGMA schema_version").fetchone()  # the header: "file is not a database"
            found = db.execute("PRAGMA quick_check").fetchall() if deep else [("ok",)]
    except sqlite3.Error as e:
        return PartCheck(rel, "corrupt", f"not an SQLite database ({e})")
    if found != [("ok",)]:
        return PartCheck(rel, "corrupt", f"SQLite quick_check: {'; '.join(str(r[0]) for r in found[:3])}")
    return PartCheck(rel, "ok")


def check_part(root: Path, rel: str, entry: dict[str, Any], *, deep: bool, trust_stat: bool = False) -> PartCheck:
    kind = entry.get("kind")
    if kind == "store":
        return _check_store(root, entry, deep=deep)
    if kind == "sqlite":
        return _check_sqlite(root, rel, deep=deep)
    return _check_file(root, rel, entry, deep=deep, trust_stat=trust_stat)


# -- `dualgraph check` ---------------------------------------------------------------------------


def check_index(
    index_dir: str | Path, *, store_url: str | None = None, allow_insecure_auth: bool = False
) -> list[PartCheck]:
    """Verify every part of the index at ``index_dir`` against its manifest, reading every byte;
    one result a part, in the manifest's order. Reads only: nothing is written or repaired.

    An index whose store is a SPARQL server gets one more result: whether the server answers and
    holds the products the manifest counts (:func:`check_endpoint`; ``store_url`` and
    ``allow_insecure_auth`` as for every reader, see
    :func:`~dualgraph.pipeline.index_store.index_store_config`).

    The generation readers see now is checked (held meanwhile, so no index run deletes it); an
    index run that stopped before publishing the next one damages nothing readers see, and is
    not listed."""
    with lease(index_dir) as held:
        return _check_generation(held.dir, store_url=store_url, allow_insecure_auth=allow_insecure_auth)


def _check_generation(
    root: Path, *, store_url: str | None = None, allow_insecure_auth: bool = False
) -> list[PartCheck]:
    if not (root / "manifest.json").is_file():
        return [PartCheck("manifest.json", "missing", "not an index directory: run `dualgraph index`")]
    manifest = read_manifest(root)
    parts = manifest.get(PARTS)
    if not isinstance(parts, dict) or not parts:
        why = "lists no parts (written before indexes recorded them): run `dualgraph index` once"
        return [PartCheck("manifest.json", "corrupt" if not manifest else "missing", why)]
    out = [check_part(root, rel, entry, deep=True) for rel, entry in parts.items()]
    if not _embedded_store(root):
        out.append(check_endpoint(root, manifest, url=store_url, allow_insecure_auth=allow_insecure_auth))
    journal = journal_path(root / STATE_PART)
    if journal.is_file():
        out.append(PartCheck(journal.name, "corrupt", "the last index run did not finish: run `dualgraph index`"))
    return out


def check_endpoint(
    root: Path, manifest: dict[str, Any], *, url: str | None = None, allow_insecure_auth: bool = False
) -> PartCheck:
    """The remote store of the index at ``root``: it must answer (one try, no retries: a check
    reports, it does not wait out an outage) and hold as many products as the manifest counts.
    The part is named ``store <query URL>``; the password goes only where every reader sends it."""
    from dualgraph.pipeline.index_store import index_store_config, open_store

    try:
        config = index_store_config(root, url=url, allow_insecure_auth=allow_insecure_auth)
    except Exception as e:  # a store.json that cannot be read, or a URL nobody named: refused, said in one line
        return PartCheck("store.json", "corrupt", _first_line(e))
    part = f"store {config.query_url}"
    config = config.model_copy(update={"retry_attempts": 1, "timeout_s": min(config.timeout_s, 30.0)})
    try:
        with closing(open_store(config, root, read_only=True)) as store:
            found = int(store.select(_PRODUCTS)["results"]["bindings"][0]["n"]["value"])
    except Exception as e:  # down, refused, not SPARQL: the one line says which
        return PartCheck(part, "missing", f"does not answer: {_first_line(e)}")
    want = manifest.get("products")
    if isinstance(want, int) and found != want:
        return PartCheck(part, "corrupt", f"holds {found} products, the manifest says {want}")
    return PartCheck(part, "ok", f"{found} products")


# -- the read paths ------------------------------------------------------------------------------


def _read_by(reader: Reader) -> Callable[[str], bool]:
    """Which parts a reader opens: the store (``sparql``), the Textual KG (``search``) or all that
    answering needs (``ask``)."""

    def store(rel: str) -> bool:
        return rel in (STORE_PART, "store.json")

    def text(rel: str) -> bool:
        if rel in ("models.json", CACHE_PART):
            return True
        if not rel.startswith("tkg/") or rel.startswith("tkg/shards/"):
            return False
        # written for the next index run, never read to answer
        return rel not in ("tkg/text_facts.nq", "tkg/page_hits.json", "tkg/prose_lexicon.json")

    if reader == "store":
        return store
    if reader == "text":
        return text
    return lambda rel: store(rel) or text(rel) or rel.startswith("patterns/") or rel == "tkg/prose_lexicon.json"


def _read_parts(root: Path, reader: Reader) -> dict[str, dict[str, Any]]:
    parts = read_manifest(root).get(PARTS)
    if not isinstance(parts, dict):
        return {}  # no manifest (a first run that stopped half-way) or one from before parts
    wanted = _read_by(reader)
    return {rel: entry for rel, entry in parts.items() if wanted(rel)}


def check_readable(index_dir: str | Path, reader: Reader) -> None:
    """Raise :class:`IndexDamaged` when a part ``reader`` opens is missing or not the size the
    manifest records: a glance (no checksums), done before each part is opened. ``index_dir`` is
    read as one generation (:func:`~dualgraph.pipeline.generations.resolve`): the manifest and
    the parts it lists come from the same one, whatever an index run publishes meanwhile."""
    root = resolve(index_dir)
    problems = [c for rel, e in _read_parts(root, reader).items() if (c := check_part(root, rel, e, deep=False)).broken]
    if problems:
        raise IndexDamaged(index_root(root), problems)


def diagnose(index_dir: str | Path, reader: Reader) -> IndexDamaged | None:
    """After opening what ``reader`` needs failed: the damaged parts, found by checksums (None:
    every part is as recorded, so the failure has another cause)."""
    root = resolve(index_dir)
    problems = []
    for rel, entry in _read_parts(root, reader).items():
        if entry.get("kind") == "store":
            # the open failed already: whether it opens at all says enough, counting would not
            found = _check_store(root, entry, deep=True, counts=False)
        else:
            found = check_part(root, rel, entry, deep=True)
        if found.broken:
            problems.append(found)
    return IndexDamaged(index_root(root), problems) if problems else None


# -- `dualgraph index` ---------------------------------------------------------------------------


@dataclass
class Repairs:
    """What :func:`repair_before_index` found and did: one line a damaged part (``lines``),
    and whether the prose lexicon must be mined again though no view it follows is rebuilt."""

    lines: list[str] = field(default_factory=list)
    lexicon: bool = False
    shards: set[tuple[str, str]] = field(default_factory=set)  # (skg/ or tkg/, shard key) repaired


def open_checked_state(layout: IndexLayout) -> tuple[IndexState, list[str]]:
    """The index state, or an empty one (every document indexed again) when ``state.json`` or its
    journal cannot be read; with a line saying so."""
    parts = read_manifest(layout.root).get(PARTS)
    gone = not layout.state.is_file() and not journal_path(layout.state).is_file()
    if gone and isinstance(parts, dict) and STATE_PART in parts:
        # no record of any document: the store's graphs are dropped as unaccounted for, and loaded again
        return IndexState.open(layout.state), [f"{STATE_PART}: missing: every document is indexed again"]
    try:
        return IndexState.open(layout.state), []
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        layout.state.unlink(missing_ok=True)
        journal_path(layout.state).unlink(missing_ok=True)
        why = f"{STATE_PART}: corrupt (unreadable: {_first_line(e)}): every document is indexed again"
        return IndexState.open(layout.state), [why]


def _finished(layout: IndexLayout, parts: dict[str, Any], state: IndexState) -> bool:
    """Whether the last run finished, so the manifest describes the index as it is: no journal is
    left and the state is the one the manifest recorded (a run killed after its checkpoint has
    none, but an older manifest)."""
    entry = parts.get(STATE_PART)
    if state.journal.is_file() or not entry or not layout.state.is_file():
        return False
    return _check_file(layout.root, STATE_PART, entry, deep=True, trust_stat=True).status == "ok"


def _shard_stem(rel: str) -> str:
    """``skg/shards/shard-abc.values.parquet`` -> ``shard-abc``; ``tkg/shards/chunks-abc.parquet`` -> ``abc``."""
    name = rel.rsplit("/", 1)[-1]
    if rel.startswith("tkg/shards/"):
        return name.split(".", 1)[0].split("-", 1)[-1]
    return name.split(".", 1)[0]


def _needed_shards(state: IndexState) -> dict[str, str]:
    """The shard files the loaded documents point at, by their part path (without checksums)."""
    out = {}
    for d in state.documents.values():
        if not d.get("loaded"):
            continue
        if d.get("shard"):
            out[f"skg/shards/{Path(d['shard']).name}"] = "skg"
        if d.get("tkg_shard"):
            for kind in ("chunks", "mentions"):
                out[f"tkg/shards/{kind}-{d['tkg_shard']}.parquet"] = "tkg"
    return out


def repair_before_index(layout: IndexLayout, state: IndexState, *, tkg: bool, patterns: bool) -> Repairs:
    """Verify the parts of the index before a run decides what is unchanged, and make the run
    rebuild what is damaged: a damaged file is deleted, the view it belongs to marked stale, the
    documents of a damaged shard forgotten (converted again), and a lost or corrupt store
    emptied with every document forgotten (loaded again: their records say "loaded" of a store
    that no longer holds them). ``tkg``/``patterns``: whether this run builds those views.

    Shards are checked by checksum always (their content never changes); the rest by checksum
    when the last run finished, else by presence only (a run that stopped half-way changed them
    since the manifest was written, and its journal says what is left to do).
    """
    root = layout.root
    out = Repairs()
    parts = read_manifest(root).get(PARTS)
    parts = parts if isinstance(parts, dict) else {}
    finished = bool(parts) and _finished(layout, parts, state)
    found: list[PartCheck] = []
    store = _store_damage(layout, state, parts.get(STORE_PART), finished=finished)
    if store is not None:
        found.append(store)
    for rel, entry in parts.items():
        # the store is above; the state was read already; the settings are written again by every run
        if entry.get("kind") == "store" or rel in (STATE_PART, "models.json", "store.json"):
            continue
        found.append(check_part(root, rel, entry, deep=finished or rel.startswith(_IMMUTABLE), trust_stat=True))
    for rel in _needed_shards(state):
        if rel not in parts and not (root / rel).is_file():
            found.append(PartCheck(rel, "missing", "a loaded document's shard"))
    for check in found:
        if check.broken:
            out.lines.append(_repair(layout, state, check, tkg=tkg, patterns=patterns, out=out))
    return out


def _store_damage(
    layout: IndexLayout, state: IndexState, entry: dict[str, Any] | None, *, finished: bool
) -> PartCheck | None:
    """The embedded store's damage, if any, that a rebuild repairs: gone while the state lists
    documents loaded in it, opening with RocksDB's "Corruption", or (after a finished run)
    holding other counts than the manifest's. A store that does not open for another reason
    (a lock, permissions) is left to fail the run as it always did."""
    root = layout.root
    loaded = any(d.get("loaded") and d.get("graph") for d in state.documents.values())
    if not _embedded_store(root) or not (loaded or entry):
        return None
    if not (layout.store / "CURRENT").is_file():
        # an empty store that vanished loses nothing: the run starts a fresh one anyway
        return PartCheck(STORE_PART, "missing") if loaded or (entry or {}).get("products") else None
    why = open_store_error(root)
    if why is not None:
        return PartCheck(STORE_PART, "corrupt", f"does not open: {why}") if "Corruption" in why else None
    if finished and entry:
        found = _check_store(root, entry, deep=True)
        return found if found.broken else None
    return None


def _repair(
    layout: IndexLayout, state: IndexState, check: PartCheck, *, tkg: bool, patterns: bool, out: Repairs
) -> str:
    """Undo what a damaged part vouched for; returns the line that says so."""
    rel, root = check.part, layout.root
    head = f"{rel}: {check.status}" + (f" ({check.why})" if check.why else "")
    if rel == STORE_PART:
        if layout.store.exists():
            shutil.rmtree(layout.store)
        markets = state.markets()
        state.drop(list(state.documents))
        state.set_stale(True, views=state.VIEWS)
        # this run loads its own market's documents; the others' records are gone with the store
        note = f" (of this run's market; markets {', '.join(markets)} each need a run)" if len(markets) > 1 else ""
        return f"{head}: emptied; every document is loaded again{note}"
    if rel.startswith(_IMMUTABLE):
        stem = _shard_stem(rel)
        if (rel[:4], stem) in out.shards:
            return f"{head}: rebuilt with the rest of its shard"
        out.shards.add((rel[:4], stem))
        shard_dir = root / rel.rsplit("/", 1)[0]
        pattern = f"{stem}.*" if rel.startswith("skg/") else f"*-{stem}.parquet"
        for f in shard_dir.glob(pattern):
            f.unlink()  # a shard is written only when its file is absent: the damaged one must go
        if rel.startswith("skg/"):
            keys = [
                k for k, d in state.documents.items() if d.get("shard") and Path(d["shard"]).name.startswith(stem + ".")
            ]
        else:
            keys = [k for k, d in state.documents.items() if d.get("tkg_shard") == stem]
        state.drop(keys)
        if not keys:  # forgotten already, with the store
            return f"{head}: rebuilt with its documents"
        return f"{head}: rebuilt ({len(keys)} {'document' if len(keys) == 1 else 'documents'} converted again)"
    if rel == CACHE_PART:
        for suffix in ("", "-wal", "-shm"):
            (root / (rel + suffix)).unlink(missing_ok=True)
        return f"{head}: deleted (a cache: filled again on use)"
    (root / rel).unlink(missing_ok=True)
    if rel == "tkg/prose_lexicon.json":
        out.lexicon = True
        return f"{head}: {'mined again' if tkg and patterns else 'deleted (the Textual KG or patterns are off)'}"
    view, on = ("rules", True)
    if rel.startswith("tkg/"):
        view, on = "tkg", tkg
    elif rel.startswith("patterns/"):
        view, on = "patterns", patterns
    state.set_stale(True, views=(view,))
    if rel == "skg/catalog.nq":
        return f"{head}: rebuilt (the derived facts are computed again)"
    return f"{head}: {'rebuilt' if on else 'deleted (this run does not build that view)'}"
