"""Rules whose facts the converter's spec tables give directly, without a pass over the store.

``tag-value`` asks, for every entry of the catalog, whether its products list several text
values each, and for every value whether two products hold it: two aggregates over every spec.
On a generated 10,000-product catalog that is 17 s of SPARQL on each index run, and since the
rule reads the whole catalog it costs the same after a change to one document. The same counts
over the spec tables (:mod:`dualgraph.skg.spec_table`, one row per spec with its node and
whether it holds a quantity) take Arrow's group-by a fraction of a second.

The twins of ``tag-feature`` and ``tag-absent`` (which join every spec with the tags: 17 s more
on the same catalog in a full run) follow the same way, and so do ``yes-feature`` and
``no-feature``: a value name tested against the rules' own ``affirmative`` and ``negative``
patterns once per distinct name, where the SPARQL runs a regular expression per value node and
joins every spec holding it (6.7 s of a 1,600-product catalog with full data sheets). Twins are used only with the packaged
rules exactly as shipped: a rules file that changes, adds or removes a rule runs its own
SPARQL. ``tests/integration/test_table_rules.py`` checks on several catalogs that the twins
write the very derived graph the SPARQL writes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dualgraph.skg import ontology as O

if TYPE_CHECKING:
    from dualgraph.skg.rules import Rule
    from dualgraph.skg.spec_table import SpecTables

Triple = tuple[str, str, str]
"""Terms as N-Triples (``<iri>``), as :meth:`~dualgraph.stores.base.SparqlStore.construct` gives them."""

__all__ = ["Triple", "computed", "said_facts", "tag_facts", "tag_values", "twins"]


def tag_values(tables: SpecTables, specs: _Specs | None = None) -> set[Triple] | None:
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
    text = found.text
    # every row is one spec, so an entry's text specs are its text rows
    per_entry = text.group_by("entry").aggregate([("product", "count"), ("product", "count_distinct")])
    lists = per_entry.filter(
        pc.greater_equal(per_entry["product_count"], pc.multiply(per_entry["product_count_distinct"], 2))
    )["entry"]
    pairs = found.every.group_by("pair").aggregate([("product", "count_distinct")])
    common = pairs.filter(pc.greater_equal(pairs["product_count_distinct"], 2))["pair"]
    as_text = pc.unique(text["pair"])
    held = pc.filter(as_text, pc.is_in(as_text, value_set=common))
    tag_pairs = pc.filter(held, pc.is_in(pc.divide(held, found.values_n), value_set=lists))
    return {
        (f"<{found.value_of(pair)}>", f"<{O.FROM_ENTRY}>", f"<{found.entry_of(pair)}>")
        for pair in tag_pairs.to_pylist()
    }


def _tag_features(specs: _Specs, tags: set[Triple]) -> set[Triple]:
    """The packaged ``tag-feature`` rule: a product has as a feature every tag it lists as text
    (``?p skg:hasFeature ?v``)."""
    import pyarrow.compute as pc

    text = specs.text
    rows = text.filter(pc.is_in(text["pair"], value_set=specs.pairs_of(tags)))
    has = f"<{O.HAS_FEATURE}>"
    products = specs.names["product"].take(rows["product"]).to_pylist()
    values = specs.names["value"].take(rows["value"]).to_pylist()
    return {(f"<{p}>", has, f"<{v}>") for p, v in zip(products, values, strict=True)}


def _tag_absences(specs: _Specs, tags: set[Triple], has: set[Triple]) -> set[Triple]:
    """The packaged ``tag-absent`` rule: a product with a spec in a tag-list entry lacks every tag
    of that entry it does not have as a feature (``?p skg:lacksFeature ?v``). With the packaged
    rules only ``tag-feature`` gives a product a value as a feature."""
    import pyarrow as pa
    import pyarrow.compute as pc

    every = specs.every
    entries = pa.array(sorted(specs.entry_codes({e[1:-1] for _, _, e in tags})), pa.int64())
    held = every.filter(pc.is_in(every["entry"], value_set=entries)).group_by(["entry", "product"]).aggregate([])
    names = specs.names
    products_of: dict[str, set[str]] = {}
    entry_names = names["entry"].take(held["entry"]).to_pylist()
    product_names = names["product"].take(held["product"]).to_pylist()
    for e, p in zip(entry_names, product_names, strict=True):
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
    specs = _specs(tables)  # the spec rows the rules share, dropped once their facts are made
    if specs is None:
        return None
    tags = tag_values(tables, specs)
    assert tags is not None  # the tables hold spec nodes
    has = _tag_features(specs, tags)
    return {"tag-value": tags, "tag-feature": has, "tag-absent": _tag_absences(specs, tags, has)}


@dataclass(frozen=True)
class _Specs:
    """One row per spec node, its product, entry and value as integer codes into ``names``.

    The rules count and join on these codes: Arrow's hash group-by on the IRIs themselves held
    about 1.8 KB a spec row (3 GB at 100k products, the peak of a whole index run).
    ``every`` has columns product, entry, value and ``pair`` (entry and value in one integer);
    ``text`` is its rows whose spec holds no quantity."""

    every: Any
    text: Any
    names: dict[str, Any]
    values_n: int

    def value_of(self, pair: int) -> str:
        return str(self.names["value"][pair % self.values_n])

    def entry_of(self, pair: int) -> str:
        return str(self.names["entry"][pair // self.values_n])

    def entry_codes(self, entries: set[str]) -> list[int]:
        codes = self._codes("entry")
        return [codes[e] for e in entries]

    def pairs_of(self, tags: set[Triple]) -> Any:
        """The ``pair`` codes of tag-value facts."""
        import pyarrow as pa

        entry, value = self._codes("entry"), self._codes("value")
        return pa.array(sorted(entry[e[1:-1]] * self.values_n + value[v[1:-1]] for v, _, e in tags), pa.int64())

    def _codes(self, column: str) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.names[column].to_pylist())}


def _specs(tables: SpecTables) -> _Specs | None:
    """The spec rows, one per spec node, coded; None when the rows lack spec nodes (tables
    written by an older converter)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    v = tables.values
    if "spec" not in v.column_names or v["spec"].null_count or v["quantity"].null_count:
        return None
    rows = v.select(["spec", "product", "entry", "value", "quantity"])
    if pc.count_distinct(rows["spec"]).as_py() < rows.num_rows:
        # A spec repeated across documents (markets), or a value part said twice, holds a quantity
        # if any copy does. A spec node names its product, entry and value, so the copy kept is the
        # first after sorting with quantities first.
        rows = rows.take(pc.sort_indices(rows, [("spec", "ascending"), ("quantity", "descending")]))
        spec = rows["spec"].combine_chunks()
        rows = rows.filter(pa.concat_arrays([pa.array([True]), pc.not_equal(spec[1:], spec[:-1])]))
    columns: dict[str, Any] = {}
    names: dict[str, Any] = {}
    for c in ("product", "entry", "value"):
        coded = pc.dictionary_encode(rows[c]).combine_chunks()
        columns[c], names[c] = pc.cast(coded.indices, pa.int64()), coded.dictionary
    values_n = max(len(names["value"]), 1)
    columns["pair"] = pc.add(pc.multiply(columns["entry"], values_n), columns["value"])
    every = pa.table(columns)
    return _Specs(every, every.filter(pc.equal(rows["quantity"], "")), names, values_n)


