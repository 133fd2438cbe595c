"""The products a comparison is between, when they are said as makers' words and a shared kind.

"brimnes tv bench and hemnes tv bench, which one is lower?" names no product: it says two makers
and the kind they share. Read as scope, the two makers exclude each other and nothing is
compared. Read as the two sides of the comparison, each maker with the kind is one product (or a
few), and the comparison is between those.

Which reading holds is asked of the store, not guessed: each side is the products that meet that
maker's condition and every other condition of the question (the kind, a category). Every side
must hold at least one product and no more than :data:`SIDE_CAP` — a side of fifty products is a
group, which :mod:`~dualgraph.query.interpret.groups` compares, not a named product.
"""

from __future__ import annotations

from typing import Any

from dualgraph.lexicon.pattern import filled
from dualgraph.query.ground.base import Grounding
from dualgraph.query.sparql.emit import products_query, where_clauses
from dualgraph.query.sparql.safety import run_select

__all__ = ["SIDE_CAP", "compared_sides"]

SIDE_CAP = 5
"""The most products one side of a comparison may hold and still be a product named (a maker's
few variants of one kind), not a group."""

_SIDE_KINDS = ("brand", "line")


def compared_sides(
    store: Any,
    named: list[Grounding],
    scope: list[Grounding],
    trace: list[str],
    *,
    cap: int = SIDE_CAP,
    timeout_s: float = 2.0,
) -> tuple[list[list[str]], list[Grounding]] | None:
    """The products of each side and the scope less the sides' mentions, or ``None`` when the
    question does not say two sides or a side holds no product or more than ``cap``.

    ``named``: the question's name groundings without products of their own (a kind said by name
    words); ``scope``: its brands, lines and categories (alternatives merged into one mention keep
    their ``parts``)."""
    sides = [p for gr in scope if _side(gr) for p in (gr.parts or [gr]) if _side(p)]
    if len(sides) < 2:
        return None
    others = [gr for gr in scope if not _side(gr)]
    out: list[list[str]] = []
    for side in sides:
        query = products_query(*where_clauses([], named, [side, *others]), limit=cap + 1)
        try:
            rows = run_select(store, filled(query), row_cap=cap + 1, timeout_s=timeout_s).rows
        except Exception as e:  # a side the store cannot read confirms nothing
            trace.append(f"sides: {_said(side)!r}: check failed ({type(e).__name__})")
            return None
        found = [r["p"]["value"] for r in rows]
        if not 1 <= len(found) <= cap:
            trace.append(f"sides: {_said(side)!r} with the question's kind holds {len(found)} products: no side")
            return None
        out.append(found)
    trace.append(
        "sides: the comparison is between "
        + ", ".join(f"{_said(s)!r} ({len(p)} product{'s' if len(p) > 1 else ''})" for s, p in zip(sides, out))
    )
    return out, others


def _side(gr: Grounding) -> bool:
    return gr.resolved and gr.kind in _SIDE_KINDS and bool(gr.snippet or gr.name_filter)


def _said(gr: Grounding) -> str:
    span = getattr(gr.source, "span", None)
    return span.text if span is not None else gr.kind
