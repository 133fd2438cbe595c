"""OxigraphStore against real pyoxigraph: loading, union queries, refusals, persistence."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.stores.base import SparqlStore, StoreError
from dualgraph.stores.guard import sparql_words
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


@pytest.fixture
def store() -> OxigraphStore:
    s = OxigraphStore.in_memory()
    s.bulk_load(S25)
    s.bulk_load(A16)
    yield s
    s.close()


def _values(result: dict, var: str) -> set[str]:
    return {row[var]["value"] for row in result["results"]["bindings"] if var in row}


def test_implements_protocol_and_capabilities(tmp_path: Path) -> None:
    mem = OxigraphStore.in_memory()
    assert isinstance(mem, SparqlStore)
    assert mem.capabilities.bulk_load_files and mem.capabilities.union_default_graph
    assert mem.capabilities.update and not mem.capabilities.persistent
    with OxigraphStore(tmp_path / "db") as disk:
        assert disk.capabilities.persistent and disk.capabilities.update


def test_bulk_load_two_documents_union_sees_both(store: OxigraphStore) -> None:
    assert store.graphs() == sorted([G_S25, G_A16])
    assert store.count(graph=G_S25) == _statements(S25)
    assert store.count(graph=G_A16) == _statements(A16)
    assert store.count() == _statements(S25) + _statements(A16)
    assert len(_values(store.select(PRODUCTS), "p")) == 4  # two per document, no GRAPH clause needed


def test_bulk_load_returns_statements_read() -> None:
    s = OxigraphStore.in_memory()
    assert s.bulk_load(S25) == _statements(S25)
    # Loading the same file again reads as many statements but adds no quads.
    assert s.bulk_load(S25) == _statements(S25)
    assert s.count() == _statements(S25)


def test_ntriples_load_into_default_graph(tmp_path: Path) -> None:
    f = tmp_path / "t.nt"
    f.write_text(f'<{P1}> <{O.HAS_NAME}> "x" .\n# a comment\n\n')
    s = OxigraphStore.in_memory()
    assert s.bulk_load(f, format="ntriples") == 1
    assert s.graphs() == []
    assert s.ask(f'ASK {{ <{P1}> skg:hasName "x" }}')


def test_drop_graph_keeps_the_other(store: OxigraphStore) -> None:
    store.drop_graph(G_S25)
    assert store.graphs() == [G_A16]
    assert store.count(graph=G_S25) == 0
    assert len(_values(store.select(PRODUCTS), "p")) == 2
    store.drop_graph(G_S25)  # dropping a missing graph is fine
    assert store.count(graph=G_A16) == _statements(A16)


def test_select_json_shape(store: OxigraphStore) -> None:
    q = f"""SELECT ?name ?n ?lang ?unbound WHERE {{
      <{P1}> skg:hasName ?name ; skg:hasSpec/skg:hasNumericValue ?n .
      BIND(STRLANG("bonjour", "fr") AS ?lang)
      OPTIONAL {{ <{P1}> skg:nothing ?unbound }}
    }} ORDER BY ?n"""
    res = store.select(q)
    assert res["head"] == {"vars": ["name", "n", "lang", "unbound"]}
    rows = res["results"]["bindings"]
    assert rows[0]["n"] == {"type": "literal", "value": "1249", "datatype": O.XSD_DECIMAL}
    assert rows[0]["name"] == {"type": "literal", "value": "Galaxy S25 Ultra 256GB Titanium Black"}
    assert rows[0]["lang"] == {"type": "literal", "value": "bonjour", "xml:lang": "fr"}
    assert all("unbound" not in r for r in rows)
    # Same document as pyoxigraph's own W3C JSON serializer.
    raw = ox.Store()
    raw.bulk_load(path=str(S25), format=ox.RdfFormat.N_QUADS)
    ref = raw.query(q, prefixes=O.PREFIXES, use_default_graph_as_union=True)
    assert res == json.loads(ref.serialize(format=ox.QueryResultsFormat.JSON))


def test_select_uri_and_bnode_terms() -> None:
    res = OxigraphStore.in_memory().select("SELECT ?u ?b WHERE { BIND(skg:x AS ?u) BIND(BNODE() AS ?b) }")
    row = res["results"]["bindings"][0]
    assert row["u"] == {"type": "uri", "value": O.SKG + "x"}
    assert row["b"]["type"] == "bnode"


def test_ask_and_construct(store: OxigraphStore) -> None:
    assert store.ask(f"ASK {{ <{P1}> a skgt:Product }}")
    assert not store.ask(f"ASK {{ <{P1}> a skgt:Category }}")
    triples = store.construct(f"CONSTRUCT {{ ?p skg:hasName ?n }} WHERE {{ BIND(<{P1}> AS ?p) ?p skg:hasName ?n }}")
    assert triples == [(f"<{P1}>", f"<{O.HAS_NAME}>", '"Galaxy S25 Ultra 256GB Titanium Black"')]
    described = store.construct(f"DESCRIBE <{P1}>")
    assert (f"<{P1}>", f"<{O.TYPE}>", f"<{O.PRODUCT}>") in described


def test_explicit_prefixes_still_work(store: OxigraphStore) -> None:
    assert store.ask(O.sparql_prologue() + f"ASK {{ <{P1}> rdf:type skgt:Product }}")


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
def test_updates_are_refused(store: OxigraphStore, query: str) -> None:
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
def test_service_is_refused(store: OxigraphStore, query: str) -> None:
    method = {"SELECT": store.select, "ASK": store.ask, "CONSTRUCT": store.construct}[query.split()[0]]
    with pytest.raises(StoreError, match="SERVICE"):
        method(query)


def test_service_word_in_strings_iris_and_names_is_fine(store: OxigraphStore) -> None:
    q = """SELECT ?s WHERE {  # SERVICE <http://e.com> { }
      ?s skg:hasName "SERVICE <http://e.com/q> { ?a ?b ?c }" .
      ?s <http://example.com/SERVICE> ?service .
      ?s skg:service ?o .
      FILTER(LANG(?o) = "x") BIND('''SERVICE''' AS ?t) BIND("y"@service AS ?u)
    }"""
    assert store.select(q)["results"]["bindings"] == []


def test_sparql_words_lexing() -> None:
    assert sparql_words('ASK { "a \\" SERVICE" <http://x/SERVICE> ?SERVICE ex:SERVICE }') == ["ASK", "{", "}"]
    assert "SERVICE" in sparql_words("SELECT * { ex:a.\nSERVICE <x> {} }")
    assert sparql_words("[] _:b1") == ["[", "]", "_:"]


def test_wrong_query_type_is_refused(store: OxigraphStore) -> None:
    with pytest.raises(StoreError, match="expected a SELECT query, got ASK"):
        store.select("ASK { ?s ?p ?o }")
    with pytest.raises(StoreError, match="got SELECT"):
        store.ask(PRODUCTS)
    with pytest.raises(StoreError, match="got SELECT"):
        store.construct(PRODUCTS)
    with pytest.raises(StoreError, match="got CONSTRUCT"):
        store.select("CONSTRUCT WHERE { ?s ?p ?o }")


def test_malformed_query(store: OxigraphStore) -> None:
    with pytest.raises(StoreError, match="malformed"):
        store.select("SELEC ?x WHERE { ?x ?p ?o }")
    with pytest.raises(StoreError, match="malformed"):
        store.select("SELECT ?x WHERE { ?x nope:p ?o }")  # undeclared prefix


def test_timeout_is_checked_between_rows(store: OxigraphStore) -> None:
    with pytest.raises(StoreError, match="timed out"):
        store.select("SELECT * WHERE { ?s ?p ?o }", timeout_s=0)
    assert store.select("SELECT * WHERE { ?s ?p ?o }", timeout_s=60)["results"]["bindings"]


def test_insert_where_reads_the_union_and_counts_new_quads(store: OxigraphStore) -> None:
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


def test_bad_nquads_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.nq"
    bad.write_text(f'<{P1}> <{O.HAS_NAME}> "ok" <{G_S25}> .\n<{P1}> <{O.HAS_NAME}> "unterminated <{G_S25}> .\n')
    with pytest.raises(StoreError) as e:
        OxigraphStore.in_memory().bulk_load(bad)
    assert "broken.nq" in str(e.value) and "line 2" in str(e.value)
    with pytest.raises(StoreError, match="no such file"):
        OxigraphStore.in_memory().bulk_load(tmp_path / "absent.nq")
    with pytest.raises(StoreError, match="unknown format"):
        OxigraphStore.in_memory().bulk_load(S25, format="turtle")


def test_persistence_and_read_only(tmp_path: Path) -> None:
    path = tmp_path / "index" / "skg"
    with OxigraphStore(path) as s:
        s.bulk_load(S25)
        s.insert_where("?p skg:belongs ?c", "?p skg:variantOf/skg:belongs ?c", graph=O.DERIVED_GRAPH)
        total = s.count()
    with OxigraphStore(path) as again:  # reopen read-write: the lock was released on close
        assert again.count() == total
    ro = OxigraphStore(path, read_only=True)
    assert not ro.capabilities.update and ro.capabilities.persistent
    assert ro.count() == total and ro.graphs() == sorted([G_S25, O.DERIVED_GRAPH])
    assert len(_values(ro.select(PRODUCTS), "p")) == 2
    with pytest.raises(StoreError, match="read-only"):
        ro.bulk_load(A16)
    with pytest.raises(StoreError, match="read-only"):
        ro.insert_where("?p skg:x 1", "?p a skgt:Product", graph=O.DERIVED_GRAPH)
    with pytest.raises(StoreError, match="read-only"):
        ro.drop_graph(G_S25)
    assert ro.count() == total
    ro.close()


def test_missing_index_read_only(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(StoreError, match="dualgraph index") as e:
        OxigraphStore(missing, read_only=True)
    assert str(missing) in str(e.value)
    assert not missing.exists()


def test_closed_store_raises() -> None:
    s = OxigraphStore.in_memory()
    s.close()
    s.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        s.ask("ASK {}")
    with pytest.raises(StoreError, match="closed"):
        s.count()


def test_bulk_load_of_several_files_is_one_pass_and_names_the_bad_file(tmp_path: Path) -> None:
    a = tmp_path / "a.nq"
    a.write_text('<http://x/a> <http://x/p> "1" <http://x/g1> .')  # no trailing newline
    b = tmp_path / "b.nq"
    b.write_text('<http://x/b> <http://x/p> "2" <http://x/g2> .\n<http://x/b> <http://x/p> oops <http://x/g2> .\n')
    store = OxigraphStore.in_memory()
    assert store.bulk_load([a, a]) == 2
    assert store.count() == 1
    with pytest.raises(StoreError, match=r"b\.nq, line 2"):
        store.bulk_load([a, b])
