"""Parse a shopper's question into an intent, entity mentions and one constraint per clause.

Deterministic. The parser holds grammar and general English (technology tokens such as
"IP68"/"USB-C", "with X"/"supports X" phrases, capitalised names with model numbers); the words
of the catalog the question is about (its categories, attributes, features and value families)
come from a :class:`~dualgraph.lexicon.vocabulary.QuestionVocabulary` built from its pattern index.
Numbers are read by :mod:`dualgraph.query.read.numbers`. Grounding on the graph happens later,
so spans stay tight and names are not merged.

>>> from dualgraph.lexicon.vocabulary import QuestionVocabulary
>>> phones = QuestionVocabulary.of(categories=["Phones"], attributes=["RAM", "display"], features=["NFC"])
>>> p = parse_question("Which samsung phones under £500 have at least 8GB RAM and no NFC?", vocabulary=phones)
>>> p.intent.kind, [(e.phrase, e.kind) for e in p.entities]
('list', [('samsung', 'brand'), ('phones', 'category')])
>>> [(c.op, c.value, c.unit, c.attribute) for c in p.constraints if hasattr(c, "op")]
[('<', 500.0, 'GBP', 'price'), ('>=', 8.0, 'GB', 'RAM')]
>>> [(c.phrase, c.negated) for c in p.constraints if hasattr(c, "negated") and not hasattr(c, "attribute")]
[('NFC', True)]
>>> p = parse_question("Which has the bigger display, the Galaxy S25 or the Galaxy Z Flip7?", vocabulary=phones)
>>> p.intent.kind, p.intent.attribute, p.intent.direction, [e.phrase for e in p.entities]
('compare', 'display', 'max', ['Galaxy S25', 'Galaxy Z Flip7'])
>>> p = parse_question("top 3 cheapest phones with a 1TB storage option", vocabulary=phones)
>>> p.intent.kind, p.intent.k, p.intent.direction, p.intent.attribute, p.constraints[0].value
('superlative', 3, 'min', 'price', 1000.0)
"""

from __future__ import annotations

import functools
import re

from dualgraph.lexicon.english import general_words, how_adjectives, words_alternation
from dualgraph.lexicon.synonyms import line_words
from dualgraph.lexicon.vocabulary import QuestionVocabulary, current, use
from dualgraph.query.read.asked import answer_unit_spans
from dualgraph.query.read.dates import DATE_ATTRIBUTES, find_dates, find_event, is_event_word, time_superlative
from dualgraph.query.read.exclusions import excluded_names
from dualgraph.query.read.links import cut_measured, measured_by, versions
from dualgraph.query.read.lists import joined
from dualgraph.query.read.model import (
    Constraint,
    Direction,
    EntityRef,
    FeatureConstraint,
    Intent,
    NumericConstraint,
    ParsedQuestion,
    Span,
    ValueConstraint,
)
from dualgraph.query.read.numbers import attribute_label, find_numeric, unit_word
from dualgraph.query.read.superlative import (
    SUPERLATIVES,
    VERB_ATTRS,
    attribute_before,
    attribute_near,
    extremes,
    pick,
    plain_noun_phrase,
    tie_break,
    verb_attribute,
)
from dualgraph.skg import currencies
from dualgraph.skg.quantities import convert, normalise_unit, parse_quantity, unit_at

__all__ = ["comparative", "parse_question"]

# --- grammar; the catalog's own words come from dualgraph.lexicon.vocabulary ----------------------
_TECH_TOKEN = re.compile(
    r"(?<![\w-])(?:[A-Z]{2,}[A-Za-z]*\d*[A-Z]*\+?(?:[\s-]\d+(?:\.\d+)?)?|[a-z]{1,5}[A-Z]{2,}[A-Za-z]*\d*|"
    r"[A-Z][a-z]+-[A-Z]\w*)(?![\w-])"
)
_Q_WORDS = frozenset(
    """Which What How Does Do Is Are Can Has Have Will Would Could Should Tell Show List Give Find
Compare Comparing Describe I Any Please The A An Among Between Of In For With Name Get Who Whose Whom Where When Why My Me It
That This Than Or And Vs""".split()
) | frozenset(
    # function words opening a sentence or clause are capitalised by grammar, never names
    """Across Amongst From To At On By Within Without Under Over Above Below If Given Considering Except
Including Excluding Besides Also Only Just Out Looking Searching Need Want Say Suppose Count Number Rank Sort
Return Search Recommend Suggest Help Filter Select Pick Neither Either Top Bottom Every Each All Some No
Least Most Best First Last Cheapest Yes""".split()
)
_NAME_PART = re.compile(r"[A-Za-z0-9][\w+]*(?:-[\w+]+|\.\d+)*|\+")  # "A10-70", "Note 10.1"
_MODEL_CODE = re.compile(r"[a-z]{1,3}\d[\w-]*")
# a model code that is a name on its own, whatever its case: "i7-6900K", "e5-2699v4", "6900K"
_CODE_NAME = re.compile(r"(?i:[a-z]{1,3}\d+-\d+[a-z0-9]*)|\d{4,}[A-Z]{1,3}[a-z0-9]*|[a-z]\d{1,2}s")  # "i7s": a line
_RANGE_WORD = re.compile(r"\s+(?:series|range|line-?up|line|family)\b", re.I)
_NEG = re.compile(
    r"(?:\b(?:no|not|non|without|lacks?|lacking|missing|never|nor|neither|excluding|except(?:\s+for)?"
    r"|other\s+than)|n't|\bdo\s+not|\bdoes\s+not"
    r"|\bcannot)"
    r"(?:[\s-]+(?:support|supports|supporting|have|has|having|a|an|any|the|come\s+with|offer|include"
    r"|with|take|accept|fit|hold|been|be|to))*[\s-]+$",  # "to": "say no to ECC memory"
    re.I,
)
_WITH = re.compile(
    # general English verbs of having and of capability: what follows is what the product has
    # (or lacks: "lacks a", "without", "no"; _NEG reads the polarity), or needs ("requires batteries")
    r"(?<!\bcompared\s)(?<!\bcompare\s)"  # "compared with its old price" compares, it has nothing
    r"\b(?:with|has|have|having|supports?|supporting|support\s+for|featuring|offers?|includes?"
    r"|lacks?|lacking|without|missing|no|requires?|required|needs?|needed"
    r"|comes\s+with|accepts?|can(?:'t|not|\s+not)?\s+(?:take|accept|fit|hold)|carry|carries|provides?|ships?\s+with|works?\s+as|acts?\s+as"
    r"|doubles?\s+as|serves?\s+as|lets?\s+you\s+use|allows?)\s+(?:an?\s+|the\s+|some\s+|any\s+|its\s+|their\s+)?",
    re.I,
)
_PHRASE_STOP = frozenset(
    """and or but under over below above for that which in on at from than by to with without
less more the a an is are does do has have can within between of priced costing price budget no not non
only just neither nor either as well also plus too other except excluding""".split()
)

