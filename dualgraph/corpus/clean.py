"""Text from a catalog made safe to store and compare: no lone surrogates, control or invisible characters.

JSON may legally carry a lone UTF-16 surrogate (``"\\ud800"``), which no UTF-8 store or
Arrow column can hold; control characters and bidi overrides make two names that look
the same compare different (or hide text). Each cleaner returns what it changed, so the
reader can report the original instead of altering it silently.
"""

from __future__ import annotations

import re
import unicodedata

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls; tab, newline, carriage return and NEL are whitespace and handled per use.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
# NEL (U+0085) is a C1 control but also a line break: read as one
_LINE_BREAKS = re.compile("[\t\n\r\x85\u2028\u2029]")
# Zero-width and bidi-control characters: invisible, but they change what compares equal.
# Joiners (U+200C/U+200D) are left in running text, where some scripts and emoji need them.
_BIDI = "\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c"
_INVISIBLE_TEXT = re.compile(f"[\u200b\u2060-\u2064\ufeff\u00ad{_BIDI}]")
_INVISIBLE_NAME = re.compile(f"[\u200b-\u200d\u2060-\u2064\ufeff\u00ad{_BIDI}]")


def has_lone_surrogate(value: str) -> bool:
    return _SURROGATE.search(value) is not None


def first_lone_surrogate(value: str) -> tuple[int, str] | None:
    """(position, character) of the first lone surrogate, if any."""
    m = _SURROGATE.search(value)
    return (m.start(), m.group()) if m else None


def clean_name(value: str) -> tuple[str, list[str]]:
    """A one-line name or key: breaks become spaces, the rest removed, NFC; returns (clean, changes).

    >>> clean_name("Phone\\u202e X\\x00\\ud800")
    ('Phone X\\ufffd', ['lone surrogate', 'control character', 'invisible character'])
    >>> clean_name("Caf\\u0065\\u0301")
    ('Café', [])
    """
    return _clean(value, invisible=_INVISIBLE_NAME, one_line=True)


def clean_text(value: str) -> tuple[str, list[str]]:
    """Running text (a spec value, a page): line breaks kept, controls and bidi overrides removed, NFC."""
    return _clean(value, invisible=_INVISIBLE_TEXT, one_line=False)


def _clean(value: str, *, invisible: re.Pattern[str], one_line: bool) -> tuple[str, list[str]]:
    changes = []
    out = value
    if _SURROGATE.search(out):
        changes.append("lone surrogate")
        out = _SURROGATE.sub("\ufffd", out)
    if _CONTROL.search(out):
        changes.append("control character")
        out = _CONTROL.sub("", out)
    if invisible.search(out):
        changes.append("invisible character")
        out = invisible.sub("", out)
    if one_line and _LINE_BREAKS.search(out):
        out = _LINE_BREAKS.sub(" ", out)
    # NFC is not reported: composed and decomposed accents are the same text, not a defect.
    return unicodedata.normalize("NFC", out), changes


def shown(value: str, limit: int = 120) -> str:
    """The original as an ASCII-escaped excerpt, safe in any report (surrogates included)."""
    text = ascii(value[:limit])
    return text + ("…" if len(value) > limit else "")
