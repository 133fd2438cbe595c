"""An answering engine whose questions run in a budgeted worker: what ``DualGraph.ask``, bulk runs and
the server answer with (unless ``AskConfig.budget.isolate`` is off).

:class:`IsolatedEngine` has the engine's batch call (``answer_batch``), so bulk answering and the
server use it as they would a :class:`~dualgraph.answer.engine.QAEngine`. One engine call is one
unit of work under ``AskConfig.budget``: a batch that runs past the deadline or the memory budget
is answered again one question at a time, each with a budget of its own, so that the question at
fault is found and the others are answered. A single question past its budget gets an error
record naming the budget (``over_budget``: ``"deadline"`` or ``"memory"``); the worker that ran it
was killed, and the next call starts a fresh one (seconds: the engine opens again).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from dualgraph.answer.record import AnswerRecord, error_record
from dualgraph.budget import Abandoned, OverBudget, WorkerDied
from dualgraph.budget.hosts import EngineOpener
from dualgraph.budget.worker import BudgetedWorker
from dualgraph.query.caps import DEADLINE, MEMORY

if TYPE_CHECKING:
    from dualgraph.answer.engine import EngineSpec

__all__ = ["Flag", "IsolatedEngine", "IsolatedEngineFactory", "over_budget_record"]


class Flag(Protocol):
    """Something that says whether a question's asker has gone (a :class:`threading.Event`)."""

    def is_set(self) -> bool: ...


ABANDONED = "abandoned: the request ended (its timeout passed) before the question was answered"

GONE_TOGETHER_S = 0.25
"""Once one asker of a running batch has gone, how long the call waits for others to go too before it
is stopped: requests batched together reach their timeouts within a few milliseconds of each other,
and one stop for them all (or, when every one has gone, no answering again) is cheaper than a fresh
worker for each."""


class _Gone:
    """Whether a running call should stop for its askers: all of them gone, or some gone for
    :data:`GONE_TOGETHER_S` (the ones still waiting are then answered by a call of their own)."""

    def __init__(self, flags: Sequence[Flag]) -> None:
        self.flags = list(flags)
        self.since: float | None = None

    def __call__(self) -> bool:
        gone = sum(g.is_set() for g in self.flags)
        if gone == len(self.flags):
            return True
        if not gone:
            return False
        if self.since is None:
            self.since = time.monotonic()
        return time.monotonic() - self.since >= GONE_TOGETHER_S


def over_budget_record(qid: str, question: str, strategy: str, error: OverBudget, latency_s: float) -> AnswerRecord:
    """The error record of a question stopped past a budget.

    >>> from dualgraph.budget import MemoryExceeded
    >>> r = over_budget_record("7", "q?", "skg", MemoryExceeded("the question", 1024, used_mb=1030), 2.5)
    >>> r.over_budget, r.error
    ('memory', 'over budget (memory): the question used more than its memory budget of 1024 MB (1030 MB over its start) and was stopped')
    >>> [(c.name, c.limit, c.unit) for c in r.caps]
    [('memory_mb', 1024, 'MB')]
    """
    cap = MEMORY if error.budget == "memory" else DEADLINE
    hit = cap.hit(error.limit, "the question's work was stopped there: no answer", lowered=True)
    return error_record(
        qid,
        question,
        strategy,
        f"over budget ({error.budget}): {error}",
        latency_s=latency_s,
        over_budget=error.budget,
        caps=[hit],
    )


