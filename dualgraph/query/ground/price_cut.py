"""A price cut in SPARQL: "discounted", "on sale", "reduced" as a price now below the one the
catalogue records as earlier (:mod:`dualgraph.lexicon.earlier_price` finds that entry), and the
cut itself as a value ("How much do I save on X?", "the biggest discount"). A catalogue without
such an entry has no evidence of a cut, and the phrase goes on to its own features and pages.
"""

from __future__ import annotations

from dualgraph.lexicon.earlier_price import earlier_price_entry, says_price_cut
from dualgraph.lexicon.pattern import Pattern

__all__ = ["cut_amount_snippet", "cut_snippet", "earlier_price_entry", "says_price_cut"]


def _priced_pair(p: Pattern, was: str) -> str:
    # the earlier amount ``was`` and the price now ({v}_now), in one currency
    return (
        f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{p.entry_iri}> ; skg:hasQuantity {{s}}_q . "
        f"{{s}}_q skg:hasNumericValue {was} ; skg:hasUnit {{v}}_cur . "
        "?p skg:hasPrice {v}_now ; skg:hasCurrency {v}_cur ."
    )


def cut_amount_snippet(p: Pattern) -> str:
    """The cut itself as the value ``{v}``: ``p``'s earlier price less the price now ("How much do
    I save on X?", "the biggest discount"); negative where the price went up."""
    return _priced_pair(p, "{v}_was") + " BIND({v}_was - {v}_now AS {v})"


def cut_snippet(p: Pattern, *, negated: bool = False) -> str:
    """The products whose price now is below ``p``'s earlier price in the same currency (negated:
    the others). Placeholders ``{s}``/``{v}`` as in every pattern snippet.

    >>> print(cut_snippet(Pattern("w", "spec_numeric", "t", "", entry_iri="e:w")))
    ?p skg:hasSpec {s} . {s} skg:inEntry <e:w> ; skg:hasQuantity {s}_q . {s}_q skg:hasNumericValue {v} ; skg:hasUnit {v}_cur . ?p skg:hasPrice {v}_now ; skg:hasCurrency {v}_cur . FILTER({v} > {v}_now)
    """
    body = _priced_pair(p, "{v}") + " FILTER({v} > {v}_now)"
    # a MINUS needs products to take from: alone in a sub-select it would take from nothing
    return f"?p a skgt:Product . MINUS {{ {body} }}" if negated else body
