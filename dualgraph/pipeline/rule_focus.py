"""Which nodes' derived facts a re-index must take back and derive again.

After a small change the rules run for a *focus* (:func:`dualgraph.skg.rules.apply_rules`):
the products of the documents that changed, before and after, and every range one of them
belongs to, with all of that range's variants, since a range's summaries ("every variant has
it") and a variant's inherited category read the whole range. Products whose catalog facts
changed (a learned brand, a coded term) join the focus the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from dualgraph.skg import ontology as O

__all__ = ["expand_focus"]

_RANGES = "SELECT DISTINCT ?r WHERE {{ VALUES ?p {{ {values} }} ?p <{variant_of}> ?r }}"
_VARIANTS = "SELECT DISTINCT ?p WHERE {{ VALUES ?r {{ {values} }} ?p <{variant_of}> ?r }}"


def expand_focus(store, nodes: Iterable[str], *, batch: int = 1000) -> set[str]:
    """``nodes`` (products and ranges) plus the ranges of the products and every variant of those
    ranges, as the store holds them now.

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> s = OxigraphStore.in_memory()
    >>> s.update(f"INSERT DATA {{ GRAPH <x:g> {{ <x:a> <{O.VARIANT_OF}> <x:r> . <x:b> <{O.VARIANT_OF}> <x:r> }} }}")
    >>> sorted(expand_focus(s, ["x:a"]))
    ['x:a', 'x:b', 'x:r']
    """
    out = set(nodes)
    out |= _column(store, _RANGES, "r", sorted(out), batch)
    # every node so far may be a range: asking for its variants costs nothing when it is not
    out |= _column(store, _VARIANTS, "p", sorted(out), batch)
    return out


def _column(store, template: str, var: str, iris: list[str], batch: int) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(iris), batch):
        values = " ".join(f"<{x}>" for x in iris[start : start + batch])
        res = store.select(template.format(values=values, variant_of=O.VARIANT_OF))
        found.update(b[var]["value"] for b in res["results"]["bindings"])
    return found
