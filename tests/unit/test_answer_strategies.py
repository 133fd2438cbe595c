"""The strategies' decisions (``dualgraph.answer.strategies``) on hand-made source results.

``needs_fallback`` and ``reconcile`` are pure functions of :class:`SourceResult`s, tested
here case by case; the strategies on a real index are in
``tests/integration/test_answer_engine.py``. A :class:`TextualSource` whose retriever
raises must answer with errors, never raise.
"""

from __future__ import annotations

import pytest

from dualgraph.answer.sources import SourceResult, TextualSource, plain_rows
from dualgraph.answer.strategies import STRATEGIES, Toolkit, needs_fallback, reconcile, run_strategy


def skg(**kw) -> SourceResult:
    kw.setdefault("sparql", "SELECT ?p WHERE { ?p a skgt:Product }")
    kw.setdefault("confidence", 0.9)
    return SourceResult("skg", **kw)


def tkg(**kw) -> SourceResult:
    kw.setdefault("chunk_ids", ["c1"])
    return SourceResult("tkg", **kw)


def test_the_seven_strategies():
    assert STRATEGIES == ("tkg", "skg", "concat", "skg+tkg_fb", "router", "router+tkg_fb", "agentic")


# -- needs_fallback -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "result, why",
    [
        (skg(error="boom", sparql=None), "failed: boom"),
        (skg(sparql=None), "no query"),
        (skg(answer_list=["A"], confidence=0.4), "low confidence 0.40"),
        (skg(answer_list=[], confidence=0.7), "empty answer after a doubtful grounding (confidence 0.70)"),
        (skg(intent="superlative", answer_list=[], value=None, confidence=0.9), "superlative without a winner"),
        (skg(intent="compare", answer_list=["A"], value=None, confidence=0.9), "compare without a winner"),
    ],
)
def test_doubtful_answers_need_a_fallback(result, why):
    assert needs_fallback(result) == why


@pytest.mark.parametrize(
    "result",
    [
        skg(answer_list=["A"], confidence=0.6),  # at the threshold: trusted
        skg(answer_list=[], confidence=0.85),  # a confident empty answer is an answer
        skg(intent="count", answer_list=[], value=0, confidence=0.9),  # zero is a count
        skg(intent="superlative", answer_list=["A"], value="A", confidence=0.85),
        tkg(answer_list=["A"], confidence=0.8, sparql=None),  # no query is no reason on the text side
    ],
)
def test_trusted_answers_need_none(result):
    assert needs_fallback(result) is None


def test_thresholds_are_the_callers():
    r = skg(answer_list=[], confidence=0.85)
    assert needs_fallback(r, empty_min_confidence=0.9) is not None
    assert needs_fallback(skg(answer_list=["A"], confidence=0.7), min_confidence=0.75) == "low confidence 0.70"


# -- reconcile ------------------------------------------------------------------------------


def test_overlap_of_both_views_is_the_answer_with_both_evidences():
    trace: list[str] = []
    s = skg(answer_list=["A", "B", "C"], confidence=0.4, rows=[{"name": "A"}], rows_total=3, context="specs")
    t = tkg(answer_list=["C", "A", "D"], confidence=0.8, chunk_ids=["c9"], context="text")
    r = reconcile(s, t, trace)
    assert r.answer_list == ["A", "C"]  # in the specs' order
    assert (r.sparql, r.rows_total, r.chunk_ids) == (s.sparql, 3, ["c9"])
    assert r.confidence == 0.8 and "specs" in r.context and "text" in r.context
    assert "overlap is the answer" in trace[-1]


def test_yes_no_overlap_says_yes():
    r = reconcile(
        skg(intent="yesno", answer_list=["A"], value="no", confidence=0.4),
        tkg(intent="yesno", answer_list=["A"], value="yes", confidence=0.8),
        [],
    )
    assert (r.answer_list, r.value) == (["A"], "yes")


def test_a_failed_text_keeps_the_symbolic_answer():
    s = skg(answer_list=["A"], confidence=0.4)
    trace: list[str] = []
    assert reconcile(s, tkg(error="tkg retrieval: boom"), trace) is s
    assert "text failed too" in trace[-1]


