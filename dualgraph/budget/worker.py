"""The parent's side of a budgeted worker: a child process holding one opened object (an engine, a
store) that runs one call at a time, each watched and killed past its deadline or memory budget.

The child is ``python -m dualgraph.budget.child`` started with :mod:`subprocess` (not
:mod:`multiprocessing`: nothing of the caller's main module is imported again, which matters in
a Ray worker or a Serve replica), talking over a socket pair with pickled messages. It is sent an
*opener*, a picklable callable (say an :class:`~dualgraph.answer.engine.EngineSpec`) that builds
the object it serves; each :meth:`BudgetedWorker.call` then names one of that object's methods.

While a call runs, this process polls the socket and, every ``check_every_s``, the deadline and
the child's private memory (resident pages less file-backed ones, from ``/proc``): past either,
the child gets SIGKILL, is reaped, and the call raises :class:`~dualgraph.budget.DeadlineExceeded`
or :class:`~dualgraph.budget.MemoryExceeded`. A child that, between calls, holds more than one
memory budget over what it held once open (calls each within budget that kept what they took) is
replaced after the call that brought it there. The next call starts a fresh child (``respawn="eager"``
starts it at once, so it opens while nothing waits). A child whose call left a store query
running in a background thread (a timed-out sort keeps going) says so in its reply, and is
replaced the same way: no work outlives the call that started it. The child also ends by itself
when this process goes away.

>>> from dualgraph.budget import DeadlineExceeded
>>> w = BudgetedWorker(_Sleeper, name="doc")
>>> w.call("nap", 0.0, deadline_s=10, memory_mb=None)
'rested 0.0 s'
>>> try:
...     w.call("nap", 30.0, deadline_s=0.5, memory_mb=None)
... except DeadlineExceeded as e:
...     print(e)
the call timed out at its deadline of 0.5 s and was stopped
>>> w.call("nap", 0.0, deadline_s=10, memory_mb=None)  # a fresh child
'rested 0.0 s'
>>> w.close()
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

from dualgraph.budget import Abandoned, DeadlineExceeded, MemoryExceeded, WorkerDied

__all__ = ["BudgetedWorker", "private_memory"]

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_MB = 1 << 20


def private_memory(pid: int) -> int | None:
    """Bytes of a process's resident memory that are not file-backed (``/proc/PID/statm``: resident
    less shared), i.e. what it allocated itself; None when it cannot be read (gone, or no ``/proc``).

    >>> private_memory(os.getpid()) > 0
    True
    """
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            fields = f.read().split()
        return (int(fields[1]) - int(fields[2])) * _PAGE
    except (OSError, IndexError, ValueError):
        return None


class _Sleeper:
    """A tiny host for the doctest above: what a worker serves can be any picklable opener's result."""

    def nap(self, seconds: float) -> str:
        time.sleep(seconds)
        return f"rested {seconds} s"


