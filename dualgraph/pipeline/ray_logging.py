"""Ray's own log lines stay quiet unless asked for: set ``DUALGRAPH_RAY_LOGS=1`` to see them.

Indexing and bulk answering report their progress with their own bars; Ray Data's INFO lines
("Starting execution of Dataset …", "Execution plan of Dataset …", "… execution finished"), its
progress bars (logged line by line when stdout is not a terminal), the note that they are off, and
Ray's own start-up lines would interleave with them. Quiet means:

* Ray starts with ``logging_level=WARNING`` and without forwarding the workers' output
  (``log_to_driver=False``); its note that token authentication is on (Ray's default for a local
  cluster, kept) is not printed;
* while a dataset runs (:func:`ray_data_quiet`), Ray Data's progress bars are off and its console
  handler prints warnings and errors only, but not the note that the bars are off. Its full log,
  DEBUG included, is still written to the session's ``logs/ray-data`` directory.

With ``DUALGRAPH_RAY_LOGS=1`` Ray runs as it would by default: INFO lines, the workers' output,
and Ray Data's progress bars where the caller shows progress.

>>> [ray_logs_wanted({RAY_LOGS_ENV: v}) for v in ("1", "yes", "0", "")], ray_logs_wanted({})
([True, True, False, False], False)
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

__all__ = ["RAY_LOGS_ENV", "init_ray", "ray_data_quiet", "ray_logs_wanted"]

RAY_LOGS_ENV = "DUALGRAPH_RAY_LOGS"
"""Set to 1 (or true/yes/on) to see Ray's own log lines and progress bars."""

# Ray's notes that say nothing is wrong; each matched by the start of its message.
_NOTES = (
    "Token authentication is enabled for this Ray cluster",  # the secure default, announced as a warning
    "Progress bars disabled",  # we turned them off: we show our own
)


def ray_logs_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the user asked for Ray's own log lines (``DUALGRAPH_RAY_LOGS`` in ``environ``, default
    this process's environment)."""
    value = (os.environ if environ is None else environ).get(RAY_LOGS_ENV, "")
    return value.strip().casefold() not in ("", "0", "false", "no", "off")


class _DropNotes(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.msg if isinstance(record.msg, str) else str(record.msg)
        return not msg.startswith(_NOTES)


_DROP_NOTES = _DropNotes("dualgraph")
_AUTH_LOGGER = "ray._private.authentication.authentication_token_setup"


def init_ray(address: str | None = None) -> None:
    """``ray.init`` (local Ray unless ``address``) unless Ray is running already; quiet unless asked."""
    import ray

    if ray.is_initialized():
        return
    loud = ray_logs_wanted()
    if not loud:
        auth = logging.getLogger(_AUTH_LOGGER)
        if _DROP_NOTES not in auth.filters:
            auth.addFilter(_DROP_NOTES)
    ray.init(
        address=address,
        include_dashboard=False,
        log_to_driver=loud,
        logging_level=logging.INFO if loud else logging.WARNING,
    )
    from dualgraph.pipeline.ray_session import reclaim_signals

    reclaim_signals()  # inside a ray_session, SIGTERM must shut down the Ray just started


@contextmanager
def ray_data_quiet(progress: bool = False) -> Iterator[None]:
    """Run Ray Data quietly inside the block (see the module notes); ``progress``: the caller shows
    progress, so Ray Data's own bars appear when Ray's logs are asked for. Restored on leaving."""
    import ray.data

    ctx = ray.data.DataContext.get_current()
    saved_bars = ctx.enable_progress_bars
    loud = ray_logs_wanted()
    ctx.enable_progress_bars = progress and loud
    # Ray Data configures the "ray.data" logger itself (a file handler at DEBUG, a console handler
    # at INFO): only the console is quietened, so its log files keep everything
    handlers = [] if loud else logging.getLogger("ray.data").handlers
    console = [h for h in handlers if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)]
    saved_levels = [h.level for h in console]
    for h in console:
        h.setLevel(max(h.level, logging.WARNING))
        h.addFilter(_DROP_NOTES)
    try:
        yield
    finally:
        ctx.enable_progress_bars = saved_bars
        for h, level in zip(console, saved_levels):
            h.setLevel(level)
            h.removeFilter(_DROP_NOTES)
