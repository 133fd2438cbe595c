"""Build the ``ray.data.llm`` processor of a :class:`LLMBatchConfig`, and run datasets of chat
requests through it with the row count checked."""

from __future__ import annotations

import functools
import os
from typing import Any

from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.llm_batch.rows import (
    REQUEST_COLUMNS,
    RESULT_COLUMNS,
    http_input,
    http_output,
    result_row,
    vllm_input,
    vllm_output,
)
from dualgraph.models.openai_chat import chat_url

__all__ = ["DroppedRowsError", "build_chat_processor", "engine_runtime_env", "run_chat"]


class DroppedRowsError(RuntimeError):
    """The stage returned fewer (or other) rows than it was given."""


def engine_runtime_env(config: LLMBatchConfig) -> dict[str, Any] | None:
    """The environment of the vLLM engine actors: on a CPU, the KV cache size, and the model run in
    the engine core's process.

    >>> engine_runtime_env(LLMBatchConfig(backend="vllm", model="m"))["env_vars"]["VLLM_ENABLE_V1_MULTIPROCESSING"]
    '0'
    >>> engine_runtime_env(LLMBatchConfig(backend="vllm", model="m", accelerator_type="H100")) is None
    True
    """
    if config.on_gpu:
        return None
    # The model runs in the engine core's process: vLLM's CPU platform swaps the "uni" executor
    # (EngineOptions) for "mp", a worker process of its own that imports torch and vLLM again,
    # unless VLLM_ENABLE_V1_MULTIPROCESSING is 0. The engine core itself is still a child of the
    # actor: the stage drives vLLM's AsyncLLM, which always starts one.
    return {
        "env_vars": {
            "VLLM_CPU_KVCACHE_SPACE": str(config.engine.cpu_kv_cache_gib),
            "VLLM_ENABLE_V1_MULTIPROCESSING": "0",
        }
    }


def build_chat_processor(config: LLMBatchConfig) -> Any:
    """The processor (a callable from dataset to dataset) for this backend."""
    from ray.data.llm import HttpRequestProcessorConfig, build_processor, vLLMEngineProcessorConfig

    if config.backend == "vllm":
        light = {"num_cpus": config.helper_cpus}
        proc_config = vLLMEngineProcessorConfig(
            model_source=config.model,
            engine_kwargs=config.engine.engine_kwargs(on_gpu=config.on_gpu),
            batch_size=config.batch_size,
            concurrency=config.concurrency,
            accelerator_type=config.accelerator_type,
            placement_group_config={"bundles": config.placement_bundles()},
            runtime_env=engine_runtime_env(config),
            should_continue_on_error=config.continue_on_error,
            chat_template_stage=dict(light),
            # on a GPU, tokenizing in actors of their own keeps the engine busy; on CPU the engine's
            # process tokenizes and detokenizes at no extra cost, and each actor would import
            # transformers anew (two processes, ~10 CPU-s, per pass)
            tokenize_stage=dict(light) if config.on_gpu else False,
            detokenize_stage=dict(light) if config.on_gpu else False,
        )
        return build_processor(
            proc_config,
            preprocess=functools.partial(vllm_input, guided_json=config.guided_json),
            postprocess=vllm_output,
            preprocess_map_kwargs=dict(light),
            postprocess_map_kwargs=dict(light),
        )
    headers = {}
    if config.api_key_env:
        key = os.environ.get(config.api_key_env)
        if not key:
            raise ValueError(f"api_key_env names {config.api_key_env}, which is not set in the environment")
        headers["Authorization"] = f"Bearer {key}"
    assert config.url is not None  # the config checks it
    http_config = HttpRequestProcessorConfig(
        url=chat_url(config.url),
        headers=headers or None,
        qps=config.qps,
        max_retries=config.max_retries,
        batch_size=config.batch_size,
        concurrency=config.concurrency,
    )
    light = {"num_cpus": config.helper_cpus}
    return build_processor(
        http_config,
        preprocess=functools.partial(http_input, model=config.model, guided_json=config.guided_json),
        postprocess=http_output,
        preprocess_map_kwargs=dict(light),
        postprocess_map_kwargs=dict(light),
    )


def run_chat(dataset: Any, config: LLMBatchConfig, *, processor: Any = None) -> Any:
    """The dataset of :data:`~dualgraph.llm_batch.rows.RESULT_COLUMNS` rows for a dataset of
    :data:`~dualgraph.llm_batch.rows.REQUEST_COLUMNS` rows (lazy: nothing runs until read).

    The count check is :func:`checked_rows`, on the materialised result."""
    missing = set(REQUEST_COLUMNS) - set(dataset.schema().names)
    if missing:
        raise ValueError(f"a chat request dataset needs the columns {sorted(missing)}")
    processor = processor or build_chat_processor(config)
    return processor(dataset).map(result_row, num_cpus=config.helper_cpus)


def checked_rows(rows: list[dict[str, Any]], expected: int) -> list[dict[str, Any]]:
    """``rows`` sorted by ``row_key``, after checking each of ``0..expected-1`` came back once."""
    keys = sorted(int(r["row_key"]) for r in rows)
    if keys != list(range(expected)):
        seen = set(keys)
        lost = [k for k in range(expected) if k not in seen][:20]
        raise DroppedRowsError(
            f"the LLM stage returned {len(rows)} rows for {expected} requests (missing row keys {lost})"
        )
    for column in RESULT_COLUMNS:
        if rows and column not in rows[0]:
            raise DroppedRowsError(f"the LLM stage's rows lack the column {column!r}")
    return sorted(rows, key=lambda r: int(r["row_key"]))
