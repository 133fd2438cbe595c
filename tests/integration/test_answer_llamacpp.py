"""The answering engine with the REAL SmolLM2-135M-Instruct on llama.cpp's server (127.0.0.1).

Structure only, never answer quality (a 135M model rarely answers well): with an LLM
configured, the ``skg`` (LLM-written SPARQL), ``router`` (LLM router) and ``agentic`` (LLM
tool loop) strategies answer two questions on the fixture index without crashing, every
record is valid, tokens are counted, the route is recorded and the agent's steps stay
within ``max_steps``. Kept short: SmolLM2 runs on CPU, so the LLM answer writer (most of
the cost: long context prompts) is off here; its logic is covered with a scripted LLM in
``test_answer_llm_loops.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

for _d in (Path(__file__).parent, Path(__file__).resolve().parents[1] / "fixtures" / "answer"):
    if str(_d) not in sys.path:
        sys.path.insert(0, str(_d))
from answer_support import all_models, catalog_index  # noqa: E402
from llamacpp import MODEL_NAME, missing_runtime  # noqa: E402

from dualgraph.answer.engine import AskConfig, QAEngine  # noqa: E402
from dualgraph.answer.record import AnswerRecord  # noqa: E402
from dualgraph.models.factory import LLMConfig  # noqa: E402

pytestmark = [pytest.mark.network, pytest.mark.skipif(missing_runtime() is not None, reason=str(missing_runtime()))]

QUESTIONS = [("a", "Which phones have 5G?"), ("b", "How many phones cost under 15000 INR?")]
MAX_STEPS = 2


def test_llm_strategies_give_valid_records_with_tokens(llamacpp, tmp_path_factory):
    config = AskConfig(
        llm=LLMConfig(base_url=llamacpp.base_url, model=MODEL_NAME, max_retries=1, timeout_s=120),
        llm_candidates=1,
        max_steps=MAX_STEPS,
        max_agent_tokens=3000,
        llm_writer=False,
    )
    with QAEngine.open(catalog_index(tmp_path_factory), config) as engine:
        assert engine.writer is None and engine.kit.symbolic.generator is not None
        for strategy in ("skg", "router", "agentic"):
            records = engine.answer_batch(QUESTIONS, strategy=strategy)
            assert [r.id for r in records] == ["a", "b"], strategy
            for r, (_, q) in zip(records, QUESTIONS):
                r = AnswerRecord.model_validate_json(r.to_json_line())
                assert (r.question, r.strategy) == (q, strategy)
                trace = r.evidence.trace
                # every LLM call is paid for, or its failure is on record (the test server's context
                # is 2048 tokens, and a long SPARQL prompt is refused: the compiler's draft answers)
                failed = [t for t in trace if "error=llm" in t or "llm failed" in t or "invalid action" in t]
                assert r.tokens.total > 0 or failed, (strategy, trace)
                assert r.latency_s > 0
                assert r.route and set(r.route) <= {"skg", "tkg", "llm"} and r.route == r.evidence.sources
                assert r.error is None or r.answer == ""
                assert r.answer_list is None or isinstance(r.answer_list, list)
                if strategy == "skg":
                    assert r.route == ["skg"] and any("llm sparql, 1 candidates" in t for t in trace)
                if strategy == "router":
                    assert any(t.startswith("router → ") for t in trace)
                if strategy == "agentic":
                    agent_steps = [int(m.group(1)) for t in trace if (m := re.match(r"agent step (\d+):", t))]
                    assert agent_steps and max(agent_steps) <= MAX_STEPS
                    assert len(r.route) <= MAX_STEPS + 2  # tool calls, then at most the plan's two retrievals
                    assert set(r.answer_list or []) <= all_models()  # the self-check keeps only observed names
            assert sum(r.tokens.prompt for r in records) > 0 and sum(r.tokens.completion for r in records) > 0, strategy
        usage = engine.meter.stages
        for stage in ("sparql_generation", "router", "agent"):
            assert usage[stage].prompt_tokens > 0, stage