_COMPARATIVES: list[tuple[str, Direction, str]] = [
    (r"more\s+expensive|pricier|costlier|dearer", "max", "price"),
    # "more cheap", "more tall": the comparative said with "more", as learners of English say it
    (r"cheaper|less\s+expensive|more\s+affordable|more\s+cheap", "min", "price"),
    (r"lighter", "min", "weight"),
    (r"heavier|more\s+heavy", "max", "weight"),
    (r"thinner|slimmer|more\s+(?:thin|slim)", "min", "thickness"),
    (r"thicker|more\s+thick", "max", "thickness"),
    (r"taller|more\s+tall", "max", "height"),
    (r"wider|broader|more\s+wide", "max", "width"),
    (r"deeper|more\s+deep", "max", "depth"),
    (r"narrower|more\s+narrow", "min", "width"),
    (r"shallower", "min", "depth"),
    (r"smaller|more\s+small", "min", "size"),
    (r"larger|bigger|more\s+(?:big|large)", "max", "size"),
    (r"better|higher|faster|quicker|speedier|longer|more|greater|stronger|brighter|newer|further|farther", "max", ""),
    (r"lower|worse|slower|shorter|less|fewer|older|closer|nearer", "min", ""),
]
_COMPARATIVE_WORD = re.compile("|".join(f"(?:{pat})" for pat, _, _ in _COMPARATIVES), re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


class _Claims:
    """Character ranges already used, so that constraints and entities never overlap."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int]] = []

    def free(self, a: int, b: int) -> bool:
        return all(b <= s or a >= e for s, e in self.spans)

    def take(self, a: int, b: int) -> None:
        self.spans.append((a, b))


def _span(q: str, a: int, b: int) -> Span:
    return Span(a, b, q[a:b])


def _negated(q: str, start: int, floor: int = 0) -> bool:
    before = q[max(floor, start - 40) : start]
    if _NEG.search(before) is not None:
        return True
    # "can't be run in SLI", "must not be hung on the wall": a verb of use and its grammar words between
    m = _NEG_BEFORE_VERB.search(before)
    return m is not None and all(w in _verb_phrase_words() for w in m.group(1).casefold().split())


_NEG_BEFORE_VERB = re.compile(r"(?:\b(?:not|never|cannot)|n't)((?:[\s-]+[a-z]+){1,4})[\s-]+$", re.I)
_CLAUSE_WORDS = frozenset({"and", "or", "but", "that", "which", "who", "while", "if", "then", "so", "than"})


@functools.cache
def _verb_phrase_words() -> frozenset[str]:
    """Words that may stand between a negation and what it negates: verbs of use, auxiliaries and
    grammar words, but no word that opens another clause."""
    words = general_words("use_verbs") | general_words("auxiliaries") | general_words("function_words")
    return words - _CLAUSE_WORDS


def _only(q: str, start: int, end: int) -> bool:
    return bool(re.match(r"[\s-]*only\b", q[end:], re.I) or re.search(r"\b(?:only|just)\s+$", q[:start], re.I))


_VERSION_AFTER = re.compile(r"[\s-]?v?\d{1,2}(?:\.\d{1,2})?[a-z]?(?![\w.])", re.I)


_NAME_GOES_ON = re.compile(r"\s+(?:[A-Z][\w+]*|\d{1,2}(?![\w.]))(?=[\s,?.!]|$)")


def _unit_next(q: str, at: int) -> bool:
    w = re.match(r"\s*([^\W\d_]+)", q[at:])
    return w is not None and normalise_unit(w.group(1)) is not None


def _features(q: str, claims: _Claims, trace: list[str]) -> list[FeatureConstraint]:
    found: list[tuple[int, int]] = []
    for m in current().features.finditer(q):
        a, b = m.span()
        # a version after a feature name is part of it ("Bluetooth 5.2", "HDMI 2.1"), a unit is not
        if (v := _VERSION_AFTER.match(q, b)) and not _unit_next(q, v.end()):
            if any(x == a for x, _, _ in current().value_families(q)):
                continue  # a versioned value the catalog lists ("iOS 26" of an OS entry): a value
            b = v.end()
        # a page may name a category ("Tables & desks"): the whole name is the category's
        if claims.free(a, b) and not current().whole_joined_category(q[a:b]):
            found.append((a, b))
            claims.take(a, b)
    for m in _TECH_TOKEN.finditer(q):  # "LDAC", "UFS 4.0", "Wi-Fi" the catalog does not list as features
        word = m.group().split()[0].rstrip("+")
        version = _VERSION_AFTER.match(q, m.end()) if not re.search(r"\d", m.group()) else None
        if (
            claims.free(*m.span())
            # an attribute's name is no feature, unless a version says which one ("Bluetooth 5.0")
            and (not current().attributes.fullmatch(word) or version is not None or re.search(r"\d", m.group()))
            and not current().categories.fullmatch(word)
            and word not in _Q_WORDS
            and word.casefold() not in current().brands  # "HP desktops": a maker, not a term
            and word not in current().name_starts  # "TUFFING" of "TUFFING Loft bed frame": a name's word
            and not re.fullmatch(r"(?:GB|TB|MB|US|UK|MP|Hz)", word)
            and not currencies.table().candidates(word)  # "SAR 1500", "SR 2,000": an amount
            and not any(a <= m.start() < b for a, b, _ in current().value_families(q))
        ):
            if _RANGE_WORD.match(q, m.end()) or current().categories.match(q, m.end() + 1) or _in_name(q, *m.span()):
                continue  # "OLED TVs", "X series", "Pixel 9 XL" are names, not features
            end = version.end() if version is not None and not _unit_next(q, version.end()) else m.end()
            # a term the catalog does not name goes on with words its feature and attribute names use:
            # "microSD card" ~ Memory Card Support, where "microSD" alone matches nothing
            while (w := re.match(r"\s+([a-z]+)\b", q[end:])) and (
                w.group(1) in current().feature_words or w.group(1) in current().attribute_words
            ):
                end += w.end()
            found.append((m.start(), end))
            claims.take(m.start(), end)
    # an attribute's or feature's name with a version is a feature ("Bluetooth 5.0", "USB 3.2")
    vocab = current()
    for m in re.finditer(r"(?<![\w-])([A-Z][\w+-]{2,})(?=[\s-]v?\d)", q):
        if m.group(1) in _Q_WORDS or not (
            vocab.attributes.fullmatch(m.group(1)) or m.group(1).casefold() in vocab.feature_words
        ):
            continue
        if re.search(r"(?:[A-Z]|\d)[\w+-]*\s+$", q[: m.start()]):
            continue  # inside a name: "ThinkPad T14s Gen 5"
        if any(a == m.start() for a, _, _ in vocab.value_families(q)):
            continue  # a value family the catalog lists ("Android 15"): read as a value
        version = _VERSION_AFTER.match(q, m.end())
        if version is None or _unit_next(q, version.end()):
            continue
        end = version.end()
        while t := _NAME_GOES_ON.match(q, end):  # "Snapdragon 8 Elite", "Snapdragon 8 Gen 3"
            end = t.end()
        if claims.free(m.start(), end):
            found.append((m.start(), end))
            claims.take(m.start(), end)
    # "discounted", "on sale": general words for a price cut, read whatever the catalog names
    for m in _price_cut_words().finditer(q):
        graded = _graded_before(comparatives=True).search(q[max(0, m.start() - 40) : m.start()])
        if claims.free(*m.span()) and not graded:  # "the biggest discount" ranks by the cut
            found.append(m.span())
            claims.take(*m.span())
    return _build_features(q, found, trace)


@functools.cache
def _price_cut_words() -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-])(?:{words_alternation('price_cut_words')})(?![\w-])", re.I)


def _in_name(q: str, a: int, b: int) -> bool:
    """Whether a token sits next to a capitalised or numbered word: part of a product name."""
    before = re.search(r"([\w+]+) $", q[:a])
    after = re.match(r" ([\w+]+)", q[b:])

    def name_like(w: str) -> bool:
        return (
            (w[0].isupper() or any(c.isdigit() for c in w))
            and w not in _Q_WORDS
            and not current().attributes.fullmatch(w)
        )

    return bool((before and name_like(before.group(1))) or (after and name_like(after.group(1))))


def _context(q: str, b: int) -> int:
    """Where a feature phrase's plain continuation ends: up to two lower-case words after it that
    are no function, category, attribute or comparison words ("infrared" + "remote blaster")."""
    end = b
    for w in list(re.finditer(r"[a-z][a-z-]*", q[b : b + 30]))[:2]:
        if q[end : b + w.start()].strip() or w.group() in _PHRASE_STOP or current().categories.fullmatch(w.group()):
            break
        if current().attributes.fullmatch(w.group()) or any(
            re.fullmatch(rf"{pat}", w.group(), re.I) for pat, _, _ in SUPERLATIVES + _COMPARATIVES
        ):
            break
        end = b + w.end()
    return end


def _build_features(q: str, found: list[tuple[int, int]], trace: list[str]) -> list[FeatureConstraint]:
    out: list[FeatureConstraint] = []
    for a, b in sorted(found):
        neg = _negated(q, a)
        only = _only(q, a, b)
        end = _context(q, b)
        if any(x < end and y > b for x, y in found if (x, y) != (a, b)):
            end = b  # the next feature starts there
        context = q[a:end] if end > b else ""
        out.append(FeatureConstraint(_span(q, a, b), q[a:b], neg, only, context))
        trace.append(
            f"feature {q[a:b]!r}"
            + (f" (said as {context!r})" if context else "")
            + (" negated" if neg else "")
            + (" only" if only else "")
        )
    return out


def _not_the_ranked(
    q: str, intent: Intent, features: list[FeatureConstraint], trace: list[str]
) -> list[FeatureConstraint]:
    """The features less the one a ranking measures: in "the longest optical zoom" the words name
    what is ranked, not a condition every answer must have (a product stating it as a number may
    have no yes/no of it). Said a second time ("with optical zoom, the longest optical zoom") it stays.

    >>> f = FeatureConstraint(Span(16, 28, "optical zoom"), "optical zoom")
    >>> _not_the_ranked("the longest optical zoom", Intent("superlative", "optical zoom", "max"), [f], [])
    []
    """
    if intent.kind not in ("superlative", "compare", "average") or not intent.attribute:
        return features
    ranked = intent.attribute.casefold()
    kept = []
    for f in features:
        said = len(re.findall(rf"(?i)\b{re.escape(f.phrase)}\b", q))
        if not f.negated and f.phrase.casefold() == ranked and said == 1:
            trace.append(f"feature {f.phrase!r} is what the {intent.kind} ranks, not a condition")
            continue
        kept.append(f)
    return kept


# Conjuncts of one noun phrase share its negation; an article or a verb starts a new phrase
# ("no NFC and a stylus" lacks one and has the other), and then the gap holds more than these words.
def _conjuncts(q: str, features: list[FeatureConstraint], trace: list[str]) -> list[FeatureConstraint]:
    """The features read as the conjuncts of one noun phrase: each after a negated one negated too
    ("without NFC or 5G", "no water and ice dispenser"), and a lone modifier the catalog names
    nothing by given the head noun of the next ("water" dispenser). The features are found by
    several readers, so this runs on all of them."""
    out = sorted(features, key=lambda f: f.span.start)
    for before, f in zip(out, out[1:]):
        if not joined(q[before.span.end : f.span.start]):
            continue
        if before.negated and not f.negated:
            f.negated = True
            trace.append(f"feature {f.phrase!r} shares the negation of {before.phrase!r}")
        head = f.phrase.rsplit(None, 1)
        # "water and ice dispenser", "front and rear lights": a lone modifier the catalog names
        # nothing by takes the head noun of the conjunct after it
        if len(head) == 2 and " " not in before.phrase.strip() and not current().features.fullmatch(before.phrase):
            before.phrase = f"{before.phrase} {head[1]}"
            trace.append(f"feature {before.phrase!r}: the head noun of {f.phrase!r} is shared")
    return out


_NEVER_BEEN = re.compile(r"(?:(?:never|not)(?:\s+(?:been|be|ever))*|been|being)\s+", re.I)


def _with_phrases(q: str, claims: _Claims, trace: list[str]) -> list[FeatureConstraint]:
    """General rule: lower-case noun phrases after "with"/"has"/"supports" name a feature."""
    found = []
    for m in _WITH.finditer(q):
        # "have never been ridden", "have been tested": the negation and the auxiliary lead to the
        # feature (_NEG reads the polarity)
        base = neg.end() if (neg := _NEVER_BEEN.match(q, m.end())) else m.end()
        words = list(re.finditer(r"[a-z][a-z-]*", q[base : base + 40]))
        taken: list[re.Match[str]] = []
        pos = base
        grammar = general_words("function_words")  # "what have you got": no feature starts with a pronoun
        for w in words:
            if (
                q[pos : base + w.start()].strip()
                or w.group() in _PHRASE_STOP
                or w.group() in grammar
                or len(taken) == 3
            ):
                break
            taken.append(w)
            pos = base + w.end()
        if not taken or any(
            re.fullmatch(rf"{pat}", w.group(), re.I) for w in taken for pat, _, _ in SUPERLATIVES + _COMPARATIVES
        ):
            continue
        a, b = base + taken[0].start(), base + taken[-1].end()
        last = taken[-1].group()
        attr_end = [m.end() for m in current().attributes.finditer(q, a, b)]
        # "a big battery" grades an attribute (a superlative or a number does the work); "a headphone
        # jack" names a thing the product has, even when the catalog also measures it
        lead = taken[0].group().split("-")[0]
        graded = b in attr_end and (
            (len(taken) == 1 and taken[0].group() not in current().feature_words)  # "need assembly": a feature
            or lead in general_words("not_brand_words")
            or any(re.fullmatch(pat, lead) for pat, _, _ in SUPERLATIVES + _COMPARATIVES)
        )
        if (
            not claims.free(a, b)
            or graded
            or all(w.group() in general_words("product_nouns") for w in taken)  # "have anything", "has ones"
            or current().categories.fullmatch(last)
            or current().categories.fullmatch(q[a:b])
        ):
            continue
        found.append((a, b))
        claims.take(a, b)
    return _build_features(q, found, trace)


def _after_model(q: str, a: int) -> bool:
    """Whether ``a`` directly follows a capitalised or numbered word ("Galaxy S24 Ultra", "TCL 60
    NXTPAPER Ultra"): a name goes on there."""
    prev = re.search(r"(?<![\w-])([\w+-]+)\s+$", q[:a])
    return (
        prev is not None
        and (prev.group(1)[0].isupper() or any(c.isdigit() for c in prev.group(1)))
        and (prev.group(1) not in _Q_WORDS)
    )


def _values(q: str, claims: _Claims, trace: list[str]) -> list[ValueConstraint]:
    """Values of the catalog's value lists by their family ("Snapdragon 8 Gen 3", "an AMOLED
    display"), and capitalised words before a word naming an attribute ("a Tensor chip")."""
    out = []
    vocab = current()
    cap = r"(?:[A-Z0-9][\w+.]*|[a-z][A-Z]\w*)"
    general = re.compile(rf"\b(?:a|an|with|running|by)\s+(?P<v>{cap}(?:\s+{cap})*)")
    found = {(a, b) for a, b, _ in vocab.value_families(q) if not _after_model(q, a)}
    for m in general.finditer(q):
        if (after := re.match(r"\s+", q[m.end("v") :])) and vocab.attributes.match(q, m.end("v") + after.end()):
            found.add(m.span("v"))
    for a, b in sorted(found):
        while b > a and q[b - 1] in ".,":
            b -= 1
        phrase = q[a:b]
        if not claims.free(a, b) or parse_quantity(phrase) is not None or not re.match(r"[^\W\d_]", phrase):
            continue
        gap = re.match(r"\s+", q[b:])
        attr_m = vocab.attributes.match(q, b + gap.end()) if gap else None
        # the entry is the grounding's to choose: a family may be listed under several ("Wi-Fi 7")
        attr = attr_m.group(1).lower() if attr_m else ""
        claims.take(a, b)
        out.append(ValueConstraint(_span(q, a, b), phrase, attr, _negated(q, a)))
        trace.append(f"value {phrase!r} for {attr or 'any value list'}")
    return out


def _name_phrase(q: str, cat: re.Match[str], claims: _Claims) -> EntityRef | None:
    """A lower-case modifier before a category word that product names write with it ("corner
    sofas", "3-seat sofas": the catalog's names say "Corner sofa", "3-seat sofa"), as one name
    mention; its modifier is then no maker or product line. The category word stays a mention too."""
    prev = re.search(r"(?<![\w-])([a-z0-9][a-z0-9-]*[a-z0-9]|[a-z])\s+$", q[: cat.start()])
    if prev is None or not claims.free(*prev.span(1)):
        return None
    phrase = current().name_phrase(prev.group(1), cat.group())
    if phrase is None:
        return None
    claims.take(*prev.span(1))
    return EntityRef(_span(q, prev.start(1), cat.end()), q[prev.start(1) : cat.end()], "phrase")


def _name_phrase_after(q: str, cat: re.Match[str], claims: _Claims) -> EntityRef | None:
    """A category word and the lower-case noun after it that product names write together ("TV
    benches": the names say "TV bench", the category is "TV & media furniture"), as one name
    mention, so the noun is read, not left over. The category word stays a mention too."""
    nxt = _NEXT_WORD.match(q, cat.end())
    if nxt is None or not claims.free(*nxt.span(1)) or current().name_phrase(cat.group(), nxt.group(1)) is None:
        return None
    claims.take(*nxt.span(1))
    return EntityRef(_span(q, cat.start(), nxt.end(1)), q[cat.start() : nxt.end(1)], "phrase")


_NEXT_WORD = re.compile(r"\s+([a-z][a-z-]*[a-z])(?![\w-])")


# "the heaviest TV without its stand": a thing left out, not what is asked about
LEFT_OUT = re.compile(r"\b(?:without|excluding|except|minus|no)\s+(?:its|their|the|a|an|any)?\s*$", re.I)


def _entities(q: str, claims: _Claims, trace: list[str]) -> list[EntityRef]:
    out: list[EntityRef] = []
    for cat in current().categories.finditer(q):
        if claims.free(*cat.span()) and not LEFT_OUT.search(q[: cat.start()]):
            prev = re.search(r"(?<![\w-])([a-z][a-z0-9]+)\s+$", q[: cat.start()])
            if (named := _name_phrase(q, cat, claims)) is not None:
                out.append(named)
                trace.append(f"name phrase {named.phrase!r}: product names hold these words in a row")
                prev = None
            elif (named := _name_phrase_after(q, cat, claims)) is not None:
                out.append(named)
                trace.append(f"name phrase {named.phrase!r}: product names hold these words in a row")
            if (
                prev
                and not current().not_brand(prev.group(1))
                and prev.group(1) not in line_words()  # "Terra series phones": the line, not a brand
                and not current().attributes.fullmatch(prev.group(1))
                and claims.free(*prev.span(1))
                and not prev.group(1).endswith(("est", "ing", "able"))
                and not (len(prev.group(1)) > 5 and prev.group(1).endswith("ed"))  # "the catalogued fridges"
                and not _COMPARATIVE_WORD.fullmatch(prev.group(1))  # "the lighter cameras"
                and not is_event_word(prev.group(1))
                # "Core i7 processors": the model code of the name before it, not a maker
                and not (_MODEL_CODE.fullmatch(prev.group(1)) and _after_name(q[: prev.start(1)]))
            ):
                out.append(EntityRef(_span(q, *prev.span(1)), prev.group(1), "brand"))
                claims.take(*prev.span(1))
                trace.append(f"brand {prev.group(1)!r} before a category word")
            out.append(EntityRef(_span(q, *cat.span()), cat.group(), "category"))
            claims.take(*cat.span())
            trace.append(f"category {cat.group()!r}")
    out += _name_runs(q, claims, trace)
    out.sort(key=lambda e: e.span.start)
    return out


def _name_runs(q: str, claims: _Claims, trace: list[str]) -> list[EntityRef]:
    """Names: runs of capitalised or numbered words ("Galaxy Z Flip7", "iPhone 17 Pro", "Redmi Note 14")."""
    out: list[EntityRef] = []
    run: list[re.Match[str]] = []
    parts = [
        m
        for m in _NAME_PART.finditer(q)
        if not (
            (
                current().attributes.fullmatch(m.group())
                and m.group().casefold() not in current().name_words | current().name_tails
            )
            or re.fullmatch(r"GB|TB|MB|GBP|USD|EUR|INR|Rs|MP|Hz|GHz|mAh|US|UK", m.group())
            or _unit_asked(q, m)
        )
    ]
    for m in [*parts, None]:
        ok = (
            m is not None
            and claims.free(*m.span())
            and (
                (
                    run
                    and (
                        m.group().casefold() in current().name_tails
                        or m.group()[0].isdigit()
                        or _MODEL_CODE.fullmatch(m.group())  # "Core i5", "Galaxy s23": a model code in lower case
                    )
                    and q[run[-1].end() : m.start()] == " "
                )
                or (
                    (
                        m.group()[0].isupper()
                        or re.match(r"[a-z]+[A-Z]", m.group())
                        or (m.group()[0].isdigit() and run)
                        or _CODE_NAME.fullmatch(m.group())
                    )
                    and m.group() not in _Q_WORDS
                    and (not run or q[run[-1].end() : m.start()] == " ")
                )
            )
        )
        if ok and m is not None:  # (ok implies a match)
            run.append(m)
            continue
        if run:
            out.extend(_name(q, run, claims, trace))
        run = (
            [m]
            if m is not None
            and claims.free(*m.span())
            and (m.group()[0].isupper() or _CODE_NAME.fullmatch(m.group()))
            and (m.group() not in _Q_WORDS or (len(m.group()) == 1 and _RANGE_WORD.match(q, m.end())))
            else []
        )
    return out


def _after_name(before: str) -> bool:
    """Whether ``before`` ends in a capitalised word that can start a name (not "Which", "Are").

    >>> _after_name("Which Core "), _after_name("Which "), _after_name("How many ")
    (True, False, False)
    """
    last = re.search(r"([A-Z][\w-]*)\s+$", before)
    return last is not None and last.group(1) not in _Q_WORDS


def _unit_asked(q: str, m: re.Match[str]) -> bool:
    """A unit the answer is asked in ("…, in Wh?", "as GB", "to the nearest kWh", "how many more
    kWh") or ranked by ("the least kWh per year", "the most mAh") is no name."""
    if normalise_unit(m.group()) is None:
        return False
    before = q[max(0, m.start() - 40) : m.start()]
    return bool(
        re.search(r"\b(?:in|as|per|nearest|how\s+many(?:\s+more|\s+fewer)?)\s+$", before, re.I)
        or _graded_before().search(before)
    )


@functools.cache
def _graded_before(*, comparatives: bool = False) -> re.Pattern[str]:
    """A superlative (or, with ``comparatives``, also a comparative) word ending the text."""
    grades = SUPERLATIVES + (_COMPARATIVES if comparatives else [])
    return re.compile(r"\b(?:" + "|".join(f"(?:{pat})" for pat, _, _ in grades) + r")\s+$", re.I)


def _name(q: str, run: list[re.Match[str]], claims: _Claims, trace: list[str]) -> list[EntityRef]:
    a, b = run[0].start(), run[-1].end()
    phrase = q[a:b]
    if r := _RANGE_WORD.match(q, b):
        b, kind = r.end(), "range"
    elif any(ch.isdigit() for ch in phrase):
        kind = "product"
    elif current().categories.match(q, b + 1):
        kind = "brand"
    else:
        kind = "unknown"
    claims.take(a, b)
    trace.append(f"{kind} name {q[a:b]!r}")
    return [EntityRef(_span(q, a, b), q[a:b], kind)]  # type: ignore[arg-type]


def _comparative(q: str, low: str) -> tuple[str, Direction, str] | None:
    """The first comparative in ``low`` (``q`` lower-cased, numbers blanked): (word, direction, attribute)."""
    for pat, direction, implied in _COMPARATIVES:
        if m := re.search(rf"\b(?:{pat})\b", low):
            attr = (  # an attribute named after the comparative wins over what its verb implies
                attribute_near(q, m.end())
                or verb_attribute(low, m.start())
                or attribute_before(q, m.start())
                or implied
                or plain_noun_phrase(q, m.end())
            )
            if not attr and (f := re.search(r"\b(?:for|in\s+terms\s+of|on)\s+", q[m.end() :])):
                attr = attribute_near(q, m.end() + f.end())
            return m.group(), direction, attr
    return None


_GAP = re.compile(
    r"\bhow\s+(?:much|many)\s+(?:(?P<unit>[^\W\d_][\w/]*)\s+)?(?=(?:more|less|fewer|bigger|larger|smaller|"
    r"cheaper|pricier|heavier|lighter|longer|shorter|higher|lower|faster|slower)\b)"
    r"|\b(?:difference|gap)\s+(?:in|of)\s+(?P<of>[^,?]*?)\s+between\b|\b(?:difference|gap)\s+between\b"
    # the time between two products' dates: "how many years after the A did the B come out?"
    r"|\bhow\s+(?:many\s+(?P<span>years|months|weeks|days)|long)\s+"
    r"(?=(?:after|before|apart|later|earlier|between|separate|passed|elapsed)\b)",
    re.I,
)


def difference_asked(q: str) -> tuple[Direction, str] | None:
    """(direction, attribute) when ``q`` asks by how much two named products differ, else None.

    >>> difference_asked("How much more does the A cost than the B?")
    ('max', 'price')
    >>> difference_asked("How many more mAh does the A battery hold than the B's?")
    ('max', 'battery')
    >>> difference_asked("What is the difference in weight between the A and the B?"), difference_asked("Is A bigger?")
    (('max', 'weight'), None)
    """
    m = _GAP.search(q)
    if m is None:
        return None
    if m.group("span") or m.group().lower().startswith("how long"):
        return "max", DATE_ATTRIBUTES[find_event(q, m.end(), m.end())[0]]
    if m.group("of"):
        return "max", attribute_near(q, m.start("of")) or attribute_label(m.group("of"))
    low = q.lower()
    cmp = _comparative(q, low[m.end() :].rjust(len(low)))
    direction: Direction = cmp[1] if cmp else "max"
    attr = cmp[2] if cmp else ""
    if not attr and (named := current().attributes.search(q, m.end())):
        attr = attribute_label(named.group(1))  # "how many more mAh does the A battery hold"
    return direction, attr or (m.group("unit") or "")


def _blank(q: str, spans) -> str:
    low = q.lower()
    for a, b in spans:
        low = low[:a] + " " * (b - a) + low[b:]
    return low


def comparative(question: str, blocked: list[tuple[int, int]] | None = None) -> tuple[Direction, str] | None:
    """(direction, attribute) of the question's comparative, ignoring ``blocked`` spans (numbers:
    "more than 8GB" is no comparison); ``None`` when there is none. The attribute may be "".

    >>> comparative("is the nova lite cheaper than the zenith basic")
    ('min', 'price')
    >>> comparative("which of the orbit flip7 and nova lite charges faster")
    ('max', 'charging')
    >>> comparative("phones with more than 8GB RAM", [(12, 26)]) is None
    True
    """
    cmp = _comparative(question, _blank(question, blocked or []))
    return (cmp[1], cmp[2]) if cmp else None


def comparative_read(question: str, blocked: list[tuple[int, int]] | None = None) -> tuple[str, Direction, str] | None:
    """(word, direction, attribute) of :func:`comparative`, with the comparative word as read ("newer")."""
    return _comparative(question, _blank(question, blocked or []))


def _unit_counted(q: str, a: int, b: int) -> bool:
    """Whether the word after "how many" (``q[a:b]``) is a unit ("how many grams"), not a name or a
    thing counted ("How many Pixel phones": a capitalised name before a category word)."""
    word = q[a:b]
    if not unit_word(word) or re.fullmatch(r"[A-Z][a-z]+", word):
        return False
    # a currency code the catalog does not price in is a name ("How many AMD cards": AMD, not the
    # Armenian dram); "how many rupees" stays a measure where the catalog prices in rupees
    code = currencies.lookup(word)
    if code is not None and word.isupper() and code not in currencies.hint():
        return False
    nxt = re.match(r"\s+([^\W\d_]+)", q[b:])
    return not (nxt and current().categories.fullmatch(nxt.group(1)))


@functools.cache
def _total_words() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words_alternation('total_words')})\b")


