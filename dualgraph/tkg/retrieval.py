"""Textual-KG retrieval: the question's nearest entities vote for the chunks that mention them.

Entities are found densely (cosine over ``"name: description"`` embeddings) and, when a
:class:`~dualgraph.tkg.lexical.LexicalIndex` over the same texts is given, lexically
too; the two rankings are merged by weighted reciprocal-rank fusion (:func:`fuse`),
which needs no calibration between cosines and unbounded BM25 scores. Each entity then
votes for its chunks (:func:`vote`); the best chunks are packed greedily into a token
budget. ``exhaustive=True`` (list questions) takes every entity above a similarity
threshold (plus those named in the question) and reports every product their chunks
belong to.

>>> import numpy as np
>>> from dualgraph.stores.faiss_index import FaissIndex
>>> class Toy:  # a 3-word embedder, enough for an offline example
...     name, dim = "toy", 3
...     def embed(self, texts, *, stage="default"):
...         rows = np.array([[w in t.lower() for w in ("pen", "water", "charg")] for t in texts], "float32") + 0.01
...         return rows / np.linalg.norm(rows, axis=1, keepdims=True)
>>> chunks = {"c1": Chunk("c1", "d1", "The S Pen clicks in.", products=("Note",)),
...           "c2": Chunk("c2", "d2", "IP68 water resistance.", products=("Rugged",))}
>>> entities = {"e1": Entity("e1", "S Pen", "a stylus pen", ["c1"]),
...             "e2": Entity("e2", "IP68", "water and dust resistance", ["c2"])}
>>> index = FaissIndex(3, gpu=False)
>>> index_entities(Toy(), entities, index)
>>> found = EntityVoteRetriever(Toy(), index, entities, None, chunks, top_entities=1).retrieve(["Any pen?"])[0]
>>> [c.chunk_id for c in found.chunks], found.products, found.entities[0].name
(['c1'], ['Note'], 'S Pen')
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from dualgraph.models.base import Embedder
from dualgraph.stores.vector import Hit, VectorIndex
from dualgraph.tkg.lexical import LexicalIndex, tokenize
from dualgraph.tkg.model import Chunk, Entity

_shared_count_tokens: Callable[[str], int] | None
try:  # the project's tokenizer-backed counter, when that module exists
    from dualgraph.models.tokens import count_tokens as _shared_count_tokens
except ImportError:
    _shared_count_tokens = None

log = logging.getLogger(__name__)
_PIECE = re.compile(r"\w+|[^\w\s]")


def count_tokens(text: str) -> int:
    """Tokens in ``text``: ``dualgraph.models.tokens.count_tokens`` if present, else an overestimate.

    The fallback takes the larger of words+punctuation and characters/4, so a budget it
    enforces holds for common BPE tokenisers too.

    >>> count_tokens("IP68 water resistance.") >= 4
    True
    """
    if _shared_count_tokens is not None:
        return int(_shared_count_tokens(text))
    return max(len(_PIECE.findall(text)), math.ceil(len(text) / 4))


def entity_text(entity: Entity) -> str:
    """The text an entity is embedded and BM25-indexed by: its name *and* description.

    (The reference embedded the description only, so a question naming a feature
    could miss it.)

    >>> entity_text(Entity("e1", "IP68", "dust and water resistance"))
    'IP68: dust and water resistance'
    """
    return f"{entity.name}: {entity.description}" if entity.description else entity.name


def index_entities(
    embedder: Embedder,
    entities: Mapping[str, Entity],
    index: VectorIndex,
    *,
    batch_size: int = 512,
    progress: bool = False,
    names_only: bool = False,
) -> None:
    """Embed :func:`entity_text` of every entity into ``index`` (an upsert), in batches.

    ``names_only``: embed the names alone. A description is about 25 times a name's tokens, so
    names embed several times faster; the BM25 index still reads the descriptions, and the
    fused ranking finds products as well either way (``bench/results/embedding_choice.md``).
    """
    items = [(e, x.name if names_only else entity_text(x)) for e, x in entities.items()]
    _index_texts(embedder, items, index, batch_size, "tkg_entities", progress)


def index_chunks(
    embedder: Embedder, chunks: Mapping[str, Chunk], index: VectorIndex, *, batch_size: int = 64, progress: bool = False
) -> None:
    """Embed every chunk's text into ``index`` (for :class:`NaiveVectorRetriever`)."""
    _index_texts(embedder, [(c, x.text) for c, x in chunks.items()], index, batch_size, "tkg_chunks", progress)


def entity_lexical_index(entities: Mapping[str, Entity]) -> LexicalIndex:
    """A BM25 index over :func:`entity_text`, for hybrid entity search."""
    return LexicalIndex.build(list(entities), [entity_text(e) for e in entities.values()])


