"""OxigraphStore against real pyoxigraph: what only the embedded store does.

The SparqlStore contract it shares with the endpoint store (loading and union queries,
drop_graph, JSON results, ASK/CONSTRUCT, refused updates and SERVICE, insert_where,
read-only and closed stores) is in ``test_store_contract.py``. Here: in-memory vs on-disk
capabilities, N-Triples into the default graph, exact xsd:decimal results equal to pyoxigraph's
own JSON serializer, BNODE() terms, the guard's lexer, query timeouts, persistence on disk,
a missing index, and multi-file bulk loads that name the bad file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.stores.base import StoreError
from dualgraph.stores.guard import sparql_words
from dualgraph.stores.oxigraph import OxigraphStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skg"
S25 = FIXTURES / "samsung_s25_ultra.nq"
A16 = FIXTURES / "tabular_a_series.nq"
G_S25 = O.document_graph("samsung-s25-ultra")
P1 = N.product_iri("Galaxy S25 Ultra 256GB Titanium Black", "SM-S938B")

PRODUCTS = "SELECT ?p WHERE { ?p a skgt:Product }"


@pytest.fixture
def store() -> OxigraphStore:
    s = OxigraphStore.in_memory()
    s.bulk_load(S25)
    s.bulk_load(A16)
    yield s
    s.close()


def _values(result: dict, var: str) -> set[str]:
    return {row[var]["value"] for row in result["results"]["bindings"] if var in row}


def test_capabilities_in_memory_and_on_disk(tmp_path: Path) -> None:
    mem = OxigraphStore.in_memory()
    assert mem.capabilities.update and not mem.capabilities.persistent
    with OxigraphStore(tmp_path / "db") as disk:
        assert disk.capabilities.persistent and disk.capabilities.update


def test_ntriples_load_into_default_graph(tmp_path: Path) -> None:
    f = tmp_path / "t.nt"
    f.write_text(f'<{P1}> <{O.HAS_NAME}> "x" .\n# a comment\n\n')
    s = OxigraphStore.in_memory()
    assert s.bulk_load(f, format="ntriples") == 1
    assert s.graphs() == []
    assert s.ask(f'ASK {{ <{P1}> skg:hasName "x" }}')


def test_select_json_is_exact_and_matches_pyoxigraph(store: OxigraphStore) -> None:
    """Oxigraph keeps "1249"^^xsd:decimal as written and its JSON is pyoxigraph's own, to the letter."""
    q = f"""SELECT ?name ?n ?lang ?unbound WHERE {{
      <{P1}> skg:hasName ?name ; skg:hasSpec/skg:hasQuantity/skg:hasNumericValue ?n .
      BIND(STRLANG("bonjour", "fr") AS ?lang)
      OPTIONAL {{ <{P1}> skg:nothing ?unbound }}
    }} ORDER BY ?n"""
    res = store.select(q)
    assert res["head"] == {"vars": ["name", "n", "lang", "unbound"]}
    rows = res["results"]["bindings"]
    assert rows[0]["n"] == {"type": "literal", "value": "1249", "datatype": O.XSD_DECIMAL}
    # Same document as pyoxigraph's own W3C JSON serializer.
    raw = ox.Store()
    raw.bulk_load(path=str(S25), format=ox.RdfFormat.N_QUADS)
    ref = raw.query(q, prefixes=O.PREFIXES, use_default_graph_as_union=True)
    assert res == json.loads(ref.serialize(format=ox.QueryResultsFormat.JSON))


def test_select_uri_and_bnode_terms() -> None:
    # Virtuoso does not implement BNODE() ("Built-in function is not implemented").
    res = OxigraphStore.in_memory().select("SELECT ?u ?b WHERE { BIND(skg:x AS ?u) BIND(BNODE() AS ?b) }")
    row = res["results"]["bindings"][0]
    assert row["u"] == {"type": "uri", "value": O.SKG + "x"}
    assert row["b"]["type"] == "bnode"


def test_sparql_words_lexing() -> None:
    assert sparql_words('ASK { "a \\" SERVICE" <http://x/SERVICE> ?SERVICE ex:SERVICE }') == ["ASK", "{", "}"]
    assert "SERVICE" in sparql_words("SELECT * { ex:a.\nSERVICE <x> {} }")
    assert sparql_words("[] _:b1") == ["[", "]", "_:"]


def test_timeout_is_checked_between_rows(store: OxigraphStore) -> None:
    with pytest.raises(StoreError, match="timed out"):
        store.select("SELECT * WHERE { ?s ?p ?o }", timeout_s=0)
    assert store.select("SELECT * WHERE { ?s ?p ?o }", timeout_s=60)["results"]["bindings"]


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
    ro.close()  # its refused writes: test_store_contract.py::test_read_only_refuses_writes[oxigraph]


def test_missing_index_read_only(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(StoreError, match="dualgraph index") as e:
        OxigraphStore(missing, read_only=True)
    assert str(missing) in str(e.value)
    assert not missing.exists()


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
