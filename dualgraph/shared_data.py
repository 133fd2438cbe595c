"""Where the public data sets lie, and how to read one value out of them.

Data taken from public data sets is never copied into the repository. It lies in one
read-only folder outside the checkout, ``<repository root>/../shared/data`` by default
(in CI too); the environment variable ``DUALGRAPH_SHARED_DATA`` names another folder
(a path that does not exist stands for "no shared data", which is how the fallbacks are
tested). Tests, benches and scripts find it here instead of each computing it; the
pipeline itself never reads it.

Hand labels for real strings do not copy the strings either: they hold a *reference*
(:func:`resolve`), a dict naming where the string lies:

- ``file``: the path relative to the shared data folder;
- a CSV file (comma or, when the header line holds a tab, tab separated; UTF-8, a
  byte-order mark allowed): ``row``, the data record's number counted from 1 after the
  header (as :class:`csv.reader` reads the file, so a quoted line break stays inside its
  cell), and ``column``, the header's name;
- an NDJSON file: ``line``, counted from 1, and ``key``, the list of keys leading from
  the line's object to the string (``["attrs", "Display diagonal"]``);
- optional ``span``: ``[start, end]``, character offsets when the string is a part of
  the cell (``cell[start:end]``), for instance the ``value:"..."`` of an Amazon
  attribute candidate or a phrase inside a bullet text;
- optional ``unescape``: ``true`` when the cut text is written with backslash escapes
  (Amazon's ``value:"33\\"l x 11.7\\"w"``): ``\\"`` reads as ``"`` and ``\\\\`` as ``\\``.

Run ``python -m dualgraph.shared_data [PATH]`` to print the folder (or PATH inside it);
it exits with status 1 when that is absent, so shell scripts can branch on it.
"""

from __future__ import annotations

import csv
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

ENV = "DUALGRAPH_SHARED_DATA"
"""Environment variable naming the shared data folder (overrides the default)."""

_BACKSLASH_ESCAPE = re.compile(r'\\(["\\])')
_PACKAGE = Path(__file__).resolve().parent


def repo_root() -> Path:
    """The checkout this package was loaded from (an editable install), else the current directory."""
    root = _PACKAGE.parent
    return root if (root / "pyproject.toml").is_file() else Path.cwd()


def shared_data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The shared data folder: ``$DUALGRAPH_SHARED_DATA``, else ``<repo root>/../shared/data``.

    The path is returned whether or not it exists; see :func:`missing`.

    >>> shared_data_dir({ENV: "/data/sets"}).as_posix()
    '/data/sets'
    >>> shared_data_dir({}).parts[-2:]
    ('shared', 'data')
    """
    env = os.environ if environ is None else environ
    if value := env.get(ENV, "").strip():
        return Path(value).expanduser()
    return repo_root().parent / "shared" / "data"


def missing(paths: Iterable[str] = (), environ: Mapping[str, str] | None = None) -> str | None:
    """Why the shared data (or one of ``paths`` inside it) cannot be read, or ``None`` when all are there.

    The text suits a test's skip reason.

    >>> print(missing(["a.csv"], {ENV: "/nonexistent"}))
    shared data folder /nonexistent is absent (set DUALGRAPH_SHARED_DATA or place the public data sets at ../shared/data beside the checkout)
    """
    root = shared_data_dir(environ)
    if not root.is_dir():
        return (
            f"shared data folder {root} is absent "
            f"(set {ENV} or place the public data sets at ../shared/data beside the checkout)"
        )
    absent = [p for p in paths if not (root / p).exists()]
    if absent:
        return f"{', '.join(absent)} absent from the shared data folder {root}"
    return None


@lru_cache(maxsize=32)
def _csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        first = f.readline()
        f.seek(0)
        reader = csv.reader(f, delimiter="\t" if "\t" in first else ",")
        header = next(reader)
        return header, list(reader)


@lru_cache(maxsize=32)
def _ndjson_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def cell(ref: Mapping[str, Any], root: Path | None = None) -> str:
    """The whole cell (CSV) or string (NDJSON) a reference names, before any ``span``."""
    path = (shared_data_dir() if root is None else root) / ref["file"]
    if "line" in ref:
        value: Any = json.loads(_ndjson_lines(path)[ref["line"] - 1])
        for key in ref["key"]:
            value = value[key]
        if not isinstance(value, str):
            raise ValueError(f"{ref}: not a string but {value!r}")
        return value
    header, rows = _csv_rows(path)
    if ref["row"] < 1:
        raise ValueError(f"{ref}: rows count from 1")
    row = rows[ref["row"] - 1]
    return row[header.index(ref["column"])]


def resolve(ref: Mapping[str, Any], root: Path | None = None) -> str:
    """The string a reference names (see the module's docstring for its fields)."""
    text = cell(ref, root)
    if span := ref.get("span"):
        start, end = span
        if not 0 <= start < end <= len(text):
            raise ValueError(f"{ref}: span outside the cell of {len(text)} characters")
        text = text[start:end]
    if ref.get("unescape"):
        text = _BACKSLASH_ESCAPE.sub(r"\1", text)
    return text


def with_strings(label: Mapping[str, Any], root: Path | None = None) -> dict[str, Any]:
    """A hand label with its real string filled in: ``value`` read from its ``ref``, and the
    ``text`` of each of its ``parts`` cut from that value by the part's ``at`` spans
    (``[[start, end], ...]``, joined; two spans where a list shares its unit).

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "t.csv").write_text('band\\n"100,1000 Mbit/s"\\n', encoding="utf-8")
    >>> label = {"ref": {"file": "t.csv", "row": 1, "column": "band"},
    ...          "parts": [{"at": [[0, 3], [8, 15]], "q": None}, {"at": [[4, 15]], "q": None}]}
    >>> rec = with_strings(label, root)
    >>> rec["value"], [p["text"] for p in rec["parts"]]
    ('100,1000 Mbit/s', ['100 Mbit/s', '1000 Mbit/s'])
    """
    value = resolve(label["ref"], root)
    out = {**label, "value": value}
    if "parts" in label:
        out["parts"] = [
            {**{k: v for k, v in part.items() if k != "at"}, "text": "".join(value[a:b] for a, b in part["at"])}
            for part in label["parts"]
        ]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = shared_data_dir() / args[0] if args else shared_data_dir()
    print(path)
    return 0 if path.exists() else 1


if __name__ == "__main__":
    raise SystemExit(main())
