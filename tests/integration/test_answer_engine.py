"""The answering engine on a real index of the fixture catalog, with no LLM (zero tokens).

The index is built once (``tests/fixtures/answer/answer_support.py``) from
``tests/fixtures/catalog/phones.csv``; every expected answer is computed from that CSV
with the ``csv`` module, never from the system's output. Faults are injected by wrapping
real parts (the compiler, the Textual KG retriever) in objects that raise for questions
holding a marker word.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures" / "answer"))
from answer_support import all_models, as_int, catalog_index, models_where, shared_engine, source_rows

from dualgraph.answer.agentic import Planner
from dualgraph.answer.engine import AskConfig, EngineSpec, QAEngine
from dualgraph.answer.record import AnswerRecord
from dualgraph.answer.router import ExampleRouter
from dualgraph.answer.sources import SymbolicSource, TextualSource
from dualgraph.answer.strategies import EMPTY_FACTOR, STRATEGIES, Toolkit, run_strategy
from dualgraph.pipeline.bulk_answer import BulkAnswerConfig, bulk_answer


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return catalog_index(tmp_path_factory)


@pytest.fixture(scope="module")
def engine(tmp_path_factory) -> QAEngine:
    return shared_engine(tmp_path_factory)


def battery(r: dict[str, str]) -> int | None:
    return as_int(r["battery_mah"])


LIST_Q = "Which phones have a 7000 mAh battery?"
COUNT_Q = "How many phones have a 7000 mAh battery?"
SUPER_Q = "Which phone has the biggest battery?"
GOLD_LIST = models_where(lambda r: battery(r) == 7000)
MAX_BATTERY = max(b for r in source_rows() if (b := battery(r)) is not None)
GOLD_WINNERS = models_where(lambda r: battery(r) == MAX_BATTERY)

ROUTES = {
    "tkg": ["tkg"],
    "skg": ["skg"],
    "concat": ["skg", "tkg"],
    "skg+tkg_fb": ["skg"],
    "router": ["skg"],
    "router+tkg_fb": ["skg"],
    "agentic": ["skg"],
}


def valid(record: AnswerRecord) -> AnswerRecord:
    """The record as bulk answering would write and eval read it."""
    return AnswerRecord.model_validate_json(record.to_json_line())


def test_gold_answers_are_not_trivial():
    assert len(GOLD_LIST) == 3 and GOLD_WINNERS == GOLD_LIST  # 7000 mAh is the biggest battery, tied thrice
    assert len(all_models()) == 24


# -- 1. every strategy on a list, a count and a superlative ---------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_each_strategy_answers_list_count_and_superlative(engine, strategy):
    assert set(ROUTES) == set(STRATEGIES)
    items = [("list", LIST_Q), ("count", COUNT_Q), ("super", SUPER_Q)]
    records = engine.answer_batch(items, strategy=strategy)
    assert [r.id for r in records] == ["list", "count", "super"]
    for r, (_, q) in zip(records, items):
        r = valid(r)
        assert r.question == q and r.strategy == strategy
        assert r.error is None and r.answer
        assert r.route == ROUTES[strategy] == r.evidence.sources
        assert r.latency_s > 0
        assert r.tokens.prompt == r.tokens.completion == 0
        ev = r.evidence
        if "skg" in r.route:
            assert ev.sparql and ev.sparql.lstrip().startswith("SELECT") and ev.rows_total >= 1 and ev.rows
            assert ev.confidence is not None and ev.confidence >= 0.6
        else:
            assert ev.sparql is None and ev.confidence is None and ev.rows == []
        if "tkg" in r.route:
            assert ev.chunk_ids and all(isinstance(c, str) and c for c in ev.chunk_ids)
        else:
            assert ev.chunk_ids == []
    by = {r.id: r for r in records}
    assert set(by["list"].answer_list) == GOLD_LIST and len(by["list"].answer_list) == len(GOLD_LIST)
    assert by["count"].value == len(GOLD_LIST)
    assert f"{len(GOLD_LIST)} products match" in by["count"].answer
    sup = by["super"]
    if "skg" in sup.route:
        assert set(sup.answer_list) == GOLD_WINNERS and sup.value == sorted(GOLD_WINNERS)[0]
    else:  # the text has no notion of "biggest": a guess, only its shape is checked
        assert sup.value in all_models() and set(sup.answer_list) <= all_models()


def test_strategy_traces_say_what_was_decided(engine):
    q = [("0", LIST_Q)]
    assert any("anchored on '7000 mah'" in t for t in engine.answer_batch(q, strategy="tkg")[0].evidence.trace)
    assert (
        "symbolic answer kept; the text is added as context"
        in engine.answer_batch(q, strategy="concat")[0].evidence.trace
    )
    assert any(t.startswith("router → skg") for t in engine.answer_batch(q, strategy="router")[0].evidence.trace)
    trace = engine.answer_batch(q, strategy="agentic")[0].evidence.trace
    assert "step 1: answer from the specs" in trace and any(t.startswith("step 2: check passed") for t in trace)
    fb = engine.answer_batch(q, strategy="skg+tkg_fb")[0].evidence.trace
    assert not any("fallback" in t for t in fb)


# -- 2. fallback: on failure and on a doubtful grounding, not on a confident empty answer ----

LOW_CONF_Q = "Which phones have a titanium frame?"  # no spec says anything about the frame
FAILING_Q = "Is the Foobar Z99 cheaper than the Nova S14?"  # no such product
EMPTY_QS = [
    "Which phones have a battery of at least 9000 mAh?",
    "Which phones have a 7000 mAh battery and cost more than 50000 INR?",
]


def test_fallback_on_a_low_confidence_grounding(engine):
    assert not models_where(lambda r: "titanium" in " ".join(r.values()).lower())
    for strategy in ("skg+tkg_fb", "router+tkg_fb"):
        r = valid(engine.answer_batch([("0", LOW_CONF_Q)], strategy=strategy)[0])
        assert r.route == ["skg", "tkg"], strategy
        assert r.evidence.confidence is not None and r.evidence.confidence < 0.6
        assert any(t.startswith("fallback to text: low confidence") for t in r.evidence.trace)
        assert r.evidence.chunk_ids and r.evidence.sparql
        # the text only guessed (no phrase of the question is in it): the specs' empty answer stands
        assert any("keeping the symbolic answer" in t for t in r.evidence.trace)
        assert r.answer_list == [] and r.error is None


def test_fallback_does_not_trust_text_that_only_matches_a_measurement(engine):
    # no page mentions a ceramic back; the text can only find "16 GB" on pages, which is one value
    # of a bound the specs own, so the specs' (empty, doubtful) answer stands and says why
    assert not models_where(lambda r: "ceramic" in " ".join(r.values()).lower())
    r = valid(
        engine.answer_batch([("0", "Which phones with a ceramic back have 16 GB RAM?")], strategy="skg+tkg_fb")[0]
    )
    assert r.route == ["skg", "tkg"] and r.evidence.confidence < 0.6
    assert any("measurement" in t for t in r.evidence.trace), r.evidence.trace
    assert r.answer_list == [] and r.error is None


def test_fallback_on_failure(engine):
    r = valid(engine.answer_batch([("0", FAILING_Q)], strategy="skg+tkg_fb")[0])
    assert r.route == ["skg", "tkg"]
    assert any(
        t.startswith("fallback to text: failed: could not find the product(s): 'Foobar Z99'") for t in r.evidence.trace
    )
    assert r.evidence.sparql is None and r.evidence.chunk_ids
    assert r.error is None  # the text answered


@pytest.mark.parametrize("question", EMPTY_QS)
def test_no_fallback_on_a_confident_empty_answer(engine, question):
    mah = 9000 if "9000" in question else 7000
    if "50000" in question:
        gold = models_where(lambda r: battery(r) == 7000 and int(r["price_inr"]) > 50000)
    else:
        gold = models_where(lambda r: (battery(r) or 0) >= mah)
    assert gold == set()
    for strategy in ("skg+tkg_fb", "router+tkg_fb", "agentic"):
        r = valid(engine.answer_batch([("0", question)], strategy=strategy)[0])
        assert r.answer_list == [] and r.error is None, strategy
        assert r.route == ["skg"], strategy
        # the query was sure (no fallback); the empty answer then reports EMPTY_FACTOR of that confidence
        assert r.evidence.confidence >= 0.8 * EMPTY_FACTOR and r.evidence.chunk_ids == []
        assert not any("fallback" in t or "check failed" in t for t in r.evidence.trace)
        assert r.answer == "No product in the catalog matches."


def test_concat_reconciles_only_a_doubtful_answer(engine):
    doubtful, sure = engine.answer_batch([("0", LOW_CONF_Q), ("1", LIST_Q)], strategy="concat")
    assert doubtful.route == sure.route == ["skg", "tkg"]
    assert any(t.startswith("symbolic answer doubtful (low confidence") for t in doubtful.evidence.trace)
    assert "symbolic answer kept; the text is added as context" in sure.evidence.trace


def test_fallback_without_a_textual_kg_says_so(engine):
    kit = Toolkit(engine.kit.symbolic, None, engine.kit.router, Planner())
    (o,) = run_strategy("skg+tkg_fb", [LOW_CONF_Q], kit)
    assert o.route == ["skg"]
    assert any(t.startswith("would fall back (low confidence") and "no Textual KG" in t for t in o.trace)


# -- 3. a question that crashes a retriever: an error record, not a dead run ----------------

MARKER = "KABOOM"


class CrashingCompiler:
    """The real compiler, except that it raises for a question holding the marker word."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def answer(self, question):
        if MARKER in question:
            raise RuntimeError("compiler crashed on purpose")
        return self.inner.answer(question)

    def compile(self, question):
        if MARKER in question:
            raise RuntimeError("compiler crashed on purpose")
        return self.inner.compile(question)


