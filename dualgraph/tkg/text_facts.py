"""Text facts in the SKG: TKG entities as nodes, which products' pages mention them, and
which SKG nodes they name.

The paper left this as future work; it lets SPARQL filter on facts that exist only in
prose ("which phones have stereo speakers"). All these triples go to one graph,
``ontology.TEXT_GRAPH``, so they stay distinguishable from spec-derived facts and are
replaced as a whole when the TKG is rebuilt.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from dualgraph.skg import ontology as O
from dualgraph.skg.names import canonical, slug
from dualgraph.skg.terms import iri, literal
from dualgraph.tkg.model import Entity


def entity_iri(entity_id: str) -> str:
    return O.SKG + "entity-" + slug(entity_id)


def name_key(name: str) -> str:
    """The key two names must share to be aligned: canonical text without punctuation.

    >>> name_key("Wi-Fi 6E") == name_key("wi fi 6e")
    True
    """
    return " ".join("".join(ch if ch.isalnum() else " " for ch in canonical(name)).split())


def text_fact_nquads(
    entities: Iterable[Entity],
    chunk_products: Mapping[str, Iterable[str]],
    skg_names: Mapping[str, Iterable[str]] | None = None,
) -> str:
    """N-Quads for the text graph, each line once, sorted: :func:`iter_text_fact_nquads`
    gathered into one string.

    ``chunk_products`` maps a chunk id to the IRIs of the products of its page;
    ``skg_names`` maps :func:`name_key` of SKG node names to those nodes' IRIs.

    >>> e = Entity("e1", "Stereo speakers", "Loud stereo speakers.", ["c1"], 1)
    >>> q = text_fact_nquads([e], {"c1": ["http://x/p1"]}, {"stereo speakers": ["http://x/entry"]})
    >>> sorted(line.split()[1].rsplit("#", 1)[1][:-1] for line in q.splitlines())
    ['alignsWith', 'hasDescription', 'hasName', 'mentions', 'type']
    """
    return "".join(sorted(set(iter_text_fact_nquads(entities, chunk_products, skg_names))))


def iter_text_fact_nquads(
    entities: Iterable[Entity],
    chunk_products: Mapping[str, Iterable[str]],
    skg_names: Mapping[str, Iterable[str]] | None = None,
) -> Iterator[str]:
    """The lines of :func:`text_fact_nquads` entity by entity, in no order and possibly
    repeated (two entity ids may share a slug): for a sink that sorts and deduplicates them
    anyway, such as :func:`~dualgraph.pipeline.graph_sync.sync_graph`, without holding them all.

    >>> e = Entity("e1", "Speakers", "", ["c1", "c2"], 2)
    >>> len(list(iter_text_fact_nquads([e], {"c1": ["http://x/p1"], "c2": ["http://x/p1"]})))  # type, name, mentions
    3
    """
    g = iri(O.TEXT_GRAPH)
    skg_names = skg_names or {}
    for ent in entities:
        node = iri(entity_iri(ent.entity_id))
        yield f"{node} {iri(O.TYPE)} {iri(O.TEXT_ENTITY)} {g} .\n"
        yield f"{node} {iri(O.HAS_NAME)} {literal(ent.name)} {g} .\n"
        if ent.description:
            yield f"{node} {iri(O.HAS_DESCRIPTION)} {literal(ent.description)} {g} .\n"
        # an entity is mostly mentioned in several chunks of the same product's pages: one edge
        products = {p for chunk_id in ent.chunk_ids for p in chunk_products.get(chunk_id, ())}
        for product in products:
            yield f"{iri(product)} {iri(O.MENTIONS)} {node} {g} .\n"
        for target in skg_names.get(name_key(ent.name), ()):
            yield f"{node} {iri(O.ALIGNS_WITH)} {iri(target)} {g} .\n"


# SKG nodes a text entity may name (spec values are too many and too generic to align by
# name alone; the contrastive aligner handles them later).
ALIGNABLE = (O.PRODUCT, O.PRODUCT_RANGE, O.CATEGORY, O.ENTRY, O.FEATURE)


def skg_name_index(store) -> dict[str, list[str]]:
    """:func:`name_key` of every alignable SKG node's name -> the nodes' IRIs."""
    types = " ".join(f"<{t}>" for t in ALIGNABLE)
    res = store.select(f"SELECT DISTINCT ?x ?n WHERE {{ VALUES ?t {{ {types} }} ?x a ?t ; skg:hasName ?n }}")
    out: dict[str, list[str]] = {}
    for b in res["results"]["bindings"]:
        out.setdefault(name_key(b["n"]["value"]), []).append(b["x"]["value"])
    return {k: sorted(set(v)) for k, v in out.items()}
