"""Textual KG end to end: import Icecat-style products, index, search, and query prose facts in SPARQL.

Both products' spec tables are silent about "stereo speakers" and "plastic-free
packaging"; only the Nova phone's prose mentions them.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent.parent / "fixtures" / "icecat" / "products.ndjson"
EXE = Path(sys.executable).parent / "dualgraph"
# the static table distilled from MiniLM: each index, search and sparql run goes without torch and
# sentence-transformers (seconds apiece); MiniLM itself is the embedder of tests/e2e/test_cli.py
STATIC = ("--embedder-kind", "static")
NOVA = 'Nova Phone 12 16.5 cm (6.5") 5G 256 GB 5000 mAh Black'


def run(*args):
    res = subprocess.run([str(EXE), *map(str, args)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    work = tmp_path_factory.mktemp("tkg")
    run("import-icecat", FIXTURE, "--out", work / "ds")
    first = json.loads(
        run("index", work / "ds", "--index", work / "ix", "--runner", "inline", "--no-progress", *STATIC)
    )
    return work, first


def test_text_graph_is_built(index):
    _, m = index
    assert m["tkg"]["chunks"] >= 2 and m["tkg"]["entities"] > 5 and m["tkg"]["text_facts"] > 0
    assert m["model_usage"]["tkg_entities"]["items"] > 0


def test_search_finds_the_product_whose_prose_mentions_the_feature(index):
    work, _ = index
    out = json.loads(run("search", "--index", work / "ix", "--json", "-k", "1", "phones with stereo speakers"))
    assert out["chunks"][0]["products"] == [NOVA]
    assert any("stereo speaker" in e["name"].lower() for e in out["entities"])


def test_sparql_over_mentions_lists_prose_only_facts(index):
    work, _ = index
    q = """SELECT DISTINCT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:mentions ?e .
           ?e skg:hasName ?en . FILTER(CONTAINS(LCASE(?en), "%s")) }"""
    for phrase in ("stereo speaker", "plastic-free packaging"):
        res = json.loads(run("sparql", "--index", work / "ix", q % phrase))
        assert [b["n"]["value"] for b in res["results"]["bindings"]] == [NOVA]
    # text facts are kept apart from spec facts: none of them is in a document graph
    res = json.loads(
        run(
            "sparql",
            "--index",
            work / "ix",
            "SELECT (COUNT(*) AS ?c) WHERE { GRAPH ?g { ?p skg:mentions ?e } FILTER(?g != <https://w3id.org/dualgraph/graph/text>) }",
        )
    )
    assert res["results"]["bindings"][0]["c"]["value"] == "0"


def test_entities_align_with_skg_nodes_by_name(index):
    work, _ = index
    res = json.loads(
        run(
            "sparql",
            "--index",
            work / "ix",
            'SELECT ?x WHERE { ?e skg:alignsWith ?x . ?x a skgt:Entry ; skg:hasName "Battery capacity" }',
        )
    )
    assert res["results"]["bindings"], "the spec entry named in the text is aligned"


def test_reindexing_unchanged_input_makes_no_model_calls(index):
    work, _ = index
    again = json.loads(
        run("index", work / "ds", "--index", work / "ix", "--runner", "inline", "--no-progress", *STATIC)
    )
    assert again["documents"]["unchanged"] == 2 and again["tkg"] == "unchanged" and again["model_usage"] == {}


def test_a_changed_page_reuses_cached_embeddings(index):
    work, first = index
    page = next(p for p in (work / "ds").glob("file-orbit*/part-*.md"))
    page.write_text(page.read_text() + "\n\nNow with a felt sleeve.\n")
    m = json.loads(run("index", work / "ds", "--index", work / "ix", "--runner", "inline", "--no-progress", *STATIC))
    assert m["documents"]["converted"] == 1
    assert m["tkg"]["cache_hits"] > 0
    assert m["tkg"]["cache_misses"] < first["tkg"]["cache_misses"] / 2
