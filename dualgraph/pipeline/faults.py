"""Named points of an index run where a test can kill the process: fault injection, not timing.

``DUALGRAPH_KILL_AT=load`` kills the process with SIGKILL the first time the run reaches
the ``load`` point; ``load#3`` the third time. SIGKILL leaves exactly what a power cut or
an out-of-memory kill leaves (no ``finally``, no flush), so a test that kills at every
point and then re-runs proves the run resumes to the store a clean run builds.
"""

from __future__ import annotations

import os
import signal

ENV = "DUALGRAPH_KILL_AT"

KILL_POINTS: dict[str, str] = {
    "scan": "the dataset is scanned; nothing is written yet",
    "read": "inside the read stage, before a document is read",
    "convert": "inside the convert stage, before a document is converted",
    "reconcile": "after a document graph the state does not account for is dropped",
    "drop": "after one changed or removed document's graph is dropped, before the state forgets it",
    "forget": "after the state forgot the changed and removed documents",
    "load": "after a bulk-load pass, before the journal records its documents",
    "record": "after the journal recorded a loaded pass",
    "catalog": "after the catalog facts are derived, before the rules",
    "rules": "after the rules ran, before the view is marked fresh",
    "tkg": "after the Textual KG is built, before it is marked fresh",
    "patterns": "after the pattern index is built, before it is marked fresh",
    "lexicon": "after the views before it are marked fresh, before the prose lexicon is mined",
    "checkpoint": "before the state checkpoint",
    "manifest": "after the checkpoint, before the manifest is written",
}

_hits: dict[str, int] = {}


def fault_point(name: str) -> None:
    """Kill this process here if ``DUALGRAPH_KILL_AT`` names this point (and its hit count)."""
    spec = os.environ.get(ENV)
    if not spec:
        return
    point, _, nth = spec.partition("#")
    if point != name:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGKILL)
