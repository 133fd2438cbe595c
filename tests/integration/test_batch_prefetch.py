"""A batch's grounding phrases are embedded in one call before its questions compile: fewer model
calls for the batch, and the very same answers.

Real parts: the fixture catalog's index, its embedder (MiniLM or the index's), the embedded store.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import catalog_index

from dualgraph.answer import engine as E
from dualgraph.answer.engine import AskConfig, EngineSpec

# new wording in every question, so its phrases are in no cache of the engine
QUESTIONS = [
    "Which phones have at least 6 GB of zorbic memory?",
    "Which phones under 20000 INR have a quandle camera of 50 MP or more?",
    "List the phones with wibbly charging and 5G.",
    "Which phones have the largest flurb battery?",
    "Which phones with a snazzle display of 120 Hz cost under 30000 INR?",
    "How many phones have a plonky chipset with 8 cores?",
]


class _Counted:
    def __init__(self, inner) -> None:
        self.inner, self.calls, self.texts, self.per_call = inner, 0, [], []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def embed(self, texts, stage="default"):
        self.calls += 1
        self.texts += list(texts)
        self.per_call.append(list(texts))
        return self.inner.embed(texts, stage=stage)


def _engine(index: Path, tag: str) -> tuple[E.QAEngine, _Counted]:
    engine = EngineSpec(index_dir=index, config=AskConfig(strategy="skg"))()
    engine.prepare()
    memo = engine.kit.symbolic.compiler.patterns.embedder
    assert isinstance(memo, E._MemoEmbedder)
    memo.inner = counted = _Counted(memo.inner)
    engine.answer_batch([("w", f"Which phones have 5G {tag}?")])  # catalog-wide embeddings, before counting
    counted.calls, counted.texts, counted.per_call = 0, [], []
    return engine, counted


def test_prefetch_embeds_the_batch_at_once_and_changes_no_answer(tmp_path_factory):
    index = catalog_index(tmp_path_factory)
    items = [(str(i), q) for i, q in enumerate(QUESTIONS)]
    plain, plain_calls = _engine(index, "a")
    plain.kit.symbolic.prefetch = lambda questions: 0  # the baseline: phrases embedded as grounding meets them
    fetched, fetched_calls = _engine(index, "b")
    try:
        without = plain.answer_batch(items)
        with_prefetch = fetched.answer_batch(items)
    finally:
        plain.close()
        fetched.close()
    for a, b in zip(without, with_prefetch):
        assert (a.answer_list, a.value, a.evidence.sparql) == (b.answer_list, b.value, b.evidence.sparql), a.question
    assert plain_calls.calls >= len(QUESTIONS)  # each question met its new phrases on its own
    assert fetched_calls.calls <= plain_calls.calls / 2, (fetched_calls.per_call, plain_calls.per_call)
    # the first call holds the new words of several questions at once
    assert {"zorbic", "quandle", "wibbly"} <= set(fetched_calls.per_call[0]), fetched_calls.per_call


def test_one_question_is_not_prefetched(tmp_path_factory):
    engine, _ = _engine(catalog_index(tmp_path_factory), "c")
    try:
        assert engine.kit.symbolic.prefetch(["Which phones have 8 GB of RAM?"]) == 0
        assert engine.kit.symbolic.prefetch(QUESTIONS[:2]) > 2
    finally:
        engine.close()


def test_a_batch_scores_its_phrases_against_the_pattern_index_in_one_pass(tmp_path_factory):
    """One pass over the dense pattern index per batch: the batch's phrases are scored together, and
    every search grounding makes for them cuts its ranking from those scores, as a search on its own
    would rank."""
    engine, _ = _engine(catalog_index(tmp_path_factory), "d")
    index = engine.kit.symbolic.compiler.patterns
    passes: list[int] = []  # the rows of each pass over the dense index
    scores = index._dense.scores

    def counted(queries):
        passes.append(len(queries))
        return scores(queries)

    index._dense.scores = counted
    try:
        probes = [
            (t, k, kinds)
            for t in ("RAM GB", "battery mAh", "5G", "refresh rate Hz", "orbit", "zorbic memory")
            for k, kinds in ((25, ["spec_numeric"]), (5, ["feature"]), (10, ["range", "product"]), (10, None))
        ]
        index.prefetch([])  # nothing held: each search scores its text itself
        alone = [index.search([t], k=k, kinds=kinds)[0] for t, k, kinds in probes]
        passes.clear()
        assert index.prefetch(sorted({t for t, _, _ in probes})) == 6
        held = [index.search([t], k=k, kinds=kinds)[0] for t, k, kinds in probes]
        assert passes == [6]  # one pass for all six, none after
        assert [[p.pattern_id for p, _ in h] for h in held] == [[p.pattern_id for p, _ in h] for h in alone]

        passes.clear()
        engine.answer_batch([(str(i), q) for i, q in enumerate(QUESTIONS)])
        assert passes and passes[0] >= len(QUESTIONS), passes  # the batch's phrases, together
        assert len(passes) == 1, passes  # no grounding search needed a pass of its own
    finally:
        engine.close()


def test_rankings_fused_in_numpy_equal_the_fusion_of_hit_lists(tmp_path_factory):
    """The scored path's fusion (numpy, on column numbers) against the fusion of hit lists that an
    approximate index still takes: same patterns, same order, same RRF sums, at every depth and filter."""
    from dualgraph.stores.vector import top_hits

    engine, _ = _engine(catalog_index(tmp_path_factory), "e")
    index = engine.kit.symbolic.compiler.patterns
    try:
        texts = ["RAM GB", "battery mAh", "5G", "refresh rate Hz", "orbit", "price", "display", "zz"]
        index.prefetch(texts)
        for t in texts:
            _, dense, lexical = index._scored[t]
            for depth in (1, 5, 50, 500, len(index)):
                for kinds in (None, {"spec_numeric"}, {"feature"}, {"range", "product"}, {"spec_value"}):
                    fast = index._fuse_scores(dense, lexical, depth, kinds)
                    lists = index._fuse(
                        top_hits(dense, index._dense_ids, depth), index._lexical._top(lexical, depth), kinds
                    )
                    assert [(p.pattern_id, s) for p, s in fast] == [(p.pattern_id, s) for p, s in lists], (t, depth)
    finally:
        engine.close()
