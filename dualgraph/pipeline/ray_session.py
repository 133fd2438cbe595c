"""Commands that start Ray leave nothing running when they end, however they end.

A local Ray is a family of processes (GCS server, raylet, the dashboard and runtime-env agents,
workers); ``ray.shutdown()`` stops the ones this process started, but only if it runs. Python's
default SIGTERM handling kills the process at once, skipping every ``finally``, so a service
stopped by ``kill`` or by a container runtime left the whole family behind. Inside
:func:`ray_session`, SIGTERM and SIGINT raise :class:`Stopped` (a ``SystemExit`` with the
shell's code for the signal) in the main thread, the block unwinds, and on leaving Ray Serve
and Ray are shut down if the block started them. The previous handlers are restored.
``ray.init`` installs a SIGTERM handler of its own; :func:`~dualgraph.pipeline.ray_logging.init_ray`
takes the signal back (:func:`reclaim_signals`).

>>> import signal
>>> before = signal.getsignal(signal.SIGTERM)
>>> with ray_session():
...     signal.getsignal(signal.SIGTERM) is before
False
>>> signal.getsignal(signal.SIGTERM) is before
True
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType

__all__ = ["Stopped", "ray_session", "reclaim_signals"]

_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopped(SystemExit):
    """The process was asked to stop (SIGTERM, SIGINT); its exit code is 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signum)


def _ray_running() -> bool:
    ray = sys.modules.get("ray")  # not imported: not started (and no need to import it to know)
    return ray is not None and ray.is_initialized()


_ACTIVE: list[int] = []  # open sessions (nesting): while any is, Ray must not keep SIGTERM to itself


def reclaim_signals() -> None:
    """Put the session's handlers back after ``ray.init``, which sets its own SIGTERM handler (one
    that exits without shutting Ray down). A no-op outside a session or the main thread."""
    if _ACTIVE and threading.current_thread() is threading.main_thread():
        for sig in _SIGNALS:
            signal.signal(sig, _raise_stopped)


@contextmanager
def ray_session() -> Iterator[None]:
    """Run the block with SIGTERM and SIGINT unwinding it; on leaving, shut down Ray Serve and Ray
    if they were started inside the block (a Ray running before it is left alone)."""
    ours = not _ray_running()
    previous = {}
    if threading.current_thread() is threading.main_thread():  # only the main thread may set handlers
        previous = {sig: signal.signal(sig, _raise_stopped) for sig in _SIGNALS}
    _ACTIVE.append(1)
    try:
        yield
    finally:
        _ACTIVE.pop()
        # a second signal while shutting down would cut the shutdown short and leave processes behind
        for sig in previous:
            signal.signal(sig, signal.SIG_IGN)
        try:
            if ours and _ray_running():
                _shutdown()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


SERVE_SHUTDOWN_S = 30.0
"""How long Serve's own shutdown may take before Ray is shut down under it."""


def _shutdown(serve_timeout_s: float = SERVE_SHUTDOWN_S) -> None:
    import ray

    if "ray.serve" in sys.modules:
        from ray import serve

        def stop_serve() -> None:
            with suppress(Exception):
                serve.shutdown()

        # the controller and proxies first, so no request lands on a dying replica; Ray itself is
        # shut down next whatever state Serve is in, and a Serve shutdown that hangs (a controller
        # retrying a replica's graceful stop) is not waited on past serve_timeout_s
        stopper = threading.Thread(target=stop_serve, name="dualgraph-serve-shutdown", daemon=True)
        stopper.start()
        stopper.join(serve_timeout_s)
    ray.shutdown()
