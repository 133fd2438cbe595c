"""Queries the read-only guard must refuse, and a loopback server that counts what reaches it.

Each probe points at the counting server, so "refused" can be told from "refused after
the request went out": the server's hit count must not move.
"""

from __future__ import annotations

import http.server
import threading
from typing import Any, ClassVar

from dualgraph.stores.guard import MAX_QUERY_CHARS

REFUSAL = "SERVICE|read-only|refused|malformed|DEFINE|nested too deeply"
"""A pattern every refusal message matches."""


def guard_probes(url: str) -> dict[str, str]:
    """Name -> query: federated calls in every position and spelling, every update form, engine pragmas."""
    host = url.removesuffix("/sparql")
    g = "{ ?s ?p ?o }"
    return {
        "space": f"SELECT * {{ SERVICE <{url}> {g} }}",
        "no-space-iri": f"SELECT * {{ SERVICE<{url}>{g} }}",
        "pname-no-space": f"PREFIX : <{host}/> SELECT * {{ SERVICE:sparql {g} }}",
        "pname-empty-local": f"PREFIX : <{url}> SELECT * {{ SERVICE: {g} }}",
        "lower-case": f"select * {{ service <{url}> {g} }}",
        "silent": f"SELECT * {{ SERVICE SILENT <{url}> {g} }}",
        "in-optional": f"SELECT * {{ ?a ?b ?c OPTIONAL {{ SERVICE <{url}> {g} }} }}",
        "in-union": f"SELECT * {{ {{ ?a ?b ?c }} UNION {{ SERVICE <{url}> {g} }} }}",
        "in-subquery": f"SELECT * {{ {{ SELECT ?s {{ SERVICE <{url}> {g} }} }} }}",
        "in-filter-exists": f"SELECT * {{ ?a ?b ?c FILTER EXISTS {{ SERVICE <{url}> {g} }} }}",
        "in-minus": f"SELECT * {{ ?a ?b ?c MINUS {{ SERVICE <{url}> {g} }} }}",
        "variable-endpoint": f"SELECT * {{ BIND(<{url}> AS ?e) SERVICE ?e {g} }}",
        "ask": f"ASK {{ SERVICE <{url}> {g} }}",
        "construct": f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ SERVICE <{url}> {g} }}",
        "unicode-escape-keyword": f"SELECT * {{ \\u0053ERVICE <{url}> {g} }}",
        "unicode-escape-iri": f"SELECT * {{ SERVICE <\\u0068{url[1:]}> {g} }}",
        "comment-before": f"# SELECT\nSELECT * {{ # }}\n SERVICE <{url}> {g} }}",
        "insert-data": 'INSERT DATA { skg:a skg:b "c" }',
        "delete-data": 'DELETE DATA { skg:a skg:b "c" }',
        "delete-where": "DELETE WHERE { ?s ?p ?o }",
        "insert-delete-where": "DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
        "with": "WITH <http://x/g> INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
        "load": f"LOAD <{url}>",
        "load-silent-into": f"LOAD SILENT <{url}> INTO GRAPH <http://x/g>",
        "clear": "CLEAR ALL",
        "drop": "DROP GRAPH <http://x/g>",
        "create": "CREATE GRAPH <http://x/g>",
        "add": "ADD <http://x/a> TO <http://x/b>",
        "move": "MOVE <http://x/a> TO <http://x/b>",
        "copy": "COPY <http://x/a> TO <http://x/b>",
        "update-after-semicolon": f"SELECT * {g} ; LOAD <{url}>",
        "update-after-update": f"CLEAR ALL ; LOAD <{url}>",
        "virtuoso-define": f'define get:soft "replace" SELECT * FROM <{url}> {g}',
        "virtuoso-builtin": f"PREFIX b: <bif:> SELECT (b:http_get('{url}') AS ?x) {{}}",
        "builtin-split-across-prefix": f"PREFIX b: <bi> SELECT (b:f:http_get('{url}') AS ?x) {{}}",
        "builtin-full-iri": f"SELECT (<bif:http_get>('{url}') AS ?x) {{}}",
        "long-s-keyword": f"SELECT * {{ \u017fERVICE <{url}> {g} }}",
        "deeply-nested": "SELECT * WHERE " + "{ " * 400 + f"SERVICE <{url}> {g}" + " }" * 400,
        "too-long": f"SELECT * {{ SERVICE <{url}> {g} }} #" + "x" * MAX_QUERY_CHARS,
        "bad-escape": "SELECT * { ?s ?p '\\uD800' }",
    }


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "application/sparql-results+json")
        self.end_headers()
        self.wfile.write(b'{"head":{"vars":[]},"results":{"bindings":[{}]}}')

    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


class CountingServer:
    """A SPARQL-looking HTTP server on 127.0.0.1 recording every request path in ``hits``."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        handler = type("Handler", (_Counter,), {"hits": self.hits})
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/sparql"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> CountingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
