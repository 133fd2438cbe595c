"""Checking an index must not take the locks of the caches this process has open.

POSIX record locks belong to the process and the file: closing *any* descriptor of the file drops
all of them. If the index check read the response cache with ``open()``, an engine in the same
process would lose its WAL lock, and another process closing its last connection would delete
the ``-wal`` and ``-shm`` files under it (later connections here: "disk I/O error").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dualgraph.models.cache import ResponseCache
from dualgraph.pipeline.index_check import CACHE_PART, _check_sqlite


def _other_process_writes_and_closes(path: Path) -> None:
    code = (
        "import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('PRAGMA journal_mode=WAL')\n"
        "c.execute('CREATE TABLE IF NOT EXISTS other(x)')\n"
        "c.execute('INSERT INTO other VALUES (1)')\n"
        "c.close()\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)


def test_the_check_keeps_the_wal_lock_of_an_open_cache(tmp_path: Path) -> None:
    path = tmp_path / CACHE_PART
    cache = ResponseCache(path)
    try:
        cache.put("embeddings", "m", "1", {"d": b"\x00" * 8})
        assert cache.get("embeddings", "m", "1", ["d"]) == {"d": b"\x00" * 8}
        for deep in (False, True):
            assert _check_sqlite(tmp_path, CACHE_PART, deep=deep).status == "ok"
        _other_process_writes_and_closes(path)
        # our connection still holds the database open: its shared memory must still be there
        assert path.with_name(path.name + "-shm").exists() and path.with_name(path.name + "-wal").exists()
        fresh = ResponseCache(path)
        try:
            assert fresh.get("embeddings", "m", "1", ["d"]) == {"d": b"\x00" * 8}
        finally:
            fresh.close()
    finally:
        cache.close()


def test_junk_in_place_of_the_cache_is_named(tmp_path: Path) -> None:
    path = tmp_path / CACHE_PART
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all, just some bytes " * 200)
    found = _check_sqlite(tmp_path, CACHE_PART, deep=False)
    assert found.status == "corrupt" and "not an SQLite database" in found.why
    path.write_bytes(b"")  # an empty file is a database SQLite has not written to yet
    assert _check_sqlite(tmp_path, CACHE_PART, deep=False).status == "ok"
