"""TKG retrieval on a hand-written six-product catalog.

Embedder: :class:`HashedBagOfWords` below (deterministic, offline: each token of
:func:`~dualgraph.tkg.lexical.tokenize` adds ±1 to a hashed dimension). It only sees shared
words, so these tests check the mechanics (voting, budgets, exhaustive coverage,
determinism); paraphrase quality is checked with the real MiniLM in
``tests/integration/test_retrieval_minilm.py``, which reuses this catalog.
"""

from __future__ import annotations

import hashlib
import logging
import random

import numpy as np
import pytest

from dualgraph.stores.faiss_index import FaissIndex
from dualgraph.tkg.lexical import tokenize
from dualgraph.tkg.model import Chunk, Entity
from dualgraph.tkg.retrieval import (
    BM25Retriever,
    EntityVoteRetriever,
    NaiveVectorRetriever,
    count_tokens,
    entity_lexical_index,
    fuse,
    index_chunks,
    index_entities,
    vote,
)

# -- the catalog (shared with the MiniLM integration test) ------------------------------

PRODUCT_CHUNKS = {
    "Galaxy S24 Ultra": [
        ("s24u-1", "The Galaxy S24 Ultra has a 6.8-inch 120Hz display and a built-in S Pen for notes and sketches."),
        ("s24u-2", "It is rated IP68 for dust and water resistance and supports 45W wired and 15W wireless charging."),
        ("s24u-3", "Stereo speakers tuned by AKG deliver rich, loud sound for films and music."),
    ],
    "Galaxy A15 5G": [
        ("a15-1", "The Galaxy A15 5G has a 6.5-inch 90Hz display and a 5000mAh battery."),
        ("a15-2", "It keeps a 3.5mm headphone jack and a single bottom-firing speaker."),
    ],
    "Galaxy Z Fold5": [
        (
            "fold-1",
            "The Galaxy Z Fold5 unfolds into a 7.6-inch tablet-size screen and works with the S Pen Fold Edition.",
        ),
        (
            "fold-2",
            "It is rated IPX8 for water resistance and supports wireless charging and reverse wireless charging.",
        ),
        ("fold-3", "Stereo speakers sit on both halves of the folding body."),
    ],
    "Galaxy Tab S9": [
        ("tab-1", "The Galaxy Tab S9 tablet ships with an S Pen in the box and has a 120Hz screen."),
        ("tab-2", "It is the first Galaxy tablet rated IP68, and its quad stereo speakers are tuned by AKG."),
    ],
    "Galaxy XCover7": [
        ("xc-1", "The Galaxy XCover7 rugged phone is IP68 and MIL-STD-810H certified, with a replaceable battery."),
        ("xc-2", "Pogo pins connect it to a desktop charging dock."),
    ],
    "Galaxy Buds3 Pro": [
        ("buds-1", "Galaxy Buds3 Pro earbuds have active noise cancelling and an IP57 rating."),
        ("buds-2", "The charging case supports wireless charging on any Qi pad."),
    ],
}

