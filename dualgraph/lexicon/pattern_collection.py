"""Collecting the patterns of a populated SKG: the aggregate SPARQL queries and the
:class:`~dualgraph.lexicon.pattern.Pattern` built from each of their rows.

Unlike the reference, which stored one row per distinct (section, entry, value) and
nothing about numbers, patterns are aggregated per entry (and per unit for numbers),
so a question constraint such as "battery over 5000 mAh" grounds on one pattern whose
range and unit say how to compare. Every statistic is computed in SPARQL (``GROUP
BY``), never by pulling spec rows into Python.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from dualgraph.lexicon.pattern import Pattern, pattern_id
from dualgraph.progress import progress_bar
from dualgraph.skg import ontology as O
from dualgraph.skg.spec_table import SpecTables, pattern_rows
from dualgraph.stores.base import SparqlStore

__all__ = ["TOP_VALUES", "collect_patterns"]

TOP_VALUES = 20
"""How many of an entry's most common values a ``spec_value`` pattern keeps."""
# An entry with more distinct values than this, most of them held by one product each,
# is an identifier or free text (model codes, descriptions): an "entry" pattern, not a value list.
_FREE_TEXT_MIN_DISTINCT = 50
_FREE_TEXT_RATIO = 0.5


def _rows(store: SparqlStore, query: str) -> list[dict[str, str]]:
    res = store.select(query)
    return [{k: v["value"] for k, v in b.items()} for b in res["results"]["bindings"]]


def _num(text: str | None) -> float | None:
    if text is None:
        return None
    x = float(text)
    return int(x) if x.is_integer() and abs(x) < 1e15 else x


def _fmt(x: float | None) -> str:
    if x is None:
        return "?"
    if isinstance(x, int) or float(x).is_integer():
        return str(int(x))
    return f"{x:.6g}"


def _dimension(unit: str | None) -> str | None:
    """The physical dimension of a stored (canonical) unit, e.g. ``"data"`` for GB."""
    if not unit:
        return None
    from dualgraph.skg import quantities as Q

    found = Q._lookup(unit)  # the unit table of the converter, so the two never disagree
    if found is not None:
        return found.dimension
    return "currency" if len(unit) == 3 and unit.isalpha() and unit.isupper() else None


def _lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


Q_ENTRIES = """
SELECT ?e (MIN(STR(?en)) AS ?entry) (MIN(STR(?sn)) AS ?section) (COUNT(DISTINCT ?p) AS ?products)
       (COUNT(DISTINCT ?v) AS ?distinct)
WHERE { ?e a skgt:Entry ; skg:hasName ?en ; skg:inSection ?sec . ?sec skg:hasName ?sn .
        ?s skg:inEntry ?e ; skg:hasValue ?v . ?p skg:hasSpec ?s }
GROUP BY ?e
"""
Q_VALUES = """
SELECT ?e ?v (MIN(STR(?vn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?s skg:inEntry ?e ; skg:hasValue ?v . ?p skg:hasSpec ?s . ?v skg:hasName ?vn }
GROUP BY ?e ?v
"""
# One row per entry, unit, dimension and label of the quantities spec values hold ("" = no label).
_Q_BODY = """?s skg:inEntry ?e ; skg:hasQuantity ?q . ?q skg:hasNumericValue ?n . ?p skg:hasSpec ?s .
        OPTIONAL { ?q skg:hasUnit ?u } OPTIONAL { ?q skg:hasDimension ?d }
        OPTIONAL { ?q skg:hasLabel ?l0 } BIND(COALESCE(?l0, "") AS ?l)"""
