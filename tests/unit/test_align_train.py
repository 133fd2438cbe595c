"""The projection heads: they start as the text embedding, learn from anchors what text alone
cannot tell, keep the best epoch, and survive a save and load."""

from __future__ import annotations

import numpy as np

from dualgraph.align.anchors import Anchor
from dualgraph.align.train import AlignerHeads, TrainConfig, recall_at, train_heads


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _world(n=240, text_dim=16, graph_dim=8, seed=0):
    """SKG node i and TKG entity i are the same thing. Their names share nothing (independent text
    vectors); their graph vectors agree up to noise, as a node's and its products' would."""
    rng = np.random.default_rng(seed)
    skg_text, tkg_text = _unit(rng.normal(size=(n, text_dim))), _unit(rng.normal(size=(n, text_dim)))
    graph = rng.normal(size=(n, graph_dim))
    skg_graph = _unit(graph + 0.05 * rng.normal(size=graph.shape))
    tkg_graph = _unit(graph + 0.05 * rng.normal(size=graph.shape))
    anchors = [Anchor(i, i, "mined") for i in range(n)]
    return skg_text, skg_graph, tkg_text, tkg_graph, anchors


def test_untrained_heads_are_the_text_embedding():
    skg_text, skg_graph, *_ = _world(n=10)
    heads = AlignerHeads(skg_text.shape[1], skg_graph.shape[1], 32)
    np.testing.assert_allclose(heads.project("skg", skg_text, skg_graph), skg_text, atol=1e-6)


def test_training_learns_what_names_do_not_say_and_generalises():
    skg_text, skg_graph, tkg_text, tkg_graph, anchors = _world()
    train, val, test = anchors[:160], anchors[160:200], anchors[200:]
    result = train_heads(
        skg_text, skg_graph, tkg_text, tkg_graph, train, val, TrainConfig(max_epochs=150, patience=20, batch_size=32)
    )
    gold = [{a.skg} for a in test]
    rows = [a.text for a in test]
    before = recall_at(tkg_text[rows], skg_text, gold)
    after = recall_at(
        result.heads.project("tkg", tkg_text[rows], tkg_graph[rows]),
        result.heads.project("skg", skg_text, skg_graph),
        gold,
    )
    # 40 unseen pairs among 240 nodes: chance is 1/240 at rank 1 and 10/240 within 10
    assert before["recall@10"] < 0.15 and after["recall@10"] > 0.6 and after["recall@1"] > 0.15, (before, after)
    assert result.best_epoch > 0 and result.history[0]["epoch"] == 0


def test_early_stopping_keeps_epoch_zero_when_training_only_hurts():
    skg_text, skg_graph, tkg_text, tkg_graph, anchors = _world(n=60)
    # validation anchors whose names already agree, trained on pairs that contradict them
    tkg_text[:20] = skg_text[:20]
    val = anchors[:20]
    wrong = [Anchor(i, (i + 7) % 60, "mined") for i in range(20, 60)]
    result = train_heads(
        skg_text, skg_graph, tkg_text, tkg_graph, wrong, val, TrainConfig(max_epochs=30, patience=5, seed=3)
    )
    assert result.best_epoch == 0
    np.testing.assert_allclose(result.heads.project("tkg", tkg_text, tkg_graph), tkg_text, atol=1e-6)


def test_heads_save_and_load(tmp_path):
    skg_text, skg_graph, tkg_text, tkg_graph, anchors = _world(n=40)
    heads = train_heads(
        skg_text, skg_graph, tkg_text, tkg_graph, anchors[:30], anchors[30:], TrainConfig(max_epochs=3)
    ).heads
    heads.save(tmp_path / "heads.pt")
    again = AlignerHeads.load(tmp_path / "heads.pt")
    np.testing.assert_array_equal(heads.project("tkg", tkg_text, tkg_graph), again.project("tkg", tkg_text, tkg_graph))
