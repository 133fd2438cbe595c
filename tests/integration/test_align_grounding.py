"""What the aligner's accepted pairs change: a spec feature ("Headphone jack") and a page phrase
("3.5 mm audio port") linked by ``dualgraph align`` answer together.

The catalog: three phones state the jack in their specs (two yes, one no), two only in prose
(one has the port, one has none), one says nothing. Before alignment a question about the jack
reads the specs alone; after it the prose statements count too, both ways, and the one that says
nothing never does. The pair is written by hand here (what the judge would accept), so the test
is about where accepted pairs go and how grounding uses them, not about the judge.
"""

from __future__ import annotations

import json

import pytest

from dualgraph.align.job import ALIGN_DIR
from dualgraph.align.output import read_alignments, write_alignment_graph
from dualgraph.align.patterns import apply_to_patterns
from dualgraph.answer.engine import QAEngine
from dualgraph.config import IndexConfig
from dualgraph.corpus.model import Variant
from dualgraph.corpus.specsqa import write_dataset
from dualgraph.lexicon.pattern_index import read_patterns
from dualgraph.models.factory import build_models, index_models
from dualgraph.pipeline.index import build_index
from dualgraph.pipeline.index_store import load_store_config, open_store
from dualgraph.skg import ontology as O


def phone(name, *specs):
    return Variant(name, name, ("phones",), (("Battery:Capacity", "5000 mAh"), ("Display:Size", "6.5 inch"), *specs))


PAGES = [
    ("a1", "# Arc One\n\nThe Arc One is a slim phone with a bright display.", [phone("Arc One", ("Audio:Headphone jack", "Yes"))]),
    ("a2", "# Arc Two\n\nThe Arc Two has a large battery.", [phone("Arc Two", ("Audio:Headphone jack", "Yes"))]),
    ("a3", "# Arc Three\n\nThe Arc Three is light.", [phone("Arc Three", ("Audio:Headphone jack", "No"))]),
    ("b1", "# Bolt One\n\nThe Bolt One has a 3.5 mm audio port for wired earphones.", [phone("Bolt One")]),
    ("b2", "# Bolt Two\n\nThe Bolt Two has no 3.5 mm audio port, so use wireless earbuds.", [phone("Bolt Two")]),
    ("c1", "# Cove One\n\nThe Cove One comes in blue.", [phone("Cove One")]),
]  # fmt: skip

WITH = "phones with a headphone jack"
WITHOUT = "phones without a headphone jack"


def answers(index, *questions):
    engine = QAEngine.open(index)
    try:
        return [sorted(engine.answer(q).answer_list or []) for q in questions]
    finally:
        engine.close()


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("align")
    write_dataset(root / "ds", PAGES)
    build_index(root / "ds", root / "ix", IndexConfig(runner="inline", progress=False))
    return root / "ix"


def _pair(index):
    with open_store(load_store_config(index), index, read_only=True) as store:
        rows = store.select(
            'SELECT ?f ?e ?en WHERE { ?f a skgt:Feature ; skg:hasName "Headphone jack" . '
            '?p skg:hasTextFeature ?e . ?e skg:hasName ?en . FILTER(CONTAINS(?en, "audio port")) }'
        )["results"]["bindings"]
    assert rows, "the fixture catalog should give a spec feature and a prose feature for the jack"
    r = rows[0]
    return {
        "text_iri": r["e"]["value"], "text_name": r["en"]["value"], "skg_iri": r["f"]["value"],
        "skg_name": "Headphone jack", "skg_kind": "feature", "score": 0.9, "judge": "rule", "anchor": False,
    }  # fmt: skip


