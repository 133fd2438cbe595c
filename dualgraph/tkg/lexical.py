"""BM25 over short texts (chunks, or entity names + descriptions), with catalog-aware tokens.

On a phone catalog, answers hinge on exact tokens ("5G", "120Hz", "IP68", model
numbers), and plain BM25 beat MiniLM there (ARCHITECTURE principle 9). Generic
tokenisers break these: bm25s's default drops one-character tokens and splits "Wi-Fi"
into two. :func:`tokenize` keeps a compound whole and also emits its parts and its
joined form, so "Wi-Fi", "WiFi" and "wi fi" meet; a number followed by a unit word is
glued ("120 Hz" → "120hz") so it meets "120Hz".

>>> tokenize("Galaxy S24+ has Wi-Fi 6E, a 120 Hz display and IP68")
['galaxy', 's24+', 'wi-fi', 'wi', 'fi', 'wifi', '6e', '120hz', 'display', 'ip68']
>>> index = LexicalIndex.build(["p1", "p2"], ["5G phone, IP68", "4G phone with S Pen"])
>>> [[hit[0] for hit in hits] for hits in index.search(["which one is 5G?", "s pen"], k=2)]
[['p1'], ['p2']]
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

import bm25s
import numpy as np

from dualgraph.stores.vector import Hit, IndexMismatchError, id_ranks, top_hits

TOKENIZER_VERSION = 1
META_FILE = "lexical.json"

# Question and function words that carry no catalog meaning. Kept short on purpose:
# "no", "not", single letters other than "a"/"i", and digits all stay.
STOPWORDS = frozenset(
    "a an and are as at be been by can could do does for from had has have how i if in into is it its "
    "me my of on or our so such than that the their them then there these they this those to was were "
    "what when where which who why will with would you your".split()
)

# Unit words glued to a preceding number, so "120 Hz" and "120Hz" give the same token.
UNITS = frozenset(
    "hz khz mhz ghz mah ah wh kwh w kw v mv gb tb mb kb gbps mbps mp mm cm nm g kg fps nits nit k p x "
    "inch inches ppi dpi db".split()
)

# A word, optionally joined to more words by - / . ' ’ (or by , between digits), then trailing +'s.
_TOKEN = re.compile(r"[^\W_]+(?:[-/.'’][^\W_]+|(?<=\d),\d[^\W_]*)*\+*")
# Where a compound splits into parts: any joiner, except a "." between digits (a decimal).
_SPLIT = re.compile(r"[-/'’,]|(?<!\d)\.|\.(?!\d)")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def tokenize(text: str) -> list[str]:
    """Case-folded tokens of ``text`` with catalog tokens kept whole (see the module doc).

    >>> tokenize("USB-C, 5,000 mAh; the phone's S Pen")
    ['usb-c', 'usb', 'c', 'usbc', '5,000mah', '5', '000mah', '5000mah', 'phone', 's', 'pen']
    """
    words = _TOKEN.findall(unicodedata.normalize("NFKC", text).casefold())
    words = [w[:-2] if w.endswith(("'s", "’s")) else w for w in words]
    glued: list[str] = []
    for word in words:
        if word in UNITS and glued and _NUMBER.fullmatch(glued[-1]):
            glued[-1] += word
        else:
            glued.append(word)
    out: list[str] = []
    for word in glued:
        parts = [p for p in _SPLIT.split(word.rstrip("+")) if p]
        if len(parts) <= 1:
            if word not in STOPWORDS:
                out.append(word)
            continue
        out.append(word)
        out.extend(p for p in parts if p not in STOPWORDS)
        out.append("".join(parts))
    return out


class LexicalIndex:
    """BM25 (bm25s, Lucene variant) over texts under string ids.

    Built once from the whole corpus (BM25 statistics are corpus-wide); rebuild it to
    change the texts. Searches return only documents sharing at least one token with
    the query, best first, equal scores ordered by id.
    """

    def __init__(self, *, k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self._ids: list[str] = []
        self._bm25: bm25s.BM25 | None = None
        self._ranks: np.ndarray | None = None  # the ids' sorted places, for the tie-break (ids never change)

    @classmethod
    def build(cls, ids: list[str], texts: list[str], *, k1: float = 1.5, b: float = 0.75) -> LexicalIndex:
        """Index ``texts`` under ``ids`` (one each, ids unique)."""
        ids, texts = list(ids), list(texts)
        if len(ids) != len(texts):
            raise ValueError(f"{len(ids)} ids for {len(texts)} texts")
        if len(set(ids)) != len(ids):
            raise ValueError("ids must be unique")
        self = cls(k1=k1, b=b)
        self._ids = ids
        if ids:
            self._bm25 = bm25s.BM25(k1=k1, b=b)
            self._bm25.index([tokenize(t) for t in texts], show_progress=False)
        return self

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self) -> list[str]:
        return list(self._ids)

    def scores(self, query: str) -> np.ndarray:
        """The BM25 score of every document for ``query``, in :meth:`ids` order.

        >>> (LexicalIndex.build(["a", "b"], ["IP68 phone", "phone"]).scores("ip68") > 0).tolist()
        [True, False]
        """
        # Each distinct token counts once: the expansions of one compound ("wi-fi", "wi",
        # "fi", "wifi") already weigh it several times.
        tokens = list(dict.fromkeys(tokenize(query)))
        if self._bm25 is None or not tokens:
            return np.zeros(len(self._ids), dtype=np.float32)
        return np.asarray(self._bm25.get_scores(tokens), dtype=np.float32)

    def search(self, queries: list[str], *, k: int) -> list[list[Hit]]:
        """Up to ``k`` hits per query (only documents with a positive score)."""
        return [self._top(self.scores(q), k) for q in queries]

    def _top(self, scores: np.ndarray, k: int) -> list[Hit]:
        if self._ranks is None:
            self._ranks = id_ranks(self._ids)
        return top_hits(scores, self._ids, k, positive=True, ranks=self._ranks)

    def save(self, directory: str | os.PathLike) -> None:
        """Write the bm25s files, then ``lexical.json`` (ids, parameters, tokeniser version,
        vocabulary size) atomically; :meth:`load` checks the two agree."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        if self._bm25 is not None:
            self._bm25.save(str(out), show_progress=False)
        vocab = len(self._bm25.vocab_dict) if self._bm25 is not None else 0
        meta = {"tokenizer": TOKENIZER_VERSION, "k1": self.k1, "b": self.b, "vocab": vocab, "ids": self._ids}
        tmp = out / f".{META_FILE}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, out / META_FILE)

    @classmethod
    def load(cls, directory: str | os.PathLike) -> LexicalIndex:
        """Read an index written by :meth:`save`; raises if its files disagree."""
        src = Path(directory)
        meta = json.loads((src / META_FILE).read_text(encoding="utf-8"))
        if meta["tokenizer"] != TOKENIZER_VERSION:
            raise IndexMismatchError(
                f"{src / META_FILE} was built with tokenizer v{meta['tokenizer']}, "
                f"this is v{TOKENIZER_VERSION}; rebuild it"
            )
        self = cls(k1=meta["k1"], b=meta["b"])
        self._ids = list(meta["ids"])
        if self._ids:
            self._bm25 = bm25s.BM25.load(str(src), show_progress=False)
            docs, vocab = int(self._bm25.scores["num_docs"]), len(self._bm25.vocab_dict)
            if docs != len(self._ids) or vocab != meta["vocab"]:
                raise IndexMismatchError(
                    f"the bm25s files in {src} hold {docs} documents and {vocab} terms; {META_FILE} "
                    f"lists {len(self._ids)} ids and {meta['vocab']} terms"
                )
        return self
