"""Recover a JSON value from what a language model wrote around it.

Small models wrap JSON in code fences and prose, leave trailing commas, write Python
literals (``True``/``None``), quote with apostrophes, forget to quote keys, or stop
mid-value when ``max_tokens`` runs out. The repairs themselves come from the
``json-repair`` package; this module only frames its input (the fenced block, from the
first bracket on) and its output (the first value, a clear :class:`ValueError` instead of
the package's empty result). Valid JSON always takes the strict ``json`` path first.
"""

from __future__ import annotations

import json
import re
from typing import Any

import json_repair

__all__ = ["parse_json_loose"]

# The package's parser recurses and backtracks: its time grows about quadratically with
# nesting depth ('{' * 2000 takes ~1 s, '["a"true' * 1600 ~5 s) and with very long inputs.
# Real answers are shallow and a few KB, so both are refused up front, in linear time.
MAX_DEPTH = 64
MAX_REPAIR_CHARS = 50_000
_SURROGATE = re.compile("[\ud800-\udfff]")
_BRACKET = re.compile(r"[\[\]{}]")


def parse_json_loose(text: str) -> Any:
    """The first JSON value in ``text``, repaired where a model typically breaks it.

    Raises :class:`ValueError` with the reason when no value can be recovered.

    >>> parse_json_loose('Sure! ```json\\n{"a": [1, 2,], "b": True}\\n``` Hope it helps.')
    {'a': [1, 2], 'b': True}
    >>> parse_json_loose("{name: 'Bob', 'ok': None}")
    {'name': 'Bob', 'ok': None}
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
    start = _first_opening(body)
    if start < 0:
        # The package would turn prose into "" or a bare word; a caller wants to know there was no JSON.
        raise ValueError("no JSON object or array in the text")
    try:
        # A valid value followed by prose or a second value: the first one is the answer.
        return json.JSONDecoder().raw_decode(body, start)[0]
    except (json.JSONDecodeError, RecursionError):
        pass
    if len(body) - start > MAX_REPAIR_CHARS:
        raise ValueError(f"too long to repair ({len(body) - start} characters, at most {MAX_REPAIR_CHARS})")
    if _nesting(body, start) > MAX_DEPTH:
        raise ValueError(f"nested too deep to repair (more than {MAX_DEPTH} levels)")
    try:
        value = json_repair.repair_json(_drop_dangling_key(body[start:]), return_objects=True, skip_json_loads=True)
    except (ValueError, RecursionError) as e:  # the package reports nesting past its recursion limit as ValueError
        raise ValueError(f"cannot repair the JSON: {e}") from e
    if body[start] == "{" and isinstance(value, list):
        # An answer opening with '{' is an object. The package returns a list when it found
        # several top-level values (keep the first) or when it gave up on the object and
        # read the text as an array ('{"ans' -> ['ans']): nothing of the object survived.
        value = value[0] if value and isinstance(value[0], dict) else {}
    if not isinstance(value, (dict, list)):
        raise ValueError(f"no JSON object or array could be recovered (got {value!r:.40})")
    return _join_surrogates(value)


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


def _first_opening(text: str) -> int:
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    return min(starts, default=-1)


def _drop_dangling_key(text: str) -> str:
    """``'{"a": 1, "b": '`` -> ``'{"a": 1'``: the model ran out of tokens before the value.

    The package would give that key the value ``""``, which a schema asking for a string
    accepts, so a cut-off answer would pass as complete instead of being asked again.
    """
    body = text.rstrip()
    if not body.endswith(":"):
        return text
    head = body[:-1].rstrip()
    if head[-1:] in ('"', "'"):
        cut = head.rfind(head[-1], 0, len(head) - 1)
    else:
        cut = len(head)
        while cut > 0 and (head[cut - 1].isalnum() or head[cut - 1] in "_$-"):
            cut -= 1
    if cut <= 0:
        return text
    return head[:cut].rstrip().removesuffix(",")


def _nesting(text: str, start: int) -> int:
    """The deepest bracket nesting from ``start`` on, counting brackets inside strings too.

    An over-estimate at worst (a string holding unbalanced brackets), which only matters
    past :data:`MAX_DEPTH`.
    """
    depth = deepest = 0
    for m in _BRACKET.finditer(text, start):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _join_surrogates(value: Any) -> Any:
    """Pair up ``\\ud83d\\ude00``-style surrogate halves the package leaves as two characters.

    A lone surrogate cannot be encoded as UTF-8, so it would fail far away (writing a file,
    a cache row); an unpaired one becomes U+FFFD. Recursion is safe: nesting was checked
    against :data:`MAX_DEPTH` before the package ran.
    """
    if isinstance(value, str):
        if _SURROGATE.search(value) is None:
            return value
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [_join_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_join_surrogates(k): _join_surrogates(v) for k, v in value.items()}
    return value
