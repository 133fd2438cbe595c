"""The front door, :class:`dualgraph.DualGraph`, on a real index of the fixture catalog (zero LLM tokens).

The index is the one the answering tests share (``tests/fixtures/answer/answer_support.py``:
``tests/fixtures/catalog/phones.csv`` imported and indexed once per process); nothing here
builds another. Expected answers come from that CSV read with the ``csv`` module, and the
class's answers are compared with a :class:`~dualgraph.answer.engine.QAEngine` opened on the
same index without it. The README's "Python" block runs here as a doctest, in a temporary
working folder where ``runs/demo/index`` links to the fixture index.
"""

from __future__ import annotations

import doctest
import json
import os
import pickle
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import all_models, as_int, catalog_index, models_where, shared_engine, source_rows

from dualgraph import DualGraph
from dualgraph.answer.record import AnswerRecord
from dualgraph.api import format_answer, format_explanation
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig
from dualgraph.stores.base import QueryTimeout, StoreError
from dualgraph.stores.guard import QueryRefused

README = Path(__file__).resolve().parents[2] / "README.md"

LIST_Q = "Which phones have a 7000 mAh battery?"
COUNT_Q = "How many phones have a 7000 mAh battery?"
SUPER_Q = "Which phone has the biggest battery?"
GOLD_7000 = models_where(lambda r: as_int(r["battery_mah"]) == 7000)
NAMES_Q = "SELECT ?n WHERE { ?p a skgt:Product ; skg:hasName ?n } ORDER BY ?n"
PRODUCTS = "ASK { ?p a skgt:Product }"


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return catalog_index(tmp_path_factory)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """A QAEngine opened directly (not through DualGraph), default settings."""
    return shared_engine(tmp_path_factory)


@pytest.fixture(scope="module")
def graph(index):
    g = DualGraph.open(index)
    yield g
    g.close()


def same(records: list[AnswerRecord]) -> list[dict]:
    """Records as compared: everything but the wall-clock latency."""
    return [r.model_dump(mode="json", exclude={"latency_s"}) for r in records]


# -- opening ----------------------------------------------------------------------------------------


def test_open_reads_nothing_and_each_call_opens_only_its_part(index):
    g = DualGraph.open(index)
    try:
        assert g.loaded == ()
        assert g.manifest["products"] == len(source_rows())  # the manifest is a file read, not a part
        assert g.sparql(PRODUCTS)["boolean"] is True
        assert g.loaded == ("store",)
    finally:
        g.close()


