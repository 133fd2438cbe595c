"""Names the question leaves out: "anything but Sony, Panasonic or Fujifilm", "excluding Sony and
Panasonic", "any brand other than Canon", "not Sony", "Sony apart".

Each name of the list after (or, for "apart", before) such a word is marked ``negated``: it is
no product named and no scope the products must be in, but one they must not be in. General
English only; the list is the names joined by commas, "or", "and", "nor" right after the word.
"""

from __future__ import annotations

import re
from dataclasses import replace

from dualgraph.query.read.lists import joined
from dualgraph.query.read.model import EntityRef

__all__ = ["excluded_names"]

_NAMES = ("brand", "unknown", "range", "product")
# a word that leaves out what follows it ("anything but", "other than", "excluding", "not")
_BEFORE = re.compile(
    r"\b(?:(?:anything|everything|any\s+\w+|all)\s+but|but\s+not|except(?:\s+for)?|excluding|exclude|"
    r"other\s+than|apart\s+from|aside\s+from|besides|not\s+(?:from|by|made\s+by)|no|not|never)\s+(?:the\s+)?$",
    re.I,
)
# a word after the names that leaves them out ("Sony apart", "Canon excepted", "Sony aside")
_AFTER = re.compile(r"^\s+(?:apart|aside|excepted|excluded|not\s+included)\b", re.I)


def excluded_names(question: str, entities: list[EntityRef], trace: list[str]) -> list[EntityRef]:
    """``entities`` with the names a question leaves out marked ``negated`` (see the module).

    >>> from dualgraph.query.read.model import Span
    >>> q = "EVF; anything but Sony, Panasonic or Fujifilm."
    >>> es = [EntityRef(Span(q.index(w), q.index(w) + len(w), w), w) for w in ("Sony", "Panasonic", "Fujifilm")]
    >>> [e.negated for e in excluded_names(q, es, [])]
    [True, True, True]
    >>> q = "Which camera has the most megapixels, Sony apart?"
    >>> [e.negated for e in excluded_names(q, [EntityRef(Span(38, 42, "Sony"), "Sony")], [])]
    [True]
    >>> q = "Sony or Panasonic: which is lighter?"
    >>> [e.negated for e in excluded_names(q, [EntityRef(Span(0, 4, "Sony"), "Sony")], [])]
    [False]
    """
    names = sorted((e for e in entities if e.kind in _NAMES), key=lambda e: e.span.start)
    out: set[int] = set()
    for run in _runs(question, names):
        first, last = run[0], run[-1]
        if _BEFORE.search(question[max(0, first.span.start - 40) : first.span.start]) or _AFTER.match(
            question[last.span.end :]
        ):
            out.update(id(e) for e in run)
    if not out:
        return entities
    trace.append("names left out: " + ", ".join(repr(e.phrase) for e in entities if id(e) in out))
    return [replace(e, negated=True) if id(e) in out else e for e in entities]


def _runs(question: str, names: list[EntityRef]) -> list[list[EntityRef]]:
    """The names said as one list: side by side, joined by a comma, "and", "or", "nor" or "/"."""
    runs: list[list[EntityRef]] = []
    for e in names:
        if runs and joined(question[runs[-1][-1].span.end : e.span.start]):
            runs[-1].append(e)
        else:
            runs.append([e])
    return runs
