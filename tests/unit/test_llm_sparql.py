"""LLMSparqlGenerator on the small invented catalog of ``test_compiler.py`` (real converter + rules,
in-memory Oxigraph, the same deterministic hashed bag-of-words test embedder).

The LLM here is :class:`ScriptedLLM`, an in-process object implementing the ``LLM`` protocol
that **stands in for the model**: it returns pre-written answers in request order, so each
test controls exactly which candidates are valid, refused, malformed, empty or in
agreement. The real server (SmolLM2-135M on llama.cpp) is exercised, for structure only, in
``tests/integration/test_llm_sparql_llamacpp.py``. Expected answers are computed from the
``CATALOG`` rows, never from the system's own output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import CATALOG, HashBowEmbedder, catalog_store, names

from dualgraph.lexicon.patterns import PatternIndex, collect_patterns
from dualgraph.models.base import ChatRequest, ChatResult, TokenMeter
from dualgraph.query.interpret.compiler import Compiler
from dualgraph.query.sparql.llm import LLMSparqlGenerator, extract_sparql
from dualgraph.stores.oxigraph import OxigraphStore

SKG = "https://w3id.org/dualgraph/skg#"
HEAD = "SELECT DISTINCT ?p ?name WHERE { ?p a skgt:Product ; skg:hasName ?name . "
PHONES = f"?p skg:belongs <{SKG}category-smartphones> . "
Q_5G = HEAD + PHONES + f"?p skg:hasFeature <{SKG}entry-network.5g> . }}"
Q_NFC = HEAD + PHONES + f"?p skg:hasFeature <{SKG}entry-connectivity.nfc> . }}"
# the same product set as Q_NFC, written differently
Q_NFC_ALT = (
    "SELECT DISTINCT ?p ?name WHERE { ?p skg:hasFeature skg:entry-connectivity.nfc ; "
    "skg:belongs skg:category-smartphones ; a skgt:Product ; skg:hasName ?name }"
)
Q_EMPTY = HEAD + '?p skg:hasPrice ?v ; skg:hasCurrency "GBP" . FILTER(?v < 1) }'
Q_ALL = HEAD + "}"
Q_UPDATE = f'INSERT DATA {{ <{SKG}x> skg:hasName "injected" }}'
Q_BROKEN = "SELECT DISTINCT ?p ?name WHERE { ?p a skgt:Product ; skg:hasName ?name "  # unclosed brace

NFC_PHONES = names(lambda r: r["cat"] == "smartphones" and r["nfc"] is True)
G5_PHONES = names(lambda r: r["cat"] == "smartphones" and r["g5"])


class ScriptedLLM:
    """Stands in for the model: answers requests in order from ``script`` (a query string, a
    raw ``ChatResult``, or an ``Exception`` to raise), cycling, and meters like a backend."""

    name = "scripted"

    def __init__(self, script: list, meter: TokenMeter | None = None) -> None:
        self.script = script
        self.calls: list[list[ChatRequest]] = []
        self.meter = meter if meter is not None else TokenMeter()

    def complete(self, requests: list[ChatRequest]) -> list[ChatResult]:
        self.calls.append(list(requests))
        out = []
        for i, req in enumerate(requests):
            item = self.script[i % len(self.script)]
            if isinstance(item, Exception):
                raise item
            res = (
                item
                if isinstance(item, ChatResult)
                else ChatResult(text=json.dumps({"sparql": item}), parsed={"sparql": item})
            )
            res = ChatResult(
                text=res.text, parsed=res.parsed, error=res.error, prompt_tokens=100 + i, completion_tokens=20
            )
            self.meter.record(
                req.stage, calls=1, items=1, prompt_tokens=res.prompt_tokens, completion_tokens=res.completion_tokens
            )
            out.append(res)
        return out


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    return catalog_store(tmp_path_factory.mktemp("skg"))


@pytest.fixture(scope="module")
def index(store) -> PatternIndex:
    return PatternIndex.build(collect_patterns(store), HashBowEmbedder())


@pytest.fixture(scope="module")
def compiler(store, index) -> Compiler:
    return Compiler(store, index, currency="GBP")


def gen(store, index, script, **kw):
    llm = ScriptedLLM(script)
    return llm, LLMSparqlGenerator(llm, index, store, **kw)


def test_valid_candidates_agree(store, index):
    _, g = gen(store, index, [Q_NFC])
    (out,) = g.generate(["Which phones support NFC?"])
    assert out.error is None and out.source == "llm" and out.chosen == 0
    assert sorted(out.answer_list) == NFC_PHONES
    assert [c.status for c in out.candidates] == ["ok"] * 3
    assert [c.agreement for c in out.candidates] == [3, 3, 3]
    assert [c.duplicate_of for c in out.candidates] == [None, 0, 0]  # identical result sets merged
    assert out.prompt_tokens == 100 + 101 + 102 and out.completion_tokens == 60
    assert g.meter.stages["sparql_generation"].prompt_tokens == 303  # usage comes from the LLM's meter


def test_batch_is_one_call_with_three_temperatures(store, index):
    llm, g = gen(store, index, [Q_NFC])
    outs = g.generate(["Which phones support NFC?", "phones with 5G"])
    assert len(llm.calls) == 1 and len(llm.calls[0]) == 6
    assert [r.temperature for r in llm.calls[0]] == [0.0, 0.3, 0.7, 0.0, 0.3, 0.7]
    req = llm.calls[0][0]
    assert req.schema is not None and req.schema["required"] == ["sparql"]
    assert req.prompt_version == "sparql_generation.v2" and req.stage == "sparql_generation"
    assert "5G" in llm.calls[0][3].messages[1]["content"] and [o.question for o in outs][1] == "phones with 5G"


def test_update_is_refused_and_store_untouched(store, index):
    _, g = gen(store, index, [Q_UPDATE, Q_NFC, Q_NFC])
    (out,) = g.generate(["Which phones support NFC?"])
    c0 = out.candidates[0]
    assert c0.status == "failed" and "refused" in c0.error
    assert out.chosen == 1 and sorted(out.answer_list) == NFC_PHONES
    assert not store.select('SELECT ?s WHERE { ?s skg:hasName "injected" }')["results"]["bindings"]


def test_syntax_error_is_dropped(store, index):
    _, g = gen(store, index, [Q_BROKEN, Q_5G, ChatResult(text="sorry, I cannot help")])
    (out,) = g.generate(["phones with 5G"])
    assert [c.status for c in out.candidates] == ["failed", "ok", "failed"]
    assert "malformed" in out.candidates[0].error.lower() or "syntax" in out.candidates[0].error.lower()
    assert out.candidates[2].error == "no SPARQL query in the answer"
    assert out.chosen == 1 and sorted(out.answer_list) == G5_PHONES


def test_non_empty_beats_empty_even_outvoted(store, index):
    _, g = gen(store, index, [Q_EMPTY, Q_EMPTY, Q_5G])
    (out,) = g.generate(["phones with 5G"])
    assert [c.status for c in out.candidates] == ["empty", "empty", "ok"]
    assert out.chosen == 2 and sorted(out.answer_list) == G5_PHONES


def test_all_empty_is_kept(store, index):
    _, g = gen(store, index, [Q_EMPTY, Q_BROKEN, Q_EMPTY])
    (out,) = g.generate(["phones under £1"])
    assert out.error is None and out.source == "llm" and out.chosen == 0
    assert out.answer_list == [] and out.rows == []


def test_agreement_ranking(store, index):
    _, g = gen(store, index, [Q_5G, Q_NFC, Q_NFC_ALT])
    (out,) = g.generate(["Which phones support NFC?"])
    assert [c.agreement for c in out.candidates] == [1, 2, 2]
    assert out.candidates[2].duplicate_of == 1
    assert out.chosen == 1 and sorted(out.answer_list) == NFC_PHONES  # no concatenation of the tables


def test_tie_prefers_the_draft_agreeing_candidate(store, index, compiler):
    # 1 vote each: without a draft the first wins; with the compiler's draft ("NFC phones"), the NFC one
    _, g = gen(store, index, [Q_5G, Q_NFC, Q_BROKEN])
    assert g.generate(["Which phones support NFC?"])[0].chosen == 0
    _, g = gen(store, index, [Q_5G, Q_NFC, Q_BROKEN], compiler=compiler)
    (out,) = g.generate(["Which phones support NFC?"])
    assert out.chosen == 1 and sorted(out.answer_list) == NFC_PHONES


def test_large_result_is_kept_and_flagged(store, index):
    _, g = gen(store, index, [Q_ALL], row_cap=3)
    (out,) = g.generate(["list every product"])
    assert out.source == "llm" and len(out.rows) == 3
    # the store stops reading one row past the cap, so the total is only known to exceed it
    assert out.truncated and 3 < out.total_rows <= len(CATALOG)
    assert all(c.truncated and c.status == "ok" for c in out.candidates)


def test_per_constraint_context(store, index):
    llm, g = gen(store, index, [Q_NFC])
    q = "Which phones with NFC have at least 256GB storage and cost under £950?"
    (out,) = g.generate([q])
    prompt = llm.calls[0][0].messages[1]["content"]
    blocks = {cl.text: cl for cl in out.clauses}
    assert {"NFC", "at least 256GB", "under £950"} <= set(blocks)
    for i, cl in enumerate(out.clauses, 1):  # one patterns block per clause
        assert f'Clause {i}: "{cl.text}"' in prompt
    section = {b.split("\n", 1)[0]: b for b in prompt.split("\n\n") if b.startswith("Clause ")}
    nfc = next(v for k, v in section.items() if '"NFC"' in k)
    storage = next(v for k, v in section.items() if '"at least 256GB"' in k)
    price = next(v for k, v in section.items() if '"under £950"' in k)
    assert "entry-connectivity.nfc" in nfc and "lacks:" in nfc
    assert "entry-memory.internal_storage" in storage and 'skg:hasUnit "GB"' in storage
    assert "skg:hasPrice" in price and '"GBP"' in price
    assert q in prompt and "Draft query" not in prompt


def test_whole_question_fallback_without_clauses(store, index):
    _, g = gen(store, index, [Q_ALL])
    (out,) = g.generate(["hello there"])
    assert [cl.kind for cl in out.clauses] == ["whole question"]
    assert out.clauses[0].patterns and 'Clause 1: "hello there" [whole question]' in out.prompt


def test_draft_in_prompt_only_when_enabled(store, index, compiler):
    q = "phones without NFC"
    llm, g = gen(store, index, [Q_NFC], compiler=compiler)
    (out,) = g.generate([q])
    draft = compiler.compile(q).sparql
    assert out.draft == draft and "Draft query" in out.prompt and draft in llm.calls[0][0].messages[1]["content"]
    assert "skg:lacksFeature" in draft
    llm, g = gen(store, index, [Q_NFC], compiler=compiler, use_draft=False)
    (out,) = g.generate([q])
    assert out.draft is None and "Draft query" not in llm.calls[0][0].messages[1]["content"]


def test_no_candidate_runs_falls_back_to_the_draft(store, index, compiler):
    _, g = gen(store, index, [Q_BROKEN, Q_UPDATE], compiler=compiler)
    (out,) = g.generate(["phones without NFC"])
    assert all(c.status == "failed" for c in out.candidates)
    assert out.source == "draft" and out.chosen is None
    assert sorted(out.answer_list) == names(lambda r: r["cat"] == "smartphones" and r["nfc"] is False)


def test_llm_failure_is_reported_not_raised(store, index):
    _, g = gen(store, index, [ConnectionError("server down")])
    (out,) = g.generate(["phones with 5G"])
    assert out.source == "none" and out.sparql is None and "server down" in out.error
    assert all(c.status == "failed" and "server down" in c.error for c in out.candidates)
    _, g = gen(store, index, [ChatResult(text="", error="timeout")])
    (out,) = g.generate(["phones with 5G"])
    assert all(c.error == "llm: timeout" for c in out.candidates) and "no candidate ran" in out.error


def test_extract_sparql_tolerates_loose_answers():
    assert extract_sparql(ChatResult(text='{"sparql": "```sparql\\nSELECT ?p WHERE {}\\n```"}')) == "SELECT ?p WHERE {}"
    assert extract_sparql(ChatResult(text="Here: SELECT ?p WHERE { ?p a skgt:Product }")).startswith("SELECT ?p")
    assert extract_sparql(ChatResult(text="", parsed={"sparql": 3})) is None
