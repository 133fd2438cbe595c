"""Which superlative of a question decides its ordering, what it measures, and a tie-breaker.

A question can hold several superlative words ("Gaming is what I care about *most*: which laptop has the
*highest*-refresh-rate screen at the *lowest* price?"). The one that names what it measures
(an attribute word right after it, a verb before it, or a word that implies one such as
"cheapest") orders the answer; a later one introduced by "for"/"at" ("for the least cash", "at
the lowest price") only breaks ties between products equal on the first.

>>> q = "Gaming is what I care about most: which laptop has the highest-resolution rear camera at the lowest price?"
>>> s = pick(q, q.lower()); (s.word, s.direction, s.attribute), tie_break(q, q.lower(), s)
(('highest', 'max', 'resolution rear camera'), ('min', 'price'))
>>> pick("the cheapest phone", "the cheapest phone").attribute
'price'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dualgraph.lexicon.vocabulary import current, general_words
from dualgraph.query.read.model import Direction
from dualgraph.query.read.numbers import attribute_label, unit_word

__all__ = ["SUPERLATIVES", "Superlative", "attribute_near", "extremes", "pick", "tie_break"]

SUPERLATIVES: list[tuple[str, Direction, str]] = [  # (pattern, direction, implied attribute)
    (r"most\s+expensive|priciest|costliest|dearest", "max", "price"),
    (r"least\s+expensive|cheapest|most\s+affordable|lowest[\s-]priced", "min", "price"),
    (r"lightest", "min", "weight"),
    (r"heaviest", "max", "weight"),
    (r"thinnest|slimmest", "min", "thickness"),
    (r"thickest", "max", "thickness"),
    # the extents of a thing (general English): tall → height, wide → width, deep → depth
    (r"tallest", "max", "height"),
    (r"widest|broadest", "max", "width"),
    (r"deepest", "max", "depth"),
    (r"narrowest", "min", "width"),
    (r"shallowest", "min", "depth"),
    (r"smallest", "min", "size"),
    (r"largest|biggest", "max", "size"),
    (
        r"highest|best|fastest|quickest|speediest|longest|most\s+powerful|most|greatest|newest|latest|furthest|farthest",
        "max",
        "",
    ),
    (r"lowest|worst|slowest|shortest|least|fewest|oldest|closest|nearest", "min", ""),
    # "the top charging wattage", "peak brightness"; "top 3" is a count of products, read as k;
    # "top-freezer", "top-loading": a compound naming a part or a build, no superlative
    (r"maximum|peak|top(?![\s-]+(?:\d|two|three|four|five|six|seven|eight|nine|ten|rated|notch))(?!-\w)", "max", ""),
    (r"minimum|starting|entry[\s-]level", "min", ""),  # "the starting price of …": the lowest
]
VERB_ATTRS = [  # a verb right before a comparative/superlative names its attribute ("charges faster")
    (r"charges|charge|charging|recharges?|charged", "charging"),
    (r"weighs|weigh|weighing", "weight"),
    (r"lasts|last|lasting", "life"),  # how long a thing lasts is its life
    (r"costs|cost|costing|sells\s+for|retails\s+for", "price"),
    (r"holds|hold|holding", "capacity"),  # what a container holds is its capacity
]
_VERB_GAP = r"(?:\s+(?:the|a\s+(?:bit|little|lot)|much|even|far|slightly|any))*\s+$"
# what money is spent: "for the least cash", "at the lowest outlay" order by the price
_MONEY = re.compile(r"\s*(?:money|cash|outlay|spend|spending|price|cost|amount)\b", re.I)
# words that end an attribute phrase: grammar, and what the question is about (a category, "models")
_NOT_ATTR_TAIL = frozenset("available offered sold you".split()) | general_words("function_words")


def _not_tail(word: str) -> bool:
    return word in _NOT_ATTR_TAIL or current().product_nouns.fullmatch(word) is not None


_TIE_LEAD = re.compile(r"\b(?:for|at)\s+(?:the\s+|a\s+)?$", re.I)


@dataclass(frozen=True, slots=True)
class Superlative:
    word: str
    start: int
    end: int
    direction: Direction
    attribute: str


def attribute_near(q: str, pos: int) -> str:
    """The attribute words right after ``pos`` (within three words, same clause), adjacent ones
    joined: "highest-resolution main camera" → "resolution main camera"."""
    window = q[pos : pos + 40]
    m = current().attributes.search(window)
    if not m or len(window[: m.start()].split()) > 3 or re.search(r"[,?]", window[: m.start()]):
        return ""
    words = [attribute_label(m.group(1))]
    at = pos + m.end()
    while (n := re.match(r"[\s-]+", q[at:])) and (w := current().attributes.match(q, at + n.end())):
        words.append(attribute_label(w.group(1)))
        at = w.end()
    if len(words) > 1 and "price" in words:
        return "price"
    # one more plain noun completes the attribute: "most processor cores", "longest battery life"
    if (n := re.match(r"[ ]+([a-z]{3,})\b", q[at:])) and not _not_tail(n.group(1)) and words[-1] != "price":
        words.append(n.group(1))
    return " ".join(words)


def plain_noun_phrase(q: str, pos: int) -> str:
    """Up to three lower-case words right after ``pos`` that no catalog word names ("the higher
    refresh rate" in a catalog that only says "120 Hz Display"): grounding reads them by meaning.
    Stops at grammar, adjectives, categories and "models"; "" when none follow."""
    words: list[str] = []
    at = pos
    while len(words) < 3 and (n := re.match(r"\s+(?:(?:the|a|an)\s+)?([a-z][a-z-]+)\b", q[at:])):
        w = n.group(1)
        if (
            _not_tail(w)
            or w in general_words("not_brand_words")
            or w in general_words("qualifier_words")
            or w in current().brands
        ):
            break
        words.append(w)
        at += n.end()
    return " ".join(words)


def attribute_before(q: str, pos: int) -> str:
    """The plain words naming the subject of a comparative ("which one's cell capacity is larger",
    "whose selfie camera has more megapixels"): up to three lower-case words before the verb that
    precedes ``pos``; "" when the comparative has no such subject.

    >>> q = "A or B: which one's cell capacity is larger?"
    >>> attribute_before(q, q.index("larger")), attribute_before("Which is larger?", 9)
    ('cell capacity', '')
    >>> q = "Whose selfie camera has more megapixels?"
    >>> attribute_before(q, q.index("more"))
    'selfie camera'
    """
    m = re.search(r"([A-Za-z' ]*?)\s+(?:is|are|was|were|has|have|had|holds?|offers?|packs?)\s+$", q[:pos])
    if not m:
        return ""
    words: list[str] = []
    for w in reversed(m.group(1).split()):
        if not re.fullmatch(r"[a-z]+", w) or _not_tail(w) or w in _QUESTION_WORDS or len(words) == 3:
            break
        words.insert(0, w)
    return " ".join(words)


_QUESTION_WORDS = frozenset("which what whose who how one it this that they".split())


def verb_attribute(low: str, start: int) -> str:
    """The attribute a verb right before ``start`` names: "charges faster" → charging, "weighs less" → weight."""
    for pat, attr in VERB_ATTRS:
        if re.search(rf"\b(?:{pat}){_VERB_GAP}", low[:start]):
            return attr
    return ""


def _all(q: str, low: str) -> list[Superlative]:
    found: dict[int, Superlative] = {}
    for pat, direction, implied in SUPERLATIVES:
        for m in re.finditer(rf"\b(?:{pat})\b", low):
            prev = found.get(m.start())
            if prev is not None and prev.end >= m.end():
                continue  # "most expensive" over "most" at the same place
            near = attribute_near(q, m.end())
            if implied and near and current().product_nouns.fullmatch(near.split()[-1]):
                # "the cheapest processor" is the thing priced, even in a catalog with an entry named
                # "Processor Number": a word that implies its attribute says what it measures
                near = ""
            attr = near or verb_attribute(low, m.start()) or implied
            attr = attr or _unit_after(q, m.end()) or plain_noun_phrase(q, m.end())
            found[m.start()] = Superlative(m.group(), m.start(), m.end(), direction, attr)
    # a shorter word inside a longer match ("most" in "most expensive") is that match
    out = sorted(found.values(), key=lambda s: s.start)
    return [s for s in out if not any(o is not s and o.start <= s.start and s.end <= o.end for o in out)]


def _unit_after(q: str, pos: int) -> str:
    """The unit word right after a superlative ("the least kWh per year", "the most mAh"): what
    the products are ordered by is what is measured in it; "" when no unit follows.

    >>> _unit_after("which uses the least kWh per year", 20), _unit_after("the least expensive", 9)
    ('kWh', '')
    """
    m = re.match(r"\s+([^\W\d_][\w/]*)", q[pos:])
    return m.group(1) if m and unit_word(m.group(1)) and not current().product_nouns.fullmatch(m.group(1)) else ""


def pick(q: str, low: str) -> Superlative | None:
    """The superlative that orders the answer: one in brackets that names what it measures (a gloss
    of the words before it: "the most energy-efficient (least kWh per year)"), else the first one
    that names what it measures, else the first."""
    found = [s for s in _all(q, low) if not _TIE_LEAD.search(low[: s.start]) or len(_all(q, low)) == 1]
    found = found or _all(q, low)
    if not found:
        return None
    named = [s for s in found if s.attribute]
    glossed = [s for s in named if low.rfind("(", 0, s.start) > low.rfind(")", 0, s.start)]
    return (glossed or named or found)[0]


def tie_break(q: str, low: str, primary: Superlative) -> tuple[Direction, str] | None:
    """(direction, attribute) of a later "for/at the <superlative> <attribute>" that breaks ties."""
    for s in _all(q, low):
        if s.start <= primary.start or not _TIE_LEAD.search(low[: s.start]):
            continue
        attr = "price" if _MONEY.match(q, s.end) else s.attribute
        if attr and attr != primary.attribute:
            return s.direction, attr
    return None


def extremes(q: str, low: str) -> Superlative | None:
    """The measure's superlative when a question names both ends of one measure ("the widest and the
    narrowest", "the most and the least expensive"): the one that names it; None otherwise."""
    found = _all(q, low)
    for a in (s for s in found if s.direction == "max"):
        for b in (s for s in found if s.direction == "min"):
            if not a.attribute or not b.attribute or a.attribute == b.attribute:
                return a if a.attribute else b
    return None
