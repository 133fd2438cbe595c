"""The two model protocols every backend implements, and the records they exchange.

Both take batches: a pipeline stage hands over all the texts of a batch at once, so a
backend can pack them for its hardware (a GPU engine, an HTTP server with
concurrency). Every call is metered by stage (:class:`TokenMeter`), and backends are
wrapped by a response cache so re-indexing unchanged text costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One chat completion to make.

    ``schema``: a JSON schema the answer must follow (constrained decoding where the
    server supports it, JSON repair + validation otherwise); None for free text.
    ``prompt_version``: part of the cache key, bumped whenever the prompt changes.
    """

    messages: tuple[dict[str, str], ...]
    schema: dict[str, Any] | None = None
    max_tokens: int = 512
    temperature: float = 0.0
    prompt_version: str = "v1"
    stage: str = "default"


@dataclass(slots=True)
class ChatResult:
    """The answer to one :class:`ChatRequest`; ``parsed`` holds the JSON when a schema was given."""

    text: str
    parsed: Any = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    cached: bool = False
    error: str | None = None
    attempts: int = 1


@runtime_checkable
class LLM(Protocol):
    """A chat model. ``complete`` answers every request, in order; a failed one carries ``error``."""

    name: str

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]: ...


@runtime_checkable
class Embedder(Protocol):
    """A text embedder. ``embed`` returns one L2-normalised float32 row per text, in order."""

    name: str
    dim: int

    def embed(self, texts: list[str], *, stage: str = "default") -> np.ndarray: ...


@dataclass
class StageUsage:
    calls: int = 0
    items: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


@dataclass
class TokenMeter:
    """Usage per stage (calls, items, cache hits, prompt/completion tokens, time)."""

    stages: dict[str, StageUsage] = field(default_factory=dict)

    def record(
        self,
        stage: str,
        *,
        calls: int = 0,
        items: int = 0,
        cache_hits: int = 0,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        seconds: float = 0.0,
    ) -> None:
        u = self.stages.setdefault(stage, StageUsage())
        u.calls += calls
        u.items += items
        u.cache_hits += cache_hits
        u.prompt_tokens += prompt_tokens
        u.completion_tokens += completion_tokens
        u.seconds += seconds

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {
            k: {f: round(getattr(v, f), 3) if f == "seconds" else getattr(v, f) for f in v.__dataclass_fields__}
            for k, v in sorted(self.stages.items())
        }
