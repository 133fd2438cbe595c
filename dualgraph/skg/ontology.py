"""Every IRI of the Symbolic KG lives here, so no other module spells a namespace.

The schema follows the paper's appendix B.4 (classes under ``skgt:``, predicates and
instance nodes under ``skg:``), with additions that the reference lacked:
``skg:hasPrice``/``skg:hasCurrency`` as literals on the product, ``skg:hasMinValue``/
``skg:hasMaxValue``/``skg:hasQualifier`` for ranges and "up to" values, and
``skg:fromText`` reserved for text-derived facts.
"""

from __future__ import annotations

BASE = "https://w3id.org/dualgraph/"
SKG = BASE + "skg#"
SKGT = BASE + "skgt#"
GRAPH = BASE + "graph/"
RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"

PREFIXES: dict[str, str] = {
    "skg": SKG,
    "skgt": SKGT,
    "rdf": RDF,
    "rdfs": RDFS,
    "xsd": XSD,
}


def sparql_prologue() -> str:
    """PREFIX lines for every predeclared prefix, to put in front of a query."""
    return "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())


# Classes.
PRODUCT = SKGT + "Product"
PRODUCT_RANGE = SKGT + "ProductRange"
CATEGORY = SKGT + "Category"
SPEC = SKGT + "Spec"
SECTION = SKGT + "Section"
ENTRY = SKGT + "Entry"
VALUE = SKGT + "Value"
FEATURE = SKGT + "Feature"
DOCUMENT = SKGT + "Document"
TEXT_ENTITY = SKGT + "UTKG_Entity"
# One quantity spotted inside a spec value ("8 GB RAM, 128 GB inbuilt" holds two), one date
# ("Released 2021, March 15"), and the catalog-derived brand / product line of a product.
QUANTITY = SKGT + "Quantity"
DATE = SKGT + "Date"
BRAND = SKGT + "Brand"
PRODUCT_LINE = SKGT + "ProductLine"

# Predicates.
TYPE = RDF + "type"
HAS_NAME = SKG + "hasName"
VARIANT_OF = SKG + "variantOf"
BELONGS = SKG + "belongs"
HAS_SPEC = SKG + "hasSpec"
IN_SECTION = SKG + "inSection"
IN_ENTRY = SKG + "inEntry"
HAS_VALUE = SKG + "hasValue"
HAS_FEATURE = SKG + "hasFeature"
LACKS_FEATURE = SKG + "lacksFeature"
SOME_VARIANT_HAS_FEATURE = SKG + "someVariantHasFeature"
MIN_PRICE = SKG + "minPrice"
MAX_PRICE = SKG + "maxPrice"
VARIANT_COUNT = SKG + "variantCount"
HAS_PRICE_SUMMARY = SKG + "hasPriceSummary"
HAS_COMMON_SPEC = SKG + "hasCommonSpec"
FROM_ENTRY = SKG + "fromEntry"  # a feature read from a tag-list entry's value -> that entry
PRICE_SUMMARY = SKGT + "PriceSummary"

HAS_NUMERIC_VALUE = SKG + "hasNumericValue"
HAS_DIM = (SKG + "hasDim1", SKG + "hasDim2", SKG + "hasDim3")
HAS_UNIT = SKG + "hasUnit"
HAS_MIN_VALUE = SKG + "hasMinValue"
HAS_MAX_VALUE = SKG + "hasMaxValue"
HAS_QUALIFIER = SKG + "hasQualifier"
# spec -> skgt:Quantity; the numeric predicates above (value, dims, min/max, unit, qualifier)
# sit on the quantity node, with the words next to it as its label ("ram", "fast charging").
HAS_QUANTITY = SKG + "hasQuantity"
HAS_LABEL = SKG + "hasLabel"
HAS_DIMENSION = SKG + "hasDimension"
HAS_POSITION = SKG + "hasPosition"
# spec -> skgt:Date: the literal at the precision written (xsd:date, xsd:gYearMonth, xsd:gYear),
# the first and last day it covers (xsd:date, so any precision compares), and a status word.
HAS_DATE = SKG + "hasDate"
HAS_DATE_VALUE = SKG + "hasDateValue"
HAS_DATE_START = SKG + "hasDateStart"
HAS_DATE_END = SKG + "hasDateEnd"
HAS_DATE_STATUS = SKG + "hasDateStatus"
HAS_PRECISION = SKG + "hasPrecision"
# product -> skgt:Brand / skgt:ProductLine / skgt:Category (its type), all derived from the catalog.
HAS_BRAND = SKG + "hasBrand"
IN_LINE = SKG + "inLine"
HAS_TYPE = SKG + "hasType"
BROADER = SKG + "broader"
# product -> prose feature (a TKG entity node) its page states it has / explicitly lacks, in the text
# graph; one skgt:TextStatement per (product, feature, sentence) keeps the sentence as evidence.
HAS_TEXT_FEATURE = SKG + "hasTextFeature"
LACKS_TEXT_FEATURE = SKG + "lacksTextFeature"
TEXT_STATEMENT = SKGT + "TextStatement"
STATES_FEATURE = SKG + "statesFeature"
POLARITY = SKG + "polarity"
EVIDENCE = SKG + "evidence"
ABOUT_PRODUCT = SKG + "aboutProduct"
HAS_PRICE = SKG + "hasPrice"
HAS_CURRENCY = SKG + "hasCurrency"
HAS_MODEL_CODE = SKG + "hasModelCode"
FROM_DOCUMENT = SKG + "fromDocument"
FROM_TEXT = SKG + "fromText"
HAS_DESCRIPTION = SKG + "hasDescription"
MENTIONS = SKG + "mentions"
ALIGNS_WITH = SKG + "alignsWith"

XSD_DECIMAL = XSD + "decimal"
XSD_DOUBLE = XSD + "double"
XSD_INTEGER = XSD + "integer"
XSD_STRING = XSD + "string"
XSD_DATE = XSD + "date"
XSD_GYEARMONTH = XSD + "gYearMonth"
XSD_GYEAR = XSD + "gYear"
XSD_BOOLEAN = XSD + "boolean"

# Named graphs: one per source document, plus one for rule-derived facts, which is
# recomputed from the document graphs whenever they change.
DERIVED_GRAPH = GRAPH + "derived"
# Nodes shared between documents (ranges, categories, sections, entries, values) are
# described once here rather than in every document graph: the union default graph
# keeps one copy of a triple per graph, so shared descriptions would multiply rows.
VOCAB_GRAPH = GRAPH + "vocabulary"
# Facts that come from page text (TKG entities, skg:mentions, skg:alignsWith) live apart
# from spec-derived ones, so a query can tell them apart and a rebuild can replace them.
TEXT_GRAPH = GRAPH + "text"
# Brands, product lines and types read from the whole catalog (names, categories, brand
# entries): recomputed after every load, like the derived graph.
CATALOG_GRAPH = GRAPH + "catalog"


def document_graph(doc_id: str) -> str:
    """The named graph holding the triples of one source document.

    The document's directory name, percent-encoded byte for byte: two names that differ
    only in case or Unicode normalisation get two graphs (a slug would merge them).

    >>> document_graph("file-Case") != document_graph("file-case")
    True
    >>> document_graph("file-caf\u00e9") != document_graph("file-cafe\u0301")
    True
    >>> document_graph("file-a b").rsplit("/", 1)[-1]
    'file-a%20b'
    """
    from urllib.parse import quote

    return GRAPH + "doc/" + quote(doc_id.encode("utf-8", "surrogateescape"), safe="-._~")