# What an extractor would produce: (name, description, chunks that mention it).
ENTITY_ROWS = [
    ("S Pen", "A stylus pen for writing, drawing and taking handwritten notes on the screen.", ["s24u-1", "tab-1"]),
    ("S Pen Fold Edition", "A thinner stylus pen made for the folding screen of the Galaxy Z Fold5.", ["fold-1"]),
    (
        "IP68",
        "Dust and water resistance rating: dust tight and protected against immersion in water.",
        ["s24u-2", "tab-2", "xc-1"],
    ),
    ("IPX8", "Water resistance rating: protected against immersion in fresh water, not rated for dust.", ["fold-2"]),
    ("IP57", "Dust and water resistance rating that protects the earbuds against splashes.", ["buds-1"]),
    (
        "Wireless charging",
        "Charging the battery without a cable by placing the device on a Qi charging pad.",
        ["s24u-2", "fold-2", "buds-2"],
    ),
    (
        "Reverse wireless charging",
        "Sharing battery power without a cable to charge other devices such as earbuds.",
        ["fold-2"],
    ),
    (
        "Stereo speakers",
        "Two or more speakers that produce stereo sound for music, video and games.",
        ["s24u-3", "fold-3", "tab-2"],
    ),
    ("AKG", "Audio brand that tunes the speakers of Samsung devices.", ["s24u-3", "tab-2"]),
    ("120Hz display", "A screen with a 120 Hz refresh rate for smooth scrolling.", ["s24u-1", "tab-1"]),
    ("90Hz display", "A screen with a 90 Hz refresh rate.", ["a15-1"]),
    ("5000mAh battery", "A large battery with a capacity of 5000 mAh.", ["a15-1"]),
    ("5G", "Fifth-generation mobile network connectivity.", ["a15-1"]),
    ("Headphone jack", "A 3.5 mm audio port for wired headphones.", ["a15-2"]),
    ("Replaceable battery", "A battery the user can swap out without tools.", ["xc-1"]),
    ("MIL-STD-810H", "US military standard for durability against drops, shocks, vibration and temperature.", ["xc-1"]),
    ("Active noise cancelling", "Uses microphones to block outside noise while listening.", ["buds-1"]),
    ("Pogo pins", "Spring-loaded contacts that connect the phone to a charging dock.", ["xc-2"]),
    (
        "Galaxy S24 Ultra",
        "Samsung flagship smartphone with a large display and a built-in stylus.",
        ["s24u-1", "s24u-2", "s24u-3"],
    ),
    ("Galaxy A15 5G", "Affordable Samsung smartphone with 5G.", ["a15-1", "a15-2"]),
    ("Galaxy Z Fold5", "Samsung foldable smartphone that opens into a small tablet.", ["fold-1", "fold-2", "fold-3"]),
    ("Galaxy Tab S9", "Samsung Android tablet.", ["tab-1", "tab-2"]),
    ("Galaxy XCover7", "Samsung rugged smartphone for field work.", ["xc-1", "xc-2"]),
    ("Galaxy Buds3 Pro", "Samsung wireless earbuds.", ["buds-1", "buds-2"]),
]

# Ground truth, written by reading the chunk texts above (not derived from any output):
# which products' pages mention each feature.
FEATURE_PRODUCTS = {
    "S Pen": {"Galaxy S24 Ultra", "Galaxy Z Fold5", "Galaxy Tab S9"},
    "IP68": {"Galaxy S24 Ultra", "Galaxy Tab S9", "Galaxy XCover7"},
    "wireless charging": {"Galaxy S24 Ultra", "Galaxy Z Fold5", "Galaxy Buds3 Pro"},
    "stereo speakers": {"Galaxy S24 Ultra", "Galaxy Z Fold5", "Galaxy Tab S9"},
    "120Hz": {"Galaxy S24 Ultra", "Galaxy Tab S9"},
}


def build_catalog(*, shuffle_seed: int | None = None) -> tuple[dict[str, Chunk], dict[str, Entity]]:
    """Chunks and entities by id; ``shuffle_seed`` permutes insertion orders (ids stay the same)."""
    chunks = {
        cid: Chunk(cid, product.lower().replace(" ", "-"), text, ordinal=i, products=(product,))
        for product, rows in PRODUCT_CHUNKS.items()
        for i, (cid, text) in enumerate(rows)
    }
    entities = {
        f"ent-{i:02d}": Entity(f"ent-{i:02d}", name, desc, list(cids), len(cids))
        for i, (name, desc, cids) in enumerate(ENTITY_ROWS)
    }
    if shuffle_seed is not None:
        rng = random.Random(shuffle_seed)
        chunk_items, entity_items = list(chunks.items()), list(entities.items())
        rng.shuffle(chunk_items)
        rng.shuffle(entity_items)
        chunks, entities = dict(chunk_items), dict(entity_items)
    return chunks, entities


