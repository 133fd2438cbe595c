"""Start and stop a real Virtuoso 7 (Debian's ``virtuoso-opensource``) on loopback for tests.

Not a test module: ``conftest.py`` uses :func:`start_virtuoso` from a session fixture.
The server gets its own database in a temporary directory and free ports on 127.0.0.1,
so it never touches a system-wide Virtuoso. A fresh database has user ``dba`` with
password ``dba``; anonymous SPARQL UPDATE on ``/sparql`` is granted after start.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from server_process import ServerProcess

SYSTEM_INI = Path("/etc/virtuoso-opensource-7/virtuoso.ini")
SYSTEM_DB = "/var/lib/virtuoso-opensource-7/db"
START_TIMEOUT_S = 90.0


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rewrite_ini(text: str, *, db_dir: Path, isql_port: int, http_port: int, dirs_allowed: list[Path]) -> str:
    """The system ini with our database directory, loopback ports and allowed directories."""
    out = []
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            section = stripped[1:-1]
        key = stripped.split("=", 1)[0].strip() if "=" in stripped and not stripped.startswith(";") else ""
        if SYSTEM_DB in line:
            line = line.replace(SYSTEM_DB, str(db_dir))
        if section == "Parameters" and key == "ServerPort":
            line = f"ServerPort = 127.0.0.1:{isql_port}"
        elif section == "HTTPServer" and key == "ServerPort":
            line = f"ServerPort = 127.0.0.1:{http_port}"
        elif section == "Parameters" and key == "DirsAllowed":
            line = f"{line.rstrip()}, " + ", ".join(str(d) for d in dirs_allowed)
        elif section == "URIQA" and key == "DefaultHost":
            line = f"DefaultHost = 127.0.0.1:{http_port}"
        out.append(line)
    return "\n".join(out) + "\n"


@dataclass
class VirtuosoServer(ServerProcess):
    """One running ``virtuoso-t`` process and the URLs it serves."""

    stop_wait_s = 30.0  # Virtuoso checkpoints before it exits (~2 s)

    root: Path
    isql_port: int
    http_port: int
    process: subprocess.Popen | None = None
    startup_s: float = 0.0
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.root / "virtuoso-stdout.log"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def sparql_url(self) -> str:
        return self.base_url + "/sparql"

    @property
    def sparql_auth_url(self) -> str:
        return self.base_url + "/sparql-auth"

    @property
    def graph_store_url(self) -> str:
        """Graph Store Protocol endpoint (Digest auth as dba; graph parameter ``graph-uri``)."""
        return self.base_url + "/sparql-graph-crud-auth"

    def start(self) -> None:
        db = self.root / "db"
        db.mkdir(parents=True, exist_ok=True)
        ini = db / "virtuoso.ini"
        ini.write_text(
            rewrite_ini(
                SYSTEM_INI.read_text(encoding="utf-8", errors="replace"),
                db_dir=db,
                isql_port=self.isql_port,
                http_port=self.http_port,
                dirs_allowed=[self.root],
            ),
            encoding="utf-8",
        )
        t0 = time.monotonic()
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                ["virtuoso-t", "+foreground", "+configfile", str(ini)],
                cwd=db,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self._wait_ready(t0)
        self.startup_s = time.monotonic() - t0
        self.isql('GRANT SPARQL_UPDATE TO "SPARQL";')

    def _wait_ready(self, t0: float) -> None:
        url = self.sparql_url + "?query=ASK%7B%7D"
        self.wait_answering(url, name="virtuoso-t", t0=t0, timeout_s=START_TIMEOUT_S, poll_s=0.25)

    def isql(self, command: str) -> str:
        """Run one SQL command as dba through ``isql-vt``; raises with its output on failure."""
        done = subprocess.run(
            ["isql-vt", f"127.0.0.1:{self.isql_port}", "dba", "dba", f"exec={command}"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0 or "*** Error" in done.stdout + done.stderr:
            raise RuntimeError(f"isql-vt {command!r} failed:\n{done.stdout}{done.stderr}")
        return done.stdout


def virtuoso_missing() -> str | None:
    """Why Virtuoso cannot run here, or None when it can."""
    for tool in ("virtuoso-t", "isql-vt"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install virtuoso-opensource; see STACK.md)"
    if not SYSTEM_INI.is_file():
        return f"{SYSTEM_INI} is missing"
    return None


def start_virtuoso(root: Path) -> VirtuosoServer:
    """Start a fresh Virtuoso under ``root``; pytest-skips when it is not installed."""
    reason = virtuoso_missing()
    if reason:
        pytest.skip(reason)
    server = VirtuosoServer(root=root, isql_port=free_port(), http_port=free_port())
    server.start()
    return server
