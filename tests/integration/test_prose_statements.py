"""Facts stated only in prose, asked in other words and negated, read through the pages' own
sentences with real MiniLM (``dualgraph.tkg.statements`` inside ``read_products``).

The catalogue is invented here (tents): each fact is written on the pages in a few wordings,
some of them negations, and each question words it differently from every page. The gold
follows from the texts written below. Each case also runs without the sentence index, where
the pages' words alone either find nothing or take the pages that deny the fact.
"""

from __future__ import annotations

import pytest

from dualgraph.answer.text_reader import fold_corpus, read_products
from dualgraph.tkg.model import Chunk
from dualgraph.tkg.retrieval import Retrieval, ScoredChunk
from dualgraph.tkg.statements import StatementIndex

PAGES = {
    "Ridge 2": "A two-person tent for summer trips. It must be staked to the ground before use. "
    "You can buy it on our website.",
    "Ridge 3": "Room for three. Peg it firmly into the ground before you sleep in it. You can buy it on our website.",
    "Dome 2": "A light dome tent. It must be staked to the ground before use. "
    "This tent cannot be ordered through the website.",
    "Dome 4": "A family dome with two porches. Free-standing: it need not be staked to the ground. "
    "Online ordering is not available for this tent.",
    "Pod 1": "A one-person pod. It is not waterproof, so keep it for dry nights. You can buy it on our website.",
    "Pod 2": "A pod for two with a fully waterproof flysheet. Online ordering is not available for this tent.",
    "Arch 3": "A waterproof tunnel tent for three. You can buy it on our website.",
}


@pytest.fixture(scope="module")
def statements() -> StatementIndex:
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    return StatementIndex([(text, [name]) for name, text in PAGES.items()], SentenceTransformerEmbedder())


def _ask(question: str, unread: list[str], statements: StatementIndex | None):
    chunks = {f"c{i}": Chunk(f"c{i}", f"d{i}", text, products=(name,)) for i, (name, text) in enumerate(PAGES.items())}
    scored = [ScoredChunk(c, 0.5, len(c.text.split())) for c in chunks.values()]
    voted = Retrieval(question, scored[:3], scored, entities=[])
    exhaustive = Retrieval(question, scored, scored, entities=[], exhaustive=True)
    return read_products(
        question,
        voted,
        exhaustive,
        chunk_count=lambda e: 1,
        corpus=fold_corpus(chunks),
        names=list(PAGES),
        unread=unread,
        words_alone=True,
        statements=statements,
    )


def test_a_fact_asked_in_other_words_is_read_from_the_pages_that_state_it_not_those_denying_it(statements):
    q = "Which tents have to be anchored to the ground?"
    r = _ask(q, ["anchored", "ground"], statements)
    assert r.products == ["Dome 2", "Ridge 2", "Ridge 3"], r.trace
    assert any("the pages state" in t for t in r.trace) and any("1 page(s) holding" in t for t in r.trace)
    # by the words alone, "it need not be staked to the ground" is one more tent to anchor
    assert _ask(q, ["anchored", "ground"], None).products == ["Dome 2", "Dome 4", "Ridge 2", "Ridge 3"]


def test_a_negated_question_takes_the_pages_that_deny_the_fact_in_any_wording(statements):
    q = "Which tents can't be ordered on the website?"
    r = _ask(q, ["ordered", "website"], statements)
    # "cannot be ordered through the website" as written, "online ordering is not available" by meaning
    assert r.products == ["Dome 2", "Dome 4", "Pod 2"], r.trace
    assert _ask(q, ["ordered", "website"], None).products == ["Dome 2"]


def test_pages_holding_the_word_are_read_for_what_they_say_of_it(statements):
    r = _ask("Which tents are waterproof?", ["waterproof"], statements)
    assert r.products == ["Arch 3", "Pod 2"], r.trace  # "It is not waterproof" is no waterproof tent
    assert any("deny it" in t for t in r.trace)
    assert _ask("Which tents are waterproof?", ["waterproof"], None).products == ["Arch 3", "Pod 1", "Pod 2"]
    negated = _ask("Which tents are not waterproof?", ["waterproof"], statements)
    assert negated.products == ["Pod 1"], negated.trace


def test_pages_that_hold_the_word_only_to_deny_it_are_an_answer_not_silence():
    # "Is the Pod 1 waterproof?" once the specs scoped it to the Pod 1: its page holds the word only
    # to deny it, which answers "no" as firmly as a page stating it would answer "yes"
    pages = {"Pod 1": "A one-person pod. It is not waterproof, so keep it for dry nights.", "Arch 3": "A tunnel tent."}
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    index = StatementIndex([(text, [name]) for name, text in pages.items()], SentenceTransformerEmbedder())
    chunks = {f"c{i}": Chunk(f"c{i}", f"d{i}", text, products=(name,)) for i, (name, text) in enumerate(pages.items())}
    scored = [ScoredChunk(c, 0.5, len(c.text.split())) for c in chunks.values()]
    q = "Is the Pod 1 waterproof?"
    r = read_products(
        q,
        Retrieval(q, scored, scored, entities=[]),
        Retrieval(q, scored, scored, entities=[], exhaustive=True),
        chunk_count=lambda e: 1,
        corpus=fold_corpus(chunks),
        names=list(pages),
        unread=["waterproof"],
        words_alone=True,
        statements=index,
    )
    assert r.products == [] and r.gainsaid == ["Pod 1"], r.trace
    assert r.confidence >= 0.5 and any("says the opposite" in t for t in r.trace), r.trace
