"""How question words meet catalog names: tolerant name tokens, phrase matching that respects
model suffixes, and the lexical score of an attribute against a pattern's entry/section names.

Names compare as lower-cased tokens with letters and digits split, so spacing, case and
punctuation never decide ("Flip7" is "Flip 7"); a phrase names a product only when the name does
not go on with a model suffix ("Galaxy S25" is not "Galaxy S25 Ultra").

>>> norm_tokens("Galaxy Z Flip7"), norm_tokens("galaxy z flip 7")
(['galaxy', 'z', 'flip', '7'], ['galaxy', 'z', 'flip', '7'])
>>> token_match(["galaxy", "s", "25"], norm_tokens("Samsung Galaxy S25 (8GB RAM)"))
True
>>> token_match(["galaxy", "s", "25"], norm_tokens("Samsung Galaxy S25 Ultra"))
False
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.synonyms import CatalogLexicon, general_synonyms, principal_words
from dualgraph.lexicon.tokens import norm_tokens, squashed, token_match

__all__ = ["lexical_score", "name_heads", "norm_tokens", "squashed", "token_match", "word_forms", "word_set"]

_STOP = frozenset("a an the of with and or in on for to by at is are has have than more less".split())


def _forms(w: str) -> set[str]:
    """A word, its singular and its stem ("charge", "charges", "charging" all meet at "charg"), so a
    verb in the question meets a noun in an entry name."""
    out = {w}
    if len(w) > 3 and w.endswith("s"):
        out.add(w[:-1])
    if len(w) > 5 and w.isalpha():
        out.add(re.sub(r"(?:ing|es|ed|e|s)$", "", w))
    return out


def word_forms(words: Iterable[str]) -> frozenset[str]:
    """Every form (:func:`_forms`) of folded ``words``, as :func:`lexical_score` reads its ``also``.

    >>> sorted(word_forms(["uses", "energy"]))
    ['energy', 'use', 'uses']
    """
    return frozenset(f for w in words for f in _forms(w))


def word_set(text: str) -> set[str]:
    """Content words with their other forms (:func:`_forms`)."""
    return set(_word_forms(text))


@functools.lru_cache(maxsize=50_000)
def _word_forms(text: str) -> frozenset[str]:
    out: set[str] = set()
    for w in norm_tokens(text):
        if w not in _STOP:
            out |= _forms(w)
    return frozenset(out)


def synonyms(word: str, lexicon: CatalogLexicon | None = None) -> list[str]:
    """Catalog words that mean ``word``: general English (``general_synonyms.yaml``), then what the
    catalog itself says (``lexicon``: mined from its pages, similar by MiniLM over its vocabulary)."""
    out = general_synonyms(word)
    return out + [w for w in lexicon.synonyms(word) if w not in out] if lexicon is not None else out


def lexical_score(
    attribute: str, p: Pattern, lexicon: CatalogLexicon | None = None, also: frozenset[str] = frozenset()
) -> float:
    """Share of the attribute's words (or their synonyms in ``lexicon``, read from the catalog) found in
    the pattern's entry/section names; ``also``: the forms (:func:`word_forms`) of the question's other
    words, which an entry's extra words may be ("uses the least energy": Annual Energy *Use*)."""
    said = [w for w in dict.fromkeys(norm_tokens(attribute)) if w not in _STOP]
    attr = word_set(attribute)
    if not said:
        return 0.0

    def syn(w: str) -> list[str]:
        return synonyms(w, lexicon)

    names = word_set(" ".join(x for x in (p.section, p.entry, p.name) if x))
    principal = lexicon is not None and p.pattern_id in lexicon.variants.principal
    hit = 0.0
    for w in said:
        if _forms(w) & names:
            hit += 1.0
        elif any(s in names for f in _forms(w) for s in syn(f)):
            hit += 0.6
        elif principal and w in principal_words():
            hit += 0.6  # "the main camera": the variant most products state, whatever the catalog calls it
    if not hit:
        return 0.0  # names nothing the question said: no penalty can rank it among the unnamed
    entry = word_set(p.entry or p.name or "")
    # the entry itself (not only its section) names it, directly or by a synonym: "screen" → Display › Size
    named = attr & entry or any(s in entry for w in said for s in syn(w))
    bonus = 0.1 if named else 0.0
    # a variant nobody asked about ("Front camera" beside the "Rear camera" most products state) is
    # second, when the question names what the variants share ("camera"); a question naming none of
    # it ("storage" over labels "ram" and "inbuilt") leaves the variants equal
    variant: frozenset[str] = frozenset()
    if lexicon is not None and any(_forms(w) & attr for w in lexicon.variants.shared.get(p.pattern_id, ())):
        variant = lexicon.variants.variant_words.get(p.pattern_id, frozenset())
    meant = {s for w in said for s in syn(w)}
    unasked = sum(1 for v in variant if not (_forms(v) & attr) and v not in meant)
    # of two entries the question names equally, the one with fewer words it did not say is meant:
    # "processor cores" is "Processor cores", not "Efficient-core Max Turbo Frequency"
    extra = len({w for w in norm_tokens(p.entry or "") if w not in _STOP and not (_forms(w) & (attr | also))})
    if lexicon is not None and p.pattern_id in lexicon.variants.alone and hit >= len(said):
        # "battery" for Battery › Capacity, the section's only quantity of its kind: nothing else is meant
        extra, bonus = 0, max(bonus, 0.1)
    return min(1.0, hit / len(said)) + bonus - 0.05 * unasked - min(0.1, 0.02 * extra)


def name_heads(name: str) -> list[str]:
    """The last word of each part of a category name ("TV Mounts & Stands" → mounts, stands)."""
    return [w[-1] for part in re.split(r"[/&,]|\band\b", name.casefold()) if (w := norm_tokens(part))]
