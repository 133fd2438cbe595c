"""Prose features with polarity in the SKG's text graph: which products a page says have a
thing, which it says lack it, and the sentence that says so.

For every (TKG entity, sentence, polarity) that :mod:`dualgraph.tkg.polarity` reads, one
statement node is written, about every product a page says it of::

    ?s a skgt:TextStatement ; skg:aboutProduct ?product ; skg:statesFeature ?entity ;
       skg:polarity true|false ; skg:evidence "the sentence" .

(a page about several variants: one node, an ``aboutProduct`` edge per variant) and per
(product, entity) one summary edge, ``?product skg:hasTextFeature ?entity`` or
``?product skg:lacksTextFeature ?entity``, so a question filters with one triple pattern.
The feature node *is* the TKG entity node (:func:`~dualgraph.tkg.text_facts.entity_iri`),
whose name and ``skg:mentions`` edges :mod:`dualgraph.tkg.text_facts` writes.

A page that never states a thing gives no edge: missing mention is unknown, not "lacks".
**Conflicts**: when a product's pages say it has a thing in one sentence and lack it in
another ("It keeps the jack." / "No jack, sadly."), both statements are kept as evidence
but neither edge is written, so the product answers neither "with" nor "without" questions.

>>> page = PageText(("http://x/p1",), "It supports NFC but lacks an IR blaster.", {"NFC": "e-nfc", "IR blaster": "e-ir"})
>>> q = text_feature_nquads([page])
>>> sorted(line.split()[1].rsplit("#", 1)[1][:-1] for line in q.splitlines() if line.startswith("<http://x/p1>"))
['hasTextFeature', 'lacksTextFeature']
>>> len(q.splitlines())  # 2 edges + 2 statements x 5 triples
12
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from dualgraph.skg import ontology as O
from dualgraph.skg.names import short_hash
from dualgraph.skg.terms import iri, literal
from dualgraph.tkg.model import Chunk, Entity
from dualgraph.tkg.page_hits import PageHits
from dualgraph.tkg.polarity import Statement, name_spans, phrase_key, statements
from dualgraph.tkg.text_facts import entity_iri, name_key

__all__ = [
    "ABOUT_PRODUCT",
    "EVIDENCE",
    "HAS_TEXT_FEATURE",
    "LACKS_TEXT_FEATURE",
    "POLARITY",
    "STATED_FILE",
    "STATES_FEATURE",
    "TEXT_STATEMENT",
    "PageText",
    "chunk_pages",
    "iter_text_feature_nquads",
    "statement_iri",
    "text_feature_nquads",
    "write_stated",
]

# The terms live in the ontology; re-exported here for the writers and readers of text features.
HAS_TEXT_FEATURE = O.HAS_TEXT_FEATURE
LACKS_TEXT_FEATURE = O.LACKS_TEXT_FEATURE
STATES_FEATURE = O.STATES_FEATURE
POLARITY = O.POLARITY
EVIDENCE = O.EVIDENCE
ABOUT_PRODUCT = O.ABOUT_PRODUCT
TEXT_STATEMENT = O.TEXT_STATEMENT
XSD_BOOLEAN = O.XSD_BOOLEAN


@dataclass(frozen=True, slots=True)
class PageText:
    """Text about some products: their IRIs, the text, and the candidate feature phrases
    (phrase -> TKG entity id), usually the entities extracted from that text."""

    products: tuple[str, ...]
    text: str
    features: Mapping[str, str]


def statement_iri(products: str | Iterable[str], entity: str, sentence: str) -> str:
    """One node per (products, entity IRI, sentence): the same text gives the same node on every run.

    A page about several variants states a sentence once for all of them: one node with an
    ``aboutProduct`` edge each, rather than a copy of the statement per variant.

    >>> statement_iri(["http://x/b", "http://x/a"], "e", "s") == statement_iri(("http://x/a", "http://x/b"), "e", "s")
    True
    """
    ids = (products,) if isinstance(products, str) else tuple(sorted(set(products)))
    return O.SKG + "statement-" + short_hash(*ids, entity, sentence, length=16)


def _boolean(value: bool) -> str:
    return f'"{"true" if value else "false"}"^^<{XSD_BOOLEAN}>'


Reader = Callable[[list[PageText]], list[list[Statement]]]
"""Reads the statements of pages, in order: :func:`read_statements`, or one in front of a cache."""


def read_statements(pages: list[PageText]) -> list[list[Statement]]:
    """What each page says about its candidate features (:func:`~dualgraph.tkg.polarity.statements`)."""
    return [statements(page.text, page.features) for page in pages]


def reading_key(page: PageText) -> str:
    """What a page's reading depends on: its text and its candidate phrases (not its products)."""
    return short_hash(page.text, *sorted(page.features), length=32)


