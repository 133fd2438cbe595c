"""`dualgraph align` end to end on a small catalog: what it writes, what a rerun reuses and replaces,
and that a dry run writes nothing to the store."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pyoxigraph
import pytest

from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.pipeline.layout import IndexLayout

# found, not imported: pecanpy imports only behind dualgraph.align.node2vec's numpy shim
if importlib.util.find_spec("pecanpy") is None:
    pytest.skip("node2vec needs the `align` extra (pip install -e '.[align]')", allow_module_level=True)

EXE = Path(sys.executable).parent / "dualgraph"
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH <https://w3id.org/dualgraph/graph/alignment> { ?s ?p ?o } }"


def run(*args):
    res = subprocess.run([str(EXE), *map(str, args)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return res.stdout


def phone(name, *specs):
    return Variant(name, name, ("phones",), (("Battery:Capacity", "5000 mAh"), *specs))


PAGES = [
    (f"p{i}", f"# Phone {i}\n\nPhone {i} supports NFC and has a headphone jack. It also offers wireless charging.",
     [phone(f"Phone {i}", ("Connectivity:NFC", "Yes"), ("Audio:Headphone jack", "Yes" if i % 2 else "No"),
            ("Power:Wireless charging", "Yes"))])
    for i in range(6)
]  # fmt: skip


def graph_size(ix) -> int:
    # read in this process (a `dualgraph sparql` run apiece cost ~2 CPU-s; that command has tests of its own)
    store = pyoxigraph.Store.read_only(str(IndexLayout(ix).store))
    (row,) = store.query(COUNT)
    return int(row["n"].value)


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    work = tmp_path_factory.mktemp("align_cli")
    write_dataset(work / "ds", PAGES)
    # the static table distilled from MiniLM: the index and each align run go without loading
    # sentence-transformers and MiniLM (seconds apiece); MiniLM itself is tests/e2e/test_cli.py's embedder
    run(
        "index", work / "ds", "--index", work / "ix", "--runner", "inline", "--no-progress", "--embedder-kind", "static"
    )
    return work / "ix"


def test_align_writes_pairs_the_store_and_patterns_agree_on(index):
    dry = json.loads(run("align", "--index", index, "--dry-run", "--no-progress"))
    assert graph_size(index) == 0 and "written" not in dry
    out = json.loads(run("align", "--index", index, "--no-progress"))
    files = {p.name for p in (index / "align").iterdir()}
    assert {"report.json", "heads.pt", "judge.json", "node2vec.json", "alignments.jsonl", "alignment.nq"} <= files
    pairs = [json.loads(line) for line in (index / "align" / "alignments.jsonl").read_text().splitlines()]
    # the pages name three spec facts exactly: at least those are anchors and are written
    assert out["anchors"]["all"]["name"] >= 3 and len(pairs) == out["accepted"]["anchors"] + out["accepted"]["new"]
    assert graph_size(index) == 6 * len(pairs)
    assert out["node2vec"]["mode"] == "reused"  # the dry run's embeddings, same graph
    if out["anchors"]["test"]:  # three anchors may leave none for the test
        assert set(out["recall"]["all"]) >= {"name similarity", "text embedding", "node2vec", "aligner"}
    # a rerun replaces the graph rather than adding to it
    again = json.loads(run("align", "--index", index, "--no-progress"))
    assert again["node2vec"]["mode"] == "reused" and graph_size(index) == 6 * len(pairs)
