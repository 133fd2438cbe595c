"""The batch LLM stage's row forms and config, without Ray or a model."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.llm_batch.processor import DroppedRowsError, checked_rows
from dualgraph.llm_batch.rows import (
    ERROR_KEY,
    RESULT_COLUMNS,
    chat_result,
    http_input,
    http_output,
    request_rows,
    result_row,
    vllm_input,
    vllm_output,
)
from dualgraph.models.base import ChatRequest

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": False}


def _row(**extra) -> dict:
    (row,) = request_rows([ChatRequest(({"role": "user", "content": "count"},), schema=SCHEMA, max_tokens=16)])
    return {**row, **extra}


def test_the_schema_travels_as_text_and_reaches_vllm_unchanged() -> None:
    row = _row(chunk_id="c1")
    sent = vllm_input(row, guided_json=True)
    assert json.loads(sent["sampling_params"]["structured_outputs"]["json"]) == SCHEMA
    assert sent["messages"] == [{"role": "user", "content": "count"}]
    assert "structured_outputs" not in vllm_input(row, guided_json=False)["sampling_params"]


def test_callers_columns_ride_through_both_backends() -> None:
    row = _row(chunk_id="c1", doc_id="d1")
    engine_out = {**vllm_input(row, guided_json=True), "generated_text": '{"n": 3}', "num_input_tokens": 9}
    engine_out["num_generated_tokens"] = 4
    out = result_row(vllm_output(engine_out))
    assert (out["chunk_id"], out["doc_id"], out["parsed_json"], out["error"]) == ("c1", "d1", '{"n": 3}', "")
    body = http_input(row, model="m", guided_json=True)
    assert body["payload"]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    answer = {"choices": [{"message": {"content": '{"n": 1}'}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 5}}
    out = result_row(http_output({**body, "http_response": answer}))
    assert (out["chunk_id"], out["prompt_tokens"], out["completion_tokens"]) == ("c1", 5, 0)
    assert set(RESULT_COLUMNS) <= set(out)


def test_an_engine_error_row_keeps_its_reason_and_columns() -> None:
    # ray.data.llm hands failed rows back without running the postprocess
    failed = {**vllm_input(_row(chunk_id="c9"), guided_json=True), ERROR_KEY: "ValueError: prompt too long"}
    out = result_row(failed)
    assert (out["chunk_id"], out["error"], out["text"]) == ("c9", "ValueError: prompt too long", "")
    assert chat_result(out).error == "ValueError: prompt too long"


@pytest.mark.parametrize(
    ("text", "generated", "problem"),
    [
        ('{"n": "three"}', 4, "is not of type"),
        ("no json", 2, "not JSON"),
        ('{"n": 1', 16, "cut off"),  # reached max_tokens
    ],
)
def test_answers_that_do_not_follow_the_schema_are_errors(text: str, generated: int, problem: str) -> None:
    engine_out = {**vllm_input(_row(), guided_json=True), "generated_text": text, "num_generated_tokens": generated}
    out = result_row(vllm_output(engine_out))
    assert problem in out["error"] and out["parsed_json"] == ""


def test_a_malformed_http_response_is_an_error_not_a_crash() -> None:
    out = result_row(http_output({**http_input(_row(), model="m", guided_json=True), "http_response": {"oops": 1}}))
    assert out["error"].startswith("malformed response")


def test_lost_rows_are_reported() -> None:
    rows = [{**dict.fromkeys(RESULT_COLUMNS, ""), "row_key": k} for k in (2, 0)]
    with pytest.raises(DroppedRowsError, match=r"missing row keys \[1\]"):
        checked_rows(rows, 3)
    assert [r["row_key"] for r in checked_rows([*rows, {**rows[0], "row_key": 1}], 3)] == [0, 1, 2]


def test_config_checks_the_backend_and_reserves_resources() -> None:
    with pytest.raises(ValidationError, match="needs url"):
        LLMBatchConfig(backend="http", model="m")
    with pytest.raises(ValidationError):
        LLMBatchConfig(backend="vllm", model="m", engine={"tensor_parallel_size": 0})
    gpu = LLMBatchConfig(backend="vllm", model="m", accelerator_type="H200", engine={"pipeline_parallel_size": 2})
    assert gpu.placement_bundles() == [{"GPU": 1}, {"GPU": 1}]
    kwargs = gpu.engine.engine_kwargs(on_gpu=True)
    assert kwargs["enable_prefix_caching"] and kwargs["gpu_memory_utilization"] == 0.9
    cpu = LLMBatchConfig(backend="vllm", model="m").engine.engine_kwargs(on_gpu=False)
    assert "gpu_memory_utilization" not in cpu
    # one CPU worker runs in the engine's own process; GPUs and sharded engines keep vLLM's executor
    assert cpu["distributed_executor_backend"] == "uni" and "distributed_executor_backend" not in kwargs
    sharded = LLMBatchConfig(backend="vllm", model="m", engine={"tensor_parallel_size": 2})
    assert "distributed_executor_backend" not in sharded.engine.engine_kwargs(on_gpu=False)
    assert all(f.description for f in LLMBatchConfig.model_fields.values())


def test_the_index_summarises_through_the_batch_stage_when_it_has_no_http_llm(tmp_path) -> None:
    from dualgraph.config import IndexConfig
    from dualgraph.llm_batch.llm import RayDataLLM
    from dualgraph.models.base import TokenMeter
    from dualgraph.models.cache import CachedLLM
    from dualgraph.models.factory import EmbedderConfig, ModelsConfig
    from dualgraph.pipeline.index import _LazyModels

    batch = LLMBatchConfig(backend="vllm", model="/models/m")
    models = ModelsConfig(embedder=EmbedderConfig(kind="static"), llm_batch=batch, cache_dir=tmp_path)
    lazy = _LazyModels(IndexConfig(models=models), TokenMeter())
    llm = lazy.llm
    assert isinstance(llm, CachedLLM) and isinstance(llm.inner, RayDataLLM) and llm.inner.config == batch
    assert lazy.llm is llm  # built once
    assert _LazyModels(IndexConfig(models=models.model_copy(update={"llm_batch": None})), TokenMeter()).llm is None
