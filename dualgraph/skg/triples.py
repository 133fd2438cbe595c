"""Spec tables to RDF: one document's variants into N-Quads in the document's named graph.

This is a plain function over one document, so the pipeline can run it in Ray
``map_batches`` and tests can call it directly. Nothing here needs a model or a store.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from dualgraph.quarantine import Quarantine
from dualgraph.skg import currencies
from dualgraph.skg import dates as D
from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg import quantities as Q
from dualgraph.skg import spotting as S
from dualgraph.skg.rules import def_regex
from dualgraph.skg.spec_table import UNIT_SEP
from dualgraph.skg.terms import decimal, integer, iri, literal

# Bumped whenever the triples written for the same input change, or the spec-table rows written
# beside them (skg-5: the units of a value's quantities; skg-6: decimal-comma documents; skg-7:
# snake_case spec names in words, units ending a name; skg-8: decimals of at most 18 places, which
# the store can compare; skg-9: a numeric date whose day and month nothing settles, as its year;
# skg-10: an amount in a spelling several currencies share, read as the one the document's own
# prices name), so re-indexing notices that every document must be converted again.
CONVERTER_VERSION = "skg-10"


class SpecVariant(Protocol):
    """What the converter reads of one product variant.

    The corpus's :class:`~dualgraph.corpus.model.Variant` is one; the converter names only
    these fields, so the symbolic graph does not depend on how a catalog is read.
    """

    @property
    def name(self) -> str: ...

    @property
    def prod_range(self) -> str: ...

    @property
    def categories(self) -> Sequence[str]: ...

    @property
    def specs(self) -> Sequence[tuple[str, str]]:
        """``("Section:Entry", value)`` pairs, in the catalog's order."""
        ...

    @property
    def model_code(self) -> str | None: ...


@dataclass(slots=True)
class Conversion:
    """The N-Quads of one document and what happened on the way."""

    nquads: str = ""
    n_quads: int = 0
    n_products: int = 0
    n_specs: int = 0
    problems: list[Quarantine] = field(default_factory=list)
    kept_as_text: list[dict[str, str]] = field(default_factory=list)
    # per "Section:Entry": values, values with digits, read as quantities, read as dates, kept as text
    coverage: dict[str, dict[str, int]] = field(default_factory=dict)
    # what the pattern statistics count, so they need no query over the whole store
    # (see skg.spec_table): (product, entry, section name, entry name, value, value name, spec,
    # "1" if a quantity was read else "") per spec value, and (product, entry, number, unit,
    # dimension, label) per number read from one
    value_rows: list[tuple[str, str, str, str, str, str, str, str, str]] = field(default_factory=list)
    quantity_rows: list[tuple[str, str, str, str, str, str]] = field(default_factory=list)


COVERAGE_FIELDS = ("values", "with_digits", "quantities", "dates", "text")
"""What :attr:`Conversion.coverage` counts per entry: value parts, parts with a digit, parts with a
quantity, parts with a date, and parts with a digit that gave neither (kept as text)."""


@functools.lru_cache(maxsize=1 << 16)
def _split(value: str) -> tuple[str, ...]:
    return tuple(Q.split_values(value))


_GLUED = re.compile(r"[^\W\d_]\d|\d[^\W\d_]")
_DATE_LIKE = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b|\b(?:19|20)\d\d\b")


def _why_text(part: str) -> str:
    """Why a value with digits gave no fact: the shape of it, for the review list."""
    if _DATE_LIKE.search(part):
        return "date or year"
    if _GLUED.search(part):
        return "digits inside a word (a code, model or standard name)"
    if re.search(r"\d\s*:\s*\d", part):
        return "ratio or time of day"
    if re.search(r"\d\s*/\s*\d", part):
        return "list or fraction of numbers"
    return "number without a unit"


@functools.lru_cache(maxsize=1 << 16)
def _quantity_objects(q: S.Spotted) -> tuple[tuple[str, str], ...]:
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
    if q.dimension:
        out.append((O.HAS_DIMENSION, literal(q.dimension)))
    if q.label:
        out.append((O.HAS_LABEL, literal(q.label)))
    out.append((O.HAS_POSITION, integer(q.position)))
    return tuple(out)


# The packaged rules' currency units (rules.yaml: currency, matched there without "i"); their price
# entry names come from the same file (def_regex): a market's prices are written here, in its graph,
# as the shared derived graph cannot tell markets apart.
_CURRENCY = re.compile(r"^[A-Z]{3}$")