Q_NUMERIC = f"""
SELECT ?e ?u ?d ?l (MIN(?n) AS ?lo) (MAX(?n) AS ?hi) (COUNT(DISTINCT ?p) AS ?products)
WHERE {{ {_Q_BODY} }}
GROUP BY ?e ?u ?d ?l
"""
Q_NUMERIC_MODE = f"""
SELECT ?e ?u ?d ?l ?n (COUNT(DISTINCT ?p) AS ?products)
WHERE {{ {_Q_BODY} }}
GROUP BY ?e ?u ?d ?l ?n
"""
# Products holding quantities of two labels in one entry and unit: such labels name different
# attributes ("ram" and "inbuilt" in "8 GB RAM, 128 GB inbuilt"); labels that never meet on one
# product only describe ("Li-Po 5000 mAh" vs "5000 mAh") and fold into one pattern.
# One group per product, entry and unit, kept only where labels meet: a pairwise join of an
# entry's specs instead grows with the square of the products sharing that entry.
_LABEL_SEP = "\u001f"  # a control character: cleaned out of every stored name and label
Q_LABELS_MEET = f"""
SELECT ?e ?u (GROUP_CONCAT(DISTINCT ?l; SEPARATOR="{_LABEL_SEP}") AS ?labels)
WHERE {{ ?p skg:hasSpec ?s . ?s skg:inEntry ?e ; skg:hasQuantity ?q . ?q skg:hasNumericValue ?n .
        OPTIONAL {{ ?q skg:hasUnit ?u0 }} BIND(COALESCE(?u0, "") AS ?u)
        OPTIONAL {{ ?q skg:hasLabel ?l0 }} BIND(COALESCE(?l0, "") AS ?l) }}
GROUP BY ?p ?e ?u
HAVING (COUNT(DISTINCT ?l) > 1)
"""
_DISTINCT_SHARE = 0.5
"""A label is an attribute of its own when this share of its products also hold another label there."""


Q_FEATURES = """
SELECT ?f (MIN(STR(?fn)) AS ?name) (MIN(STR(?sn)) AS ?section) (COUNT(DISTINCT ?p) AS ?products) ?how
WHERE { ?f a skgt:Feature ; skg:hasName ?fn .
        OPTIONAL { ?f (skg:inSection|skg:fromEntry/skg:inSection)/skg:hasName ?sn }
        { ?p skg:hasFeature ?f . BIND("has" AS ?how) } UNION { ?p skg:lacksFeature ?f . BIND("lacks" AS ?how) }
        ?p a skgt:Product . }
GROUP BY ?f ?how
"""
Q_CATEGORIES = """
SELECT ?c (MIN(STR(?cn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?c a skgt:Category ; skg:hasName ?cn . ?p skg:belongs ?c ; a skgt:Product . }
GROUP BY ?c
"""
Q_RANGES = """
SELECT ?r (MIN(STR(?rn)) AS ?name) (COUNT(DISTINCT ?p) AS ?products)
WHERE { ?r a skgt:ProductRange ; skg:hasName ?rn . ?p skg:variantOf ?r ; a skgt:Product . }
GROUP BY ?r
"""
Q_PRODUCTS = """
SELECT ?p (MIN(STR(?pn)) AS ?name) WHERE { ?p a skgt:Product ; skg:hasName ?pn } GROUP BY ?p
"""
_QUERIES = (
    Q_ENTRIES,
    Q_VALUES,
    Q_NUMERIC,
    Q_LABELS_MEET,
    Q_NUMERIC_MODE,
    Q_FEATURES,
    Q_CATEGORIES,
    Q_RANGES,
    Q_PRODUCTS,
)


def _label_groups(numeric_rows: list[dict[str, str]], meeting: list[dict[str, str]]) -> dict[tuple, dict[str, str]]:
    """Per (entry, unit, dimension): each label -> the group it belongs to (itself, or "" when it folds).

    ``meeting``: the rows of :data:`Q_LABELS_MEET`."""
    products: dict[tuple[str, str, str], int] = {}
    for r in numeric_rows:
        key = (r["e"], r.get("u") or "", r["l"])
        products[key] = products.get(key, 0) + int(r["products"])
    # products per (entry, unit, label, other label) that hold both; a label's meeting count is its best pair
    pairs: dict[tuple[str, str, str, str], int] = {}
    for r in meeting:
        labels = set(r["labels"].split(_LABEL_SEP))
        for a in labels:
            for b in labels - {a}:
                pairs[(r["e"], r["u"], a, b)] = pairs.get((r["e"], r["u"], a, b), 0) + 1
    meets: dict[tuple[str, str, str], int] = {}
    for (e, u, a, _), n in pairs.items():
        meets[(e, u, a)] = max(meets.get((e, u, a), 0), n)
    out: dict[tuple, dict[str, str]] = {}
    for r in numeric_rows:
        lab = r["l"]
        key = (r["e"], r.get("u") or "", lab)
        own = bool(lab) and meets.get(key, 0) >= _DISTINCT_SHARE * products.get(key, 1)
        out.setdefault((r["e"], r.get("u"), r.get("d")), {})[lab] = lab if own else ""
    return out


