"""Whether a catalogue records an earlier price, and the general words for a cut from it.

Shops keep the earlier price as an entry of its own ("Previous price: SR 2,375", "RRP", "List
price", "Compare at price"). Which entry that is comes from the catalogue: a money amount whose
entry's name holds a word for an earlier price (``price_before_words`` in
:file:`dualgraph/lexicon/general_words.yaml`). Where one exists, the cut from it to the price now is
a measure of the catalogue like any other ("the biggest discount"); the reader's SPARQL for it is in
:mod:`dualgraph.query.ground.price_cut`.

>>> from dualgraph.lexicon.pattern import Pattern
>>> was = Pattern("w", "spec_numeric", "t", "", entry="Previous price", dimension="currency", entry_iri="e:w", count=5)
>>> size = Pattern("s", "spec_numeric", "t", "", entry="Width", dimension="length", entry_iri="e:s", count=9)
>>> earlier_price_entry([size, was]).entry, earlier_price_entry([size]) is None
('Previous price', True)
>>> says_price_cut("discounted"), says_price_cut("on sale"), says_price_cut("for sale")
(True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.pattern import Pattern

__all__ = ["PRICE_CUT", "cut_nouns", "earlier_price_entry", "says_price_cut"]

PRICE_CUT = "price cut"
"""The attribute the reader names the cut by ("How much do I save on X?"); one of the cut words."""


def says_price_cut(phrase: str) -> bool:
    """Whether ``phrase`` is one of the general words for a price cut."""
    return " ".join(phrase.casefold().split()) in general_words("price_cut_words")


def cut_nouns() -> frozenset[str]:
    """The price-cut words that name the cut as an amount ("discount", "savings"), not a state
    ("discounted", "on sale")."""
    return frozenset(w for w in general_words("price_cut_words") if not re.search(r"(?:ed|sale)$", w))


def earlier_price_entry(patterns: Iterable[Pattern]) -> Pattern | None:
    """The entry that records an earlier price of a product, most products first; None where the
    catalogue records none."""
    before = general_words("price_before_words")
    found = [
        p
        for p in patterns
        if p.kind == "spec_numeric"
        and p.dimension == "currency"
        and p.entry_iri
        and before & set(re.findall(r"[^\W\d_]+", f"{p.section or ''} {p.entry or ''}".casefold()))
    ]
    found.sort(key=lambda p: (-p.count, p.pattern_id))
    return found[0] if found else None
