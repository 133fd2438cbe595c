"""The question's entities grounded: names (products, ranges, words no parser knows) and scope
(brands, categories).

A number written right after a name is part of it ("Alpha One 128GB") when the longer name
resolves; several categories are alternatives, united in one block; a capitalised plain word
opening a sentence ("Gaming matters most …") that names nothing is no unresolved name.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from dualgraph.query.ground.base import member_of
from dualgraph.query.ground.grounder import Grounder, Grounding
from dualgraph.query.read.model import EntityRef, NumericConstraint

__all__ = ["NAMED", "ground_names"]

NAMED = ("product", "range", "phrase", "unknown")
"""The entity kinds that name products (the others restrict the scope)."""


def ground_names(
    g: Grounder, question: str, entities: list[EntityRef], constraints: list[Any], trace: list[str]
) -> tuple[list[Grounding], list[Grounding], list[Any]]:
    """The named products' groundings, the scope's, and the ``constraints`` less the numbers read
    as part of a name."""
    constraints = list(constraints)
    named: list[Grounding] = []
    scope: list[Grounding] = []
    for e in _joined_categories(question, entities, trace):
        if e.negated:
            if (left_out := _left_out(g, e, trace)) is not None:
                scope.append(left_out)
            continue
        if e.kind in NAMED:
            after = [
                c
                for c in constraints
                if isinstance(c, NumericConstraint)
                and c.op == "="
                and c.span.start >= e.span.end
                and not question[e.span.end : c.span.start].strip()
            ]
            if after:
                c = after[0]
                merged = EntityRef(
                    type(e.span)(e.span.start, c.span.end, question[e.span.start : c.span.end]),
                    question[e.span.start : c.span.end],
                    e.kind,
                )
                gm = g.entity(merged, trace)
                if gm.resolved:
                    trace.append(f"{c.span.text!r} read as part of the name {merged.phrase!r}")
                    constraints.remove(c)
                    named.append(gm)
                    continue
            ge = g.entity(e, trace)
            if ge.resolved and ge.kind in ("line", "brand"):
                scope.append(ge)  # "Novas", "Xiaomi": a name that turned out to be a line or brand restricts
                continue
            if not ge.resolved and (gv := g.value_named(e, trace)) is not None:
                scope.append(gv)  # no product carries the name, a spec value does: "the Orion K27 chipset"
                continue
            named.append(ge)
        else:
            ge = g.entity(e, trace)
            if not ge.resolved and e.kind == "brand" and (gv := g.value_named(e, trace)) is not None:
                scope.append(gv)  # read as a brand by its place ("r600a fridges"), a spec value says it
                continue
            if ge.resolved and ge.products and not ge.snippet and not ge.name_filter:
                # a maker word that names a range instead ("i7 processors"): its products, which
                # the scope's blocks would not carry
                named.append(ge)
                continue
            scope.append(ge)
    return named, _united_categories(scope, trace, store=g.context.store), constraints


def _left_out(g: Grounder, e: EntityRef, trace: list[str]) -> Grounding | None:
    """A name the question leaves out ("anything but Sony"): the products must not be that brand,
    line or product. ``None`` when the name grounds to nothing (it was read, and nothing is it)."""
    ge = g.entity(replace(e, negated=False), trace)
    if not ge.resolved:
        return None
    if ge.products and not ge.snippet and not ge.name_filter:
        listed = ", ".join(f"<{p}>" for p in ge.products)
        out = Grounding(e, "left-out", snippet=f"FILTER(?p NOT IN ({listed}))", confidence=ge.confidence)
    elif ge.name_filter and not ge.snippet:
        out = Grounding(e, "left-out", name_filter=f"!({ge.name_filter})", confidence=ge.confidence)
    elif ge.snippet:
        body = ge.snippet + (f" FILTER({ge.name_filter})" if ge.name_filter else "")
        out = Grounding(e, "left-out", snippet=f"FILTER NOT EXISTS {{ {body} }}", confidence=ge.confidence)
    else:
        return None
    trace.append(f"{e.phrase!r} left out: products that are not it")
    return out


def _joined_categories(question: str, entities: list[EntityRef], trace: list[str]) -> list[EntityRef]:
    """Category words side by side are one noun phrase ("mountain bikes", "downhill bike"): the
    modifier narrows the head, it is no category of its own."""
    out: list[EntityRef] = []
    for e in entities:
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.kind == e.kind == "category"
            and prev.span.end <= e.span.start
            and not question[prev.span.end : e.span.start].strip()
        ):
            text = question[prev.span.start : e.span.end]
            out[-1] = EntityRef(type(e.span)(prev.span.start, e.span.end, text), text, "category")
            trace.append(f"category words {prev.phrase!r} {e.phrase!r} read as one phrase {text!r}")
            continue
        out.append(e)
    return out


def _facets(store: Any, cats: list[Grounding]) -> bool:
    """Whether every two of the named categories share products: then they are facets of one
    product ("5G phones" in a shop with a category per network and one per device type) and all
    hold at once; categories that never share a product are alternatives."""
    if store is None:
        return False
    sets = []
    for gr in cats:
        iris = " ".join(dict.fromkeys(re.findall(r"<[^>]+>", gr.snippet)))
        res = store.select(f"SELECT DISTINCT ?p WHERE {{ VALUES ?c {{ {iris} }} ?p skg:belongs ?c }}")
        sets.append({b["p"]["value"] for b in res["results"]["bindings"]})
    return all(not a.isdisjoint(b) for i, a in enumerate(sets) for b in sets[i + 1 :])


def _united_categories(scope: list[Grounding], trace: list[str], *, store: Any = None) -> list[Grounding]:
    """Several categories in one question are alternatives ("laptops or desktop PCs"), never all
    at once: their products are united in one block; unless they share products (facets, see
    :func:`_facets`), which intersect."""
    cats = [gr for gr in scope if gr.kind == "category" and gr.resolved and gr.snippet]
    if len(cats) < 2:
        return scope
    if _facets(store, cats):
        trace.append(f"categories {[gr.source.phrase for gr in cats]} share products: facets, all of them hold")
        return scope
    iris = list(dict.fromkeys(re.findall(r"<[^>]+>", " ".join(gr.snippet for gr in cats))))
    merged = Grounding(
        cats[0].source,
        "category",
        snippet=member_of("skg:belongs", [i.strip("<>") for i in iris]),
        confidence=min(gr.confidence for gr in cats),
        candidates=[c for gr in cats for c in gr.candidates],
    )
    trace.append(f"categories {[gr.source.phrase for gr in cats]} united: a product of any of them")
    rest = [gr for gr in scope if gr not in cats]
    return [merged, *rest]
