"""What a question must be before it is read: text of bounded length, without invisible characters.

The readers are sized for a shopper's question, not for a pasted page, and every path that
answers (``dualgraph ask``, bulk answering, ``dualgraph serve``) screens its questions here, so a
refused question becomes an error record rather than minutes of work or a crash.

>>> screen_question("Which  phones\\u200b have 5G?\\x07", max_chars=100)
'Which  phones have 5G?'
>>> screen_question("5000\\u180e mAh bat\\u00adtery\\U000e0020?", max_chars=100)  # every format character (Cf)
'5000 mAh battery?'
>>> for text in ("   ", "x" * 11):
...     try:
...         screen_question(text, max_chars=10)
...     except QuestionRefused as e:
...         print(e)
the question is empty (only spaces or invisible characters)
the question is 11 characters long; at most 10 are read
>>> safe_text("a\\ud800b")
('a\\ufffdb', 'a\\\\ud800b')
"""

from __future__ import annotations

from dualgraph.corpus.clean import clean_name, first_lone_surrogate, has_lone_surrogate

__all__ = ["QuestionRefused", "QuestionTooLong", "clean_question", "safe_text", "screen_question"]


class QuestionRefused(ValueError):
    """A question that is not read; the message says why (it never repeats the question)."""


class QuestionTooLong(QuestionRefused):
    """A question past the cap on its length: ``length`` characters, ``limit`` the most read."""

    def __init__(self, length: int, limit: int) -> None:
        self.length, self.limit = length, limit
        super().__init__(f"the question is {length} characters long; at most {limit} are read")

    def __reduce__(self):  # rebuilt from its fields, not its message (it may cross a pipe)
        return (type(self), (self.length, self.limit))


def safe_text(text: str) -> tuple[str, str | None]:
    """``text`` with each lone surrogate replaced by U+FFFD, and (when any was) the original with
    Python-style escapes, which keeps it exactly and can be stored anywhere."""
    if not has_lone_surrogate(text):
        return text, None
    escaped = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text), escaped


def clean_question(text: str) -> str:
    """``text`` in NFC with controls and invisible characters (every format character, Cf:
    :mod:`dualgraph.text_norm`) removed, line breaks read as spaces: the same cleaning as catalog
    names and spec keys (:func:`dualgraph.corpus.clean.clean_name`), so a question and the names
    it mentions compare alike. The reader gets this; the answer record keeps the question as asked."""
    return clean_name(text)[0]


def screen_question(text: str, *, max_chars: int | None) -> str:
    """The question to read, cleaned (see :func:`clean_question`); raises :class:`QuestionRefused`
    for text that is not valid Unicode, empty, or longer than ``max_chars`` (None: no cap)."""
    at = first_lone_surrogate(text)
    if at is not None:
        raise QuestionRefused(
            f"the question is not valid Unicode text (a lone surrogate, U+{ord(at[1]):04X} at character {at[0]})"
        )
    if max_chars is not None and len(text) > max_chars:
        # counted before cleaning: the cap bounds the work of cleaning too
        raise QuestionTooLong(len(text), max_chars)
    cleaned = clean_question(text)
    if not cleaned.strip():
        raise QuestionRefused("the question is empty (only spaces or invisible characters)")
    return cleaned
