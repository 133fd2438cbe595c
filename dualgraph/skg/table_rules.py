"""Rules whose facts the converter's spec tables give directly, without a pass over the store.

``tag-value`` asks, for every entry of the catalog, whether its products list several text
values each, and for every value whether two products hold it: two aggregates over every spec.
On a generated 10,000-product catalog that is 17 s of SPARQL on each index run, and since the
rule reads the whole catalog it costs the same after a change to one document. The same counts
over the spec tables (:mod:`dualgraph.skg.spec_table`, one row per spec with its node and
whether it holds a quantity) take Arrow's group-by a fraction of a second.

The twins of ``tag-feature`` and ``tag-absent`` (which join every spec with the tags: 17 s more
on the same catalog in a full run) follow the same way. Twins are used only with the packaged
rules exactly as shipped: a rules file that changes, adds or removes a rule runs its own
SPARQL. ``tests/integration/test_table_rules.py`` checks on several catalogs that the twins
write the very derived graph the SPARQL writes.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dualgraph.skg import ontology as O

if TYPE_CHECKING:
    from dualgraph.skg.rules import Rule
    from dualgraph.skg.spec_table import SpecTables

Triple = tuple[str, str, str]
"""Terms as N-Triples (``<iri>``), as :meth:`~dualgraph.stores.base.SparqlStore.construct` gives them."""

__all__ = ["Triple", "computed", "tag_facts", "tag_values", "twins"]


def tag_values(tables: SpecTables, specs: tuple[Any, Any] | None = None) -> set[Triple] | None:
    """The facts of the packaged ``tag-value`` rule (``?v skg:fromEntry ?e``) from the spec rows;
    None when the rows lack spec nodes (tables written by an older converter).

    An entry lists tags when its text specs (no quantity) are at least twice as many as the
    products holding them; a value of it is a tag when two products hold it (in any spec) and
    one of its specs is text. Specs and products are counted once however many documents
    (markets) hold them.

    >>> import pyarrow as pa
    >>> from dualgraph.skg.spec_table import SpecTables, VALUE_COLUMNS
    >>> rows = [("p1", "e", "nfc", "s1", ""), ("p1", "e", "5g", "s2", ""), ("p2", "e", "nfc", "s3", ""),
    ...         ("p2", "e", "wifi", "s4", "")]
    >>> cols = dict(zip(("product", "entry", "value", "spec", "quantity"), map(list, zip(*rows))))
    >>> t = pa.table({c: cols.get(c, [""] * len(rows)) for c in VALUE_COLUMNS})
    >>> sorted(tag_values(SpecTables(t, None)))  # e: 4 text specs for 2 products; only nfc is on two
    [('<nfc>', '<https://w3id.org/dualgraph/skg#fromEntry>', '<e>')]
    """
    import pyarrow.compute as pc

    found = specs or _specs(tables)
    if found is None:
        return None
    every, text = found
    per_entry = text.group_by("entry").aggregate([("spec", "count_distinct"), ("product", "count_distinct")])
    lists = per_entry.filter(
        pc.greater_equal(per_entry["spec_count_distinct"], pc.multiply(per_entry["product_count_distinct"], 2))
    )["entry"]
    pairs = every.group_by(["entry", "value"]).aggregate([("product", "count_distinct")])
    common = pairs.filter(pc.greater_equal(pairs["product_count_distinct"], 2))
    held_as_text = set(zip(text["entry"].to_pylist(), text["value"].to_pylist(), strict=True))
    tag_lists = set(lists.to_pylist())
    from_entry = f"<{O.FROM_ENTRY}>"
    return {
        (f"<{value}>", from_entry, f"<{entry}>")
        for entry, value in zip(common["entry"].to_pylist(), common["value"].to_pylist(), strict=True)
        if entry in tag_lists and (entry, value) in held_as_text
    }


def _tag_features(text: Any, tags: set[Triple]) -> set[Triple]:
    """The packaged ``tag-feature`` rule: a product has as a feature every tag it lists as text
    (``?p skg:hasFeature ?v``); ``text`` holds the spec rows without a quantity."""
    pairs = {(e[1:-1], v[1:-1]) for v, _, e in tags}
    has = f"<{O.HAS_FEATURE}>"
    columns = (text[c].to_pylist() for c in ("product", "entry", "value"))
    return {(f"<{p}>", has, f"<{v}>") for p, e, v in zip(*columns, strict=True) if (e, v) in pairs}


def _tag_absences(values: Any, tags: set[Triple], has: set[Triple]) -> set[Triple]:
    """The packaged ``tag-absent`` rule: a product with a spec in a tag-list entry lacks every tag
    of that entry it does not have as a feature (``?p skg:lacksFeature ?v``). With the packaged
    rules only ``tag-feature`` gives a product a value as a feature."""
    products_of: dict[str, set[str]] = {}
    for p, e in zip(values["product"].to_pylist(), values["entry"].to_pylist(), strict=True):
        products_of.setdefault(e, set()).add(p)
    have = {(p, value) for p, _, value in has}
    lacks = f"<{O.LACKS_FEATURE}>"
    return {
        (f"<{p}>", lacks, value)
        for value, _, entry in tags
        for p in products_of.get(entry[1:-1], ())
        if (f"<{p}>", value) not in have
    }


def tag_facts(tables: SpecTables) -> dict[str, set[Triple]] | None:
    """The facts of the three tag rules by rule id, each counted once; None as :func:`tag_values`."""
    specs = _specs(tables)  # the group-by the rules share, dropped once their facts are made
    if specs is None:
        return None
    tags = tag_values(tables, specs)
    assert tags is not None  # the tables hold spec nodes
    has = _tag_features(specs[1], tags)
    return {"tag-value": tags, "tag-feature": has, "tag-absent": _tag_absences(tables.values, tags, has)}


def _specs(tables: SpecTables) -> tuple[Any, Any] | None:
    """One row per spec node (product, entry, value, ``quantity_max``), and those without a quantity;
    None when the rows lack spec nodes (tables written by an older converter)."""
    import pyarrow.compute as pc

    v = tables.values
    if "spec" not in v.column_names or v["spec"].null_count or v["quantity"].null_count:
        return None
    # a spec repeated across documents (markets) holds a quantity if any copy does
    specs = v.group_by(["spec", "product", "entry", "value"]).aggregate([("quantity", "max")])
    return specs, specs.filter(pc.equal(specs["quantity_max"], ""))


_TWINS = ("tag-value", "tag-feature", "tag-absent")
"""The rules :func:`tag_facts` gives the facts of."""


@functools.cache
def _packaged() -> tuple[tuple[str, str, str, bool, int, str | None], ...]:
    from dualgraph.skg.rules import load_rules

    return _fingerprint(load_rules())


def _fingerprint(rules: Sequence[Rule]) -> tuple[tuple[str, str, str, bool, int, str | None], ...]:
    return tuple((r.id, r.where, r.insert, r.enabled, r.stratum, r.focus) for r in rules)


def twins(rules: Sequence[Rule]) -> tuple[str, ...]:
    """The ids of the rules with a table twin: all of them when ``rules`` are the packaged rules
    exactly, none otherwise (a twin reproduces its rule among the packaged ones: an added rule
    could write what ``tag-absent`` tests for)."""
    return _TWINS if _fingerprint(rules) == _packaged() else ()


def computed(rules: Sequence[Rule], tables: Any) -> dict[str, set[Triple]]:
    """The facts of the rules that have a twin, by rule id, when ``tables`` can give them."""
    if tables is None or not twins(rules):
        return {}
    return tag_facts(tables) or {}
