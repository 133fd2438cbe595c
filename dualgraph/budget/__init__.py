"""A budget on every unit of work: a question (or a batch of them) and a user's SPARQL query.

A unit of work runs in a worker process (:class:`~dualgraph.budget.worker.BudgetedWorker`)
that this process watches: the worker is killed when the unit runs past its deadline or when
its private memory (resident set less file-backed pages) grows more than its memory budget past
what it held when the unit began, and a fresh worker is started for the next unit. So a
timeout or an over-budget error means the work has ended: its CPU and memory are back within
the moment the kill takes. The store's own query timeout cannot promise that (Oxigraph checks it
between result rows, and a sort or a grouping yields none until it is done).

:class:`WorkBudget` is the setting (``AskConfig.budget``; the CLI's ``--deadline``,
``--memory-mb`` and ``--no-isolate``). Importing this module is cheap: no engine, no store.

>>> b = WorkBudget()
>>> b.deadline_s, b.memory_mb, b.isolate
(30.0, 1024, True)
>>> str(MemoryExceeded("the question", 1024, used_mb=1100))
'the question used more than its memory budget of 1024 MB (1100 MB over its start) and was stopped'
>>> DeadlineExceeded("the query", 5.0).budget
'deadline'
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dualgraph.stores.base import QueryTimeout, StoreError

__all__ = [
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MEMORY_MB",
    "Abandoned",
    "BudgetKind",
    "DeadlineExceeded",
    "MemoryExceeded",
    "OverBudget",
    "WorkBudget",
    "WorkerDied",
]

DEFAULT_DEADLINE_S = 30.0
"""Seconds a question (or a batch of them) may run by default."""

DEFAULT_MEMORY_MB = 1024
"""Megabytes a unit of work may add to its worker's private memory by default (1 GB)."""

BudgetKind = Literal["deadline", "memory"]


class WorkBudget(BaseModel):
    """The deadline and memory budget each question, batch of questions and user SPARQL query runs under."""

    model_config = ConfigDict(extra="forbid")

    isolate: bool = Field(
        True,
        description="Run questions and user SPARQL queries in a worker process that is killed at the deadline "
        "or past the memory budget (then started afresh), so no unit of work outlives its budget. False: in "
        "this process as before, where nothing but the store's own query timeouts applies (for measuring and "
        "debugging; a runaway query can then take the machine).",
    )
    deadline_s: float | None = Field(
        DEFAULT_DEADLINE_S,
        gt=0,
        description="Seconds one engine call may take: one question, or a batch of them (a batch past it is "
        "answered again one question at a time, each with this deadline). A user SPARQL query runs under its "
        "own timeout instead (`dualgraph sparql --timeout`, POST /sparql's sparql_timeout_s). None: no deadline.",
    )
    memory_mb: int | None = Field(
        DEFAULT_MEMORY_MB,
        ge=16,
        description="Megabytes of private memory (resident, less file-backed pages) a unit of work may add to "
        "its worker past what the worker held when the unit began (the opened engine or store is that "
        "baseline). None: no memory budget.",
    )
    check_every_s: float = Field(
        0.02,
        gt=0,
        le=1,
        description="How often the deadline and the worker's memory are checked while a unit runs; memory "
        "growing at 1 GB/s passes the budget by at most this many seconds' worth before the kill.",
    )
    open_timeout_s: float = Field(
        900.0,
        gt=0,
        description="Seconds a worker may take to open its engine or store (not counted in any unit's deadline); "
        "past it the worker is killed and the call fails.",
    )


class OverBudget(Exception):
    """A unit of work ran past its deadline or memory budget; its worker was killed, so the work has ended."""

    budget: BudgetKind = "deadline"

    def __init__(self, what: str, limit: float, *, used_mb: int | None = None) -> None:
        self.what, self.limit, self.used_mb = what, limit, used_mb
        super().__init__(self._text())

    def _text(self) -> str:
        return f"{self.what} ran past its budget"

    def __reduce__(self):  # keyword arguments survive pickling (a worker's error crosses a pipe)
        return (_rebuild, (type(self), self.what, self.limit, self.used_mb))


def _rebuild(cls: type[OverBudget], what: str, limit: float, used_mb: int | None) -> OverBudget:
    return cls(what, limit, used_mb=used_mb)


class DeadlineExceeded(OverBudget, QueryTimeout):
    """Past the deadline (a :class:`~dualgraph.stores.base.QueryTimeout` too: a SPARQL caller's timeout)."""

    budget: BudgetKind = "deadline"

    def _text(self) -> str:
        return f"{self.what} timed out at its deadline of {self.limit:g} s and was stopped"


class MemoryExceeded(OverBudget, StoreError):
    """Past the memory budget (a :class:`~dualgraph.stores.base.StoreError` too, for SPARQL callers)."""

    budget: BudgetKind = "memory"

    def _text(self) -> str:
        over = f" ({self.used_mb} MB over its start)" if self.used_mb is not None else ""
        return f"{self.what} used more than its memory budget of {self.limit:g} MB{over} and was stopped"


class Abandoned(Exception):
    """Everyone waiting for the unit of work gave up (a request past its timeout); its worker was killed."""


class WorkerDied(RuntimeError):
    """The worker process ended without answering (killed from outside, or crashed)."""
