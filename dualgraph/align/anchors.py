"""Anchor pairs the aligner learns from: a TKG entity and the SKG node it is known to mean.

Two sources, both read from the catalog itself:

* **name**: the entity's name and the node's name are the same words
  (:func:`~dualgraph.tkg.text_facts.name_key`: case, punctuation and spacing aside);
* **mined**: the entity and the node hold for the same product families (Jaccard of their
  family sets at least ``min_jaccard``, at least ``min_support`` families in common: a page
  states a phrase for all the variants it lists, so agreement within one family says nothing), each the
  other's single best match (a tie means the data cannot tell which one, so no anchor), and
  neither held by most of the catalog (a phrase every page says matches every entry every
  product has).

Mined anchors are the ones names alone miss: a page's "Battery Capacity" and the specs'
"Battery › Capacity" on a catalog where only some products state them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from dualgraph.align.sides import Side
from dualgraph.tkg.text_facts import name_key

__all__ = ["Anchor", "find_anchors", "split_anchors"]

KIND_ORDER = {"feature": 0, "entry": 1, "value": 2, "category": 3}
"""Which SKG node an entity is anchored to when several carry its name: a derived feature ("5G")
is what a question means more often than the entry or the value of the same name."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """TKG row ``text`` means SKG row ``skg`` (``also``: other SKG rows of the same name)."""

    text: int
    skg: int
    source: str  # "name" | "mined"
    also: tuple[int, ...] = ()


def incidence(side: Side, n_products: int):
    """A sparse (nodes × products) 0/1 matrix."""
    from scipy.sparse import csr_matrix

    rows = np.repeat(np.arange(len(side)), [len(p) for p in side.products])
    cols = np.fromiter((i for p in side.products for i in sorted(p)), dtype=np.int64, count=len(rows))
    return csr_matrix((np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(side), n_products))


def find_anchors(
    skg: Side,
    tkg: Side,
    n_products: int,
    *,
    min_jaccard: float = 0.6,
    min_support: int = 3,
    max_share: float = 0.5,
    groups: list[int] | None = None,
) -> list[Anchor]:
    """Name anchors, then mined anchors for the entities no name anchored. ``groups``: each
    product's family index (:func:`~dualgraph.align.sides.product_groups`); None: each its own."""
    by_key: dict[str, list[int]] = {}
    for j, name in enumerate(skg.names):
        by_key.setdefault(name_key(name), []).append(j)
    anchors: list[Anchor] = []
    for i, name in enumerate(tkg.names):
        hits = sorted(by_key.get(name_key(name), []), key=lambda j: (KIND_ORDER.get(skg.kinds[j], 9), j))
        if hits:
            anchors.append(Anchor(i, hits[0], "name", tuple(hits[1:])))
    named_text = {a.text for a in anchors}
    named_skg = {j for a in anchors for j in (a.skg, *a.also)}
    if groups is not None:
        skg, tkg, n_products = _by_group(skg, groups), _by_group(tkg, groups), max(groups, default=-1) + 1
    anchors.extend(
        a
        for a in mine_by_products(
            skg, tkg, n_products, min_jaccard=min_jaccard, min_support=min_support, max_share=max_share
        )
        if a.text not in named_text and a.skg not in named_skg
    )
    return anchors


def _by_group(side: Side, groups: list[int]) -> Side:
    """The same nodes with product sets mapped to family sets."""
    return Side(
        side.iris, side.names, side.texts, side.kinds, side.descriptions,
        [frozenset(groups[i] for i in ps) for ps in side.products],
    )  # fmt: skip


def mine_by_products(
    skg: Side, tkg: Side, n_products: int, *, min_jaccard: float, min_support: int, max_share: float
) -> list[Anchor]:
    """Pairs each the other's unique best by product-set Jaccard (sparse: only pairs that share a product)."""
    if not len(skg) or not len(tkg) or not n_products:
        return []
    a, b = incidence(tkg, n_products), incidence(skg, n_products)
    size_a = np.asarray(a.sum(axis=1)).ravel()
    size_b = np.asarray(b.sum(axis=1)).ravel()
    common = (a @ b.T).tocoo()
    inter = common.data
    jac = inter / (size_a[common.row] + size_b[common.col] - inter)
    cap = max_share * n_products
    ok = (inter >= min_support) & (size_a[common.row] <= cap) & (size_b[common.col] <= cap)
    rows, cols, jac = common.row[ok], common.col[ok], jac[ok]
    best_row = _unique_best(rows, cols, jac)
    best_col = _unique_best(cols, rows, jac)
    out = []
    for i, (j, s) in sorted(best_row.items()):
        if s >= min_jaccard and best_col.get(j, (None, 0.0))[0] == i:
            out.append(Anchor(int(i), int(j), "mined"))
    return out


def _unique_best(keys: np.ndarray, others: np.ndarray, score: np.ndarray) -> dict[int, tuple[int, float]]:
    """key -> (its best other, score) where that best is strictly better than the runner-up."""
    best: dict[int, tuple[int, float]] = {}
    second: dict[int, float] = {}
    for k, o, s in zip(keys.tolist(), others.tolist(), score.tolist(), strict=True):
        cur = best.get(k)
        if cur is None or s > cur[1]:
            if cur is not None:
                second[k] = cur[1]
            best[k] = (o, s)
        elif s > second.get(k, -1.0):
            second[k] = s
    return {k: v for k, v in best.items() if v[1] > second.get(k, -1.0) + 1e-9}


def split_anchors(anchors: list[Anchor], *, held_out: float, seed: int) -> tuple[list[Anchor], list[Anchor]]:
    """``(train, held)``: ``held_out`` of each source's anchors held out (at least one when there
    are two or more), chosen by ``seed``.

    >>> anchors = [Anchor(i, i, "name") for i in range(10)] + [Anchor(10 + i, i, "mined") for i in range(5)]
    >>> train, held = split_anchors(anchors, held_out=0.2, seed=0)
    >>> len(train), len(held), sorted({a.source for a in held})
    (12, 3, ['mined', 'name'])
    """
    rng = random.Random(seed)
    train: list[Anchor] = []
    held: list[Anchor] = []
    for source in sorted({a.source for a in anchors}):
        group = [a for a in anchors if a.source == source]
        rng.shuffle(group)
        n = round(len(group) * held_out)
        if n == 0 and len(group) >= 2 and held_out > 0:
            n = 1
        held.extend(group[:n])
        train.extend(group[n:])
    return train, held
