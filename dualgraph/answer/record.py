"""One answer as a record: what bulk answering writes (one JSON line each) and evaluation reads.

The first six fields are the stable contract of ``dualgraph ask --questions … --out …``; the
rest is evidence and cost, so an answer can be checked and a run's price measured.

>>> r = AnswerRecord(id="7", question="Which phones have 5G?", answer="2 products: A, B.",
...                  answer_list=["A", "B"], strategy="skg")
>>> AnswerRecord.model_validate_json(r.to_json_line()).answer_list
['A', 'B']
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from dualgraph.answer.question_text import safe_text
from dualgraph.query.caps import CapHit

__all__ = ["AnswerRecord", "CapHit", "Evidence", "TokenCounts", "error_record"]


class TokenCounts(BaseModel):
    """LLM tokens one answer cost (zero on the deterministic path)."""

    prompt: int = Field(0, description="prompt tokens over every LLM call made for this answer")
    completion: int = Field(0, description="completion tokens over every LLM call made for this answer")

    @property
    def total(self) -> int:
        return self.prompt + self.completion

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(prompt=self.prompt + other.prompt, completion=self.completion + other.completion)


class Evidence(BaseModel):
    """What the answer rests on."""

    sparql: str | None = Field(None, description="the SPARQL query whose rows the answer used, if any")
    rows: list[dict[str, Any]] = Field(
        default_factory=list, description="its result rows (plain values), capped by the engine"
    )
    rows_total: int = Field(0, description="how many rows the query returned before the cap")
    chunk_ids: list[str] = Field(default_factory=list, description="Textual KG chunks used, best first")
    sources: list[str] = Field(default_factory=list, description="retrievers consulted, in order (e.g. 'skg', 'tkg')")
    confidence: float | None = Field(None, description="the symbolic side's grounding confidence (0-1), if it ran")
    trace: list[str] = Field(
        default_factory=list, description="the decisions taken (parsing, grounding, routing, fallback)"
    )


class AnswerRecord(BaseModel):
    """The answer to one question."""

    id: str = Field(..., description="the question's key in the questions file")
    question: str = Field(..., description="the question text")
    answer: str = Field("", description="the answer in words (template-rendered, or written by the LLM)")
    answer_list: list[str] | None = Field(
        None, description="product names for list questions, exactly as in the catalog; null when not a list"
    )
    value: Any = Field(None, description="number or name for counts, comparisons and superlatives; null otherwise")
    strategy: str = Field(
        ..., description="the strategy that answered (tkg, skg, concat, skg+tkg_fb, router, router+tkg_fb, agentic)"
    )
    route: list[str] = Field(
        default_factory=list,
        description="retrievers the strategy actually used, in order, e.g. ['skg', 'tkg'] after a fallback",
    )
    evidence: Evidence = Field(
        default_factory=Evidence, description="queries, rows, chunks and the trace behind the answer"
    )
    unread: list[str] = Field(
        default_factory=list,
        description="phrases of the question the answer did not read (no constraint came of them, and the text "
        "did not answer by them): the answer may be wider than asked; empty when every phrase was read",
    )
    caps: list[CapHit] = Field(
        default_factory=list,
        description="the bounds on this question's work that it reached (reading, grounding, the beam over "
        "readings, the query, the text, the budget), one entry per cap with its limit and what it cut; a cut "
        "the answer rests on lowered its confidence ('lowered'). Empty when no cap was reached",
    )
    tokens: TokenCounts = Field(default_factory=TokenCounts, description="LLM tokens spent on this answer")
    latency_s: float = Field(0.0, description="wall-clock seconds to answer")
    error: str | None = Field(None, description="why no answer could be produced (the run goes on); null on success")
    over_budget: Literal["deadline", "memory"] | None = Field(
        None,
        description="the budget the question ran past, its work stopped there ('error' says more); null otherwise. "
        "A resumed bulk run keeps such a record unless asked to retry it (--retry-over-budget)",
    )
    question_escaped: str | None = Field(
        None,
        description="the question exactly as given, with backslash escapes, when it was not valid Unicode "
        "(lone surrogates); 'question' then holds U+FFFD in their place. Null otherwise.",
    )

    @model_validator(mode="after")
    def _storable_question(self) -> AnswerRecord:
        # a lone surrogate cannot be written as UTF-8: one such question would fail the whole file
        text, escaped = safe_text(self.question)
        if escaped is not None:
            self.question, self.question_escaped = text, escaped
        self.answer = safe_text(self.answer)[0]
        if self.error is not None:
            self.error = safe_text(self.error)[0]
        return self

    def to_json_line(self) -> str:
        line = json.dumps(self.model_dump(mode="json"), ensure_ascii=False, default=str)
        # elsewhere (an error message quoting the question, say) the text is not kept: replaced
        return safe_text(line)[0]


def error_record(
    qid: str,
    question: str,
    strategy: str,
    error: BaseException | str,
    *,
    latency_s: float = 0.0,
    over_budget: Literal["deadline", "memory"] | None = None,
    caps: list[CapHit] | None = None,
) -> AnswerRecord:
    """The record of a question whose answering raised: the run records it and goes on.

    >>> error_record("3", "q?", "skg", ValueError("boom")).error
    'ValueError: boom'
    """
    text = error if isinstance(error, str) else f"{type(error).__name__}: {error}"
    return AnswerRecord(
        id=qid,
        question=question,
        strategy=strategy,
        error=text,
        latency_s=latency_s,
        answer="",
        over_budget=over_budget,
        caps=list(caps or []),
    )