def test_a_guessing_text_does_not_replace_a_symbolic_answer_that_ran():
    s = skg(answer_list=[], confidence=0.4)
    trace: list[str] = []
    assert reconcile(s, tkg(answer_list=["X", "Y"], confidence=0.3), trace) is s
    assert "keeping the symbolic answer" in trace[-1]


def test_an_anchored_text_replaces_a_disjoint_symbolic_answer():
    t = tkg(answer_list=["X"], confidence=0.8)
    assert reconcile(skg(answer_list=["A"], confidence=0.4), t, []) is t


def test_when_the_specs_failed_even_a_guess_stands():
    t = tkg(answer_list=["X"], confidence=0.3)
    assert reconcile(SourceResult("skg", error="no such product"), t, []) is t


def test_reconcile_for_the_planner_sets_the_value_of_the_intent():
    both = reconcile(
        skg(intent="count", answer_list=["A", "B"], value=2, confidence=0.4),
        tkg(intent="count", answer_list=["B"], value=1, confidence=0.8),
        [],
        any_intent=True,
    )
    assert (both.answer_list, both.value) == (["B"], 1)
    best = reconcile(
        skg(intent="superlative", answer_list=["A", "B"], value="A", confidence=0.4),
        tkg(intent="superlative", answer_list=["B", "A"], confidence=0.8),
        [],
        any_intent=True,
    )
    assert (best.answer_list, best.value) == (["A", "B"], "A")


# -- run_strategy argument checks -----------------------------------------------------------


class Unused:
    def ask(self, questions, *, unread=None):
        raise AssertionError("not expected to be consulted")


def test_unknown_strategy_and_missing_parts_are_refused():
    kit = Toolkit(symbolic=Unused())
    with pytest.raises(ValueError, match="unknown strategy 'best'"):
        run_strategy("best", ["q?"], kit)
    with pytest.raises(ValueError, match="needs an agent"):
        run_strategy("agentic", ["q?"], kit)
    with pytest.raises(ValueError, match="need a router"):
        run_strategy("router", ["q?"], kit)
    assert run_strategy("skg", [], kit) == []


def test_tkg_on_an_index_without_a_textual_kg_is_an_error_per_question():
    out = run_strategy("tkg", ["a?", "b?"], Toolkit(symbolic=Unused(), textual=None))
    assert [o.route for o in out] == [["tkg"], ["tkg"]]
    assert all("no Textual KG" in o.result.error for o in out)


# -- sources --------------------------------------------------------------------------------


class ExplodingRetriever:
    def __init__(self):
        self.calls = 0

    def retrieve(self, questions, exhaustive=False):
        self.calls += 1
        raise RuntimeError("index file vanished")


def test_textual_source_with_a_raising_retriever_answers_errors_not_raises():
    retriever = ExplodingRetriever()
    source = TextualSource(retriever)
    out = source.ask(["Which phones have 5G?", "Which phones are light?"])
    assert retriever.calls == 3  # the batch, then each question alone to find which one broke it
    assert len(out) == 2
    for r in out:
        assert r.source == "tkg" and not r.ok
        assert r.error == "tkg retrieval: RuntimeError: index file vanished"
        assert r.empty and r.chunk_ids == []


def test_plain_rows_shortens_iris_and_caps_rows():
    rows = [
        {"name": {"type": "literal", "value": f"P{i}"}, "p": {"type": "uri", "value": f"http://x/skg#p{i}"}}
        for i in range(5)
    ]
    assert plain_rows(rows, limit=2) == [{"name": "P0", "p": "p0"}, {"name": "P1", "p": "p1"}]


# -- the text probe for a condition the specs' query ignored ------------------------------


class FixedSource:
    """A source that answers every question with one prepared result (to drive the strategy logic)."""

    def __init__(self, result: SourceResult) -> None:
        self.result, self.asked = result, []

    def ask(self, questions, *, unread=None):
        self.asked.append(list(questions))
        self.unread = unread
        return [self.result for _ in questions]


