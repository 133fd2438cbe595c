"""Generated SPARQL is refused unless it is a parseable read query; big results are cut and reported."""

import pytest

from dualgraph.corpus.model import Variant
from dualgraph.query.sparql.render import render_markdown
from dualgraph.query.sparql.safety import QueryRefused, check_query, run_select
from dualgraph.skg.triples import convert_document
from dualgraph.stores.oxigraph import OxigraphStore


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    variants = [
        Variant(f"Phone {i}", f"Phone {i}", ("phones",), (("Battery:Capacity", f"{4000 + i} mAh"),)) for i in range(30)
    ]
    path = tmp_path_factory.mktemp("s") / "d.nq"
    path.write_text(convert_document("d", variants).nquads)
    s = OxigraphStore.in_memory()
    s.bulk_load(path)
    return s


@pytest.mark.parametrize(
    "query",
    [
        'INSERT DATA { skg:x skg:hasName "x" }',
        "DELETE WHERE { ?s ?p ?o }",
        "PREFIX ex: <http://e.com/> DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }",
        "LOAD <http://example.com/x.nq>",
        "CLEAR ALL",
        "DROP GRAPH <http://x/g>",
        "CREATE GRAPH <http://x/g>",
        "COPY <http://x/a> TO <http://x/b>",
        "SELECT * WHERE { ?s ?p ?o } ; DELETE WHERE { ?s ?p ?o }",
    ],
)
def test_update_operations_are_refused(store, query):
    before = store.count()
    with pytest.raises(QueryRefused):
        run_select(store, query)
    assert store.count() == before


def test_service_and_garbage_are_refused():
    with pytest.raises(QueryRefused, match="SERVICE"):
        check_query("SELECT * WHERE { SERVICE <http://e.com/sparql> { ?s ?p ?o } }")
    with pytest.raises(QueryRefused, match="malformed"):
        check_query("SELECT ?x WHERE { ?x skg:hasName }")
    with pytest.raises(QueryRefused, match="malformed SPARQL query.*found 'hello'"):
        check_query("hello world")


def test_read_queries_pass_and_big_results_are_cut_and_reported(store):
    assert check_query("ASK { ?p a skgt:Product }") == "ASK"
    res = run_select(store, "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n", row_cap=10)
    # the store stops at row_cap + 1 rows: enough to know the result was cut, no more held
    assert len(res.rows) == 10 and res.total_rows == 11 and res.truncated
    text = render_markdown(res, max_rows=5)
    assert text.count("| Phone ") == 5 and "more than 10 rows (5 shown; the query's result was cut there)" in text
    with pytest.raises(QueryRefused, match="expected a SELECT"):
        run_select(store, "ASK { ?p a skgt:Product }")
