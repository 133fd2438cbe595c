"""Whether a sentence says its product has a thing or lacks it: polarity of prose mentions.

Pages state features in prose, with negations and paraphrases: "It lacks NFC.", "The maker
left out the IR blaster.", "It still has a headphone jack." A mention is not a fact by
itself: "It supports NFC" and "It lacks NFC" both mention NFC, and a page that never
mentions NFC says nothing about it (unknown, not "lacks").

The reading is rule-based, over cue words of general English (``negation.yaml``, each with
its reason), inside one clause:

* sentences are split at ``.!?`` (not inside "3.5mm" or after "e.g."), one line at a time;
  questions ("Does it have NFC?") assert nothing;
* clauses end at ``, ; : ( ) |``, dashes and words such as "but", "while", "whereas",
  "although", "so"; a negation never reaches past a clause end. One exception: a comma-led
  segment holding no cue and no subject pronoun continues the list before it, so "it
  lacks NFC, wireless charging and a jack" negates all three;
* the cue nearest before the thing decides: negators ("no", "not", "cannot", "isn't",
  "no longer") and verbs or prepositions of absence ("lacks", "without", "dropped", "left
  out") say it lacks the thing, verbs of possession ("has", "keeps", "still has", "comes
  with") say it has it; a negator right before another cue flips it ("does not have",
  "no longer has", "isn't without");
* with no cue before it, a closing predicate after the thing decides ("NFC is missing",
  "the charger is not included", "NFC isn't supported");
* a clause about something else ("unlike older models", "compared to its predecessor") or
  a hypothetical one ("if you need NFC", "we wish it had NFC") asserts nothing;
* otherwise a plain mention in a statement is read as "has".

:func:`feature_polarity` gives ``True`` (has), ``False`` (lacks) or ``None`` (the phrase is
not in the sentence, or the sentence asserts nothing about it; also when two mentions in
one sentence disagree). :func:`statements` reads a whole page for a list of phrases.

>>> feature_polarity("It supports NFC, so contactless payments work.", "NFC")
True
>>> feature_polarity("It lacks NFC.", "NFC")
False
>>> feature_polarity("The maker left out NFC on this model.", "nfc")
False
>>> feature_polarity("Unlike older models, it dropped the infrared port.", "Infrared Port")
False
>>> [feature_polarity("It supports NFC but lacks an IR blaster.", p) for p in ("NFC", "IR blaster", "GPS")]
[True, False, None]
>>> feature_polarity("There is no memory card slot, so the built-in storage is all you get.", "memory card slots")
False
>>> feature_polarity("There is no memory card slot, so the built-in storage is all you get.", "built-in storage")
True
>>> [feature_polarity(s, "headphone jack") for s in ("It keeps the headphone jack.", "It still has a headphone jack.",
...     "It no longer has a headphone jack.", "It ships without a headphone jack.", "The headphone jack is gone.")]
[True, True, False, False, False]
>>> [(s.phrase, s.polarity) for s in statements("Sadly it lacks NFC. The IR blaster is not included!", ["NFC", "IR blaster"])]
[('NFC', False), ('IR blaster', False)]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import TypeVar

import yaml

from dualgraph.tkg.merge import fold_plural

__all__ = [
    "Statement",
    "clauses",
    "denies",
    "feature_polarity",
    "names_in",
    "negated",
    "negated_words",
    "negation_words",
    "phrase_key",
    "sentences",
    "statements",
]

V = TypeVar("V")

# Words (with inner apostrophes: "doesn't"), and the punctuation that matters: clause marks, a
# spaced dash, and "/" (kept as a word so "n/a" and "A/B" names match themselves).
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[,;:()|\u2013\u2014/]|(?<!\S)-{1,2}(?!\S)")
_CLAUSE_MARKS = frozenset(",;:()|\u2013\u2014") | {"-", "--"}
_ARTICLES = frozenset({"the", "a", "an"})
# A sentence may end at . ! ? (with closing quotes or brackets) before a space and a capital,
# digit or opening mark, or at the end of the line.
_SENTENCE_END = re.compile(r"[.!?]+[\"”’)\]]*(?=\s+[\"“‘(\[]?[A-Z0-9]|\s*$)")
_MARKDOWN_LEAD = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+)+")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_MARKDOWN_MARKS = re.compile(r"\*\*|__|`|\[CHUNK_BREAK\]")
_WORDS = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_MAX_SKIP_BEFORE_PREDICATE = 3
_FLIP_REACH = 2  # words a negator may stand before the verb or preposition it flips  # "NFC on this model is missing": a short phrase may sit between

_RELATIVE = frozenset({"which"})  # boundary words that open a clause about the noun before them
_FORWARD = ("neutral", "negators", "lacking", "elsewhere", "hedges", "affirming")  # ties: earlier wins
_POLAR = {"negators": False, "lacking": False, "affirming": True}
_BACKWARD = ("auxiliaries", "negators", "absent", "present")


@dataclass(frozen=True, slots=True)
class Statement:
    """One sentence's word on one phrase: ``polarity`` True = has, False = lacks."""

    phrase: str
    polarity: bool
    sentence: str


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str  # lower case, apostrophes as '
    norm: str  # plural-folded, for matching names
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Cue:
    start: int  # token positions inside the clause, end exclusive
    end: int
    kind: str