@functools.lru_cache(maxsize=1)
def reading_version() -> str:
    """Changes whenever the reader's code or its cue lists do, so a cached reading is never stale."""
    from importlib import resources

    from dualgraph.tkg import polarity

    parts = [Path(polarity.__file__).read_text("utf-8")]
    parts.append(resources.files("dualgraph.tkg").joinpath("negation.yaml").read_text("utf-8"))
    return "polarity-" + short_hash(*parts, length=16)


def text_feature_nquads(
    pages: Iterable[PageText], *, progress: bool = False, reader: Reader | None = None, batch: int = 512
) -> str:
    """N-Quads for the text graph from every page's statements (see the module notes), each
    line once, sorted: :func:`iter_text_feature_nquads` gathered into one string."""
    return "".join(sorted(set(iter_text_feature_nquads(pages, progress=progress, reader=reader, batch=batch))))


def iter_text_feature_nquads(
    pages: Iterable[PageText],
    *,
    progress: bool = False,
    reader: Reader | None = None,
    batch: int = 512,
    stated: dict[str, set[str]] | None = None,
) -> Iterator[str]:
    """The lines of :func:`text_feature_nquads` as they are made, in no order and possibly
    repeated (two statements may share a node): for a sink that sorts and deduplicates them
    anyway, such as :func:`~dualgraph.pipeline.graph_sync.sync_graph`, without holding them all.

    Has/lacks edges are decided over all pages together, so a product on two pages that
    disagree is a conflict too. A sentence repeated (overlapping chunks) gives one statement.
    Every page is read before the first line comes; ``stated``, when given, is then filled with
    each feature node and the products some statement is about (what :func:`write_stated` keeps).
    """
    said, polarities = _read_pages(pages, progress=progress, reader=reader or read_statements, batch=batch)
    if stated is not None:
        for (node, _, _), products in said.items():
            stated.setdefault(node, set()).update(products)
    g = iri(O.TEXT_GRAPH)
    for (node, sentence, polarity), products in said.items():
        s = iri(statement_iri(next(iter(products)) if len(products) == 1 else products, node, sentence))
        yield f"{s} {iri(O.TYPE)} {iri(TEXT_STATEMENT)} {g} .\n"
        yield f"{s} {iri(STATES_FEATURE)} {iri(node)} {g} .\n"
        yield f"{s} {iri(POLARITY)} {_boolean(polarity)} {g} .\n"
        yield f"{s} {iri(EVIDENCE)} {literal(sentence)} {g} .\n"
        for product in products:
            yield f"{s} {iri(ABOUT_PRODUCT)} {iri(product)} {g} .\n"
    for (product, node), seen in polarities.items():
        if seen != _BOTH:  # both polarities: a conflict, evidence only
            edge = HAS_TEXT_FEATURE if seen == _SAYS_HAS else LACKS_TEXT_FEATURE
            yield f"{iri(product)} {iri(edge)} {iri(node)} {g} .\n"


STATED_FILE = "stated_features.parquet"
"""Beside the text graph: a row per (feature node, its name, a product some statement is about)."""


