"""Conditions relative to a named product: "a bigger battery than the Nova Lite", "cheaper than
the X", "the same RAM as the Y".

The named product is then a reference, not the answer: its value on the attribute is read in
a subquery and every product is compared with it (the reference itself is never an answer).
A reference that names several variants (a range) is taken at its extreme in the comparison's
direction for "more/less than" (bigger than every variant of it) and at any variant for "same".

>>> q = "Which phones have a bigger battery than the Nova Lite?"
>>> relative_reference(q, q.index("Nova"), [])
('>', 'battery')
>>> q = "phones cheaper than the Orbit 7"
>>> relative_reference(q, q.index("Orbit"), [])
('<', 'price')
>>> q = "Which phones have the same RAM as the Orbit Flip7?"
>>> relative_reference(q, q.index("Orbit"), [])
('=', 'RAM')
>>> relative_reference("Is the Nova Lite cheaper than the Zenith Basic?", 7, []) is None
True
"""

from __future__ import annotations

import re

from dualgraph.lexicon.pattern import fill
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.read.numbers import attribute_label
from dualgraph.query.read.parse import comparative

__all__ = ["average_blocks", "average_reference", "relative_blocks", "relative_phrase", "relative_reference"]

_THAN = re.compile(r"\bthan\s+(?:that\s+of\s+|those\s+of\s+)?(?:the\s+|a\s+|an\s+)?$", re.I)
_SAME = re.compile(
    r"\b(?:the\s+)?same\s+(?P<attr>[\w-]+(?:\s+[\w-]+)?)\s+as\s+(?:that\s+of\s+)?(?:the\s+|a\s+|an\s+)?$", re.I
)
_AS_MUCH = re.compile(r"\bas\s+(?:much|many)\s+(?P<attr>[\w-]+(?:\s+[\w-]+)?)\s+as\s+(?:the\s+|a\s+|an\s+)?$", re.I)


def relative_reference(question: str, name_start: int, blocked: list[tuple[int, int]]) -> tuple[str, str] | None:
    """``(op, attribute)`` when the name starting at ``name_start`` is what the products are compared
    with ("… than the NAME", "same ATTR as NAME"); ``None`` otherwise."""
    found = relative_phrase(question, name_start, blocked)
    return found[:2] if found else None


def relative_phrase(question: str, name_start: int, blocked: list[tuple[int, int]]) -> tuple[str, str, int] | None:
    """:func:`relative_reference` and where its wording starts ("same RAM as", or the comparative's
    clause for "than"), so the words in it are not read as conditions of their own."""
    before = question[:name_start]
    if m := (_SAME.search(before) or _AS_MUCH.search(before)):
        a = current().attributes.search(m.group("attr"))
        attr = attribute_label(a.group(1)) if a else m.group("attr")
        return ("=" if m.re is _SAME else ">="), attr, m.start()
    if not _THAN.search(before):
        return None
    cmp = comparative(before, blocked)
    if cmp is None:
        return None
    direction, attr = cmp
    clause = max((m.end() for m in re.finditer(r"[,;?!]|\b(?:and|with|that|which|who)\b", before, re.I)), default=0)
    return (">" if direction == "max" else "<"), attr, clause


_THAN_AVERAGE = re.compile(r"\bthan\s+(?:the\s+|an\s+)?(?:average|mean)\b(?P<rest>(?:\s+[\w-]+){0,2})", re.I)
_ABOUT_AVERAGE = re.compile(r"\b(?P<side>above|below)[\s-]+(?:the\s+)?average\b(?P<rest>(?:\s+[\w-]+){0,2})", re.I)


def average_reference(question: str, blocked: list[tuple[int, int]]) -> tuple[str, str, int, int] | None:
    """``(op, attribute, start, end)`` when the products are compared with the average of the
    products in scope ("deeper than the average bookcase", "an above-average battery"), else None.

    >>> average_reference("Show me desks deeper than the average desk", [])[:2]
    ('>', 'depth')
    >>> average_reference("Which phones have an above-average battery?", [])[:2]
    ('>', 'battery')
    """
    if m := _THAN_AVERAGE.search(question):
        cmp = comparative(question[: m.start()] + " " * (len(question) - m.start()), blocked)
        if cmp is None:
            return None
        clause = max(
            (c.end() for c in re.finditer(r"[,;?!]|\b(?:and|with|that|which|who)\b", question[: m.start()], re.I)),
            default=0,
        )
        return (">" if cmp[0] == "max" else "<"), cmp[1], clause, m.end()
    if m := _ABOUT_AVERAGE.search(question):
        a = current().attributes.search(m.group("rest"))
        return (
            (">" if m.group("side").lower() == "above" else "<"),
            attribute_label(a.group(1)) if a else "",
            m.start(),
            m.end(),
        )
    return None


def average_blocks(op: str, snippet: str, scope: str) -> tuple[list[str], str]:
    """SPARQL blocks and the FILTER comparing ``?p`` (value ``?vrel``) with the mean over the products
    of ``scope`` (a pattern over ``?p``: the question's brands, categories) of the same attribute."""
    mine = fill(snippet, "?srel", "?vrel")
    theirs = fill(snippet.replace("?p ", "?ref "), "?sref", "?vref")
    within = re.sub(r"\?name\b", "?refname", re.sub(r"\?p\b", "?ref", scope))  # its own products and names
    mean = f"{{ SELECT (AVG(?vref) AS ?vmean) WHERE {{ ?ref a skgt:Product ; skg:hasName ?refname . {within} {theirs} }} }}"
    return [mine, mean], f"?vrel {op} ?vmean"


def relative_blocks(op: str, snippet: str, refs: list[str]) -> tuple[list[str], str]:
    """SPARQL blocks and the FILTER comparing ``?p`` (value ``?vrel``) with the reference products.

    ``snippet`` is the attribute's grounding over ``?p`` with ``{s}``/``{v}`` placeholders.
    """
    mine = fill(snippet, "?srel", "?vrel")
    theirs = fill(snippet.replace("?p ", "?ref "), "?sref", "?vref")
    agg = {">": "MAX", ">=": "MAX", "<": "MIN", "<=": "MIN"}.get(op)
    values = "VALUES ?ref { " + " ".join(f"<{r}>" for r in refs) + " }"
    if agg is None:  # same as any variant of the reference
        return [
            mine,
            values + " " + theirs,
            "FILTER(?p NOT IN (" + ", ".join(f"<{r}>" for r in refs) + "))",
        ], "?vrel = ?vref"
    sub = f"{{ SELECT ({agg}(?vref) AS ?refv) WHERE {{ {values} {theirs} }} }}"
    return [mine, sub], f"?vrel {op} ?refv"
