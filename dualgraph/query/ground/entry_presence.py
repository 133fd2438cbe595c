"""A feature the graph keeps no feature node for, but an entry of that name: having the entry is having it.

"phones with a headphone jack" on a catalog whose "Audio › Headphone Jack" entry holds a size
("3.5 mm") and no yes/no: a product with a value there has a jack. The rule is deliberately narrow:

- the phrase is the entry's name, or its head noun (last word) alone, or words that all name the
  entry or its section and include the head noun ("audio jack" ~ Audio › Headphone Jack; "audio"
  alone names a section, not the jack);
- an entry whose values say yes/no ("NFC: Yes", "Memory Card Support: No") never counts: presence
  there is no evidence;
- never for a negated feature: a missing entry is missing data, not "no jack"; but a measured entry
  that some products state as zero says "none" the catalogue's way (:func:`zero_entry`: "no front
  suspension" is a front travel of "0 mm (Rigid)").

>>> from dualgraph.lexicon.patterns import Pattern
>>> p = Pattern("j", "spec_numeric", "t", "?p skg:hasSpec {s} .", section="Audio", entry="Headphone Jack")
>>> [_names(ph, p) for ph in ("headphone jack", "audio jack", "jack", "audio")]
[True, True, True, False]
"""

from __future__ import annotations

import re

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.patterns import Pattern
from dualgraph.query.read.model import FeatureConstraint

__all__ = ["present_entry", "zero_entry"]

_YES_NO = re.compile(
    r"(?:yes|no|none|n/?a|not\s+(?:supported|available|present)|supported|available|absent"
    r"|present|true|false|-)",
    re.I,
)
_STOP = frozenset("a an the of with and or for to in on".split())


def _toks(text: str) -> list[str]:
    return [singular([w])[0] for w in re.findall(r"[a-z0-9]+", (text or "").casefold()) if w not in _STOP]


def _names(phrase: str, p: Pattern) -> bool:
    said, entry, section = _toks(phrase), _toks(p.entry or ""), _toks(p.section or "")
    if not said or not entry:
        return False
    if said == entry:
        return True
    return (entry[-1] in said and set(said) <= set(entry) | set(section) and len(said) >= 2) or said == entry[-1:]


def present_entry(patterns: list[Pattern], c: FeatureConstraint) -> Pattern | None:
    """The entry pattern whose presence means the feature ``c`` (see the module), most products first."""
    if c.negated or c.only:
        return None
    cands = []
    for p in patterns:
        if p.kind not in ("spec_numeric", "spec_value") or not _names(c.phrase, p):
            continue
        if p.kind == "spec_value" and any(_YES_NO.fullmatch(v["name"].strip()) for v in p.values):
            continue
        cands.append(p)
    cands.sort(key=lambda p: (-p.count, p.pattern_id))
    return cands[0] if cands else None


def zero_entry(patterns: list[Pattern], c: FeatureConstraint) -> Pattern | None:
    """For a negated feature, the measured entry it names whose value some products state as zero:
    "no front suspension" in a catalogue whose Suspension › Front Travel reads "0 mm (Rigid)" on
    some bikes. Every word said is a word of the entry or its section, two words at least (or the
    entry's whole name); a stated zero is the evidence that "none" is written so here, where a
    missing entry would be missing data.

    >>> from dualgraph.query.read.model import Span
    >>> p = Pattern("f", "spec_numeric", "t", "", section="Suspension", entry="Front Travel", min=0.0, count=9)
    >>> [zero_entry([p], FeatureConstraint(Span(0, len(x), x), x, negated=True)) is p for x in ("front suspension", "suspension")]
    [True, False]
    """
    if not c.negated:
        return None
    said = _toks(c.phrase)
    cands = []
    for p in patterns:
        if p.kind != "spec_numeric" or p.min != 0:
            continue
        entry, section = _toks(p.entry or ""), _toks(p.section or "")
        if said == entry or (len(said) >= 2 and set(said) <= set(entry) | set(section)):
            cands.append(p)
    cands.sort(key=lambda p: (-p.count, p.pattern_id))
    return cands[0] if cands else None