def attribute_said(q: str, said: list) -> str:
    """An attribute of the catalog said anywhere outside the names and numbers ``said``, a plural
    or a verb in -s read as its stem ("the screens", "which boosts higher"), else ""."""
    blank = _blank(q, [(c.span.start, c.span.end) for c in said])  # "Mark II" names no attribute
    m = current().attributes.search(re.sub(r"\b(\w{3,}?)s\b", r"\1", blank))
    return attribute_label(m.group(1)) if m else ""


def _mean_asked(q: str, low: str, said: list, trace: list[str]) -> Intent | None:
    """An average ("the average weight") or a sum ("what do they weigh together") of a measure; the
    measure is named after the word that asks, elsewhere outside the names and numbers ``said``, or
    by a verb of measure."""
    if (spread := _spread_asked(q, low, trace)) is not None:
        return spread
    total = _total_words().search(low)
    avg = re.search(r"\b(?:average|mean|avg|median)\b", low)
    if avg and re.search(r"\b(?:than\s+(?:the\s+|an\s+)?|above[\s-]+|below[\s-]+)$", low[: avg.start()]):
        avg = None  # "deeper than the average bookcase": a reference, not the answer
    if not (avg := avg or total):
        return None
    attr = attribute_near(q, avg.end()) or attribute_said(q, said)  # "On average, how large are the screens …"
    if not attr and (how := re.search(r"\bhow\s+([a-z]+)\b", low)):  # "On average, how heavy are …"
        attr = how_adjectives().get(how.group(1), "")
    blank = _blank(q, [(c.span.start, c.span.end) for c in said])
    if not attr:  # "how much do they weigh together": the verb names the measure
        attr = next((a for pat, a in VERB_ATTRS if a != "price" and re.search(rf"\b(?:{pat})\b", blank)), "")
    if not attr and (cmp := _comparative(q, blank)) is not None:
        attr = cmp[2]  # "Are Leica cameras heavier on average than Sony's?": the weight
    if not attr:  # "the higher average megapixel count": words the catalog does not name, read by meaning
        attr = plain_noun_phrase(q, avg.end())
    sup = pick(q, low)  # "which brand's units are tallest on average": the order, and what it measures
    if sup is not None and sup.attribute and (not attr or attr.casefold() in _grouping_words()):
        attr = sup.attribute
    median = avg.group() == "median"
    trace.append(f"intent {'sum' if avg is total else 'median' if median else 'average'} of {attr or '?'}")
    return Intent(
        "average", attr, sup.direction if sup else None, total=avg is total, statistic="median" if median else "mean"
    )


