"""`dualgraph check` on an index whose store is a SPARQL server: the server must answer and hold
the products the manifest counts; anything else is one line naming the endpoint, exit 1.

Real parts: the `dualgraph` command in-process, the endpoint store (SPARQLWrapper, requests)
speaking HTTP to a loopback server that answers the product count it is given.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dualgraph.cli import main
from dualgraph.pipeline.index_check import check_index, file_entry

pytest.importorskip("SPARQLWrapper", reason="the [endpoint] extra is not installed")
pytestmark = pytest.mark.network


class _Count(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        n = self.server.products  # type: ignore[attr-defined]
        body = json.dumps(
            {"head": {"vars": ["n"]}, "results": {"bindings": [{"n": {"type": "literal", "value": str(n)}}]}}
        )
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    do_GET = do_POST = _answer

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Count)
    httpd.products = 3  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def _index(tmp_path: Path, url: str, products: int = 3) -> Path:
    """An index on a server: the files a run leaves (no embedded store among its parts)."""
    ix = tmp_path / "ix"
    ix.mkdir()
    (ix / "store.json").write_text(json.dumps({"kind": "endpoint", "query_url": url}))
    manifest = {"products": products, "parts": {"store.json": file_entry(ix / "store.json")}}
    (ix / "manifest.json").write_text(json.dumps(manifest))
    return ix


@pytest.fixture(autouse=True)
def _no_password(monkeypatch):
    for name in ("DUALGRAPH_SPARQL_PASSWORD", "DUALGRAPH_SPARQL_PASSWORD_FILE", "DUALGRAPH_SPARQL_URL"):
        monkeypatch.delenv(name, raising=False)


def test_an_endpoint_holding_the_manifests_products_checks_ok(tmp_path, server, capsys):
    url = f"http://127.0.0.1:{server.server_address[1]}/sparql"
    ix = _index(tmp_path, url)
    found = {c.part: c for c in check_index(ix)}
    assert found[f"store {url}"].status == "ok" and found[f"store {url}"].why == "3 products"
    assert main(["check", "--index", str(ix)]) == 0


def test_an_endpoint_holding_other_products_is_corrupt_in_one_line(tmp_path, server, capsys):
    url = f"http://127.0.0.1:{server.server_address[1]}/sparql"
    ix = _index(tmp_path, url, products=20)
    assert main(["check", "--index", str(ix), "--problems"]) == 1
    assert capsys.readouterr().out.splitlines() == [f"store {url}: corrupt: holds 3 products, the manifest says 20"]


def test_an_endpoint_that_does_not_answer_is_missing_in_one_line(tmp_path, capsys):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/sparql"
    ix = _index(tmp_path, url)
    assert main(["check", "--index", str(ix), "--problems"]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"store {url}: missing: does not answer: "), lines
    assert "Traceback" not in out.err


def test_the_password_goes_to_no_endpoint_the_user_did_not_name(tmp_path, server, monkeypatch, capsys):
    url = f"http://127.0.0.1:{server.server_address[1]}/sparql"
    ix = _index(tmp_path, url)
    monkeypatch.setenv("DUALGRAPH_SPARQL_PASSWORD", "s3cret")
    assert main(["check", "--index", str(ix), "--problems"]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert line.startswith("store.json: corrupt: ") and "--sparql-url" in line
    assert main(["check", "--index", str(ix), "--sparql-url", url]) == 0