@dataclass(slots=True)
class _Clause:
    toks: list[_Tok]
    opener: str  # the mark or word that opened it ("" at the sentence start)
    cues: list[_Cue] = field(default_factory=list)
    answer: bool | None = None  # "Feature: No" -> False for the words before the colon
    elsewhere: bool = False  # a relative clause on a clause about something else


class _Lexicon:
    """The cue lists of ``negation.yaml`` as token tuples, longest first per first word."""

    def __init__(self, raw: Mapping[str, Mapping[str, str]]) -> None:
        self.kinds: dict[str, frozenset[tuple[str, ...]]] = {
            kind: frozenset(tuple(t.text for t in _tokens(cue)) for cue in (entries or {}))
            for kind, entries in raw.items()
        }
        self.abbreviations = frozenset(str(a).lower() for a in raw.get("abbreviations", {}) or {})
        # cues by first word, so a token is checked against the few cues that start with it
        self.by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for kind, cues in self.kinds.items():
            for cue in cues:
                if cue:
                    self.by_first.setdefault(cue[0], []).append((cue, kind))

    def match(self, toks: list[_Tok], i: int, kinds: Iterable[str]) -> tuple[int, str] | None:
        """The longest cue of ``kinds`` starting at token ``i``: (its length, its kind); on equal
        length the kind listed first wins."""
        if i >= len(toks):
            return None
        order = {k: r for r, k in enumerate(kinds)}
        best: tuple[int, int, str] | None = None
        for cue, kind in self.by_first.get(toks[i].text, ()):
            if kind not in order:
                continue
            n = len(cue)
            key = (n, -order[kind], kind)
            if (best is None or key[:2] > best[:2]) and tuple(t.text for t in toks[i : i + n]) == cue:
                best = key
        return None if best is None else (best[0], best[2])

    def is_kind(self, toks: list[_Tok], kind: str) -> bool:
        return tuple(t.text for t in toks) in self.kinds.get(kind, frozenset())

    def is_any(self, toks: list[_Tok], kind: str) -> bool:
        """Whether one of ``toks`` is a one-word cue of ``kind``."""
        return any((t.text,) in self.kinds.get(kind, frozenset()) for t in toks)


@functools.lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    text = resources.files("dualgraph.tkg").joinpath("negation.yaml").read_text("utf-8")
    return _Lexicon(yaml.safe_load(text))


def _tokens(text: str) -> list[_Tok]:
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group().lower().replace("’", "'")
        # the second part of a hyphenated word ("built-in", "tap-to-pay") is no cue word on its own:
        # marked in its text, while its normalised form still matches phrases ("Wi-Fi" = "wi fi")
        attached = m.start() >= 2 and text[m.start() - 1] == "-" and text[m.start() - 2].isalnum()
        out.append(_Tok("-" + word if attached else word, fold_plural(word), m.start(), m.end()))
    return out