_SPREAD = re.compile(r"\b(?:how\s+(?:many|much)|difference|gap|range|spread|separates?|exceeds?|apart)\b")


def _spread_asked(q: str, low: str, trace: list[str]) -> Intent | None:
    """The spread of a measure, when a question asks how far apart its two ends are ("How many cm
    separate the widest and the narrowest unit?", "the difference between the most and least expensive")."""
    if not _SPREAD.search(low) or (ends := extremes(q, low)) is None or not ends.attribute:
        return None
    trace.append(f"intent spread of {ends.attribute}: the largest less the smallest")
    return Intent("average", ends.attribute, statistic="spread")


@functools.cache
def _grouping_words() -> frozenset[str]:
    """Words for a grouping of products ("brand", "range", "type"): no measure to average."""
    return general_words("brand_words") | general_words("range_words") | general_words("section_words")


_SHARE = re.compile(r"\b(?:what|which)\s+(?:share|proportion|percentage|fraction|percent|%)\s+of\b")
_COUNTED = re.compile(
    # "count" the verb or the count of things, not a measure named "count" ("the highest MP count")
    r"\bhow\s+many\b(?:\s+more\b)?\s*([^\W\d_][\w/]*)?|\bnumber\s+of\b|^\W*count\b|\bcount\s+(?:of|the|all|every)\b"
)


