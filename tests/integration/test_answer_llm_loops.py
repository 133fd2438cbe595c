"""The logic around an LLM, on the real fixture index, driven by a SCRIPTED FAKE LLM.

The LLM here is :class:`answer_support.ScriptedLLM`, a fake that replays a script: it
is used only to test our loop logic (the agent's step and token bounds, invalid JSON,
the self-check revision, the fallback to the deterministic plan, the LLM router's fallback
and the writer's product choice), never answer quality. The sources the agent calls are
the real ones (compiler and Textual KG on the index); expected names come from the CSV.
The real model is exercised in ``test_answer_llamacpp.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import ScriptedLLM, as_int, models_where, reply, shared_engine

from dualgraph.answer.agent_llm import ACTION_SCHEMA, AGENT_PROMPT_VERSION, LLMAgent
from dualgraph.answer.agentic import Planner
from dualgraph.answer.engine import AskConfig, QAEngine
from dualgraph.answer.record import AnswerRecord
from dualgraph.answer.router import ExampleRouter, LLMRouter
from dualgraph.answer.strategies import Toolkit
from dualgraph.answer.writer import LLMWriter

LIST_Q = "Which phones have a 7000 mAh battery?"
COUNT_Q = "How many phones cost under 15000 INR?"
OPEN_Q = "What do the product pages say about the design?"
GOLD = sorted(models_where(lambda r: as_int(r["battery_mah"]) == 7000))
GOLD_COUNT = len(models_where(lambda r: int(r["price_inr"]) < 15000))
FAKE = "Imaginary Z1 (1GB RAM + 1GB)"


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QAEngine:
    return shared_engine(tmp_path_factory)


def agent_engine(engine: QAEngine, llm: ScriptedLLM, **agent_kw) -> QAEngine:
    """The shared engine's real sources, with an LLM agent on the scripted LLM (the planner as its fallback)."""
    kit = engine.kit
    agent = LLMAgent(llm, fallback=Planner(), **agent_kw)
    return QAEngine(Toolkit(kit.symbolic, kit.textual, kit.router, agent), config=AskConfig(strategy="agentic"))


def question_of(request) -> str:
    return request.messages[1]["content"].removeprefix("Question: ")


def valid(record: AnswerRecord) -> AnswerRecord:
    return AnswerRecord.model_validate_json(record.to_json_line())


# -- 8. the LLM agent -----------------------------------------------------------------------