def _probe_kit(covered, anchor, sym_list, txt_list):
    sym = SourceResult("skg", intent="list", answer_list=sym_list, confidence=0.9, sparql="SELECT ...", covered=covered)
    txt = SourceResult("tkg", intent="list", answer_list=txt_list, confidence=0.8, anchor=anchor)
    return Toolkit(symbolic=FixedSource(sym), textual=FixedSource(txt))


def test_confident_list_narrowed_by_a_phrase_the_query_ignored():
    kit = _probe_kit(["TV mounts"], "fingertip tilt", ["M1", "M2", "M3"], ["M2", "X9"])
    (o,) = run_strategy("skg+tkg_fb", ["Which TV mounts tilt with a fingertip?"], kit)
    assert o.route == ["skg", "tkg"] and o.result.answer_list == ["M2"]
    assert any("ignored ('fingertip tilt')" in t for t in o.trace)


def test_confident_list_kept_when_the_phrase_is_covered_or_nothing_overlaps():
    covered = run_strategy("skg+tkg_fb", ["q?"], _probe_kit(["S Pen", "tablets"], "s pen", ["T1"], ["T1", "P1"]))[0]
    assert covered.route == ["skg"] and covered.result.answer_list == ["T1"]
    disjoint = run_strategy(
        "skg+tkg_fb", ["Which hybrid phones?"], _probe_kit(["phones"], "hybrid", ["A", "B"], ["C"])
    )[0]
    assert disjoint.route == ["skg", "tkg"] and disjoint.result.answer_list == ["A", "B"]
    assert any("keeping the symbolic one" in t for t in disjoint.trace)


def test_the_probe_is_skipped_when_the_query_read_every_word():
    kit = _probe_kit(["Acme phones", "NFC"], "nfc", ["A"], ["B"])
    (o,) = run_strategy("skg+tkg_fb", ["Which Acme phones have NFC?"], kit)
    assert o.route == ["skg"] and kit.textual.asked == []
    assert any("probe skipped" in t for t in o.trace)


def test_the_probe_is_not_run_for_counts_and_superlatives():
    kit = _probe_kit(["phones"], "fingertip tilt", ["A"], ["B"])
    kit.symbolic.result.intent = "count"
    kit.symbolic.result.value = 1
    (o,) = run_strategy("skg+tkg_fb", ["How many phones?"], kit)
    assert kit.textual.asked == [] and o.route == ["skg"]


def test_an_empty_final_answer_is_less_sure_than_the_query_was():
    from dualgraph.answer.strategies import EMPTY_FACTOR

    empty = SourceResult("skg", intent="list", answer_list=[], confidence=0.9, sparql="SELECT ...", covered=["q"])
    (o,) = run_strategy("skg", ["q?"], Toolkit(symbolic=FixedSource(empty), textual=None))
    assert o.result.answer_list == [] and o.result.confidence == pytest.approx(0.9 * EMPTY_FACTOR)
    zero = SourceResult("skg", intent="count", value=0, confidence=0.9, sparql="SELECT ...")
    (o,) = run_strategy("skg", ["q?"], Toolkit(symbolic=FixedSource(zero), textual=None))
    assert o.result.confidence == 0.9  # zero is a count, not nothing found
    listed = SourceResult("skg", intent="list", answer_list=["A"], confidence=0.9, sparql="SELECT ...")
    (o,) = run_strategy("skg", ["q?"], Toolkit(symbolic=FixedSource(listed), textual=None))
    assert o.result.confidence == 0.9


def test_the_text_is_asked_for_the_unread_words_only_when_the_specs_read_no_condition():
    txt = SourceResult("tkg", intent="list", answer_list=["B1"], confidence=0.8, anchor="hardtail")
    for restricts, expected in ((False, [("hardtails",)]), (True, [()])):
        sym = SourceResult(
            "skg", intent="list", answer_list=["B1", "B2"], confidence=0.28, sparql="SELECT ...",
            unread=["hardtails"], restricts=restricts,
        )  # fmt: skip
        textual = FixedSource(txt)
        run_strategy("skg+tkg_fb", ["Which downhill bikes are hardtails?"], Toolkit(FixedSource(sym), textual))
        # beside conditions the specs did read, the unread words are mostly the question's own wording
        assert textual.unread == expected
