"""The result records of an evaluation: one row per question, aggregates, cost and latency.

>>> GroupScore().overall is None
True
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["Comparison", "EvalResult", "GroupScore", "IndexTokens", "LatencySummary", "QuestionRow", "TokenSummary"]

Status = Literal["ok", "missing", "error"]


class QuestionRow(BaseModel):
    """How one question was answered and scored."""

    id: str = Field(..., description="the question id")
    question: str = Field("", description="the question text")
    category: str = Field(..., description="SpecsQA category")
    method: str = Field(..., description="gt_retrieval_method of the question")
    objectivity: bool | None = Field(None, description="objective question (computed gold)")
    is_list: bool = Field(..., description="a list question (set P/R/F1) rather than a value question (0/1)")
    scorable: bool = Field(True, description="false when the gold has no list/value (free-text SpecsQA questions)")
    status: Status = Field("ok", description="ok, missing (no record) or error (the record carries an error)")
    strategy: str = Field("(missing)", description="the record's strategy")
    route: str = Field("(missing)", description="retrievers used, joined with '>' (e.g. 'skg>tkg')")
    p: float | None = Field(None, description="list precision (list questions)")
    r: float | None = Field(None, description="list recall (list questions)")
    f1: float | None = Field(None, description="list F1 (list questions)")
    exact: bool | None = Field(None, description="list questions: normalised predicted set == gold set")
    value_ok: bool | None = Field(None, description="value questions: the value is correct")
    score: float | None = Field(None, description="F1 or 0/1: what the overall score averages")
    predicted: Any = Field(None, description="what was taken from the record as the answer")
    gold: Any = Field(None, description="gold list or value")
    error: str | None = Field(None, description="the record's error, if any")
    prompt_tokens: int = Field(0, description="prompt tokens the answer cost")
    completion_tokens: int = Field(0, description="completion tokens the answer cost")
    latency_s: float | None = Field(None, description="seconds to answer (None when missing)")


class GroupScore(BaseModel):
    """Aggregates over a set of scored questions (the whole run, or one group of a breakdown)."""

    n: int = Field(0, description="scored questions")
    n_list: int = Field(0, description="scored list questions")
    n_value: int = Field(0, description="scored value questions")
    list_precision: float | None = Field(None, description="macro mean list precision")
    list_recall: float | None = Field(None, description="macro mean list recall")
    list_f1: float | None = Field(None, description="macro mean list F1")
    exact_set: float | None = Field(None, description="fraction of list questions answered with exactly the gold set")
    value_accuracy: float | None = Field(None, description="fraction of value questions answered correctly")
    overall: float | None = Field(None, description="mean over questions of F1 (lists) or 0/1 (values)")
    n_missing: int = Field(0, description="questions without a record")
    n_errors: int = Field(0, description="questions whose record carries an error")


class TokenSummary(BaseModel):
    """LLM tokens spent answering (from the records)."""

    n_records: int = Field(0, description="records the sums run over (present, matching a question)")
    prompt: int = Field(0, description="prompt tokens in all")
    completion: int = Field(0, description="completion tokens in all")
    prompt_mean: float = Field(0.0, description="prompt tokens per record")
    completion_mean: float = Field(0.0, description="completion tokens per record")
    total_mean: float = Field(0.0, description="prompt + completion tokens per record")


class IndexTokens(BaseModel):
    """LLM tokens spent building the index (``model_usage`` of its ``manifest.json``)."""

    manifest: str = Field(..., description="the manifest file read")
    prompt: int = Field(0, description="prompt tokens over every stage")
    completion: int = Field(0, description="completion tokens over every stage")
    by_stage: dict[str, dict[str, float]] = Field(default_factory=dict, description="the manifest's usage per stage")
    note: str | None = Field(None, description="why the numbers are empty, when they are")


class LatencySummary(BaseModel):
    """Seconds per answer over the records present."""

    n: int = Field(0, description="records with a latency")
    p50: float | None = Field(None, description="median")
    p90: float | None = Field(None, description="90th percentile")
    p99: float | None = Field(None, description="99th percentile")
    max: float | None = Field(None, description="slowest")
    mean: float | None = Field(None, description="mean")


class EvalResult(BaseModel):
    """Everything measured for one answers file."""

    label: str = Field(..., description="name of this run in reports (strategy or file stem)")
    questions_path: str | None = Field(None, description="the questions file")
    answers_path: str | None = Field(None, description="the answers file")
    loose: bool = Field(False, description="names were matched with the loose normalisation")
    n_questions: int = Field(0, description="questions in the questions file")
    n_unscored: int = Field(0, description="questions without list/value gold (not in the aggregates)")
    n_missing: int = Field(0, description="questions without a record")
    n_errors: int = Field(0, description="records carrying an error (scored as empty answers)")
    extra_ids: list[str] = Field(default_factory=list, description="record ids that are not questions (ignored)")
    repeated_ids: list[str] = Field(default_factory=list, description="ids recorded twice (the last one counts)")
    mismatched_ids: list[str] = Field(
        default_factory=list,
        description="ids whose record holds another question text than the questions file (answers of another file?)",
    )
    summary: GroupScore = Field(default_factory=GroupScore, description="aggregates over every scored question")
    by_category: dict[str, GroupScore] = Field(default_factory=dict, description="aggregates per category")
    by_method: dict[str, GroupScore] = Field(default_factory=dict, description="aggregates per gt_retrieval_method")
    by_objectivity: dict[str, GroupScore] = Field(default_factory=dict, description="aggregates per objectivity")
    by_strategy: dict[str, GroupScore] = Field(default_factory=dict, description="aggregates per record strategy")
    by_route: dict[str, GroupScore] = Field(default_factory=dict, description="aggregates per route ('skg>tkg')")
    tokens: TokenSummary = Field(default_factory=TokenSummary, description="query-time token usage")
    index_tokens: IndexTokens | None = Field(None, description="indexing token usage, when an index was given")
    latency: LatencySummary = Field(default_factory=LatencySummary, description="answer latency")
    rows: list[QuestionRow] = Field(default_factory=list, description="one row per question, in file order")

    def to_json(self, *, indent: int | None = 1, rows: bool = True) -> str:
        """The result as JSON; ``rows=False`` leaves out the per-question rows."""
        return self.model_dump_json(indent=indent, exclude=None if rows else {"rows"})


class Comparison(BaseModel):
    """Several answers files (one per strategy, say) evaluated on the same questions."""

    questions_path: str | None = Field(None, description="the questions file")
    results: dict[str, EvalResult] = Field(default_factory=dict, description="label -> result, in the given order")

    @property
    def labels(self) -> list[str]:
        return list(self.results)

    def to_json(self, *, indent: int | None = 1, rows: bool = True) -> str:
        """The comparison as JSON; ``rows=False`` leaves out the per-question rows."""
        exclude = None if rows else {"results": {label: {"rows"} for label in self.results}}
        return self.model_dump_json(indent=indent, exclude=exclude)
