"""The `dualgraph` console command end to end: import a table, index it, query it.

Answers are checked against the source CSV read independently here, never against
the system's own output.
"""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

CATALOG = Path(__file__).parent.parent / "fixtures" / "catalog"
EXE = Path(sys.executable).parent / "dualgraph"


def run(*args, check=True):
    assert EXE.exists(), "the dualgraph console script is not installed (pip install -e .)"
    res = subprocess.run([str(EXE), *map(str, args)], capture_output=True, text=True, timeout=300)
    if check and res.returncode != 0:
        raise AssertionError(f"dualgraph {args[0]} failed ({res.returncode}):\n{res.stderr[-3000:]}")
    return res


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    work = tmp_path_factory.mktemp("cli")
    run(
        "import-table",
        CATALOG / "phones.csv",
        "--mapping",
        CATALOG / "mapping.yaml",
        "--out",
        work / "ds",
        "--no-progress",
    )
    out = run("index", work / "ds", "--index", work / "ix", "--runner", "inline", "--no-progress")
    return work / "ix", json.loads(out.stdout)


def source_rows():
    with open(CATALOG / "phones.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def names_of(result: dict) -> set[str]:
    return {b["n"]["value"] for b in result["results"]["bindings"]}


def sparql(ix, query):
    return json.loads(run("sparql", "--index", ix, query).stdout)


def test_manifest_counts_match_the_source(index):
    _, manifest = index
    rows = source_rows()
    assert manifest["products"] == len(rows)
    assert manifest["ranges"] == len({r["model"].split(" (")[0] for r in rows})
    assert manifest["quarantined_records"] == 0 and manifest["documents"]["quarantined"] == 0


@pytest.mark.parametrize("max_price", [15000, 30000, 100000])
def test_battery_and_price_filter_matches_the_table(index, max_price):
    ix, _ = index
    got = names_of(
        sparql(
            ix,
            f"""
        SELECT DISTINCT ?n WHERE {{
          ?p a skgt:Product ; skg:hasName ?n ; skg:hasPrice ?price ; skg:hasSpec ?s .
          ?s skg:inEntry/skg:hasName "Capacity" ; skg:inSection/skg:hasName "Battery" ;
            skg:hasQuantity/skg:hasNumericValue ?mah .
          FILTER(?mah >= 5000 && ?price < {max_price}) }}""",
        )
    )
    want = {
        r["model"]
        for r in source_rows()
        if r["battery_mah"] and int(r["battery_mah"]) >= 5000 and int(r["price_inr"]) < max_price
    }
    assert want, "the fixture should have matches for this threshold"
    assert got == want


# The storage column mixes spellings; this table is the test's own reading of it.
STORAGE_GB = {
    "64 GB": 64,
    "128 GB": 128,
    "256 GB": 256,
    "512 GB": 512,
    "0.5 TB": 500,
    "1 TB": 1000,
    "1TB": 1000,
    "2 TB": 2000,
}


def test_storage_in_gb_and_tb_compares_across_products(index):
    ix, _ = index
    res = sparql(
        ix,
        """
        SELECT ?n ?v ?u WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:hasSpec ?s .
          ?s skg:inEntry/skg:hasName "Storage" ; skg:hasQuantity ?q . ?q skg:hasNumericValue ?v ; skg:hasUnit ?u }
        ORDER BY ?v""",
    )
    rows = res["results"]["bindings"]
    assert len({b["u"]["value"] for b in rows}) == 1, "one unit per dimension after conversion"
    by_name = {r["model"]: STORAGE_GB[r["storage"]] for r in source_rows()}
    got_order = [by_name[b["n"]["value"]] for b in rows]
    assert got_order == sorted(by_name.values())
    unit = rows[0]["u"]["value"]
    threshold = {"GB": 1000, "MB": 1_000_000}[unit]
    at_least_1tb = names_of(
        sparql(
            ix,
            f"""SELECT DISTINCT ?n WHERE {{ ?p skg:hasName ?n ; skg:hasSpec ?s .
        ?s skg:inEntry/skg:hasName "Storage" ; skg:hasQuantity/skg:hasNumericValue ?v . FILTER(?v >= {threshold}) }}""",
        )
    )
    assert at_least_1tb == {n for n, gb in by_name.items() if gb >= 1000}


def test_5g_feature_and_explicit_negatives(index):
    ix, _ = index
    has = names_of(sparql(ix, "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:hasFeature skg:feature-5g }"))
    lacks = names_of(
        sparql(ix, "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n ; skg:lacksFeature skg:feature-5g }")
    )
    rows = source_rows()
    assert has == {r["model"] for r in rows if r["has_5g"] == "True"}
    # a blank cell is unknown: neither has nor lacks
    assert lacks == {r["model"] for r in rows if r["has_5g"] == "False"}


def test_sparql_is_read_only_and_prefixes_are_predeclared(index):
    ix, _ = index
    res = run("sparql", "--index", ix, 'INSERT DATA { skg:x skg:hasName "x" }', check=False)
    assert res.returncode == 2 and "read-only" in res.stderr
    ask = json.loads(run("sparql", "--index", ix, "ASK { ?p a skgt:Product }").stdout)
    assert ask == {"head": {}, "boolean": True}


def test_sparql_table_format(index):
    ix, _ = index
    out = run(
        "sparql",
        "--index",
        ix,
        "--format",
        "table",
        "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n LIMIT 3",
    ).stdout.splitlines()
    first = sorted(r["model"] for r in source_rows())[0]
    assert out[0] == "n" and out[2] == first and out[-1] == "(3 rows)"


def test_sparql_on_a_missing_index_says_so(tmp_path):
    res = run("sparql", "--index", tmp_path / "nothing", "SELECT * WHERE { ?s ?p ?o }", check=False)
    assert res.returncode == 2 and "dualgraph index" in res.stderr


def test_reindex_is_idempotent(index, tmp_path):
    ix, first = index
    again = json.loads(
        run("index", Path(first["dataset"]), "--index", ix, "--runner", "inline", "--no-progress").stdout
    )
    assert again["documents"]["unchanged"] == first["documents"]["total"]
    assert again["triples"] == first["triples"]


def test_ask_compiles_a_question_and_answers_from_the_table(index):
    ix, _ = index
    res = run(
        "ask",
        "--index",
        ix,
        "--json",
        "--strategy",
        "skg",
        "Which phones with a battery of at least 5000 mAh cost under Rs 30000?",
        check=False,
    )
    out = json.loads(res.stdout)
    want = {
        r["model"]
        for r in source_rows()
        if r["battery_mah"] and int(r["battery_mah"]) >= 5000 and int(r["price_inr"]) < 30000
    }
    assert set(out["answer_list"]) == want
    assert out["strategy"] == "skg" and out["route"] == ["skg"]
    assert "SELECT" in out["evidence"]["sparql"] and out["evidence"]["trace"]
