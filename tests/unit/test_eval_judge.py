"""The LLM judges' request building, parsing, aggregation and token accounting.

The LLM here is a scripted fake implementing the :class:`~dualgraph.models.base.LLM`
protocol: its replies are computed deterministically from each request's content (a
claim is "supported" when the reference contains it word for word; the pairwise fake
prefers the answer containing "correct", or always says "A" for one question to imitate
position bias). That is legitimate here because these tests check our side only: how
requests are batched and worded, how replies (valid, malformed or failed) are parsed, how
both orders combine, and how scores and tokens add up. Judgement quality is the real
model's business and is never asserted; the llama.cpp integration test checks that the
same code runs against a real model.
"""

from __future__ import annotations

import json
import re

import pytest

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.inputs import Question
from dualgraph.eval.judge import FactualJudge, JudgeConfig, judge_factual, judge_pairwise, parse_claims
from dualgraph.eval.judge_common import load_prompt
from dualgraph.models.base import LLM, ChatRequest, ChatResult

TOKENS = {"judge_claims": (10, 4), "judge_verify": (20, 3), "judge_pairwise": (30, 7)}


def quoted(text: str, label: str) -> str:
    """The triple-quoted block following ``label:`` in a prompt."""
    m = re.search(re.escape(label) + r':\n"""\n(.*?)\n"""', text, flags=re.DOTALL)
    assert m, f"no {label!r} block in the prompt"
    return m.group(1)


class ScriptedLLM:
    """A deterministic stand-in for a chat model (see the module docstring for why it is fine)."""

    name = "scripted"

    def __init__(self) -> None:
        self.batches: list[list[ChatRequest]] = []

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        self.batches.append(list(requests))
        return [self.reply(r) for r in requests]

    def reply(self, request: ChatRequest) -> ChatResult:
        user = request.messages[-1]["content"]
        prompt, completion = TOKENS[request.stage]
        if "FAILME" in user:
            return ChatResult(text="", error="HTTP 500: server error", prompt_tokens=prompt)
        if "GARBLED" in user:
            return ChatResult(text="I think the answer is good!", prompt_tokens=prompt, completion_tokens=completion)
        if request.stage == "judge_claims":
            text = quoted(user, "Answer")
            data = {"claims": [c.strip() for c in text.split(".") if c.strip()]}
        elif request.stage == "judge_verify":
            reference = quoted(user, "Reference").lower()
            claims = re.findall(r"^\d+\. (.*)$", user.split("Claims:\n", 1)[1], flags=re.MULTILINE)
            verdicts = ["supported" if c.lower() in reference else "not_supported" for c in claims]
            if "SHORT" in user:
                verdicts = verdicts[:-1]
            data = {"verdicts": verdicts}
        else:
            a, b = quoted(user, "Answer A"), quoted(user, "Answer B")
            if "position-biased" in user:
                winner = "A"
            else:
                in_a, in_b = "correct" in a, "correct" in b
                winner = "A" if in_a and not in_b else "B" if in_b and not in_a else "tie"
            data = {"winner": winner, "reason": f"picked {winner}"}
        # Every other reply carries only text, so the lenient parsing path is exercised too.
        parsed = data if len(user) % 2 else None
        return ChatResult(text=json.dumps(data), parsed=parsed, prompt_tokens=prompt, completion_tokens=completion)


def q(qid: str, question: str, gold: str, category: str = "Inverse Queries") -> Question:
    return Question(id=qid, question=question, category=category, is_list=True, gt_answer=gold, gt_answer_list=[])


def rec(qid: str, answer: str, *, error: str | None = None) -> AnswerRecord:
    return AnswerRecord(id=qid, question="?", answer=answer, strategy="skg", error=error)


QUESTIONS = {
    "a": q("a", "Which phones have NFC?", "Alpha has NFC. Beta has NFC."),
    "b": q("b", "Which phones have 5G?", "Alpha has 5G."),
    "c": q("c", "Which phones are GARBLED?", "Gamma is garbled."),
    "d": q("d", "Which phones are waterproof?", ""),
    "e": q("e", "Which phones fail?", "Delta fails.", category="Reasoning Queries"),
    "f": q("f", "Which phones are short?", "Alpha is short. Beta is short.", category="Reasoning Queries"),
}
RECORDS = {
    "a": rec("a", "Alpha has NFC. Gamma has NFC."),
    # "b" has no record: scored 0 without any call
    "c": rec("c", "Gamma is garbled."),
    "d": rec("d", "Nothing."),
    "e": rec("e", "FAILME please."),
    "f": rec("f", "Alpha is short. SHORT one."),
}


