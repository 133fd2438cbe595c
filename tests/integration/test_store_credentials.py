"""The store password goes only where the user sent it.

A loopback HTTP listener stands in for a server someone pointed an index's store.json at; it
records every request and its Authorization header. Real parts: the `dualgraph` command run
in-process, the endpoint store (SPARQLWrapper, requests) speaking HTTP to the listener.
"""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dualgraph.cli import main
from dualgraph.stores.base import StoreError
from dualgraph.stores.config import StoreConfig
from dualgraph.stores.factory import open_backend

pytest.importorskip("SPARQLWrapper", reason="the [endpoint] extra is not installed")
pytestmark = pytest.mark.network

SECRET = "s3cret-pw"


class _Recorder(BaseHTTPRequestHandler):
    seen: list[tuple[str, str, str | None]]

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

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def listener():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _url(server, profile: str) -> str:
    path = "/bigdata/namespace/kb/sparql" if profile == "blazegraph" else "/sparql-auth"
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


def _index(tmp_path: Path, store: dict) -> Path:
    index = tmp_path / "ix"
    index.mkdir(parents=True)
    (index / "manifest.json").write_text("{}")
    (index / "store.json").write_text(json.dumps(store))
    return index


@pytest.fixture
def secret_env(monkeypatch):
    monkeypatch.setenv("DUALGRAPH_SPARQL_PASSWORD", SECRET)
    monkeypatch.delenv("DUALGRAPH_SPARQL_PASSWORD_FILE", raising=False)
    monkeypatch.delenv("DUALGRAPH_SPARQL_URL", raising=False)
    return monkeypatch


def _one_line_error(capsys, command: str) -> str:
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err, err
    assert err.startswith(f"dualgraph {command}: ")
    return err


@pytest.mark.parametrize("profile", ["blazegraph", "virtuoso"])
@pytest.mark.parametrize("command", ["sparql", "ask"])
def test_a_tampered_url_gets_no_credentials(tmp_path, listener, secret_env, capsys, profile, command):
    # the user configured the real server; the index's store.json was edited to point elsewhere
    secret_env.setenv("DUALGRAPH_SPARQL_URL", "http://127.0.0.1:1/sparql-auth")
    index = _index(tmp_path, {"kind": profile, "query_url": _url(listener, profile), "user": "dba"})
    argv = ["sparql", "--index", str(index), "ASK {}"] if command == "sparql" else ["ask", "--index", str(index), "5G?"]
    assert main(argv) == 2
    err = _one_line_error(capsys, command)
    assert "refused" in err and _url(listener, profile) in err and "--sparql-url" in err
    assert listener.seen == []


def test_a_url_nobody_named_gets_no_password(tmp_path, listener, secret_env, capsys):
    index = _index(tmp_path, {"kind": "blazegraph", "query_url": _url(listener, "blazegraph"), "user": "dba"})
    assert main(["sparql", "--index", str(index), "ASK {}"]) == 2
    err = _one_line_error(capsys, "sparql")
    assert "sent only to an endpoint you name" in err
    assert listener.seen == []


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_endpoint_the_user_names_gets_the_password(tmp_path, listener, secret_env, capsys, how):
    url = _url(listener, "blazegraph")
    index = _index(tmp_path, {"kind": "blazegraph", "query_url": url, "user": "dba"})
    argv = ["sparql", "--index", str(index), "ASK {}"]
    if how == "flag":
        argv += ["--sparql-url", url]
    else:
        secret_env.setenv("DUALGRAPH_SPARQL_URL", url)
    assert main(argv) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["boolean"] is True
    auths = {auth for _, _, auth in listener.seen}
    assert auths == {"Basic " + base64.b64encode(f"dba:{SECRET}".encode()).decode()}


