"""Text made fit for matching: without Unicode format characters (category Cf).

Format characters draw nothing, yet they make two strings that look the same compare
different: a zero-width space inside ``Bat<ZWSP>tery`` makes another entry than ``Battery``,
a bidi override reorders what a reader sees. Spec keys, product names and questions lose
them before they are matched (:mod:`dualgraph.corpus.clean`, :mod:`dualgraph.skg.names`,
:mod:`dualgraph.answer.question_text`); whoever shows the text keeps the original.

This module imports nothing of DualGraph, so every layer may use it.

>>> strip_format("Bat\\u200btery\\u00ad Capa\\u2063city\\u202e")
'Battery Capacity'
>>> strip_format("a\\u200db", keep=JOINERS)  # running text keeps the joiners scripts and emoji need
'a\\u200db'
>>> strip_format("plain ascii") == "plain ascii"
True
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata

__all__ = ["JOINERS", "has_format", "strip_format"]

JOINERS = "\u200c\u200d"
"""Zero-width non-joiner and joiner: they shape Indic and Persian words and join emoji."""


@functools.cache
def _format_chars(keep: str) -> re.Pattern[str]:
    # built from this Python's Unicode tables (once, ~0.1 s), so a character a later Unicode
    # version adds to Cf is caught without a list kept by hand
    chars = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    return re.compile("[" + "".join(re.escape(ch) for ch in chars if ch not in keep) + "]")


def has_format(text: str, *, keep: str = "") -> bool:
    """Whether ``text`` holds a format character not in ``keep``."""
    # ASCII holds none: most keys and questions are ASCII, and they skip the table
    return not text.isascii() and _format_chars(keep).search(text) is not None


def strip_format(text: str, *, keep: str = "") -> str:
    """``text`` without its format characters, except those in ``keep``."""
    if text.isascii():
        return text
    return _format_chars(keep).sub("", text)
