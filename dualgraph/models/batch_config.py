"""The typed configuration of a batch LLM stage (one config, either backend).

It lives with the models because :class:`~dualgraph.models.factory.ModelsConfig` holds one:
the stage that runs it (:mod:`dualgraph.llm_batch`) builds on the models, not the other way.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class EngineOptions(BaseModel):
    """What the vLLM engine on each actor is started with (``engine_kwargs``)."""

    model_config = ConfigDict(extra="forbid")

    tensor_parallel_size: int = Field(1, ge=1, description="GPUs one engine shards each layer over.")
    pipeline_parallel_size: int = Field(1, ge=1, description="GPUs one engine splits its layers across.")
    max_model_len: int = Field(2048, ge=128, description="Longest prompt + answer, in tokens, the engine accepts.")
    max_num_batched_tokens: int | None = Field(
        None, ge=128, description="Tokens the scheduler packs into one step; None: vLLM's default for the device."
    )
    enable_prefix_caching: bool = Field(
        True,
        description="Reuse the KV cache of a shared prompt prefix (every extraction request starts with the same "
        "instructions, so only the chunk is computed per row).",
    )
    dtype: str = Field("auto", description="Weight dtype (auto, bfloat16, float16, float32).")
    enforce_eager: bool = Field(
        False, description="Skip CUDA-graph / compile capture: slower steps, faster start (tests, CPU)."
    )
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1, description="Share of each GPU's memory the engine takes.")
    cpu_kv_cache_gib: int = Field(
        2, ge=1, description="KV cache size on a CPU engine, GiB (VLLM_CPU_KVCACHE_SPACE); ignored on GPUs."
    )
    extra: dict[str, Any] = Field(
        default_factory=dict, description="Further vLLM engine arguments, passed as they are (they win over the above)."
    )

    def engine_kwargs(self, *, on_gpu: bool) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "tensor_parallel_size": self.tensor_parallel_size,
            "pipeline_parallel_size": self.pipeline_parallel_size,
            "max_model_len": self.max_model_len,
            "enable_prefix_caching": self.enable_prefix_caching,
            "dtype": self.dtype,
            "enforce_eager": self.enforce_eager,
        }
        if self.max_num_batched_tokens is not None:
            kwargs["max_num_batched_tokens"] = self.max_num_batched_tokens
        if on_gpu:
            kwargs["gpu_memory_utilization"] = self.gpu_memory_utilization
        elif self.tensor_parallel_size * self.pipeline_parallel_size == 1:
            # one CPU worker: vLLM would start it in a process of its own, importing torch and vLLM
            # again (~8 s on two cores) for nothing to talk to; "uni" runs it in the engine's process
            kwargs["distributed_executor_backend"] = "uni"
        return {**kwargs, **self.extra}


class LLMBatchConfig(BaseModel):
    """One batch LLM stage: the backend, its model or server, and how rows are batched over workers.

    >>> LLMBatchConfig(backend="vllm", model="/models/smollm2").placement_bundles()
    [{'CPU': 1}]
    >>> LLMBatchConfig(backend="vllm", model="m", accelerator_type="H100", engine={"tensor_parallel_size": 2}).placement_bundles()
    [{'GPU': 1}, {'GPU': 1}]
    """

    model_config = ConfigDict(extra="forbid")

    backend: Literal["vllm", "http"] = Field(
        ..., description="vllm: engine actors inside Ray Data; http: requests to an OpenAI-compatible server."
    )
    model: str = Field(
        ...,
        description="vllm: a model folder or hub id every worker can read; http: the model name sent to the server.",
    )
    url: str | None = Field(
        None, description="http only: the server's base URL (with or without /v1) or its chat completions URL."
    )
    api_key_env: str | None = Field(
        None, description="http only: the environment variable holding the bearer token (never the token itself)."
    )
    batch_size: int = Field(16, ge=1, description="Rows handed to one engine (or HTTP worker) call.")
    concurrency: int = Field(1, ge=1, description="Engine replicas (vllm) or parallel HTTP workers (http).")
    accelerator_type: str | None = Field(
        None, description="vllm: the GPU type to schedule engines on (e.g. H100); None runs the engine on CPUs."
    )
    cpus_per_engine: int = Field(1, ge=1, description="vllm on CPUs: CPUs reserved per engine replica.")
    helper_cpus: float = Field(
        0.25,
        gt=0,
        le=8,
        description="CPUs reserved by each light step around the engine (pre/postprocess, chat template, "
        "tokenizer, detokenizer). Ray Data's default of one each, beside a CPU engine, asks a 2-CPU machine "
        "for more than it has, and the stage waits forever.",
    )
    guided_json: bool = Field(
        True, description="Constrain answers to the request's JSON schema (vLLM structured outputs, response_format)."
    )
    max_retries: int = Field(3, ge=0, description="http only: retries of a failed request, with exponential backoff.")
    qps: int | None = Field(None, ge=1, description="http only: requests per second per worker; None: unbounded.")
    continue_on_error: bool = Field(
        True,
        description="vllm: a row the engine fails on comes back with its error (the caller quarantines it) "
        "instead of failing the stage. http: a request the server refuses with a reason (4xx) always comes "
        "back so; a server still failing after max_retries fails the stage (ray.data.llm's HTTP stage).",
    )
    engine: EngineOptions = Field(default_factory=EngineOptions, description="vLLM engine options.")

    @model_validator(mode="after")
    def _backend_needs(self) -> LLMBatchConfig:
        if self.backend == "http" and not self.url:
            raise ValueError("backend 'http' needs url (the OpenAI-compatible server)")
        return self

    @property
    def on_gpu(self) -> bool:
        return self.accelerator_type is not None

    def placement_bundles(self) -> list[dict[str, float]]:
        """Resources one engine replica reserves: a GPU per model shard, or CPUs.

        Without an explicit CPU bundle Ray Data's vLLM stage asks for a GPU and, on a machine
        without one, waits forever instead of failing.
        """
        if self.on_gpu:
            shards = self.engine.tensor_parallel_size * self.engine.pipeline_parallel_size
            return [{"GPU": 1} for _ in range(shards)]
        return [{"CPU": self.cpus_per_engine}]
