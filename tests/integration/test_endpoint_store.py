"""SparqlEndpointStore against a real Virtuoso 7 on loopback: what only the endpoint store does.

The SparqlStore contract it shares with the Oxigraph store (loading and union queries,
drop_graph, JSON results, ASK/CONSTRUCT, refused updates and SERVICE, insert_where,
read-only and closed stores) is in ``test_store_contract.py``. Here: persistent and plain
(no Graph Store, no union) capabilities, N-Triples into a named graph, CONSTRUCT terms equal to
Oxigraph's, every update form, DEFINE pragmas refused, server-reported errors, Digest auth,
down and silent servers, large loads through the Graph Store Protocol and the INSERT DATA
fallback, row caps, the packaged rules deriving the same facts on Oxigraph and on each
server (Virtuoso and the Oxigraph HTTP server), and the index pipeline on Virtuoso."""

from __future__ import annotations

import socket
import time
from decimal import Decimal
from pathlib import Path

import pytest

pytest.importorskip("SPARQLWrapper", reason="the `endpoint` extra (SPARQLWrapper, rdflib) is not installed")

from dualgraph.corpus.model import Variant
from dualgraph.skg import names as N
from dualgraph.skg import ontology as O
from dualgraph.skg.catalog_graph import derive_catalog_facts
from dualgraph.skg.rules import apply_rules, load_rules
from dualgraph.skg.triples import convert_document
from dualgraph.stores.base import QueryTimeout, SparqlStore, StoreError
from dualgraph.stores.endpoint import SparqlEndpointStore
from dualgraph.stores.oxigraph import OxigraphStore
from dualgraph.stores.retry import RetryPolicy

pytestmark = pytest.mark.network

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "skg"
S25 = FIXTURES / "samsung_s25_ultra.nq"
A16 = FIXTURES / "tabular_a_series.nq"
G_S25 = O.document_graph("samsung-s25-ultra")
P1 = N.product_iri("Galaxy S25 Ultra 256GB Titanium Black", "SM-S938B")
NUMERIC = {O.XSD_DECIMAL, O.XSD_INTEGER, O.XSD_DOUBLE, O.XSD + "float"}


@pytest.fixture
def store(endpoint_store: SparqlEndpointStore) -> SparqlEndpointStore:
    endpoint_store.bulk_load([S25, A16])
    return endpoint_store


def _big_file(tmp_path: Path, n: int, graph: str) -> Path:
    f = tmp_path / "big.nq"
    with f.open("w") as fh:
        for i in range(n):
            fh.write(f'<{O.SKG}big-{i}> <{O.HAS_NAME}> "item {i}" <{graph}> .\n')
    return f


def test_capabilities_persistent_and_plain(endpoint_store: SparqlEndpointStore) -> None:
    assert endpoint_store.capabilities.persistent
    plain = SparqlEndpointStore(endpoint_store.query_url, read_only=True, union_default_graph=False)
    assert not plain.capabilities.bulk_load_files and not plain.capabilities.update
    assert not plain.capabilities.union_default_graph


def test_ntriples_load_into_a_named_graph(endpoint_store: SparqlEndpointStore, tmp_path: Path) -> None:
    f = tmp_path / "t.nt"
    f.write_text(f'<{P1}> <{O.HAS_NAME}> "x" .\n# a comment\n\n<{P1}> <{O.TYPE}> <{O.PRODUCT}> .\n')
    g = O.GRAPH + "nt"
    assert endpoint_store.bulk_load(f, format="ntriples", graph=g) == 2
    assert endpoint_store.graphs() == [g]
    assert endpoint_store.ask(f'ASK {{ <{P1}> skg:hasName "x" }}')


