"""The catalog facts of :mod:`dualgraph.skg.catalog_facts` in the graph: their nodes, their N-Quads in
the catalog graph, and the store round trip (records read with a few aggregate queries, the graph
replaced as a whole after every load, like the derived graph).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_facts import (
    CatalogFacts,
    CatalogWords,
    ProductRecord,
    derive_facts,
    load_words,
    pick_brand_entries,
)
from dualgraph.skg.coded_terms import count_summary as coded_summary
from dualgraph.skg.coded_terms import read_sources as read_coded_terms
from dualgraph.skg.coded_terms import sources_from_tables as coded_from_tables
from dualgraph.skg.coded_terms import to_nquads as coded_nquads
from dualgraph.skg.names import category_iri, slug
from dualgraph.skg.spec_table import SpecTables
from dualgraph.skg.terms import iri, literal, quad
from dualgraph.stores.base import SparqlStore, select_paged

__all__ = ["brand_iri", "derive_catalog_facts", "line_iri", "read_records", "to_nquads"]


# -- the graph ------------------------------------------------------------------------------


def brand_iri(key: str) -> str:
    """The node of a brand, from its key (see :func:`name_key`).

    >>> from dualgraph.skg.catalog_facts import name_key
    >>> brand_iri(name_key("One Plus"))
    'https://w3id.org/dualgraph/skg#brand-oneplus'
    """
    return O.SKG + "brand-" + slug(key)


def line_iri(brand: str, key: str) -> str:
    """The node of a product line, scoped by its brand (slugs hold no dot, so none collide).

    >>> from dualgraph.skg.catalog_facts import name_key
    >>> line_iri("samsung", name_key("Galaxy S"))
    'https://w3id.org/dualgraph/skg#line-samsung.galaxys'
    >>> line_iri("", "galaxys")
    'https://w3id.org/dualgraph/skg#line-galaxys'
    """
    return O.SKG + "line-" + (slug(brand) + "." if brand else "") + slug(key)


def to_nquads(facts: CatalogFacts, *, graph: str = O.CATALOG_GRAPH, categories: Mapping[str, str] | None = None) -> str:
    """The facts as N-Quads in ``graph``; ``categories`` maps a category name to its node.

    >>> facts = derive_facts([ProductRecord("http://x/p", "Acme A1", categories=("tools",)),
    ...                       ProductRecord("http://x/q", "Acme B2", categories=("tools",))])
    >>> nq = to_nquads(facts)
    >>> nq.count("#hasBrand>"), nq.count("#hasType>"), nq.count("#inLine>")
    (2, 2, 0)
    """
    categories = categories or {}

    def cat(name: str) -> str:
        return categories.get(name) or category_iri(name)

    g = graph
    out: list[str] = []
    for b in sorted(facts.brands.values(), key=lambda b: b.key):
        node = brand_iri(b.key)
        out.append(quad(node, O.TYPE, iri(O.BRAND), g))
        out.append(quad(node, O.HAS_NAME, literal(b.name), g))
    for line in sorted(facts.lines.values(), key=lambda x: x.id):
        node = line_iri(line.brand, line.key)
        out.append(quad(node, O.TYPE, iri(O.PRODUCT_LINE), g))
        out.append(quad(node, O.HAS_NAME, literal(line.name), g))
        if line.brand:
            out.append(quad(node, O.HAS_BRAND, iri(brand_iri(line.brand)), g))
        if line.broader is not None:
            out.append(quad(node, O.BROADER, iri(line_iri(line.brand, line.broader)), g))
    for p in sorted(facts.product_brand):
        out.append(quad(p, O.HAS_BRAND, iri(brand_iri(facts.product_brand[p])), g))
    for p in sorted(facts.product_lines):
        for brand, key in facts.product_lines[p]:
            out.append(quad(p, O.IN_LINE, iri(line_iri(brand, key)), g))
    for p in sorted(facts.product_types):
        for c in facts.product_types[p]:
            out.append(quad(p, O.HAS_TYPE, iri(cat(c)), g))
    for narrow, wide in facts.type_broader:
        out.append(quad(cat(narrow), O.BROADER, iri(cat(wide)), g))
    return "".join(out)


Q_PRODUCTS = """
SELECT ?p (MIN(STR(?pn)) AS ?name) (MIN(STR(?rn)) AS ?range)
WHERE { ?p a skgt:Product ; skg:hasName ?pn .
        OPTIONAL { ?p skg:variantOf ?r . ?r skg:hasName ?rn }
        #page
}
GROUP BY ?p
"""
# Categories come through the range (the rule that copies them to products may not have run).
Q_PRODUCT_CATEGORIES = """
SELECT ?p (GROUP_CONCAT(DISTINCT STR(?c); separator=" ") AS ?cats)
WHERE { ?p a skgt:Product .
        { ?p skg:variantOf ?r . ?r skg:belongs ?c } UNION { ?p skg:belongs ?c }
        #page
}
GROUP BY ?p
"""
Q_CATEGORIES = """
SELECT ?c (MIN(STR(?cn)) AS ?name) WHERE { ?c a skgt:Category ; skg:hasName ?cn . #page
} GROUP BY ?c
"""
Q_ENTRIES = """
SELECT ?e (MIN(STR(?en)) AS ?name) (MIN(STR(?sn)) AS ?section)
WHERE { ?e a skgt:Entry ; skg:hasName ?en . OPTIONAL { ?e skg:inSection ?sec . ?sec skg:hasName ?sn } #page
} GROUP BY ?e
"""
# Values are URI-encoded so that a space can separate them whatever they contain.
Q_ENTRY_VALUES = """
SELECT ?p (GROUP_CONCAT(DISTINCT ENCODE_FOR_URI(STR(?vn)); separator=" ") AS ?values)
WHERE { ?s skg:inEntry <%s> ; skg:hasValue ?v . ?v skg:hasName ?vn . ?p skg:hasSpec ?s .
        #page
}
GROUP BY ?p
"""


def read_records(
    store: SparqlStore, *, words: CatalogWords | None = None, page_size: int | None = None
) -> tuple[list[ProductRecord], dict[str, str]]:
    """The product records of a store, and each category name's node.

    Four aggregate queries (products, their categories, category names, entry names) and
    one per brand-named entry for its values.
    """
    words = words or load_words()
    products = select_paged(store, Q_PRODUCTS, "p", page_size)
    cat_names = {r["c"]: r.get("name", "") for r in select_paged(store, Q_CATEGORIES, "c", page_size)}
    cats: dict[str, list[str]] = {}
    for r in select_paged(store, Q_PRODUCT_CATEGORIES, "p", page_size):
        cats[r["p"]] = sorted({cat_names[c] for c in r.get("cats", "").split() if cat_names.get(c)})
    names = {r["p"]: r.get("name", "") for r in products}
    entries: dict[str, tuple[str, Mapping[str, Sequence[str]]]] = {}
    for r in select_paged(store, Q_ENTRIES, "e", page_size):
        if words.is_brand_entry(r.get("name", "")):
            values = {
                v["p"]: [unquote(x) for x in v.get("values", "").split() if x]
                for v in select_paged(store, Q_ENTRY_VALUES % r["e"], "p", page_size)
            }
            entries[r["e"]] = (r.get("section", ""), values)
    brands: dict[str, list[str]] = defaultdict(list)
    for e in pick_brand_entries(entries, names, words=words):
        for p, vals in entries[e][1].items():
            brands[p] += [v for v in vals if v not in brands[p]]
    records = [
        ProductRecord(
            iri=r["p"],
            name=r.get("name", ""),
            range=r.get("range", ""),
            categories=tuple(cats.get(r["p"], ())),
            brands=tuple(brands.get(r["p"], ())),
        )
        for r in products
    ]
    return records, {name: c for c, name in sorted(cat_names.items())}


def changed_subjects(old: Path, new: Path) -> set[str]:
    """The subject IRIs of the N-Quads lines in one file and not the other (all of ``new``'s when
    ``old`` is missing): the nodes whose catalog facts a run changed.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "a").write_text("<x:p> <x:q> 1 <x:g> .\\n<x:r> <x:q> 2 <x:g> .\\n")
    >>> _ = (d / "b").write_text("<x:p> <x:q> 1 <x:g> .\\n<x:s> <x:q> 2 <x:g> .\\n")
    >>> sorted(changed_subjects(d / "a", d / "b"))
    ['x:r', 'x:s']
    """

    def lines(path: Path) -> set[str]:
        return set(path.read_text(encoding="utf-8").splitlines()) if path.is_file() else set()

    before, after = lines(old), lines(new)
    return {line.split(" ", 1)[0][1:-1] for line in before ^ after if line.startswith("<")}


def derive_catalog_facts(
    store: SparqlStore,
    *,
    graph: str = O.CATALOG_GRAPH,
    page_size: int | None = None,
    words: CatalogWords | None = None,
    progress: bool = False,
    specs: SpecTables | None = None,
    keep: Path | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Derive brands, lines, types and coded terms (:mod:`~dualgraph.skg.coded_terms`) from the
    store and replace ``graph`` with them. ``progress``: a bar over the four steps. ``specs``: the
    converter's spec tables, from which the coded terms are read instead of the store.
    ``keep``: where to leave the N-Quads written (replaced atomically), so that the next run can
    tell which products' catalog facts changed (:func:`changed_subjects`).

    ``page_size`` pages the reads (default: the store's row cap, if it declares one);
    ``options`` go to :func:`derive_facts`. Returns counts for the manifest.

    >>> from dualgraph.stores.oxigraph import OxigraphStore
    >>> derive_catalog_facts(OxigraphStore.in_memory())["brands"]
    0
    """
    from dualgraph.progress import progress_bar

    started = time.time()
    page_size = page_size or getattr(store, "max_rows", None)
    with progress_bar("catalog facts", total=4, unit="step", enabled=progress) as bar:
        records, category_nodes = read_records(store, words=words, page_size=page_size)
        bar.update(1)
        facts = derive_facts(records, **options)
        bar.update(1)
        codes = coded_from_tables(specs) if specs is not None else read_coded_terms(store, page_size=page_size)
        bar.update(1)
        text = to_nquads(facts, graph=graph, categories=category_nodes) + coded_nquads(codes, graph=graph)
        store.drop_graph(graph)
        quads = 0
        if text:
            with tempfile.TemporaryDirectory(prefix="dualgraph-catalog-") as tmp:
                path = Path(tmp) / "catalog.nq"
                path.write_text(text, encoding="utf-8")
                quads = store.bulk_load(path, format="nquads")
        if keep is not None:
            tmp_keep = keep.with_name(keep.name + ".tmp")
            tmp_keep.write_text(text, encoding="utf-8")
            os.replace(tmp_keep, keep)
        bar.update(1)
    top_brands = sorted(facts.brands.values(), key=lambda b: (-b.products, b.key))[:10]
    top_lines = sorted(facts.lines.values(), key=lambda x: (-x.products, x.id))[:10]
    return {
        "products": len(records),
        "brands": len(facts.brands),
        "lines": len(facts.lines),
        "products_with_brand": len(facts.product_brand),
        "products_with_line": len(facts.product_lines),
        "products_with_type": len(facts.product_types),
        "type_broader": len(facts.type_broader),
        "brand_sources": dict(sorted(Counter(facts.brand_source.values()).items())),
        "example_brands": [b.name for b in top_brands],
        "example_lines": [
            (facts.brands[x.brand].name + " " if x.brand else "") + x.name + f" ({x.products})" for x in top_lines
        ],
        "coded_terms": coded_summary(codes),
        "quads": quads,
        "seconds": round(time.time() - started, 3),
    }