def collect_patterns(
    store: SparqlStore, *, top_values: int = TOP_VALUES, progress: bool = False, specs: SpecTables | None = None
) -> list[Pattern]:
    """Every pattern of the populated (rules applied) SKG, in a deterministic order.

    Eight aggregate queries: entries (section, product and distinct-value counts),
    product counts per value, numeric min/max per entry and unit, the most common number
    per entry and unit, features (products having / lacking each), categories, ranges,
    products. An entry yields a ``spec_value`` pattern (or an ``entry`` pattern when its
    values are identifiers or free text) and one ``spec_numeric`` pattern per unit.
    ``progress``: a bar counting the queries (each is a pass over the whole catalog).
    ``specs``: the converter's spec tables; the five spec statistics are then counted from
    them (:func:`~dualgraph.skg.spec_table.pattern_rows`), giving the same rows as the queries.
    """
    counted = pattern_rows(specs) if specs is not None else {}
    from_tables = {Q_ENTRIES: "entries", Q_VALUES: "values", Q_NUMERIC: "numeric", Q_LABELS_MEET: "labels_meet"}
    from_tables[Q_NUMERIC_MODE] = "numeric_mode"
    with progress_bar("patterns", total=len(_QUERIES), unit="query", enabled=progress) as bar:

        def rows(query: str) -> list[dict[str, str]]:
            found = counted[from_tables[query]] if counted and query in from_tables else _rows(store, query)
            bar.update(1)
            return found

        return _collect(rows, top_values)