def sentences(text: str, *, headings: bool = True) -> list[str]:
    """The sentences of a page, one line at a time, Markdown marks removed; ``headings=False`` leaves
    out the lines that are Markdown headings ("## Memory Specifications" titles a part of the page,
    it does not say the product has memory specifications).

    >>> sentences("## Design\\n- It lacks NFC. The 3.5mm jack stays, e.g. for wired earbuds!\\nNo IR blaster")
    ['Design', 'It lacks NFC.', 'The 3.5mm jack stays, e.g. for wired earbuds!', 'No IR blaster']
    >>> sentences("## Design\\nNo IR blaster", headings=False)
    ['No IR blaster']
    """
    lex = _lexicon()
    out: list[str] = []
    for raw_line in text.splitlines():
        if not headings and _HEADING.match(raw_line):
            continue
        line = _MARKDOWN_MARKS.sub("", _MARKDOWN_LEAD.sub("", raw_line)).strip()
        start = 0
        for m in _SENTENCE_END.finditer(line):
            last_word = line[start : m.end()].rsplit(None, 1)[-1].lower()
            if m.end() < len(line) and last_word in lex.abbreviations:
                continue
            piece = line[start : m.end()].strip()
            if piece:
                out.append(piece)
            start = m.end()
        if line[start:].strip():
            out.append(line[start:].strip())
    return out


def _split(sentence: str) -> list[_Clause]:
    lex = _lexicon()
    toks = _tokens(sentence)
    raw: list[_Clause] = [_Clause([], "")]
    i = 0
    while i < len(toks):
        if toks[i].text in _CLAUSE_MARKS:
            raw.append(_Clause([], toks[i].text))
            i += 1
            continue
        hit = lex.match(toks, i, ("boundaries",))
        if hit:
            raw.append(_Clause([], " ".join(t.text for t in toks[i : i + hit[0]])))
            i += hit[0]
            continue
        raw[-1].toks.append(toks[i])
        i += 1
    out: list[_Clause] = []
    glossed = False  # the clause before was a gloss in brackets, merged into the one around it
    for clause in raw:
        if not clause.toks:
            continue
        clause.cues = _cues(clause.toks)
        if out and clause.opener in (":", "|"):  # "NFC: No", a table row "| NFC | No |"
            for kind, polarity in (("answers_no", False), ("answers_yes", True)):
                if lex.is_kind(clause.toks, kind):
                    out[-1].answer = polarity
            if out[-1].answer is not None:
                continue
        if out and (
            (clause.opener == "," and _continues_list(clause))
            or (clause.opener == "(" and _gloss(clause))
            or (clause.opener == ")" and glossed and _continues_list(clause))
        ):
            # "does not work with error-correcting (ECC) memory": a short gloss in brackets, and the
            # words after it, stay in the clause around them, so its negation reaches them
            glossed = clause.opener == "("
            out[-1].toks.extend(clause.toks)
            out[-1].cues = _cues(out[-1].toks)
            continue
        glossed = False
        if out and clause.opener in _RELATIVE:
            # "unlike its predecessor, which had X": the relative clause is about the predecessor
            clause.elsewhere = out[-1].elsewhere or any(c.kind == "elsewhere" for c in out[-1].cues)
        out.append(clause)
    return out


_GLOSS_WORDS = 4


def _gloss(clause: _Clause) -> bool:
    """A bracketed aside of a few words with no cue and no subject ("(ECC)", "(sold in pairs)" is not:
    it has a verb of its own only when a cue says so) names or glosses the thing before it."""
    return len(clause.toks) <= _GLOSS_WORDS and _continues_list(clause)


def _continues_list(clause: _Clause) -> bool:
    # "it lacks X, Y and Z": a segment with no cue and no subject of its own is more of the list.
    if any(c.kind != "neutral" for c in clause.cues):
        return False
    return not any(_lexicon().is_kind([t], "clause_openers") for t in clause.toks)