class HashedBagOfWords:
    """A deterministic test embedder: tokens hashed into ``dim`` signed buckets, L2-normalised."""

    name = "hashed-bow"

    def __init__(self, dim: int = 512) -> None:
        self.dim = dim
        self.calls = 0

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in tokenize(text):
                h = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "big")
                out[row, h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def make_retriever(*, shuffle_seed: int | None = None, hybrid: bool = True, **options) -> EntityVoteRetriever:
    chunks, entities = build_catalog(shuffle_seed=shuffle_seed)
    embedder = HashedBagOfWords()
    index = FaissIndex(embedder.dim, gpu=False)
    index_entities(embedder, entities, index)
    lexical = entity_lexical_index(entities) if hybrid else None
    options = {"top_entities": 5, "top_chunks": 3, **options}
    return EntityVoteRetriever(embedder, index, entities, None, chunks, lexical=lexical, **options)


# -- the pure parts ---------------------------------------------------------------------


def test_vote_sums_over_entities_with_rank_and_specificity_weights():
    scores = dict(vote(["a", "b", "hub"], {"a": ["c1"], "b": ["c1", "c2"], "hub": ["c1", "c2", "c3", "c4"]}))
    w = lambda rank, df: 1 / (rank + 1) / (1 + np.log(df))  # noqa: E731
    assert scores["c1"] == pytest.approx(w(0, 1) + w(1, 2) + w(2, 4))
    assert scores["c2"] == pytest.approx(w(1, 2) + w(2, 4))
    assert scores["c3"] == pytest.approx(w(2, 4))


def test_vote_ties_are_deterministic():
    # c9 and c1 tie on score; c9's best voter ranks higher, so it comes first; then ids.
    ranked = vote(["x", "y"], {"x": ["c9"], "y": ["c1", "c2"], "z": ["c0"]})
    assert [c for c, _ in ranked] == ["c9", "c1", "c2"]
    (first, s1), (second, s2) = vote(["p"], {"p": ["b", "a"]})
    assert (first, second) == ("a", "b") and s1 == s2
    assert vote(["none"], {}) == []


def test_fuse_weights():
    dense, lexical = [("a", 0.9), ("b", 0.5)], [("b", 7.0)]
    assert [i for i, _ in fuse(dense, lexical, weight=0.0)] == ["a", "b"]
    assert [i for i, _ in fuse(dense, lexical, weight=1.0)][0] == "b"
    assert dict(fuse(dense, lexical, weight=0.5, k=60))["b"] == pytest.approx(0.5 / 62 + 0.5 / 61)


# -- EntityVoteRetriever ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected_first"),
    [
        ("Which phone has a replaceable battery?", {"xc-1"}),
        ("Does any device have a headphone jack?", {"a15-2"}),
        ("Which earbuds have active noise cancelling?", {"buds-1"}),
        ("Is the Galaxy Tab S9 rated IP68?", {"tab-2"}),
        ("Which phones support wireless charging?", {"s24u-2", "fold-2", "buds-2"}),
    ],
)
def test_the_right_chunk_comes_first(question, expected_first):
    result = make_retriever().retrieve([question])[0]
    assert result.chunks[0].chunk_id in expected_first
    assert result.products[0] == result.chunks[0].chunk.products[0]


def test_batch_embeds_once_and_equals_one_by_one():
    questions = ["Which phone has a replaceable battery?", "stereo speakers", "IP68 tablet"]
    retriever = make_retriever()
    retriever.embedder.calls = 0
    batch = retriever.retrieve(questions)
    assert retriever.embedder.calls == 1
    single = [retriever.retrieve([q])[0] for q in questions]
    assert [[c.chunk_id for c in r.chunks] for r in batch] == [[c.chunk_id for c in r.chunks] for r in single]
    assert retriever.retrieve([]) == []


def test_result_records_entities_and_scores():
    result = make_retriever().retrieve(["Which phone has a replaceable battery?"])[0]
    assert len(result.entities) == 5
    assert result.entities[0].name == "Replaceable battery"
    assert result.entities[0].dense is not None and result.entities[0].lexical is not None
    assert [c.score for c in result.candidates] == sorted((c.score for c in result.candidates), reverse=True)
    assert [c.chunk_id for c in result.chunks] == [c.chunk_id for c in result.candidates[:3]]


