"""What the loopback servers the tests start have in common: wait until one answers over HTTP,
stop it by its own PID (never by name: other runs may share the machine), read its log."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


class ServerProcess:
    """Mixin for a test server: the class sets ``process`` (our child) and ``log`` (its output)."""

    process: subprocess.Popen | None
    log: Path
    stop_wait_s: float = 15.0  # how long SIGTERM gets before SIGKILL

    def wait_answering(self, url: str, *, name: str, t0: float, timeout_s: float, poll_s: float) -> None:
        """Return once ``url`` answers 200; raise with the log's tail if the process dies or time runs out."""
        while time.monotonic() - t0 < timeout_s:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"{name} exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(poll_s)
        self.stop()
        raise RuntimeError(f"{name} did not answer within {timeout_s} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """SIGTERM to our own PID, then wait; SIGKILL if it does not go."""
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=self.stop_wait_s)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return "(no log)"
