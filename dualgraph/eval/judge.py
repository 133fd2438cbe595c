"""LLM judges of free-text answers: factual correctness (claims) and pairwise preference.

**Factual correctness** (in the style of RAGAS, as the DualGraph paper reports it):
the gold answer ``gt_answer`` and the system's answer are each decomposed into at most
``max_claims`` atomic claims (stage ``judge_claims``, schema ``{"claims": [str]}``); then
the system's claims are checked against the gold text and the gold claims against the
system's text (stage ``judge_verify``, one verdict per claim). Precision = share of the
system's claims the gold supports, recall = share of the gold claims the answer supports,
F1 their harmonic mean. Every request of a step goes to the LLM in one batch. A failed or
malformed LLM result makes that question an error, reported and left out of the means,
never scored as 0 or 1. An empty answer (missing or error record) scores 0 without a call.

**Pairwise** judging lives in :mod:`dualgraph.eval.pairwise` and is re-exported here.

The tests drive both with a scripted fake LLM; the numbers depend on the judge model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.inputs import Question
from dualgraph.eval.judge_common import (
    STAGE_CLAIMS,
    STAGE_PAIRWISE,
    STAGE_VERIFY,
    JudgeConfig,
    StageTokens,
    add_usage,
    answer_text,
    clip_tokens,
    load_prompt,
    reply_json,
)
from dualgraph.eval.pairwise import PairwiseGroup, PairwiseResult, PairwiseRow, complete_all, judge_pairwise
from dualgraph.models.base import LLM, ChatRequest

__all__ = [
    "STAGE_CLAIMS",
    "STAGE_PAIRWISE",
    "STAGE_VERIFY",
    "FactualGroup",
    "FactualJudge",
    "FactualResult",
    "FactualRow",
    "JudgeConfig",
    "PairwiseGroup",
    "PairwiseResult",
    "PairwiseRow",
    "StageTokens",
    "judge_factual",
    "judge_pairwise",
    "parse_claims",
    "parse_verdicts",
]


class FactualRow(BaseModel):
    """Factual correctness of one answer."""

    id: str = Field(..., description="question id")
    category: str = Field(..., description="question category")
    precision: float | None = Field(None, description="share of the answer's claims supported by the gold")
    recall: float | None = Field(None, description="share of the gold's claims supported by the answer")
    f1: float | None = Field(None, description="harmonic mean of precision and recall; None on error")
    gold_claims: list[str] = Field(default_factory=list, description="claims of the gold answer")
    answer_claims: list[str] = Field(default_factory=list, description="claims of the system's answer")
    answer_supported: list[bool] = Field(default_factory=list, description="per answer claim: the gold supports it")
    gold_supported: list[bool] = Field(default_factory=list, description="per gold claim: the answer supports it")
    error: str | None = Field(None, description="why this question could not be judged")
    prompt_tokens: int = Field(0, description="prompt tokens spent on this question")
    completion_tokens: int = Field(0, description="completion tokens spent on this question")


class FactualGroup(BaseModel):
    """Macro means over the judged questions of a group."""

    n: int = Field(0, description="questions judged")
    n_errors: int = Field(0, description="questions the judge failed on (left out of the means)")
    precision: float | None = Field(None, description="mean claim precision")
    recall: float | None = Field(None, description="mean claim recall")
    f1: float | None = Field(None, description="mean claim F1")


class FactualResult(BaseModel):
    """Factual correctness of one answers file."""

    label: str = Field(..., description="the run judged")
    prompt_versions: list[str] = Field(default_factory=list, description="prompt versions used")
    summary: FactualGroup = Field(default_factory=FactualGroup, description="over every question")
    by_category: dict[str, FactualGroup] = Field(default_factory=dict, description="per category")
    tokens: dict[str, StageTokens] = Field(default_factory=dict, description="judge usage per stage")
    rows: list[FactualRow] = Field(default_factory=list, description="one row per question")


def _claims_schema(config: JudgeConfig) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["claims"],
        "properties": {
            "claims": {
                "type": "array",
                "maxItems": config.max_claims,
                "items": {"type": "string", "maxLength": config.max_claim_chars},
            }
        },
    }


def _verdicts_schema(n: int) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["verdicts"],
        "properties": {
            "verdicts": {
                "type": "array",
                "minItems": n,
                "maxItems": n,
                "items": {"type": "string", "enum": ["supported", "not_supported"]},
            }
        },
    }


def parse_claims(data: Any, *, max_claims: int = 20, max_chars: int = 300) -> tuple[list[str], str | None]:
    """The claims of a ``{"claims": [...]}`` reply (blank and repeated ones dropped, capped), or why not.

    >>> parse_claims({"claims": [" A is 5G. ", "", "A is 5G."]})
    (['A is 5G.'], None)
    >>> parse_claims({"claim": []})[1]
    'expected {"claims": [strings]}'
    """
    items = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
        return [], 'expected {"claims": [strings]}'
    claims: list[str] = []
    for c in (" ".join(c.split())[:max_chars] for c in items):
        if c and c not in claims:
            claims.append(c)
    return claims[:max_claims], None


def parse_verdicts(data: Any, n: int) -> tuple[list[bool], str | None]:
    """One support flag per claim from a ``{"verdicts": [...]}`` reply, or why it is unusable.

    >>> parse_verdicts({"verdicts": ["supported", "Not supported"]}, 2)
    ([True, False], None)
    >>> parse_verdicts({"verdicts": ["supported"]}, 2)[1]
    'expected 2 verdicts, got 1'
    """
    items = data.get("verdicts") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return [], 'expected {"verdicts": [...]}'
    if len(items) != n:
        return [], f"expected {n} verdicts, got {len(items)}"
    flags: list[bool] = []
    for v in items:
        key = str(v).strip().lower().replace(" ", "_").replace("-", "_")
        if key not in ("supported", "not_supported", "unsupported"):
            return [], f"unknown verdict {v!r}"
        flags.append(key == "supported")
    return flags, None


class FactualJudge:
    """Claim-based factual correctness with one LLM; gold claims are decomposed once per judge.

    Keeping the gold decompositions lets several answers files be judged against the
    same gold claims, which both saves tokens and makes their scores comparable.
    """

    def __init__(self, llm: LLM, *, config: JudgeConfig | None = None) -> None:
        self.llm = llm
        self.config = config or JudgeConfig()
        self.claims_prompt = load_prompt(self.config.claims_prompt)
        self.verify_prompt = load_prompt(self.config.verify_prompt)
        self._gold: dict[tuple[str, str], list[str]] = {}

    def _claims_request(self, question: str, text: str) -> ChatRequest:
        c = self.config
        return ChatRequest(
            messages=self.claims_prompt.messages(
                question=question, text=clip_tokens(text, c.max_text_tokens), max_claims=c.max_claims
            ),
            schema=_claims_schema(c),
            max_tokens=c.claims_max_tokens,
            temperature=c.temperature,
            prompt_version=self.claims_prompt.version,
            stage=STAGE_CLAIMS,
        )

    def _verify_request(self, question: str, context: str, claims: list[str]) -> ChatRequest:
        c = self.config
        numbered = "\n".join(f"{i}. {claim}" for i, claim in enumerate(claims, start=1))
        return ChatRequest(
            messages=self.verify_prompt.messages(
                question=question, context=clip_tokens(context, c.max_text_tokens), claims=numbered, n=len(claims)
            ),
            schema=_verdicts_schema(len(claims)),
            max_tokens=c.verify_max_tokens,
            temperature=c.temperature,
            prompt_version=self.verify_prompt.version,
            stage=STAGE_VERIFY,
        )

    def judge(
        self, questions: Mapping[str, Question], records: Mapping[str, AnswerRecord], *, label: str = "answers"
    ) -> FactualResult:
        """Judge every question with a gold answer text; two batched LLM calls in all."""
        usage: dict[str, StageTokens] = {}
        rows: dict[str, FactualRow] = {}
        texts = {qid: answer_text(records.get(qid)) for qid in questions}
        for qid, q in questions.items():
            rows[qid] = FactualRow(
                id=qid, category=q.category, error=None if q.gt_answer.strip() else "no gt_answer to judge against"
            )

        # Step 1: claims of the gold (unless decomposed before) and of each non-empty answer.
        requests: list[ChatRequest] = []
        owners: list[tuple[str, str]] = []
        for qid, row in rows.items():
            if row.error or not texts[qid]:
                continue  # an empty answer scores 0 whatever the gold says: no call needed
            q = questions[qid]
            known = self._gold.get((q.question, q.gt_answer))
            if known is not None:
                row.gold_claims = list(known)
            else:
                requests.append(self._claims_request(q.question, q.gt_answer))
                owners.append((qid, "gold"))
            requests.append(self._claims_request(q.question, texts[qid]))
            owners.append((qid, "answer"))
        for (qid, side), result in zip(owners, complete_all(self.llm, requests)):
            row = rows[qid]
            self._count(row, usage, STAGE_CLAIMS, result)
            data, why = reply_json(result)
            claims, bad = parse_claims(data, max_claims=self.config.max_claims, max_chars=self.config.max_claim_chars)
            why = why or bad
            if why:
                row.error = row.error or f"{side} claims: {why}"
            elif side == "gold":
                row.gold_claims = claims
                if claims:
                    q = questions[qid]
                    self._gold[(q.question, q.gt_answer)] = list(claims)
            else:
                row.answer_claims = claims

        # Step 2: answer claims against the gold text, gold claims against the answer text.
        requests, owners = [], []
        for qid, row in rows.items():
            if row.error or not texts[qid]:
                continue
            if not row.gold_claims:
                row.error = "the gold answer gave no claims"
            else:
                q = questions[qid]
                if row.answer_claims:
                    requests.append(self._verify_request(q.question, q.gt_answer, row.answer_claims))
                    owners.append((qid, "precision"))
                requests.append(self._verify_request(q.question, texts[qid], row.gold_claims))
                owners.append((qid, "recall"))
        for (qid, side), result in zip(owners, complete_all(self.llm, requests)):
            row = rows[qid]
            self._count(row, usage, STAGE_VERIFY, result)
            data, why = reply_json(result)
            n = len(row.answer_claims if side == "precision" else row.gold_claims)
            flags, bad = parse_verdicts(data, n) if why is None else ([], why)
            if bad:
                row.error = row.error or f"{side} verdicts: {bad}"
            elif side == "precision":
                row.answer_supported = flags
            else:
                row.gold_supported = flags

        for qid, row in rows.items():
            if row.error is None:
                _score(row, has_answer=bool(texts[qid]))
        ordered = list(rows.values())
        return FactualResult(
            label=label,
            prompt_versions=[self.claims_prompt.version, self.verify_prompt.version],
            summary=_group(ordered),
            by_category=_by_category(ordered),
            tokens=usage,
            rows=ordered,
        )

    @staticmethod
    def _count(row: FactualRow, usage: dict[str, StageTokens], stage: str, result: Any) -> None:
        add_usage(usage, stage, result)
        row.prompt_tokens += result.prompt_tokens
        row.completion_tokens += result.completion_tokens


def judge_factual(
    llm: LLM,
    questions: Mapping[str, Question],
    records: Mapping[str, AnswerRecord],
    *,
    label: str = "answers",
    config: JudgeConfig | None = None,
) -> FactualResult:
    """Factual correctness of one answers file (see the module notes)."""
    return FactualJudge(llm, config=config).judge(questions, records, label=label)


def _score(row: FactualRow, *, has_answer: bool) -> None:
    if not has_answer:
        row.precision = row.recall = row.f1 = 0.0
        return
    # An answer that states no checkable claim supports nothing: precision 0, not undefined.
    p = sum(row.answer_supported) / len(row.answer_claims) if row.answer_claims else 0.0
    r = sum(row.gold_supported) / len(row.gold_claims)
    row.precision, row.recall, row.f1 = p, r, (2 * p * r / (p + r) if p + r else 0.0)


def _group(rows: list[FactualRow]) -> FactualGroup:
    ok = [r for r in rows if r.error is None and r.f1 is not None]
    mean = lambda xs: sum(xs) / len(xs) if xs else None  # noqa: E731
    return FactualGroup(
        n=len(ok),
        n_errors=len(rows) - len(ok),
        precision=mean([r.precision for r in ok]),
        recall=mean([r.recall for r in ok]),
        f1=mean([r.f1 for r in ok]),
    )


def _by_category(rows: list[FactualRow]) -> dict[str, FactualGroup]:
    groups: dict[str, list[FactualRow]] = {}
    for r in rows:
        groups.setdefault(r.category, []).append(r)
    return {c: _group(groups[c]) for c in sorted(groups)}