def _count_asked(q: str, low: str, names: int, trace: list[str]) -> bool:
    """Whether the question asks how many products there are (``names``: how many it names)."""
    counted = _COUNTED.search(low)
    if counted and counted.group(1) and _unit_counted(q, counted.start(1), counted.end(1)):
        # "How many grams does X weigh?", "how many mAh": a measure in that unit, not a count of products
        trace.append(f"'how many {counted.group(1)}': a measure in {counted.group(1)}, not a count")
    elif counted and names >= 2 and re.match(r"how\s+many\s+(?:more|fewer|less)\b", counted.group()):
        trace.append("'how many more' of one named product than another: a gap, not a count")
    elif counted:
        trace.append("intent count")
        return True
    return False


_YES_OR_NO = re.compile(r"\byes\s*(?:or|/)\s*no\b", re.I)


def _intent(q: str, entities: list[EntityRef], numerics: list[NumericConstraint], trace: list[str]) -> Intent:
    # "at least 8GB" is no superlative, "more than 120Hz" no comparison
    low = _blank(q, [(n.span.start, n.span.end) for n in numerics])
    names = [e for e in entities if e.kind in ("product", "range", "phrase", "unknown") and not e.negated]
    # newest/oldest/"came out first": an ordering by date; "newer than X" with one name is a relative condition
    ts = time_superlative(q)
    if ts is not None and len(names) < 2 and re.match(r"\s+than\b", q[ts.span.end :]):
        ts = None
    if _SHARE.search(low):
        trace.append("intent count, as a share of the subject's products")
        return Intent("count", share=True)
    if _count_asked(q, low, len(names), trace):
        return Intent("count")
    if re.search(
        r"\btell\s+me\s+(?:more\s+)?about\b|\bdescribe\b|\b(?:specs|specifications|details|features|"
        r"overview)\s+(?:of|for|on)\b|\bwhat\s+(?:are|is)\s+the\s+specs?\b",
        low,
    ):
        trace.append("intent describe")
        return Intent("describe")
    if (mean := _mean_asked(q, low, [*numerics, *names], trace)) is not None:
        return mean
    cmp = _comparative(q, low)
    if len(names) >= 2 and (gap := difference_asked(q)) is not None:
        trace.append(f"intent difference: by how much, {gap[0]} {gap[1] or '?'}")
        return Intent("compare", gap[1], gap[0], difference=True)
    if ts is not None and len(names) >= 2 and (cmp is None or not cmp[2]):
        trace.append(f"intent compare by date: {ts.span.text!r} -> {ts.direction} {ts.event or 'any date'}")
        return Intent("compare", DATE_ATTRIBUTES[ts.event], ts.direction)
    if cmp and (len(names) >= 2 or re.search(r"\b(?:vs\.?|versus|compare)\b", low)):
        word, direction, attr = cmp
        if not attr:  # "Which boosts higher, A or B?": a word of the catalog's attributes, said as a verb
            attr = attribute_said(q, [*numerics, *names])
        trace.append(f"intent compare: {word!r} -> {direction} {attr or '?'}")
        return Intent("compare", attr, direction, word=word)
    if len(names) >= 2 and re.search(r"\b(?:vs\.?|versus|compare|or|which)\b", low):
        f = re.search(r"\b(?:for|on|in\s+terms\s+of|by)\s+", q)
        attr = attribute_near(q, f.end()) if f else ""
        trace.append(f"intent compare: two names, attribute {attr or '?'}")
        return Intent("compare", attr)
    if sup := pick(q, low):
        k = 1
        if (km := re.search(r"\b(?:top|best|first)\s+(\d+|two|three|four|five|six|seven|eight|nine|ten)\b", low)) or (
            km := re.search(rf"\b(\d+|two|three|four|five|ten)\s+{re.escape(sup.word)}\b", low)
        ):
            k = int(km.group(1)) if km.group(1).isdigit() else _NUMBER_WORDS[km.group(1)]
        if ts is not None and (not sup.attribute or (sup.start < ts.span.end and ts.span.start < sup.end)):
            trace.append(
                f"intent superlative by date: {ts.span.text!r} -> {ts.direction} {ts.event or 'any date'} k={k}"
            )
            return Intent("superlative", DATE_ATTRIBUTES[ts.event], ts.direction, k)
        then = tie_break(q, low, sup)
        trace.append(
            f"intent superlative: {sup.word!r} -> {sup.direction} {sup.attribute or '?'} k={k}"
            + (f"; ties broken by {then[0]} {then[1]}" if then else "")
        )
        return Intent(
            "superlative",
            sup.attribute,
            sup.direction,
            k,
            then_attribute=then[1] if then else "",
            then_direction=then[0] if then else None,
            word=sup.word,
        )
    if ts is not None:  # "which phone came out first", "announced last": no superlative word of its own
        trace.append(f"intent superlative by date: {ts.span.text!r} -> {ts.direction} {ts.event or 'any date'}")
        return Intent("superlative", DATE_ATTRIBUTES[ts.event], ts.direction)
    if re.match(r"\s*(?:does|do|is|are|can|has|have|will|did|would|could)\b", low) and not re.match(
        r"\s*(?:is|are)\s+there\b", low
    ):
        trace.append("intent yesno")
        return Intent("yesno")
    if _YES_OR_NO.search(low):  # "Is there any camera over 2 lb …? Yes or no."
        trace.append("intent yesno: a yes or a no asked for")
        return Intent("yesno")
    trace.append("intent list")
    return Intent("list")


