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
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from dualgraph.lexicon.holders import EntryHolders
from dualgraph.lexicon.pattern import filled
from dualgraph.lexicon.patterns import Pattern

__all__ = ["LazyScope", "Scope", "holders", "keep_in_scope", "same_named", "scope_entries", "use_holders", "widen"]

Scope = frozenset[tuple[str, str | None]]
"""(entry IRI, unit or None) pairs that at least one product in the question's scope has."""


_HOLDERS: weakref.WeakKeyDictionary[Any, dict[tuple[str, str | None], frozenset[str]]] = weakref.WeakKeyDictionary()
"""Per store: the products holding each (entry, unit); an index does not change under a reader."""


_TABLES: weakref.WeakKeyDictionary[Any, EntryHolders] = weakref.WeakKeyDictionary()
"""Per store: the index's table of holders, where the pattern index has one."""


_SCOPES: weakref.WeakKeyDictionary[Any, OrderedDict[str, frozenset[str]]] = weakref.WeakKeyDictionary()
"""Per store: the products of the scopes questions asked lately, by query (a bulk run over one
catalogue asks the same few scopes again and again: 39 scope reads, 6 distinct, in 120 questions)."""
SCOPES_KEPT = 256


def kept_scope(kept: OrderedDict[str, frozenset[str]], key: str, read: Callable[[], frozenset[str]]) -> frozenset[str]:
    """``kept[key]``, ``read()`` when it is not there; past :data:`SCOPES_KEPT` entries the one
    used longest ago goes."""
    found = kept.get(key)
    if found is not None:
        kept.move_to_end(key)
        return found
    found = kept[key] = read()
    if len(kept) > SCOPES_KEPT:
        kept.popitem(last=False)
    return found


def scope_products(store: Any, query: str) -> frozenset[str]:
    """The ``?p`` of a SELECT over ``store``, kept for the next question that asks the same."""

    def read() -> frozenset[str]:
        return frozenset(b["p"]["value"] for b in store.select(query)["results"]["bindings"])

    return kept_scope(_SCOPES.setdefault(store, OrderedDict()), query, read)


def use_holders(store: Any, table: EntryHolders | None) -> None:
    """Answer :func:`holders` for ``store`` from the index's ``table`` (None: from the store)."""
    if table is not None:
        _TABLES[store] = table


def holders(store: Any, pairs: list[tuple[str, str | None]]) -> dict[tuple[str, str | None], frozenset[str]]:
    """The products holding each (entry, unit) pair (unit ``None``: the entry at all).

    From the index's table when :func:`use_holders` gave one: the pairs asked, each a slice of it.
    Else every entry is read from the store at once, the first time a store is asked: one pass
    over the specs costs less than a few passes over some entries, and later questions find every
    entry here."""
    table = _TABLES.get(store)
    if table is not None:
        return {x: table.products(*x) for x in pairs}
    if store not in _HOLDERS:
        found: dict[tuple[str, str | None], set[str]] = {}
        res = store.select(
            "SELECT DISTINCT ?e ?u ?p WHERE { ?sx_ skg:inEntry ?e . ?p skg:hasSpec ?sx_ . "
            "OPTIONAL { ?sx_ skg:hasQuantity/skg:hasUnit ?u } }"
        )
        for b in res["results"]["bindings"]:
            e, p = b["e"]["value"], b["p"]["value"]
            found.setdefault((e, None), set()).add(p)
            if "u" in b:
                found.setdefault((e, b["u"]["value"]), set()).add(p)
        _HOLDERS[store] = {key: frozenset(ps) for key, ps in found.items()}
    cache = _HOLDERS[store]
    return {x: cache.get(x, frozenset()) for x in pairs}