def test_the_password_may_come_from_a_file_outside_the_index(tmp_path, listener, secret_env, capsys):
    secret_env.delenv("DUALGRAPH_SPARQL_PASSWORD")
    (tmp_path / "pw").write_text("from-file\n")
    secret_env.setenv("DUALGRAPH_SPARQL_PASSWORD_FILE", str(tmp_path / "pw"))
    url = _url(listener, "blazegraph")
    index = _index(tmp_path, {"kind": "blazegraph", "query_url": url, "user": "dba"})
    assert main(["sparql", "--index", str(index), "--sparql-url", url, "ASK {}"]) == 0
    assert {a for _, _, a in listener.seen} == {"Basic " + base64.b64encode(b"dba:from-file").decode()}


def test_a_store_json_cannot_carry_the_password_or_the_insecure_flag(tmp_path, listener, secret_env, capsys):
    url = _url(listener, "blazegraph")
    for extra in ({"password": "planted"}, {"allow_insecure_auth": True}):
        index = _index(tmp_path / next(iter(extra)), {"kind": "blazegraph", "query_url": url, "user": "dba", **extra})
        assert main(["sparql", "--index", str(index), "--sparql-url", url, "ASK {}"]) == 2
        assert "never writes there" in _one_line_error(capsys, "sparql")
    assert listener.seen == []


def test_a_moved_server_named_on_the_command_line_drops_the_saved_servers_other_urls(tmp_path, listener, secret_env):
    from dualgraph.pipeline.index_store import index_store_config

    old = {"kind": "virtuoso", "query_url": "https://old.example/sparql-auth", "user": "dba"}
    index = _index(tmp_path, {**old, "graph_store_url": "https://old.example/sparql-graph-crud-auth"})
    config = index_store_config(index, url=_url(listener, "virtuoso"))
    assert config.query_url == _url(listener, "virtuoso") and config.graph_store_url is None
    # the saved query URL kept, a write URL moved to another server: refused
    (index / "store.json").write_text(json.dumps({**old, "graph_store_url": "https://evil.example/crud"}))
    with pytest.raises(StoreError, match="another server"):
        index_store_config(index, url=old["query_url"])


@pytest.mark.parametrize("profile", ["blazegraph", "virtuoso"])
def test_no_password_in_clear_to_another_machine_without_the_flag(profile):
    # TEST-NET-1 (RFC 5737): never routed, and nothing is sent when the store is refused
    path = "/bigdata/namespace/kb/sparql" if profile == "blazegraph" else "/sparql-auth"
    far = StoreConfig(kind=profile, query_url=f"http://192.0.2.10:8890{path}", user="dba", password=SECRET)
    with pytest.raises(StoreError, match="plain HTTP to 192.0.2.10.*allow-insecure-auth"):
        open_backend(far, "/nonexistent", read_only=True)
    open_backend(far.model_copy(update={"allow_insecure_auth": True}), "/nonexistent", read_only=True).close()
    secure = far.model_copy(update={"query_url": f"https://192.0.2.10{path}"})
    open_backend(secure, "/nonexistent", read_only=True).close()
    anonymous = far.model_copy(update={"password": None, "user": None})
    open_backend(anonymous, "/nonexistent", read_only=True).close()


def test_the_insecure_flag_reaches_the_store_from_the_command_line(tmp_path, secret_env, capsys):
    far = "http://192.0.2.10:9999/bigdata/namespace/kb/sparql"
    index = _index(
        tmp_path, {"kind": "blazegraph", "query_url": far, "user": "dba", "timeout_s": 0.2, "retry_attempts": 1}
    )
    assert main(["sparql", "--index", str(index), "--sparql-url", far, "ASK {}"]) == 2
    assert "--allow-insecure-auth" in _one_line_error(capsys, "sparql")
    # with the flag the password may go: the store opens and tries the (unroutable) server
    rc = main(["sparql", "--index", str(index), "--sparql-url", far, "--allow-insecure-auth", "ASK {}"])
    err = capsys.readouterr().err
    assert rc == 2 and "plain HTTP" not in err
