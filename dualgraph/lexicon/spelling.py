"""A question's word in the catalogue's own spelling: "aluminum" where the catalogue writes
"aluminium", "color" for "colour", "fiber" for "fibre".

A catalogue word is a candidate for a question word when one edit turns one into the other (a
letter added, dropped or changed, or two neighbours swapped: Damerau-Levenshtein distance 1), both
have at least four letters, the pair is no singular and plural ("monitor", "monitors") and no
other catalogue word is as close. Lookups go through the catalogue words with one letter dropped
(the symmetric-delete index of SymSpell), so a question costs a few dictionary probes per word,
whatever the catalogue's size.

It is a candidate, not a correction: :meth:`QuestionVocabulary.in_catalog_spelling` writes the
question with it only when the catalogue's embedder also puts the two words close, and the
engine's trace names every word so read.

>>> s = Spellings(["aluminium", "carbon", "colour", "monitors", "steel"])
>>> s.catalog_form("aluminum"), s.catalog_form("Color"), s.catalog_form("monitor"), s.catalog_form("steal")
('aluminium', 'colour', None, 'steel')

"steal" shows why spelling alone is not enough: the vocabulary also asks the catalogue's embedder
whether the two words mean the same (MiniLM puts spelling variants at 0.83-0.97 cosine, "steal" and
"steel" at 0.28, "lighting" and "lightning" at 0.68, a slip such as "wirless" at 0.73: see
``tests/integration/test_catalog_spelling.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["Spellings", "candidates", "one_edit_apart", "respell"]

_MIN_LETTERS = 4
_WORD = re.compile(r"[^\W\d_]+")


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def one_edit_apart(a: str, b: str) -> bool:
    """Whether one insertion, deletion, substitution or swap of neighbours turns ``a`` into ``b``,
    the first letter kept and nothing added at the end: spellings differ inside a word ("colour",
    "fibre"), while a new first letter ("pocket", "rocket") or a last one ("weigh", "weight") makes
    another word.

    >>> [one_edit_apart("fiber", x) for x in ("fibre", "fibr", "fiver", "fiber", "fjbre", "fibers", "piber")]
    [True, True, True, False, False, False, False]
    """
    if a == b or abs(len(a) - len(b)) > 1 or a[:1] != b[:1]:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_) - 1))


def _number_pair(a: str, b: str) -> bool:
    """Singular and plural of one word: the reader matches those already."""
    short, long_ = sorted((a, b), key=len)
    return long_ in (short + "s", short + "es") or (short.endswith("y") and long_ == short[:-1] + "ies")


class Spellings:
    """The catalogue's words (lower case, four letters or more), indexed by their one-letter deletions."""

    def __init__(self, words: Iterable[str]) -> None:
        self._words = frozenset(w.casefold() for w in words if len(w) >= _MIN_LETTERS and _WORD.fullmatch(w))
        self._by_delete: dict[str, set[str]] = {}
        for w in self._words:
            for key in (w, *_deletes(w)):
                self._by_delete.setdefault(key, set()).add(w)

    def __len__(self) -> int:
        return len(self._words)

    def catalog_form(self, word: str) -> str | None:
        """The one catalogue word a single edit away from ``word`` (itself not a catalogue word), else None."""
        w = word.casefold()
        if len(w) < _MIN_LETTERS or w in self._words or not _WORD.fullmatch(w):
            return None
        found = set(self._by_delete.get(w, ()))
        for key in _deletes(w):
            found |= self._by_delete.get(key, set())
        near = {c for c in found if one_edit_apart(w, c) and not _number_pair(w, c)}
        return near.pop() if len(near) == 1 else None


def _cased_like(word: str, model: str) -> str:
    if word.isupper():
        return model.upper()
    return model[:1].upper() + model[1:] if word[:1].isupper() else model


def candidates(q: str, spellings: Spellings, *, keep: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """The (word as asked, catalogue word) pairs of ``q`` one edit apart; words in ``keep`` (the
    catalogue's names, general English the reader knows) are never candidates.

    >>> candidates("Which Aluminum bikes steal the show?", Spellings(["aluminium", "steel"]))
    [('Aluminum', 'aluminium'), ('steal', 'steel')]
    """
    if not len(spellings):
        return []
    out = []
    for word in _WORD.findall(q):
        if word.casefold() not in keep and (form := spellings.catalog_form(word)) is not None:
            out.append((word, form))
    return out


def respell(q: str, accepted: list[tuple[str, str]]) -> str:
    """``q`` with each accepted (asked, catalogue) pair's word written as the catalogue writes it.

    >>> respell("Which Aluminum bikes steal the show?", [("Aluminum", "aluminium")])
    'Which Aluminium bikes steal the show?'
    """
    forms = dict(accepted)
    return _WORD.sub(lambda m: _cased_like(m.group(), forms[m.group()]) if m.group() in forms else m.group(), q)