def _index_texts(
    embedder: Embedder, items: list[tuple[str, str]], index: VectorIndex, batch: int, stage: str, progress: bool
) -> None:
    from dualgraph.progress import progress_bar

    what = stage.removeprefix("tkg_")
    with progress_bar(f"embed {what}", total=len(items), unit="text", enabled=progress) as bar:
        for start in range(0, len(items), batch):
            part = items[start : start + batch]
            index.add([i for i, _ in part], embedder.embed([t for _, t in part], stage=stage))
            bar.update(len(part))


@dataclass(frozen=True, slots=True)
class ScoredChunk:
    chunk: Chunk
    score: float
    tokens: int

    @property
    def chunk_id(self) -> str:
        return self.chunk.chunk_id


@dataclass(frozen=True, slots=True)
class ScoredEntity:
    """A matched entity. ``score`` is what ranked it (the fused RRF score when two rankings
    were merged, else the cosine). ``dense``: its cosine, where the dense search found it;
    ``lexical``: its BM25 score (exhaustive mode: how many name tokens the question holds)."""

    entity_id: str
    name: str
    score: float
    dense: float | None = None
    lexical: float | None = None


@dataclass(slots=True)
class Retrieval:
    """What one question retrieved.

    ``chunks``: the context, ranked, within the token budget. ``candidates``: every chunk
    that scored, ranked (a superset of ``chunks``). ``products``: the products of
    ``chunks``, or of all ``candidates`` in exhaustive mode, in rank order.
    """

    question: str
    chunks: list[ScoredChunk]
    candidates: list[ScoredChunk]
    entities: list[ScoredEntity] = field(default_factory=list)
    products: list[str] = field(default_factory=list)
    exhaustive: bool = False

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in self.chunks)


def fuse(dense: Sequence[Hit], lexical: Sequence[Hit], *, weight: float = 0.5, k: int = 60) -> list[tuple[str, float]]:
    """Weighted reciprocal-rank fusion: ``(1 − weight)/(k + dense rank) + weight/(k + lexical rank)``.

    Ranks start at 1; a list that misses an id adds nothing. Ties go to the better dense
    rank, then the id.

    >>> fuse([("a", 0.9), ("b", 0.8)], [("b", 12.0), ("c", 3.0)])
    [('b', 0.016261...), ('a', 0.008196...), ('c', 0.008064...)]
    """
    scores: dict[str, float] = {}
    dense_rank = {i: r for r, (i, _) in enumerate(dense, 1)}
    for weight_, hits in ((1.0 - weight, dense), (weight, lexical)):
        for rank, (id_, _) in enumerate(hits, 1):
            scores[id_] = scores.get(id_, 0.0) + weight_ / (k + rank)
    return sorted(scores.items(), key=lambda s: (-s[1], dense_rank.get(s[0], math.inf), s[0]))


def vote(ranked_entities: Sequence[str], entity_chunks: Mapping[str, Sequence[str]]) -> list[tuple[str, float]]:
    """Chunk scores from entities in rank order ``r = 0, 1, …``:

    ``score(c) = Σ_{e_r mentions c} 1/(r + 1) · 1/(1 + ln df(e_r))``, ``df`` = chunks of ``e_r``.

    Unlike the reference (only the best entity mentioning a chunk counted, with a weight
    falling linearly to 0 at rank k, times the chunk's share of mentions), every matched
    entity adds to a chunk, so one mentioning several of them wins; the reciprocal rank
    keeps the long tail of 20 entities from outvoting the top few (a flatter
    ``1/log2(r + 2)`` did, on the test catalog); the ``df`` damping stops a hub entity
    ("smartphone") from swamping a specific one. Ties go to the chunk whose best voter
    ranks higher, then the chunk id.

    >>> vote(["ip68", "phone"], {"ip68": ["c2"], "phone": ["c1", "c2", "c3"]})
    [('c2', 1.2382...), ('c1', 0.2382...), ('c3', 0.2382...)]
    """
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for rank, entity_id in enumerate(ranked_entities):
        mentioned = entity_chunks.get(entity_id, ())
        if not mentioned:
            continue
        weight = 1.0 / (rank + 1) / (1.0 + math.log(len(mentioned)))
        for chunk_id in mentioned:
            scores[chunk_id] = scores.get(chunk_id, 0.0) + weight
            best.setdefault(chunk_id, rank)
    return sorted(scores.items(), key=lambda s: (-s[1], best[s[0]], s[0]))


