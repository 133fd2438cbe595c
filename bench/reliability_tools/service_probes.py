"""Probes of what reaches the network (issue 34, points 2, 3 and 5): a store URL edited in an
index while the password is in the environment, a runaway SPARQL query past its timeout, and
slow clients against a running server while ``/health`` is polled.

Each probe returns rows ``(case, what happened, held)`` for the reliability report.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psutil

from .index_probes import child_env

Row = tuple[str, str, bool]


class _Recorder(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.server.seen.append((self.command, self.path, self.headers.get("Authorization")))  # type: ignore[attr-defined]
        body = json.dumps({"head": {}, "boolean": True}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def recording_listener() -> Iterator[ThreadingHTTPServer]:
    """A SPARQL-looking server on loopback that records every request and its Authorization header."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def _environment(**values: str | None) -> Iterator[None]:
    old = {k: os.environ.get(k) for k in values}
    try:
        for k, v in values.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def tampered_store_url(work: Path) -> list[Row]:
    """An index whose ``store.json`` was edited to point at a listener, the password in
    ``DUALGRAPH_SPARQL_PASSWORD``: ``ask``, ``sparql`` and ``check`` must send nothing there
    (no request, no Authorization header) and say why in one line."""
    from dualgraph.cli import main
    from dualgraph.pipeline.index_check import file_entry

    rows = []
    paths = {"blazegraph": "/bigdata/namespace/kb/sparql", "virtuoso": "/sparql-auth"}
    with recording_listener() as listener:
        port = listener.server_address[1]
        for profile, path in paths.items():
            url = f"http://127.0.0.1:{port}{path}"
            ix = work / f"ix-{profile}"
            ix.mkdir(parents=True)
            (ix / "store.json").write_text(json.dumps({"kind": profile, "query_url": url, "user": "dba"}))
            parts = {"store.json": file_entry(ix / "store.json")}
            (ix / "manifest.json").write_text(json.dumps({"products": 1, "parts": parts}))
            for how, env in (
                ("the user's endpoint elsewhere", {"DUALGRAPH_SPARQL_URL": "http://127.0.0.1:1/sparql-auth"}),
                ("no endpoint named", {"DUALGRAPH_SPARQL_URL": None}),
            ):
                for command in (
                    ["sparql", "--index", str(ix), "ASK {}"],
                    ["ask", "--index", str(ix), "phones with 5G?"],
                    ["check", "--index", str(ix), "--problems"],
                ):
                    before = len(listener.seen)  # type: ignore[attr-defined]
                    out, err = io.StringIO(), io.StringIO()
                    with (
                        _environment(DUALGRAPH_SPARQL_PASSWORD="s3cret-pw", DUALGRAPH_SPARQL_PASSWORD_FILE=None, **env),
                        contextlib.redirect_stdout(out),
                        contextlib.redirect_stderr(err),
                    ):
                        try:
                            rc: Any = main(command)
                        except Exception as e:  # a traceback is the finding
                            rc = f"{type(e).__name__}: {e}"
                    seen = listener.seen[before:]  # type: ignore[attr-defined]
                    auth = [a for *_, a in seen if a]
                    # check prints a line a damaged part; the others one error line
                    said = (out.getvalue() if command[0] == "check" else err.getvalue()).strip().splitlines()
                    one_line = len(said) == 1 and "Traceback" not in err.getvalue()
                    held = not seen and rc not in (0,) and isinstance(rc, int) and one_line
                    rows.append(
                        (
                            f"{profile} store.json URL edited, {how}: `{command[0]}`",
                            f"exit {rc}; {len(seen)} requests, {len(auth)} with Authorization; "
                            f"said: {said[0][:140] if said else '(nothing)'}",
                            held,
                        )
                    )
    return rows


CARTESIAN = (
    "SELECT ?a ?b ?c WHERE { ?a ?p1 ?x . ?b ?p2 ?y . ?c ?p3 ?z } ORDER BY ?a ?b ?c"  # every triple cubed, then sorted
)