def test_construct_terms_match_oxigraph(store: SparqlEndpointStore) -> None:
    odd = O.GRAPH + "odd"
    objects = '"5Gб \\"q\\"\\ttab\\nnew ✓", "chat"@fr-CA, "s"^^xsd:string, <http://e.com/a%20b>'
    data = f"INSERT DATA {{ GRAPH <{odd}> {{ skg:x skg:p {objects} }} }}"
    ox = OxigraphStore.in_memory()
    ox.bulk_load([S25])
    for s in (store, ox):
        s.update(data)
    q = f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ {{ GRAPH <{G_S25}> {{ ?s ?p ?o }} }} UNION {{ GRAPH <{odd}> {{ ?s ?p ?o }} }} }}"
    numeric = tuple(f"^^<{d}>" for d in NUMERIC)
    got = {t for t in store.construct(q) if not t[2].endswith(numeric)}  # 1249 comes back as an integer
    assert got == {t for t in ox.construct(q) if not t[2].endswith(numeric)}
    assert (f"<{O.SKG}x>", f"<{O.SKG}p>", '"s"') in got


def test_update_runs_every_form(endpoint_store: SparqlEndpointStore) -> None:
    g = O.GRAPH + "u"
    endpoint_store.update(f"INSERT DATA {{ GRAPH <{g}> {{ skg:a skg:p 1, 2, 3 }} }}")
    endpoint_store.update(f"WITH <{g}> DELETE {{ ?s ?p 2 }} WHERE {{ ?s ?p 2 }}")
    assert endpoint_store.count(graph=g) == 2
    endpoint_store.update(f"CLEAR GRAPH <{g}>")
    assert endpoint_store.count(graph=g) == 0
    with pytest.raises(StoreError, match="malformed SPARQL update"):
        endpoint_store.update("INSERT DATA { nope:a skg:p 1 }")
    no_union = SparqlEndpointStore(endpoint_store.query_url, union_default_graph=False)
    with pytest.raises(StoreError, match="union default graph"):
        no_union.insert_where("?p skg:x 1", "?p a skgt:Product", graph=g)


def test_virtuoso_pragmas_are_refused(store: SparqlEndpointStore) -> None:
    with pytest.raises(StoreError, match="DEFINE"):
        store.select('define get:soft "replace" SELECT * FROM <http://example.com/x> WHERE { ?s ?p ?o }')


def test_malformed_query_names_the_undeclared_prefix(store: SparqlEndpointStore) -> None:
    with pytest.raises(StoreError, match="malformed.*nope"):
        store.select("SELECT ?x WHERE { ?x nope:p ?o }")  # undeclared prefix, reported by the server


def test_digest_auth_endpoint(endpoint_store: SparqlEndpointStore, virtuoso) -> None:
    g = O.GRAPH + "auth"
    authed = SparqlEndpointStore(virtuoso.sparql_auth_url, user="dba", password="dba")
    assert authed.insert_where("skg:a skg:p ?x", "BIND(1 AS ?x)", graph=g) == 1
    assert endpoint_store.count(graph=g) == 1
    wrong = SparqlEndpointStore(virtuoso.sparql_auth_url, user="dba", password="wrong")
    with pytest.raises(StoreError, match="not authorised"):
        wrong.ask("ASK {}")


def test_down_server_names_the_url(tmp_path: Path) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/sparql"
    retry = RetryPolicy(attempts=3, backoff_s=0.05, budget_s=5)  # a refused connection is retried, briefly
    down = SparqlEndpointStore(url, graph_store_url=f"http://127.0.0.1:{port}/gsp", retry=retry)
    t0 = time.monotonic()
    calls = (down.check_reachable, lambda: down.ask("ASK {}"), down.graphs, lambda: down.drop_graph(G_S25))
    for call in (*calls, lambda: down.bulk_load(S25)):
        with pytest.raises(StoreError, match=f"cannot reach SPARQL endpoint at http://127.0.0.1:{port}/.*3 attempts"):
            call()
    assert time.monotonic() - t0 < 5


def test_silent_server_times_out() -> None:
    with socket.socket() as s:  # accepts connections (kernel backlog), never answers
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        retry = RetryPolicy(attempts=2, backoff_s=0.1, budget_s=5)
        store = SparqlEndpointStore(f"http://127.0.0.1:{s.getsockname()[1]}/sparql", timeout_s=1, retry=retry)
        t0 = time.monotonic()
        with pytest.raises(QueryTimeout, match="timed out after 1 s.*2 attempts"):
            store.ask("ASK {}")
        assert time.monotonic() - t0 < 10