class _ChunkPacker:
    """Shared by the retrievers: chunk lookup, token counts (cached), budget packing."""

    def __init__(
        self,
        chunks: Mapping[str, Chunk],
        *,
        top_chunks: int,
        token_budget: int,
        counter: Callable[[str], int] = count_tokens,
    ) -> None:
        self.chunks, self.top_chunks, self.token_budget = chunks, top_chunks, token_budget
        self._counter = counter
        self._tokens: dict[str, int] = {}

    def scored(self, ranked: Iterable[tuple[str, float]]) -> list[ScoredChunk]:
        out = []
        for chunk_id, score in ranked:
            if (chunk := self.chunks.get(chunk_id)) is not None:
                if (n := self._tokens.get(chunk_id)) is None:
                    n = self._tokens[chunk_id] = self._counter(chunk.text)
                out.append(ScoredChunk(chunk, float(score), n))
        return out

    def pack(self, ranked: list[ScoredChunk], *, limit: int | None) -> list[ScoredChunk]:
        """Greedy in rank order; a chunk too big for what is left is skipped, not a stop,
        so a smaller lower-ranked one can still use the rest of the budget."""
        out: list[ScoredChunk] = []
        used = 0
        for c in ranked:
            if (limit is not None and len(out) >= limit) or used >= self.token_budget:
                break
            if used + c.tokens <= self.token_budget:
                out.append(c)
                used += c.tokens
        return out

    def result(
        self,
        question: str,
        ranked: list[ScoredChunk],
        *,
        entities: list[ScoredEntity] | None = None,
        exhaustive: bool = False,
    ) -> Retrieval:
        context = self.pack(ranked, limit=None if exhaustive else self.top_chunks)
        source = ranked if exhaustive else context
        products = list(dict.fromkeys(p for c in source for p in c.chunk.products))
        return Retrieval(question, context, ranked, entities or [], products, exhaustive)


class EntityVoteRetriever:
    """UnWeaver-style retrieval over the Textual KG (see the module doc and :func:`vote`).

    ``lexical``: a BM25 index over the entities' :func:`entity_text` (same ids as
    ``entity_index``); with it, the dense and lexical entity rankings (each
    ``3 × top_entities`` deep) are merged by :func:`fuse`, ``hybrid_weight`` on the lexical
    side. ``entity_chunks``: None takes each entity's own ``chunk_ids``.

    Exhaustive mode matches every entity whose cosine to the question is at least
    ``threshold`` (default ``exhaustive_threshold``; 0.45 suits MiniLM on short entity
    texts) and, with ``exhaustive_names``, every entity whose whole *name* occurs in the
    question as tokens ("IP68", "S Pen", "120Hz display"): MiniLM puts IP68 barely above
    IPX8, so the exact name is the sharper signal for catalog tokens.
    """

    def __init__(
        self,
        embedder: Embedder,
        entity_index: VectorIndex,
        entities: Mapping[str, Entity],
        entity_chunks: Mapping[str, Sequence[str]] | None,
        chunks: Mapping[str, Chunk],
        *,
        top_entities: int = 20,
        top_chunks: int = 8,
        token_budget: int = 2000,
        lexical: LexicalIndex | None = None,
        hybrid_weight: float = 0.5,
        rrf_k: int = 60,
        exhaustive_threshold: float = 0.45,
        exhaustive_names: bool = True,
    ) -> None:
        if not 0.0 <= hybrid_weight <= 1.0:
            raise ValueError("hybrid_weight must be in [0, 1]")
        self.embedder, self.entity_index, self.entities, self.lexical = embedder, entity_index, entities, lexical
        self.top_entities, self.hybrid_weight, self.rrf_k = top_entities, hybrid_weight, rrf_k
        self.exhaustive_threshold = exhaustive_threshold
        self.packer = _ChunkPacker(chunks, top_chunks=top_chunks, token_budget=token_budget)
        source = entity_chunks if entity_chunks is not None else {e: x.chunk_ids for e, x in entities.items()}
        # Only chunks that exist, once each: the reference crashed when its stores diverged.
        self.entity_chunks = {e: tuple(dict.fromkeys(c for c in cs if c in chunks)) for e, cs in source.items()}
        # Name tokens, reachable from any one of them, for the exhaustive name match.
        self._name_tokens: dict[str, frozenset[str]] = {}
        self._by_name_token: dict[str, list[str]] = {}
        if exhaustive_names:
            for e, x in entities.items():
                if tokens := frozenset(tokenize(x.name)):
                    self._name_tokens[e] = tokens
                    self._by_name_token.setdefault(min(tokens), []).append(e)
        self._missing: set[str] = set()

    def retrieve(
        self, questions: list[str], *, exhaustive: bool = False, threshold: float | None = None
    ) -> list[Retrieval]:
        """One :class:`Retrieval` per question, in order (questions are embedded in one batch)."""
        if not questions:
            return []
        vectors = self.embedder.embed(list(questions), stage="tkg_retrieval")
        hybrid = self.lexical is not None and self.hybrid_weight > 0
        if exhaustive:
            cut = self.exhaustive_threshold if threshold is None else threshold
            dense = self.entity_index.range_search(vectors, min_score=cut)
            lex = [self._names_in(q) for q in questions] if self._name_tokens else None
        else:
            pool = 3 * self.top_entities if hybrid else self.top_entities
            dense = self.entity_index.search(vectors, k=pool)
            lex = self.lexical.search(list(questions), k=pool) if hybrid and self.lexical is not None else None
        out = []
        for i, question in enumerate(questions):
            matched = self._rank(dense[i], lex[i] if lex is not None else None)
            if not exhaustive:
                matched = matched[: self.top_entities]
            ranked = self.packer.scored(vote([e.entity_id for e in matched], self.entity_chunks))
            out.append(self.packer.result(question, ranked, entities=matched, exhaustive=exhaustive))
        return out

    def _names_in(self, question: str) -> list[Hit]:
        """Entities whose every name token is among the question's tokens; longer names first.

        A plural and its singular are two tokens here: taken as one ("notebook GPUs" naming the
        entity "notebook GPU"), the text anchored list questions the specs had answered (pcparts
        lost a right answer to 112 pages naming notebook GPUs) and gained none."""
        tokens = set(tokenize(question))
        found = {e for t in tokens for e in self._by_name_token.get(t, ()) if self._name_tokens[e] <= tokens}
        return sorted(((e, float(len(self._name_tokens[e]))) for e in found), key=lambda h: (-h[1], h[0]))

    def _rank(self, dense: list[Hit], lex: list[Hit] | None) -> list[ScoredEntity]:
        dense = self._known(dense)
        if lex is None:
            return [ScoredEntity(e, self.entities[e].name, s, dense=s) for e, s in dense]
        lex = self._known(lex)
        cos, other = dict(dense), dict(lex)
        return [
            ScoredEntity(e, self.entities[e].name, s, dense=cos.get(e), lexical=other.get(e))
            for e, s in fuse(dense, lex, weight=self.hybrid_weight, k=self.rrf_k)
        ]

    def _known(self, hits: list[Hit]) -> list[Hit]:
        unknown = {e for e, _ in hits if e not in self.entities} - self._missing
        if unknown:
            self._missing |= unknown
            log.warning(
                "%d indexed entity ids are not in the entity table (skipped), e.g. %s",
                len(unknown),
                sorted(unknown)[:3],
            )
        return [h for h in hits if h[0] in self.entities]


