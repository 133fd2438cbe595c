"""Start and stop a real Oxigraph HTTP server (``oxigraph serve``, from the ``oxigraph`` PyPI
package) on loopback for tests.

Not a test module: ``conftest.py`` uses :func:`start_oxigraph_server` from a session fixture.
The server gets its own database directory and a free port on 127.0.0.1, and runs with
``--union-default-graph`` because DualGraph reads (and derives rules over) the union of
its document graphs without GRAPH clauses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from server_process import ServerProcess
from virtuoso import free_port

START_TIMEOUT_S = 30.0


def oxigraph_binary() -> str | None:
    """The ``oxigraph`` CLI next to this interpreter (the venv's), else on PATH."""
    beside = Path(sys.executable).parent / "oxigraph"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("oxigraph")


@dataclass
class OxigraphServer(ServerProcess):
    """One running ``oxigraph serve`` process and the URLs it serves."""

    root: Path
    port: int
    binary: str
    process: subprocess.Popen | None = None
    startup_s: float = 0.0
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.root / "oxigraph-serve.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def query_url(self) -> str:
        return self.base_url + "/query"

    @property
    def update_url(self) -> str:
        return self.base_url + "/update"

    @property
    def store_url(self) -> str:
        """Graph Store Protocol endpoint; a POST of N-Quads here adds to the whole dataset."""
        return self.base_url + "/store"

    def start(self) -> None:
        db = self.root / "db"
        db.mkdir(parents=True, exist_ok=True)
        cmd = [self.binary, "serve", "--location", str(db), "--bind", f"127.0.0.1:{self.port}", "--union-default-graph"]
        t0 = time.monotonic()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        self._wait_ready(t0)
        self.startup_s = time.monotonic() - t0

    def _wait_ready(self, t0: float) -> None:
        url = self.query_url + "?query=ASK%7B%7D"
        self.wait_answering(url, name="oxigraph serve", t0=t0, timeout_s=START_TIMEOUT_S, poll_s=0.1)


def start_oxigraph_server(root: Path) -> OxigraphServer:
    """Start a fresh Oxigraph server under ``root``; pytest-skips when the CLI is not installed."""
    binary = oxigraph_binary()
    if binary is None:
        pytest.skip("the oxigraph CLI is not installed (pip install oxigraph)")
    server = OxigraphServer(root=root, port=free_port(), binary=binary)
    server.start()
    return server
