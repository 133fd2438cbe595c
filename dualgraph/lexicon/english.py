"""The general English of :file:`general_words.yaml`: the words a question parser needs whatever
the catalog (grammar words, nouns for "a product", names of measures, yes/no words)."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources
from typing import Any

import yaml

__all__ = ["agent_nouns", "extent_axes", "extent_letters", "general_words", "how_adjectives", "one_spelling"]


@cache
def _general() -> dict[str, Any]:
    text = resources.files("dualgraph.lexicon").joinpath("general_words.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def general_words(key: str) -> frozenset[str]:
    """One list of :file:`general_words.yaml`, folded.

    >>> "the" in general_words("function_words"), "weight" in general_words("measure_nouns")
    (True, True)
    """
    return frozenset(str(w).casefold() for w in _general()[key]["words"])


@cache
def words_alternation(key: str) -> str:
    """One list of :file:`general_words.yaml` as a regex alternation, longest first, any run of
    spaces inside a phrase ("on  sale").

    >>> import re
    >>> bool(re.fullmatch(words_alternation("price_cut_words"), "on  sale"))
    True
    """
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(general_words(key), key=len, reverse=True))


@cache
def how_adjectives() -> dict[str, str]:
    """ "how <adjective>" → the measure it asks ("heavy" → weight)."""
    return {str(k): str(v) for k, v in _general()["how_adjectives"]["map"].items()}


@cache
def extent_axes() -> tuple[str, ...]:
    """The axes of a size written "a x b x c" with no names, in order (width, height, depth)."""
    return tuple(str(w) for w in _general()["extent_axes"]["words"])


@cache
def extent_letters() -> dict[str, str]:
    """The initials spec sheets name a size's axes by ("w" → width)."""
    return {str(k): str(v) for k, v in _general()["extent_letters"]["map"].items()}


@cache
def _spellings() -> dict[str, str]:
    return {str(k).casefold(): str(v).casefold() for k, v in _general()["spellings"]["map"].items()}


@lru_cache(maxsize=100_000)  # the same value names are compared for every question
def one_spelling(text: str) -> str:
    """``text`` folded, each word that English spells two ways (British, American) in one spelling.

    >>> one_spelling("Brushed Aluminium"), one_spelling("aluminum"), one_spelling("Space Grey")
    ('brushed aluminum', 'aluminum', 'space gray')
    """
    table = _spellings()
    return " ".join(table.get(w, w) for w in text.casefold().split())


@cache
def _irregular() -> dict[str, str]:
    return {str(k): str(v) for k, v in _general()["irregular_verbs"]["map"].items()}


@lru_cache(maxsize=512)
def agent_nouns(verb: str) -> tuple[str, ...]:
    """The nouns English forms for whoever does what ``verb`` says, most usual first: "designed" →
    designer, "makes" → maker, "manufactured" → manufacturer, "supplies" → supplier, "distributes" →
    distributor. A question "who <verb> X" asks for that entry, in any catalog.

    >>> agent_nouns("designed")[0], agent_nouns("makes")[0], agent_nouns("made")[0], agent_nouns("produced")[0]
    ('designer', 'maker', 'maker', 'producer')
    >>> "manufacturer" in agent_nouns("manufactures"), "supplier" in agent_nouns("supplies")
    (True, True)
    >>> "distributor" in agent_nouns("distributed"), agent_nouns("is")
    (True, ())
    """
    word = verb.casefold()
    if word in general_words("function_words"):
        return ()
    bases = [_irregular()[word]] if word in _irregular() else []
    if word.endswith("ied") or word.endswith("ies"):
        bases.append(word[:-3] + "y")
    for suffix in ("ed", "d", "es", "s", ""):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            bases.append(word[: len(word) - len(suffix)] if suffix else word)
    out: list[str] = []
    for base in bases:
        if base.endswith("y") and base[-2:-1] not in "aeiou":
            forms = [base[:-1] + "ier"]
        elif base.endswith("e"):
            forms = [base + "r", base[:-1] + "or"]
        else:
            forms = [base + "er", base + "or"]
        out += [f for f in forms if f not in out]
    return tuple(out)