def _cues(toks: list[_Tok]) -> list[_Cue]:
    lex = _lexicon()
    out: list[_Cue] = []
    i = 0
    while i < len(toks):
        hit = lex.match(toks, i, _FORWARD)
        if hit is None:
            i += 1
            continue
        out.append(_Cue(i, i + hit[0], hit[1]))
        i += hit[0]
    return out


@functools.lru_cache(maxsize=1)
def negation_words() -> frozenset[str]:
    """The one-word cues that negate or say a thing is absent ("not", "can't", "without", "lacks").

    >>> {"not", "can't", "without", "never"} <= negation_words(), "has" in negation_words()
    (True, False)
    """
    kinds = _lexicon().kinds
    return frozenset(cue[0] for kind in ("negators", "lacking") for cue in kinds.get(kind, ()) if len(cue) == 1)


def denies(name: str, phrase: str) -> bool:
    """Whether ``name`` negates a word of ``phrase`` that the phrase itself leaves unnegated: a
    feature named so means the opposite of the phrase.

    >>> denies("use regular non-ECC RAM", "ECC memory"), denies("No ECC support", "ECC")
    (True, True)
    >>> denies("ECC modules", "ECC memory"), denies("non-ECC RAM", "non-ECC memory")
    (False, False)
    """
    asked = set(_WORDS.findall(phrase.casefold()))
    return bool((negated_words(name) - negated_words(phrase)) & asked)


@functools.lru_cache(maxsize=1 << 15)
def negated_words(text: str) -> frozenset[str]:
    """The words of ``text`` a negation word or prefix stands right before ("non-ECC" → "ecc").

    >>> sorted(negated_words("No ECC support, so use regular non-ECC RAM")), negated_words("ECC memory")
    (['ecc'], frozenset())
    """
    cues = negation_words() | {cue[0] for cue in _lexicon().kinds.get("negating_prefixes", ()) if len(cue) == 1}
    toks = _WORDS.findall(text.casefold())
    return frozenset(toks[i + 1] for i in range(len(toks) - 1) if toks[i] in cues)


def negated(text: str) -> bool:
    """Whether the first clause of ``text`` is negated: an odd number of negating cues in it
    (negators, words of absence before the thing, predicates of absence after it). For a
    sentence whose words do not name the thing asked about (a paraphrase), this is all the
    polarity there is to read.

    >>> [negated(s) for s in ("It is not sold online; buy it in the store.", "Stackable chair; saves space when not in use.",
    ...     "Brand new, never ridden.", "No other colours are available.", "It isn't without a jack.", "The jack is gone.", "NFC is missing.")]
    [True, False, False, True, False, True, True]
    """
    _, parsed = _parsed(text)
    if not parsed:
        return False
    first = parsed[0]
    lex = _lexicon()
    cued = {c.start for c in first.cues if c.kind in ("negators", "lacking")}
    # "missing", "dropped": words of absence before the thing and after it alike, counted once
    count = len(cued) + sum(
        1 for i in range(len(first.toks)) if i not in cued and lex.match(first.toks, i, ("absent",))
    )
    if first.answer is False:
        count += 1
    return count % 2 == 1


def clauses(sentence: str) -> list[str]:
    """The clauses a negation cannot reach across (text from the first to the last word).

    >>> clauses("It supports NFC but lacks an IR blaster; no jack, no slot, so it is sealed.")
    ['It supports NFC', 'lacks an IR blaster', 'no jack', 'no slot', 'it is sealed']
    >>> clauses("It lacks NFC, wireless charging and a jack.")
    ['It lacks NFC, wireless charging and a jack']
    """
    return [sentence[c.toks[0].start : c.toks[-1].end] for c in _split(sentence)]


@functools.lru_cache(maxsize=1 << 14)
def _parsed(sentence: str) -> tuple[bool, tuple[_Clause, ...]]:
    return sentence.rstrip().rstrip('"”’)]').endswith("?"), tuple(_split(sentence))


