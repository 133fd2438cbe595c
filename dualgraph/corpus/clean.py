"""Text from a catalog made safe to store and compare: no lone surrogates, control or invisible characters.

JSON may legally carry a lone UTF-16 surrogate (``"\\ud800"``), which no UTF-8 store or
Arrow column can hold; control characters and bidi overrides make two names that look
the same compare different (or hide text). Each cleaner returns what it changed, so the
reader can report the original instead of altering it silently.
"""

from __future__ import annotations

import re
import unicodedata

from dualgraph.text_norm import JOINERS, has_format, strip_format

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 and C1 controls; tab, newline, carriage return and NEL are whitespace and handled per use.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
# NEL (U+0085) is a C1 control but also a line break: read as one
_LINE_BREAKS = re.compile("[\t\n\r\x85\u2028\u2029]")
# Invisible characters (Unicode format, Cf: zero-width, bidi controls, soft hyphen, tags) change
# what compares equal (dualgraph.text_norm). Joiners are left in running text, where some
# scripts and emoji need them; names and keys lose them too.
_TEXT_KEEPS = JOINERS


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
    return _clean(value, keep="", one_line=True)


def clean_text(value: str) -> tuple[str, list[str]]:
    """Running text (a spec value, a page): line breaks kept, controls and bidi overrides removed, NFC."""
    return _clean(value, keep=_TEXT_KEEPS, one_line=False)


def _clean(value: str, *, keep: str, one_line: bool) -> tuple[str, list[str]]:
    changes = []
    out = value
    if _SURROGATE.search(out):
        changes.append("lone surrogate")
        out = _SURROGATE.sub("\ufffd", out)
    if _CONTROL.search(out):
        changes.append("control character")
        out = _CONTROL.sub("", out)
    if has_format(out, keep=keep):
        changes.append("invisible character")
        out = strip_format(out, keep=keep)
    if one_line and _LINE_BREAKS.search(out):
        out = _LINE_BREAKS.sub(" ", out)
    # NFC is not reported: composed and decomposed accents are the same text, not a defect.
    return unicodedata.normalize("NFC", out), changes


def shown(value: str, limit: int = 120) -> str:
    """The original as an ASCII-escaped excerpt, safe in any report (surrogates included)."""
    text = ascii(value[:limit])
    return text + ("…" if len(value) > limit else "")
