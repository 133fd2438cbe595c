"""A circuit breaker for remote stores: stop calling a server that keeps failing, then probe it.

Retries (:mod:`dualgraph.stores.retry`) help one request through a blip. When a server is
down for minutes, though, every request would spend its whole retry budget before failing,
and a busy answer service would pile up threads doing so. The breaker counts consecutive
transient failures across all requests of a store; after ``failures`` of them it *opens*:
calls fail at once with :class:`StoreDown`, naming the URL and how long it has been failing.
Once ``cooldown_s`` has passed it lets one call through as a probe (*half-open*): success
closes it, failure opens it for another cool-down.

>>> clock = [0.0]
>>> b = CircuitBreaker(failures=2, cooldown_s=10, clock=lambda: clock[0])
>>> b.before("http://x/sparql"); b.failed("http://x/sparql", "HTTP 503")
>>> b.state
'closed'
>>> b.failed("http://x/sparql", "HTTP 503")
>>> b.state
'open'
>>> try:
...     b.before("http://x/sparql")
... except StoreDown as e:
...     print(e)
SPARQL server at http://x/sparql is down: 2 transient failures in a row over 0.0 s (last: HTTP 503); not calling it for another 10.0 s
>>> clock[0] = 11.0
>>> b.before("http://x/sparql"); b.state   # the probe goes through
'half-open'
>>> b.succeeded(); b.state
'closed'
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dualgraph.stores.base import StoreError


class StoreDown(StoreError):
    """The circuit breaker is open: the server failed too often in a row, so it is not called."""


@dataclass
class CircuitBreaker:
    """Counts consecutive transient failures of one store's server and fails fast while it is down.

    Thread-safe: parallel loads and concurrent answer requests share one breaker.
    """

    failures: int = 8
    """Consecutive transient failures (each failed attempt, retries included) that open the circuit."""
    cooldown_s: float = 30.0
    """How long an open circuit refuses calls before letting one probe through."""
    clock: Callable[[], float] = time.monotonic
    """Time source, replaceable in tests."""
    _streak: int = field(default=0, init=False)
    _since: float | None = field(default=None, init=False)
    _opened: float | None = field(default=None, init=False)
    _probing: bool = field(default=False, init=False)
    _last: str = field(default="", init=False)
    _url: str = field(default="", init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.failures < 1 or self.cooldown_s <= 0:
            raise ValueError(f"a circuit breaker needs failures >= 1 and cooldown_s > 0, got {self}")

    @property
    def state(self) -> str:
        """``closed`` (calls go through), ``open`` (calls fail fast) or ``half-open`` (one probe out)."""
        with self._lock:
            if self._opened is None:
                return "closed"
            return "half-open" if self._probing else "open"

    def before(self, url: str) -> None:
        """Called before each attempt; raises :class:`StoreDown` while the circuit is open."""
        with self._lock:
            if self._opened is None:
                return
            now = self.clock()
            left = self._opened + self.cooldown_s - now
            # During a probe other callers still fail fast: one request tells us as much as many.
            if left > 0 or self._probing:
                raise StoreDown(self._message(url, now, max(left, 0.0)))
            self._probing = True

    def succeeded(self) -> None:
        """The server answered (any answer, even an error of the request's own making): close."""
        with self._lock:
            self._streak, self._since, self._opened, self._probing = 0, None, None, False

    def failed(self, url: str, why: object) -> None:
        """One transient failure (refused, reset, timed out, 5xx that says "not now")."""
        with self._lock:
            now = self.clock()
            self._streak += 1
            self._last, self._url = str(why), url
            if self._since is None:
                self._since = now
            if self._probing or self._streak >= self.failures:
                self._opened, self._probing = now, False

    def _message(self, url: str, now: float, left: float) -> str:
        since = now - (self._since if self._since is not None else now)
        where = self._url or url
        state = "a probe is under way" if self._probing else f"not calling it for another {left:.1f} s"
        return (
            f"SPARQL server at {where} is down: {self._streak} transient failures in a row over "
            f"{since:.1f} s (last: {self._last}); {state}"
        )