@functools.lru_cache(maxsize=1 << 14)
def phrase_key(phrase: str) -> str:
    """What a phrase must spell in a sentence: its folded words joined, a leading article dropped.

    >>> phrase_key("the Wi-Fi Antennas") == phrase_key("wifi antenna")
    True
    """
    toks = [t.norm for t in _tokens(phrase) if t.text not in _CLAUSE_MARKS]
    while toks and toks[0] in _ARTICLES:
        toks = toks[1:]
    return "".join(toks)


_phrase_key = phrase_key


def names_in(text: str, keyed: Mapping[str, V], *, max_words: int = 8) -> list[V]:
    """The values of ``keyed`` (names by :func:`phrase_key`) that some run of words in ``text``
    spells, in order of first appearance; one pass over the text, whatever the number of names.

    >>> names_in("It has Wi-Fi 6 and NFC.", {phrase_key("WiFi 6"): "e1", phrase_key("NFC"): "e2", "gps": "e3"})
    ['e1', 'e2']
    """
    found: dict[V, None] = {}
    for key, _ in name_spans(text, keyed, max_words=max_words):
        found.setdefault(keyed[key])
    return list(found)


def name_spans(text: str, keys: Collection[str], *, max_words: int = 8) -> list[tuple[str, int]]:
    """Each of ``keys`` (:func:`phrase_key`) that some run of words in ``text`` spells, with the
    index of the word where it first starts, in that order.

    >>> name_spans("NFC, then Wi-Fi 6 and NFC.", {phrase_key("WiFi 6"), phrase_key("NFC")})
    [('nfc', 0), ('wifi6', 3)]
    """
    return read_names(text, keys, max_words=max_words)[0]


def read_names(text: str, keys: Collection[str], *, max_words: int = 8) -> tuple[list[tuple[str, int]], str]:
    """:func:`name_spans`, and the text's folded words run together: every key the text spells is
    a part of that string, so a key that is not there need not be looked for.

    >>> read_names("Two batteries, no jack.", {"battery"})
    ([('battery', 1)], 'twobattery,nojack')
    """
    toks = _tokens(text)
    found: dict[str, int] = {}
    for i in range(len(toks)):
        acc = ""
        for tok in toks[i : i + max_words]:
            if tok.text in _CLAUSE_MARKS:
                break
            acc += tok.norm
            if acc in keys:
                found.setdefault(acc, i)
    return list(found.items()), "".join(t.norm for t in toks)


def _occurrences(toks: list[_Tok], key: str) -> Iterable[tuple[int, int]]:
    # Token spans whose folded words, joined, spell the key: "Wi-Fi" finds "WiFi" and back.
    for i in range(len(toks)):
        acc = ""
        for j in range(i, len(toks)):
            acc += toks[j].norm
            if acc == key:
                yield i, j + 1
                break
            if not key.startswith(acc):
                break


def _flip_chain(cues: list[_Cue], k: int, polarity: bool) -> bool:
    # A negator shortly before (at most two words between: "does not really have", "cannot be
    # paired with") flips a verb or preposition; two negators agree rather than cancel ("neither X
    # nor Y", "no, not even X").
    while (
        k > 0
        and cues[k].kind != "negators"
        and cues[k - 1].kind == "negators"
        and cues[k].start - cues[k - 1].end <= _FLIP_REACH
    ):
        polarity = not polarity
        k -= 1
    return polarity


def _closing_predicate(toks: list[_Tok], end: int) -> bool | None:
    """Polarity from a predicate after the thing: "is missing", "is not included"."""
    lex = _lexicon()
    pos = end
    while pos < len(toks) and lex.match(toks, pos, _BACKWARD) is None:
        if pos - end >= _MAX_SKIP_BEFORE_PREDICATE or lex.match(toks, pos, ("lacking", "affirming")):
            return None
        pos += 1
    negations = 0
    while pos < len(toks):
        hit = lex.match(toks, pos, _BACKWARD)
        if hit is None:
            return None
        n, kind = hit
        pos += n
        if kind == "negators":
            negations += 1
        elif kind in ("absent", "present"):
            # "missing a Y" is a verb with its object, not a predicate closing the clause
            if pos < len(toks) and lex.match(toks, pos, ("after_predicate",)) is None:
                return None
            return (kind == "present") ^ (negations % 2 == 1)
    # an elliptical negation closes the clause: "wireless charging isn't", "... but NFC does not"
    return False if negations % 2 == 1 else None