class CrashingRetriever:
    """The real Textual KG retriever, except that a batch holding the marker word raises."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def retrieve(self, questions, exhaustive=False):
        if any(MARKER in q for q in questions):
            raise RuntimeError("retriever crashed on purpose")
        return self.inner.retrieve(questions, exhaustive=exhaustive)


def faulty_factory(engine: QAEngine, *, compiler: bool = False, retriever: bool = False):
    """An engine factory for bulk answering: the shared engine's parts with one part made to crash."""

    def factory() -> QAEngine:
        kit = engine.kit
        symbolic = SymbolicSource(CrashingCompiler(kit.symbolic.compiler)) if compiler else kit.symbolic
        textual = kit.textual
        if retriever:
            textual = TextualSource(kit.textual.retriever)
            textual.retriever = CrashingRetriever(kit.textual.retriever)
        return QAEngine(Toolkit(symbolic, textual, kit.router, Planner()), config=engine.config)

    return factory


def bulk_questions() -> dict[str, tuple[str, object]]:
    """id -> (question, gold) with gold computed from the CSV (a set of names or a count)."""
    price = lambda r: int(r["price_inr"])  # noqa: E731
    return {
        "q1": (LIST_Q, GOLD_LIST),
        "q2": (f"{MARKER} which phones have 5G?", None),
        "q3": ("Which phones have 5G?", models_where(lambda r: r["has_5g"] == "True")),
        "q4": ("How many phones cost under 15000 INR?", len(models_where(lambda r: price(r) < 15000))),
        "q5": (
            "Which phones have at least 12 GB RAM and cost under 20000 INR?",
            models_where(lambda r: int(r["ram_gb"]) >= 12 and price(r) < 20000),
        ),
        "q6": ("Which phones have a 90 Hz refresh rate?", models_where(lambda r: r["refresh_rate_hz"] == "90")),
    }


