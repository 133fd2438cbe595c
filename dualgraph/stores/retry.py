"""Retries for remote stores: exponential backoff with jitter, inside a time budget.

Only :class:`Transient` failures are retried (refused or reset connections, timeouts,
HTTP 429/502/503/504); anything else is an answer, and asking again would not change it.

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
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from dualgraph.stores.base import QueryTimeout, StoreError

T = TypeVar("T")

TRANSIENT_HTTP = frozenset({429, 502, 503, 504})
"""Statuses that say "not now" rather than "no": rate limits and a gateway's lost upstream."""


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


def with_retries(policy: RetryPolicy, what: str, attempt: Callable[[], T]) -> T:
    """``attempt()``, again after each :class:`Transient` failure while the policy allows.

    The final :class:`StoreError` names ``what`` (say, "query at URL"), the attempts made,
    the time spent and the last failure.
    """
    start = time.monotonic()
    tries = 0
    while True:
        tries += 1
        try:
            return attempt()
        except Transient as e:
            last = e
        elapsed = time.monotonic() - start
        step = policy.backoff_s * 2 ** (tries - 1)
        wait = step / 2 + random.uniform(0, step / 2)  # jitter: clients that failed together spread out
        if tries >= policy.attempts or elapsed + wait >= policy.budget_s:
            error = QueryTimeout if isinstance(last, TimedOut) else StoreError
            raise error(
                f"{what} failed: {last} ({tries} attempt{'s' if tries > 1 else ''} in {elapsed:.1f} s)"
            ) from last
        time.sleep(wait)
