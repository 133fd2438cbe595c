"""The SPARQL text of a compiled question: a WHERE block per grounding, the SELECT per intent.

Each grounding's snippet gets its own variables (``?s1``/``?v1``, ``?s2``/``?v2`` …), so two
conditions never have to hold of one spec; the ordering attribute is ``?so``/``?val`` and a
tie-breaker ``?so2``/``?val2``. A condition the question states twice is written once: a
conjunction of one condition with itself selects the same products, while each extra join made
the store's planning and evaluation grow faster than the question (a long pasted question
repeating itself took minutes).

A condition on a range of values is its own sub-select of the products it holds of, ``{ SELECT
DISTINCT ?p WHERE { … FILTER(…) } }``, joined on ``?p`` alone. Written inline, the store walked
every value row of the entry product by product beside the other conditions (about 100 ms per
question on 1,000 products); as a sub-select the range is found once and the sets are
intersected (10–20 ms, the same rows). So is any condition on the specs of a named entry (a value
list, a word in a value's name, a date), for the same reason and more so on full data sheets:
inline, the store walked every spec of every product the other conditions left (300 a product
on a heavy catalogue: 3.1 s for one value word over 1,600 products), where the entry's own specs
are a few per product (33 ms). A negated condition (``FILTER NOT EXISTS``) stays inline: alone it
tests every product holding the entry, where inline it tests the few the other conditions left
(two negated countries over 1,000 bikes: past the 20 s timeout as a sub-select, 0.1 s inline).
A condition on no entry (a brand, a category, a feature) stays inline: there the other conditions bind ``?p`` first, and on its own it would scan its
predicate over the whole catalogue (a text feature: 20 ms inline, 300 ms alone). Nothing
outside a condition reads its ``?s``/``?v`` variables, so either form selects the same rows.
"""

from __future__ import annotations

import re

from dualgraph.lexicon.pattern import fill
from dualgraph.query.ground.grounder import Grounding
from dualgraph.query.read.model import Intent

__all__ = ["condition_block", "order_block", "products_query", "select_query", "where_clauses"]

_ON_AN_ENTRY = re.compile(r"skg:inEntry (<[^<>\s]+>|\?\w+_e\b)")
"""A spec of a named entry (or of one of a named few: ``?s1_e`` is bound by VALUES or IN)."""


def products_query(blocks: list[str], filters: list[str], *, limit: int | None = None) -> str:
    """The products ``blocks`` and ``filters`` select, each once (``limit``: at most that many): the
    check a reading or a side of a comparison is put to before it is answered with.

    >>> print(products_query(["?p skg:hasBrand <b> ."], ["?v1 > 2"], limit=1))
    SELECT DISTINCT ?p WHERE {
      ?p a skgt:Product ; skg:hasName ?name .
      ?p skg:hasBrand <b> .
      FILTER(?v1 > 2)
    }
    LIMIT 1
    """
    where = ["?p a skgt:Product ; skg:hasName ?name .", *blocks, *(f"FILTER({f})" for f in filters)]
    return "SELECT DISTINCT ?p WHERE {\n  " + "\n  ".join(where) + "\n}" + (f"\nLIMIT {limit}" if limit else "")


def where_clauses(products: list[str], named: list[Grounding], rest: list[Grounding]) -> tuple[list[str], list[str]]:
    """The blocks and filters that select the ``products`` named, the names' word filters and every
    resolved grounding of ``rest`` (an unresolved one is left out: the caller lowers its confidence)."""
    blocks: list[str] = []
    filters: list[str] = []
    if products:
        blocks.append("VALUES ?p { " + " ".join(f"<{p}>" for p in products) + " }")
    filters += dict.fromkeys(ge.name_filter for ge in named if ge.resolved and ge.name_filter)
    seen: set[tuple[str | None, str | None, tuple[str, ...]]] = set()
    i = 0
    for gr in rest:
        if not gr.resolved:
            continue
        # the templates, before variables are numbered: equal templates are one condition
        key = (gr.name_filter, gr.snippet, tuple(gr.filters))
        if key in seen:
            continue
        seen.add(key)
        if gr.name_filter and gr.name_filter not in filters:
            filters.append(gr.name_filter)
        if gr.snippet:
            i += 1
            s, v = f"?s{i}", f"?v{i}"
            block = fill(gr.snippet, s, v)
            if gr.filters:  # a range over values: the set of products it holds of, found once
                own = " ".join(f"FILTER({f.replace('{v}', v)})" for f in gr.filters)
                block = condition_block(f"{block} {own}")
            elif _ON_AN_ENTRY.search(block) and "NOT EXISTS" not in block:  # see the module's note
                block = condition_block(block)
            blocks.append(block)
    return blocks, filters


