"""The batch LLM stage behind the :class:`~dualgraph.models.base.LLM` protocol, so every LLM
step of the package (extraction, summaries, SPARQL generation) runs on it unchanged."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from dualgraph.llm_batch.config import LLMBatchConfig
from dualgraph.llm_batch.processor import build_chat_processor, checked_rows, run_chat
from dualgraph.llm_batch.rows import chat_result, request_rows
from dualgraph.models.base import ChatRequest, ChatResult, TokenMeter
from dualgraph.models.openai_chat import REPAIR_PROMPT


class RayDataLLM:
    """An LLM whose ``complete`` runs one Ray Data pass over the whole batch of requests.

    Pass the whole corpus at once (every chunk to extract, every entity to summarise, every
    question): the engine actors start once per pass (tens of seconds for vLLM), then stream
    the rows. An answer that fails its schema is asked again, with the error appended, in up
    to ``repair_rounds`` further passes over the failed rows only. ``results[i].attempts`` says
    how many passes request ``i`` took; a request that never got a usable answer carries
    ``error`` and stays in place (the caller quarantines it), so none is dropped.
    """

    def __init__(self, config: LLMBatchConfig, *, meter: TokenMeter | None = None, repair_rounds: int = 1) -> None:
        self.config = config
        self.name = config.model
        self.meter = meter
        self.repair_rounds = max(0, repair_rounds)
        self._processor: Any = None

    def __repr__(self) -> str:
        return f"RayDataLLM(backend={self.config.backend!r}, model={self.name!r})"

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        if not requests:
            return []
        t0 = time.perf_counter()
        results = self._pass(requests)
        for r in results:
            r.attempts = 1
        pending = [i for i, r in enumerate(results) if self._repairable(requests[i], r)]
        conversations = {i: list(requests[i].messages) for i in pending}
        for _ in range(self.repair_rounds):
            if not pending:
                break
            retry = []
            for i in pending:
                conversations[i] += [
                    {"role": "assistant", "content": results[i].text[:4000]},
                    {"role": "user", "content": REPAIR_PROMPT.format(error=results[i].error)},
                ]
                retry.append(dataclasses.replace(requests[i], messages=tuple(conversations[i])))
            again = self._pass(retry)
            for i, fresh in zip(pending, again, strict=True):
                fresh.attempts = results[i].attempts + 1
                fresh.prompt_tokens += results[i].prompt_tokens
                fresh.completion_tokens += results[i].completion_tokens
                results[i] = fresh
            pending = [i for i in pending if self._repairable(requests[i], results[i])]
        self._meter(requests, results, time.perf_counter() - t0)
        return results

    def _pass(self, requests: Sequence[ChatRequest]) -> list[ChatResult]:
        import ray.data

        if self._processor is None:
            self._processor = build_chat_processor(self.config)
        rows = request_rows(requests)
        dataset = ray.data.from_items(rows)
        out = run_chat(dataset, self.config, processor=self._processor).take_all()
        return [chat_result(r) for r in checked_rows(out, len(rows))]

    @staticmethod
    def _repairable(request: ChatRequest, result: ChatResult) -> bool:
        # only a schema or parse failure is worth asking again; an engine or HTTP error is not
        return request.schema is not None and result.error is not None and result.text != ""

    def _meter(self, requests: Sequence[ChatRequest], results: Sequence[ChatResult], seconds: float) -> None:
        if self.meter is None:
            return
        share = seconds / len(requests)
        for request, result in zip(requests, results, strict=True):
            self.meter.record(
                request.stage,
                calls=result.attempts,
                items=1,
                prompt_tokens=result.prompt_tokens,
                completion_tokens=result.completion_tokens,
                seconds=share,
            )
