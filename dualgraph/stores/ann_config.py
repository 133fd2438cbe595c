"""The settings of an approximate vector index, apart from FAISS so configs load without it."""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Kind = Literal["flat", "ivf", "hnsw"]


class AnnConfig(BaseModel):
    """When a FAISS index turns approximate, what it becomes, and how good it must be."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["auto", "flat", "ivf", "hnsw"] = Field(
        "auto",
        description="'auto': exact flat below `threshold` vectors, IVF from there on; "
        "'flat', 'ivf', 'hnsw': that kind whatever the size.",
    )
    threshold: int = Field(
        200_000,
        ge=1,
        description="Vector count from which 'auto' builds IVF. Below it a flat search of one query "
        "costs a few milliseconds on two cores, not worth a training pass and a recall loss.",
    )
    nlist: int | None = Field(
        None,
        ge=1,
        description="IVF lists (k-means centroids); None: `nlist_per_sqrt_n` x sqrt(n), "
        "capped so that each centroid is trained on at least 39 sample vectors.",
    )
    nlist_per_sqrt_n: float = Field(
        4.0, gt=0, description="The factor of sqrt(n) that gives the number of IVF lists when `nlist` is None."
    )
    encoding: Literal["flat", "sq8"] = Field(
        "flat",
        description="How IVF stores vectors: 'flat' keeps float32 (exact scores of the visited vectors); "
        "'sq8' keeps one byte per dimension (4x less memory, approximate scores).",
    )
    nprobe: int | None = Field(
        None,
        ge=1,
        description="IVF lists visited per query; None: the smallest power of two (up to `max_nprobe`) "
        "that meets `recall_target`.",
    )
    max_nprobe: int = Field(256, ge=1, description="The largest nprobe the recall check may try.")
    hnsw_m: int = Field(32, ge=2, description="HNSW neighbours per node (memory and build time grow with it).")
    ef_construction: int = Field(40, ge=1, description="HNSW candidate list while building the graph.")
    ef_search: int | None = Field(
        None,
        ge=1,
        description="HNSW candidate list per query; None: the smallest power of two (from 16, up to "
        "`max_ef_search`) that meets `recall_target`.",
    )
    max_ef_search: int = Field(1024, ge=1, description="The largest efSearch the recall check may try.")
    recall_target: float = Field(
        0.95, gt=0, le=1, description="Recall@`recall_k` against exact search that the index must reach."
    )
    recall_k: int = Field(10, ge=1, description="The k of the recall check.")
    recall_queries: int = Field(
        200, ge=1, description="Sample queries of the recall check (each also searched exactly, in shards)."
    )
    on_recall_miss: Literal["warn", "raise"] = Field(
        "warn",
        description="When the target is not met at the largest breadth allowed: 'warn' keeps the index "
        "(the report says it missed); 'raise' raises RecallNotMetError.",
    )
    train_sample: int = Field(
        100_000,
        ge=1,
        description="Vectors k-means trains on (a random sample; without one given, the first rows added).",
    )
    kmeans_iterations: int = Field(10, ge=1, description="k-means iterations when training IVF.")
    shard_size: int = Field(50_000, ge=1, description="Vectors copied per shard when a flat index is converted.")
    seed: int = Field(0, description="Seed of the training and query samples and of k-means.")

    def choose(self, n: int) -> Kind:
        """The kind of index for ``n`` vectors.

        >>> AnnConfig().choose(10), AnnConfig().choose(10**6), AnnConfig(kind="hnsw").choose(10)
        ('flat', 'ivf', 'hnsw')
        """
        if self.kind == "auto":
            return "flat" if n < self.threshold else "ivf"
        return self.kind

    def lists_for(self, n: int, train_rows: int) -> int:
        """IVF lists for ``n`` vectors trained on ``train_rows``.

        >>> AnnConfig().lists_for(10**6, 200_000), AnnConfig().lists_for(10**6, 3900)
        (4000, 100)
        """
        wanted = self.nlist or round(self.nlist_per_sqrt_n * math.sqrt(max(n, 1)))
        # FAISS warns below 39 training points per centroid: the centroids are then poor
        return max(1, min(wanted, train_rows // 39))
