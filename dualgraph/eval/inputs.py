"""Read what an evaluation needs: a SpecsQA questions file and a JSON Lines answers file.

Bad input is never skipped: every problem raises :class:`EvalInputError` naming the file
and, where there is one, the line (or the question id), because a silently dropped answer
would quietly lower or raise a score.

>>> q = Question.model_validate({"id": "0", "question": "Which?", "is_list": True, "gt_answer_list": ["A"]})
>>> q.scorable, q.gold
(True, ['A'])
>>> Question.model_validate({"id": "1", "question": "Free text?", "is_list": False}).scorable
False
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dualgraph.answer.record import AnswerRecord

__all__ = ["EvalInputError", "Question", "load_answers", "load_questions", "parse_answer_line"]


class EvalInputError(ValueError):
    """An input file cannot be used; the message names the file and the line or question."""

    def __init__(self, path: str | os.PathLike[str], message: str, *, line: int | None = None) -> None:
        self.path = str(path)
        self.line = line
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


class Question(BaseModel):
    """One SpecsQA question with its gold answer (unknown extra fields are kept)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(..., description="the question's key in the questions file")
    question: str = Field(..., description="the question text")
    is_list: bool = Field(..., description="true: the gold is a set of products; false: a single value")
    category: str = Field("(none)", description="SpecsQA category, e.g. 'Inverse Queries'")
    gt_retrieval_method: str = Field("(none)", description="where the gold comes from: sparql, tkg, naive, closed_book")
    objectivity: bool | None = Field(None, description="true for objective questions (computed gold)")
    gt_answer: str = Field("", description="the gold answer in words (for LLM judging, not for exact matching)")
    gt_answer_list: list[Any] | None = Field(None, description="list questions: the gold product names or ids")
    gt_value: Any = Field(None, description="value questions: the gold number or name (extra field of the dev sets)")
    gt_answer_titles: list[str] | None = Field(
        None, description="Icecat: titles accepted in place of the ids, in gold order (one for a value question)"
    )

    @property
    def scorable(self) -> bool:
        """Whether list/value metrics apply: original SpecsQA value questions carry no ``gt_value``."""
        return self.gt_answer_list is not None if self.is_list else self.gt_value is not None

    @property
    def gold(self) -> Any:
        """The gold list (list questions) or value (the others)."""
        return self.gt_answer_list if self.is_list else self.gt_value


def load_questions(path: str | os.PathLike[str]) -> dict[str, Question]:
    """The questions of a SpecsQA-format file, keyed by id, in file order."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM is not a syntax error
    except OSError as e:
        raise EvalInputError(path, f"cannot read the questions file ({e.strerror or e})") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise EvalInputError(path, f"not valid JSON: {e.msg} (column {e.colno})", line=e.lineno) from e
    if not isinstance(data, dict):
        raise EvalInputError(path, 'expected a JSON object keyed by question id ("0", "1", ...)')
    questions: dict[str, Question] = {}
    for key, entry in data.items():
        if not isinstance(entry, dict):
            raise EvalInputError(path, f"question {key!r}: expected an object, got {type(entry).__name__}")
        try:
            questions[str(key)] = Question.model_validate({**entry, "id": str(key)})
        except ValidationError as e:
            raise EvalInputError(path, f"question {key!r}: {_first_problem(e)}") from e
    return questions


def parse_answer_line(line: str, *, path: str | os.PathLike[str] = "<answers>", line_no: int = 1) -> AnswerRecord:
    """One answers-file line as an :class:`AnswerRecord`.

    Records written by older runs may lack ``question`` or ``strategy``: those get ``""``
    and ``"unknown"`` rather than failing the whole file; a missing ``id`` is an error.

    >>> parse_answer_line('{"id": 3, "answer_list": ["A"]}').id
    '3'
    >>> parse_answer_line('{"answer": "x"}', path="a.jsonl", line_no=4)
    Traceback (most recent call last):
    ...
    dualgraph.eval.inputs.EvalInputError: a.jsonl:4: the record has no "id"
    """
    try:
        data = json.loads(line)
    except json.JSONDecodeError as e:
        raise EvalInputError(path, f"not valid JSON: {e.msg} (column {e.colno})", line=line_no) from e
    if not isinstance(data, dict):
        raise EvalInputError(path, f"expected a JSON object, got {type(data).__name__}", line=line_no)
    if data.get("id") in (None, ""):
        raise EvalInputError(path, 'the record has no "id"', line=line_no)
    data["id"] = str(data["id"])
    data.setdefault("question", "")
    data["strategy"] = data.get("strategy") or "unknown"
    try:
        return AnswerRecord.model_validate(data)
    except ValidationError as e:
        raise EvalInputError(path, f"not an answer record: {_first_problem(e)}", line=line_no) from e


def load_answers(path: str | os.PathLike[str]) -> tuple[dict[str, AnswerRecord], list[str]]:
    """The records of a JSON Lines answers file keyed by id, and the ids seen more than once.

    Blank lines are allowed. A repeated id keeps its last record (a resumed run appends)
    and is returned in the second list so the report can say so.
    """
    path = Path(path)
    records: dict[str, AnswerRecord] = {}
    repeated: list[str] = []
    try:
        with path.open(encoding="utf-8-sig") as fh:
            for line_no, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                record = parse_answer_line(line, path=path, line_no=line_no)
                if record.id in records and record.id not in repeated:
                    repeated.append(record.id)
                records[record.id] = record
    except UnicodeDecodeError as e:
        raise EvalInputError(path, f"not UTF-8 text ({e.reason})") from e
    except OSError as e:
        raise EvalInputError(path, f"cannot read the answers file ({e.strerror or e})") from e
    return records, repeated


def _first_problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "(record)"
    return f"{where}: {first.get('msg', 'invalid')}"
