"""`dualgraph serve` stopped by SIGTERM exits and leaves none of the Ray processes it started.

The command runs in its own process group with its own Ray temp dir (RAY_TMPDIR), so the
processes examined are only those it started: its descendants, plus any process whose command
line names that temp dir (Ray's daemons carry their session dir there). Processes are read from
/proc (Linux), as psutil is not a dependency.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
import contextlib

from answer_support import catalog_index, free_port

if not Path("/proc/self/stat").is_file():
    pytest.skip("reads processes from /proc (Linux)", allow_module_level=True)
pytest.importorskip("ray.serve", reason="the `serve` extra (ray[serve]) is not installed")
pytestmark = [pytest.mark.ray, pytest.mark.network]


def _procs() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, command line) of every process still readable."""
    out = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # the name in parentheses may hold spaces
        out[int(d.name)] = (int(fields[1]), fields[0], cmd)
    return out


def _ours(pid: int, temp_dir: str) -> set[int]:
    procs = _procs()
    found = {p for p, (_, _, cmd) in procs.items() if temp_dir in cmd}
    frontier = {pid}
    while frontier:
        frontier = {p for p, (ppid, _, _) in procs.items() if ppid in frontier} - found
        found |= frontier
    return found - {os.getpid()}


def _alive(pids: set[int]) -> list[str]:
    procs = _procs()
    return [f"{p} {procs[p][2][:120]}" for p in pids if p in procs and procs[p][1] != "Z"]


def test_sigterm_stops_serve_and_every_ray_process_it_started(tmp_path_factory):
    index = catalog_index(tmp_path_factory)
    temp_dir = tempfile.mkdtemp(prefix="dgray", dir="/tmp")  # short: Ray's socket paths must fit 107 bytes
    port = free_port()
    env = {**os.environ, "RAY_TMPDIR": temp_dir, "DUALGRAPH_API_KEY": ""}
    env.pop("RAY_ADDRESS", None)  # never join a cluster already running
    proc = subprocess.Popen(
        [sys.executable, "-m", "dualgraph.cli", "serve", "--index", str(index), "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 240
        while True:
            assert proc.poll() is None, proc.stdout.read().decode(errors="replace")[-3000:]
            seen |= _ours(proc.pid, temp_dir)
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/info", timeout=5) as r:
                    assert json.loads(r.read())["index"] == str(index)
                break
            except OSError:
                assert time.monotonic() < deadline, "the service never answered"
                time.sleep(1)
        seen |= _ours(proc.pid, temp_dir)
        assert any("raylet" in line for line in _alive(seen)), _alive(seen)

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=90) == 128 + signal.SIGTERM  # unwound by our handler, not killed outright
        deadline = time.monotonic() + 30
        while _alive(seen) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _alive(seen) == []
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in seen:  # whatever a failed run left behind, only ours
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(temp_dir, ignore_errors=True)
