"""The catalog's own synonyms: a question word means the catalog words MiniLM puts close to it, out of
the catalog's entry, section and label names (real all-MiniLM-L6-v2, shipped offline)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))
from test_compiler import catalog_embedder

from dualgraph.lexicon.synonyms import CatalogLexicon
from dualgraph.query.ground.name_match import synonyms

NAMES = ["Display", "Screen size", "Memory", "Battery", "Processor", "Operating system", "Weight", "Depth", "Price"]


@pytest.fixture(scope="module")
def lexicon() -> CatalogLexicon:
    e = catalog_embedder()
    return CatalogLexicon(NAMES, embed=lambda texts: e.embed(texts, stage="query"))


@pytest.mark.parametrize(
    ("word", "means"),
    [("screen", "display"), ("storage", "memory"), ("ram", "memory"), ("cpu", "processor"), ("cheap", "price")],
)
def test_a_question_word_means_catalog_words(lexicon, word, means):
    assert means in lexicon.synonyms(word)


@pytest.mark.parametrize(("word", "not_meant"), [("weight", "depth"), ("battery", "display"), ("storage", "battery")])
def test_unrelated_words_stay_apart(lexicon, word, not_meant):
    assert not_meant not in lexicon.synonyms(word)


def test_a_word_is_never_its_own_synonym_and_no_embedder_means_none(lexicon):
    assert "display" not in lexicon.synonyms("display")
    assert CatalogLexicon(NAMES).synonyms("screen") == []


def test_general_english_and_the_catalog_add_up(lexicon):
    # general English (general_synonyms.yaml) says CPU = processor; MiniLM over the catalog adds the rest
    assert "processor" in synonyms("cpu", lexicon)
    assert "memory" in synonyms("storage", lexicon)
    assert synonyms("storage") == []  # no catalog: nothing a domain would know


def test_the_general_list_holds_a_reason_for_every_word():
    from importlib import resources

    import yaml

    raw = yaml.safe_load(resources.files("dualgraph.lexicon").joinpath("general_synonyms.yaml").read_text("utf-8"))
    assert raw["synonyms"] and raw["principal"]
    for word, entry in raw["synonyms"].items():
        assert entry["words"] and len(entry["why"]) > 20, word
