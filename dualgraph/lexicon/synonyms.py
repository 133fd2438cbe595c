"""Which words of a question mean which words of the catalog, read from the catalog itself.

A question says "screen" where the catalog writes "Display", "storage" where it writes
"Memory", "selfie" where it writes "Front". No word list of any product domain says so here:

* **general English** (``general_synonyms.yaml``): abbreviations and dictionary synonyms that hold
  in any catalog ("CPU" = processor, "screen" = display), each with the reason it is there;
* **mined** (:mod:`dualgraph.lexicon.mining`): page words the catalog's own pages put beside
  the spec values of an entry, and the principal variant of an attribute ("the main camera");
* **similar**: the catalog's own vocabulary (the words of its section, entry and label names)
  is embedded once with the index's embedder (MiniLM); a question word the catalog does not use
  means the other catalog words whose cosine to it reaches :data:`MIN_COSINE` (at most
  :data:`MAX_SYNONYMS`, best first).

>>> import numpy as np
>>> def toy(texts):  # three meanings, one axis each: enough for an offline example
...     rows = np.array([[any(x in t for x in g.split()) for g in ("screen display", "memory storage", "camera")]
...                      + [1.0] for t in texts], float)
...     return rows / np.linalg.norm(rows, axis=1, keepdims=True)
>>> lex = CatalogLexicon(["Display", "Memory", "Camera", "Front camera"], embed=toy, min_cosine=0.9)
>>> lex.synonyms("screen"), lex.synonyms("display")
(['display'], [])
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from importlib import resources

import numpy as np
import yaml

from dualgraph.lexicon.english import agent_nouns
from dualgraph.lexicon.mining import Variants

__all__ = [
    "MAX_SYNONYMS",
    "MIN_COSINE",
    "CatalogLexicon",
    "doer_nouns",
    "general_synonyms",
    "line_words",
    "principal_words",
]

MIN_COSINE = 0.63
"""Measured on the raw Smartprix vocabulary (all-MiniLM-L6-v2): the pairs that mean the same sit at
0.65 and above (screen ~ display, storage ~ memory, cheap ~ price, RAM ~ memory, speed ~ fast),
the misleading ones up to 0.61 (rate ~ rating 0.61, rate ~ price 0.54, processor ~ core 0.57,
main ~ front 0.50). At 0.5 the Smartprix raw score fell from 0.950 to 0.906 ("refresh rate"
read as the price)."""
MAX_SYNONYMS = 3

Embed = Callable[[list[str]], np.ndarray]


@functools.cache
def _general() -> tuple[dict[str, list[str]], frozenset[str], frozenset[str]]:
    raw = yaml.safe_load(resources.files("dualgraph.lexicon").joinpath("general_synonyms.yaml").read_text("utf-8"))
    syn = {str(k).casefold(): [str(w).casefold() for w in v["words"]] for k, v in raw["synonyms"].items()}
    return syn, frozenset(str(w).casefold() for w in raw["principal"]), frozenset(raw["line_words"])


def general_synonyms(word: str) -> list[str]:
    """The general-English synonyms of ``word`` (``general_synonyms.yaml``).

    >>> general_synonyms("cpu"), general_synonyms("inbuilt")
    (['processor'], [])
    """
    return _general()[0].get(word.casefold(), [])


def doer_nouns(verb: str) -> tuple[str, ...]:
    """Whoever does what ``verb`` says, by English's agent nouns and their general synonyms, most
    usual first ("made": maker, …, manufacturer, producer, brand; see :func:`~dualgraph.lexicon.english.agent_nouns`).

    >>> doer_nouns("designed")[0], "manufacturer" in doer_nouns("made"), doer_nouns("is")
    ('designer', True, ())
    """
    nouns = agent_nouns(verb)
    return tuple(dict.fromkeys([*nouns, *(s for n in nouns for s in general_synonyms(n))]))


def synonym_words() -> frozenset[str]:
    """Every word ``general_synonyms.yaml`` gives synonyms for ("screen", "selfie", "cell", …)."""
    return frozenset(_general()[0])


def line_words() -> frozenset[str]:
    """Words that follow a name to say it names a line of products ("the Y series", "Reno models")."""
    return _general()[2]


def principal_words() -> frozenset[str]:
    """Words that ask for the principal variant of an attribute ("main", "primary")."""
    return _general()[1]


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.casefold())


class CatalogLexicon:
    """Synonyms of one catalog's vocabulary (see the module notes).

    ``names``: the catalog's section, entry and label names; ``embed``: texts -> L2-normalised
    rows (None: no similar words, only the catalog's own words match); ``mined``: page words ->
    catalog words read from the catalog's pages; ``variants``: the variant structure of its numeric
    attributes (both from :mod:`~dualgraph.lexicon.mining`)."""

    def __init__(
        self,
        names: Iterable[str],
        *,
        embed: Embed | None = None,
        min_cosine: float = MIN_COSINE,
        mined: Mapping[str, list[str]] | None = None,
        variants: Variants | None = None,
    ) -> None:
        names = [n for n in dict.fromkeys(names) if n and n.strip()]
        self.mined = dict(mined or {})
        self.variants = variants or Variants()
        self.words = sorted({w for n in names for w in _tokens(n) if len(w) > 1})
        self.embed = embed
        self.min_cosine = min_cosine
        self._vectors: np.ndarray | None = None
        self._cache: dict[str, list[str]] = {}

    def prepare(self) -> None:
        """Embed the catalog's words now (once per index) rather than for the first question that asks."""
        if self.embed is not None and self.words and self._vectors is None:
            self._vectors = self.embed(self.words)

    def synonyms(self, word: str) -> list[str]:
        """Other catalog words that mean ``word``: read from its pages, then similar by MiniLM."""
        word = word.casefold()
        return list(dict.fromkeys([*self.mined.get(word, ()), *self.similar(word)]))

    def similar(self, word: str) -> list[str]:
        """Other catalog words MiniLM puts close to ``word`` ("storage" -> "memory" where a catalog uses both)."""
        word = word.casefold()
        if word in self._cache:
            return self._cache[word]
        out: list[str] = []
        if self.embed is not None and self.words and word.isalpha() and len(word) > 1:
            if self._vectors is None:
                self._vectors = self.embed(self.words)
            cos = self._vectors @ self.embed([word])[0]
            best = [i for i in np.argsort(-cos) if self.words[i] != word][:MAX_SYNONYMS]
            out = [self.words[i] for i in best if cos[i] >= self.min_cosine]
        self._cache[word] = out
        return out