class NaiveVectorRetriever:
    """The plain vector-RAG baseline: nearest chunk embeddings, identical texts once."""

    def __init__(
        self,
        embedder: Embedder,
        chunk_index: VectorIndex,
        chunks: Mapping[str, Chunk],
        *,
        top_chunks: int = 8,
        token_budget: int = 2000,
    ) -> None:
        self.embedder, self.chunk_index = embedder, chunk_index
        self.packer = _ChunkPacker(chunks, top_chunks=top_chunks, token_budget=token_budget)

    def retrieve(self, questions: list[str]) -> list[Retrieval]:
        if not questions:
            return []
        vectors = self.embedder.embed(list(questions), stage="tkg_retrieval")
        # Deeper than top_chunks so budget skips and duplicate texts still leave enough.
        hits = self.chunk_index.search(vectors, k=4 * self.packer.top_chunks)
        return [
            self.packer.result(q, _unique_texts(self.packer.scored(h))) for q, h in zip(questions, hits, strict=True)
        ]


class BM25Retriever:
    """The lexical baseline: BM25 over chunk texts."""

    def __init__(
        self, lexical: LexicalIndex, chunks: Mapping[str, Chunk], *, top_chunks: int = 8, token_budget: int = 2000
    ) -> None:
        self.lexical = lexical
        self.packer = _ChunkPacker(chunks, top_chunks=top_chunks, token_budget=token_budget)

    @classmethod
    def from_chunks(cls, chunks: Mapping[str, Chunk], **options: int) -> BM25Retriever:
        """Index the chunks' texts and return a retriever over them.

        >>> r = BM25Retriever.from_chunks({"c1": Chunk("c1", "d", "IP68 rated", products=("X",))})
        >>> r.retrieve(["ip68?"])[0].products
        ['X']
        """
        return cls(LexicalIndex.build(list(chunks), [c.text for c in chunks.values()]), chunks, **options)

    def retrieve(self, questions: list[str]) -> list[Retrieval]:
        hits = self.lexical.search(list(questions), k=4 * self.packer.top_chunks)
        return [
            self.packer.result(q, _unique_texts(self.packer.scored(h))) for q, h in zip(questions, hits, strict=True)
        ]


def _unique_texts(ranked: list[ScoredChunk]) -> list[ScoredChunk]:
    first: dict[str, ScoredChunk] = {}
    for c in ranked:
        first.setdefault(c.chunk.text, c)
    return list(first.values())
