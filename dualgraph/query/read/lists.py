"""Whether two mentions are said as members of one list: the words between them join them.

One rule for every reader of lists: the conjuncts of a noun phrase ("without NFC or 5G"), names
left out together ("anything but Sony, Panasonic or Fujifilm") and groups offered as alternatives
("Canon's or Nikon's", "PAX vs BESTÅ"). A comma, "and", "or", "nor" or a slash joins them, with an
article after it; only alternatives offered for a choice also join with "vs" or "versus".
"""

from __future__ import annotations

import re

__all__ = ["joined"]

_JOINED = re.compile(
    r"(?:['’]s)?\s*(?:,\s*(?:(?:and|or|nor)\b\s*)?|(?:and|or|nor)\b\s*|/\s*)(?:the\b\s*)?",
    re.I,
)
_VERSUS = re.compile(r"(?:['’]s)?\s*(?:vs\.?|versus)\s+(?:the\b\s*)?", re.I)


def joined(between: str, *, versus: bool = False) -> bool:
    """Whether ``between`` (the words between two mentions) joins them into one list; ``versus``:
    also "vs"/"versus", which offer alternatives to choose from.

    >>> [joined(s) for s in (" or ", ", ", ", and the ", " / ", "'s or ", " with ", " vs ")]
    [True, True, True, True, True, False, False]
    >>> joined(" vs. ", versus=True), joined(" versus the ", versus=True)
    (True, True)
    """
    return bool(_JOINED.fullmatch(between) or (versus and _VERSUS.fullmatch(between)))