@pytest.mark.parametrize("hybrid", [True, False])
def test_deterministic_across_runs_and_insertion_orders(hybrid):
    questions = ["wireless charging", "Which device has stereo speakers and an S Pen?", "samsung galaxy"]
    runs = [
        make_retriever(shuffle_seed=seed, hybrid=hybrid, top_entities=8, top_chunks=13).retrieve(questions)
        for seed in (None, 1, 2, 3)
    ]
    rankings = [[[(c.chunk_id, round(c.score, 9)) for c in r.candidates] for r in run] for run in runs]
    assert all(r == rankings[0] for r in rankings)
    again = make_retriever(hybrid=hybrid, top_entities=8, top_chunks=13).retrieve(questions)
    assert [[c.chunk_id for c in r.candidates] for r in again] == [[c for c, _ in r] for r in rankings[0]]


@pytest.mark.parametrize("budget", [0, 10, 25, 40, 60, 100, 2000])
def test_token_budget_is_never_exceeded(budget):
    retriever = make_retriever(top_entities=24, top_chunks=20, token_budget=budget)
    questions = [text for rows in PRODUCT_CHUNKS.values() for _, text in rows] + ["galaxy samsung phone"]
    for exhaustive in (False, True):
        for result in retriever.retrieve(questions, exhaustive=exhaustive, threshold=0.05):
            assert result.tokens <= budget
            assert all(c.tokens == count_tokens(c.chunk.text) for c in result.chunks)


def test_packing_skips_a_chunk_too_big_and_keeps_filling():
    from dualgraph.tkg.retrieval import _ChunkPacker

    chunks = {c: Chunk(c, "d", " ".join(["w"] * n)) for c, n in [("big", 10), ("mid", 6), ("small", 3)]}
    packer = _ChunkPacker(chunks, top_chunks=5, token_budget=9, counter=lambda t: len(t.split()))
    ranked = packer.scored([("big", 3.0), ("mid", 2.0), ("small", 1.0), ("gone", 0.5)])
    assert [c.chunk_id for c in ranked] == ["big", "mid", "small"]  # unknown chunk ids are dropped
    assert [c.chunk_id for c in packer.pack(ranked, limit=None)] == ["mid", "small"]
    assert [c.chunk_id for c in packer.pack(ranked, limit=1)] == ["mid"]
    packer.token_budget = 10
    assert [c.chunk_id for c in packer.pack(ranked, limit=None)] == ["big"]


def test_top_chunks_limit():
    result = make_retriever(top_entities=24, top_chunks=2).retrieve(["samsung galaxy smartphone"])[0]
    assert len(result.chunks) == 2 and len(result.candidates) > 2


@pytest.mark.parametrize(
    ("feature", "question"),
    [
        ("S Pen", "Which devices have an S Pen?"),
        ("IP68", "Which devices are rated IP68?"),
        ("wireless charging", "Which devices support wireless charging?"),
        ("stereo speakers", "List everything with stereo speakers."),
        ("120Hz", "Which have a 120Hz display?"),
    ],
)
def test_exhaustive_returns_every_product_that_mentions_the_feature(feature, question):
    # A budget for one chunk and top_chunks=1: exhaustive coverage must not depend on either.
    retriever = make_retriever(top_chunks=1, token_budget=30)
    result = retriever.retrieve([question], exhaustive=True, threshold=0.3)[0]
    assert result.exhaustive
    assert set(result.products) >= FEATURE_PRODUCTS[feature]
    assert result.entities, "the matched entities are reported"
    assert result.tokens <= 30


