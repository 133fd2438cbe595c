"""The ``blazegraph`` server profile against RECORDED exchanges, replayed by a stand-in server.

Blazegraph (a Java web application) cannot be installed or run on the machines these tests
run on. So a small HTTP server started in the test replays and validates the
request -> response pairs in ``tests/fixtures/blazegraph/exchanges.json``. Those pairs
were WRITTEN BY HAND FROM BLAZEGRAPH'S DOCUMENTED REST API (NanoSparqlServer REST and
multi-tenancy API), NOT CAPTURED FROM A LIVE SERVER; see the README next to them. The
stand-in exists only because Blazegraph cannot run here.

Checked: our store and namespace client send exactly the documented requests (method,
path, URL parameters, content type, Accept, form fields, body) and read the documented
answers: namespace create / list / properties / destroy, the quads-mode check, a REST
insert of N-Quads per graph, SPARQL queries and a SPARQL update on the namespace's
endpoint. A request the recording does not hold fails the test, and one wrong content
type is shown to be caught. Marked ``network`` (loopback only).
"""

from __future__ import annotations

import json
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")

from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.endpoint import SparqlEndpointStore, open_endpoint
from dualgraph.stores.profiles import BlazegraphNamespaces, get_profile

pytestmark = pytest.mark.network

RECORDING = Path(__file__).resolve().parents[1] / "fixtures" / "blazegraph" / "exchanges.json"
G1, G2 = O.GRAPH + "bz-a", O.GRAPH + "bz-b"


class StandIn:
    """Replays recorded exchanges on 127.0.0.1; each one answers at most one matching request."""

    def __init__(self, exchanges: list[dict[str, Any]]) -> None:
        self.exchanges = exchanges
        self.used = [False] * len(exchanges)
        self.unmatched: list[str] = []
        self.lock = threading.Lock()
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, ctype, answer = standin.answer(self.command, self.path, dict(self.headers.items()), body)
                data = answer.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_DELETE = do_PUT = _any

            def log_message(self, *args: object) -> None:  # quiet: failures are reported by the test
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.root = f"http://127.0.0.1:{self.server.server_address[1]}/bigdata"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, method: str, target: str, headers: dict[str, str], body: bytes) -> tuple[int, str, str]:
        path, _, query = target.partition("?")
        params = urllib.parse.parse_qs(query, keep_blank_values=True)
        lower = {k.lower(): v for k, v in headers.items()}
        reasons = []
        with self.lock:
            for i, ex in enumerate(self.exchanges):
                if self.used[i]:
                    continue
                why = _mismatch(ex["request"], method, path, params, lower, body)
                if why is None:
                    self.used[i] = True
                    r = ex["response"]
                    return r["status"], r["content_type"], r["body"]
                if ex["request"]["method"] == method and ex["request"]["path"] == path:
                    reasons.append(f"{ex['name']}: {why}")
            self.unmatched.append(f"{method} {target} ({lower.get('content-type', '-')}): {'; '.join(reasons)}")
        return 418, "text/plain", "no recorded exchange for this request"

    def unused(self) -> list[str]:
        return [ex["name"] for ex, used in zip(self.exchanges, self.used, strict=True) if not used]


def _mismatch(
    want: dict[str, Any], method: str, path: str, params: dict[str, list[str]], headers: dict[str, str], body: bytes
) -> str | None:
    """Why a request is not the recorded one, or None when it is."""
    if want["method"] != method or want["path"] != path:
        return "method or path differs"
    for key, value in want.get("query", {}).items():
        if params.get(key) != [value]:
            return f"URL parameter {key}={params.get(key)}, recorded {value!r}"
    ctype = headers.get("content-type", "").split(";")[0].strip()
    if "content_type" in want and ctype != want["content_type"]:
        return f"content type {ctype!r}, recorded {want['content_type']!r}"
    if want.get("accept_contains", "") not in headers.get("accept", ""):
        return f"Accept {headers.get('accept')!r} lacks {want['accept_contains']!r}"
    text = body.decode("utf-8")
    form = urllib.parse.parse_qs(text) if ctype == "application/x-www-form-urlencoded" else {}
    for key, part in want.get("form_contains", {}).items():
        if not any(part in v for v in form.get(key, [])):
            return f"form field {key} lacks {part!r}"
    for part in want.get("body_contains", []):
        if part not in text:
            return f"body lacks {part!r}"
    if "body_lines" in want and sorted(ln for ln in text.splitlines() if ln.strip()) != sorted(want["body_lines"]):
        return "body lines differ"
    return None


