"""One typed configuration, loaded once (defaults < YAML file < CLI flags) and passed down.

No module reads environment variables on its own; the CLI builds an
:class:`IndexConfig` and hands it to the pipeline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from dualgraph.corpus.limits import ReadLimits
from dualgraph.models.factory import ModelsConfig
from dualgraph.stores.ann_config import AnnConfig
from dualgraph.stores.config import StoreConfig

__all__ = ["IndexConfig", "StoreConfig", "TkgConfig"]


class TkgConfig(BaseModel):
    """How the Textual KG is built."""

    model_config = ConfigDict(extra="forbid")

    enabled: bool = Field(
        True, description="Build the Textual KG (chunks, entities, embeddings, text facts in the SKG)."
    )
    chunk_tokens: int = Field(400, ge=50, description="Largest chunk, in (approximate) tokens.")
    overlap_tokens: int = Field(50, ge=0, description="Tokens repeated between consecutive chunks of a long section.")
    extractor: Literal["heuristic", "llm", "both"] = Field(
        "heuristic",
        description="Entity extraction: 'heuristic' needs no model; 'llm' uses models.llm; 'both' merges the two.",
    )
    description_tokens: int = Field(120, ge=10, description="Bound on an entity's merged description, in tokens.")
    entity_vectors: Literal["name", "name_and_description"] = Field(
        "name",
        description="What an entity's dense vector embeds. 'name': the name alone, several times cheaper; "
        "the entities' BM25 index still reads the descriptions, and the fused ranking finds products as well "
        "(bench/results/embedding_choice.md, bench/results/entity_vectors.md). 'name_and_description': "
        "'name: description', as before.",
    )
    summarise: bool = Field(
        True,
        description="When an LLM is configured, summarise merged descriptions that exceed the bound "
        "(else, and without an LLM, the description is extractive).",
    )
    embed_chunks: bool = Field(
        False,
        description="Also embed every chunk, for the naive vector-RAG baseline (`search --mode naive`). Answering "
        "finds chunks lexically and through entities, so this is off: a transformer pass over every chunk is "
        "most of an index run's time without a GPU. Entities are always embedded.",
    )
    ann: AnnConfig = Field(
        default_factory=AnnConfig,
        description="When the entity vector index turns approximate (IVF above a size) and the recall@k "
        "it must reach against exact search.",
    )


class IndexConfig(BaseModel):
    """How ``dualgraph index`` builds an index."""

    model_config = ConfigDict(extra="forbid")

    runner: Literal["ray", "inline"] = Field(
        "ray",
        description="'ray' runs the stages on Ray Data (local Ray unless ray_address is set); "
        "'inline' runs them in this process (tests, debugging, tiny catalogs).",
    )
    ray_address: str | None = Field(
        None,
        description="Address of an existing Ray cluster ('auto', 'ray://host:10001'); None starts local Ray. "
        "On a cluster the dataset and index directories must be on storage every worker sees.",
    )
    incremental_rules: bool = Field(
        default=True,
        description="After a change to some documents, derive rule facts again for their products and ranges "
        "only (rules with a focus), instead of recomputing the whole derived graph.",
    )
    trust_file_stamps: bool = Field(
        default=True,
        description="Take a document whose files stat as they did at the last run (size, times, inode; none "
        "written within two seconds of it) as unchanged without hashing its content. Turn off where the "
        "dataset's filesystem clock may disagree with the indexer's: every document is then hashed.",
    )
    incremental_rules_share: float = Field(
        default=0.25,
        gt=0,
        description="Above this share of the catalog's products in the focus, the rules are recomputed whole.",
    )
    ray_min_documents: int = Field(
        200,
        ge=0,
        description="With runner 'ray', a run with fewer documents to convert than this (a small catalog, or a "
        "re-index after a few changes) converts them in this process: Ray's workers take longer to start.",
    )
    ray_min_cpus: int = Field(
        3,
        ge=1,
        description="Local Ray (no ray_address) runs the stages only on a machine with at least this many CPUs: "
        "on two, Ray's worker start and data copies cost more than the second core gains (10k generated "
        "products: convert 132 s on local Ray against about 40 s in process). A cluster address always uses Ray.",
    )
    local_processes: int = Field(
        0,
        ge=0,
        description="With runner 'ray' on a local machine too small for Ray (fewer than ray_min_cpus CPUs), "
        "convert in this many worker processes of a plain process pool, which start in a second and copy only "
        "rows: 0 means one per CPU, 1 means in this process.",
    )
    batch_size: int = Field(
        256,
        ge=1,
        description="Documents per batch; one shard file is written per batch (small batches cost Ray overhead).",
    )
    load_group_quads: int = Field(
        50_000_000,
        ge=1,
        description="Quads per bulk-load pass: shard files are loaded together up to this size. Fewer passes "
        "are faster (a pass into a store that already holds quads costs more: 15.5M quads took 88 s in one "
        "pass, 123 s in nine); the loader's memory stays about 2 GB however large the pass. Progress is "
        "saved after each pass, so a killed run loads at most one pass again.",
    )
    rules_path: Path | None = Field(None, description="A rules YAML file replacing the built-in derivation rules.")
    progress: bool = Field(True, description="Show progress bars on long steps.")
    store: StoreConfig = Field(default_factory=StoreConfig, description="The SPARQL store the SKG is written to.")
    tkg: TkgConfig = Field(default_factory=TkgConfig, description="The Textual KG build.")
    patterns: bool = Field(
        True, description="Build the graph pattern index that grounds question constraints on the SKG."
    )
    models: ModelsConfig = Field(default_factory=ModelsConfig, description="Embedder and (optional) LLM.")
    cache_dir: Path | None = Field(
        None, description="Model response cache; default INDEX/cache, so re-indexing unchanged text costs nothing."
    )
    limits: ReadLimits = Field(
        default_factory=ReadLimits,
        description="Size limits while reading the dataset (per file, per value, per rawspecs file); "
        "what goes over a limit is quarantined with the limit named.",
    )

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides) -> IndexConfig:
        """Defaults, then the YAML file (if any), then the non-None overrides."""
        data: dict = {}
        if path is not None:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
            data.update(loaded.get("index", loaded))
        # Flat CLI overrides ("store_query_url", "tkg_extractor", "llm_model") land in their section.
        sections = {
            "store_": ("store",),
            "tkg_": ("tkg",),
            "llm_": ("models", "llm"),
            "embedder_": ("models", "embedder"),
        }
        for key, value in overrides.items():
            if value is None:
                continue
            for prefix, keys in sections.items():
                if key.startswith(prefix):
                    node = data
                    for part in keys:
                        if node.get(part) is None:
                            node[part] = {}
                        node = node[part]
                    node[key.removeprefix(prefix)] = value
                    break
            else:
                data[key] = value
        config = cls(**data)
        return config.model_copy(update={"store": config.store.with_password_from_env()})