def write_questions(path: Path, questions: dict[str, tuple[str, object]]) -> Path:
    path.write_text(json.dumps({k: {"question": q} for k, (q, _) in questions.items()}), encoding="utf-8")
    return path


def read_records(path: Path) -> list[AnswerRecord]:
    return [AnswerRecord.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def test_a_crashing_compiler_gives_one_error_record_and_the_run_goes_on(engine, tmp_path):
    qs = bulk_questions()
    out = tmp_path / "answers.jsonl"
    report = bulk_answer(
        write_questions(tmp_path / "q.json", qs),
        out,
        engine_factory=faulty_factory(engine, compiler=True),
        strategy="skg+tkg_fb",
        config=BulkAnswerConfig(runner="inline", batch_size=3, progress=False),
    )
    assert (report.total, report.answered, report.errors) == (6, 5, 1)
    records = read_records(out)
    assert [r.id for r in records] == list(qs)
    bad = records[1]
    assert (
        bad.error == "RuntimeError: compiler crashed on purpose" and bad.answer == "" and bad.strategy == "skg+tkg_fb"
    )
    for r in records[:1] + records[2:]:
        gold = qs[r.id][1]
        assert r.error is None and r.route == ["skg"]
        if isinstance(gold, int):
            assert r.value == gold
        else:
            assert set(r.answer_list) == gold and len(r.answer_list) == len(gold)


def test_a_crashing_retriever_gives_error_records_and_the_run_goes_on(engine, tmp_path):
    qs = bulk_questions()
    out = tmp_path / "answers.jsonl"
    report = bulk_answer(
        write_questions(tmp_path / "q.json", qs),
        out,
        engine_factory=faulty_factory(engine, retriever=True),
        strategy="tkg",
        config=BulkAnswerConfig(runner="inline", batch_size=3, progress=False),
    )
    assert report.total == 6 and report.answered + report.errors == 6
    records = read_records(out)
    assert [r.id for r in records] == list(qs)
    assert records[1].error == "tkg retrieval: RuntimeError: retriever crashed on purpose"
    assert records[1].answer == "" and records[1].route == ["tkg"]
    # the second batch (q4-q6) never met the marker
    assert all(r.error is None and r.answer and r.evidence.chunk_ids for r in records[3:])


def test_a_crashing_retriever_fails_only_the_question_that_crashed_it(engine, tmp_path):
    qs = bulk_questions()
    out = tmp_path / "answers.jsonl"
    bulk_answer(
        write_questions(tmp_path / "q.json", qs),
        out,
        engine_factory=faulty_factory(engine, retriever=True),
        strategy="tkg",
        config=BulkAnswerConfig(runner="inline", batch_size=3, progress=False),
    )
    assert [r.id for r in read_records(out) if r.error] == ["q2"]


def test_a_crashing_retriever_does_not_touch_confident_symbolic_answers(engine):
    crashing = faulty_factory(engine, retriever=True)()
    ok, doubtful = crashing.answer_batch([("0", LIST_Q), ("1", f"{MARKER} {LOW_CONF_Q}")], strategy="skg+tkg_fb")
    assert ok.error is None and set(ok.answer_list) == GOLD_LIST and ok.route == ["skg"]
    # the fallback failed: the symbolic answer is kept, and the trace says why
    assert doubtful.route == ["skg", "tkg"] and doubtful.error is None
    assert any("text failed too (tkg retrieval: RuntimeError" in t for t in doubtful.evidence.trace)


# -- 4. the router --------------------------------------------------------------------------

SPEC_QS = [
    "How many phones cost under 15000 INR?",
    "Which phones have at least 8 GB RAM and cost under 20000 INR?",
    "What is the cheapest phone with 5G?",
    LIST_Q,
    COUNT_Q,
    SUPER_Q,
]
TEXT_QS = ["What do the product pages say about the design?", "What comes in the box?"]


def snapshot(router: ExampleRouter) -> dict:
    state = {k: v for k, v in vars(router).items() if k not in ("embedder", "probe")}
    return {
        "keys": sorted(vars(router)),
        "embedder": id(router.embedder),
        "probe": id(router.probe),
        **{k: (v.copy() if isinstance(v, np.ndarray) else copy.deepcopy(v)) for k, v in state.items()},
    }


def same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(np.array_equal(a[k], b[k]) if isinstance(a[k], np.ndarray) else a[k] == b[k] for k in a)


def test_router_sends_spec_questions_to_skg_and_open_ones_to_tkg(engine):
    router = engine.kit.router
    assert isinstance(router, ExampleRouter)
    decisions = router.route(SPEC_QS + TEXT_QS)
    assert [d.method for d in decisions] == ["skg"] * len(SPEC_QS) + ["tkg"] * len(TEXT_QS)
    for d in decisions:
        assert 0.0 <= d.score <= 1.0 and d.why and d.prompt_tokens == d.completion_tokens == 0
        assert (d.method == "skg") == (d.score >= router.threshold)
    count = decisions[0]
    assert "count question → specs (+0.3)" in count.why


def test_router_decisions_are_deterministic_and_leave_the_router_unchanged(engine):
    router = engine.kit.router
    before = snapshot(router)
    questions = (SPEC_QS + TEXT_QS + [LOW_CONF_Q, FAILING_Q] + EMPTY_QS) * 3
    first = router.route(questions)
    again = [router.route([q])[0] for q in questions]  # alone or in a batch: the same decision
    assert first == again == router.route(questions)
    assert same(before, snapshot(router))
    fresh = ExampleRouter(router.embedder, probe=router.probe)
    assert fresh.route(questions) == first
    assert router.route([]) == []


def test_router_strategy_answers_each_question_from_the_chosen_side(engine):
    spec, text = engine.answer_batch([("0", COUNT_Q), ("1", TEXT_QS[0])], strategy="router")
    assert spec.route == ["skg"] and spec.value == len(GOLD_LIST)
    assert text.route == ["tkg"] and text.evidence.chunk_ids and text.evidence.sparql is None
    assert any(t.startswith("router → tkg") for t in text.evidence.trace)


@pytest.mark.parametrize(
    "question", ["What is special about the design of these phones?", "What accessories work with these phones?"]
)
def test_mentioning_the_catalogs_only_category_does_not_push_open_questions_to_skg(engine, question):
    router = engine.kit.router
    examples_only = ExampleRouter(router.embedder).route([question])[0]
    assert examples_only.method == "tkg"  # the labelled examples say: text
    decision = router.route([question])[0]
    assert not any("grounded in the specs" in w for w in decision.why), decision.why
    assert decision.method == "tkg"


# -- 7. the deterministic agentic plan -----------------------------------------------------


class CountingSource:
    """The real textual source; records which questions reach it."""

    name = "tkg"

    def __init__(self, inner) -> None:
        self.inner = inner
        self.asked: list[list[str]] = []

    def ask(self, questions, *, unread=None):
        self.asked.append(list(questions))
        return self.inner.ask(questions)


def steps(trace: list[str]) -> list[int]:
    return [int(m.group(1)) for t in trace if (m := re.match(r"step (\d+):", t))]


def last_step(trace: list[str]) -> str:
    """The planner's last step (notes on the final answer, such as an empty answer's confidence, follow it)."""
    return [t for t in trace if t.startswith("step ")][-1]


def test_planner_consults_the_text_when_the_check_fails_and_probes_confident_lists(engine):
    spy = CountingSource(engine.kit.textual)
    kit = Toolkit(engine.kit.symbolic, spy, None, Planner(), max_steps=4)
    questions = [LIST_Q, LOW_CONF_Q, EMPTY_QS[0], FAILING_Q]
    sure, doubtful, empty, failing = run_strategy("agentic", questions, kit)
    # one batch: the two that failed the check, and the two confident lists probed for an ignored condition
    assert spy.asked == [questions]
    for o in (sure, empty):
        assert o.route == ["skg"] and steps(o.trace) == [1, 2, 3]
        assert o.trace[1].startswith("step 2: check passed") and last_step(o.trace).endswith("stop")
    for o in (doubtful, failing):
        assert o.route == ["skg", "tkg"] and steps(o.trace) == [1, 2, 3, 4]
        assert o.trace[1].startswith("step 2: check failed") and last_step(o.trace) == "step 4: stop"
    assert set(sure.result.answer_list) == GOLD_LIST
    assert all(max(steps(o.trace)) <= kit.max_steps for o in (sure, doubtful, empty, failing))


def test_planner_with_too_few_steps_stops_after_the_check(engine):
    spy = CountingSource(engine.kit.textual)
    kit = Toolkit(engine.kit.symbolic, spy, None, Planner(), max_steps=2)
    (o,) = run_strategy("agentic", [LOW_CONF_Q], kit)
    assert spy.asked == [] and o.route == ["skg"] and steps(o.trace) == [1, 2]
    assert "no further step available" in last_step(o.trace)


# -- the engine itself ----------------------------------------------------------------------


def test_engine_refuses_a_bad_strategy_and_a_non_index(index, tmp_path, engine):
    with pytest.raises(ValueError, match="unknown strategy 'fastest'"):
        QAEngine.open(index, AskConfig(strategy="fastest"))
    with pytest.raises(FileNotFoundError, match="manifest.json"):
        QAEngine.open(tmp_path, AskConfig())
    with pytest.raises(ValueError, match="unknown strategy"):
        engine.answer_batch([("0", LIST_Q)], strategy="fastest")
    with pytest.raises(ValidationError):
        AskConfig(stratgey="skg")
    with pytest.raises(ValidationError):
        AskConfig(max_steps=0)


def test_engine_spec_is_picklable(index):
    spec = EngineSpec(index_dir=index, config=AskConfig(strategy="tkg", max_steps=2))
    back = pickle.loads(pickle.dumps(spec))
    assert back == spec and back.config.strategy == "tkg"


def test_rows_in_record_caps_the_evidence_but_not_the_total(engine):
    capped = QAEngine(engine.kit, config=AskConfig(rows_in_record=2))
    r = capped.answer("Which phones cost under 15000 INR?", strategy="skg", qid="cheap")
    gold = models_where(lambda row: int(row["price_inr"]) < 15000)
    assert r.id == "cheap" and set(r.answer_list) == gold
    assert len(r.evidence.rows) == 2 and r.evidence.rows_total == len(gold)


def test_engine_close_runs_closers_once():
    closed = []
    e = QAEngine(Toolkit(symbolic=None), config=AskConfig(), closers=[lambda: closed.append(1)])
    with e:
        pass
    e.close()
    assert closed == [1]


def test_router_compiles_a_question_once(engine, monkeypatch):
    comp = engine.kit.symbolic.compiler
    real, calls = comp.compile, []
    monkeypatch.setattr(comp, "compile", lambda q: calls.append(q) or real(q))
    q = "How many phones cost under 15000 INR?"
    r = valid(engine.answer_batch([("0", q)], strategy="router")[0])
    assert r.route == ["skg"] and calls == [q]  # the router's compile is the one answered from
    assert q not in engine.kit.symbolic.compiled
    assert r.value == len(models_where(lambda row: int(row["price_inr"]) < 15000))


def test_router_keeps_no_compiled_question_it_sent_to_the_text(engine):
    q = "What do the product pages say about the design of these phones?"
    r = valid(engine.answer_batch([("0", q)], strategy="router")[0])
    assert r.route == ["tkg"] and q not in engine.kit.symbolic.compiled
