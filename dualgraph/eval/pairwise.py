"""Pairwise LLM judging of two answers files, asked in both orders to cancel position bias.

For every question the judge sees the gold answer and the two answers twice: once with
run A's answer in position "A", once swapped (stage ``judge_pairwise``, schema
``{"winner": "A"|"B"|"tie", "reason": str}``). A run wins a question only when both orders
pick it; any other pair of valid verdicts is a tie. When either reply is missing or
malformed the question is a *no contest* (as in the DualGraph paper's LaaJ): reported,
and left out of the win, tie and loss rates, which are over decided questions.

>>> outcome("A", "B"), outcome("A", "A"), outcome("tie", "B"), outcome(None, "B")
('win', 'tie', 'tie', 'no_contest')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.inputs import Question
from dualgraph.eval.judge_common import (
    STAGE_PAIRWISE,
    JudgeConfig,
    StageTokens,
    add_usage,
    answer_text,
    clip_tokens,
    load_prompt,
    reply_json,
)
from dualgraph.models.base import LLM, ChatRequest, ChatResult

__all__ = [
    "PairwiseGroup",
    "PairwiseResult",
    "PairwiseRow",
    "complete_all",
    "judge_pairwise",
    "outcome",
    "parse_winner",
]

Verdict = Literal["A", "B", "tie"]
Outcome = Literal["win", "loss", "tie", "no_contest"]
NO_ANSWER = "(no answer)"
_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["winner", "reason"],
    "properties": {
        "winner": {"type": "string", "enum": ["A", "B", "tie"]},
        "reason": {"type": "string", "maxLength": 400},
    },
}


class PairwiseRow(BaseModel):
    """Both verdicts on one question, from run A's point of view."""

    id: str = Field(..., description="question id")
    category: str = Field(..., description="question category")
    verdict_ab: Verdict | None = Field(None, description="verdict with run A's answer shown as 'A'")
    verdict_ba: Verdict | None = Field(None, description="verdict with run B's answer shown as 'A' (swapped)")
    outcome: Outcome = Field("no_contest", description="for run A: win, loss, tie or no_contest")
    reasons: list[str] = Field(default_factory=list, description="the judge's reasons, in asking order")
    requests: int = Field(0, description="requests sent for this question (2, or 0 when both answers are empty)")
    error: str | None = Field(None, description="why the question is a no contest")
    prompt_tokens: int = Field(0, description="prompt tokens spent")
    completion_tokens: int = Field(0, description="completion tokens spent")


class PairwiseGroup(BaseModel):
    """Outcome counts and rates (over decided questions) of a group."""

    n: int = Field(0, description="questions")
    wins: int = Field(0, description="both orders preferred run A")
    losses: int = Field(0, description="both orders preferred run B")
    ties: int = Field(0, description="the orders disagreed or called a tie")
    no_contest: int = Field(0, description="a verdict was missing or malformed")
    win_rate: float | None = Field(None, description="wins / decided")
    tie_rate: float | None = Field(None, description="ties / decided")
    loss_rate: float | None = Field(None, description="losses / decided")


class PairwiseResult(BaseModel):
    """Run A against run B."""

    label_a: str = Field(..., description="run A")
    label_b: str = Field(..., description="run B")
    prompt_version: str = Field(..., description="prompt version used")
    summary: PairwiseGroup = Field(default_factory=PairwiseGroup, description="over every question")
    by_category: dict[str, PairwiseGroup] = Field(default_factory=dict, description="per category")
    tokens: dict[str, StageTokens] = Field(default_factory=dict, description="judge usage per stage")
    rows: list[PairwiseRow] = Field(default_factory=list, description="one row per question")


def complete_all(llm: LLM, requests: list[ChatRequest]) -> list[ChatResult]:
    """``llm.complete`` in one batch, with a failed result standing in for any the backend left out."""
    if not requests:
        return []
    results = list(llm.complete(requests))
    missing = ChatResult(text="", error="the LLM returned no result for this request")
    return results[: len(requests)] + [missing] * (len(requests) - len(results))


def parse_winner(data: Any) -> tuple[Verdict | None, str, str | None]:
    """(winner, reason, problem) of a ``{"winner": ..., "reason": ...}`` reply.

    >>> parse_winner({"winner": "b", "reason": "closer"})
    ('B', 'closer', None)
    >>> parse_winner({"winner": "both"})[2]
    "unknown winner 'both'"
    """
    if not isinstance(data, dict) or "winner" not in data:
        return None, "", 'expected {"winner": "A"|"B"|"tie", "reason": ...}'
    raw = str(data["winner"]).strip()
    winner = {"a": "A", "b": "B", "tie": "tie"}.get(raw.lower())
    reason = str(data.get("reason") or "")
    if winner is None:
        return None, reason, f"unknown winner {raw!r}"
    return winner, reason, None  # type: ignore[return-value]


