"""The LLM judges against the REAL SmolLM2-135M-Instruct on llama.cpp's server.

Structure only, never judgement quality (a 135M model judges poorly and greedy outputs
differ between builds): every question ends either scored with well-formed verdicts or
with an error that says why; pairwise judging asks both orders of every pair; token usage
is reported per judge stage and agrees with what the client metered. Two tiny invented
questions; the bounds are small to fit the test server's 2048-token context.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from llamacpp import MODEL_NAME, missing_runtime

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.inputs import Question
from dualgraph.eval.judge import JudgeConfig, judge_factual, judge_pairwise
from dualgraph.models.base import TokenMeter
from dualgraph.models.openai_chat import OpenAIChatLLM

pytestmark = [pytest.mark.network, pytest.mark.skipif(missing_runtime() is not None, reason=str(missing_runtime()))]

QUESTIONS = {
    "0": Question(
        id="0",
        question="Which phones have NFC?",
        category="Inverse Queries",
        is_list=True,
        gt_answer="The Alpha One and the Beta Two have NFC.",
        gt_answer_list=["Alpha One", "Beta Two"],
    ),
    "1": Question(
        id="1",
        question="Which has the bigger battery, the Alpha One or the Beta Two?",
        category="Group Comparison Queries",
        is_list=False,
        gt_answer="The Beta Two has the bigger battery (5000 mAh vs 4000 mAh).",
        gt_value="Beta Two",
    ),
}
RUN_A = {
    "0": AnswerRecord(
        id="0",
        question="",
        strategy="skg",
        answer="Alpha One and Beta Two have NFC.",
        answer_list=["Alpha One", "Beta Two"],
    ),
    "1": AnswerRecord(id="1", question="", strategy="skg", answer="The Beta Two.", value="Beta Two"),
}
RUN_B = {
    "0": AnswerRecord(
        id="0", question="", strategy="tkg", answer="Only the Gamma Three has NFC.", answer_list=["Gamma Three"]
    ),
    "1": AnswerRecord(id="1", question="", strategy="tkg", answer="The Alpha One has 4000 mAh."),
}
CONFIG = JudgeConfig(
    max_claims=4, max_text_tokens=120, claims_max_tokens=160, verify_max_tokens=80, pairwise_max_tokens=96
)


@pytest.fixture(scope="module")
def judged(llamacpp):
    assert MODEL_NAME == "SmolLM2-135M-Instruct"
    meter = TokenMeter()
    llm = OpenAIChatLLM(llamacpp.base_url, MODEL_NAME, max_retries=1, timeout_s=120, meter=meter)
    try:
        factual = judge_factual(llm, QUESTIONS, RUN_A, label="skg", config=CONFIG)
        pairwise = judge_pairwise(llm, QUESTIONS, RUN_A, RUN_B, label_a="skg", label_b="tkg", config=CONFIG)
    finally:
        llm.close()
    return factual, pairwise, meter


def test_factual_correctness_structure(judged):
    factual, _, meter = judged
    assert [r.id for r in factual.rows] == ["0", "1"]
    for row in factual.rows:
        if row.error is not None:
            assert row.error.strip() and row.f1 is None
            continue
        assert 1 <= len(row.gold_claims) <= CONFIG.max_claims and len(row.answer_claims) <= CONFIG.max_claims
        assert len(row.gold_supported) == len(row.gold_claims)
        assert len(row.answer_supported) == len(row.answer_claims)
        assert all(0.0 <= x <= 1.0 for x in (row.precision, row.recall, row.f1))
    assert factual.summary.n + factual.summary.n_errors == 2
    claims = factual.tokens["judge_claims"]
    assert claims.requests == 4 and claims.prompt > 0 and claims.completion > 0  # gold + answer, per question
    usage = meter.stages["judge_claims"]
    assert usage.prompt_tokens == claims.prompt and usage.completion_tokens == claims.completion
    if "judge_verify" in factual.tokens:
        assert factual.tokens["judge_verify"].prompt == meter.stages["judge_verify"].prompt_tokens > 0


def test_pairwise_structure(judged):
    _, pairwise, meter = judged
    assert [r.id for r in pairwise.rows] == ["0", "1"]
    for row in pairwise.rows:
        assert row.requests == 2  # both orders were asked
        assert row.verdict_ab in ("A", "B", "tie", None) and row.verdict_ba in ("A", "B", "tie", None)
        if row.outcome == "no_contest":
            assert row.error
        else:
            assert row.verdict_ab is not None and row.verdict_ba is not None
        assert row.prompt_tokens > 0
    s = pairwise.summary
    assert s.wins + s.ties + s.losses + s.no_contest == 2
    usage = pairwise.tokens["judge_pairwise"]
    assert usage.requests == 4 and usage.prompt > 0 and usage.completion > 0
    assert usage.prompt == meter.stages["judge_pairwise"].prompt_tokens
