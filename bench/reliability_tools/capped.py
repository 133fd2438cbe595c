"""Questions answered in a child process under a memory cap and a deadline, one at a time.

The child opens the index once (:class:`~dualgraph.DualGraph`, as ``dualgraph ask`` does) and
answers what it is sent, one JSON line each way. The parent watches the child's resident memory
every 20 ms: past ``cap_mb`` above what the child held once the index was open, or past
``deadline_s`` on one question, the child is killed (SIGKILL) and the question recorded so; the
next question gets a fresh child. No question is ever run unbounded: a runaway one costs at most
the cap plus what it grows in 20 ms, on a machine of any size.

``prefix`` runs the child under another command (``setpriv ...``: an unprivileged reader).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

_WORKER = r"""
import json, sys, time
from dualgraph import DualGraph
graph = DualGraph.open(sys.argv[1])
graph.prepare()
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    t0 = time.perf_counter()
    try:
        if req["kind"] == "ask":
            r = graph.ask(req["text"])
            out = {"answer": r.answer_list, "confidence": r.evidence.confidence, "error": r.error,
                   "answer_text": r.answer[:200]}
        elif req["kind"] == "search":
            out = {"answer": graph.search(req["text"]).products}
        elif req["kind"] == "sparql":
            out = {"rows": len(graph.sparql(req["text"])["results"]["bindings"])}
        else:
            from dualgraph.cli import main
            out = {"exit": main(["check", "--index", sys.argv[1], "--problems"])}
    except Exception as e:  # reported, never a traceback on the parent's screen
        out = {"crash": f"{type(e).__name__}: {str(e)[:300]}"}
    out["seconds"] = round(time.perf_counter() - t0, 3)
    print(json.dumps(out), flush=True)
"""


@dataclass
class Outcome:
    text: str
    kind: str
    status: str  # "done", "over the cap", "past the deadline", "child died"
    peak_mb: float
    seconds: float
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def bounded(self) -> bool:
        return self.status == "done" and "crash" not in self.result


class CappedAsker:
    """Answer questions about ``index`` in a child under ``cap_mb`` (above the open index) and ``deadline_s``."""

    def __init__(
        self,
        index: Path,
        *,
        cap_mb: float = 1024,
        deadline_s: float = 60,
        open_timeout_s: float = 300,
        prefix: list[str] | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.index, self.cap_mb, self.deadline_s = index, cap_mb, deadline_s
        self.open_timeout_s = open_timeout_s
        self.prefix = prefix or []
        root = str(Path(__file__).resolve().parents[2])
        base = env or os.environ
        self.env = {**base, "PYTHONPATH": os.pathsep.join([root, base.get("PYTHONPATH", "")])}
        self.proc: subprocess.Popen[str] | None = None
        self.baseline_mb = 0.0
        self.starts = 0
        self.open_seconds: list[float] = []

    def _start(self) -> None:
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [*self.prefix, sys.executable, "-c", _WORKER, str(self.index)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=self.env,
        )
        self.starts += 1
        # opening the index is not a question: it is bounded by the same cap over a fixed 1.5 GB
        line, _, _ = self._read(open_cap_mb=1536 + self.cap_mb, deadline_s=self.open_timeout_s)
        if line is None or not json.loads(line).get("ready"):
            self.close()
            raise RuntimeError(f"the answering child did not open {self.index}")
        self.baseline_mb = _rss_mb(self.proc.pid)
        self.open_seconds.append(round(time.perf_counter() - t0, 1))

    def _read(self, *, open_cap_mb: float | None = None, deadline_s: float) -> tuple[str | None, float, str]:
        """One line from the child while watching it: (line or None, peak MB, why it stopped)."""
        assert self.proc is not None and self.proc.stdout is not None
        cap = open_cap_mb if open_cap_mb is not None else self.baseline_mb + self.cap_mb
        peak, start = 0.0, time.monotonic()
        while True:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.02)
            if ready:
                line = self.proc.stdout.readline()
                return (line or None), max(peak, _rss_mb(self.proc.pid)), "done" if line else "child died"
            rss = _rss_mb(self.proc.pid)
            peak = max(peak, rss)
            if self.proc.poll() is not None:
                return None, peak, "child died"
            if rss > cap:
                self.close()
                return None, peak, "over the cap"
            if time.monotonic() - start > deadline_s:
                self.close()
                return None, peak, "past the deadline"

    def ask(self, text: str, kind: str = "ask") -> Outcome:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        t0 = time.perf_counter()
        self.proc.stdin.write(json.dumps({"kind": kind, "text": text}) + "\n")
        self.proc.stdin.flush()
        line, peak, status = self._read(deadline_s=self.deadline_s)
        seconds = round(time.perf_counter() - t0, 2)
        result = json.loads(line) if line else {}
        return Outcome(text, kind, status, round(peak - self.baseline_mb, 1), seconds, result)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()

    def __enter__(self) -> CappedAsker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _rss_mb(pid: int) -> float:
    try:
        return psutil.Process(pid).memory_info().rss / 2**20
    except psutil.Error:
        return 0.0


@dataclass
class Run:
    """How a command run under :func:`run_capped` ended."""

    status: str  # "ended", "over the cap", "past the deadline"
    returncode: int | None
    peak_mb: float
    seconds: float
    stdout: str
    stderr: str


def run_capped(cmd: list[str], *, cap_mb: float, deadline_s: float, env: dict[str, str] | None = None) -> Run:
    """Run ``cmd`` watching its resident memory every 20 ms; killed past ``cap_mb`` or ``deadline_s``."""
    t0 = time.monotonic()
    with subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace"
    ) as proc:
        out: list[str] = []
        err: list[str] = []
        readers = [
            threading.Thread(target=lambda: out.append(proc.stdout.read() if proc.stdout else ""), daemon=True),
            threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else ""), daemon=True),
        ]
        for r in readers:
            r.start()
        peak, status = 0.0, "ended"
        while proc.poll() is None:
            peak = max(peak, _rss_mb(proc.pid))
            if peak > cap_mb:
                status = "over the cap"
                proc.kill()
            elif time.monotonic() - t0 > deadline_s:
                status = "past the deadline"
                proc.kill()
            time.sleep(0.02)
        for r in readers:
            r.join(10)
    return Run(status, proc.returncode, round(peak, 1), round(time.monotonic() - t0, 2), "".join(out), "".join(err))
