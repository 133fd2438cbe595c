"""A loopback HTTP proxy that fails on a schedule, to test what clients do when servers misbehave.

It sits on 127.0.0.1 in front of a real server and, per HTTP request (counted from 0),
asks its schedule for a :class:`Fault`: delay the request, drop the connection without an
answer, answer with an HTTP error, or pass the answer back cut in half. Requests without
a fault are forwarded unchanged, one upstream connection each.

>>> schedule = first(2, Fault.status(503))
>>> schedule(0), schedule(2)
(Fault(kind='status', code=503, seconds=0.0), None)
>>> every(3, Fault.drop())(5)
Fault(kind='drop', code=0, seconds=0.0)
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus

_HEAD_LIMIT = 64 * 1024


@dataclass(frozen=True, slots=True)
class Fault:
    """What to do to one request: ``drop``, ``status`` (``code``), ``delay`` (``seconds``) or ``cut``."""

    kind: str
    code: int = 0
    seconds: float = 0.0

    @classmethod
    def drop(cls) -> Fault:
        """Read the request, then close the connection without a byte of answer."""
        return cls("drop")

    @classmethod
    def status(cls, code: int) -> Fault:
        """Answer with this HTTP status and a short text body; the server never sees the request."""
        return cls("status", code=code)

    @classmethod
    def delay(cls, seconds: float) -> Fault:
        """Wait, then forward as usual (a client with a shorter timeout gives up first)."""
        return cls("delay", seconds=seconds)

    @classmethod
    def cut(cls) -> Fault:
        """Forward, but pass back only the first half of the server's answer, then close."""
        return cls("cut")


Schedule = Callable[[int], Fault | None]


def first(n: int, fault: Fault) -> Schedule:
    """``fault`` for requests 0 .. n-1, then none."""
    return lambda i: fault if i < n else None


def every(k: int, fault: Fault) -> Schedule:
    """``fault`` for every k-th request (the k-th, the 2k-th, ...)."""
    return lambda i: fault if (i + 1) % k == 0 else None


def after(n: int, fault: Fault) -> Schedule:
    """No fault for the first ``n`` requests, then ``fault`` for every one: a server that goes down."""
    return lambda i: fault if i >= n else None


def always(fault: Fault) -> Schedule:
    """``fault`` for every request."""
    return lambda i: fault


class FaultProxy:
    """``with FaultProxy("127.0.0.1", 8890, schedule) as p:`` then send requests to ``p.url(path)``.

    ``requests`` counts the HTTP requests received, ``faults`` those given a fault. The
    schedule can be replaced at any time (``p.schedule = ...``).
    """

    def __init__(self, upstream_host: str, upstream_port: int, schedule: Schedule | None = None) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.schedule: Schedule = schedule or (lambda i: None)
        self.requests = self.faults = 0
        self._lock = threading.Lock()
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._closing = False
        self._thread = threading.Thread(target=self._accept, name="fault-proxy", daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        """The proxy's URL for ``path`` on the upstream server."""
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        """Stop accepting; connections in flight finish on their own threads."""
        self._closing = True
        # close() alone does not wake a thread blocked in accept() on Linux: shutdown does,
        # so the join below returns at once instead of after its timeout
        with contextlib.suppress(OSError):
            self._server.shutdown(socket.SHUT_RDWR)
        self._server.close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FaultProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept(self) -> None:
        while not self._closing:
            try:
                client, _ = self._server.accept()
            except OSError:  # closed
                return
            threading.Thread(target=self._serve, args=(client,), name="fault-proxy-conn", daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            client.settimeout(30)
            request = _read_request(client)
            if request is None:  # a bare connect (a reachability probe) or a client that gave up
                return
            with self._lock:
                index = self.requests
                self.requests += 1
                fault = self.schedule(index)
                self.faults += fault is not None
            if fault is not None and fault.kind == "drop":
                return
            if fault is not None and fault.kind == "status":
                reason = HTTPStatus(fault.code).phrase if fault.code in HTTPStatus._value2member_map_ else "Error"
                body = f"fault proxy: {fault.code} {reason}\n".encode()
                head = f"HTTP/1.1 {fault.code} {reason}\r\nContent-Type: text/plain\r\n"
                client.sendall(f"{head}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
                return
            if fault is not None and fault.kind == "delay":
                time.sleep(fault.seconds)
            answer = self._forward(request)
            if fault is not None and fault.kind == "cut":
                answer = answer[: len(answer) // 2]
            with contextlib.suppress(OSError):  # the client gave up waiting (a delay past its timeout)
                client.sendall(answer)

    def _forward(self, request: bytes) -> bytes:
        with socket.create_connection(self.upstream, timeout=60) as up:
            up.sendall(request)
            chunks = []
            while data := up.recv(65536):
                chunks.append(data)
        return b"".join(chunks)


def _read_request(conn: socket.socket) -> bytes | None:
    """One whole request (head and Content-Length body), rewritten to close after its answer."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk or len(data) > _HEAD_LIMIT:
                return None
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        length = 0
        kept = [lines[0]]
        for line in lines[1:]:
            name = line.split(b":", 1)[0].strip().lower()
            if name == b"content-length":
                length = int(line.split(b":", 1)[1])
            if name not in (b"connection", b"keep-alive"):
                kept.append(line)
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                return None
            body += chunk
    except (OSError, ValueError):
        return None
    # One request per connection both ways: the server closes after answering, which ends the forward.
    return b"\r\n".join([*kept, b"Connection: close"]) + b"\r\n\r\n" + body
