"""The axes of sizes written as one value ("93.5 x 56 x 20 mm"), as numeric patterns of their own.

The converter stores such a value as one quantity with ``skg:hasDim1..3`` and no single number, so
no pattern of the index can answer "the thinnest camera" or "wider than 60 cm" from it. Here each
entry holding three-part lengths gets one numeric pattern per axis (width, height, depth by default;
the entry's own letters where its name gives them: "Size (W x D x H)"), read from the store once per
grounder: one grouped query over the three-part quantities, whatever the catalogue's size.
"""

from __future__ import annotations

import json
import re

from dualgraph.lexicon.english import extent_axes, extent_letters
from dualgraph.lexicon.pattern import Pattern, pattern_id

__all__ = ["axes_of", "extent_patterns"]

Q_EXTENTS = """
SELECT ?e (MIN(STR(?en)) AS ?entry) (MIN(STR(?sn)) AS ?section) ?u (COUNT(DISTINCT ?p) AS ?n)
       (MIN(?a) AS ?a0) (MAX(?a) AS ?a1) (MIN(?b) AS ?b0) (MAX(?b) AS ?b1) (MIN(?c) AS ?c0) (MAX(?c) AS ?c1)
WHERE { ?q skg:hasDim3 ?c ; skg:hasDim1 ?a ; skg:hasDim2 ?b ; skg:hasUnit ?u ; skg:hasDimension "length" .
        ?s skg:hasQuantity ?q ; skg:inEntry ?e . ?p skg:hasSpec ?s .
        ?e skg:hasName ?en ; skg:inSection/skg:hasName ?sn }
GROUP BY ?e ?u
"""
_LETTERS = re.compile(r"(?<![^\W\d_])([a-z])\s*[x×*]\s*([a-z])\s*[x×*]\s*([a-z])(?![^\W\d_])", re.I)


def axes_of(name: str) -> tuple[str, str, str]:
    """The axis each of a three-part size's numbers measures, from the entry's name when it spells
    them ("W x D x H"), else the general default.

    >>> axes_of("Dimensions"), axes_of("Size (W x D x H)"), axes_of("Packed size LxWxH")
    (('width', 'height', 'depth'), ('width', 'depth', 'height'), ('length', 'width', 'height'))
    """
    letters = extent_letters()
    m = _LETTERS.search(name)
    if m and all(x.casefold() in letters for x in m.groups()):
        named = tuple(letters[x.casefold()] for x in m.groups())
        if len(set(named)) == 3:
            return named  # type: ignore[return-value]
    a, b, c = extent_axes()
    return a, b, c


def extent_patterns(store) -> list[Pattern]:
    """One numeric pattern per axis of every entry holding three-part lengths (see the module)."""
    res = store.select(Q_EXTENTS)
    out: list[Pattern] = []
    for r in res["results"]["bindings"]:
        e, unit = r["e"]["value"], r["u"]["value"]
        entry, section, n = r["entry"]["value"], r["section"]["value"], int(r["n"]["value"])
        for i, axis in enumerate(axes_of(f"{section} {entry}"), start=1):
            x = "abc"[i - 1]  # the query's ?a0/?a1, ?b0/?b1, ?c0/?c1: each axis's least and greatest
            lo, hi = float(r[f"{x}0"]["value"]), float(r[f"{x}1"]["value"])
            out.append(
                Pattern(
                    pattern_id=pattern_id("spec_numeric", e, unit, "axis", axis),
                    kind="spec_numeric",
                    text=f"{section} › {entry} {axis}: a number in {unit}, from {lo:g} to {hi:g}",
                    sparql=(
                        f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{e}> ; skg:hasQuantity {{s}}_q . "
                        f"{{s}}_q skg:hasUnit {json.dumps(unit)} ; skg:hasDim{i} {{v}} ."
                    ),
                    name=axis,
                    section=section,
                    entry=entry,
                    entry_iri=e,
                    unit=unit,
                    dimension="length",
                    min=lo,
                    max=hi,
                    count=n,
                    label=axis,
                )
            )
    return out
