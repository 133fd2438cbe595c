"""Evaluate answers files against a questions file: one :class:`EvalResult` each, or a comparison.

>>> from dualgraph.answer.record import AnswerRecord
>>> qs = {"0": Question(id="0", question="Which?", category="Inverse Queries", is_list=True, gt_answer_list=["A", "B"]),
...       "1": Question(id="1", question="How many?", category="Aggregation Queries", is_list=False, gt_value=3)}
>>> recs = [AnswerRecord(id="0", question="Which?", answer_list=["a"], strategy="skg", route=["skg"])]
>>> res = evaluate(qs, recs, label="skg")
>>> round(res.summary.list_f1, 4), res.summary.value_accuracy, res.n_missing, round(res.summary.overall, 4)
(0.6667, 0.0, 1, 0.3333)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TypeAlias

from dualgraph.answer.record import AnswerRecord
from dualgraph.eval.aggregate import breakdown, group_score, latency_summary, read_index_tokens, token_summary
from dualgraph.eval.inputs import Question, load_answers, load_questions
from dualgraph.eval.metrics import score_question
from dualgraph.eval.results import Comparison, EvalResult, IndexTokens

__all__ = ["default_label", "evaluate", "evaluate_many"]

PathLike: TypeAlias = str | os.PathLike
Questions: TypeAlias = PathLike | Mapping[str, Question]
Answers: TypeAlias = PathLike | Mapping[str, AnswerRecord] | Iterable[AnswerRecord]


def _questions(questions: Questions) -> tuple[dict[str, Question], str | None]:
    if isinstance(questions, (str, os.PathLike)):
        return load_questions(questions), str(questions)
    return dict(questions), None


def _answers(answers: Answers) -> tuple[dict[str, AnswerRecord], list[str], str | None]:
    records: dict[str, AnswerRecord]
    repeated: list[str]
    if isinstance(answers, (str, os.PathLike)):
        records, repeated = load_answers(answers)
        return records, repeated, str(answers)
    if isinstance(answers, Mapping):
        return dict(answers), [], None
    records = {}
    repeated = []
    for record in answers:
        if record.id in records and record.id not in repeated:
            repeated.append(record.id)
        records[record.id] = record
    return records, repeated, None


def default_label(records: Mapping[str, AnswerRecord], path: PathLike | None) -> str:
    """The strategy every record shares, else the file stem, else ``"answers"``.

    >>> default_label({}, "runs/skg.jsonl")
    'skg'
    """
    strategies = {r.strategy for r in records.values()}
    if len(strategies) == 1 and "unknown" not in strategies:
        return strategies.pop()
    return Path(path).stem if path is not None else "answers"


def evaluate(
    questions: Questions,
    answers: Answers,
    *,
    label: str | None = None,
    loose: bool = False,
    index_dir: PathLike | None = None,
    index_tokens: IndexTokens | None = None,
) -> EvalResult:
    """Score every question of ``questions`` with its record in ``answers``.

    ``questions``: a questions file or loaded :class:`Question`s. ``answers``: a JSON Lines
    file, a mapping id -> record or an iterable of records. A question without a record is
    scored as an empty answer and counted as missing; a record carrying ``error`` is scored
    as an empty answer and counted as an error. ``index_dir``: read the index's token
    usage from its manifest (``index_tokens`` passes one already read).
    """
    qs, q_path = _questions(questions)
    records, repeated, a_path = _answers(answers)
    rows = [score_question(q, records.get(qid), loose=loose) for qid, q in qs.items()]
    if index_tokens is None and index_dir is not None:
        index_tokens = read_index_tokens(index_dir)
    return EvalResult(
        label=label or default_label(records, a_path),
        questions_path=q_path,
        answers_path=a_path,
        loose=loose,
        n_questions=len(qs),
        n_unscored=sum(not r.scorable for r in rows),
        n_missing=sum(r.status == "missing" for r in rows),
        n_errors=sum(r.status == "error" for r in rows),
        extra_ids=sorted((k for k in records if k not in qs), key=_id_order),
        repeated_ids=repeated,
        mismatched_ids=[qid for qid, q in qs.items() if _other_question(records.get(qid), q)],
        summary=group_score(rows),
        by_category=breakdown(rows, lambda r: r.category),
        by_method=breakdown(rows, lambda r: r.method),
        by_objectivity=breakdown(rows, lambda r: "unknown" if r.objectivity is None else str(r.objectivity).lower()),
        by_strategy=breakdown(rows, lambda r: r.strategy),
        by_route=breakdown(rows, lambda r: r.route),
        tokens=token_summary(rows),
        index_tokens=index_tokens,
        latency=latency_summary(r.latency_s for r in rows),
        rows=rows,
    )


def evaluate_many(
    questions: Questions, answers: Mapping[str, Answers], *, loose: bool = False, index_dir: PathLike | None = None
) -> Comparison:
    """One result per labelled answers file, on the same questions (read once)."""
    qs, q_path = _questions(questions)
    index_tokens = read_index_tokens(index_dir) if index_dir is not None else None
    results = {
        label: evaluate(qs, source, label=label, loose=loose, index_tokens=index_tokens)
        for label, source in answers.items()
    }
    for result in results.values():
        result.questions_path = q_path
    return Comparison(questions_path=q_path, results=results)


def _other_question(record: AnswerRecord | None, question: Question) -> bool:
    if record is None or not record.question.strip():
        return False  # older records may not repeat the question: nothing to compare
    return " ".join(record.question.split()).casefold() != " ".join(question.question.split()).casefold()


def _id_order(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdigit() else (1, key)
