"""Recover a JSON value from what a language model wrote around it.

Small models wrap JSON in code fences and prose, leave trailing commas, write Python
literals (``True``/``None``), quote with apostrophes, forget to quote keys, or stop
mid-value when ``max_tokens`` runs out. :func:`parse_json_loose` undoes those mistakes
with a hand-written, iterative scanner: every step is linear in the input (no regular
expressions, so no catastrophic backtracking) and no recursion (deep nesting cannot blow
the Python stack). Valid JSON always takes the strict ``json`` path first, unchanged.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["parse_json_loose"]

MAX_DEPTH = 2_000  # deeper than any sane answer; stops pathological inputs early
MAX_CANDIDATES = 32  # openings ('{' / '[') tried before giving up on prose with brackets
_LITERALS = {"true": True, "false": False, "null": None, "True": True, "False": False, "None": None}
_ESCAPES = {'"': '"', "'": "'", "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WS = " \t\r\n"
_HEX = "0123456789abcdefABCDEF"
_DIGITS = "0123456789"


def parse_json_loose(text: str) -> Any:
    """The first JSON value in ``text``, repaired where a model typically breaks it.

    Raises :class:`ValueError` with the reason when no value can be recovered.

    >>> parse_json_loose('Sure! ```json\\n{"a": [1, 2,], "b": True}\\n``` Hope it helps.')
    {'a': [1, 2], 'b': True}
    >>> parse_json_loose("{name: 'Bob's phone', 'ok': None}")
    {'name': "Bob's phone", 'ok': None}
    >>> parse_json_loose('{"items": ["x", "y", "trunc')
    {'items': ['x', 'y', 'trunc']}
    >>> parse_json_loose("no json here")
    Traceback (most recent call last):
    ...
    ValueError: no JSON object or array in the text
    """
    if not isinstance(text, str):
        raise ValueError(f"expected str, got {type(text).__name__}")
    body = _strip_fences(text).strip()
    if not body:
        raise ValueError("empty text")
    try:
        return json.loads(body)
    except (json.JSONDecodeError, RecursionError):
        pass
    starts = _openings(body)
    if not starts:
        raise ValueError("no JSON object or array in the text")
    first_error = ""
    for start in starts:
        try:
            # raw_decode accepts a valid value followed by prose; the loose parser handles the rest.
            return json.JSONDecoder().raw_decode(body, start)[0]
        except (json.JSONDecodeError, RecursionError):
            pass
        try:
            return _LooseParser(body, start).parse()
        except ValueError as e:
            first_error = first_error or str(e)
    raise ValueError(first_error)


def _strip_fences(text: str) -> str:
    """The inside of the first Markdown code fence, or the text itself when there is none."""
    open_at = text.find("```")
    if open_at < 0:
        return text
    line_end = text.find("\n", open_at + 3)
    if line_end < 0:  # a fence with nothing after it: take what follows the backticks
        return text[open_at + 3 :]
    close_at = text.find("```", line_end + 1)
    inner = text[line_end + 1 :] if close_at < 0 else text[line_end + 1 : close_at]
    # A fence without any bracket inside (e.g. a shell example) is not the answer.
    return inner if ("{" in inner or "[" in inner) else text


def _openings(text: str) -> list[int]:
    out: list[int] = []
    for i, ch in enumerate(text):
        if ch in "{[":
            out.append(i)
            if len(out) >= MAX_CANDIDATES:
                break
    return out


class _Frame:
    """One open container: its value, and (objects) the key waiting for a value."""

    __slots__ = ("key", "state", "value")

    def __init__(self, value: dict | list, state: str) -> None:
        self.value = value
        self.key: str | None = None
        self.state = state  # "key", "colon", "value", "comma"


class _LooseParser:
    def __init__(self, text: str, start: int) -> None:
        self.s = text
        self.n = len(text)
        self.i = start
        self.stack: list[_Frame] = []
        self.backed_up = False

    def fail(self, reason: str) -> ValueError:
        return ValueError(f"{reason} at offset {self.i}")

    def parse(self) -> Any:
        s = self.s
        while True:
            self._skip_space()
            if self.i >= self.n:
                return self._close_truncated()
            ch = s[self.i]
            top = self.stack[-1] if self.stack else None
            if top is None or top.state == "value":
                if top is not None and isinstance(top.value, list) and ch in "],":
                    self.i += 1
                    if ch == "]":  # empty list, or a trailing comma before it
                        done = self._pop()
                        if done is not None:
                            return done[0]
                    continue  # ',' here is a doubled comma: skip it
                done = self._value(ch)
                if done is not None:
                    return done[0]
            elif top.state == "key":
                if ch in ",":
                    self.i += 1  # trailing or doubled comma
                elif ch == "}":
                    self.i += 1
                    done = self._pop()
                    if done is not None:
                        return done[0]
                elif ch in "\"'":
                    top.key = self._string(ch, in_container=True)
                    top.state = "colon"
                elif ch.isalpha() or ch in "_$":
                    top.key = self._bare_key()
                    top.state = "colon"
                else:
                    raise self.fail(f"expected a key, found {ch!r}")
            elif top.state == "colon":
                if ch != ":":
                    raise self.fail(f"expected ':', found {ch!r}")
                self.i += 1
                top.state = "value"
            else:  # "comma": after a complete value
                if ch == ",":
                    self.i += 1
                    top.state = "key" if isinstance(top.value, dict) else "value"
                elif ch in "}]":
                    done = self._close_bracket(ch)
                    if done is not None:
                        return done[0]
                else:  # a missing comma between two items: act as if it were there
                    top.state = "key" if isinstance(top.value, dict) else "value"

    # -- containers --------------------------------------------------------------

    def _attach(self, value: Any) -> tuple[Any] | None:
        """Give a finished value to the open container; a 1-tuple when it was the root."""
        if not self.stack:
            return (value,)
        top = self.stack[-1]
        if isinstance(top.value, dict):
            top.value[top.key] = value
            top.key = None
        else:
            top.value.append(value)
        top.state = "comma"
        return None

    def _pop(self) -> tuple[Any] | None:
        return self._attach(self.stack.pop().value)

    def _close_bracket(self, ch: str) -> tuple[Any] | None:
        want = dict if ch == "}" else list
        if not any(isinstance(f.value, want) for f in reversed(self.stack)):  # from the top: amortised O(1)
            raise self.fail(f"unmatched {ch!r}")
        self.i += 1
        # A closer for an outer container also closes the inner ones left open ('[1, 2}').
        while True:
            inner_matches = isinstance(self.stack[-1].value, want)
            done = self._pop()
            if inner_matches or done is not None:
                return done

    def _close_truncated(self) -> Any:
        """End of text inside a value: drop a key without value, close every container."""
        if not self.stack:
            raise self.fail("no value before the end of the text")
        result: tuple[Any] | None = None
        while self.stack:
            top = self.stack[-1]
            if isinstance(top.value, dict) and top.key is not None:
                top.key = None
            result = self._pop()
        assert result is not None
        return result[0]

    # -- scalars -----------------------------------------------------------------

    def _value(self, ch: str) -> tuple[Any] | None:
        if ch in "{[":
            if len(self.stack) >= MAX_DEPTH:
                raise self.fail("nested too deep")
            self.i += 1
            self.stack.append(_Frame({} if ch == "{" else [], "key" if ch == "{" else "value"))
            return None
        if ch in "\"'":
            return self._attach(self._string(ch, in_container=bool(self.stack)))
        if ch in _DIGITS or ch in "-+.":
            return self._attach(self._number())
        if ch.isalpha():
            return self._attach(self._literal())
        raise self.fail(f"unexpected {ch!r}")

    def _skip_space(self) -> None:
        s, n = self.s, self.n
        while self.i < n:
            ch = s[self.i]
            if ch in _WS:
                self.i += 1
            elif s.startswith("//", self.i):  # comments: some models annotate their JSON
                end = s.find("\n", self.i)
                self.i = n if end < 0 else end + 1
            elif s.startswith("/*", self.i):
                end = s.find("*/", self.i + 2)
                self.i = n if end < 0 else end + 2
            else:
                return

    def _ends_string(self, j: int) -> bool:
        """Whether a quote at ``j`` closes the string: only if what follows can follow a string.

        This is what keeps apostrophes ('Bob's') and unescaped inner quotes inside.
        """
        k = j + 1
        while k < self.n and self.s[k] in _WS:
            k += 1
        return k >= self.n or self.s[k] in ",:}]\"'"

    def _string(self, quote: str, *, in_container: bool) -> str:
        s, n = self.s, self.n
        self.i += 1
        out: list[str] = []
        declined: tuple[int, int] | None = None  # first quote kept as text: (offset, len(out))
        while self.i < n:
            ch = s[self.i]
            if ch == quote:
                if not in_container or self._ends_string(self.i):
                    self.i += 1
                    return "".join(out)
                if declined is None:
                    declined = (self.i, len(out))
            if ch == "\\" and self.i + 1 < n:
                self._escape(out)
                continue
            out.append(ch)
            self.i += 1
        if declined is not None and not self.backed_up:
            # The string ran off the end after a quote was kept as text: that quote more
            # likely closed it ('{"a" 1}'). Only once per parse, so scanning stays linear.
            self.backed_up = True
            self.i = declined[0] + 1
            return "".join(out[: declined[1]])
        return "".join(out)  # truncated: the string ends with the text

    def _escape(self, out: list[str]) -> None:
        s = self.s
        nxt = s[self.i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            self.i += 2
            return
        if nxt == "u":
            code = self._hex4(self.i + 2)
            if code is not None:
                self.i += 6
                low = self._hex4(self.i + 2) if s.startswith("\\u", self.i) else None
                if 0xD800 <= code < 0xDC00 and low is not None and 0xDC00 <= low < 0xE000:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    self.i += 6
                out.append(chr(code))
                return
        out.append("\\" + nxt)  # unknown escape: keep it literally rather than guess
        self.i += 2

    def _hex4(self, at: int) -> int | None:
        chunk = self.s[at : at + 4]
        if len(chunk) == 4 and all(c in _HEX for c in chunk):
            return int(chunk, 16)
        return None

    def _bare_key(self) -> str:
        s, n, start = self.s, self.n, self.i
        while self.i < n and (s[self.i].isalnum() or s[self.i] in "_$-"):
            self.i += 1
        return s[start : self.i]

    def _number(self) -> int | float:
        s, n, start = self.s, self.n, self.i
        token_end = -1
        if s[self.i] in "+-":
            self.i += 1
        while self.i < n and s[self.i] in _DIGITS:
            self.i += 1
        is_float = False
        if self.i < n and s[self.i] == ".":
            is_float = True
            self.i += 1
            while self.i < n and s[self.i] in _DIGITS:
                self.i += 1
        if self.i < n and s[self.i] in "eE":
            mark = self.i
            self.i += 1
            if self.i < n and s[self.i] in "+-":
                self.i += 1
            if self.i < n and s[self.i] in _DIGITS:
                is_float = True
                while self.i < n and s[self.i] in _DIGITS:
                    self.i += 1
            elif self.i >= n:  # cut off inside the exponent ('1e'): drop it
                token_end = mark
            else:  # 'e' not followed by digits is not part of the number
                self.i = mark
        token = s[start : self.i if token_end < 0 else token_end].rstrip(".")
        if token in ("", "+", "-"):
            raise self.fail("a sign without digits")
        try:
            return float(token) if is_float else int(token)
        except ValueError as e:  # e.g. more digits than int() converts
            raise self.fail(f"bad number {token[:20]!r}") from e

    def _literal(self) -> bool | None:
        s, n, start = self.s, self.n, self.i
        while self.i < n and s[self.i].isalpha():
            self.i += 1
        word = s[start : self.i]
        if word in _LITERALS:
            return _LITERALS[word]
        if self.i >= n and word:  # truncated at the end of the text: 'tru' -> true
            for name, value in _LITERALS.items():
                if name.startswith(word):
                    return value
        self.i = start
        raise self.fail(f"unexpected word {word[:20]!r}")