def write_stated(path: Path, stated: Mapping[str, set[str]], names: Mapping[str, str]) -> None:
    """The rows of ``SELECT DISTINCT ?f ?n ?p WHERE { ?s skg:statesFeature ?f ; skg:aboutProduct ?p .
    ?f skg:hasName ?n }`` over the text graph, sorted, from what :func:`iter_text_feature_nquads`
    gathered in ``stated`` and the nodes' ``names``: an engine reads them at start instead of asking
    the store for every statement of the catalogue (64,000 rows, 2.3 s on 1,600 products). A node
    without a name is left out, as the query's join leaves it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = sorted((node, names[node], p) for node, products in stated.items() if node in names for p in products)
    columns = ("feature", "name", "product")
    table = pa.table({c: pa.array([r[i] for r in rows], pa.string()) for i, c in enumerate(columns)})
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp)
    tmp.replace(path)


# what the pages say of a (product, feature), as bits: a small int per pair rather than a set
# of booleans (a large catalog has millions of pairs; a set costs 200 bytes more each)
_SAYS_HAS, _SAYS_LACKS = 1, 2
_BOTH = _SAYS_HAS | _SAYS_LACKS


def _read_pages(
    pages: Iterable[PageText], *, progress: bool, reader: Reader, batch: int
) -> tuple[dict[tuple[str, str, bool], set[str]], dict[tuple[str, str], int]]:
    """What all pages say: (entity node, sentence, polarity) -> every product it is said of
    (one node per statement, not per variant), and (product, entity node) -> its polarities
    (``_SAYS_HAS`` and/or ``_SAYS_LACKS``)."""
    said: dict[tuple[str, str, bool], set[str]] = {}
    polarities: dict[tuple[str, str], int] = {}
    nodes: dict[str, str] = {}  # one string per entity node, shared by every key that names it
    pages = [p for p in pages if p.products]
    bar = tqdm(total=len(pages), desc="text features", unit="page", disable=not progress, mininterval=0.5)
    for start in range(0, len(pages), batch):
        part = pages[start : start + batch]
        for page, found in zip(part, reader(part), strict=True):
            _collect(page, found, said, polarities, nodes)
        bar.update(len(part))
    bar.close()
    return said, polarities


def _collect(
    page: PageText,
    found: list[Statement],
    said: dict[tuple[str, str, bool], set[str]],
    polarities: dict[tuple[str, str], int],
    nodes: dict[str, str],
) -> None:
    for st in found:
        entity = page.features[st.phrase]
        node = nodes.get(entity)
        if node is None:
            node = nodes[entity] = entity_iri(entity)
        said.setdefault((node, st.sentence, st.polarity), set()).update(page.products)
        bit = _SAYS_HAS if st.polarity else _SAYS_LACKS
        for product in page.products:
            key = (product, node)
            polarities[key] = polarities.get(key, 0) | bit


def chunk_pages(
    chunks: Iterable[Chunk],
    entities: Iterable[Entity],
    chunk_products: Mapping[str, Iterable[str]],
    *,
    every_name: bool = True,
    hits: PageHits | None = None,
) -> list[PageText]:
    """One :class:`PageText` per chunk: its products' IRIs and the candidate features in it.

    Candidates are the entities extracted from the chunk and, with ``every_name``, every
    entity whose name the chunk spells: an extractor may miss a name in one chunk that it
    found in another ("lacks NFC" taken as one phrase). Entities named like one of the
    chunk's products are left out: "The Nova 5 lacks NFC" says nothing about a feature
    called "Nova 5". With ``hits`` (kept from the last run), an unchanged chunk is read again
    only for names new to the vocabulary (:class:`~dualgraph.tkg.page_hits.PageHits`).

    >>> c = Chunk("c1", "d1", "The Nova 5 lacks NFC.", products=("Nova 5",))
    >>> es = [Entity("e1", "Nova 5", "", ["c1"]), Entity("e2", "lacks NFC", "", ["c1"]), Entity("e3", "NFC", "", ["c9"])]
    >>> [(p.products, dict(p.features)) for p in chunk_pages([c], es, {"c1": ["http://x/nova5"]})]
    [(('http://x/nova5',), {'lacks NFC': 'e2', 'NFC': 'e3'})]
    """
    entities = list(entities)
    by_chunk: dict[str, dict[str, str]] = {}
    for ent in entities:
        for chunk_id in ent.chunk_ids:
            by_chunk.setdefault(chunk_id, {})[ent.name] = ent.entity_id
    keyed: dict[str, tuple[str, str]] = {}
    if every_name:
        for ent in entities:
            keyed.setdefault(phrase_key(ent.name), (ent.name, ent.entity_id))
        keyed.pop("", None)
    out: list[PageText] = []
    for chunk in chunks:
        products = tuple(chunk_products.get(chunk.chunk_id, ()))
        if not products:
            continue
        features = dict(by_chunk.get(chunk.chunk_id, {}))
        if keyed:
            spelled = (
                hits.spelled(chunk.chunk_id, chunk.text, keyed)
                if hits is not None
                else [k for k, _ in name_spans(chunk.text, keyed)]
            )
            for key in spelled:
                name, entity_id = keyed[key]
                features.setdefault(name, entity_id)
        names = {name_key(p) for p in chunk.products}
        features = {n: e for n, e in features.items() if name_key(n) not in names}
        if features:
            out.append(PageText(products, chunk.text, features))
    return out