def _collect(rows: Callable[[str], list[dict[str, str]]], top_values: int) -> list[Pattern]:
    out: list[Pattern] = []
    entries = {r["e"]: r for r in rows(Q_ENTRIES)}

    by_entry: dict[str, list[dict[str, Any]]] = {}
    for r in rows(Q_VALUES):
        by_entry.setdefault(r["e"], []).append({"name": r["name"], "iri": r["v"], "count": int(r["products"])})

    numeric_rows = rows(Q_NUMERIC)
    groups = _label_groups(numeric_rows, rows(Q_LABELS_MEET))

    modes: dict[tuple[str, str | None, str | None, str], tuple[int, float]] = {}
    for r in rows(Q_NUMERIC_MODE):
        key = (r["e"], r.get("u"), r.get("d"), groups.get((r["e"], r.get("u"), r.get("d")), {}).get(r["l"], ""))
        n = _num(r["n"])
        if n is None:
            continue
        cand = (int(r["products"]), float(n))
        best = modes.get(key)
        if best is None or (cand[0], -cand[1]) > (best[0], -best[1]):  # most products, then smallest
            modes[key] = cand

    merged: dict[tuple[str, str | None, str | None, str], dict[str, Any]] = {}
    for r in numeric_rows:
        fold = groups.get((r["e"], r.get("u"), r.get("d")), {})
        key = (r["e"], r.get("u"), r.get("d"), fold.get(r["l"], ""))
        m = merged.setdefault(key, {"lo": None, "hi": None, "count": 0, "labels": {}})
        lo, hi = _num(r["lo"]), _num(r["hi"])
        m["lo"] = lo if m["lo"] is None or (lo is not None and lo < m["lo"]) else m["lo"]
        m["hi"] = hi if m["hi"] is None or (hi is not None and hi > m["hi"]) else m["hi"]
        m["count"] += int(r["products"])  # an upper bound when labels fold: close enough to rank by
        m["labels"][r["l"]] = int(r["products"])

    numeric_products: dict[str, int] = {}
    for (e_iri, unit, dim, label), m in sorted(merged.items(), key=lambda kv: tuple(x or "" for x in kv[0])):
        e = entries.get(e_iri)
        numeric_products[e_iri] = max(numeric_products.get(e_iri, 0), m["count"])
        if e is None:
            continue
        fold = groups.get((e_iri, unit, dim), {})
        own = {lab for lab, g in fold.items() if g and g == lab}  # labels that are attributes of their own
        lo, hi, count = m["lo"], m["hi"], m["count"]
        # a group's name: its own label, else the label most of its products carry (for lexical matching)
        shown = label or max(m["labels"], key=lambda k: (m["labels"][k], k))
        mode = modes.get((e_iri, unit, dim, label))
        in_unit = f" in {unit}" if unit else ""
        what = f" {shown}:" if shown else ":"
        text = f"{e['section']} › {e['entry']}{what} a number{in_unit}, from {_fmt(lo)} to {_fmt(hi)}"
        if mode is not None:
            text += f" (e.g. {_fmt(mode[1])}{' ' + unit if unit else ''})"
        unit_triple = f" skg:hasUnit {_lit(unit)} ;" if unit else ""
        sparql = (
            f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{e_iri}> ; skg:hasQuantity {{s}}_q . "
            f"{{s}}_q{unit_triple} skg:hasNumericValue {{v}} ."
        )
        if not unit:
            sparql += " FILTER NOT EXISTS { {s}_q skg:hasUnit ?unit_ }"
            sparql += (
                f" {{s}}_q skg:hasDimension {_lit(dim)} ."
                if dim
                else " FILTER NOT EXISTS { {s}_q skg:hasDimension ?dim_ }"
            )
        if label:
            sparql += f" {{s}}_q skg:hasLabel {_lit(label)} ."
        elif own:
            others = ", ".join(_lit(x) for x in sorted(own))
            sparql += f" FILTER NOT EXISTS {{ {{s}}_q skg:hasLabel ?lab_ FILTER(?lab_ IN ({others})) }}"
        out.append(
            Pattern(
                pattern_id=pattern_id(
                    "spec_numeric", e_iri, unit or "", *((dim or "", label) if (dim or label) else ())
                ),
                kind="spec_numeric",
                text=text,
                sparql=sparql,
                name=shown or e["entry"],
                section=e["section"],
                entry=e["entry"],
                entry_iri=e_iri,
                unit=unit,
                dimension=dim or _dimension(unit),
                min=lo,
                max=hi,
                count=count,
                label=shown or None,
            )
        )

    for e_iri in sorted(entries):
        e = entries[e_iri]
        values = sorted(by_entry.get(e_iri, []), key=lambda v: (-v["count"], v["name"], v["iri"]))
        distinct, count = int(e["distinct"]), int(e["products"])
        numeric = numeric_products.get(e_iri, 0)  # a numeric entry stays a value list: its values compare
        free = (
            distinct > _FREE_TEXT_MIN_DISTINCT
            and distinct > _FREE_TEXT_RATIO * count
            and numeric < _FREE_TEXT_RATIO * count
        )
        top = values[:top_values]
        names = ", ".join(v["name"] for v in top[:8])
        label = f"{e['section']} › {e['entry']}"
        if free:
            kind, text = "entry", f"{label}: free text or identifiers, e.g. {names}"
            top = top[:5]
        else:
            more = f" ({distinct} distinct)" if distinct > 8 else ""
            kind, text = "spec_value", f"{label}: values like {names}{more}"
        out.append(
            Pattern(
                pattern_id=pattern_id("spec_value", e_iri),
                kind=kind,
                text=text,
                sparql=f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry <{e_iri}> ; skg:hasValue {{v}} .",
                name=e["entry"],
                section=e["section"],
                entry=e["entry"],
                entry_iri=e_iri,
                count=count,
                distinct_values=distinct,
                values=top,
            )
        )

    features: dict[str, dict[str, Any]] = {}
    for r in rows(Q_FEATURES):
        f = features.setdefault(r["f"], {"name": r["name"], "section": r.get("section"), "has": 0, "lacks": 0})
        f[r["how"]] = int(r["products"])
    for f_iri in sorted(features):
        f = features[f_iri]
        where = f" ({f['section']})" if f["section"] else ""
        out.append(
            Pattern(
                pattern_id=pattern_id("feature", f_iri),
                kind="feature",
                text=f"feature: {f['name']}{where}",
                sparql=f"?p skg:hasFeature <{f_iri}> .",
                name=f["name"],
                section=f["section"],
                entry=f["name"] if f["section"] else None,
                entry_iri=f_iri if f["section"] else None,
                count=f["has"],
                feature_iri=f_iri,
                node_iri=f_iri,
                lacks_count=f["lacks"],
                lacks_sparql=f"?p skg:lacksFeature <{f_iri}> .",
            )
        )

    for kind, query, pred in (("category", Q_CATEGORIES, O.BELONGS), ("range", Q_RANGES, O.VARIANT_OF)):
        var = "c" if kind == "category" else "r"
        for r in sorted(rows(query), key=lambda r: r[var]):
            out.append(
                Pattern(
                    pattern_id=pattern_id(kind, r[var]),
                    kind=kind,
                    text=f"{kind}: {r['name']}",
                    sparql=f"?p <{pred}> <{r[var]}> .",
                    name=r["name"],
                    count=int(r["products"]),
                    node_iri=r[var],
                )
            )

    for r in sorted(rows(Q_PRODUCTS), key=lambda r: r["p"]):
        out.append(
            Pattern(
                pattern_id=pattern_id("product", r["p"]),
                kind="product",
                text=f"product: {r['name']}",
                sparql=f"VALUES ?p {{ <{r['p']}> }}",
                name=r["name"],
                count=1,
                node_iri=r["p"],
            )
        )
    return out
