"""Names as tolerant tokens: lower case, letters and digits apart ("Flip7" → flip, 7), and whether
a phrase's tokens occur in a name's. The lowest layer of the reader: it imports nothing of it.
"""

from __future__ import annotations

import functools
import re

__all__ = ["arabic", "joined_run", "norm_tokens", "squashed", "token_match"]

_MODEL_TAIL = frozenset(
    """pro max ultra plus mini lite fe edge neo prime note fold flip fit se s x r e
+ air""".split()
)


def norm_tokens(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens, letters and digits split ("Flip7" → flip, 7); a roman
    numeral of two letters or more is its number, so "Mark III" and "mark 3" are one name.

    >>> norm_tokens("EOS 5D Mark III"), norm_tokens("CompactFlash type ii"), norm_tokens("iPhone X")
    (['eos', '5', 'd', 'mark', '3'], ['compactflash', 'type', '2'], ['iphone', 'x'])
    """
    return list(_tokens(text))


@functools.lru_cache(maxsize=200_000)
def _tokens(text: str) -> tuple[str, ...]:
    # the same catalog names are tokenised for every question: once is enough
    return tuple(arabic(t) for t in re.findall(r"[a-z]+|\d+(?:\.\d+)?|\+", text.casefold()))


def arabic(token: str) -> str:
    """A lower-case token as :func:`norm_tokens` keeps it: a roman numeral of two letters or more
    as its number ("iv" → "4"), any other token as it is."""
    return _ROMAN.get(token, token)


def _roman(n: int) -> str:
    tens, units = divmod(n, 10)
    return "x" * tens + ("", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix")[units]


# Roman numerals 2–39 in their one correct spelling, as catalogues number models and types ("Mark
# IV", "Type II", "UHS-II"). A single letter stays a letter: "iPhone X" and "LG V" are no numbers.
_ROMAN = {_roman(n): str(n) for n in range(2, 40) if len(_roman(n)) > 1}


def squashed(text: str) -> str:
    """``text``'s tokens run together: one spelling for "EOS-5D", "eos 5d" and "EOS5D"."""
    return "".join(norm_tokens(text))


def _ends_well(phrase: list[str], nxt: str | None) -> bool:
    return nxt is None or (nxt not in _MODEL_TAIL and not (nxt.isdigit() and phrase[-1].isalpha()))


def token_match(phrase: list[str], name: list[str]) -> bool:
    """``phrase`` occurs contiguously in ``name`` and is not followed by a model suffix; words
    spelled together or apart match ("CompactFlash" and "Compact Flash", see :func:`joined_run`).

    >>> token_match(["compactflash"], norm_tokens("Compact Flash (Type I)")), token_match(["flash"], ["flashair"])
    (True, False)
    """
    n = len(phrase)
    if not n:
        return False
    for i in range(len(name) - n + 1):
        if name[i : i + n] == phrase and _ends_well(phrase, name[i + n] if i + n < len(name) else None):
            return True
    return joined_run(phrase, name) is not None


def joined_run(phrase: list[str], name: list[str]) -> list[str] | None:
    """The run of ``name``'s tokens that spells ``phrase``'s letters with the words joined or split
    otherwise ("compactflash" in compact, flash; "hyper", "threading" in hyperthreading), at token
    boundaries on both sides; ``None`` when there is none or the tokens are the same words."""
    target = "".join(phrase)
    if len(target) < 4:  # "a c" and "ac": too short to tell a spelling from a chance
        return None
    for i in range(len(name)):
        acc = ""
        for j in range(i, len(name)):
            acc += name[j]
            if len(acc) > len(target) or not target.startswith(acc):
                break
            if acc == target:
                run = name[i : j + 1]
                if run != phrase and _ends_well(run, name[j + 1] if j + 1 < len(name) else None):
                    return run
                break
    return None