def test_bad_ntriples_and_server_refusals_name_the_file(endpoint_store: SparqlEndpointStore, tmp_path: Path) -> None:
    quad = tmp_path / "quad.nt"
    quad.write_text(f'<{P1}> <{O.HAS_NAME}> "ok" <{G_S25}> .\n')
    with pytest.raises(StoreError, match=r"quad\.nt, line 1"):
        endpoint_store.bulk_load(quad, format="ntriples", graph=G_S25)
    # A statement the line check lets through but the server refuses still names the file.
    odd = tmp_path / "odd.nq"
    odd.write_text(f'<{P1}> <{O.HAS_NAME}> "x"^^<{O.XSD_INTEGER}> <{G_S25}> .\n')
    try:
        endpoint_store.bulk_load(odd)
    except StoreError as err:
        assert "odd.nq" in str(err)


@pytest.mark.parametrize("path", ["graph-store", "insert-data"])
def test_large_load(endpoint_store: SparqlEndpointStore, tmp_path: Path, path: str) -> None:
    g = O.GRAPH + "big"
    store = endpoint_store
    if path == "insert-data":  # no Graph Store URL: INSERT DATA batches under Virtuoso's ~1000 limit
        store = SparqlEndpointStore(endpoint_store.query_url, max_rows=10_000)
        assert not store.capabilities.bulk_load_files
    assert store.bulk_load(_big_file(tmp_path, 20_000, g)) == 20_000
    assert store.count(graph=g) == 20_000
    assert store.ask('ASK { skg:big-19999 skg:hasName "item 19999" }')


def test_row_cap_truncation_is_reported(endpoint_store: SparqlEndpointStore, tmp_path: Path) -> None:
    g = O.GRAPH + "big"
    endpoint_store.bulk_load(_big_file(tmp_path, 12_000, g))
    everything = "SELECT ?s WHERE { ?s skg:hasName ?n }"
    with pytest.raises(StoreError, match="truncated at 10000 rows"):
        endpoint_store.select(everything)
    with pytest.raises(StoreError, match="truncated at 10000 triples"):
        endpoint_store.construct("CONSTRUCT { ?s skg:hasName ?n } WHERE { ?s skg:hasName ?n }")
    # Its own LIMIT at the cap means the result is complete as asked; key pages reach the rest
    # (Virtuoso refuses ORDER BY with OFFSET + LIMIT past its cap: SR353).
    head = endpoint_store.select(everything + " ORDER BY STR(?s) LIMIT 10000")["results"]["bindings"]
    last = max(row["s"]["value"] for row in head)
    paged = f'SELECT ?s WHERE {{ ?s skg:hasName ?n FILTER(STR(?s) > "{last}") }} ORDER BY STR(?s) LIMIT 10000'
    assert len(head) == 10_000 and len(endpoint_store.select(paged)["results"]["bindings"]) == 2_000
    # Without a declared cap the store cannot tell, and says nothing (documented).
    blind = SparqlEndpointStore(endpoint_store.query_url)
    assert len(blind.select(everything)["results"]["bindings"]) == 10_000


# -- the packaged rules derive the same facts on Oxigraph and on each server ------------


@pytest.fixture(params=["virtuoso", "oxigraph-server"])
def server_store(request: pytest.FixtureRequest) -> SparqlEndpointStore:
    """An emptied store on a real server: Virtuoso, or ``oxigraph serve`` through its profile."""
    fixture = {"virtuoso": "endpoint_store", "oxigraph-server": "oxigraph_server_store"}[request.param]
    return request.getfixturevalue(fixture)


def _variant(name: str, rng: str, specs: list[tuple[str, str]]) -> Variant:
    return Variant(name, rng, ("Smartphones",), tuple(specs))


