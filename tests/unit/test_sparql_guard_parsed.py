"""The read-only guard decides on the parsed query: every probe below is refused by the
guard, by the embedded store and by `dualgraph sparql`, with a clear message and without
one request reaching the loopback server the probes point at (its hit count stays 0).
"""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import ClassVar

import pyoxigraph as ox
import pytest

from dualgraph.cli import main
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.query.safety import QueryRefused, check_query
from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.guard import MAX_QUERY_CHARS, read_query
from dualgraph.stores.oxigraph import OxigraphStore


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


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[str]]]:
    """A SPARQL-ish server on 127.0.0.1 that counts every request it gets."""
    hits: list[str] = []
    handler = type("Handler", (_Counter,), {"hits": hits})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/sparql", hits
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("index")
    OxigraphStore(IndexLayout(root).store).close()
    return root


def _probes(url: str) -> dict[str, str]:
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
        "deeply-nested": "SELECT * WHERE " + "{ " * 400 + f"SERVICE <{url}> {g}" + " }" * 400,
        "too-long": f"SELECT * {{ SERVICE <{url}> {g} }} #" + "x" * MAX_QUERY_CHARS,
        "bad-escape": "SELECT * { ?s ?p '\\uD800' }",
    }


PROBES = list(_probes("http://127.0.0.1:1/sparql"))
REASON = "SERVICE|read-only|refused|malformed|DEFINE|nested too deeply"


def test_the_counter_sees_an_unguarded_service_call(server) -> None:
    """The control: pyoxigraph without the guard does call the server, so 0 hits below means something."""
    url, hits = server
    before = len(hits)
    with pytest.raises((OSError, RuntimeError)):  # it got there; the answer is no SPARQL JSON it reads
        list(ox.Store().query(f"SELECT * {{ SERVICE <{url}> {{ ?s ?p ?o }} }}"))
    assert len(hits) == before + 1


@pytest.mark.parametrize("name", PROBES)
def test_probe_is_refused_everywhere_without_a_request(name: str, server, index, capsys) -> None:
    url, hits = server
    query, before = _probes(url)[name], len(hits)
    with pytest.raises(QueryRefused, match=REASON):
        read_query(query)
    with pytest.raises(QueryRefused, match=REASON):
        check_query(query)
    store = OxigraphStore.in_memory()
    for method in (store.select, store.ask, store.construct):
        with pytest.raises(StoreError, match=REASON):
            method(query)
    assert main(["sparql", query, "--index", str(index)]) == 2
    assert "dualgraph sparql:" in capsys.readouterr().err
    time.sleep(0.05)  # a request in flight would land by now
    assert len(hits) == before


@pytest.mark.parametrize(
    "query",
    [
        'SELECT ?s WHERE { ?s skg:hasName "SERVICE <http://127.0.0.1:1/> { }" } # SERVICE <http://127.0.0.1:1/> {}',
        "SELECT ?s WHERE { ?s <http://example.com/SERVICE> ?service . BIND('''SERVICE''' AS ?t) }",
        'SELECT ?s WHERE { ?s skg:service ?o FILTER(LANG(?o) = "x") BIND("y"@service AS ?u) }',
        # the escapes make one long string of it: checked and run as that, never as a SERVICE call
        'SELECT * { BIND("\\u0022" AS ?x) SERVICE <URL> {} BIND("\\u0022" AS ?y) }',
    ],
    ids=["string-and-comment", "iri-var-long-string", "pname-lang", "escaped-quotes-hide-nothing"],
)
def test_service_in_strings_comments_and_names_is_fine(query: str, server) -> None:
    url, hits = server
    query, before = query.replace("URL", url), len(hits)
    assert check_query(query) == "SELECT"
    rows = OxigraphStore.in_memory().select(query)["results"]["bindings"]
    assert rows == [] or rows[0]["y"]["value"].startswith(" AS ?x) SERVICE <http")  # a string, not a call
    time.sleep(0.05)
    assert len(hits) == before


def test_escapes_are_expanded_once_and_that_text_runs() -> None:
    checked = read_query("SELECT ?x { BIND('caf\\u00E9 \\U0001F600' AS ?x) }")
    assert checked.text == "SELECT ?x { BIND('café 😀' AS ?x) }"
    rows = OxigraphStore.in_memory().select("SELECT ?x { BIND('caf\\u00E9' AS ?x) }")["results"]["bindings"]
    assert rows == [{"x": {"type": "literal", "value": "café"}}]


def test_predeclared_prefixes_and_messages() -> None:
    assert read_query("SELECT ?n { ?p a skgt:Product ; skg:hasName ?n ; rdfs:label ?l }").form == "SELECT"
    assert read_query(f"PREFIX skg: <{O.SKG}> DESCRIBE skg:x").form == "DESCRIBE"
    with pytest.raises(QueryRefused, match="unknown prefix nope:"):
        read_query("SELECT * { ?s nope:p ?o }")
    with pytest.raises(QueryRefused, match="^LOAD refused: queries are read-only"):
        read_query("LOAD <http://x/y>")
    with pytest.raises(QueryRefused, match="nested too deeply"):
        read_query("SELECT * WHERE " + "{ " * 400 + "?s ?p ?o" + " }" * 400)


def test_parse_cost_is_small_and_cached() -> None:
    query = (
        "SELECT ?p ?n (MAX(?v) AS ?best) WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:hasSpec ?s . "
        '?s skg:specName "Battery:Capacity" ; skg:numericValue ?v FILTER(?v > 4000 && CONTAINS(LCASE(?n), "phone")) '
        "OPTIONAL { ?p skg:belongs ?c } } GROUP BY ?p ?n ORDER BY DESC(?best) LIMIT 10"
    )
    t0 = time.perf_counter()
    read_query(query + " ")
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(100):
        read_query(query + " ")
    warm = (time.perf_counter() - t0) / 100
    assert cold < 1.0 and warm < 0.001, (cold, warm)
