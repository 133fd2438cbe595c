"""File stamps: telling an unchanged document from a changed one without reading it.

A re-index decides what changed by content hash, and hashing reads every byte of every
document: at 100k products that is most of a minute before any work starts, for a run that
may change 1 % of them. A stamp records, for each file a document's hash read, what
``stat`` says of it (size, modification and change times in nanoseconds, inode) just
before it was read. When every file still stats the same, the content is the one that was
hashed and the hash is not computed again.

Three things make a matching stat not enough, and each sends the document to the hash:

- **Racily clean files** (git's term). A file written in the same timestamp tick as it was
  stamped could be written again in that tick without its times moving. A stamp is trusted
  only for files whose times are older than the stamp by more than :data:`RACY_NS`, which
  covers filesystems that keep whole or even seconds (FAT keeps two).
- **A different reading.** The hash folds in the converter's version and the read limits (a
  file over the limit enters it as the reason it was refused); the stamp carries a key of
  both, so a change of either hashes everything again.
- **Replaced files.** A file swapped in by rename with the same size and times has another
  inode; ``ctime`` moves on any write or ``touch -d``, which can set ``mtime`` back but not
  ``ctime``.

This trusts the dataset's filesystem clock and the indexer's to agree within the racy
margin; where they may not (a share whose server clock runs ahead), turn stamps off
(``IndexConfig.trust_file_stamps``) and every document is hashed.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any

__all__ = ["RACY_NS", "FileStamp", "stamp_holds", "stamp_key"]

RACY_NS = 2_000_000_000
"""Files whose modification or change time is this close to the stamp's are hashed again."""

Stat = list[int] | None  # [size, mtime_ns, ctime_ns, inode], or None: nothing readable there


def stamp_key(salt: str, limits: Any) -> str:
    """What else decides a document's hash: the salt and the read limits (a pydantic model).

    >>> from dualgraph.corpus.limits import ReadLimits
    >>> stamp_key("v1", ReadLimits()) == stamp_key("v2", ReadLimits())
    False
    """
    extra = limits.model_dump_json() if hasattr(limits, "model_dump_json") else repr(limits)
    return hashlib.sha256(f"{salt}\x1f{extra}".encode()).hexdigest()[:16]


def _stat(path: Path) -> Stat:
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # missing, a loop, a NUL in the name: the hash says why
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


class FileStamp:
    """The stamp being taken while a document is hashed: call :meth:`add` for each file just
    before reading it, then :meth:`to_dict` for the record.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "a.json").write_text("{}")
    >>> s = FileStamp(root, "k", now_ns=time.time_ns() + 10 * RACY_NS)  # as if taken well after the write
    >>> s.add(root / "a.json"); s.add(root / "gone.md")
    >>> stamp_holds(root, s.to_dict(), "k"), stamp_holds(root, s.to_dict(), "other key")
    (True, False)
    >>> _ = (root / "gone.md").write_text("now here")
    >>> stamp_holds(root, s.to_dict(), "k")
    False
    """

    def __init__(self, root: str | os.PathLike[str], key: str, *, now_ns: int | None = None) -> None:
        self.root = Path(root).resolve()  # the reader stats resolved paths
        self.key = key
        # taken before the first file is read: a file written after this is racy, never trusted
        self.taken_ns = time.time_ns() if now_ns is None else now_ns
        self.files: list[list[Any]] = []

    def add(self, path: str | os.PathLike[str]) -> None:
        path = Path(path)
        try:
            rel = str(path.relative_to(self.root))
        except ValueError:
            rel = str(path)  # outside the root: refused by the reader, stamped where it is
        self.files.append([rel, _stat(path)])

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "taken_ns": self.taken_ns, "files": self.files}

    def to_row(self) -> dict[str, Any]:
        """The stamp as the index stages carry it (:data:`dualgraph.pipeline.columns.STAMP`)."""
        return {"key": self.key, "taken_ns": self.taken_ns, "files": [{"path": p, "stat": st} for p, st in self.files]}


def stamp_from_row(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """The record form (:meth:`FileStamp.to_dict`) of a stamp carried as a row; None stays None.

    >>> s = FileStamp(".", "k", now_ns=1); s.files = [["a.json", [1, 2, 3, 4]], ["b.md", None]]
    >>> stamp_from_row(s.to_row()) == s.to_dict()
    True
    """
    if row is None:
        return None
    return {"key": row["key"], "taken_ns": row["taken_ns"], "files": [[f["path"], f["stat"]] for f in row["files"]]}


def stamp_holds(root: str | os.PathLike[str], stamp: dict[str, Any] | None, key: str) -> bool:
    """Whether every file ``stamp`` lists stats as it did, none racily: the document's content,
    and so its hash under ``key``, is what it was when stamped."""
    if not stamp or stamp.get("key") != key or not stamp.get("files"):
        return False
    trusted_before = int(stamp["taken_ns"]) - RACY_NS
    root = Path(root)
    for rel, then in stamp["files"]:
        if _stat(root / rel) != then:
            return False
        if then is not None and (then[1] >= trusted_before or then[2] >= trusted_before):
            return False
    return True
