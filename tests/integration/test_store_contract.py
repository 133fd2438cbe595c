"""The SparqlStore contract, written once and run on every backend that runs here: the embedded
OxigraphStore, a SparqlEndpointStore on a real Virtuoso 7 on loopback, and one on a real
Oxigraph HTTP server (``oxigraph serve``, opened through the ``oxigraph-server`` profile).

Each test takes ``store`` (or ``empty_store`` / ``read_only_store``), parametrized over
``oxigraph``, ``virtuoso`` and ``oxigraph-server``; the server cases are marked ``network``
and skip, through the session fixtures in ``conftest.py``, when the server or the `endpoint`
extra is not installed.
Covered: loading the two-document fixture and querying the union without GRAPH clauses,
dropping graphs, the W3C JSON shape of SELECT results, ASK / CONSTRUCT / DESCRIBE, the
read-only guard (updates and SERVICE refused, wrong query types, malformed queries),
insert_where, load errors that name the file and line, load progress in bytes, read-only stores and closed stores.
What only one backend does lives in ``test_oxigraph_store.py`` or ``test_endpoint_store.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg.rules import apply_rules
from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.oxigraph import OxigraphStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skg"
S25 = FIXTURES / "samsung_s25_ultra.nq"
A16 = FIXTURES / "tabular_a_series.nq"
G_S25 = O.document_graph("samsung-s25-ultra")
G_A16 = O.document_graph("tabular-a-series")
P1 = N.product_iri("Galaxy S25 Ultra 256GB Titanium Black", "SM-S938B")
PRODUCTS = "SELECT ?p WHERE { ?p a skgt:Product }"


def _statements(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.strip() and not line.startswith("#"))


def _values(result: dict, var: str) -> set[str]:
    return {row[var]["value"] for row in result["results"]["bindings"] if var in row}


SERVER_STORES = {"virtuoso": "endpoint_store", "oxigraph-server": "oxigraph_server_store"}
"""Server backends and the conftest fixture giving an emptied store on each."""


@pytest.fixture(params=["oxigraph", *(pytest.param(name, marks=pytest.mark.network) for name in SERVER_STORES)])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def empty_store(backend: str, request: pytest.FixtureRequest) -> Iterator[SparqlStore]:
    """An empty store: in-memory Oxigraph, or a session server emptied of DualGraph graphs."""
    if backend in SERVER_STORES:
        yield request.getfixturevalue(SERVER_STORES[backend])  # skips without the server or SPARQLWrapper
        return
    s = OxigraphStore.in_memory()
    yield s
    s.close()


@pytest.fixture
def store(empty_store: SparqlStore) -> SparqlStore:
    """The two-document fixture (S25 Ultra and the tabular A series), loaded on either backend."""
    empty_store.bulk_load([S25, A16])
    return empty_store


@pytest.fixture
def read_only_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SparqlStore]:
    """The two-document fixture behind a store opened read-only: an on-disk Oxigraph reopened
    read-only, or a second read-only client of the loaded server."""
    if backend in SERVER_STORES:
        from dualgraph.stores.endpoint import SparqlEndpointStore

        writer = request.getfixturevalue(SERVER_STORES[backend])
        writer.bulk_load([S25, A16])
        ro: SparqlStore = SparqlEndpointStore(writer.query_url, update_url=writer.update_url, read_only=True)
    else:
        with OxigraphStore(tmp_path / "db") as writer:
            writer.bulk_load([S25, A16])
        ro = OxigraphStore(tmp_path / "db", read_only=True)
    yield ro
    ro.close()


def test_implements_protocol_and_capabilities(store: SparqlStore) -> None:
    assert isinstance(store, SparqlStore)
    caps = store.capabilities
    assert caps.bulk_load_files and caps.union_default_graph and caps.update


def test_bulk_load_two_documents_union_sees_both(empty_store: SparqlStore) -> None:
    store = empty_store
    assert store.bulk_load([S25, A16]) == _statements(S25) + _statements(A16)
    assert store.graphs() == sorted([G_S25, G_A16])  # Virtuoso's system graphs are not listed
    assert store.count(graph=G_S25) == _statements(S25)
    assert store.count(graph=G_A16) == _statements(A16)
    assert store.count() == _statements(S25) + _statements(A16)
    assert len(_values(store.select(PRODUCTS), "p")) == 4  # two per document, no GRAPH clause needed
    # Loading again reads as many statements but adds no quads.
    assert store.bulk_load(S25) == _statements(S25)
    assert store.count(graph=G_S25) == _statements(S25)
    assert store.count() == _statements(S25) + _statements(A16)


def test_bulk_load_returns_statements_read(empty_store: SparqlStore) -> None:
    assert empty_store.bulk_load(S25) == _statements(S25)
    # Loading the same file again reads as many statements but adds no quads.
    assert empty_store.bulk_load(S25) == _statements(S25)
    assert empty_store.count() == _statements(S25)


def test_bulk_load_reports_every_byte_it_reads(empty_store: SparqlStore) -> None:
    read: list[int] = []
    assert empty_store.bulk_load([S25, A16], progress=read.append) == _statements(S25) + _statements(A16)
    assert read and sum(read) == S25.stat().st_size + A16.stat().st_size


def test_drop_graph_keeps_the_other(store: SparqlStore) -> None:
    store.drop_graph(G_S25)
    assert store.graphs() == [G_A16]
    assert store.count(graph=G_S25) == 0
    assert len(_values(store.select(PRODUCTS), "p")) == 2
    store.drop_graph(G_S25)  # dropping a missing graph is fine
    assert store.count(graph=G_A16) == _statements(A16)


def test_select_json_shape(store: SparqlStore) -> None:
    q = f"""SELECT ?name ?n ?lang ?typed ?unbound WHERE {{
      <{P1}> skg:hasName ?name ; skg:hasSpec/skg:hasQuantity/skg:hasNumericValue ?n .
      BIND(STRLANG("bonjour", "fr") AS ?lang)
      BIND(STRDT("s", xsd:string) AS ?typed)
      OPTIONAL {{ <{P1}> skg:nothing ?unbound }}
    }} ORDER BY ?n"""
    res = store.select(q)
    assert res["head"] == {"vars": ["name", "n", "lang", "typed", "unbound"]}
    rows = res["results"]["bindings"]
    # Virtuoso stores "1249"^^xsd:decimal as an integer: same value, other datatype
    # (Oxigraph keeps xsd:decimal exactly: test_oxigraph_store.py).
    assert rows[0]["n"]["type"] == "literal" and Decimal(rows[0]["n"]["value"]) == 1249
    assert rows[0]["n"]["datatype"] in (O.XSD_DECIMAL, O.XSD_INTEGER)
    assert rows[0]["name"] == {"type": "literal", "value": "Galaxy S25 Ultra 256GB Titanium Black"}
    assert rows[0]["lang"] == {"type": "literal", "value": "bonjour", "xml:lang": "fr"}
    assert rows[0]["typed"] == {"type": "literal", "value": "s"}  # RDF 1.1: xsd:string is the simple literal
    assert all("unbound" not in r for r in rows)
    assert {"p": {"type": "uri", "value": P1}} in store.select(PRODUCTS)["results"]["bindings"]


def test_ask_and_construct(store: SparqlStore) -> None:
    assert store.ask(f"ASK {{ <{P1}> a skgt:Product }}")
    assert not store.ask(f"ASK {{ <{P1}> a skgt:Category }}")
    triples = store.construct(f"CONSTRUCT {{ ?p skg:hasName ?n }} WHERE {{ BIND(<{P1}> AS ?p) ?p skg:hasName ?n }}")
    assert triples == [(f"<{P1}>", f"<{O.HAS_NAME}>", '"Galaxy S25 Ultra 256GB Titanium Black"')]
    odd = store.construct('CONSTRUCT { skg:a skg:p "line\\nbreak \\"q\\" \\\\"@en } WHERE {}')
    assert odd == [(f"<{O.SKG}a>", f"<{O.SKG}p>", '"line\\nbreak \\"q\\" \\\\"@en')]
    described = store.construct(f"DESCRIBE <{P1}>")
    assert (f"<{P1}>", f"<{O.TYPE}>", f"<{O.PRODUCT}>") in described


def test_explicit_prefixes_still_work(store: SparqlStore) -> None:
    assert store.ask(O.sparql_prologue() + f"ASK {{ <{P1}> rdf:type skgt:Product }}")
    assert store.ask(f"PREFIX skg: <{O.SKG}>\nASK {{ <{P1}> skg:hasName ?n }}")  # the others still added


@pytest.mark.parametrize(
    "query",
    [
        'INSERT DATA { skg:a skg:b "c" }',
        "PREFIX ex: <http://example.com/>\nDELETE WHERE { ?s ?p ?o }",
        "# comment first\ndelete { ?s ?p ?o } where { ?s ?p ?o }",
        "LOAD <http://example.com/data.nq>",
        "CLEAR ALL",
        f"DROP GRAPH <{G_S25}>",
        "WITH <http://x/g> INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
    ],
)
def test_updates_are_refused(store: SparqlStore, query: str) -> None:
    before = store.count()
    for method in (store.select, store.ask, store.construct):
        with pytest.raises(StoreError, match="read-only"):
            method(query)
    assert store.count() == before and store.graphs() == sorted([G_S25, G_A16])


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * WHERE { SERVICE <http://example.com/sparql> { ?s ?p ?o } }",
        "SELECT * WHERE { ?s ?p ?o . service silent <http://example.com/sparql> { ?s ?p ?o } }",
        "SELECT * WHERE { ?x ?p ?o .SERVICE ?endpoint { ?s ?p ?o } }",
        "ASK { { SELECT ?s { SERVICE<http://e.com/q>{ ?s ?p ?o } } } }",
        "CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <http://e.com/q> { ?s ?p ?o } }",
    ],
)
def test_service_is_refused(store: SparqlStore, query: str) -> None:
    method = {"SELECT": store.select, "ASK": store.ask, "CONSTRUCT": store.construct}[query.split()[0]]
    with pytest.raises(StoreError, match="SERVICE"):
        method(query)


def test_service_word_in_strings_iris_and_names_is_fine(store: SparqlStore) -> None:
    q = """SELECT ?s WHERE {  # SERVICE <http://e.com> { }
      ?s skg:hasName "SERVICE <http://e.com/q> { ?a ?b ?c }" .
      ?s <http://example.com/SERVICE> ?service .
      ?s skg:service ?o .
      FILTER(LANG(?o) = "x") BIND('''SERVICE''' AS ?t) BIND("y"@service AS ?u)
    }"""
    assert store.select(q)["results"]["bindings"] == []


def test_wrong_query_type_is_refused(store: SparqlStore) -> None:
    with pytest.raises(StoreError, match="expected a SELECT query, got ASK"):
        store.select("ASK { ?s ?p ?o }")
    with pytest.raises(StoreError, match="got SELECT"):
        store.ask(PRODUCTS)
    with pytest.raises(StoreError, match="got SELECT"):
        store.construct(PRODUCTS)
    with pytest.raises(StoreError, match="got CONSTRUCT"):
        store.select("CONSTRUCT WHERE { ?s ?p ?o }")


def test_malformed_query(store: SparqlStore) -> None:
    with pytest.raises(StoreError, match="malformed"):
        store.select("SELEC ?x WHERE { ?x ?p ?o }")
    with pytest.raises(StoreError, match="malformed"):
        store.select(
            "SELECT ?x WHERE { ?x nope:p ?o }"
        )  # undeclared prefix (Virtuoso names it: test_endpoint_store.py)


def test_insert_where_reads_the_union_and_counts_new_quads(store: SparqlStore) -> None:
    g = O.GRAPH + "test"
    # Template facts joined across both document graphs.
    where = "?p a skgt:Product ; skg:variantOf ?r . ?r skg:belongs ?c"
    assert store.insert_where("?p skg:belongs ?c", where, graph=g) == 4
    assert store.insert_where("?p skg:belongs ?c", where, graph=g) == 0
    assert store.count(graph=g) == 4
    assert g in store.graphs()
    store.drop_graph(g)
    assert store.count(graph=g) == 0 and g not in store.graphs()
    with pytest.raises(StoreError, match="not a graph IRI"):
        store.insert_where("?p skg:belongs ?c", where, graph="not an iri")


def test_bad_nquads_names_file_and_line(empty_store: SparqlStore, tmp_path: Path) -> None:
    bad = tmp_path / "broken.nq"
    bad.write_text(f'<{P1}> <{O.HAS_NAME}> "ok" <{G_S25}> .\n<{P1}> <{O.HAS_NAME}> "unterminated <{G_S25}> .\n')
    with pytest.raises(StoreError) as e:
        empty_store.bulk_load(bad)
    assert "broken.nq" in str(e.value) and "line 2" in str(e.value)
    with pytest.raises(StoreError, match="no such file"):
        empty_store.bulk_load(tmp_path / "absent.nq")
    with pytest.raises(StoreError, match="unknown format"):
        empty_store.bulk_load(S25, format="turtle")


def test_read_only_refuses_writes(read_only_store: SparqlStore) -> None:
    ro = read_only_store
    assert not ro.capabilities.update
    assert len(_values(ro.select(PRODUCTS), "p")) == 4
    before = ro.count()
    for write in (
        lambda: ro.bulk_load(A16),
        lambda: ro.insert_where("?p skg:x 1", "?p a skgt:Product", graph=O.DERIVED_GRAPH),
        lambda: ro.drop_graph(G_S25),
        lambda: ro.update(f"DROP GRAPH <{G_S25}>"),
        lambda: apply_rules(ro),
    ):
        with pytest.raises(StoreError, match="read-only"):
            write()
    assert ro.count() == before
    assert ro.count(graph=G_S25) == _statements(S25)


def test_closed_store_raises(store: SparqlStore) -> None:
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.ask("ASK {}")
    with pytest.raises(StoreError, match="closed"):
        store.count()