def condition_block(body: str) -> str:
    """One condition as the set of products it holds of (see the module's note on why).

    >>> condition_block("?p skg:hasBrand ?s1 .")
    '{ SELECT DISTINCT ?p WHERE { ?p skg:hasBrand ?s1 . } }'
    """
    return f"{{ SELECT DISTINCT ?p WHERE {{ {body} }} }}"


def order_block(snippet: str, s: str, v: str, *, named: bool) -> str:
    """The block binding the ordering value ``v`` of each product (a superlative, an average).

    On a named entry and with no products named, it is a sub-select of the entry's own specs,
    projecting ``?p`` and ``v``: inline, the store walked every spec of every product in scope
    (a category's biggest battery over 1,600 full data sheets: about 250 ms, as a sub-select
    20–40 ms, the same rows). With products named (``VALUES ?p``, a value lookup, a comparison of
    two) inline is the cheap form: a few products' specs against every holder of the entry.

    >>> order_block("?p skg:hasSpec {s} . {s} skg:inEntry <e> ; skg:hasNumericValue {v} .", "?so", "?val",
    ...             named=False)
    '{ SELECT ?p ?val WHERE { ?p skg:hasSpec ?so . ?so skg:inEntry <e> ; skg:hasNumericValue ?val . } }'
    >>> order_block("?p skg:hasSpec {s} . {s} skg:inEntry <e> ; skg:hasNumericValue {v} .", "?so", "?val",
    ...             named=True)
    '?p skg:hasSpec ?so . ?so skg:inEntry <e> ; skg:hasNumericValue ?val .'
    """
    block = fill(snippet, s, v)
    if named or not _ON_AN_ENTRY.search(block) or "NOT EXISTS" in block:
        return block
    return f"{{ SELECT ?p {v} WHERE {{ {block} }} }}"


_GROUPING = {"brand": "skg:hasBrand", "line": "skg:inLine", "category": "skg:belongs"}
"""The relation of a product to each grouping a question may rank or count (see ``Intent.by``)."""


def _share_query(body: str, blocks: list[str], filters: list[str]) -> str:
    """How many products ``body`` selects (``?count``) beside how many ``blocks`` and ``filters`` do
    (``?all``): a share's two counts in one query."""
    of = "\n  ".join(["?p a skgt:Product ; skg:hasName ?name .", *blocks, *(f"FILTER({f})" for f in filters)])
    return (
        f"SELECT ?count ?all WHERE {{\n  {{ SELECT (COUNT(DISTINCT ?p) AS ?count) WHERE {{\n  {body}\n  }} }}\n"
        f"  {{ SELECT (COUNT(DISTINCT ?p) AS ?all) WHERE {{\n  {of}\n  }} }}\n}}"
    )