def test_import_and_sparql_load_neither_the_engine_nor_torch(index):
    # `dualgraph sparql` goes through the class: it must not pay for the engine's imports or a model
    code = (
        "import sys, dualgraph\n"
        "assert 'dualgraph.api' not in sys.modules\n"
        "g = dualgraph.DualGraph.open(sys.argv[1])\n"
        "print(g.sparql('ASK { ?p a skgt:Product }')['boolean'])\n"
        "print(sorted(m for m in ('dualgraph.answer.engine', 'dualgraph.tkg.loader', 'torch') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(index)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["True", "[]"]


def test_open_refuses_a_folder_that_is_not_an_index_and_an_unknown_strategy(index, tmp_path):
    with pytest.raises(FileNotFoundError, match="not an index directory"):
        DualGraph.open(tmp_path)
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        DualGraph.open(index, strategy="best")


# -- answering --------------------------------------------------------------------------------------


def test_ask_answers_from_the_catalog_and_agrees_with_the_engine(graph, engine):
    record = graph.ask(LIST_Q)
    assert set(record.answer_list or []) == GOLD_7000 and len(GOLD_7000) > 1
    assert same([record]) == same([engine.answer(LIST_Q)])
    # a strategy for one call only
    text_only = graph.ask(LIST_Q, strategy="tkg")
    assert text_only.strategy == "tkg" and text_only.route == ["tkg"]
    assert same([text_only]) == same([engine.answer(LIST_Q, strategy="tkg")])
    assert graph.config.strategy == "skg+tkg_fb"


def test_ask_many_agrees_with_the_engine_batch(graph, engine):
    questions = [LIST_Q, COUNT_Q, SUPER_Q, "Which phones have 5G?", ""]
    got = graph.ask_many(questions, batch_size=2)
    want = engine.answer_batch([(str(i), q) for i, q in enumerate(questions)])
    assert same(got) == same(want)
    assert [r.id for r in got] == ["0", "1", "2", "3", "4"]
    assert got[1].value == len(GOLD_7000)
    assert got[4].error and got[4].error.startswith("question refused")
    # ids of a mapping are kept; a lone string is refused rather than read letter by letter
    keyed = graph.ask_many({"a": LIST_Q, "b": COUNT_Q})
    assert [r.id for r in keyed] == ["a", "b"] and same(keyed)[0] == {**same(got)[0], "id": "a"}
    with pytest.raises(TypeError):
        graph.ask_many(LIST_Q)


def test_explain_shows_the_trace_and_the_sparql(graph):
    record = graph.ask(LIST_Q)
    text = graph.explain(LIST_Q)
    assert text.startswith("trace:\n")
    assert record.evidence.sparql and record.evidence.sparql in text
    assert all(f"  {line}" in text for line in record.evidence.trace)
    assert all(name in text for name in GOLD_7000)  # the rows under the query
    assert text == graph.explain(record) == format_explanation(record)
    # `dualgraph ask --explain` prints the answer, then this
    assert format_answer(record, explain=True) == format_answer(record) + "\n\n" + text


def test_ask_file_writes_what_ask_many_answers(graph, tmp_path):
    questions = {"q1": {"question": LIST_Q}, "q2": {"question": SUPER_Q}}
    (tmp_path / "questions.json").write_text(json.dumps(questions), encoding="utf-8")
    report = graph.ask_file(
        tmp_path / "questions.json", tmp_path / "answers.jsonl", bulk=BulkAnswerConfig(runner="inline", progress=False)
    )
    assert (report.total, report.answered, report.errors) == (2, 2, 0)
    lines = (tmp_path / "answers.jsonl").read_text(encoding="utf-8").splitlines()
    written = sorted((AnswerRecord.model_validate_json(x) for x in lines), key=lambda r: r.id)
    assert same(written) == same(graph.ask_many({q: v["question"] for q, v in questions.items()}))


def test_engine_spec_is_the_picklable_recipe_of_the_same_engine(graph, index):
    spec = pickle.loads(pickle.dumps(graph.engine_spec()))
    assert spec.index_dir == Path(index) and spec.config == graph.config


# -- the graphs ---------------------------------------------------------------------------------------


def test_sparql_reads_the_catalog(graph):
    res = graph.sparql(NAMES_Q)
    names = [b["n"]["value"] for b in res["results"]["bindings"]]
    assert names == sorted(all_models()) and "truncated" not in res
    assert graph.sparql(PRODUCTS) == {"head": {}, "boolean": True}
    cut = graph.sparql(NAMES_Q, max_rows=2)
    assert [b["n"]["value"] for b in cut["results"]["bindings"]] == names[:2]
    assert (cut["truncated"], cut["max_rows"]) == (True, 2)
    triples = graph.sparql("CONSTRUCT { ?p skg:hasName ?n } WHERE { ?p a skgt:Product ; skg:hasName ?n }")["triples"]
    assert len(triples) == len(source_rows())
    # a query that streams rows: its worker sees the stop flag at the next row (an aggregate would
    # keep computing in its thread, the store's own limit, and slow every test after this one)
    with pytest.raises(QueryTimeout):
        graph.sparql("SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }", timeout=1e-6, max_rows=10**9)
    deadline = time.monotonic() + 10
    while any(t.name == "oxigraph-query" for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(t.name == "oxigraph-query" for t in threading.enumerate())


@pytest.mark.parametrize(
    "update",
    [
        'INSERT DATA { skg:x skg:hasName "x" }',
        "DELETE WHERE { ?s ?p ?o }",
        "CLEAR ALL",
        "DROP ALL",
        "LOAD <http://example.org/x.ttl>",
        "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    ],
)
def test_sparql_refuses_updates_before_touching_the_store(index, update):
    with DualGraph.open(index) as g:
        with pytest.raises(QueryRefused):
            g.sparql(update)
        assert g.loaded == ()  # refused on its parse tree: the store was not even opened
        count = "SELECT (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p a skgt:Product }"
        assert int(g.sparql(count)["results"]["bindings"][0]["n"]["value"]) == len(source_rows())


def test_search_returns_the_text_graphs_hits(graph):
    hit = graph.search("Zenith X28", k=2)
    assert 0 < len(hit.chunks) <= 2 and hit.entities
    assert "Zenith X28 (4GB RAM + 128GB)" in hit.products
    assert {p for c in hit.chunks for p in c.chunk.products} <= all_models()
    assert "textual" in graph.loaded
    # exhaustive: every chunk that mentions a matched entity (the brand's name matches too)
    every = graph.search("Zenith X28", mode="exhaustive")
    assert models_where(lambda r: r["brand"] == "zenith") <= set(every.products) <= all_models()
    with pytest.raises(FileNotFoundError, match="chunk embeddings"):  # the index has none
        graph.search("Zenith X28", mode="naive")


# -- closing ----------------------------------------------------------------------------------------


def test_context_manager_closes_the_store_and_the_engine(index):
    with DualGraph.open(index) as g:
        store, engine = g.store, g.engine
        assert g.sparql(PRODUCTS)["boolean"] is True
        assert g.ask(LIST_Q).answer_list
        assert g.loaded == ("store", "engine")
    assert g.loaded == ()
    for closed in (store, engine.store):
        with pytest.raises(StoreError, match="closed"):
            closed.select("SELECT * WHERE { ?s ?p ?o } LIMIT 1")
    with pytest.raises(RuntimeError, match="closed"):
        g.sparql(PRODUCTS)
    with pytest.raises(RuntimeError, match="closed"):
        g.ask(LIST_Q)
    g.close()  # a second close is harmless
    assert "closed" in repr(g)


# -- the README ---------------------------------------------------------------------------------------


def readme_python_block() -> tuple[str, int]:
    """The first ```python block of the README's "## Python" section, and its line number."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Python\n(.*?)(?=^## )", text, flags=re.M | re.S)
    assert section, 'README.md has no "## Python" section'
    block = re.search(r"^```python\n(.*?)^```", section.group(1), flags=re.M | re.S)
    assert block, 'the "## Python" section has no ```python block'
    return block.group(1), text[: section.start(1) + block.start(1)].count("\n")


def test_readme_python_example_runs(index, tmp_path, monkeypatch):
    source, line = readme_python_block()
    for call in ("DualGraph.open(", ".ask(", ".explain(", ".sparql("):
        assert call in source, f"the README example no longer shows {call}"
    (tmp_path / "runs" / "demo").mkdir(parents=True)
    os.symlink(index, tmp_path / "runs" / "demo" / "index")
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(source, {}, "README.md (Python)", str(README), line)
    assert len(test.examples) >= 5
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    try:
        result = runner.run(test, out=report.append, clear_globs=False)
    finally:
        graph = test.globs.get("graph")
        if isinstance(graph, DualGraph):
            graph.close()
        test.globs.clear()
    assert isinstance(graph, DualGraph) and graph.loaded == ()
    assert result.failed == 0, "".join(report)
