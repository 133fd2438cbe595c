"""Choosing among several entries that could answer one attribute.

Real catalogs spread one attribute over several entries: per category ("RAM capacity" on phones,
"Internal memory" on laptops), per section ("Headphone connectivity" under "Ports & interfaces"
and under "Other features"), per unit ("Battery capacity" in mAh and in Wh). Two general rules:

- **scope**: when the question restricts the products (a category, named products, a brand), an
  entry none of those products has cannot be meant; candidates outside the scope are dropped
  (unless none is left);
- **same name**: entries with the same name and unit in different sections are one attribute;
  the chosen entry is widened to all of them (a ``VALUES`` over the entry IRIs).
"""

from __future__ import annotations

import re
from typing import Any

from dualgraph.query.patterns import Pattern

__all__ = ["LazyScope", "Scope", "keep_in_scope", "same_named", "scope_entries", "widen"]

Scope = frozenset[tuple[str, str | None]]
"""(entry IRI, unit or None) pairs that at least one product in the question's scope has."""


class LazyScope:
    """The entries populated among the products the question's scope blocks/filters select, asked
    of the store only when a choice needs it (``None`` without a scope: everything is possible)."""

    def __init__(self, store: Any, blocks: list[str], filters: list[str]) -> None:
        self.store, self.blocks, self.filters = store, blocks, filters
        self._done = False
        self._value: Scope | None = None

    def __call__(self) -> Scope | None:
        if not self._done:
            self._done = True
            if self.blocks or self.filters:
                where = " ".join(
                    ["?p a skgt:Product ; skg:hasName ?name .", *self.blocks, *(f"FILTER({f})" for f in self.filters)]
                )
                res = self.store.select(
                    "SELECT DISTINCT ?e ?u WHERE { " + where + " ?p skg:hasSpec ?sx_ . "
                    "?sx_ skg:inEntry ?e . OPTIONAL { ?sx_ skg:hasQuantity/skg:hasUnit ?u } }"
                )
                self._value = frozenset(
                    (b["e"]["value"], b["u"]["value"] if "u" in b else None) for b in res["results"]["bindings"]
                )
        return self._value


def scope_entries(store: Any, blocks: list[str], filters: list[str]) -> LazyScope:
    return LazyScope(store, blocks, filters)


def _resolve(scope: Scope | LazyScope | None) -> Scope | None:
    return scope() if isinstance(scope, LazyScope) else scope


def _in(p: Pattern, scope: Scope) -> bool:
    if p.kind == "spec_numeric":
        return (p.entry_iri, p.unit) in scope
    return any(e == p.entry_iri for e, _ in scope)


def keep_in_scope(cands: list, scope: Scope | LazyScope | None, pattern_of=lambda c: c[1]) -> tuple[list, int]:
    """``cands`` whose pattern is populated in ``scope`` (all of them when none is), and how many were dropped."""
    if len({pattern_of(c).entry_iri for c in cands}) < 2:
        return cands, 0  # nothing to choose: the store is not asked
    scope = _resolve(scope)
    if scope is None:
        return cands, 0
    kept = [c for c in cands if pattern_of(c).entry_iri is None or _in(pattern_of(c), scope)]
    return (kept, len(cands) - len(kept)) if kept else (cands, 0)


def _name(p: Pattern) -> str:
    return re.sub(r"\s+", " ", (p.entry or p.name or "").casefold()).strip()


def same_named(best: Pattern, others: list[Pattern], scope: Scope | LazyScope | None = None) -> list[Pattern]:
    """Other entries (other sections) with ``best``'s name, kind and unit, populated in ``scope``."""
    others = [p for p in others if p.entry_iri != best.entry_iri and _name(p) == _name(best)]
    scope = _resolve(scope) if others else None
    out: list[Pattern] = []
    for p in others:
        if (
            p.pattern_id != best.pattern_id
            and p.kind == best.kind
            and p.unit == best.unit
            and p.label == best.label
            and p.entry_iri
            and p.entry_iri != best.entry_iri
            and _name(p) == _name(best)
            and (scope is None or _in(p, scope))
            and all(p.entry_iri != q.entry_iri for q in out)
        ):
            out.append(p)
    return out


def widen(best: Pattern, also: list[Pattern], snippet: str | None = None) -> str:
    """``best``'s snippet (or ``snippet``) over its entry and the ``also`` entries at once.

    >>> a = Pattern("a", "spec_numeric", "t", "?p skg:hasSpec {s} . {s} skg:inEntry <e1> ; skg:hasNumericValue {v} .",
    ...             entry_iri="e1")
    >>> widen(a, [Pattern("b", "spec_numeric", "t", "", entry_iri="e2")])
    'VALUES {s}_e { <e1> <e2> } ?p skg:hasSpec {s} . {s} skg:inEntry {s}_e ; skg:hasNumericValue {v} .'
    """
    text = best.sparql if snippet is None else snippet
    if not also or f"<{best.entry_iri}>" not in text:
        return text
    iris = " ".join(f"<{p.entry_iri}>" for p in [best, *also])
    return f"VALUES {{s}}_e {{ {iris} }} " + text.replace(f"skg:inEntry <{best.entry_iri}>", "skg:inEntry {s}_e")
