"""A feature the graph keeps no feature node for, but an entry of that name: having the entry is having it.

"phones with a headphone jack" on a catalog whose "Audio › Headphone Jack" entry holds a size
("3.5 mm") and no yes/no: a product with a value there has a jack. The rule is deliberately narrow:

- the phrase is the entry's name, or its head noun (last word) alone, or words that all name the
  entry or its section and include the head noun ("audio jack" ~ Audio › Headphone Jack; "audio"
  alone names a section, not the jack);
- an entry whose values say yes/no ("NFC: Yes", "Memory Card Support: No") never counts: presence
  there is no evidence;
- never for a negated feature: a missing entry is missing data, not "no jack".

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

__all__ = ["present_entry"]

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