class BudgetedWorker:
    """One child process serving ``opener()``'s object; calls run one at a time, each under a budget.

    ``name``: says what the worker is for in messages and in the child's process title.
    ``respawn``: after a kill, start the next child at once (``"eager"``: a server, a bulk run) or
    on the next call (``"lazy"``). ``open_timeout_s``: how long a child may take to open. Thread
    safe: concurrent callers wait their turn.
    """

    def __init__(
        self,
        opener: Callable[[], Any],
        *,
        name: str = "worker",
        respawn: Literal["eager", "lazy"] = "lazy",
        open_timeout_s: float = 900.0,
        check_every_s: float = 0.02,
    ) -> None:
        self.opener, self.name, self.respawn = opener, name, respawn
        self.open_timeout_s, self.check_every_s = open_timeout_s, check_every_s
        self._proc: subprocess.Popen | None = None
        self._conn: Connection | None = None
        self._ready = False
        self._opened_mem = 0  # the child's private memory once open: the baseline its idle size is held to
        self._lock = threading.RLock()
        self._closed = False
        self.kills = 0  # children killed for a budget (or a stray query), over this worker's life

    # -- life -----------------------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether a child is running now (opening or ready)."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def start(self) -> None:
        """Start a child if none runs; returns at once (the child opens in the background)."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.name} worker is closed")
            if self.started:
                return
            self._discard()
            ours, theirs = socket.socketpair()
            env = dict(os.environ)
            root = str(Path(__file__).resolve().parents[2])  # the folder holding this dualgraph package
            env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
            try:
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "dualgraph.budget.child", str(theirs.fileno()), self.name],
                    pass_fds=(theirs.fileno(),),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,  # the caller's stdout is its own (JSON on a pipe, say)
                    env=env,
                    close_fds=True,
                )
            finally:
                theirs.close()
            self._conn = Connection(ours.detach())
            self._ready = False
            try:
                self._conn.send(self.opener)
            except Exception:
                self._discard()
                raise

    def wait_ready(self) -> None:
        """Start a child if needed and wait until it has opened; raises what opening raised there."""
        with self._lock:
            self.start()
            if self._ready:
                return
            conn, proc = self._conn, self._proc
            assert conn is not None and proc is not None
            end = time.monotonic() + self.open_timeout_s
            try:
                while not conn.poll(min(1.0, max(0.0, end - time.monotonic()))):
                    if proc.poll() is not None:
                        break
                    if time.monotonic() >= end:
                        self._kill()
                        raise WorkerDied(f"the {self.name} worker did not open within {self.open_timeout_s:g} s")
            except (KeyboardInterrupt, SystemExit):
                self._kill()
                raise
            message = self._receive()
            if message[0] == "failed":
                self._discard()
                raise message[1]
            self._ready = True
            self._opened_mem = private_memory(proc.pid) or 0

    def close(self) -> None:
        """Stop the child (asked to close first, killed if it does not within 2 s). Idempotent."""
        with self._lock:
            self._closed = True
            proc, conn = self._proc, self._conn
            if proc is not None and proc.poll() is None and conn is not None and self._ready:
                try:
                    conn.send(("close",))
                    proc.wait(2.0)
                except (OSError, subprocess.TimeoutExpired):
                    pass
            self._kill()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown: best effort
            self._kill()

    # -- calls ------------------------------------------------------------------------------------------

    def call(
        self,
        method: str,
        *args: Any,
        deadline_s: float | None,
        memory_mb: float | None,
        what: str = "the call",
        cancelled: Callable[[], bool] | None = None,
        **kwargs: Any,
    ) -> Any:
        """``method(*args, **kwargs)`` on the child's object, under ``deadline_s`` seconds and
        ``memory_mb`` megabytes over the child's private memory at the start (None: no limit).

        Raises :class:`~dualgraph.budget.DeadlineExceeded` or :class:`~dualgraph.budget.MemoryExceeded`
        (``what`` names the work in their message) after killing the child, :class:`~dualgraph.budget.Abandoned`
        when ``cancelled()`` turned true (checked as often as the budget), :class:`~dualgraph.budget.WorkerDied`
        when the child ended on its own, and what the method raised otherwise.
        """
        with self._lock:
            self.wait_ready()
            conn, proc = self._conn, self._proc
            assert conn is not None and proc is not None
            start_mem = private_memory(proc.pid) or 0
            limit = start_mem + memory_mb * _MB if memory_mb is not None else None
            t0 = time.monotonic()
            try:
                conn.send(("call", method, args, kwargs))
                while True:
                    waited = time.monotonic() - t0
                    wait = self.check_every_s if deadline_s is None else min(self.check_every_s, deadline_s - waited)
                    if conn.poll(max(0.0, wait)):
                        break
                    if proc.poll() is not None:
                        break  # _receive says how it ended
                    if deadline_s is not None and time.monotonic() - t0 >= deadline_s:
                        self._stopped()
                        raise DeadlineExceeded(what, deadline_s)
                    used = private_memory(proc.pid)
                    if limit is not None and used is not None and used > limit:
                        self._stopped()
                        raise MemoryExceeded(what, memory_mb or 0, used_mb=(used - start_mem) // _MB)
                    if cancelled is not None and cancelled():
                        self._stopped()
                        raise Abandoned(f"{what} was abandoned by everyone waiting for it; its work was stopped")
            except (KeyboardInterrupt, SystemExit):
                self._kill()  # its reply would answer the next call: the child goes with the call
                raise
            kind, value, dirty = self._receive()
            held = private_memory(proc.pid)
            if dirty:  # a store query the call gave up on still runs in the child: end it with the child
                self._stopped()
            elif memory_mb is not None and held is not None and held > self._opened_mem + memory_mb * _MB:
                # calls within their budget each, but the child keeps what they took (a leak, a cache, an
                # allocator that does not give back): replaced before it holds more than one budget over its open
                self._stopped()
            if kind == "raised":
                raise value
            return value

    # -- internals ----------------------------------------------------------------------------------------

    def _receive(self) -> tuple:
        conn, proc = self._conn, self._proc
        assert conn is not None and proc is not None
        try:
            return conn.recv()
        except (EOFError, OSError):
            code = proc.wait()
            self._discard()
            how = f"signal {-code}" if code < 0 else f"exit status {code}"
            raise WorkerDied(f"the {self.name} worker ended without answering ({how})") from None

    def _stopped(self) -> None:
        """A unit ran past its budget: the child goes now, and (eager) the next one starts."""
        self.kills += 1
        self._kill()
        if self.respawn == "eager" and not self._closed:
            try:
                self.start()
            except OSError:  # the next call tries again
                self._discard()

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(OSError):
                proc.send_signal(signal.SIGKILL)
            proc.wait()  # reaped: its memory is the system's again
        self._discard()

    def _discard(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
        self._conn, self._proc, self._ready = None, None, False

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("running" if self.started else "not started")
        return f"BudgetedWorker({self.name!r}, {state}, pid={self.pid})"
