"""Unit tests parse questions about invented catalogs: their vocabulary is the one these catalogs
would give (tests/fixtures/question_vocabulary.yaml); a compiler over a real store sets its own."""

from pathlib import Path

import pytest
import yaml

from dualgraph.lexicon.vocabulary import QuestionVocabulary, use

_WORDS = yaml.safe_load((Path(__file__).parent.parent / "fixtures" / "question_vocabulary.yaml").read_text("utf-8"))
TEST_VOCABULARY = QuestionVocabulary.of(**_WORDS)


@pytest.fixture(autouse=True)
def _invented_catalog_vocabulary():
    with use(TEST_VOCABULARY):
        yield
