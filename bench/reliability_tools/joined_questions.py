"""Short questions that join 2 to 9 phrases (issue 34, point 1): vague adjectives, words no catalog
knows, real attributes, in several joining forms. Each phrase the reader cannot ground used to
become a sub-select over the text entities joined through the product's mentions, which the
store evaluated mentions-first: three such phrases grew past 4 GB on 20 products.

>>> qs = joined_questions(6, seed=1)
>>> [q["phrases"] for q in qs]
[2, 3, 4, 5, 6, 7]
>>> joined_questions(6, seed=1) == qs
True
"""

from __future__ import annotations

import random
from typing import Any

VAGUE = ("cheap", "big", "a big", "small", "a small", "a solid build", "premium", "good value", "sturdy", "light")
UNKNOWN = ("warp drive", "holographic keyboard", "foo", "a quantum flux port", "zorblax", "a tachyon screen")
REAL = (
    "5G",
    "a 5000 mAh battery",
    "a 120 Hz display",
    "8 GB RAM",
    "256 GB storage",
    "a 6.7 inch screen",
    "IR blaster",
    "stylus",
    "NFC",
    "fast charging",
)
JOINS = ("with", "that has", "and", "having", ",", "plus")
STARTS = ("list phones with ", "phones with ", "which phones have ", "show me phones with ", "")

# the questions the issue measured (4.6 GB in 13 s on 20 products; over 3.5 GB)
FROM_THE_ISSUE = (
    "list phones with cheap with a big with a small with a solid build",
    "IR blaster that has cheap that has stylus that has big that has holographic keyboard",
    "phones with foo that has warp drive that has IR blaster",
)


def joined_questions(
    n: int, *, seed: int = 0, min_phrases: int = 2, max_phrases: int = 9, real: tuple[str, ...] = REAL
) -> list[dict[str, Any]]:
    """``n`` questions, phrase counts cycling through ``min_phrases..max_phrases``; each a dict
    with the ``question``, its ``phrases`` count, its ``join`` and the ``kinds`` of its phrases."""
    rng = random.Random(seed)
    pools = {"vague": VAGUE, "unknown": UNKNOWN, "real": real}
    out = []
    for i in range(n):
        k = min_phrases + i % (max_phrases - min_phrases + 1)
        join = rng.choice(JOINS)
        kinds = [rng.choice(sorted(pools)) for _ in range(k)]
        phrases = [rng.choice(pools[kind]) for kind in kinds]
        glue = ", " if join == "," else f" {join} "
        out.append(
            {
                "question": rng.choice(STARTS) + glue.join(phrases),
                "phrases": k,
                "join": join,
                "kinds": "+".join(sorted(set(kinds))),
            }
        )
    return out
