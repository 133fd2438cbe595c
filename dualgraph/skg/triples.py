"""Spec tables to RDF: one document's variants into N-Quads in the document's named graph.

This is a plain function over one document, so the pipeline can run it in Ray
``map_batches`` and tests can call it directly. Nothing here needs a model or a store.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from dualgraph.corpus.model import Quarantine, Variant
from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg import quantities as Q
from dualgraph.skg.terms import decimal, iri, literal

# Bumped whenever the triples written for the same input change, so re-indexing
# notices that every document must be converted again.
CONVERTER_VERSION = "skg-1"


@dataclass(slots=True)
class Conversion:
    """The N-Quads of one document and what happened on the way."""

    nquads: str = ""
    n_quads: int = 0
    n_products: int = 0
    n_specs: int = 0
    problems: list[Quarantine] = field(default_factory=list)
    kept_as_text: list[dict[str, str]] = field(default_factory=list)


@functools.lru_cache(maxsize=1 << 18)
def _parse(part: str, entry: str, section: str) -> Q.Quantity | None:
    q = Q.parse_quantity(part, entry=entry, section=section)
    if q is None:
        price = Q.parse_price(part)
        if price is not None:
            amount, currency = price
            q = Q.Quantity(value=float(amount), unit=currency, dimension="currency")
    return q


@functools.lru_cache(maxsize=1 << 16)
def _split(value: str) -> tuple[str, ...]:
    return tuple(Q.split_values(value))


def _looks_numeric(text: str) -> bool:
    t = text.lstrip("~≈<>±+- ").lower()
    return bool(t) and t[0].isdigit()


def _quantity_objects(q: Q.Quantity) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if q.value is not None:
        out.append((O.HAS_NUMERIC_VALUE, decimal(Q.format_number(q.value))))
    for pred, x in zip(O.HAS_DIM, q.dims):
        out.append((pred, decimal(Q.format_number(x))))
    if q.low is not None:
        out.append((O.HAS_MIN_VALUE, decimal(Q.format_number(q.low))))
    if q.high is not None:
        out.append((O.HAS_MAX_VALUE, decimal(Q.format_number(q.high))))
    if q.unit:
        out.append((O.HAS_UNIT, literal(q.unit)))
    if q.qualifier:
        out.append((O.HAS_QUALIFIER, literal(q.qualifier)))
    return out


def convert_document(doc_id: str, variants: list[Variant], *, source: str = "") -> Conversion:
    """All triples of one document, in its own named graph.

    >>> v = Variant("Phone X 8GB", "Phone X", ("phones",), (("Battery:Capacity", "5000 mAh"), ("Price", "199.00 GBP")))
    >>> c = convert_document("file-1", [v])
    >>> (c.n_products, c.n_specs, "5000" in c.nquads)
    (1, 2, True)
    """
    g = O.document_graph(doc_id)
    vocab = O.VOCAB_GRAPH
    lines: list[str] = []
    seen: set[str] = set()
    out = Conversion()

    def add(s: str, p: str, o: str, *, shared: bool = False) -> None:
        line = f"<{s}> <{p}> {o} <{vocab if shared else g}> .\n"
        if line not in seen:
            seen.add(line)
            lines.append(line)

    products: set[str] = set()
    for idx, variant in enumerate(variants):
        try:
            products.add(_convert_variant(variant, add, out, doc_id=doc_id))
        except Exception as e:  # one odd variant must not sink the document
            out.problems.append(
                Quarantine(
                    file=source or doc_id,
                    record=f"variant[{idx}] {variant.name!r}",
                    stage="convert",
                    reason=f"{type(e).__name__}: {e}",
                )
            )
    out.nquads = "".join(lines)
    out.n_quads = len(lines)
    out.n_products = len(products)
    return out


def _convert_variant(variant: Variant, add, out: Conversion, *, doc_id: str) -> str:
    product = N.product_iri(variant.name, variant.model_code)
    rng = N.range_iri(variant.prod_range)
    add(product, O.TYPE, iri(O.PRODUCT))
    add(product, O.HAS_NAME, literal(variant.name))
    add(product, O.VARIANT_OF, iri(rng))
    add(product, O.FROM_DOCUMENT, literal(doc_id))
    if variant.model_code:
        add(product, O.HAS_MODEL_CODE, literal(variant.model_code))
    add(rng, O.TYPE, iri(O.PRODUCT_RANGE), shared=True)
    add(rng, O.HAS_NAME, literal(variant.prod_range), shared=True)
    for cat in variant.categories:
        c = N.category_iri(cat)
        add(c, O.TYPE, iri(O.CATEGORY), shared=True)
        add(c, O.HAS_NAME, literal(cat), shared=True)
        add(rng, O.BELONGS, iri(c), shared=True)
    for key, raw in variant.specs:
        section, entry = N.split_spec_key(key)
        sec = N.section_iri(section)
        ent = N.entry_iri(section, entry)
        add(sec, O.TYPE, iri(O.SECTION), shared=True)
        add(sec, O.HAS_NAME, literal(section), shared=True)
        add(ent, O.TYPE, iri(O.ENTRY), shared=True)
        add(ent, O.HAS_NAME, literal(entry), shared=True)
        add(ent, O.IN_SECTION, iri(sec), shared=True)
        for part in _split(raw):
            val = N.value_iri(section, entry, part)
            spec = N.spec_iri(product, section, entry, part)
            add(val, O.TYPE, iri(O.VALUE), shared=True)
            add(val, O.HAS_NAME, literal(part), shared=True)
            add(product, O.HAS_SPEC, iri(spec))
            add(spec, O.TYPE, iri(O.SPEC))
            add(spec, O.IN_SECTION, iri(sec))
            add(spec, O.IN_ENTRY, iri(ent))
            add(spec, O.HAS_VALUE, iri(val))
            out.n_specs += 1
            q = _parse(part, entry, section)
            if q is None:
                if _looks_numeric(part):
                    out.kept_as_text.append({"record": f"{variant.name} / {key}", "value": part})
                continue
            for pred, obj in _quantity_objects(q):
                add(spec, pred, obj)
    return product
