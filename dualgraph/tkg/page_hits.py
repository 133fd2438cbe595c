"""Which entity names each chunk spells, kept between index runs.

Every chunk is a candidate page for every entity name it spells (:func:`chunk_pages`), so each
run used to read every word of every chunk against the whole vocabulary: 8 s of a 40-second
re-index of a 10,000-product catalog. The names a chunk spells change only when its text does
or the vocabulary does, so a run keeps, per chunk, its text's hash and the names found with
where they start. Next time an unchanged chunk drops the names that left the vocabulary and
is read again only for names that joined it, and only when it holds the start of one
(:func:`~dualgraph.tkg.polarity.name_probe`); the result is what a full read would give.

The file is tied to the reading code (:func:`~dualgraph.tkg.text_features.reading_version`):
new code reads everything again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dualgraph.skg.names import short_hash
from dualgraph.tkg.polarity import name_probe, name_spans

__all__ = ["PageHits"]


class PageHits:
    """Names (phrase keys) each chunk spells, with the word where each first starts.

    >>> hits = PageHits("v1")
    >>> hits.spelled("c1", "It has NFC and a 3.5 mm jack.", {"nfc": 1, "35mmjack": 2})
    ['nfc', '35mmjack']
    >>> hits.vocabulary = {"nfc", "35mmjack"}
    >>> hits.spelled("c1", "It has NFC and a 3.5 mm jack.", {"nfc": 1, "it": 3}), hits.reread
    (['it', 'nfc'], 1)
    """

    def __init__(self, version: str) -> None:
        self.version = version
        self.vocabulary: set[str] | None = None  # the keys the saved hits were read against
        self.chunks: dict[str, tuple[str, list[tuple[str, int]]]] = {}
        self._probes: dict[str, str] = {}
        self._new: dict[str, Any] | None = None
        self._now: set[str] | None = None  # the keys of this run
        self.kept = self.reread = self.read = 0

    @classmethod
    def load(cls, path: Path, version: str) -> PageHits:
        """The hits saved at ``path`` if written by this ``version`` of the reading code, else none."""
        hits = cls(version)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return hits
        if data.get("version") == version:
            hits.vocabulary = set(data["vocabulary"])
            hits.chunks = {c: (h, [(k, i) for k, i in found]) for c, (h, found) in data["chunks"].items()}
        return hits

    def spelled(self, chunk_id: str, text: str, keyed: Mapping[str, Any]) -> list[str]:
        """The keys of ``keyed`` that ``text`` spells, in order of first appearance, as
        :func:`~dualgraph.tkg.polarity.name_spans` gives them; remembered for the next run."""
        if self._now is None:
            self._now = set(keyed)
        digest = short_hash(text, length=16)
        saved = self.chunks.get(chunk_id)
        if saved is not None and saved[0] == digest and self.vocabulary is not None:
            found = [(k, i) for k, i in saved[1] if k in keyed]
            new = self._joined(keyed)
            if new:
                low = text.lower().replace("’", "'")
                maybe = {k for k in new if self._probes[k] in low}
                if maybe:
                    found = sorted(found + name_spans(text, maybe), key=lambda x: x[1])
                    self.reread += 1
            self.kept += 1
        else:
            found = name_spans(text, keyed)
            self.read += 1
        self.chunks[chunk_id] = (digest, found)
        return [k for k, _ in found]

    @property
    def vocabulary_now(self) -> set[str]:
        """The keys this run read chunks against (none before the first :meth:`spelled`)."""
        return self._now or set()

    def _joined(self, keyed: Mapping[str, Any]) -> dict[str, Any]:
        # the keys not in the vocabulary the saved hits were read against, with their probes
        if self._new is None:
            old = self.vocabulary or set()
            self._new = {k: v for k, v in keyed.items() if k not in old}
            for k, v in self._new.items():
                self._probes[k] = name_probe(v[0] if isinstance(v, tuple) else k)
        return self._new

    def save(self, path: Path, chunk_ids: set[str], vocabulary: set[str]) -> None:
        """Write the hits of ``chunk_ids`` (the chunks of this run), read against ``vocabulary``."""
        data = {
            "version": self.version,
            "vocabulary": sorted(vocabulary),
            "chunks": {c: v for c, v in self.chunks.items() if c in chunk_ids},
        }
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
