"""Where things live inside an index directory."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class IndexLayout:
    root: Path

    @property
    def store(self) -> Path:
        return self.root / "skg" / "oxigraph"

    @property
    def shards(self) -> Path:
        return self.root / "skg" / "shards"

    @property
    def tkg(self) -> Path:
        return self.root / "tkg"

    @property
    def tkg_shards(self) -> Path:
        return self.root / "tkg" / "shards"

    @property
    def state(self) -> Path:
        return self.root / "state.json"

    @property
    def manifest(self) -> Path:
        return self.root / "manifest.json"

    @property
    def quarantine(self) -> Path:
        return self.root / "quarantine.jsonl"

    @property
    def kept_as_text(self) -> Path:
        return self.root / "values_kept_as_text.jsonl"

    def create(self) -> None:
        self.shards.mkdir(parents=True, exist_ok=True)
        self.tkg_shards.mkdir(parents=True, exist_ok=True)


def json_text(data: Any, **options: Any) -> str:
    """JSON that can always be written as UTF-8: readable text, or ASCII escapes when ``data``
    holds something UTF-8 cannot encode (a lone surrogate from a hostile input)."""
    text = json.dumps(data, ensure_ascii=False, **options)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data, ensure_ascii=True, **options)
    return text


def write_json_atomic(path: Path, data: Any, *, indent: int | None = 1) -> None:
    """``indent=None`` writes compact JSON, which Python's C encoder makes six times faster (a
    large index's state)."""
    tmp = path.with_name(path.name + ".tmp")
    layout = {"indent": indent} if indent is not None else {"separators": (",", ":")}
    tmp.write_text(json_text(data, sort_keys=True, **layout), encoding="utf-8")
    os.replace(tmp, path)


def write_jsonl_atomic(path: Path, rows: list[dict]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json_text(r, sort_keys=True) + "\n")
    os.replace(tmp, path)


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) so that a reader sees the old file or the new one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
