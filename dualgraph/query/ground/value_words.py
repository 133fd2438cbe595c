"""Lower-case words of a question that are values of the catalog's value lists, tied to the entry
by the words around them ("*wall* mounts" → Mounting type: Wall, "a *dedicated* slot" → Memory
Card Slot: dedicated, "made of *silicone*" → Material: Silicone).

The parser reads capitalised value names ("Dynamic AMOLED", "Snapdragon 8"); plain words need the
catalog to be recognised, and a link to the entry so that a common word is not taken for a value
by chance: one of the next two words names the entry or its section ("slot" ~ "Memory Card
Slot", "mounts" ~ "Mounting"), or "made of/from" precedes a value of a material entry.
"rather than"/"instead of"/"not" before the word negate it.
"""

from __future__ import annotations

import re

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.patterns import Pattern
from dualgraph.query.read.model import Span, ValueConstraint

__all__ = ["spot_values"]

_MAX_VALUES = 50
_STOP = frozenset(
    """the and with without for from that which have has are not yes no any all other more less most
least best good new old one two""".split()
)
_NEG = re.compile(
    r"\b(?:rather\s+than|instead\s+of|not|no|without|except)\b"
    r"(?:\s+(?:a|an|the|any|in|into|through|via|on|with|using|by))*\s*$",
    re.I,
)
_MADE_OF = re.compile(r"\bmade\s+(?:of|from|out\s+of)\s+(?:a\s+|an\s+)?$", re.I)
# "Which products are white?", "the ones that come in blue": a value word said of the products
_SAID_OF = re.compile(r"\b(?:are|is|were|was|comes?\s+in|available\s+in)\s+(?:all\s+)?$", re.I)


def _stem(w: str) -> str:
    return singular([w.casefold()])[0]


def _names_entry(word: str, p: Pattern) -> bool:
    """Whether ``word`` names the entry or its section: same word, or one the start of the other
    ("mount"/"mounting"), at least four letters shared."""
    w = _stem(word)
    if len(w) < 4:
        return False
    for t in re.findall(r"[^\W\d_]+", f"{p.section or ''} {p.entry or ''}".casefold()):
        t = _stem(t)
        if t == w or (len(t) >= 4 and (t.startswith(w) or w.startswith(t))):
            return True
    return False


def spot_values(question: str, patterns: list[Pattern], taken: list[tuple[int, int]]) -> list[ValueConstraint]:
    """Value constraints for plain words outside ``taken`` that a value list names (see the module)."""
    words = list(re.finditer(r"[^\W\d_][\w-]*", question))
    out: list[ValueConstraint] = []
    for i, m in enumerate(words):
        w = m.group()
        if len(w) < 3 or not w.islower() or w in _STOP or any(a < m.end() and m.start() < b for a, b in taken):
            continue
        made_of = bool(_MADE_OF.search(question[: m.start()]))
        # said of the products and ending the clause: the word is the value, whatever entry lists it
        said_of = bool(_SAID_OF.search(question[: m.start()])) and re.match(r"\s*(?:[?.,!]|$)", question[m.end() :])
        holders = [
            p
            for p in patterns
            if p.kind == "spec_value"
            and ((p.distinct_values or 0) <= _MAX_VALUES or said_of or made_of)
            and any(v["name"].casefold() == w for v in p.values)
        ]
        for p in sorted(holders, key=lambda p: -p.count):
            link = next((x for x in words[i + 1 : i + 3] if _names_entry(x.group(), p)), None)
            if (
                link is not None
                or (made_of and re.search(r"material", f"{p.section} {p.entry}", re.I))
                or (said_of and not made_of)
            ):
                neg = bool(_NEG.search(question[max(0, m.start() - 30) : m.start()]))
                # the span runs to the entry's word: "hybrid SIM slot" is one phrase about the slot
                end = link.end() if link is not None else m.end()
                out.append(ValueConstraint(Span(m.start(), end, question[m.start() : end]), w, p.entry or "", neg))
                break
    return out
