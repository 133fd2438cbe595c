"""What a question must be before it is read: text of bounded length, without invisible characters.

The readers are sized for a shopper's question, not for a pasted page, and every path that
answers (``dualgraph ask``, bulk answering, ``dualgraph serve``) screens its questions here, so a
refused question becomes an error record rather than minutes of work or a crash.

>>> screen_question("Which  phones\\u200b have 5G?\\x07", max_chars=100)
'Which  phones have 5G?'
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

import re
import unicodedata

__all__ = ["QuestionRefused", "clean_question", "has_surrogates", "safe_text", "screen_question"]


class QuestionRefused(ValueError):
    """A question that is not read; the message says why (it never repeats the question)."""


# Lone surrogates: JSON lets a client send one ("\ud800"), but no UTF-8 writer can store it.
_SURROGATES = re.compile("[\ud800-\udfff]")
# Zero-width characters and bidirectional controls: invisible, yet they split or reorder words.
_INVISIBLE = "\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
# C0 and C1 controls other than the whitespace ones, which are read as spaces
_DROP = re.compile(f"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f{_INVISIBLE}]")


def has_surrogates(text: str) -> bool:
    return _SURROGATES.search(text) is not None


def safe_text(text: str) -> tuple[str, str | None]:
    """``text`` with each lone surrogate replaced by U+FFFD, and (when any was) the original with
    Python-style escapes, which keeps it exactly and can be stored anywhere."""
    if not has_surrogates(text):
        return text, None
    escaped = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _SURROGATES.sub("\ufffd", text), escaped


def clean_question(text: str) -> str:
    """``text`` in NFC with controls and invisible characters removed (whitespace kept)."""
    return _DROP.sub("", unicodedata.normalize("NFC", text))


def screen_question(text: str, *, max_chars: int | None) -> str:
    """The question to read, cleaned (see :func:`clean_question`); raises :class:`QuestionRefused`
    for text that is not valid Unicode, empty, or longer than ``max_chars`` (None: no cap)."""
    if has_surrogates(text):
        at = _SURROGATES.search(text)
        where = f"U+{ord(at.group()):04X} at character {at.start()}" if at else ""
        raise QuestionRefused(f"the question is not valid Unicode text (a lone surrogate, {where})")
    if max_chars is not None and len(text) > max_chars:
        # counted before cleaning: the cap bounds the work of cleaning too
        raise QuestionRefused(f"the question is {len(text)} characters long; at most {max_chars} are read")
    cleaned = clean_question(text)
    if not cleaned.strip():
        raise QuestionRefused("the question is empty (only spaces or invisible characters)")
    return cleaned
