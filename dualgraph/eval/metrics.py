"""List and value metrics of SpecsQA answers, numerically the same as the dev sets' reference scorer.

The rules (``shared/eval/README.md``, implemented independently here):

* **Names** go through NFKC, case folding, whitespace collapsed and trimmed, nothing
  else (:func:`normalise_name`): a system must return catalogue names verbatim, and the
  default numbers must equal the reference scorer's. ``loose=True`` additionally ignores
  spacing around punctuation, dash variants and a space between a number and its unit,
  so ``"(8GB RAM + 128GB)"`` matches ``"(8GB RAM+128GB)"``. It never drops characters
  that tell variants apart: parenthesised parts, digits and ``+`` (``S24+`` is not
  ``S24``) all stay.
* **List questions**: set precision, recall and F1 after normalisation, duplicates
  counted once. Empty gold: an empty answer scores 1, anything else 0; non-empty gold
  with an empty answer scores 0.
* **Value questions**: 1 or 0. A numeric gold is matched within a relative 1e-6 (strings
  with thousands commas are read); a name by normalised equality.
* **Icecat**: a product's title (``gt_answer_titles``) is accepted in place of its id.

>>> list_scores(["A", "B", "b"], ["a", "C"])
ListScore(p=0.5, r=0.5, f1=0.5, exact=False)
>>> value_correct("1,299", 1299), value_correct("Phone X", "phone  x")
(True, True)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.inputs import Question
from dualgraph.eval.results import QuestionRow

__all__ = [
    "ListScore",
    "list_scores",
    "normalise_name",
    "parse_number",
    "predicted_answer",
    "score_question",
    "title_aliases",
    "value_correct",
]

_WHITESPACE = re.compile(r"\s+")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})
# Spacing next to a symbol is typography, not identity ("RAM + 128GB" is "RAM+128GB").
_SPACE_AT_SYMBOL = re.compile(r" ?([^\w\s]) ?")
# "128 GB" and "128GB" name the same storage; only unit words, so "S24 FE" keeps its space.
_NUMBER_UNIT = re.compile(r"(\d) (?=(?:gb|tb|mb|mah|wh|hz|mp|w|kg|g|mm|cm|in|inch|nits)\b)")


def normalise_name(name: Any, *, loose: bool = False) -> str:
    """The comparable form of a product name (see the module notes).

    >>> normalise_name("  Acer Super ZX 5G  (8GB RAM + 128GB) ")
    'acer super zx 5g (8gb ram + 128gb)'
    >>> normalise_name("Phone X (8GB RAM + 128 GB)", loose=True)
    'phone x(8gb ram+128gb)'
    >>> normalise_name("phone x (8GB RAM+128GB)", loose=True)
    'phone x(8gb ram+128gb)'
    >>> normalise_name("Phone X (12GB RAM + 256GB)", loose=True) == 'phone x(8gb ram+128gb)'
    False
    """
    text = _WHITESPACE.sub(" ", unicodedata.normalize("NFKC", str(name)).casefold()).strip()
    if loose:
        text = _NUMBER_UNIT.sub(r"\1", _SPACE_AT_SYMBOL.sub(r"\1", text.translate(_DASHES)))
    return text


def parse_number(value: Any) -> float | None:
    """A number from a number or a string with thousands commas; None when it is not one.

    >>> parse_number("1,299"), parse_number(" 4.5 "), parse_number("about 5"), parse_number(True)
    (1299.0, 4.5, None, None)
    """
    try:
        return float(str(value).replace(",", "").strip())
    except ValueError:
        return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def title_aliases(question: Question, *, loose: bool = False) -> dict[str, str]:
    """Normalised title -> normalised id, from ``gt_answer_titles`` (Icecat); empty elsewhere.

    >>> q = Question(id="1", question="?", is_list=False, gt_value="125", gt_answer_titles=["Phone X 6.1\\""])
    >>> title_aliases(q)
    {'phone x 6.1"': '125'}
    """
    ids = question.gt_answer_list if question.is_list else [question.gt_value]
    titles = question.gt_answer_titles or []
    return {normalise_name(t, loose=loose): normalise_name(i, loose=loose) for i, t in zip(ids or [], titles)}


class ListScore(NamedTuple):
    p: float
    r: float
    f1: float
    exact: bool


def list_scores(
    predicted: Iterable[Any], gold: Iterable[Any], *, aliases: Mapping[str, str] | None = None, loose: bool = False
) -> ListScore:
    """Set precision, recall, F1 and exact-set match of a predicted list against the gold list.

    >>> list_scores([], [])
    ListScore(p=1.0, r=1.0, f1=1.0, exact=True)
    >>> list_scores(["A"], [])
    ListScore(p=0.0, r=0.0, f1=0.0, exact=False)
    """
    aliases = aliases or {}
    pred = {aliases.get(k, k) for k in (normalise_name(x, loose=loose) for x in predicted)}
    gold_set = {normalise_name(x, loose=loose) for x in gold}
    exact = pred == gold_set
    if not gold_set:
        return ListScore(1.0, 1.0, 1.0, True) if not pred else ListScore(0.0, 0.0, 0.0, False)
    if not pred:
        return ListScore(0.0, 0.0, 0.0, False)
    hits = len(pred & gold_set)
    p, r = hits / len(pred), hits / len(gold_set)
    return ListScore(p, r, 2 * p * r / (p + r) if hits else 0.0, exact)


def value_correct(predicted: Any, gold: Any, *, aliases: Mapping[str, str] | None = None, loose: bool = False) -> bool:
    """Whether a predicted value matches the gold value (number within relative 1e-6, or name).

    >>> value_correct(4900.0000001, 4900), value_correct("4,901", 4900), value_correct(None, 0)
    (True, False, False)
    """
    if predicted is None:
        return False
    if _is_number(gold):
        x = parse_number(predicted)
        # The floor of 1 makes the tolerance absolute near zero (a count of 0 must be 0).
        return x is not None and abs(x - gold) <= 1e-6 * max(1.0, abs(gold))
    name = normalise_name(predicted, loose=loose)
    return (aliases or {}).get(name, name) == normalise_name(gold, loose=loose)


def predicted_answer(record: AnswerRecord | None, *, is_list: bool) -> Any:
    """What a record answers, as the metric reads it; an error record or no record answers nothing.

    List questions read ``answer_list``, else a name given as ``value``; value questions read
    ``value``, else the single item of ``answer_list``.

    >>> predicted_answer(AnswerRecord(id="1", question="?", strategy="skg", value="A"), is_list=True)
    ['A']
    >>> predicted_answer(AnswerRecord(id="1", question="?", strategy="skg", answer_list=["A"]), is_list=False)
    'A'
    """
    if record is None or record.error:
        return [] if is_list else None
    if is_list:
        if record.answer_list is not None:
            return list(record.answer_list)
        # A blank value is no answer, as the reference scorer reads "" for a list question.
        return [record.value] if isinstance(record.value, str) and record.value else []
    if record.value is None and record.answer_list is not None and len(record.answer_list) == 1:
        return record.answer_list[0]
    return record.value


def score_question(question: Question, record: AnswerRecord | None, *, loose: bool = False) -> QuestionRow:
    """The scored row of one question given its record (None: no record)."""
    status = "missing" if record is None else ("error" if record.error else "ok")
    row = QuestionRow(
        id=question.id,
        question=question.question,
        category=question.category,
        method=question.gt_retrieval_method,
        objectivity=question.objectivity,
        is_list=question.is_list,
        scorable=question.scorable,
        status=status,
        gold=question.gold,
        predicted=predicted_answer(record, is_list=question.is_list),
    )
    if record is not None:
        row.strategy = record.strategy
        row.route = ">".join(record.route) or "(none)"
        row.error = record.error
        row.prompt_tokens, row.completion_tokens = record.tokens.prompt, record.tokens.completion
        row.latency_s = record.latency_s
    if not question.scorable:
        return row
    aliases = title_aliases(question, loose=loose)
    if question.is_list:
        s = list_scores(row.predicted, question.gt_answer_list or [], aliases=aliases, loose=loose)
        row.p, row.r, row.f1, row.exact, row.score = s.p, s.r, s.f1, s.exact, s.f1
    else:
        row.value_ok = value_correct(row.predicted, question.gt_value, aliases=aliases, loose=loose)
        row.score = float(row.value_ok)
    return row