def _catalog(tmp_path: Path) -> list[Path]:
    """Two documents, two ranges of two variants each, written by the real converter."""
    common_a = [
        ("Network:Technology", "GSM / HSPA / LTE / 5G"),
        ("Connectivity:Wi-Fi", "Wi-Fi 802.11 a/b/g/n/ac, dual-band 5GHz"),
        ("Camera:Video Recording", "8K@30fps, 4K@60fps"),
        ("Features:NFC", "Yes"),
        ("Features:Radio", "No"),
    ]
    phone_a = [
        _variant("Phone A 128GB", "Phone A", [("Model Code", "PA-128"), *common_a, ("Price", "799.00 GBP")]),
        _variant("Phone A 256GB", "Phone A", [("Model Code", "PA-256"), *common_a, ("Price", "899.50 GBP")]),
    ]
    common_b = [
        ("Network:5G", "No"),
        ("Network:4G", "Yes"),
        ("Connectivity:Wi-Fi", "5GHz"),
        ("Network:Bands", "LTE, 5Gб"),  # a non-ASCII letter touching "5G": not a 5G token under \p{L}
    ]
    phone_b = [
        _variant("Phone B Blue", "Phone B", [*common_b, ("Features:NFC", "Yes"), ("Price", "199.99 GBP")]),
        _variant("Phone B Red", "Phone B", [*common_b, ("Features:NFC", "No"), ("Price", "249 GBP")]),
    ]
    files = []
    for doc, variants in (("doc-a", phone_a), ("doc-b", phone_b)):
        conv = convert_document(doc, variants)
        assert not conv.problems
        f = tmp_path / f"{doc}.nq"
        f.write_text(conv.nquads, encoding="utf-8")
        files.append(f)
    return files


def _comparable(term: dict) -> tuple:
    """A term as a set member; numeric literals by value (Virtuoso turns 249.00 into 249)."""
    if term["type"] == "literal" and term.get("datatype") in NUMERIC:
        return ("number", Decimal(term["value"]))
    return (term["type"], term["value"], term.get("xml:lang"), term.get("datatype"))


def _derived(store: SparqlStore, graph: str = O.DERIVED_GRAPH) -> set[tuple]:
    q = f"SELECT ?s ?p ?o WHERE {{ GRAPH <{graph}> {{ ?s ?p ?o }} }}"
    rows = store.select(q)["results"]["bindings"]
    return {tuple(_comparable(row[v]) for v in ("s", "p", "o")) for row in rows}


def test_rules_derive_the_same_graph_on_oxigraph_and_servers(server_store: SparqlEndpointStore, tmp_path: Path) -> None:
    endpoint_store = server_store
    files = _catalog(tmp_path)
    ox = OxigraphStore.in_memory()
    assert ox.bulk_load(files) == endpoint_store.bulk_load(files)
    assert ox.count() == endpoint_store.count()
    # the catalog facts first, as the index does: brands, lines, types and coded terms ("5G", "8K")
    assert derive_catalog_facts(ox)["quads"] == derive_catalog_facts(endpoint_store)["quads"] > 0
    catalog = _derived(endpoint_store, O.CATALOG_GRAPH)
    assert catalog == _derived(ox, O.CATALOG_GRAPH)
    rules = load_rules()
    on_ox = apply_rules(ox, rules)
    on_virtuoso = apply_rules(endpoint_store, rules)
    assert on_virtuoso.added == on_ox.added
    expected, got = _derived(ox), _derived(endpoint_store)
    assert got == expected, _diff(expected, got)
    # The catalog exercises what the rules are for, so an empty agreement cannot pass.
    a128, blue, rng_b = (
        N.product_iri("Phone A 128GB", "PA-128"),
        N.product_iri("Phone B Blue", None),
        N.range_iri("Phone B"),
    )
    f5g, f4g, f8k = N.feature_iri("5G"), N.feature_iri("4G"), N.feature_iri("8K")
    assert _fact(a128, O.HAS_FEATURE, f5g) in catalog
    assert _fact(a128, O.HAS_FEATURE, f8k) in catalog
    assert _fact(blue, O.LACKS_FEATURE, f5g) in catalog
    assert _fact(blue, O.HAS_FEATURE, f5g) not in catalog  # Wi-Fi 5GHz and "5Gб" are not 5G
    assert _fact(blue, O.HAS_FEATURE, f4g) in catalog
    assert _fact(N.range_iri("Phone A"), O.HAS_FEATURE, f5g) in got  # the range rules read them
    assert (("uri", rng_b, None, None), ("uri", O.MIN_PRICE, None, None), ("number", Decimal("199.99"))) in got
    assert on_ox.added["range-price-by-currency"] > 0


