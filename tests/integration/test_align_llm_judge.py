"""The aligner's LLM judge against the REAL SmolLM2-135M-Instruct on llama.cpp's server.

Structure only, never judgement quality (a 135M model judges poorly and greedy outputs differ
between builds): one verdict per pair, in order; each is a boolean with a confidence in
[0, 1], or None with the error that says why; token usage is metered under the judge's stage;
and :func:`judge_candidates` turns every verdict into a decision.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from llamacpp import MODEL_NAME, missing_runtime

from dualgraph.align.judge import JudgePair, LLMJudge, RuleJudge, judge_candidates
from dualgraph.models.base import TokenMeter
from dualgraph.models.openai_chat import OpenAIChatLLM

pytestmark = [pytest.mark.network, pytest.mark.skipif(missing_runtime() is not None, reason=str(missing_runtime()))]

PAIRS = [
    JudgePair(
        "headphone jack",
        "A 3.5 mm jack for wired headphones.",
        "Audio › 3.5 mm audio port",
        "A spec entry; values: yes, no",
    ),
    JudgePair(
        "fast charging",
        "Charges the battery to 50% in 30 minutes.",
        "Display › Type",
        "A spec entry; values: OLED, LCD",
    ),
    JudgePair(
        "Wi-Fi 6E", "The newest Wi-Fi standard, on 6 GHz.", "Network › WLAN standard", "values: Wi-Fi 6E, Wi-Fi 6"
    ),
]


@pytest.fixture(scope="module")
def judged(llamacpp):
    meter = TokenMeter()
    llm = OpenAIChatLLM(llamacpp.base_url, MODEL_NAME, max_concurrency=2, max_retries=1, timeout_s=120, meter=meter)
    try:
        judge = LLMJudge(llm, batch=2, max_tokens=48)
        verdicts = judge.judge(PAIRS)
        # the rule accepts everything here, so every pair goes to the LLM again
        rule = RuleJudge(weights=np.zeros(3), bias=5.0, threshold=0.5)
        decisions = judge_candidates(np.full((len(PAIRS), 3), 0.5), rule=rule, llm_judge=judge, pairs=PAIRS)
    finally:
        llm.close()
    return verdicts, decisions, meter


def test_one_well_formed_verdict_per_pair(judged):
    verdicts, _, _ = judged
    assert len(verdicts) == len(PAIRS)
    for v in verdicts:
        if v.same is None:
            assert v.error and v.error.strip() and v.confidence == 0.0
        else:
            assert isinstance(v.same, bool) and v.error is None
            assert 0.0 <= v.confidence <= 1.0


def test_tokens_are_metered_under_the_judge_stage(judged):
    _, _, meter = judged
    usage = meter.stages["align_judge"]
    assert usage.items == 2 * len(PAIRS)  # judge() once, then judge_candidates asked all again
    assert usage.calls >= usage.items
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0


def test_every_verdict_becomes_a_decision(judged):
    _, decisions, _ = judged
    assert len(decisions) == len(PAIRS)
    for d in decisions:
        assert d.how in ("llm", "rule-fallback")
        assert isinstance(d.accepted, bool) and 0.0 <= d.score <= 1.0
        if d.how == "rule-fallback":
            assert d.accepted  # the rule accepts every pair here
