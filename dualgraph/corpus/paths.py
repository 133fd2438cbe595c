"""Paths named inside a dataset, confined to the dataset root and read within a size limit.

Metadata files say where a document's page and spec files are. A path such as
``../../etc/passwd``, an absolute path or a symlink leading out of the dataset would make
outside files searchable, so every such path is resolved (symlinks followed) and refused
unless it lands on a regular file inside the root.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class PathRefused(ValueError):
    """A dataset path that is not read; the message says why."""


class FileMissing(PathRefused):
    """The path is fine but nothing is there."""


def resolve_inside(root: Path, rel: str) -> Path:
    """The regular file ``rel`` names under ``root`` (an already resolved directory), or :class:`PathRefused`.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp()).resolve()
    >>> _ = (root / "a.md").write_text("x")
    >>> resolve_inside(root, "a.md").name
    'a.md'
    >>> for bad in ("../a.md", "/etc/hostname", ".", "b.md"):
    ...     try:
    ...         resolve_inside(root, bad)
    ...     except PathRefused as e:
    ...         print(type(e).__name__, "-", e)
    PathRefused - resolves outside the dataset root
    PathRefused - absolute path refused (metadata paths are relative to the dataset root)
    PathRefused - is a directory, not a file
    FileMissing - file is missing
    """
    if not rel or "\x00" in rel:
        raise PathRefused("empty or malformed path")
    if Path(rel).is_absolute():
        raise PathRefused("absolute path refused (metadata paths are relative to the dataset root)")
    try:
        full = (root / rel).resolve(strict=True)
    except FileNotFoundError:
        if not (root / rel).resolve().is_relative_to(root):
            raise PathRefused("resolves outside the dataset root") from None
        raise FileMissing("file is missing") from None
    except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop, before Python 3.13
        raise PathRefused(f"cannot resolve ({e})") from e
    if not full.is_relative_to(root):
        raise PathRefused("resolves outside the dataset root")
    if full.is_dir():
        raise PathRefused("is a directory, not a file")
    if not full.is_file():
        raise PathRefused("is not a regular file")
    return full


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of ``path``; :class:`PathRefused` when it holds more than ``limit`` bytes."""
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)  # not stat(): the file may grow between the two calls
    if len(data) > limit:
        raise PathRefused(f"file is larger than the limit of {limit:,} bytes")
    return data


def parse_json(data: bytes) -> Any:
    """JSON text (a UTF-8 byte-order mark allowed); ``ValueError`` with the reason when it is not usable.

    Nesting deeper than the interpreter's recursion limit is a ``ValueError`` here, not a
    ``RecursionError`` escaping from the reader; so are ``NaN`` and ``Infinity``.

    >>> parse_json(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: JSON nested too deeply to read
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text: {e}") from e
    try:
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None


def _not_json(token: str) -> Any:
    # Python's reader takes NaN and Infinity, which JSON does not have; taken, they become "nan" text.
    raise ValueError(f"{token} is not a JSON value")