def said_facts(tables: SpecTables, yes: re.Pattern[str], no: re.Pattern[str]) -> dict[str, set[Triple]] | None:
    """The facts of the packaged ``yes-feature`` and ``no-feature`` rules: a product has (lacks) as
    a feature every entry of a spec whose value is named as ``yes`` (``no``) says, as
    :func:`~dualgraph.skg.rules.def_regex` gives the rules' patterns; None as :func:`tag_values`.

    A value node named two ways counts when either name matches, as ``?v skg:hasName ?vn`` does.

    >>> import pyarrow as pa
    >>> from dualgraph.skg.spec_table import SpecTables, VALUE_COLUMNS
    >>> rows = [("p1", "nfc", "v-yes", "Yes", "s1"), ("p2", "nfc", "v-no", "No", "s2"), ("p2", "jack", "v-yes", "Yes", "s3")]
    >>> cols = dict(zip(("product", "entry", "value", "value_name", "spec"), map(list, zip(*rows))))
    >>> t = pa.table({c: cols.get(c, [""] * len(rows)) for c in VALUE_COLUMNS})
    >>> facts = said_facts(SpecTables(t, None), re.compile("^yes$", re.I), re.compile("^no$", re.I))
    >>> sorted(facts["yes-feature"]), sorted(facts["no-feature"])[0][0]
    ([('<p1>', '<https://w3id.org/dualgraph/skg#hasFeature>', '<nfc>'), ('<p2>', '<https://w3id.org/dualgraph/skg#hasFeature>', '<jack>')], '<p2>')
    """
    import pyarrow.compute as pc

    v = tables.values
    if "spec" not in v.column_names or v["value_name"].null_count:
        return None
    named = v.select(["value", "value_name"]).group_by(["value", "value_name"]).aggregate([])
    out: dict[str, set[Triple]] = {}
    for rule, pattern, verb in (("yes-feature", yes, O.HAS_FEATURE), ("no-feature", no, O.LACKS_FEATURE)):
        # one test per distinct (value, name), not per spec: a catalog says "Yes" a hundred thousand times
        said = {value for value, name in _pairs(named) if pattern.search(name)}
        rows = v.filter(pc.is_in(v["value"], value_set=_strings(said))).select(["product", "entry"])
        out[rule] = {
            (f"<{p}>", f"<{verb}>", f"<{e}>") for p, e in _pairs(rows.group_by(["product", "entry"]).aggregate([]))
        }
    return out