def parse_question(
    question: str, *, currency: str | None = None, vocabulary: QuestionVocabulary | None = None
) -> ParsedQuestion:
    """Intent, entities and constraints of ``question``; bare prices take ``currency``; the catalog's
    words come from ``vocabulary`` (default: the one :func:`~dualgraph.lexicon.vocabulary.use` set).

    >>> p = parse_question("Does the Zephyr X2 Pro support 5G?")
    >>> p.intent.kind, p.entities[0].phrase, p.constraints[0].phrase
    ('yesno', 'Zephyr X2 Pro', '5G')
    >>> p = parse_question("phones under 20k with 4G only", currency="INR")
    >>> [(c.op, c.value, c.unit) for c in p.constraints[:1]], p.constraints[1].only
    ([('<', 20000.0, 'INR')], True)
    """
    with use((vocabulary or current()).for_question(question)):
        return _parse(calm(question), currency)


_SHOUTED = re.compile(r"\b[A-Z]{2,}(?:['’][A-Z]{1,2})?\b")
_NOT_SHOUTED = frozenset({"it", "us", "am", "as", "in", "on", "at", "an"})  # "IT", "US", "AM", "IN": names too


@functools.cache
def _calm_words() -> frozenset[str]:
    return (general_words("function_words") | general_words("negation_words")) - _NOT_SHOUTED


