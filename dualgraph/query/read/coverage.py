"""Which content words of a question the compiled query did not read.

A query that reads only part of a question answers a different, wider question: "a compact
phone for one-handed use" compiled to "phones" lists the whole catalog. The compiler cannot
know what "compact" should mean, but it can notice that it left words unread and lower its
confidence, so a fallback (the text) gets its turn and ``--explain`` says which words.

Function words, question scaffolding ("which", "show me", "how many", "I'm looking for") and
the words of every phrase read as a constraint, name or scope are covered; what is left are
content words.

>>> uncovered_words("Recommend a compact phone for one-handed use.", ["phone"])
['compact', 'one-handed', 'use']
>>> uncovered_words("Which phones in the catalog have 5G?", ["phones", "5G"])
[]
"""

from __future__ import annotations

import re

from dualgraph.lexicon.earlier_price import PRICE_CUT
from dualgraph.lexicon.english import general_words, how_adjectives
from dualgraph.lexicon.synonyms import doer_nouns
from dualgraph.query.read.asked import unit_asked_words
from dualgraph.query.read.model import Intent
from dualgraph.query.read.numbers import PRICE_WORDS, unit_word
from dualgraph.query.read.superlative import VERB_ATTRS

__all__ = ["SCAFFOLD", "coverage_caps", "uncovered_words"]

SCAFFOLD = general_words("question_scaffold")
"""Words of how a question is put, not of what it asks (:file:`general_words.yaml`)."""
_WORD = re.compile(r"[^\W_][\w'’-]*", re.U)
# "5000mAh", "1.5kg", "2nd", "10x": a number and its unit or suffix, read with the number or no condition
_NUMBER_WITH_UNIT = re.compile(r"\d+(?:[.,]\d+)*(?:[^\W\d_]{1,4}|st|nd|rd|th)", re.I)
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.I)


def uncovered_words(question: str, covered: list[str], *, extra: frozenset[str] = frozenset()) -> list[str]:
    """Content words of ``question`` outside the ``covered`` phrases, in order (lower-case)."""
    taken: set[str] = set()
    for phrase in covered:
        taken.update(w.casefold() for w in _WORD.findall(phrase))
    # a stated number was read: the words for what numbers measure ("cost", "rupees", "mAh") hold no
    # condition of their own
    measured = any(ch.isdigit() for phrase in covered for ch in phrase)
    out = []
    for w in _WORD.findall(question):
        low = w.casefold().replace("’", "'")
        if (
            low in SCAFFOLD
            or low in extra
            or low in taken
            or low.rstrip("s") in taken
            # "70 inches tall": the height was read; "How tall is X?": the height is what it asks
            or how_adjectives().get(low) in taken | extra
            or (measured and (low in PRICE_WORDS or unit_word(low)))
        ):
            continue
        # a number is read or a measure; a code with letters ("650B", "R600a") or a capitalised
        # initialism ("UK") is a word like any other, and said when nothing read it; so is a number
        # with a unit's letters when no number was read at all ("4K video": no 4 kelvin was meant)
        coded = any(ch.isdigit() for ch in low)
        if coded and (
            not re.search(r"[^\W\d_]", low) or _ORDINAL.fullmatch(w) or (measured and _NUMBER_WITH_UNIT.fullmatch(w))
        ):
            continue
        if len(low) < 3 and not (len(w) == 2 and w.isupper() and not unit_word(low)):
            continue
        if "-" in low and all(part in taken or part in SCAFFOLD for part in low.split("-") if part):
            continue  # "4G-only": each part read
        out.append(low)
    return out


_COMPARATIVE = re.compile(r"(?:\w+est|\w+er|more|most|less|least|fewer|fewest|better|best|worst|worse)", re.I)


def unread_words(question: str, intent: Intent, covered: list[str]) -> list[str]:
    """Content words no constraint, name or attribute read, less the words of the intent itself."""
    extra = frozenset(w.casefold() for w in re.findall(r"\w+", intent.attribute or ""))
    if extra:  # "Who designed X?": the verb named the designer the intent reads
        words = re.findall(r"[^\W\d_]+", question.casefold())
        extra |= {w for w in words if extra & set(doer_nouns(w))}
        # "How much does X weigh?": the verb asks what the intent reads
        extra |= {w for w in words for pat, attr in VERB_ATTRS if attr in extra and re.fullmatch(pat, w)}
    if intent.attribute == PRICE_CUT:  # "How much do I save on X?": the words that asked the cut
        extra |= general_words("price_cut_words") | general_words("price_before_words") | {"save"}
    # "…, in inches?": the answer is given in that unit
    extra |= unit_asked_words(question)
    left = uncovered_words(question, covered, extra=extra)
    if intent.kind in ("superlative", "compare"):
        return [w for w in left if not _COMPARATIVE.fullmatch(w)]
    if intent.kind == "average":
        asked = {"average", "mean", "avg", "median"} | {t for w in general_words("total_words") for t in w.split()}
        if intent.statistic == "spread":
            asked |= {"difference", "gap", "range", "spread", "separate", "separates", "exceed", "exceeds", "apart"}
        return [w for w in left if w not in asked and not (intent.statistic == "spread" and _COMPARATIVE.fullmatch(w))]
    if intent.share:
        return [w for w in left if w not in ("share", "proportion", "percentage", "fraction", "percent")]
    return left


def coverage_caps(
    question: str, intent: Intent, covered: list[str], restricts: bool, *, order_named: bool, trace: list[str]
) -> list[float]:
    """Confidence caps for what the query did not read: a list or count that nothing read
    restricts while words are left unread, a yes/no question that asks nothing read of its
    products while words are left unread, and a superlative with no attribute to order by
    (``order_named`` False) are guesses (0.3). Unread words are always put in ``trace``."""
    left = unread_words(question, intent, covered)
    caps: list[float] = []
    if intent.kind in ("superlative", "compare", "average") and not order_named:
        trace.append("no attribute named to order by: ordering by price is a guess (confidence ≤ 0.3)")
        caps.append(0.3)
    if intent.kind in ("list", "count") and not restricts and left:
        trace.append(f"nothing read restricts the products, yet words are left unread {left} (confidence ≤ 0.3)")
        caps.append(0.3)
    elif intent.kind == "yesno" and not restricts and left:
        # "Is X available in other colours?" with "colours" unread: a yes would only say X exists
        trace.append(f"nothing read is asked of the products, yet words are left unread {left} (confidence ≤ 0.3)")
        caps.append(0.3)
    elif left:
        trace.append(f"words left unread: {left}")
    return caps


UNREAD_FACTOR = 0.95
"""Confidence kept per content word the query did not read. Measured with bench/confidence_auc.py on
the devmix first-contact answers (44 right, 24 wrong): the AUC of confidence for right vs wrong
answers rose from 0.63 to 0.72 with 0.95 (0.74 with 0.9, but then a purpose clause of two words
pushed a right empty answer under the empty-answer fallback threshold on the Smartprix raw set)."""


def unread_factor(question: str, intent: Intent, covered: list[str]) -> float:
    """``UNREAD_FACTOR`` to the power of the content words left unread (comparison words aside)."""
    return UNREAD_FACTOR ** len(unread_words(question, intent, covered))
