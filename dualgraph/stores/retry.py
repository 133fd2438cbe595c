"""Retries for remote stores: exponential backoff with jitter, inside a time budget.

Only :class:`Transient` failures are retried (refused or reset connections, timeouts,
HTTP 429/502/503/504, and a 500 whose text names a deadlock: :func:`transient_500`); anything
else is an answer, and asking again would not change it. With a
:class:`~dualgraph.stores.circuit.CircuitBreaker`, every attempt is counted by it, and an open
circuit ends the retries at once.

>>> calls = []
>>> def flaky():
...     calls.append(1)
...     if len(calls) < 3:
...         raise Transient("HTTP 503 Service Unavailable")
...     return "ok"
>>> with_retries(RetryPolicy(attempts=5, backoff_s=0.001), "query at http://x/sparql", flaky)
'ok'
>>> def down():
...     raise Transient("HTTP 503 Service Unavailable")
>>> try:
...     with_retries(RetryPolicy(attempts=2, backoff_s=0.001), "query at http://x/sparql", down)
... except StoreError as e:
...     print(str(e).split(" in ")[0])
query at http://x/sparql failed: HTTP 503 Service Unavailable (2 attempts
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from dualgraph.stores.base import QueryTimeout, StoreError

if TYPE_CHECKING:
    from dualgraph.stores.circuit import CircuitBreaker

T = TypeVar("T")

TRANSIENT_HTTP = frozenset({429, 502, 503, 504})
"""Statuses that say "not now" rather than "no": rate limits and a gateway's lost upstream."""

# A 500 from a SPARQL server is nearly always about the request: Virtuoso answers 500 for
# its SQL-level query errors (SR353 sort past the row cap, SP031 too large, ...) and
# Blazegraph for a malformed query, so retrying every 500 would send a bad query four
# times and let a single bad query trip the circuit breaker. The exception is a write that
# lost a lock race (SQL state 40001, Virtuoso's SR172 "Transaction deadlocked"), which
# parallel loads can provoke and which succeeds when sent again.
_TRANSIENT_500 = re.compile(r"\b40001\b|\bSR172\b|deadlock", re.IGNORECASE)


def transient_500(text: str) -> bool:
    """Whether the text of an HTTP 500 answer names a failure that another try may not repeat.

    >>> transient_500("Virtuoso 40001 Error SR172: Transaction deadlocked")
    True
    >>> transient_500("Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error")
    False
    """
    return _TRANSIENT_500.search(text) is not None


class Transient(Exception):
    """One failed attempt that a later one may not repeat; the message says what happened."""


class TimedOut(Transient):
    """An attempt that ran past its timeout; once out of tries it ends as :class:`QueryTimeout`."""


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How hard to try: ``attempts`` in all, the n-th wait about ``backoff_s * 2**(n-1)``.

    No attempt starts once ``budget_s`` has passed since the first, so a request that
    timed out after most of the budget is not sent again to time out once more.
    """

    attempts: int = 4
    backoff_s: float = 0.5
    budget_s: float = 30.0


def with_retries(
    policy: RetryPolicy,
    what: str,
    attempt: Callable[[], T],
    *,
    breaker: CircuitBreaker | None = None,
    url: str = "",
) -> T:
    """``attempt()``, again after each :class:`Transient` failure while the policy allows.

    The final :class:`StoreError` names ``what`` (say, "query at URL"), the attempts made,
    the time spent and the last failure. ``breaker`` (for the server at ``url``) sees every
    attempt; while it is open no attempt is made and its
    :class:`~dualgraph.stores.circuit.StoreDown` is raised instead.
    """
    start = time.monotonic()
    tries = 0
    while True:
        tries += 1
        if breaker is not None:
            breaker.before(url or what)
        try:
            result = attempt()
        except Transient as e:
            last = e
            if breaker is not None:
                breaker.failed(url or what, e)
                try:
                    breaker.before(url or what)  # this failure opened it: say "down" now, not "failed"
                except StoreError as down:
                    raise down from e
        except StoreError:
            if breaker is not None:  # the server answered, if only to refuse: it is up
                breaker.succeeded()
            raise
        else:
            if breaker is not None:
                breaker.succeeded()
            return result
        elapsed = time.monotonic() - start
        step = policy.backoff_s * 2 ** (tries - 1)
        wait = step / 2 + random.uniform(0, step / 2)  # jitter: clients that failed together spread out
        if tries >= policy.attempts or elapsed + wait >= policy.budget_s:
            error = QueryTimeout if isinstance(last, TimedOut) else StoreError
            raise error(
                f"{what} failed: {last} ({tries} attempt{'s' if tries > 1 else ''} in {elapsed:.1f} s)"
            ) from last
        time.sleep(wait)