def calm(question: str) -> str:
    """``question`` with the grammar words shouted in capitals written plainly ("which DON'T support
    SLI", "NOT supporting ECC"): emphasis, not a name. Same length, so every span stays put.

    >>> calm("Nvidia cards that DON'T support SLI, NOT AMD")
    "Nvidia cards that don't support SLI, not AMD"
    """
    return _SHOUTED.sub(
        lambda m: m.group().lower() if m.group().lower().replace("’", "'") in _calm_words() else m.group(), question
    )


_LAST_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?!.*\d)", re.S)


def _whole_unit(q: str, c: NumericConstraint, trace: list[str]) -> NumericConstraint:
    """``c`` with the unit a multi-word spelling names ("20 cubic feet", "400 kWh a year", "16 fl oz"),
    where the number reader took one word ("cubic": none; "kWh": energy) or none."""
    if c.dimension in ("currency", "count") or (m := _LAST_NUMBER.search(q, c.span.start, c.span.end)) is None:
        return c
    found = unit_at(q, m.end())
    written = q[m.end() : c.span.end].strip(" -")
    # longer than what was read, and a word more (not "20 in stock") or the rest of a glued unit ("ft" of "ft3")
    if found is None or found[1] <= c.span.end or not (written or " " in q[m.end() : found[1]].strip()):
        return c
    symbol, end = found
    canon, dim, factor = normalise_unit(symbol) or (None, None, 0.0)
    old = normalise_unit(written) if written else None
    if canon is None or dim == "currency" or convert(0, symbol, canon) != 0 or (written and old is None):
        return c
    scale = factor / (old[2] if old else 1.0)  # the number as written, in the new unit's canonical one
    value, high = c.value * scale, (c.high * scale if c.high is not None else None)
    trace.append(f"numeric {c.span.text!r}: the unit is {q[m.end() : end].strip()!r} ({symbol}) → {value} {canon}")
    span = Span(c.span.start, end, q[c.span.start : end])
    return NumericConstraint(span, c.op, value, high, canon, dim, c.attribute)