def test_disabled_rules_agree_too(server_store: SparqlEndpointStore, tmp_path: Path) -> None:
    """Rules that are off by default (e.g. range-common-spec) must still run on each, for whoever enables them."""
    endpoint_store = server_store
    disabled = [r for r in load_rules() if not r.enabled]
    if not disabled:
        pytest.skip("rules.yaml has no disabled rules")
    files = _catalog(tmp_path)
    ox = OxigraphStore.in_memory()
    ox.bulk_load(files)
    endpoint_store.bulk_load(files)
    rules = [r.model_copy(update={"enabled": True}) for r in load_rules()]
    on_ox, on_virtuoso = apply_rules(ox, rules), apply_rules(endpoint_store, rules)
    assert all(on_ox.added[r.id] > 0 for r in disabled)
    assert on_virtuoso.added == on_ox.added
    expected, got = _derived(ox), _derived(endpoint_store)
    assert got == expected, _diff(expected, got)


def _diff(expected: set, got: set) -> str:
    return (
        f"only on Oxigraph: {sorted(expected - got, key=repr)}\nonly on the server: {sorted(got - expected, key=repr)}"
    )


def _fact(s: str, p: str, o: str) -> tuple:
    return tuple(("uri", x, None, None) for x in (s, p, o))


@pytest.mark.network
def test_index_pipeline_on_virtuoso_matches_the_embedded_store(tmp_path: Path, virtuoso, endpoint_store) -> None:
    """`build_index` with the endpoint store writes the same graph as with Oxigraph, and reruns change nothing."""
    from dualgraph.config import IndexConfig, StoreConfig
    from dualgraph.corpus.specsqa import write_dataset
    from dualgraph.pipeline.index import build_index

    pages = [
        (
            "a",
            "a",
            [
                Variant(
                    "Alpha 1",
                    "Alpha",
                    ("phones",),
                    (("Network:5G", "Yes"), ("Battery:Capacity", "5000 mAh"), ("Price", "450 GBP")),
                ),
                Variant(
                    "Alpha 2",
                    "Alpha",
                    ("phones",),
                    (("Network:5G", "No"), ("Battery:Capacity", "4000 mAh"), ("Price", "350 GBP")),
                ),
            ],
        ),
        ("b", "b", [Variant("Beta 1", "Beta", ("phones",), (("Storage:Capacity", "1 TB"), ("Network:NFC", "Yes")))]),
    ]
    write_dataset(tmp_path / "ds", pages)
    embedded = build_index(tmp_path / "ds", tmp_path / "ix-ox", IndexConfig(runner="inline", progress=False))
    remote_cfg = IndexConfig(
        runner="inline",
        progress=False,
        store=StoreConfig(
            kind="endpoint",
            query_url=virtuoso.sparql_url,
            graph_store_url=virtuoso.graph_store_url,
            user="dba",
            password="dba",
            max_rows=10_000,
        ),
    )
    remote = build_index(tmp_path / "ds", tmp_path / "ix-vt", remote_cfg)
    keys = (
        "products",
        "ranges",
        "specs",
        "numeric_specs",
        "features",
        "product_features",
        "triples",
        "derived_triples",
        "graphs",
    )
    assert {k: remote[k] for k in keys} == {k: embedded[k] for k in keys}
    again = build_index(tmp_path / "ds", tmp_path / "ix-vt", remote_cfg)
    assert again["documents"]["unchanged"] == 2 and again["triples"] == remote["triples"]
    # the index directory remembers the store, without the password
    import json as _json

    from dualgraph.pipeline.index_store import load_store_config, open_store

    saved = _json.loads((tmp_path / "ix-vt" / "store.json").read_text())
    assert saved["kind"] == "endpoint" and "password" not in saved
    cfg = load_store_config(tmp_path / "ix-vt").model_copy(update={"password": "dba"})
    with open_store(cfg, tmp_path / "ix-vt", read_only=True) as store:
        res = store.select("SELECT ?n WHERE { ?p skg:hasFeature skg:feature-5g ; skg:hasName ?n }")
        assert [b["n"]["value"] for b in res["results"]["bindings"]] == ["Alpha 1"]
        with pytest.raises(StoreError, match="read-only"):
            store.drop_graph(O.DERIVED_GRAPH)