class IsolatedEngine:
    """``spec``'s engine in a :class:`~dualgraph.budget.worker.BudgetedWorker`, under ``spec.config.budget``.

    ``prepare``: the worker does the engine's per-index work when it opens (bulk runs, the
    server); without it, the first questions do what they need of it, within their budget, and
    every worker after a kill prepares at open. ``respawn``: after a kill, open the next worker at once (``"eager"``) or on the next
    question (``"lazy"``). Opening is deferred to the first question unless :meth:`open` is called.
    ``opener``: what the worker serves, in place of ``spec``'s engine (anything picklable whose
    result has ``answer_batch(items, strategy)``: tests use a stand-in).
    """

    store = None  # a user's SPARQL goes to a query worker of its own, never to the engine's store

    def __init__(
        self,
        spec: EngineSpec,
        *,
        prepare: bool = False,
        respawn: Literal["eager", "lazy"] = "lazy",
        opener: Callable[[], Any] | None = None,
    ) -> None:
        self.spec = spec
        self.config = spec.config
        budget = spec.config.budget
        self.worker = BudgetedWorker(
            opener if opener is not None else EngineOpener(spec, prepare),
            name="engine",
            respawn=respawn,
            open_timeout_s=budget.open_timeout_s,
            check_every_s=budget.check_every_s,
        )

    def open(self) -> IsolatedEngine:
        """Start the worker and wait until its engine is open (raises what opening raised)."""
        self.worker.wait_ready()
        return self

    def prepare(self) -> IsolatedEngine:
        """Do the engine's per-index work now (in the worker)."""
        budget = self.config.budget
        self.worker.call("prepare", deadline_s=budget.open_timeout_s, memory_mb=None, what="preparing the engine")
        return self

    def answer(self, question: str, *, strategy: str | None = None, qid: str = "0") -> AnswerRecord:
        return self.answer_batch([(qid, question)], strategy=strategy)[0]

    def answer_batch(
        self,
        items: list[tuple[str, str]],
        *,
        strategy: str | None = None,
        gone: Sequence[Flag] | None = None,
    ) -> list[AnswerRecord]:
        """One record per ``(id, question)``, in order, as :meth:`QAEngine.answer_batch
        <dualgraph.answer.engine.QAEngine.answer_batch>`, each question's work bounded by the budget.

        ``gone``: one flag per item, set when nobody waits for that answer any more (a request past
        its timeout), so that its work ends then: a question whose flag is set is not started; a
        call is stopped once every flag of it is set, or once some are and have been for
        :data:`GONE_TOGETHER_S`: then those questions get the abandoned record and the others are
        answered again, as one smaller batch under a budget of its own (the worker that ran the
        stopped call is replaced, as after any stop).
        """
        name = strategy or self.config.strategy
        items = list(items)
        if not items:
            return []
        if gone is not None and any(g.is_set() for g in gone):
            return self._without_gone(items, name, gone)
        budget = self.config.budget
        single = len(items) == 1
        what = "the question" if single else f"the batch of {len(items)} questions"
        t0 = time.perf_counter()
        try:
            return self.worker.call(
                "answer_batch",
                items,
                name,
                deadline_s=budget.deadline_s,
                memory_mb=budget.memory_mb,
                what=what,
                cancelled=_Gone(gone) if gone is not None else None,
            )
        except OverBudget as e:
            self._prepare_next()
            if single:
                return [over_budget_record(items[0][0], items[0][1], name, e, time.perf_counter() - t0)]
        except Abandoned:
            assert gone is not None  # only a call that can be cancelled is abandoned
            if all(g.is_set() for g in gone):
                return [error_record(q, text, name, ABANDONED) for q, text in items]
            self._prepare_next()
            return self._without_gone(items, name, gone)
        except WorkerDied as e:
            self._prepare_next()
            if single:
                return [error_record(items[0][0], items[0][1], name, e, latency_s=time.perf_counter() - t0)]
        # the batch as a whole went past a budget (or took its worker down): each question alone
        out: list[AnswerRecord] = []
        for i, item in enumerate(items):
            out += self.answer_batch([item], strategy=name, gone=[gone[i]] if gone is not None else None)
        return out

    def _without_gone(self, items: list[tuple[str, str]], name: str, gone: Sequence[Flag]) -> list[AnswerRecord]:
        """The abandoned record for each question whose asker has gone, the others answered (one
        batch, flags kept), in order."""
        flags = list(gone)
        kept = [i for i, g in enumerate(flags) if not g.is_set()]
        answered = iter(
            self.answer_batch([items[i] for i in kept], strategy=name, gone=[flags[i] for i in kept]) if kept else []
        )
        wanted = set(kept)
        return [
            next(answered) if i in wanted else error_record(q, text, name, ABANDONED)
            for i, (q, text) in enumerate(items)
        ]

    def _prepare_next(self) -> None:
        """After a kill, the next worker does the engine's per-index work when it opens: an engine
        opened lazily does it in its first questions, inside their budget, where on a large catalog it
        could be what ran the budget out (and would again, in every fresh worker)."""
        opener = self.worker.opener
        if isinstance(opener, EngineOpener) and not opener.prepare:
            self.worker.opener = EngineOpener(opener.spec, prepare=True)

    def close(self) -> None:
        self.worker.close()

    def __enter__(self) -> IsolatedEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class IsolatedEngineFactory:
    """A picklable recipe of a prepared :class:`IsolatedEngine` whose worker restarts eagerly: what
    bulk answering hands its runner (each Ray actor, or the inline runner, makes one)."""

    spec: EngineSpec

    def __call__(self) -> IsolatedEngine:
        return IsolatedEngine(self.spec, prepare=True, respawn="eager").open()
