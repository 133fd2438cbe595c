"""LLMSparqlGenerator against the REAL SmolLM2-135M-Instruct on llama.cpp's server.

Structure only, never answer quality (a 135M model rarely writes a correct query, and
greedy outputs differ between builds): the batch completes without raising, every
candidate is either run (``ok``/``empty``, with its query) or rejected with a reason
(``failed`` + ``error``), the chosen query is one of the candidates (or the draft), and
token usage is metered by the LLM under the generator's stage. The catalog is the invented
one of ``tests/unit/test_compiler.py``; the prompt is kept small (2 patterns per clause)
to fit the test server's 2048-token context.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

for _d in (Path(__file__).parent, Path(__file__).parent.parent / "unit"):
    if str(_d) not in sys.path:
        sys.path.insert(0, str(_d))
from llamacpp import MODEL_NAME, missing_runtime  # noqa: E402
from test_compiler import HashBowEmbedder, catalog_store  # noqa: E402

from dualgraph.lexicon.patterns import PatternIndex, collect_patterns  # noqa: E402
from dualgraph.models.base import TokenMeter  # noqa: E402
from dualgraph.models.openai_chat import OpenAIChatLLM  # noqa: E402
from dualgraph.query.interpret.compiler import Compiler  # noqa: E402
from dualgraph.query.sparql.llm import LLMSparqlGenerator  # noqa: E402
from dualgraph.stores.oxigraph import OxigraphStore  # noqa: E402

pytestmark = [pytest.mark.network, pytest.mark.skipif(missing_runtime() is not None, reason=str(missing_runtime()))]

QUESTIONS = ["Which phones have 5G?", "Which phones without NFC cost under £600?"]
# every candidate is up to 200 tokens of SmolLM2 on one thread: the direct path is checked on the
# question of two clauses alone; the Ray Data pass keeps both, for the order of questions in one pass
ONE = QUESTIONS[1:]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> OxigraphStore:
    return catalog_store(tmp_path_factory.mktemp("skg"))


def test_generation_structure_with_the_real_model(llamacpp, store):
    assert MODEL_NAME == "SmolLM2-135M-Instruct"
    index = PatternIndex.build(collect_patterns(store), HashBowEmbedder())
    meter = TokenMeter()
    llm = OpenAIChatLLM(llamacpp.base_url, "SmolLM2-135M-Instruct", max_retries=1, timeout_s=120, meter=meter)
    try:
        gen = LLMSparqlGenerator(
            llm,
            index,
            store,
            n_candidates=3,
            patterns_per_constraint=2,
            max_tokens=200,
            compiler=Compiler(store, index, currency="GBP"),
        )
        outs = gen.generate(ONE)
    finally:
        llm.close()
    _check_structure(outs, meter, ONE)


def _check_structure(outs, meter: TokenMeter, questions: list[str]) -> None:
    assert [o.question for o in outs] == questions
    for out in outs:
        assert len(out.candidates) == 3
        assert [c.temperature for c in out.candidates] == [0.0, 0.3, 0.7]
        assert len(out.clauses) >= 1 and "Clause 1:" in out.prompt
        for c in out.candidates:
            assert c.status in ("ok", "empty", "failed")
            if c.status == "failed":
                assert c.error, c  # rejected with a reason
            else:
                assert c.sparql and c.error is None and c.total_rows >= len(c.rows)
        if out.source == "llm":
            chosen = out.candidates[out.chosen]
            assert chosen.status != "failed" and out.sparql == chosen.sparql
        elif out.source == "draft":
            assert out.sparql == out.draft and all(c.status == "failed" for c in out.candidates)
        else:
            assert out.error and out.sparql is None
    usage = meter.stages["sparql_generation"]
    assert usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert usage.prompt_tokens == sum(o.prompt_tokens for o in outs)


@pytest.mark.ray
def test_bulk_generation_as_one_ray_data_pass(llamacpp, store):
    """Every candidate of every question as rows of one ray.data.llm pass (the batch stage's
    HTTP backend; the vLLM backend takes the same rows), with the same structure as above."""
    from dualgraph.llm_batch.config import LLMBatchConfig
    from dualgraph.llm_batch.llm import RayDataLLM

    index = PatternIndex.build(collect_patterns(store), HashBowEmbedder())
    meter = TokenMeter()
    config = LLMBatchConfig(backend="http", model=MODEL_NAME, url=llamacpp.base_url, batch_size=3, max_retries=1)
    gen = LLMSparqlGenerator(
        RayDataLLM(config, meter=meter, repair_rounds=0),
        index,
        store,
        n_candidates=3,
        patterns_per_constraint=2,
        max_tokens=200,
        compiler=Compiler(store, index, currency="GBP"),
    )
    _check_structure(gen.generate(QUESTIONS), meter, QUESTIONS)
