"""What a number measures when the parser found no attribute for it: the words right after it.

"a 1 TB SSD": the parser reads "1 TB" and leaves "SSD" as an unknown name, which would fail as
a product; "at least 8 cores": no attribute and no name. Either way the following words are the
grounder's hint for the number's entry.

>>> attr_hint("phones with at least 8 cores under 20k", 22)
'cores'
"""

from __future__ import annotations

import re
from typing import Any

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.read.model import NumericConstraint
from dualgraph.query.read.superlative import VERB_ATTRS

__all__ = ["attr_hint", "measure_words", "verb_before"]

# grammar and price words; a category word after a number is caught by the caller's vocabulary
_HINT_STOP = general_words("function_words") | general_words("price_words")


def measure_words(
    question: str, entities: list[Any], constraints: list[Any], trace: list[str]
) -> tuple[list[Any], dict[int, str]]:
    """The ``entities`` less each unknown word right after a number with a unit and no attribute,
    and those words by the ``id`` of their number's constraint."""
    entities = list(entities)
    hints: dict[int, str] = {}
    for c in constraints:
        if isinstance(c, NumericConstraint) and not c.attribute and c.unit:
            nxt = [
                e
                for e in entities
                if e.kind == "unknown" and e.span.start > c.span.end and not question[c.span.end : e.span.start].strip()
            ]
            if nxt:
                entities.remove(nxt[0])
                hints[id(c)] = nxt[0].phrase
                trace.append(f"{nxt[0].phrase!r} after {c.span.text!r}: what it measures, not a name")
    return entities, hints


def attr_hint(q: str, end: int) -> str:
    """Words right after a number ("at least 8 *cores*"), when the parser found no attribute."""
    words = []
    for w in re.findall(r"[A-Za-z][\w-]*|[^\sA-Za-z]", q[end:])[:4]:
        if not re.match(r"[A-Za-z]", w) or w.casefold() in _HINT_STOP or current().product_nouns.fullmatch(w):
            break
        words.append(w)
    return " ".join(words[:3])


# a comparison word between the verb and its number ("weighs under 1 kg", "holds at least 26 ft³")
_BOUND = (
    r"(?:(?:at\s+(?:least|most)|under|over|below|above|(?:no\s+)?(?:more|less|fewer)\s+than|up\s+to|about|around"
    r"|roughly|nearly|almost|exactly|just|only|barely|a\s+(?:bit|little)\s+(?:more|less)\s+than)\s+)?"
)


def verb_before(q: str, start: int) -> str:
    """The attribute a verb of measure right before a number names ("*weighs* under 1 kg" → weight,
    "*holds* at least 26 cubic feet" → capacity), from the general verbs of
    :data:`~dualgraph.query.read.superlative.VERB_ATTRS`; "" when no such verb is there.

    >>> verb_before("fridges that hold at least 26 cubic feet", 18), verb_before("cameras under 1 kg", 8)
    ('capacity', '')
    """
    before = q[max(0, start - 60) : start]
    for pat, attr in VERB_ATTRS:
        if re.search(rf"\b(?:{pat})\s+{_BOUND}$", before, re.I):
            return attr
    return ""