def convert_document(
    doc_id: str, variants: Sequence[SpecVariant], *, source: str = "", market: str | None = None
) -> Conversion:
    """All triples of one document, in its own named graph (its market's, given a market).

    With a market (other than the default one), every product is linked to it
    (``skg:soldIn``) and its prices there become an ``skgt:Offer`` of that market plus the
    product's ``skg:hasPrice``/``skg:hasCurrency``, all in the market's document graph.

    >>> from dualgraph.corpus.model import Variant
    >>> v = Variant("Phone X 8GB", "Phone X", ("phones",), (("Battery:Capacity", "5000 mAh"), ("Price", "199.00 GBP")))
    >>> c = convert_document("file-1", [v])
    >>> (c.n_products, c.n_specs, "5000" in c.nquads)
    (1, 2, True)
    >>> "soldIn" in c.nquads, "/market/uk/" in convert_document("file-1", [v], market="uk").nquads
    (False, True)
    """
    g = O.document_graph(doc_id, market)
    if market == O.DEFAULT_MARKET:
        market = None
    vocab = O.VOCAB_GRAPH
    lines: list[str] = []
    seen: set[str] = set()
    out = Conversion()

    def add(s: str, p: str, o: str, *, shared: bool = False) -> None:
        line = f"<{s}> <{p}> {o} <{vocab if shared else g}> .\n"
        if line not in seen:
            seen.add(line)
            lines.append(line)

    # The day/month order of "03/04/2021" is the catalog's: read from the dates that settle it
    day_first = D.infer_day_first(raw for v in variants for _, raw in v.specs) if variants else None
    # and so is its decimal mark ("12,5 cm"): such numbers are written as read, "12.5 cm"
    comma = Q.infer_decimal_comma(raw for v in variants for _, raw in v.specs)
    # and so is the currency of its amounts: "SR 2,375" is riyals where its prices are in SAR
    own = Q.document_currencies(raw for v in variants for _, raw in v.specs)
    products: set[str] = set()
    with currencies.hinted(own) if own else contextlib.nullcontext():
        for idx, variant in enumerate(variants):
            try:
                products.add(
                    _convert_variant(variant, add, out, doc_id=doc_id, day_first=day_first, comma=comma, market=market)
                )
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


def _convert_variant(
    variant: SpecVariant,
    add,
    out: Conversion,
    *,
    doc_id: str,
    day_first: bool | None,
    comma: bool = False,
    market: str | None = None,
) -> str:
    # the product IRI never depends on the market: a product sold in several markets is one node
    product = N.product_iri(variant.name, variant.model_code)
    rng = N.range_iri(variant.prod_range)
    add(product, O.TYPE, iri(O.PRODUCT))
    if market is not None:
        mnode = O.market_node(market)
        add(mnode, O.TYPE, iri(O.MARKET), shared=True)
        add(mnode, O.HAS_NAME, literal(market), shared=True)
        add(product, O.SOLD_IN, iri(mnode))
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
        raw = Q.delocalise(raw, decimal_comma=comma)
        section, entry = N.split_spec_key(key)
        sec = N.section_iri(section)
        ent = N.entry_iri(section, entry)
        add(sec, O.TYPE, iri(O.SECTION), shared=True)
        add(sec, O.HAS_NAME, literal(section), shared=True)
        add(ent, O.TYPE, iri(O.ENTRY), shared=True)
        add(ent, O.HAS_NAME, literal(entry), shared=True)
        add(ent, O.IN_SECTION, iri(sec), shared=True)
        whole_dates = D.spot_dates(raw, entry=entry, section=section, day_first=day_first)
        # "2021, March 15" is one date: a value whose date holds a comma is not split at it
        parts = (raw,) if any("," in raw[d.start_char : d.end_char] for d in whole_dates) else _split(raw)
        cover = out.coverage.setdefault(key, dict.fromkeys(COVERAGE_FIELDS, 0))
        for part, facts in zip(parts, S.spot_parts(list(parts), entry=entry, section=section)):
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
            dates = D.spot_dates(part, entry=entry, section=section, day_first=day_first)
            if dates:  # a year or a day is no measure: "2021" under "Announced" is a date only
                facts = [q for q in facts if not any(q.start < d.end_char and d.start_char < q.end for d in dates)]
            units = UNIT_SEP.join(sorted({q.unit for q in facts if q.unit}))
            out.value_rows.append((product, ent, section, entry, val, part, spec, "1" if facts else "", units))
            cover["values"] += 1
            digits = any(c.isdigit() for c in part)
            cover["with_digits"] += digits
            cover["quantities"] += bool(facts)
            cover["dates"] += bool(dates)
            if digits and not facts and not dates:
                cover["text"] += 1
                out.kept_as_text.append({"record": f"{variant.name} / {key}", "value": part, "reason": _why_text(part)})
            for i, d in enumerate(dates):
                node = f"{spec}/d{i}"
                add(spec, O.HAS_DATE, iri(node))
                add(node, O.TYPE, iri(O.DATE))
                for pred, obj in D.date_terms(d):
                    add(node, pred, obj)
            if not dates and (status := D.date_status(part, entry=entry)):
                add(spec, O.HAS_DATE_STATUS, literal(status))
            for i, q in enumerate(facts):
                node = f"{spec}/q{i}"
                add(spec, O.HAS_QUANTITY, iri(node))
                add(node, O.TYPE, iri(O.QUANTITY))
                for pred, obj in _quantity_objects(q):
                    add(node, pred, obj)
                if q.value is not None:
                    number = Q.format_number(q.value)
                    out.quantity_rows.append((product, ent, number, q.unit or "", q.dimension or "", q.label or ""))
                if market is not None and q.value is not None and q.unit and _is_price(entry, q.unit):
                    _add_offer(add, product, market, spec, decimal(Q.format_number(q.value)), literal(q.unit))
    return product


def _is_price(entry: str, unit: str) -> bool:
    return bool(_CURRENCY.match(unit)) and bool(def_regex("price_entry").match(entry))


def _add_offer(add, product: str, market: str, spec: str, amount: str, currency: str) -> None:
    offer = f"{product}/offer-{market}"
    add(product, O.HAS_OFFER, iri(offer))
    add(offer, O.TYPE, iri(O.OFFER))
    add(offer, O.IN_MARKET, iri(O.market_node(market)))
    add(offer, O.HAS_PRICE, amount)
    add(offer, O.HAS_CURRENCY, currency)
    add(offer, O.FROM_SPEC, iri(spec))
    # the literals the answering path reads, as the packaged "price" rule wrote them before markets
    add(product, O.HAS_PRICE, amount)
    add(product, O.HAS_CURRENCY, currency)
