"""LLM steps as Ray Data stages: a vLLM engine on the workers, or any OpenAI-compatible server.

Every LLM step of the package (entity extraction, description summaries, SPARQL generation)
speaks :class:`~dualgraph.models.base.ChatRequest` and :class:`~dualgraph.models.base.ChatResult`.
This package turns a batch of those requests into a Ray Data dataset, runs it through a
``ray.data.llm`` processor chosen by :class:`LLMBatchConfig` (``backend="vllm"``: engine actors
with guided JSON decoding and prefix caching; ``backend="http"``: the same rows as requests to a
server), and reads the rows back as results, in order, with none dropped. Nothing here imports
``vllm``: Ray loads it inside the engine actors, only when that backend is used.
"""

from dualgraph.llm_batch.config import EngineOptions, LLMBatchConfig

__all__ = ["EngineOptions", "LLMBatchConfig"]
