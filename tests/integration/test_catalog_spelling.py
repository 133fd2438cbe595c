"""A question's word read as the catalogue spells it, with real MiniLM as the judge of meaning
(``QuestionVocabulary.in_catalog_spelling``, ``dualgraph.lexicon.spelling``).

The catalogue is invented and written in British spelling ("Aluminium", "Colour", "Grey",
"Carbon Fibre", "Tyre width"); the questions are written in American spelling, and some
hold English words one letter from a catalogue word that mean something else ("steal" and
"steel", "lighting" and "lightning"). Before, "aluminum" was no catalogue word: "How many
aluminum bikes" was read as an unknown maker and answered with every bike.
"""

from __future__ import annotations

import pytest

from dualgraph.lexicon.vocabulary import SPELLING_COSINE, QuestionVocabulary


@pytest.fixture(scope="module")
def vocabulary() -> QuestionVocabulary:
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    embedder = SentenceTransformerEmbedder()
    return QuestionVocabulary.of(
        categories=["Bikes"],
        attributes=["Colour", "Tyre width", "Frame Material", "Weight"],
        values={"Vast frame": "Frame Material", "Aluminium": "Frame Material", "Carbon Fibre": "Frame Material", "Steel": "Frame Material",
                "Grey": "Colour", "Lightning connector": "Charging"},
        brands=["Ridgeline"],
        embed=embedder.embed,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("asked", "read"),
    [
        ("How many aluminum bikes are there?", "How many aluminium bikes are there?"),
        ("Which bikes come in gray?", "Which bikes come in grey?"),
        (
            "Which carbon fiber bikes have the widest tire width?",
            "Which carbon fibre bikes have the widest tyre width?",
        ),
        ("What color is the Ridgeline 3?", "What colour is the Ridgeline 3?"),
    ],
)
def test_a_spelling_variant_is_read_as_the_catalogue_writes_it(vocabulary, asked, read):
    [(got, changes)] = vocabulary.in_catalog_spelling([asked])
    assert got == read and changes


@pytest.mark.parametrize(
    "asked",
    [
        "Which bikes would steal the show?",  # "steel": one letter, another word
        "Which lamps have LED lighting?",  # "lightning"
        "Which bikes are wirless?",  # a slip, not a spelling: MiniLM puts it at 0.73
        "How many steel bikes are there?",  # a catalogue word stays
        "How much does the Ridgeline 3 weigh?",  # "weight" adds a last letter: another word (0.91 cosine)
        "Which bikes are frames?",  # singular and plural are the reader's
        "Which bikes come with wide tyres?",  # "with" is no "width": general English is never respelled
        "Which bikes are fast?",  # "vast" would be one letter away, were it a catalogue word
        "Which grip sizes fit?",  # "grey" is two letters from "grip"
    ],
)
def test_a_word_one_letter_from_a_catalogue_word_but_meaning_another_stays(vocabulary, asked):
    assert vocabulary.in_catalog_spelling([asked]) == [(asked, [])]


def test_the_threshold_sits_between_variants_and_other_words():
    from dualgraph.models.embedders import SentenceTransformerEmbedder

    variants = [("aluminum", "aluminium"), ("color", "colour"), ("tire", "tyre"), ("center", "centre")]
    others = [("steal", "steel"), ("lighting", "lightning"), ("model", "modal"), ("wirless", "wireless")]
    e = SentenceTransformerEmbedder()

    def cos(a: str, b: str) -> float:
        x, y = e.embed([a, b])
        return float(x @ y / ((x @ x) ** 0.5 * (y @ y) ** 0.5))

    assert min(cos(a, b) for a, b in variants) >= SPELLING_COSINE > max(cos(a, b) for a, b in others)
