"""What the HTTP API takes and gives: pydantic models, the source of the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.answer.record import AnswerRecord

__all__ = [
    "AskBatchReply",
    "AskBatchRequest",
    "AskReply",
    "AskRequest",
    "ErrorReply",
    "Health",
    "Info",
    "Percentiles",
    "SparqlReply",
    "SparqlRequest",
    "Stats",
]

Names = Literal["product", "range", "auto"]


class AskRequest(BaseModel):
    """One question."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(..., description="The question, in words.")
    id: str = Field("0", max_length=200, description="Your key for the question; echoed in the answer.")
    strategy: str | None = Field(None, description="Answering strategy; None: the service's default.")
    market: str | None = Field(
        None, description="Answer from this market's products and prices only; None: the service's default."
    )
    names: Names | None = Field(
        None, description="What answers name: products, product ranges, or auto; None: the service's default."
    )


class AskBatchRequest(BaseModel):
    """Several questions, answered together (each may set its own strategy, market and names)."""

    model_config = ConfigDict(extra="forbid")

    questions: list[AskRequest] = Field(..., min_length=1, description="The questions, answered in this order.")


class AskReply(AnswerRecord):
    """The answer record, and how many questions shared its engine call."""

    batch_size: int = Field(1, description="Questions answered in the same engine call as this one.")


class AskBatchReply(BaseModel):
    answers: list[AskReply] = Field(..., description="One answer per question, in the order asked.")


class ErrorReply(BaseModel):
    error: str = Field(..., description="What was wrong with the request, or why it was not answered.")


class Info(BaseModel):
    index: str = Field(..., description="The index folder served.")
    strategy: str = Field(..., description="The default strategy.")
    strategies: list[str] = Field(..., description="Strategies a request may name.")
    markets: list[str] = Field(..., description="Markets a request may name (the index's).")
    sparql_endpoint: bool = Field(..., description="Whether POST /sparql is offered.")


class Health(BaseModel):
    status: Literal["ok"] = Field("ok", description="'ok' once the replica's engine is open.")
    uptime_s: float = Field(..., description="Seconds since this replica opened its engine.")


class Percentiles(BaseModel):
    p50: float | None = None
    p90: float | None = None
    p99: float | None = None
    max: float | None = None


class Stats(BaseModel):
    """Counts since start and summaries over the latest requests, over all replicas."""

    replicas: int = Field(..., description="Replicas that have reported.")
    requests: int = Field(..., description="Requests answered or refused since start (all routes).")
    questions: int = Field(..., description="Questions answered since start.")
    errors: int = Field(..., description="Answers with an error record (the engine could not answer).")
    status_counts: dict[str, int] = Field(..., description="Requests per HTTP status.")
    latency_ms: Percentiles = Field(..., description="Request latency over the window, in milliseconds.")
    batch_size: Percentiles = Field(..., description="Questions per engine call over the window.")
    batches: int = Field(..., description="Engine calls since start.")
    mean_batch_size: float | None = Field(None, description="Mean questions per engine call since start.")
    window: int = Field(..., description="Requests the percentiles are taken over.")


class SparqlRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(
        ...,
        description="A SPARQL 1.1 SELECT or ASK query (no updates, SERVICE calls or CONSTRUCT); skg: skgt: rdf: rdfs: xsd: are predeclared.",
    )


class SparqlReply(BaseModel):
    head: dict[str, Any] = Field(default_factory=dict, description="SPARQL JSON results 'head' (variables).")
    results: dict[str, Any] | None = Field(None, description="SELECT: the bindings, as SPARQL JSON results.")
    boolean: bool | None = Field(None, description="ASK: the answer.")
    truncated: bool = Field(False, description="The rows were cut at the service's row cap.")
