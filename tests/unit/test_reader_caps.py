"""Every bound on a question's work that cuts something says so in the answer record (issue 34):
``AnswerRecord.caps`` names the cap, its limit and what it cut, and a cut the answer rests on
lowers its confidence; an ordinary question reaches none.

An invented catalogue of kettles (real converter and rules, in-memory Oxigraph, the real
MiniLM): a colour listed under five same-named entries, four volumes in litres, and 205 page
entities named "widget N" (more than a phrase may name and still constrain).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import compile_catalog

from dualgraph.answer.engine import AskConfig, QAEngine
from dualgraph.answer.sources import SymbolicSource, TextualSource
from dualgraph.answer.strategies import Toolkit
from dualgraph.api import format_answer
from dualgraph.corpus.model import Variant
from dualgraph.query.caps import CAP_FACTOR, CAPS
from dualgraph.query.ground import features, numbers
from dualgraph.query.interpret import BeamConfig
from dualgraph.query.interpret.compiler import MAX_CONDITIONS
from dualgraph.stores.base import QueryTimeout
from dualgraph.stores.faiss_index import FaissIndex
from dualgraph.tkg.model import Chunk, Entity
from dualgraph.tkg.retrieval import EntityVoteRetriever, index_entities

# name, category, capacity litres, power W, price GBP, colour
KETTLES = [
    ("Brewmaster One", "Electric Kettles", 1.7, 3000, 35, "Red"),
    ("Brewmaster Mini", "Electric Kettles", 0.8, 1500, 12, "Blue"),
    ("Quickboil Pro", "Electric Kettles", 1.5, 2200, 49, "Red"),
    ("Hearth Classic", "Stovetop Kettles", 2.0, None, 30, "Green"),
    ("Hearth Petite", "Stovetop Kettles", 1.2, None, 18, "Blue"),
    ("Roamer Fold", "Travel Kettles", 1.6, 800, 27, "Grey"),
    ("Roamer Tiny", "Travel Kettles", 0.6, 600, 15, "Red"),
]
PARTS = ("Lid", "Body", "Handle", "Base", "Cable")  # five entries named "Colour": one past MAX_TWIN_ENTRIES + 1
WIDGETS = 205


def _kettle(row) -> Variant:
    name, cat, litres, watts, price, colour = row
    specs = [
        ("Capacity:Capacity", f"{litres} L"),
        ("Capacity:Water tank", f"{litres * 2} L"),
        ("Capacity:Filter volume", f"{litres / 2} L"),
        ("Capacity:Drip tray", f"{litres / 3} L"),
        ("Price", f"{price}.00 GBP"),
    ]
    specs += [(f"{part}:Colour", colour) for part in PARTS]
    if watts:
        specs.append(("Power:Power", f"{watts} W"))
    return Variant(name, name, (cat,), tuple(specs))


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    c = compile_catalog([_kettle(r) for r in KETTLES], tmp_path_factory.mktemp("kettles"))
    widgets = [f'<urn:t:w{i}> a skgt:UTKG_Entity ; skg:hasName "widget {i}" .' for i in range(WIDGETS)]
    c.store.update("INSERT DATA { " + " ".join(widgets) + " }")
    return c


@pytest.fixture(scope="module")
def engine(compiler):
    return QAEngine(Toolkit(symbolic=SymbolicSource(compiler)), config=AskConfig(strategy="skg"))


def caps_of(record) -> dict[str, dict]:
    return {c.name: c.model_dump(mode="json") for c in record.caps}


def conditions(n: int) -> str:
    return "Which kettles cost " + ", ".join(f"under {40 + i} GBP" for i in range(n)) + "?"


@pytest.mark.parametrize(
    "question",
    [
        "Which kettles cost under 40 GBP?",
        "What is the cheapest stovetop kettle?",
        "How many kettles hold at least 1.5 litres?",
        "Which electric kettles have at least 2000 W of power?",
        conditions(MAX_CONDITIONS),
    ],
)
def test_an_ordinary_question_reaches_no_cap(engine, question):
    record = engine.answer(question)
    assert record.error is None and record.caps == []
    assert "caps" not in format_answer(record, explain=True)


def test_a_question_past_the_cap_on_conditions_leaves_the_rest_unread(engine):
    within, past = engine.answer(conditions(MAX_CONDITIONS)), engine.answer(conditions(MAX_CONDITIONS + 2))
    cap = caps_of(past)["conditions"]
    assert (cap["limit"], cap["unit"], cap["lowered"]) == (MAX_CONDITIONS, "conditions", True)
    assert "'under 64 GBP', 'under 65 GBP'" in cap["what"]
    assert {"under 64 GBP", "under 65 GBP"} <= set(past.unread)
    assert past.evidence.confidence < within.evidence.confidence  # each unread condition halves it


def test_a_phrase_naming_too_many_page_entities_is_named_as_capped(engine):
    record = engine.answer("Which kettles have a widget?")
    cap = caps_of(record)["prose_entities"]
    assert (cap["limit"], cap["unit"], cap["lowered"]) == (features.PROSE_ENTITY_CAP, "entities", True)
    assert "'widget'" in cap["what"] and record.unread == ["widget"]


def test_a_value_under_more_entries_than_are_read_lowers_the_confidence(engine, monkeypatch):
    capped = engine.answer("Which kettles are red?")
    cap = caps_of(capped)["twin_entries"]
    assert (cap["limit"], cap["lowered"]) == (features.MAX_TWIN_ENTRIES, True)
    assert "'red' not read under" in cap["what"]
    monkeypatch.setattr(features, "MAX_TWIN_ENTRIES", len(PARTS))  # every entry read: nothing cut
    whole = engine.answer("Which kettles are red?")
    assert whole.caps == [] and sorted(whole.answer_list or []) == sorted(capped.answer_list or [])
    assert capped.evidence.confidence == pytest.approx(whole.evidence.confidence * CAP_FACTOR)


def test_runner_up_entries_past_their_cap_are_named_when_the_beam_finds_nothing(engine, monkeypatch):
    # no kettle holds 50 litres under any of its four volume entries: the beam tries two runner-ups
    capped = engine.answer("Which kettles hold at least 50 litres?")
    assert capped.answer_list == []
    cap = caps_of(capped)["runner_ups"]
    assert (cap["limit"], cap["lowered"]) == (numbers.RUNNERS_UP, True)
    assert "'at least 50 litres': 1 more entry" in cap["what"]
    monkeypatch.setattr(numbers, "RUNNERS_UP", 3)  # every entry tried
    tried = engine.answer("Which kettles hold at least 50 litres?")
    assert tried.caps == [] and tried.answer_list == []
    assert capped.evidence.confidence == pytest.approx(tried.evidence.confidence * CAP_FACTOR, abs=1e-3)


def test_readings_past_the_beam_width_are_named(engine, compiler, monkeypatch):
    monkeypatch.setattr(compiler, "beam", BeamConfig(width=1))
    record = engine.answer("Which kettles hold at least 50 litres?")
    cap = caps_of(record)["beam_width"]
    assert (cap["limit"], cap["unit"], cap["lowered"]) == (1, "readings", True)
    assert cap["what"].startswith("2 more reading(s) left unchecked")
    assert (
        format_answer(record).splitlines()[-1] == "caps reached: beam_width, runner_ups (--explain says what they cut)"
    )
    explained = format_answer(record, explain=True)
    assert explained.startswith(format_answer(record) + "\n\ncaps reached:\n")
    assert "  beam_width at 1 readings: 2 more reading(s) left unchecked" in explained


class _Stalled:
    """The catalogue's store, except that a query holding ``marker`` is stopped at its timeout, as
    a query too slow for it is (the store raises QueryTimeout; nothing of it is read)."""

    def __init__(self, store, marker: str) -> None:
        self.store, self.marker = store, marker

    def select(self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None):
        if self.marker in query:
            raise QueryTimeout(f"query timed out after {timeout_s} s")
        return self.store.select(query, timeout_s=timeout_s, max_rows=max_rows)

    def __getattr__(self, name: str):
        return getattr(self.store, name)


def test_a_beam_check_past_its_time_is_named(engine, compiler, monkeypatch):
    monkeypatch.setattr(compiler, "store", _Stalled(compiler.store, "LIMIT 1"))  # every existence check
    record = engine.answer("Which kettles hold at least 50 litres?")
    cap = caps_of(record)["beam_check_s"]
    assert (cap["limit"], cap["unit"], cap["lowered"]) == (compiler.beam.check_timeout_s, "s", True)
    assert cap["what"].startswith("3 check(s) timed out, confirming nothing")


def test_the_question_query_past_its_time_is_named(engine, compiler, monkeypatch):
    monkeypatch.setattr(compiler, "store", _Stalled(compiler.store, "SELECT DISTINCT ?p ?name"))
    record = engine.answer("Which kettles cost under 40 GBP?")
    cap = caps_of(record)["query_timeout_s"]
    assert (cap["limit"], cap["unit"]) == (compiler.timeout_s, "s")
    assert record.error is not None and "QueryTimeout" in record.error


def test_a_list_cut_at_the_row_cap_says_so_and_is_less_sure(engine, compiler, monkeypatch):
    whole = engine.answer("Which kettles cost under 40 GBP?")
    monkeypatch.setattr(compiler, "row_cap", 3)
    cut = engine.answer("Which kettles cost under 40 GBP?")
    cap = caps_of(cut)["query_rows"]
    assert (cap["limit"], cap["unit"], cap["lowered"]) == (3, "rows", True)
    assert len(cut.answer_list or []) == 3 < len(whole.answer_list or [])
    assert cut.evidence.confidence == pytest.approx(whole.evidence.confidence * CAP_FACTOR)


def test_a_question_past_the_length_cap_is_named(engine):
    record = engine.answer("Which kettles " + "x" * 1000)
    cap = caps_of(record)["question_chars"]
    assert (cap["limit"], cap["unit"]) == (1000, "characters") and record.error.startswith("question refused")
    assert record.model_dump(mode="json")["caps"][0]["name"] == "question_chars"  # the serve JSON carries it


class _Toy:
    """A three-word embedder: every entity is near enough to any question for exhaustive retrieval."""

    name, dim = "toy", 3

    def embed(self, texts, *, stage="default"):
        rows = np.array([[w in t.lower() for w in ("lid", "base", "spout")] for t in texts], "float32") + 0.01
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_a_text_guess_from_the_top_chunks_names_the_products_it_left(compiler):
    chunks = {f"c{i}": Chunk(f"c{i}", f"d{i}", f"Kettle {i} has a lid.", products=(f"K{i}",)) for i in range(6)}
    entities = {f"e{i}": Entity(f"e{i}", f"lid {i}", "a lid", [f"c{i}"]) for i in range(6)}
    index = FaissIndex(3, gpu=False)
    index_entities(_Toy(), entities, index)
    retriever = EntityVoteRetriever(_Toy(), index, entities, None, chunks, top_entities=6, top_chunks=6)
    kit = Toolkit(symbolic=SymbolicSource(compiler), textual=TextualSource(retriever))
    record = QAEngine(kit, config=AskConfig(strategy="tkg")).answer("Which one pours best?")
    assert len(record.answer_list or []) == 3  # the products of the top three voted chunks: a guess
    cap = caps_of(record)["text_guess_chunks"]
    assert (cap["limit"], cap["lowered"]) == (3, True) and cap["what"].startswith("3 more product(s)")


def test_every_cap_is_documented_with_its_unit():
    assert len(CAPS) == 12 and all(c.unit and c.bounds for c in CAPS.values())
    answering = (Path(__file__).resolve().parents[2] / "docs" / "answering.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in answering for name in CAPS)