def test_agent_stops_at_max_steps_and_the_plan_answers(engine):
    llm = ScriptedLLM(
        lambda req, call, i: reply({"action": "skg", "input": question_of(req)}, prompt=100, completion=10)
    )
    r = valid(agent_engine(engine, llm, max_steps=3).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 3 and all(len(c) == 1 for c in llm.calls)
    trace = r.evidence.trace
    assert [t for t in trace if t.startswith("agent step")] == [f"agent step {i}: skg({LIST_Q!r})" for i in (1, 2, 3)]
    assert "agent ended without an accepted answer: the deterministic plan answers" in trace
    assert r.route == ["skg", "skg", "skg", "skg"]  # three tool calls, then the plan's own step
    assert (r.tokens.prompt, r.tokens.completion) == (300, 30)
    assert sorted(r.answer_list) == GOLD and r.error is None
    # every step sees the observations of the steps before it
    assert [sum(m["content"].startswith("Observation:") for m in c[0].messages) for c in llm.calls] == [0, 1, 2]
    req = llm.calls[0][0]
    assert req.schema == ACTION_SCHEMA and req.prompt_version == AGENT_PROMPT_VERSION and req.stage == "agent"


def test_agent_stops_when_the_token_budget_is_spent(engine):
    llm = ScriptedLLM(lambda req, call, i: reply({"action": "tkg", "input": "S Pen"}, prompt=300, completion=50))
    r = valid(agent_engine(engine, llm, max_steps=10, max_tokens=500).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 2  # 350 after one step, 700 >= 500 after two
    assert "agent: token budget 500 spent" in r.evidence.trace
    assert r.tokens.total == 700
    assert r.route[:2] == ["tkg", "tkg"] and r.error is None


def test_agent_survives_invalid_json_and_answers(engine):
    def respond(req, call, i):
        if call == 1:
            return reply(error="invalid JSON: Expecting value (column 1)", text="{oops", prompt=20, completion=5)
        if call == 2:
            return reply({"action": "skg", "input": LIST_Q}, prompt=30, completion=6)
        return reply(
            {"action": "answer", "answer": "Three phones.", "answer_list": GOLD, "value": None}, prompt=40, completion=7
        )

    llm = ScriptedLLM(respond)
    r = valid(agent_engine(engine, llm, max_steps=4).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 3
    assert "agent step 1: invalid action (invalid JSON: Expecting value (column 1))" in r.evidence.trace
    assert llm.calls[1][0].messages[-1] == {"role": "user", "content": "Reply with one JSON action as described."}
    assert r.answer == "Three phones." and r.answer_list == GOLD and r.route == ["skg"]
    assert (r.tokens.prompt, r.tokens.completion) == (90, 18)
    assert r.evidence.sparql  # the query the answer rests on
    assert "agent step 3: answer with 3 products" in r.evidence.trace


def test_agent_self_check_asks_once_then_drops_unknown_names(engine):
    def respond(req, call, i):
        if call == 1:
            return reply({"action": "skg", "input": LIST_Q}, prompt=10, completion=1)
        names = [GOLD[0], FAKE] + ([GOLD[1]] if call == 3 else [])
        return reply({"action": "answer", "answer": "Here.", "answer_list": names}, prompt=10, completion=1)

    llm = ScriptedLLM(respond)
    r = valid(agent_engine(engine, llm, max_steps=5).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 3
    trace = r.evidence.trace
    assert "agent step 2: self-check: 1 names not in any observation; asked to revise" in trace
    assert "agent step 3: self-check dropped 1 unknown names" in trace
    revise = llm.calls[2][0].messages[-1]["content"]
    assert revise.startswith("These names appear in no tool result: ") and json.dumps([FAKE]) in revise
    assert r.answer_list == [GOLD[0], GOLD[1]] and r.tokens.total == 33


def test_agent_answering_without_any_tool_has_every_name_dropped(engine):
    llm = ScriptedLLM(lambda req, call, i: reply({"action": "answer", "answer": "x", "answer_list": [GOLD[0]]}))
    r = valid(agent_engine(engine, llm, max_steps=4).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 2  # asked once to revise, then the name nobody observed is dropped
    assert r.answer_list == [] and r.route == ["llm"]


def test_a_dead_llm_leaves_the_answer_to_the_plan(engine):
    llm = ScriptedLLM(raises=ConnectionError("connection refused"))
    r = valid(agent_engine(engine, llm, max_steps=4).answer(LIST_Q, strategy="agentic"))
    assert len(llm.calls) == 1
    assert "agent step 1: llm failed (ConnectionError: connection refused)" in r.evidence.trace
    assert "step 1: answer from the specs" in r.evidence.trace
    assert r.route == ["skg"] and sorted(r.answer_list) == GOLD and r.tokens.total == 0 and r.error is None


def test_questions_are_stepped_together_and_finish_independently(engine):
    def respond(req, call, i):
        q = question_of(req)
        if q == LIST_Q:
            return reply(
                {"action": "skg", "input": q}
                if call == 1
                else {"action": "answer", "answer": "Three.", "answer_list": GOLD},
                prompt=5,
                completion=1,
            )
        script = [
            {"action": "tkg", "input": "price"},
            {"action": "skg", "input": q},
            {"action": "answer", "answer": f"{GOLD_COUNT} phones.", "answer_list": [], "value": GOLD_COUNT},
        ]
        return reply(script[call - 1], prompt=7, completion=2)

    llm = ScriptedLLM(respond)
    a, b = agent_engine(engine, llm, max_steps=4).answer_batch([("a", LIST_Q), ("b", COUNT_Q)], strategy="agentic")
    assert [len(c) for c in llm.calls] == [2, 2, 1]  # one batched call per step; a finished at step 2
    assert (a.answer_list, a.route, a.tokens.total) == (GOLD, ["skg"], 12)
    assert (b.value, b.route, b.tokens.total, b.answer) == (GOLD_COUNT, ["tkg", "skg"], 27, f"{GOLD_COUNT} phones.")
    assert b.evidence.chunk_ids and b.evidence.sparql


def test_observations_are_cut_to_max_observation_chars(engine):
    llm = ScriptedLLM(lambda req, call, i: reply({"action": "skg", "input": question_of(req)}))
    agent_engine(engine, llm, max_steps=2, max_observation_chars=120).answer(LIST_Q, strategy="agentic")
    observation = llm.calls[1][0].messages[-1]["content"]
    assert observation.startswith("Observation:\n") and len(observation) == len("Observation:\n") + 120


# -- 4. the LLM router falls back to the example router -------------------------------------


@pytest.mark.parametrize("bad", ["label", "error", "raises"])
def test_llm_router_falls_back_on_bad_output(engine, bad):
    example = engine.kit.router
    if bad == "raises":
        llm = ScriptedLLM(raises=TimeoutError("read timed out"))
    elif bad == "label":
        llm = ScriptedLLM(lambda req, call, i: reply({"method": "sparql"}, prompt=40, completion=3))
    else:
        llm = ScriptedLLM(
            lambda req, call, i: reply(error="answer does not follow the schema", prompt=40, completion=3)
        )
    questions = [COUNT_Q, OPEN_Q]
    decisions = LLMRouter(llm, example).route(questions)
    want = example.route(questions)
    assert [d.method for d in decisions] == [d.method for d in want] == ["skg", "tkg"]
    assert [d.score for d in decisions] == [d.score for d in want]
    for d in decisions:
        assert d.why[0].startswith("llm router failed (")
        assert d.why[1:] == want[decisions.index(d)].why
        assert (d.prompt_tokens, d.completion_tokens) == ((0, 0) if bad == "raises" else (40, 3))
    detail = {
        "label": 'unexpected router output \'{"method": "sparql"}\'',
        "error": "answer does not follow the schema",
        "raises": "TimeoutError: read timed out",
    }[bad]
    assert decisions[0].why[0] == f"llm router failed ({detail}); example router used"


def test_llm_router_choice_is_used_and_its_tokens_counted(engine):
    def respond(req, call, i):
        return reply({"method": "tkg"}, prompt=50, completion=4)

    llm = ScriptedLLM(respond)
    router = LLMRouter(llm, engine.kit.router)
    kit = engine.kit
    routed = QAEngine(Toolkit(kit.symbolic, kit.textual, router, Planner()), config=AskConfig(strategy="router"))
    r = valid(routed.answer(COUNT_Q, strategy="router"))  # the example router would say skg
    assert r.route == ["tkg"] and r.evidence.chunk_ids
    assert (r.tokens.prompt, r.tokens.completion) == (50, 4)
    assert any(t.startswith("router → tkg") and "llm router" in t for t in r.evidence.trace)
    req = llm.requests[0]
    assert req.schema["properties"]["method"] == {"enum": ["skg", "tkg"]} and req.stage == "router"
    assert req.messages[-1]["content"].endswith(f"Q: {COUNT_Q}\nA:")


def test_llm_router_does_not_change_the_example_router(engine):
    example = engine.kit.router
    vectors, labels = example._vectors.copy(), example._labels.copy()
    LLMRouter(ScriptedLLM(raises=RuntimeError("down")), example).route([COUNT_Q, OPEN_Q] * 5)
    assert (example._vectors == vectors).all() and (example._labels == labels).all()
    assert isinstance(example, ExampleRouter)


# -- the LLM writer through the engine ------------------------------------------------------


def writer_engine(engine: QAEngine, llm: ScriptedLLM, strategy: str) -> QAEngine:
    return QAEngine(engine.kit, config=AskConfig(strategy=strategy), writer=LLMWriter(llm))


def test_writer_picks_only_products_the_text_named(engine):
    def respond(req, call, i):
        allowed = req.schema["properties"]["answer_list"]["items"]["enum"]
        return reply(
            {"answer": "Written by the model.", "answer_list": [allowed[0], FAKE, allowed[0]]}, prompt=60, completion=9
        )

    llm = ScriptedLLM(respond)
    r = valid(writer_engine(engine, llm, "tkg").answer(LIST_Q, strategy="tkg"))
    allowed = llm.requests[0].schema["properties"]["answer_list"]["items"]["enum"]
    assert r.answer == "Written by the model."
    assert r.answer_list == [allowed[0]]  # the invented name and the repeat are gone
    assert (r.tokens.prompt, r.tokens.completion) == (60, 9)
    assert "llm chose 1 products from the text's candidates" in r.evidence.trace


def test_writer_failure_keeps_the_template_and_the_structure(engine):
    llm = ScriptedLLM(lambda req, call, i: reply(error="HTTP 500", prompt=0, completion=0))
    r = valid(writer_engine(engine, llm, "skg").answer(LIST_Q, strategy="skg"))
    assert r.answer.startswith(f"{len(GOLD)} products match:") and sorted(r.answer_list) == GOLD
    assert "llm writer failed (HTTP 500); template text kept" in r.evidence.trace
    assert "answer_list" not in llm.requests[0].schema["properties"]  # spec answers: text only


def test_writer_does_not_rewrite_the_agents_own_answer(engine):
    def respond(req, call, i):
        if req.stage == "answer":
            raise AssertionError("the writer must not be asked for an agent's answer")
        return reply(
            {"action": "skg", "input": LIST_Q}
            if call == 1
            else {"action": "answer", "answer": "Agent text.", "answer_list": GOLD}
        )

    llm = ScriptedLLM(respond)
    kit = engine.kit
    e = QAEngine(
        Toolkit(kit.symbolic, kit.textual, kit.router, LLMAgent(llm, fallback=Planner())),
        config=AskConfig(strategy="agentic"),
        writer=LLMWriter(llm),
    )
    assert e.answer(LIST_Q, strategy="agentic").answer == "Agent text."
