"""Which entity names each chunk spells, kept between index runs.

Every chunk is a candidate page for every entity name it spells (:func:`chunk_pages`), so each
run used to read every word of every chunk against the whole vocabulary: 8 s of a 40-second
re-index of a 10,000-product catalog. The names a chunk spells change only when its text does
or the vocabulary does, so a run keeps, per chunk, its text's hash, the names found with where
they start, and its folded words run together (:func:`~dualgraph.tkg.polarity.read_names`).
Next time an unchanged chunk drops the names that left the vocabulary and is read again only
for names that joined it and are part of its folded words; the result is what a full read gives.

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
from dualgraph.tkg.polarity import read_names

__all__ = ["PageHits"]


class PageHits:
    """Names (phrase keys) each chunk spells, with the word where each first starts.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "hits.json"
    >>> hits = PageHits("v1")
    >>> hits.spelled("c1", "It has NFC and a 3.5 mm jack.", {"nfc": 1, "35mmjack": 2})
    ['nfc', '35mmjack']
    >>> hits.save(path, {"c1"}, hits.vocabulary_now)
    >>> again = PageHits.load(path, "v1")  # the next run: "35mmjack" left, "it" and "gps" joined
    >>> again.spelled("c1", "It has NFC and a 3.5 mm jack.", {"nfc": 1, "it": 3, "gps": 4}), again.reread
    (['it', 'nfc'], 1)
    """

    def __init__(self, version: str) -> None:
        self.version = version
        self.vocabulary: set[str] | None = None  # the keys the saved hits were read against
        # chunk id -> (text hash, folded words, [(key, first word index)])
        self.chunks: dict[str, tuple[str, str, list[tuple[str, int]]]] = {}
        self._new: set[str] | None = None
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
            hits.chunks = {c: (h, f, [(k, i) for k, i in found]) for c, (h, f, found) in data["chunks"].items()}
        return hits

    @property
    def vocabulary_now(self) -> set[str]:
        """The keys this run read chunks against (none before the first :meth:`spelled`)."""
        return self._now or set()

    def spelled(self, chunk_id: str, text: str, keyed: Mapping[str, Any]) -> list[str]:
        """The keys of ``keyed`` that ``text`` spells, in order of first appearance, as
        :func:`~dualgraph.tkg.polarity.name_spans` gives them; remembered for the next run."""
        if self._now is None:
            self._now = set(keyed)
            old = self.vocabulary if self.vocabulary is not None else set()
            self._new = {k for k in keyed if k not in old}
        digest = short_hash(text, length=16)
        saved = self.chunks.get(chunk_id)
        if saved is not None and saved[0] == digest and self.vocabulary is not None:
            _, folded, kept = saved
            found = [(k, i) for k, i in kept if k in keyed]
            maybe = {k for k in self._new or () if k in folded}
            if maybe:
                found = sorted(found + read_names(text, maybe)[0], key=lambda x: x[1])
                self.reread += 1
            self.kept += 1
        else:
            found, folded = read_names(text, keyed)
            self.read += 1
        self.chunks[chunk_id] = (digest, folded, found)
        return [k for k, _ in found]

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