def _pairs(table: Any) -> list[tuple[str, str]]:
    a, b = (table.column(i).to_pylist() for i in range(2))
    return list(zip(a, b, strict=True))


def _strings(items: set[str]) -> Any:
    import pyarrow as pa

    return pa.array(sorted(items), pa.string())


_TAG_TWINS = ("tag-value", "tag-feature", "tag-absent")
"""The rules :func:`tag_facts` gives the facts of."""
_SAID_TWINS = ("yes-feature", "no-feature")
"""The rules :func:`said_facts` gives the facts of."""
_TWINS = (*_TAG_TWINS, *_SAID_TWINS)


def _fingerprint(rules: Sequence[Rule]) -> tuple[tuple[str, str, str, bool, int, str | None], ...]:
    return tuple((r.id, r.where, r.insert, r.enabled, r.stratum, r.focus) for r in rules)


def twins(rules: Sequence[Rule], packaged: Sequence[Rule]) -> tuple[str, ...]:
    """The ids of the rules with a table twin: all of them when ``rules`` are the ``packaged`` rules
    exactly, none otherwise (a twin reproduces its rule among the packaged ones: an added rule
    could write what ``tag-absent`` tests for). The caller passes the packaged rules: this module
    sits under the rule engine, it does not load rules itself."""
    return _TWINS if _fingerprint(rules) == _fingerprint(packaged) else ()


def computed(
    rules: Sequence[Rule], tables: Any, packaged: Sequence[Rule], patterns: Mapping[str, re.Pattern[str]]
) -> dict[str, set[Triple]]:
    """The facts of the rules that have a twin, by rule id, when ``tables`` can give them.
    ``patterns``: the rules file's ``affirmative`` and ``negative`` defs as regular expressions."""
    if tables is None or not twins(rules, packaged):
        return {}
    said = said_facts(tables, patterns["affirmative"], patterns["negative"]) or {}
    return {**(tag_facts(tables) or {}), **said}
