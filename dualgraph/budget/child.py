"""The child's side of a budgeted worker (``python -m dualgraph.budget.child FD NAME``).

It reads an opener from the socket ``FD``, builds its object, says ``ready`` (or ``failed`` with
the error), then answers ``call`` messages one at a time until ``close`` or until the socket
closes. Each reply says whether a store query the call gave up on is still running in a
background thread (Oxigraph's timeout stops a query only between rows), so that the parent ends
the child rather than let the work go on. A watch thread ends the child when its parent goes.
Ctrl-C is the parent's to handle: the child ignores SIGINT.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

STRAY_THREADS = ("oxigraph-query",)
"""Names of the threads that run store queries; one alive after a call means work still going."""


class RemoteError(RuntimeError):
    """An error raised in the worker that could not be sent back as itself."""


def _portable(error: BaseException) -> BaseException:
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RemoteError(f"{type(error).__name__}: {error}")


def _stray(grace_s: float = 0.05) -> bool:
    """Whether a store query thread outlived its call (given ``grace_s`` to notice its stop flag)."""
    end = time.monotonic() + grace_s
    while True:
        alive = [t for t in threading.enumerate() if t.name in STRAY_THREADS and t.is_alive()]
        if not alive:
            return False
        left = end - time.monotonic()
        if left <= 0:
            return True
        alive[0].join(left)


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)  # the parent went away: nobody will read what this child does

    threading.Thread(target=watch, name="budget-parent-watch", daemon=True).start()


def serve(conn: Connection) -> None:
    try:
        opener = conn.recv()
    except EOFError:
        return
    try:
        host: Any = opener()
    except BaseException as e:
        conn.send(("failed", _portable(e)))
        return
    conn.send(("ready", None))
    try:
        while True:
            try:
                message = conn.recv()
            except EOFError:
                return
            if message[0] == "close":
                return
            _, method, args, kwargs = message
            try:
                reply: tuple = ("ok", getattr(host, method)(*args, **kwargs))
            except Exception as e:
                reply = ("raised", _portable(e))
            dirty = _stray()
            try:
                conn.send((*reply, dirty))
            except Exception as e:  # the value would not pickle: say so instead
                conn.send(("raised", RemoteError(f"the reply could not be sent: {type(e).__name__}: {e}"), dirty))
    finally:
        close = getattr(host, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    fd = int(argv[1])
    _watch_parent(os.getppid())
    conn = Connection(fd)
    try:
        serve(conn)
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