@pytest.fixture
def standin() -> Iterator[StandIn]:
    server = StandIn(json.loads(RECORDING.read_text(encoding="utf-8"))["exchanges"])
    yield server
    server.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    f = tmp_path / "two.nq"
    f.write_text(
        f'<{O.SKG}a1> <{O.HAS_NAME}> "alpha" <{G1}> .\n'
        f'<{O.SKG}b1> <{O.HAS_NAME}> "gamma" <{G2}> .\n'
        f'<{O.SKG}a2> <{O.HAS_NAME}> "beta" <{G1}> .\n',
        encoding="utf-8",
    )
    return f


def test_profile_speaks_the_documented_rest_api(standin: StandIn, data: Path) -> None:
    ns = BlazegraphNamespaces(standin.root)
    ns.create("skg")
    assert ns.list() == ["kb", "skg"]
    ns.check_quads("skg")
    with pytest.raises(StoreError, match="'kb' .* triples mode"):
        ns.check_quads("kb")

    store = open_endpoint("blazegraph", ns.sparql_url("skg"))
    assert store.bulk_load_url == store.query_url == store.update_url == ns.sparql_url("skg")
    assert store.capabilities.bulk_load_files and store.capabilities.union_default_graph
    assert store.graph_store_url is None and store.max_rows is None
    store.check_reachable()
    assert store.bulk_load(data, parallel=2) == 3
    assert store.count() == 3
    store.drop_graph(G1)
    assert store.count(graph=G1) == 0
    store.close()
    ns.delete("skg")

    assert standin.unmatched == []
    assert standin.unused() == []  # every documented step was taken


def test_a_request_off_the_record_is_caught(standin: StandIn, data: Path) -> None:
    """The stand-in is strict: the Oxigraph content type for N-Quads is not Blazegraph's."""
    url = f"{standin.root}/namespace/skg/sparql"
    wrong = SparqlEndpointStore(url, bulk_load_url=url, bulk_content_type="application/n-quads")
    with pytest.raises(StoreError, match=r"two\.nq into <[^>]+> \(statements from line 1 on\).*HTTP 418"):
        wrong.bulk_load(data)
    assert any("content type 'application/n-quads', recorded 'text/x-nquads'" in m for m in standin.unmatched)


def test_namespace_errors_name_the_url(standin: StandIn) -> None:
    ns = BlazegraphNamespaces(standin.root)
    with pytest.raises(StoreError, match=rf"DELETE {standin.root}/namespace/other answered HTTP 418"):
        ns.delete("other")
    with pytest.raises(StoreError, match="not a usable Blazegraph namespace"):
        ns.create("../kb")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/bigdata"
    with pytest.raises(StoreError, match=f"cannot reach Blazegraph at {dead}/namespace"):
        BlazegraphNamespaces(dead, timeout_s=2).list()


def test_profile_urls_from_the_query_url() -> None:
    p = get_profile("blazegraph")
    urls = p.urls("https://kg.example.com/blazegraph/namespace/skg/sparql")
    assert urls.update == urls.bulk_load == "https://kg.example.com/blazegraph/namespace/skg/sparql"
    with pytest.raises(StoreError, match="not a blazegraph query URL"):
        p.urls("http://h:9999/bigdata/sparql")
