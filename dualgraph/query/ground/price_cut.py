"""A price cut: "discounted", "on sale", "reduced" read as a price now below the one the catalogue
records as earlier.

Shops keep the earlier price as an entry of its own ("Previous price: SR 2,375", "RRP", "List
price", "Compare at price"). Which entry that is comes from the catalogue: a money amount whose
entry's name holds a word for an earlier price (``price_before_words`` in
:file:`dualgraph/lexicon/general_words.yaml`). A product is cut when that amount is above its price
now, in the same currency. A catalogue without such an entry has no evidence of a cut, and the
phrase goes on to the catalogue's own features and to the pages.

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

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.pattern import Pattern

__all__ = ["cut_snippet", "earlier_price_entry", "says_price_cut"]


def says_price_cut(phrase: str) -> bool:
    """Whether ``phrase`` is one of the general words for a price cut."""
    return " ".join(phrase.casefold().split()) in general_words("price_cut_words")


def earlier_price_entry(patterns: list[Pattern]) -> Pattern | None:
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


def cut_snippet(p: Pattern, *, negated: bool = False) -> str:
    """The products whose price now is below ``p``'s earlier price in the same currency (negated:
    the others). Placeholders ``{s}``/``{v}`` as in every pattern snippet.

    >>> print(cut_snippet(Pattern("w", "spec_numeric", "t", "", entry_iri="e:w")))
    ?p skg:hasSpec {s} . {s} skg:inEntry <e:w> ; skg:hasQuantity {s}_q . {s}_q skg:hasNumericValue {v} ; skg:hasUnit {v}_cur . ?p skg:hasPrice {v}_now ; skg:hasCurrency {v}_cur . FILTER({v} > {v}_now)
    """
    body = (
        f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{p.entry_iri}> ; skg:hasQuantity {{s}}_q . "
        "{s}_q skg:hasNumericValue {v} ; skg:hasUnit {v}_cur . "
        "?p skg:hasPrice {v}_now ; skg:hasCurrency {v}_cur . FILTER({v} > {v}_now)"
    )
    # a MINUS needs products to take from: alone in a sub-select it would take from nothing
    return f"?p a skgt:Product . MINUS {{ {body} }}" if negated else body