def select_query(
    intent: Intent,
    blocks: list[str],
    filters: list[str],
    *,
    ordered: bool,
    tie_broken: bool,
    count_ranges: bool,
    share_of: tuple[list[str], list[str]] | None = None,
) -> str:
    """The query over products matching all ``blocks`` and ``filters`` that ``intent`` asks for.

    ``ordered``: ``blocks`` bind the ordering value ``?val`` (and ``?val2`` when ``tie_broken``);
    ``count_ranges``: a count counts product ranges, not variants; ``share_of``: the blocks and filters
    of the products a share is taken of (``intent.share``): ``?all`` counts them beside ``?count``.

    >>> print(select_query(Intent("count"), ["?p skg:belongs ?c ."], [], ordered=False, tie_broken=False,
    ...                    count_ranges=False))
    SELECT (COUNT(DISTINCT ?p) AS ?count) WHERE {
      ?p a skgt:Product ; skg:hasName ?name .
      ?p skg:belongs ?c .
    }
    """
    where = ["?p a skgt:Product ; skg:hasName ?name ."] + blocks
    where += [f"FILTER({f})" for f in filters]
    body = "\n  ".join(where)
    if intent.kind == "count" and intent.share and share_of is not None:
        return _share_query(body, *share_of)
    if intent.kind == "count" and count_ranges:
        # a variant without a range counts as its own range
        return (
            f"SELECT (COUNT(DISTINCT ?unit) AS ?count) WHERE {{\n  {body}\n"
            f"  OPTIONAL {{ ?p skg:variantOf ?range }} BIND(COALESCE(?range, ?p) AS ?unit)\n}}"
        )
    if intent.by:  # the catalogue's brands, lines or sections, not its products
        rel = _GROUPING[intent.by]
        if intent.kind == "count":
            return f"SELECT (COUNT(DISTINCT ?grp) AS ?count) WHERE {{\n  {body}\n  ?p {rel} ?grp .\n}}"
        sort = "DESC" if intent.direction != "min" else "ASC"
        return (
            f"SELECT ?grp (SAMPLE(?gn) AS ?name) (COUNT(DISTINCT ?p) AS ?count) WHERE {{\n  {body}\n"
            f"  ?p {rel} ?grp . ?grp skg:hasName ?gn .\n}}\nGROUP BY ?grp\nORDER BY {sort}(?count) ?name"
        )
    if intent.kind == "count" and intent.groups:  # ?g: the group each product was found in
        return f"SELECT ?g (COUNT(DISTINCT ?p) AS ?count) WHERE {{\n  {body}\n}}\nGROUP BY ?g"
    if intent.kind == "count":
        return f"SELECT (COUNT(DISTINCT ?p) AS ?count) WHERE {{\n  {body}\n}}"
    if intent.kind == "average" and ordered and intent.groups:
        return (
            f"SELECT ?g (AVG(?pv) AS ?value) (COUNT(?p) AS ?count) WHERE {{\n"
            f"  {{ SELECT ?g ?p (MAX(?val) AS ?pv) WHERE {{\n  {body}\n  }} GROUP BY ?g ?p }}\n}}\nGROUP BY ?g"
        )
    if intent.kind == "average" and ordered and intent.statistic == "median":
        # the values themselves, one per product: the median is read from them
        return f"SELECT ?p (MAX(?val) AS ?value) WHERE {{\n  {body}\n}}\nGROUP BY ?p\nORDER BY ?value"
    if intent.kind == "average" and ordered:
        # one value per product first (a product may carry several rows), then their mean, sum or spread
        stat = "MAX(?pv) - MIN(?pv)" if intent.statistic == "spread" else "SUM(?pv)" if intent.total else "AVG(?pv)"
        return (
            f"SELECT ({stat} AS ?value) (COUNT(?p) AS ?count) WHERE {{\n"
            f"  {{ SELECT ?p (MAX(?val) AS ?pv) WHERE {{\n  {body}\n  }} GROUP BY ?p }}\n}}"
        )
    if ordered:
        agg, sort = ("MAX", "DESC") if intent.direction != "min" else ("MIN", "ASC")
        agg2, sort2 = ("MAX", "DESC") if intent.then_direction == "max" else ("MIN", "ASC")
        second = f" ({agg2}(?val2) AS ?value2)" if tie_broken else ""
        return (
            f"SELECT ?p ?name ({agg}(?val) AS ?value){second} WHERE {{\n  {body}\n}}\n"
            f"GROUP BY ?p ?name\nORDER BY {sort}(?value) " + (f"{sort2}(?value2) " if tie_broken else "") + "?name"
        )
    if intent.kind == "describe":
        return (
            "SELECT ?p ?name ?section ?entry ?value WHERE {\n  "
            + body
            + "\n  ?p skg:hasSpec ?s . ?s skg:inEntry ?e ; skg:hasValue ?vv .\n"
            "  ?e skg:hasName ?entry . OPTIONAL { ?e skg:inSection/skg:hasName ?section }\n"
            "  ?vv skg:hasName ?value .\n}\nORDER BY ?name ?section ?entry ?value"
        )
    return f"SELECT DISTINCT ?p ?name WHERE {{\n  {body}\n}}\nORDER BY ?name ?p"