def test_the_fake_follows_the_protocol():
    assert isinstance(ScriptedLLM(), LLM)


def test_factual_scores_errors_and_batching():
    llm = ScriptedLLM()
    res = judge_factual(llm, QUESTIONS, RECORDS, label="skg")
    rows = {r.id: r for r in res.rows}
    a = rows["a"]
    assert a.gold_claims == ["Alpha has NFC", "Beta has NFC"] and a.answer_claims == ["Alpha has NFC", "Gamma has NFC"]
    assert (a.answer_supported, a.gold_supported) == ([True, False], [True, False])
    assert (a.precision, a.recall, a.f1, a.error) == (0.5, 0.5, 0.5, None)
    assert (rows["b"].f1, rows["b"].error, rows["b"].prompt_tokens) == (0.0, None, 0)  # missing: no call
    assert "not JSON" in rows["c"].error and rows["c"].f1 is None  # malformed reply: an error, not a score
    assert rows["d"].error == "no gt_answer to judge against"
    assert "LLM error: HTTP 500" in rows["e"].error
    assert rows["f"].error == "precision verdicts: expected 2 verdicts, got 1"
    # Two batched calls in all: every decomposition, then every verification.
    assert [sorted({r.stage for r in batch}) for batch in llm.batches] == [["judge_claims"], ["judge_verify"]]
    assert len(llm.batches[0]) == 8  # gold + answer for a, c, e, f
    assert len(llm.batches[1]) == 4  # precision + recall for a and f; c and e failed before
    assert res.summary.n == 2 and res.summary.n_errors == 4
    assert res.summary.f1 == pytest.approx((0.5 + 0.0) / 2)
    assert res.by_category["Reasoning Queries"].n_errors == 2


def test_factual_token_accounting():
    llm = ScriptedLLM()
    res = judge_factual(llm, QUESTIONS, RECORDS)
    claims, verify = res.tokens["judge_claims"], res.tokens["judge_verify"]
    assert (claims.requests, claims.failed) == (8, 1)  # e's answer request failed; c's replies are only malformed
    assert claims.prompt == 8 * 10 and claims.completion == 7 * 4  # the failed result reports no completion
    assert (verify.requests, verify.prompt, verify.completion) == (4, 80, 12)
    assert sum(r.prompt_tokens for r in res.rows) == claims.prompt + verify.prompt
    assert {r.stage for b in llm.batches for r in b} <= {"judge_claims", "judge_verify"}
    versions = {r.prompt_version for b in llm.batches for r in b}
    assert versions == {"judge_claims.v1", "judge_verify.v1"} == set(res.prompt_versions)


def test_requests_are_bounded():
    llm = ScriptedLLM()
    long_answer = ". ".join(f"Phone {i} has NFC" for i in range(40))
    config = JudgeConfig(max_claims=5, max_text_tokens=50, claims_max_tokens=123)
    judge_factual(llm, {"a": QUESTIONS["a"]}, {"a": rec("a", long_answer)}, config=config)
    claims = llm.batches[0]
    assert all(r.max_tokens == 123 and r.schema["properties"]["claims"]["maxItems"] == 5 for r in claims)
    assert "…" in claims[1].messages[-1]["content"]  # the long answer was cut
    assert len(llm.batches[1][0].schema["properties"]["verdicts"]["items"]["enum"]) == 2
    assert parse_claims({"claims": [f"c{i}" for i in range(30)]}, max_claims=5)[0] == ["c0", "c1", "c2", "c3", "c4"]


def test_gold_claims_are_decomposed_once_per_judge():
    llm = ScriptedLLM()
    judge = FactualJudge(llm)
    judge.judge({"a": QUESTIONS["a"]}, {"a": RECORDS["a"]}, label="one")
    second = judge.judge({"a": QUESTIONS["a"]}, {"a": rec("a", "Beta has NFC.")}, label="two")
    assert len(llm.batches[0]) == 2 and len(llm.batches[2]) == 1  # second run: the answer only
    row = second.rows[0]
    assert row.gold_claims == ["Alpha has NFC", "Beta has NFC"] and (row.precision, row.recall) == (1.0, 0.5)