def _occurrence_polarity(clause: _Clause, start: int, end: int) -> bool | None:
    before: list[_Cue] = []
    for cue in clause.cues:
        if cue.start < end and cue.end > start:
            if cue.kind in ("negators", "lacking"):
                # the name holds or runs into a negation ("lacks NFC", "maker left" of "left out"):
                # an extraction slip, not the name of a thing
                return None
            continue
        if cue.end <= start:
            before.append(cue)
    if clause.answer is not None:
        return clause.answer
    if clause.elsewhere:
        return None
    if any(c.kind in ("elsewhere", "hedges") for c in before):
        return None
    polar = [c for c in before if c.kind in _POLAR]
    if polar and _lexicon().is_any(clause.toks[polar[-1].end : start], "scope_enders"):
        return None  # "no NFC on the export model": the model is where, not what is missing
    if polar:
        return _flip_chain(polar, len(polar) - 1, _POLAR[polar[-1].kind])
    closing = _closing_predicate(clause.toks, end)
    return True if closing is None else closing


# Catalog pages repeat their sentences (boilerplate, one page per variant): reading is pure, so
# a sentence and phrase already read are not read again.
@functools.lru_cache(maxsize=1 << 16)
def feature_polarity(sentence: str, phrase: str) -> bool | None:
    """True if the sentence says its subject has ``phrase``, False if it says it lacks it, None
    if the phrase is not in it or nothing is asserted (a question, a condition, a comparison
    with another product, or two mentions that disagree). Case, plurals, hyphens and a
    leading article do not matter.

    >>> feature_polarity("Does it have NFC?", "NFC"), feature_polarity("If you need NFC, look elsewhere.", "NFC")
    (None, None)
    >>> feature_polarity("It does not have NFC.", "NFC"), feature_polarity("It isn't without Wi-Fi.", "wifi")
    (False, True)
    >>> feature_polarity("NFC: No", "NFC"), feature_polarity("NFC is not supported on this model.", "NFC")
    (False, False)
    """
    key = _phrase_key(phrase)
    if not key:
        return None
    question, parsed = _parsed(sentence)
    seen: set[bool | None] = set()
    for clause in parsed:
        for start, end in _occurrences(clause.toks, key):
            seen.add(None if question else _occurrence_polarity(clause, start, end))
    definite = seen - {None}
    return definite.pop() if len(definite) == 1 else None


@functools.lru_cache(maxsize=1 << 14)
def _flat(sentence: str) -> str:
    return "".join(t.norm for t in _tokens(sentence))


def statements(text: str, phrases: Iterable[str]) -> list[Statement]:
    """What a page says about each phrase: one :class:`Statement` per (phrase, sentence)
    with a definite polarity, in reading order. Phrases it never mentions get none.

    >>> page = "It supports NFC but lacks an IR blaster. Does it have NFC? NFC also makes pairing easy."
    >>> [(s.phrase, s.polarity, s.sentence[:12]) for s in statements(page, ["IR blaster", "NFC", "GPS"])]
    [('NFC', True, 'It supports '), ('IR blaster', False, 'It supports '), ('NFC', True, 'NFC also mak')]
    """
    wanted = list(dict.fromkeys(p for p in phrases if _phrase_key(p)))
    out: list[Statement] = []
    seen: set[tuple[str, bool, str]] = set()
    for sentence in sentences(text, headings=False):
        flat = _flat(sentence)
        present = [p for p in wanted if _phrase_key(p) in flat]  # cheap filter before the clause reading
        # in reading order (a phrase spelled differently from the text goes last)
        for phrase in sorted(present, key=lambda p: sentence.lower().find(p.lower()) % (len(sentence) + 1)):
            polarity = feature_polarity(sentence, phrase)
            if polarity is not None and (phrase, polarity, sentence) not in seen:
                seen.add((phrase, polarity, sentence))
                out.append(Statement(phrase, polarity, sentence))
    return out