def test_accepted_pairs_widen_the_answers_both_ways(index):
    before = answers(index, WITH, WITHOUT)
    assert before == [["Arc One", "Arc Two"], ["Arc Three"]]
    pair = _pair(index)
    embedder, _ = build_models(index_models(index))
    with open_store(load_store_config(index), index) as store:
        write_alignment_graph(store, [pair], index / ALIGN_DIR / "alignment.nq")
        # a rerun replaces the graph rather than adding to it
        write_alignment_graph(store, [pair], index / ALIGN_DIR / "alignment.nq")
        n = store.count(graph=O.ALIGNMENT_GRAPH)
        score = store.select("SELECT ?s WHERE { ?a a skgt:Alignment ; skg:alignScore ?s }")["results"]["bindings"]
    assert n == 6 and [float(b["s"]["value"]) for b in score] == [0.9]
    report = apply_to_patterns(index, embedder, [pair])
    assert report["with_aliases"] >= 1
    feature = [p for p in read_patterns(index / "patterns") if p.feature_iri == pair["skg_iri"]]
    assert feature and feature[0].aliases == [pair["text_name"]] and feature[0].aligned == [pair["text_iri"]]
    after = answers(index, WITH, WITHOUT)
    assert after == [["Arc One", "Arc Two", "Bolt One"], ["Arc Three", "Bolt Two"]]


def test_a_rebuilt_pattern_index_keeps_the_aliases(index, tmp_path):
    pair = _pair(index)
    (index / ALIGN_DIR).mkdir(exist_ok=True)
    (index / ALIGN_DIR / "alignments.jsonl").write_text(json.dumps(pair) + "\n", encoding="utf-8")
    assert read_alignments(index / ALIGN_DIR) == [pair]
    from dualgraph.lexicon.pattern_index import build_pattern_index

    embedder, _ = build_models(index_models(index))
    out = tmp_path / "ix" / "patterns"  # the alignments are read from beside the pattern folder
    (tmp_path / "ix").mkdir()
    (tmp_path / "ix" / ALIGN_DIR).mkdir()
    (tmp_path / "ix" / ALIGN_DIR / "alignments.jsonl").write_text(json.dumps(pair) + "\n", encoding="utf-8")
    with open_store(load_store_config(index), index, read_only=True) as store:
        build_pattern_index(store, embedder, out)
    feature = [p for p in read_patterns(out) if p.feature_iri == pair["skg_iri"]]
    assert feature[0].aliases == [pair["text_name"]]


def test_the_llm_judges_the_candidates_when_there_is_one(index, tmp_path, llamacpp):
    """The job with the REAL SmolLM2 on llama.cpp as its judge: structure only (every candidate asked
    once, each decided by the LLM or, when its answer was unusable, by the rule); nothing written."""
    import importlib.util
    import sys
    from pathlib import Path

    if importlib.util.find_spec("pecanpy") is None:
        pytest.skip("node2vec needs the `align` extra")
    sys.path.insert(0, str(Path(__file__).parent))
    from llamacpp import MODEL_NAME, missing_runtime

    if missing_runtime() is not None:
        pytest.skip(str(missing_runtime()))
    from dualgraph.align.job import AlignConfig, align_index
    from dualgraph.models.base import TokenMeter
    from dualgraph.models.openai_chat import OpenAIChatLLM

    meter = TokenMeter()
    llm = OpenAIChatLLM(llamacpp.base_url, MODEL_NAME, max_concurrency=2, max_retries=1, timeout_s=120, meter=meter)
    try:
        before = store_count(index)
        report = align_index(index, AlignConfig(llm_band=1.0), llm=llm, write=False, out_dir=tmp_path / "align")
    finally:
        llm.close()
    asked = report["candidates"]["after_anchors"]
    assert asked > 0 and sum(report["judge"]["judged_by"].values()) == asked
    assert set(report["judge"]["judged_by"]) <= {"llm", "rule-fallback"}
    assert meter.stages["align_judge"].items == asked
    assert store_count(index) == before and (tmp_path / "align" / "report.json").is_file()


def store_count(index) -> int:
    with open_store(load_store_config(index), index, read_only=True) as store:
        return store.count()
