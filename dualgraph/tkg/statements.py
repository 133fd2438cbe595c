"""What the pages state, sentence by sentence, matched to a question's words by meaning.

Facts stated only in prose are often verb phrases that no Textual KG entity holds ("must be
fixed to the wall", "can be ordered online", "never ridden"), and a question words them its own
way ("anchored to the wall", "sold on the website"). The catalogue's own sentences are the
vocabulary here: a fact that sets products apart is stated on many pages in a few wordings, so
each distinct sentence is one candidate, its products the pages that state it.

A clause of the question is matched against the sentences by embedding cosine. The sentences
within :data:`MARGIN` of the best one (itself at least :data:`FLOOR`) are read as the fact's
wordings; each says the fact or its negation, read on the words it shares with the clause
(:func:`~dualgraph.tkg.polarity.feature_polarity`), else on its own first clause
(:func:`~dualgraph.tkg.polarity.negated`). The answer is the products whose pages state it with
the question's polarity. A page that says nothing about it is unknown, never "lacks".

A question reads the sentences that share a word stem with its clause, at most
:data:`MAX_CANDIDATES` (most shared stems first, then those stated on most pages), and the
:data:`MAX_CANDIDATES` sentences stated on most pages whatever their words; each is embedded once
per engine (and kept by text in the index's embedding cache): the cost follows the clause, not the
catalogue.

>>> class Toy:  # counts of three word stems: enough to show the mechanics offline
...     def embed(self, texts, *, stage="default"):
...         import numpy as np
...         rows = [[t.lower().count(w) for w in ("wall", "onlin", "websit")] for t in texts]
...         v = np.array(rows, dtype="float32") + 1e-3
...         return v / np.linalg.norm(v, axis=1, keepdims=True)
>>> pages = {"A": "Fix it to the wall. Sold online.", "B": "It must be fixed to the wall. Not sold online.",
...          "C": "Not sold online."}
>>> index = StatementIndex([(text, [p]) for p, text in pages.items()], Toy())
>>> m = index.match("sold online", negated=True)
>>> m.products, [(s.sentence, s.polarity) for s in m.said]
(['B', 'C'], [('Not sold online.', False), ('Sold online.', True)])
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dualgraph.lexicon.english import general_words
from dualgraph.tkg.polarity import clauses, feature_polarity, negated, sentences

__all__ = ["FLOOR", "MARGIN", "MAX_CANDIDATES", "Said", "StatementIndex", "StatementMatch", "split_sentences"]

FLOOR = 0.5
"""Cosine the best sentence must reach for any sentence to count as saying the clause."""
MARGIN = 0.15
"""Sentences this close to the best one are read as other wordings of the same fact."""
MAX_WORDINGS = 32
"""More sentences than this within the margin of the best say no one fact: no match."""
MAX_WORDS = 40
"""Longer runs of text are descriptions, not statements of one fact."""
MAX_CANDIDATES = 256
"""Sentences read per question: those sharing a word stem with the clause, most shared stems first."""
FIELD_VALUES = 5
"""A "Label: value" line whose label takes this many values across the pages is a spec field."""
STEM = 5
"""Letters of a word that make its stem ("stack" of "stacked" and "stackable")."""

# a feed that glued two sentences: "to prevent it from tipping over.May be completed with ..."
_GLUED = re.compile(r"(?<=[a-z])\.(?=[A-Z][a-z])")
# an article number or code before the sentence ("204.099.36 Choose whether ...")
_LEAD_CODE = re.compile(r"^(?:[\d.\-/]{6,}\s+)")
_WORD = re.compile(r"[^\W_]+")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_LABELLED = re.compile(r"^([^:]{1,40}):\s*(.+)$")


def split_sentences(text: str) -> list[str]:
    """The sentences of a page as statements: glued sentences parted, leading codes dropped.

    >>> split_sentences("204.099.36 Must be fixed to the wall.May be completed with a lid.\\nNot sold online.")
    ['Must be fixed to the wall.', 'May be completed with a lid.', 'Not sold online.']
    """
    out = []
    for sentence in sentences(_GLUED.sub(". ", text)):
        sentence = _LEAD_CODE.sub("", sentence).strip()
        if sentence:
            out.append(sentence)
    return out


def _stems(text: str, stop: frozenset[str]) -> set[str]:
    return {w[:STEM] for w in _WORD.findall(text.casefold()) if w not in stop and not w.isdigit()}


@dataclass(frozen=True, slots=True)
class Said:
    """One sentence read as a wording of the clause: ``polarity`` True = states it, False = its negation."""

    sentence: str
    similarity: float
    polarity: bool
    products: tuple[str, ...]


@dataclass(slots=True)
class StatementMatch:
    """The sentences that say the clause, and the products stating it with the asked polarity."""

    clause: str
    negated: bool
    best: float
    said: list[Said] = field(default_factory=list)
    products: list[str] = field(default_factory=list)
    left: int = 0
    """Sentences that shared a stem with the clause but were past :data:`MAX_CANDIDATES`."""


class StatementIndex:
    """Every distinct sentence of the pages with the products that state it.

    ``pages``: ``(text, products)`` pairs (a chunk's text and the products it is about);
    ``embedder``: any :class:`~dualgraph.models.base.Embedder` giving unit vectors.
    """

    def __init__(self, pages: Iterable[tuple[str, Iterable[str]]], embedder: Any) -> None:
        self.embedder = embedder
        self._stop = general_words("function_words")
        holders: dict[str, set[str]] = {}
        # one wording whatever its numbers ("so it is not a hardtail" after 143 or 155 mm of travel):
        # the first sentence read stands for its shape
        shown: dict[str, str] = {}
        field_values: dict[str, set[str]] = {}
        for text, products in pages:
            products = tuple(products)
            if not products:
                continue
            names = [p.casefold() for p in products if len(p) > 3]
            for sentence in split_sentences(text):
                folded = sentence.casefold()
                # a heading or caption naming its own product says nothing of the others
                if not 2 <= len(sentence.split()) <= MAX_WORDS or any(n in folded for n in names):
                    continue
                sentence = shown.setdefault(_NUMBER.sub("#", sentence), sentence)
                holders.setdefault(sentence, set()).update(products)
                # a label's values counted with their numbers masked: "Dual suspension: 140 mm …"
                # and "… 155 mm …" are one value of one label, a statement, not a spec field
                label = _LABELLED.match(sentence)
                if label:
                    field_values.setdefault(label.group(1).casefold(), set()).add(label.group(2).casefold())
        # "Brand: Orange", "City: Leeds": a label with many values is a spec field written out, not
        # a statement ("Poor condition: it is due a service" is one label with one value)
        fields = {k for k, v in field_values.items() if len(v) >= FIELD_VALUES}
        for sentence in list(holders):
            label = _LABELLED.match(sentence)
            if label and label.group(1).casefold() in fields:
                del holders[sentence]
        self.products = {s: tuple(sorted(ps)) for s, ps in holders.items()}
        self._by_stem: dict[str, list[str]] = {}
        for sentence in sorted(self.products):
            for stem in _stems(sentence, self._stop):
                self._by_stem.setdefault(stem, []).append(sentence)
        self._vectors: dict[str, np.ndarray] = {}  # the sentences embedded so far, by text
        stated = sorted(
            (s for s, ps in self.products.items() if len(ps) > 1), key=lambda s: (-len(self.products[s]), s)
        )
        self._most_stated = stated[:MAX_CANDIDATES]

    def __len__(self) -> int:
        return len(self.products)

    def _candidates(self, stems: set[str]) -> tuple[list[str], int]:
        """The sentences sharing a word stem with the clause, most shared stems first, then those
        stated on most pages: at most :data:`MAX_CANDIDATES`, and how many were left."""
        shared: dict[str, int] = {}
        for stem in sorted(stems):
            for sentence in self._by_stem.get(stem, ()):
                shared[sentence] = shared.get(sentence, 0) + 1
        ranked = sorted(shared, key=lambda s: (-shared[s], -len(self.products[s]), s))
        chosen = ranked[:MAX_CANDIDATES]
        # and the sentences stated on most pages, whatever their words: a catalogue's templated facts
        # ("Currency: zl" for "priced in Polish złoty")
        taken = set(chosen)
        return chosen + [s for s in self._most_stated if s not in taken], max(0, len(ranked) - MAX_CANDIDATES)

    def _embedded(self, sentences: list[str]) -> np.ndarray:
        new = [s for s in sentences if s not in self._vectors]
        if new:
            for s, v in zip(new, np.asarray(self.embedder.embed(new, stage="tkg.statements"), dtype=np.float32)):
                self._vectors[s] = v
        return np.stack([self._vectors[s] for s in sentences])

    def match(self, clause: str, *, negated: bool) -> StatementMatch | None:
        """The sentences saying ``clause`` (see the module docstring); None when none comes near.

        ``negated``: the question asks for the products where the clause does *not* hold."""
        stems = _stems(clause, self._stop)
        texts, left = self._candidates(stems) if stems else ([], 0)
        if not texts:
            return None
        query = np.asarray(self.embedder.embed([clause], stage="tkg.statements"), dtype=np.float32)[0]
        sims = self._embedded(texts) @ query
        best = float(sims.max())
        if best < FLOOR:
            return None
        out = StatementMatch(clause, negated, round(best, 3), left=left)
        words = [w for w in _WORD.findall(clause.casefold()) if w not in self._stop]
        for i in np.argsort(-sims, kind="stable"):
            if sims[i] < best - MARGIN:
                break
            sentence = texts[i]
            out.said.append(
                Said(sentence, round(float(sims[i]), 3), _polarity(sentence, words), self.products[sentence])
            )
        if len(out.said) > MAX_WORDINGS:
            return None  # many sentences about as near: the clause names no fact of its own
        wanted = not negated
        out.products = sorted({p for s in out.said if s.polarity is wanted for p in s.products})
        return out

    def polarities(self, phrase: str) -> dict[str, set[bool]]:
        """Per product, what its pages' sentences holding ``phrase`` as written say of it
        (True: has it, False: says it is not so); products whose sentences assert nothing are left out.

        >>> index = StatementIndex([("It is not a hardtail.", ["A"]), ("A light hardtail.", ["B"]),
        ...                         ("Free-standing: it need not be staked to the ground.", ["C"])], None)
        >>> sorted(index.polarities("hardtail").items()), index.polarities("ground")
        ([('A', {False}), ('B', {True})], {'C': {False}})
        """
        words = phrase.casefold().split()
        stems = [_stems(w, frozenset()) for w in words]
        # the sentences holding a stem of every word: looked up, not read whole
        pools = [{s for st in group for s in self._by_stem.get(st, ())} for group in stems if group]
        holding = set.intersection(*pools) if pools else set()
        out: dict[str, set[bool]] = {}
        for sentence in sorted(holding):
            products = self.products[sentence]
            folded = sentence.casefold()
            if not all(w in folded for w in words):
                continue
            said = _said_of(sentence, phrase)
            if said is None:
                continue
            for p in products:
                out.setdefault(p, set()).add(said)
        return out


def _said_of(sentence: str, phrase: str) -> bool | None:
    """What ``sentence`` says of ``phrase``: the cue nearest it, else (no cue reaches it: "it need
    not be staked to the ground") the negation of the clause holding it; None if no clause does."""
    said = feature_polarity(sentence, phrase)
    if said is not None:
        return said
    words = phrase.casefold().split()
    holding = [c for c in clauses(sentence) if all(w in c.casefold() for w in words)]
    return not negated(holding[0]) if holding else None


def _polarity(sentence: str, words: list[str]) -> bool:
    """Whether ``sentence`` states the clause of ``words`` (True) or its negation: on the first of
    the clause's words it holds, else on its own first clause.

    >>> _polarity("You can buy it on our website.", ["ordered", "website"])
    True
    >>> _polarity("This item cannot be purchased through the website.", ["ordered", "website"])
    False
    >>> _polarity("It is not sold online; buy it in the store.", ["ordered", "website"])
    False
    >>> _polarity("Brand new, never ridden.", ["ridden"]), _polarity("Brand new, never ridden.", ["brand", "new"])
    (False, True)
    >>> _polarity("Free-standing: it need not be staked to the ground.", ["anchored", "ground"])
    False
    """
    for word in words:
        said = _said_of(sentence, word)
        if said is not None:
            return said
    return not negated(sentence)
