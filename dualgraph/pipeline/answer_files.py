"""The files of bulk answering: the questions read in, the answers JSONL written out.

The answers file is an append-only log while a run goes on (one line per record, last
line for an id wins) and is compacted into question order when the run ends; these
helpers read and write it so that a crash never costs more than the lines in flight.

>>> import json, tempfile
>>> from pathlib import Path
>>> p = Path(tempfile.mkdtemp()) / "q.json"
>>> _ = p.write_text(json.dumps({"q1": {"question": "Which phones have 5G?", "answer": "A"}}))
>>> read_questions(p)
[('q1', 'Which phones have 5G?')]
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from dualgraph.answer.record import AnswerRecord
from dualgraph.corpus.clean import has_lone_surrogate

__all__ = ["AnswerLog", "AnswerWriter", "QuestionsError", "read_answers", "read_questions", "write_answers_atomic"]


class QuestionsError(ValueError):
    """The questions file cannot be used as it is (the message names the file and the entry)."""


class _Object(dict):
    """A JSON object that remembers keys given twice (``json`` would keep the last silently)."""

    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object(pairs)
    obj.duplicates = []
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                obj.duplicates.append(key)
            seen.add(key)
    return obj


def read_questions(path: str | os.PathLike) -> list[tuple[str, str]]:
    """``(id, question)`` pairs in file order.

    Accepts the SpecsQA form (a JSON object keyed by id whose values hold at least
    ``"question"``; other fields are ignored) or a JSON list of ``{"id", "question"}``
    objects. Anything else raises :class:`QuestionsError` naming the file and the entry.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_pairs)
    except json.JSONDecodeError as e:
        raise QuestionsError(f"{path}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    except UnicodeDecodeError as e:
        raise QuestionsError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    if isinstance(data, _Object):  # every JSON object, through _pairs
        if data.duplicates:
            raise QuestionsError(f"{path}: id {data.duplicates[0]!r} is given more than once")
        entries = [(qid, value, f"entry {qid!r}") for qid, value in data.items()]
    elif isinstance(data, list):
        entries = [_list_entry(path, i, item) for i, item in enumerate(data)]
    else:
        raise QuestionsError(
            f"{path}: expected a JSON object keyed by question id, or a list of "
            f'{{"id", "question"}} objects; got a JSON {type(data).__name__}'
        )
    out: list[tuple[str, str]] = []
    where: dict[str, str] = {}
    for qid, value, label in entries:
        if qid == "":
            raise QuestionsError(f"{path}: {label} has an empty id")
        if has_lone_surrogate(qid):  # ids key the answers file: unlike a question, one cannot be replaced
            raise QuestionsError(f"{path}: {label}: the id is not valid Unicode text")
        if qid in where:
            raise QuestionsError(f"{path}: id {qid!r} is given twice ({where[qid]} and {label})")
        where[qid] = label
        out.append((qid, _question_text(path, label, value)))
    return out


def _list_entry(path: Path, index: int, item: Any) -> tuple[str, Any, str]:
    label = f"item {index}"
    if not isinstance(item, dict):
        raise QuestionsError(f"{path}: {label} is a JSON {type(item).__name__}, not an object")
    qid = item.get("id")
    # bool is an int subclass, but True as an id is surely a mistake
    if isinstance(qid, bool) or not isinstance(qid, (str, int)):
        raise QuestionsError(f'{path}: {label} needs an "id" (string or integer), got {qid!r}')
    return str(qid), item, f"{label} (id {str(qid)!r})"


def _question_text(path: Path, label: str, value: Any) -> str:
    if not isinstance(value, dict):
        raise QuestionsError(f'{path}: {label} is a JSON {type(value).__name__}, not an object with a "question"')
    if "question" not in value:
        raise QuestionsError(f'{path}: {label} has no "question"')
    text = value["question"]
    if not isinstance(text, str):
        raise QuestionsError(f'{path}: {label}: "question" must be a string, got {type(text).__name__}')
    return text  # an empty question gets its own error record: the file is still answerable


@dataclass
class AnswerLog:
    """What an answers file holds: the last record per id, in first-seen order."""

    records: dict[str, AnswerRecord] = field(default_factory=dict)
    duplicates: int = 0
    truncated: bool = False


def read_answers(path: str | os.PathLike) -> AnswerLog:
    """Read an answers JSONL file written by bulk answering.

    An unreadable *last* line is what a crash mid-write leaves: it is skipped and
    reported as ``truncated``. An unreadable line anywhere else cannot come from a crash,
    so rather than guess (and later compact away data) it raises ``ValueError``.
    """
    path = Path(path)
    log = AnswerLog()
    # Split on b"\n" only: records may hold U+2028 and the like, which str.splitlines splits on.
    lines = path.read_bytes().split(b"\n")
    last = max((i for i, raw in enumerate(lines) if raw.strip()), default=-1)
    for i, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            record = AnswerRecord.model_validate_json(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValidationError) as e:
            if i == last:
                log.truncated = True
                break
            raise ValueError(
                f"{path}: line {i + 1} is not an answer record ({_short(e)}); "
                "fix or remove it, or start over without resuming"
            ) from None
        if record.id in log.records:
            log.duplicates += 1
        log.records[record.id] = record
    return log


def _short(e: Exception) -> str:
    text = str(e).splitlines()
    return text[0] if text else type(e).__name__


class AnswerWriter:
    """Appends records to the answers file, each batch flushed and fsynced before the next."""

    def __init__(self, path: str | os.PathLike) -> None:
        self._fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 -- the writer owns it; close() / __exit__ closes it

    def write(self, records: list[AnswerRecord]) -> None:
        # One write call per batch: a crash leaves at most one partial line, at the end.
        self._fh.write("".join(r.to_json_line() + "\n" for r in records))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> AnswerWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_answers_atomic(path: str | os.PathLike, records: list[AnswerRecord]) -> None:
    """Replace the answers file with ``records``: readers see the old file or the new, never half."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("".join(r.to_json_line() + "\n" for r in records))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not every platform lets a directory be opened.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