def outcome(verdict_ab: str | None, verdict_ba: str | None) -> Outcome:
    """Run A's outcome from the straight (A shown first) and the swapped verdict."""
    if verdict_ab is None or verdict_ba is None:
        return "no_contest"
    first = {"A": "a", "B": "b"}.get(verdict_ab, "tie")
    second = {"A": "b", "B": "a"}.get(verdict_ba, "tie")  # swapped: position A holds run B
    if first == second == "a":
        return "win"
    if first == second == "b":
        return "loss"
    return "tie"


def judge_pairwise(
    llm: LLM,
    questions: Mapping[str, Question],
    records_a: Mapping[str, AnswerRecord],
    records_b: Mapping[str, AnswerRecord],
    *,
    label_a: str = "A",
    label_b: str = "B",
    config: JudgeConfig | None = None,
) -> PairwiseResult:
    """Compare two runs on every question with a gold answer text, both orders in one batch."""
    cfg = config or JudgeConfig()
    prompt = load_prompt(cfg.pairwise_prompt)
    rows: list[PairwiseRow] = []
    requests: list[ChatRequest] = []
    owners: list[tuple[PairwiseRow, str]] = []
    for qid, q in questions.items():
        row = PairwiseRow(id=qid, category=q.category)
        rows.append(row)
        a, b = answer_text(records_a.get(qid)), answer_text(records_b.get(qid))
        if not q.gt_answer.strip():
            row.error = "no gt_answer to judge against"
            continue
        if not a and not b:
            row.verdict_ab = row.verdict_ba = "tie"  # nothing to compare: no call needed
            row.outcome = "tie"
            continue
        reference = clip_tokens(q.gt_answer, cfg.max_text_tokens)
        a, b = clip_tokens(a, cfg.max_text_tokens) or NO_ANSWER, clip_tokens(b, cfg.max_text_tokens) or NO_ANSWER
        for order, (first, second) in (("ab", (a, b)), ("ba", (b, a))):
            requests.append(
                ChatRequest(
                    messages=prompt.messages(question=q.question, reference=reference, answer_a=first, answer_b=second),
                    schema=_SCHEMA,
                    max_tokens=cfg.pairwise_max_tokens,
                    temperature=cfg.temperature,
                    prompt_version=prompt.version,
                    stage=STAGE_PAIRWISE,
                )
            )
            owners.append((row, order))
    usage: dict[str, StageTokens] = {}
    for (row, order), result in zip(owners, complete_all(llm, requests)):
        add_usage(usage, STAGE_PAIRWISE, result)
        row.requests += 1
        row.prompt_tokens += result.prompt_tokens
        row.completion_tokens += result.completion_tokens
        data, why = reply_json(result)
        winner, reason, bad = parse_winner(data) if why is None else (None, "", why)
        row.reasons.append(reason)
        if bad:
            row.error = row.error or f"order {order.upper()}: {bad}"
        elif order == "ab":
            row.verdict_ab = winner
        else:
            row.verdict_ba = winner
    for row in rows:
        if row.requests:
            row.outcome = outcome(row.verdict_ab, row.verdict_ba)
    groups: dict[str, list[PairwiseRow]] = {}
    for row in rows:
        groups.setdefault(row.category, []).append(row)
    return PairwiseResult(
        label_a=label_a,
        label_b=label_b,
        prompt_version=prompt.version,
        summary=_group(rows),
        by_category={c: _group(groups[c]) for c in sorted(groups)},
        tokens=usage,
        rows=rows,
    )


def _group(rows: list[PairwiseRow]) -> PairwiseGroup:
    counts = {k: sum(r.outcome == k for r in rows) for k in ("win", "loss", "tie", "no_contest")}
    decided = counts["win"] + counts["loss"] + counts["tie"]
    rate = lambda k: counts[k] / decided if decided else None  # noqa: E731
    return PairwiseGroup(
        n=len(rows),
        wins=counts["win"],
        losses=counts["loss"],
        ties=counts["tie"],
        no_contest=counts["no_contest"],
        win_rate=rate("win"),
        tie_rate=rate("tie"),
        loss_rate=rate("loss"),
    )