PAIR_QUESTIONS = {
    "w": q("w", "Which phones have NFC?", "Alpha."),
    "l": q("l", "Which phones have 5G?", "Beta.", category="Reasoning Queries"),
    "p": q("p", "Which phones are position-biased?", "Gamma."),
    "x": q("x", "Which phones are GARBLED?", "Delta."),
    "n": q("n", "Which phones have nothing?", "None."),
}
RUN_A = {
    "w": rec("w", "Alpha, the correct one."),
    "l": rec("l", "Alpha."),
    "p": rec("p", "Gamma."),
    "x": rec("x", "Delta."),
}
RUN_B = {
    "w": rec("w", "Beta."),
    "l": rec("l", "Beta is correct."),
    "p": rec("p", "Gamma!"),
    "x": rec("x", "Delta!"),
    "n": rec("n", "", error="boom"),
}


def test_pairwise_asks_both_orders_and_combines_them():
    llm = ScriptedLLM()
    res = judge_pairwise(llm, PAIR_QUESTIONS, RUN_A, RUN_B, label_a="skg", label_b="tkg")
    rows = {r.id: r for r in res.rows}
    assert (rows["w"].verdict_ab, rows["w"].verdict_ba, rows["w"].outcome) == ("A", "B", "win")
    assert rows["l"].outcome == "loss"
    assert (rows["p"].verdict_ab, rows["p"].verdict_ba, rows["p"].outcome) == ("A", "A", "tie")  # bias cancels
    assert rows["x"].outcome == "no_contest" and "not JSON" in rows["x"].error
    assert rows["n"].outcome == "tie" and rows["n"].requests == 0  # neither run answered: nothing to ask
    assert len(llm.batches) == 1 and len(llm.batches[0]) == 8  # one batch, two orders per contested question
    first, second = llm.batches[0][0].messages[-1]["content"], llm.batches[0][1].messages[-1]["content"]
    assert quoted(first, "Answer A") == quoted(second, "Answer B") == "Alpha, the correct one."
    assert quoted(first, "Answer B") == quoted(second, "Answer A") == "Beta."
    s = res.summary
    assert (s.n, s.wins, s.losses, s.ties, s.no_contest) == (5, 1, 1, 2, 1)
    assert (s.win_rate, s.loss_rate, s.tie_rate) == (0.25, 0.25, 0.5)
    assert res.by_category["Reasoning Queries"].loss_rate == 1.0


def test_pairwise_tokens_and_failed_results():
    llm = ScriptedLLM()
    questions = {**PAIR_QUESTIONS, "f": q("f", "Which phones FAILME?", "Eta.")}
    res = judge_pairwise(llm, questions, {**RUN_A, "f": rec("f", "Eta.")}, RUN_B)
    usage = res.tokens["judge_pairwise"]
    assert (usage.requests, usage.failed) == (10, 2)
    assert usage.prompt == 10 * 30 and usage.completion == 8 * 7  # malformed replies still cost tokens
    row = {r.id: r for r in res.rows}["f"]
    assert row.outcome == "no_contest" and "HTTP 500" in row.error
    assert all(r.stage == "judge_pairwise" and r.prompt_version == "judge_pairwise.v1" for r in llm.batches[0])
    assert all(r.schema["properties"]["winner"]["enum"] == ["A", "B", "tie"] for r in llm.batches[0])


def test_a_backend_that_drops_results_gives_errors_not_crashes():
    class Lossy(ScriptedLLM):
        def complete(self, requests):
            return super().complete(requests)[:1]

    res = judge_pairwise(Lossy(), {"w": PAIR_QUESTIONS["w"]}, RUN_A, RUN_B)
    assert res.rows[0].outcome == "no_contest" and "no result" in res.rows[0].error


def test_prompt_files_load_with_their_placeholders():
    for name, needed in [
        ("judge_claims.v1", "{text}"),
        ("judge_verify.v1", "{claims}"),
        ("judge_pairwise.v1", "{answer_b}"),
    ]:
        prompt = load_prompt(name)
        assert prompt.version == name and needed in prompt.user and prompt.system