def test_exhaustive_threshold_is_a_parameter_and_names_match_exactly():
    retriever = make_retriever()
    loose = retriever.retrieve(["Which devices are rated IP68?"], exhaustive=True, threshold=0.0)[0]
    strict = retriever.retrieve(["Which devices are rated IP68?"], exhaustive=True, threshold=0.99)[0]
    assert len(loose.entities) > len(strict.entities)
    # Nothing is that close by cosine, but "IP68" is named in the question.
    assert [e.name for e in strict.entities] == ["IP68"]
    assert set(strict.products) == FEATURE_PRODUCTS["IP68"]
    without_names = make_retriever(exhaustive_names=False)
    assert without_names.retrieve(["Which devices are rated IP68?"], exhaustive=True, threshold=0.99)[0].entities == []


def test_index_and_table_divergence_is_skipped_not_fatal(caplog):
    chunks, entities = build_catalog()
    embedder = HashedBagOfWords()
    index = FaissIndex(embedder.dim, gpu=False)
    index_entities(embedder, entities, index)
    index.add(["ghost"], embedder.embed(["Replaceable battery: a battery you swap"]))
    entity_chunks = {e: x.chunk_ids + ["no-such-chunk"] for e, x in entities.items()}
    retriever = EntityVoteRetriever(embedder, index, entities, entity_chunks, chunks, top_entities=5)
    with caplog.at_level(logging.WARNING):
        result = retriever.retrieve(["replaceable battery"])[0]
    assert "ghost" in caplog.text
    assert result.chunks[0].chunk_id == "xc-1"
    assert all(c.chunk_id in chunks for c in result.candidates)


def test_hybrid_weight_is_checked():
    with pytest.raises(ValueError):
        make_retriever(hybrid_weight=1.5)


# -- the baselines ------------------------------------------------------------------------


def test_naive_vector_baseline_dedupes_identical_texts():
    chunks, _ = build_catalog()
    chunks["dup"] = Chunk("dup", "copy", chunks["xc-1"].text, products=("Galaxy XCover7",))
    embedder = HashedBagOfWords()
    index = FaissIndex(embedder.dim, gpu=False)
    index_chunks(embedder, chunks, index)
    result = NaiveVectorRetriever(embedder, index, chunks, top_chunks=3, token_budget=60).retrieve(
        ["rugged phone with a replaceable battery"]
    )[0]
    assert result.chunks[0].chunk.text == chunks["xc-1"].text
    assert [c.chunk.text for c in result.chunks].count(chunks["xc-1"].text) == 1
    assert result.tokens <= 60 and result.products[0] == "Galaxy XCover7"


def test_bm25_baseline_over_chunks():
    chunks, _ = build_catalog()
    retriever = BM25Retriever.from_chunks(chunks, top_chunks=3, token_budget=80)
    results = retriever.retrieve(["MIL-STD-810H", "Which phone has 5G?", "zzz"])
    assert results[0].chunks[0].chunk_id == "xc-1"
    assert results[1].chunks[0].chunk_id == "a15-1"
    assert results[2].chunks == [] and results[2].products == []
    assert all(r.tokens <= 80 for r in results)


def test_entity_vectors_of_names_alone_embed_the_names_and_bm25_still_reads_descriptions():
    chunks, entities = build_catalog()
    embedder = HashedBagOfWords()
    by_name, by_text = FaissIndex(embedder.dim, gpu=False), FaissIndex(embedder.dim, gpu=False)
    index_entities(embedder, entities, by_name, names_only=True)
    index_entities(embedder, entities, by_text)
    some = next(e for e in entities.values() if e.description)
    name_vector = embedder.embed([some.name])[0]
    # the stored vector is the name's own, not the name-and-description one
    (best, score), *_ = by_name.search(name_vector[None, :], k=1)[0]
    assert best == some.entity_id and score > 0.999
    assert by_text.search(name_vector[None, :], k=1)[0][0][1] < 0.999
    # a word only the description holds is still found lexically
    word = next(w for w in tokenize(some.description) if w not in tokenize(some.name) and len(w) > 4)
    hybrid = EntityVoteRetriever(embedder, by_name, entities, None, chunks, lexical=entity_lexical_index(entities))
    assert some.entity_id in {e.entity_id for e in hybrid.retrieve([word])[0].entities}