def runaway_sparql(index: Path, *, timeout_s: float = 3.0, cap_mb: float = 1024, grace_s: float = 2.0) -> Row:
    """``dualgraph sparql --timeout`` on a 3-way cartesian product with ORDER BY, in a child whose
    memory is watched with its budget worker's: it must end within ``grace_s`` of its timeout and
    stay under ``cap_mb`` above what it started with; the child is killed at the cap or at twice
    the grace. The worker's own budget is a quarter of the cap: what the worker holds once open
    (the store, the imports) comes on top of that budget, and must fit in the cap too."""
    cmd = [
        sys.executable,
        "-m",
        "dualgraph.cli",
        "sparql",
        "--index",
        str(index),
        "--timeout",
        str(timeout_s),
        "--memory-mb",
        str(int(cap_mb // 4)),
        CARTESIAN,
    ]
    proc = subprocess.Popen(cmd, env=child_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ps = psutil.Process(proc.pid)
    start, peak, base, status = time.monotonic(), 0.0, None, "ended"
    while proc.poll() is None:
        try:
            # the query runs in the CLI's budget worker: the whole tree is what the machine pays
            rss = sum(x.memory_info().rss for x in [ps, *ps.children(recursive=True)]) / 2**20
        except psutil.Error:
            break
        base = rss if base is None else min(base, rss)
        peak = max(peak, rss)
        elapsed = time.monotonic() - start
        if peak - (base or 0) > cap_mb:
            status = "over the cap"
            proc.kill()
        elif elapsed > timeout_s + 2 * grace_s + 5:  # + start-up
            status = "still running"
            proc.kill()
        time.sleep(0.02)
    proc.wait()
    seconds = time.monotonic() - start
    err = (proc.stderr.read() if proc.stderr else "").strip().splitlines()
    held = status == "ended" and proc.returncode != 0 and "Traceback" not in "\n".join(err)
    return (
        f"`dualgraph sparql --timeout {timeout_s:g}` on a cartesian product with ORDER BY",
        f"{status} after {seconds:.1f} s (exit {proc.returncode}), peak {peak:.0f} MB; "
        f"said: {err[-1][:140] if err else '(nothing)'}",
        held,
    )


# -- slow clients against Ray Serve ---------------------------------------------------------------


def slow_clients(index: Path, *, bodies: int = 48, headers: int = 16, body_timeout_s: float = 3.0) -> list[Row]:
    """Ray Serve on loopback answering ``index``; ``bodies`` clients send a body a byte at a time,
    ``headers`` clients their headers; ``/health`` polled meanwhile must answer within 1 s, an
    ``/ask`` must be answered, the slow bodies must get 408 at their timeout."""
    from ray import serve

    from dualgraph.answer.engine import AskConfig, EngineSpec
    from dualgraph.pipeline.ray_logging import init_ray
    from dualgraph.serve.app import ServeConfig, build_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = ServeConfig(
        port=port,
        body_timeout_s=body_timeout_s,
        max_batch_size=2,
        batch_wait_s=0.01,
        sparql_endpoint=True,
        sparql_timeout_s=2.0,
    )
    init_ray()
    serve.start(http_options=config.http_options())
    rows: list[Row] = []
    try:
        serve.run(build_app(EngineSpec(index_dir=index, config=AskConfig()), config), name="dg-slow", route_prefix="/")
        clients = _SlowClients(port, bodies, headers)
        try:
            time.sleep(1.0)
            latencies = []
            for _ in range(8):
                latencies.append(_timed_health(port))
                time.sleep(0.3)
            asked = _ask(port, "Which phones have 5G?")
            time.sleep(body_timeout_s + 3.0)
            cut = [c for c in clients.clients if c["body"] and c["got"].startswith(b"HTTP/1.1 408")]
        finally:
            clients.stop()
        rows.append(
            (
                f"/health polled under {bodies + headers} slow clients",
                f"slowest {max(latencies):.2f} s of {len(latencies)} polls",
                max(latencies) < 1.0,
            )
        )
        rows.append((f"/ask under {bodies + headers} slow clients", asked[1], asked[0]))
        rows.append(
            (
                f"{bodies} slow bodies cut at {body_timeout_s:g} s",
                f"{len(cut)} of {bodies} got 408",
                len(cut) == bodies,
            )
        )
        rows.append(_runaway_over_http(port, config.sparql_timeout_s))
    finally:
        serve.shutdown()
    return rows


SPIN = "SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
"""Every triple cubed and counted: CPU without end, little memory (the deadline, not the budget, stops it)."""


def _runaway_over_http(port: int, timeout_s: float, *, after_s: float = 2.0) -> Row:
    """``POST /sparql`` of a query that never ends: HTTP 504 at its deadline, and the serving
    processes (replicas, store workers) idle right after: under half a CPU-second over ``after_s``."""
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/sparql",
        data=json.dumps({"query": SPIN}).encode(),
        headers={"Content-Type": "application/json"},
    )
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status = r.status
    except urllib.error.HTTPError as e:
        status = e.code
    except OSError as e:
        return ("POST /sparql runaway query, CPU after the reply", f"no reply: {e}", False)
    took = time.monotonic() - t0
    busy = _serving_cpu_over(after_s)
    return (
        "POST /sparql runaway query, CPU after the reply",
        f"HTTP {status} after {took:.1f} s (deadline {timeout_s:g} s); {busy:.2f} CPU-s used by the serving "
        f"processes over the next {after_s:g} s",
        status in (504, 507) and busy < 0.5,
    )


def _serving_cpu_over(seconds: float) -> float:
    """CPU seconds the Serve replicas and budgeted store workers use over the next ``seconds``."""

    def cpu() -> dict[int, float]:
        found = {}
        for p in psutil.process_iter(["cmdline"]):
            command = " ".join(p.info["cmdline"] or [])
            if ("dualgraph.budget.child" in command and "store" in command) or "ServeReplica" in command:
                with contextlib.suppress(psutil.Error):
                    t = p.cpu_times()
                    found[p.pid] = t.user + t.system
        return found

    before = cpu()
    time.sleep(seconds)
    return sum(t - before.get(pid, 0.0) for pid, t in cpu().items())


def _timed_health(port: int) -> float:
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=30) as r:
            r.read()
    except OSError:
        return 30.0
    return time.monotonic() - t0


def _ask(port: int, question: str) -> tuple[bool, str]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/ask",
        data=json.dumps({"question": question}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            body = json.loads(r.read())
        return body.get("error") is None, f"HTTP 200, {len(body.get('answer_list') or [])} products"
    except OSError as e:
        return False, f"{type(e).__name__}: {e}"


class _SlowClients:
    """Sockets that each send one byte every 0.25 s from one thread, keeping what they receive."""

    def __init__(self, port: int, bodies: int, headers: int) -> None:
        body = json.dumps({"question": "Which phones have 5G?" + " " * 200}).encode()
        head = (
            "POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        self.clients: list[dict[str, Any]] = []
        for i in range(bodies + headers):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            slow_body = i < bodies
            if slow_body:
                sock.sendall(head)  # the headers at once, the body a byte at a time
            sock.setblocking(False)
            self.clients.append(
                {"sock": sock, "todo": body if slow_body else head + body, "got": b"", "body": slow_body}
            )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            for c in self.clients:
                try:
                    if c["todo"]:
                        c["sock"].send(c["todo"][:1])
                        c["todo"] = c["todo"][1:]
                    while data := c["sock"].recv(4096):
                        c["got"] += data
                except (BlockingIOError, OSError):
                    pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for c in self.clients:
            c["sock"].close()
