"""Names as tolerant tokens: lower case, letters and digits apart ("Flip7" → flip, 7), and whether
a phrase's tokens occur in a name's. The lowest layer of the reader: it imports nothing of it.
"""

from __future__ import annotations

import functools
import re

__all__ = ["norm_tokens", "token_match"]

_MODEL_TAIL = frozenset(
    """pro max ultra plus mini lite fe edge neo prime note fold flip fit se s x r e
+ air""".split()
)


def norm_tokens(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens, letters and digits split ("Flip7" → flip, 7)."""
    return list(_tokens(text))


@functools.lru_cache(maxsize=200_000)
def _tokens(text: str) -> tuple[str, ...]:
    # the same catalog names are tokenised for every question: once is enough
    return tuple(re.findall(r"[a-z]+|\d+(?:\.\d+)?|\+", text.casefold()))


def _norm(text: str) -> str:
    return "".join(norm_tokens(text))


def token_match(phrase: list[str], name: list[str]) -> bool:
    """``phrase`` occurs contiguously in ``name`` and is not followed by a model suffix."""
    n = len(phrase)
    if not n:
        return False
    for i in range(len(name) - n + 1):
        if name[i : i + n] == phrase:
            nxt = name[i + n] if i + n < len(name) else None
            if nxt is None or (nxt not in _MODEL_TAIL and not (nxt.isdigit() and phrase[-1].isalpha())):
                return True
    return False
