"""The read-only guard decides on the parsed query: every probe below is refused by the
guard, by the embedded store and by `dualgraph sparql`, with a clear message and without
one request reaching the loopback server the probes point at (its hit count stays 0).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pyoxigraph as ox
import pytest

from dualgraph.cli import main
from dualgraph.pipeline.layout import IndexLayout
from dualgraph.query.sparql.safety import QueryRefused, check_query
from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.guard import read_query
from dualgraph.stores.oxigraph import OxigraphStore
from reliability_tools.probes import REFUSAL, CountingServer, guard_probes


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[str]]]:
    """A SPARQL-ish server on 127.0.0.1 that counts every request it gets."""
    with CountingServer() as counter:
        yield counter.url, counter.hits


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("index")
    OxigraphStore(IndexLayout(root).store).close()
    return root


PROBES = list(guard_probes("http://127.0.0.1:1/sparql"))
REASON = REFUSAL


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
    query, before = guard_probes(url)[name], len(hits)
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


def test_plain_generated_queries_take_oxigraphs_parser_and_telling_words_the_full_one() -> None:
    from dualgraph.stores.guard import _plainly_safe_form

    plain = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n FILTER(?n != 'x') } LIMIT 3"
    assert _plainly_safe_form(plain) == "SELECT"
    assert _plainly_safe_form("ASK { ?p a skgt:Product }") == "ASK"
    for text in (
        plain.replace("'x'", "'service'"),  # a telling word, even in a string: the full check decides
        plain.replace("'x'", "'caf\u00e9'"),  # not ASCII
        "PREFIX skg: <https://w3id.org/dualgraph/skg#> " + plain,
        "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }",
        "SELECT * WHERE " + "{ " * 70 + "?s ?p ?o" + " }" * 70,
        "SELECT * { ?s ?p ?o } ; CLEAR ALL",
        "SELECT * { ?s nope:p ?o }",
    ):
        assert _plainly_safe_form(text) is None, text
    # and both paths agree on what they accept
    assert read_query(plain.replace("'x'", "'service'")).form == "SELECT"


def test_a_query_checked_once_is_not_parsed_again() -> None:
    """Generated queries are checked at compile time, by run_select and by the store: one parse."""
    from dualgraph.stores import guard

    query = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } LIMIT 3 # once"
    before = guard._checked.cache_info()
    for _ in range(3):
        read_query(query)
    after = guard._checked.cache_info()
    assert after.misses == before.misses + 1 and after.hits == before.hits + 2