class LazyScope:
    """The entries populated among the products the question's scope blocks/filters select, asked
    of the store only when a choice needs it, and only for the (entry, unit) pairs being chosen
    between (``None`` without a scope: everything is possible). The scope's products are read
    once per question and the products holding each entry once per store: listing every entry
    the scope's products hold walked all their specs (0.4 s for a thousand phones)."""

    def __init__(self, store: Any, blocks: list[str], filters: list[str]) -> None:
        self.store, self.blocks, self.filters = store, blocks, filters
        self._products: frozenset[str] | None = None

    def products(self) -> frozenset[str]:
        if self._products is None:
            where = " ".join(
                ["?p a skgt:Product ; skg:hasName ?name .", *self.blocks, *(f"FILTER({f})" for f in self.filters)]
            )
            self._products = scope_products(self.store, filled("SELECT DISTINCT ?p WHERE { " + where + " }"))
        return self._products

    def __call__(self, pairs: set[tuple[str, str | None]]) -> Scope | None:
        if not (self.blocks or self.filters):
            return None
        mine = self.products()
        held = holders(self.store, [x for x in pairs if x[0]])
        return frozenset(x for x, ps in held.items() if not ps.isdisjoint(mine))


def scope_entries(store: Any, blocks: list[str], filters: list[str]) -> LazyScope:
    return LazyScope(store, blocks, filters)


def _resolve(scope: Scope | LazyScope | None, patterns: list[Pattern]) -> Scope | None:
    """The scope as far as ``patterns`` go: their (entry, unit) pairs that products in scope have."""
    if not isinstance(scope, LazyScope):
        return scope
    return scope({_pair(p) for p in patterns if p.entry_iri})


def _pair(p: Pattern) -> tuple[str, str | None]:
    return (p.entry_iri or "", p.unit if p.kind == "spec_numeric" else None)


def _in(p: Pattern, scope: Scope) -> bool:
    if p.kind == "spec_numeric" and p.unit is not None:
        return (p.entry_iri, p.unit) in scope
    return any(e == p.entry_iri for e, _ in scope)


def keep_in_scope(cands: list, scope: Scope | LazyScope | None, pattern_of=lambda c: c[1]) -> tuple[list, int]:
    """``cands`` whose pattern is populated in ``scope`` (all of them when none is), and how many were dropped."""
    if len({pattern_of(c).entry_iri for c in cands}) < 2:
        return cands, 0  # nothing to choose: the store is not asked
    scope = _resolve(scope, [pattern_of(c) for c in cands])
    if scope is None:
        return cands, 0
    kept = [c for c in cands if pattern_of(c).entry_iri is None or _in(pattern_of(c), scope)]
    return (kept, len(cands) - len(kept)) if kept else (cands, 0)


def none_in_scope(cands: list, scope: Scope | LazyScope | None, pattern_of=lambda c: c[1]) -> bool:
    """Whether a scope is known and no product in it holds any of ``cands``' entries (the question's
    brand never fills the entry these values were listed under)."""
    if not cands or scope is None:
        return False
    resolved = _resolve(scope, [pattern_of(c) for c in cands])
    if resolved is None:
        return False
    return not any(pattern_of(c).entry_iri is None or _in(pattern_of(c), resolved) for c in cands)


def _name(p: Pattern) -> str:
    return re.sub(r"\s+", " ", (p.entry or p.name or "").casefold()).strip()


def same_named(best: Pattern, others: list[Pattern], scope: Scope | LazyScope | None = None) -> list[Pattern]:
    """Other entries (other sections) with ``best``'s name, kind and unit, populated in ``scope``."""
    others = [p for p in others if p.entry_iri != best.entry_iri and _name(p) == _name(best)]
    scope = _resolve(scope, others) if others else None
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
    '?p skg:hasSpec {s} . {s} skg:inEntry {s}_e ; skg:hasNumericValue {v} . FILTER({s}_e IN (<e1>, <e2>))'
    """
    text = best.sparql if snippet is None else snippet
    if not also or f"<{best.entry_iri}>" not in text:
        return text
    # a FILTER IN, not a VALUES block: Oxigraph would start from every spec of those entries
    iris = ", ".join(f"<{p.entry_iri}>" for p in [best, *also])
    return text.replace(f"skg:inEntry <{best.entry_iri}>", "skg:inEntry {s}_e") + f" FILTER({{s}}_e IN ({iris}))"