def _parse(q: str, currency: str | None) -> ParsedQuestion:
    trace: list[str] = []
    claims = _Claims()
    dates = find_dates(q)  # first: "in March 2024" is no name, the "2023" of "since 2023" no price
    for d in dates:
        claims.take(d.span.start, d.span.end)
        if d.event_span is not None:  # "went on sale in 2019" is a release, not a price cut
            claims.take(d.event_span.start, d.event_span.end)
    for a, b in answer_unit_spans(q):  # "…, in GHz?": how the answer is given, not a condition
        claims.take(a, b)
    features = _features(q, claims, [])
    values = _values(q, claims, trace)
    numerics, used = find_numeric(q, currency=currency, blocked=list(claims.spans), trace=trace)
    numerics = [_whole_unit(q, n, trace) for n in numerics]
    vers = versions(q, features, trace)
    features = [f for f in features if not any(n.span.start <= f.span.start < n.span.end for n in vers)]
    numerics = sorted(numerics + vers, key=lambda n: n.span.start)
    # A feature word that names what a number measures ("15W wireless charging") is the attribute.
    features = [f for f in features if not any(a < f.span.end and f.span.start < b for a, b in used)]
    features = measured_by(q, numerics, features, trace)
    features = cut_measured(q, numerics, features, trace)
    claims.spans = [(f.span.start, f.span.end) for f in features] + [(n.span.start, n.span.end) for n in numerics]
    claims.spans += used + [(v.span.start, v.span.end) for v in values] + [(d.span.start, d.span.end) for d in dates]
    trace.extend(
        f"date {d.span.text!r}: {d.op} {d.start}..{d.end}" + (f" ({d.event})" if d.event else "") for d in dates
    )
    trace.extend(
        f"feature {f.phrase!r}" + (" negated" if f.negated else "") + (" only" if f.only else "") for f in features
    )
    entities = excluded_names(q, _entities(q, claims, trace), trace)
    features = _conjuncts(q, features + _with_phrases(q, claims, trace), trace)
    intent = _intent(q, entities, numerics, trace)
    features = _not_the_ranked(q, intent, features, trace)
    constraints: list[Constraint] = [*numerics, *features, *values, *dates]
    constraints.sort(key=lambda c: c.span.start)
    return ParsedQuestion(q, intent, entities, constraints, trace)
