"""Every IRI of the Symbolic KG lives here, so no other module spells a namespace (the
namespaces themselves come from :mod:`dualgraph.stores.namespaces`, which the stores predeclare).

The schema follows the paper's appendix B.4 (classes under ``skgt:``, predicates and
instance nodes under ``skg:``), with additions that the reference lacked:
``skg:hasPrice``/``skg:hasCurrency`` as literals on the product, ``skg:hasMinValue``/
``skg:hasMaxValue``/``skg:hasQualifier`` for ranges and "up to" values, and
``skg:fromText`` reserved for text-derived facts.

Markets (one catalog snapshot per country or shop): a document indexed for a market lives
in that market's graph (:func:`document_graph`); its products are the same nodes in every
market, linked by ``skg:soldIn`` to a ``skgt:Market`` node, and each market's price is an
``skgt:Offer`` (``skg:hasOffer``) carrying ``skg:inMarket`` next to the product's
``skg:hasPrice``/``skg:hasCurrency`` written in the same market graph.
"""

from __future__ import annotations

from dualgraph.stores import namespaces as NS

# The namespaces themselves are spelled in dualgraph.stores.namespaces: the stores predeclare
# them as prefixes and must not import this module.
BASE = NS.BASE
SKG = NS.SKG
SKGT = NS.SKGT
GRAPH = NS.GRAPH
RDF = NS.RDF
RDFS = NS.RDFS
XSD = NS.XSD
PREFIXES = NS.PREFIXES


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
# A country or shop whose catalog snapshot was indexed, and one product's price there.
MARKET = SKGT + "Market"
OFFER = SKGT + "Offer"

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
# product -> skgt:Market it is listed in; product -> skgt:Offer (one per market, holding that
# market's price); offer -> market, and -> the price spec it was read from (rules skip those specs).
SOLD_IN = SKG + "soldIn"
HAS_OFFER = SKG + "hasOffer"
IN_MARKET = SKG + "inMarket"
FROM_SPEC = SKG + "fromSpec"
ALIGNS_WITH = SKG + "alignsWith"
# the trained aligner's accepted pairs (dualgraph.align): besides the plain alignsWith edge, one
# skgt:Alignment node per pair keeps its score and which judge accepted it
ALIGNMENT = SKGT + "Alignment"
ALIGN_FROM = SKG + "alignFrom"
ALIGN_TO = SKG + "alignTo"
ALIGN_SCORE = SKG + "alignScore"
ALIGN_JUDGE = SKG + "alignJudge"

XSD_DECIMAL = XSD + "decimal"
XSD_DOUBLE = XSD + "double"
XSD_INTEGER = XSD + "integer"
XSD_STRING = NS.XSD_STRING
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
# The trained aligner's pairs (`dualgraph align`): apart from the exact-name links of the text
# graph, so an index run that rebuilds the text graph leaves them, and a new align run replaces them.
ALIGNMENT_GRAPH = GRAPH + "alignment"
# Brands, product lines and types read from the whole catalog (names, categories, brand
# entries): recomputed after every load, like the derived graph.
CATALOG_GRAPH = GRAPH + "catalog"


DEFAULT_MARKET = "default"
"""The market of documents indexed without ``--market``: their graphs keep the names they had
before markets existed (``graph/doc/<id>``), so old indexes stay valid."""
DOCUMENT_GRAPHS = GRAPH + "doc/"
MARKET_GRAPHS = GRAPH + "market/"


def document_graph(doc_id: str, market: str | None = None) -> str:
    """The named graph holding the triples of one source document (in one market).

    >>> document_graph("file-1", "uk")
    'https://w3id.org/dualgraph/graph/market/uk/doc/file-1'
    >>> document_graph("file-1") == document_graph("file-1", DEFAULT_MARKET)
    True

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

    local = quote(doc_id.encode("utf-8", "surrogateescape"), safe="-._~")
    if market is None or market == DEFAULT_MARKET:
        return DOCUMENT_GRAPHS + local
    return market_graphs(market) + local


def market_graphs(market: str) -> str:
    """The prefix every document graph of ``market`` starts with.

    >>> market_graphs("de")
    'https://w3id.org/dualgraph/graph/market/de/doc/'
    """
    return DOCUMENT_GRAPHS if market == DEFAULT_MARKET else f"{MARKET_GRAPHS}{market}/doc/"


def market_derived_graph(market: str) -> str:
    """The graph of one market's price summaries (per range), which only that market's view reads.

    >>> market_derived_graph("uk")
    'https://w3id.org/dualgraph/graph/market/uk/derived'
    """
    return f"{MARKET_GRAPHS}{market}/derived"


def is_document_graph(graph: str) -> bool:
    """Whether ``graph`` holds one document (of any market) rather than shared facts.

    >>> is_document_graph(document_graph("a", "uk")), is_document_graph(DERIVED_GRAPH)
    (True, False)
    """
    return graph.startswith(DOCUMENT_GRAPHS) or (graph.startswith(MARKET_GRAPHS) and "/doc/" in graph)


def market_of_graph(graph: str) -> str | None:
    """The market of a document graph or a market's derived graph (``None`` for a shared graph).

    >>> market_of_graph(document_graph("a", "uk")), market_of_graph(document_graph("a")), market_of_graph(TEXT_GRAPH)
    ('uk', 'default', None)
    >>> market_of_graph(market_derived_graph("de"))
    'de'
    """
    if graph.startswith(DOCUMENT_GRAPHS):
        return DEFAULT_MARKET
    if graph.startswith(MARKET_GRAPHS):
        market, sep, _ = graph[len(MARKET_GRAPHS) :].partition("/")
        return market if sep else None
    return None


def market_node(market: str) -> str:
    """The ``skgt:Market`` node of a market code.

    >>> market_node("uk")
    'https://w3id.org/dualgraph/skg#market-uk'
    """
    return SKG + "market-" + market
