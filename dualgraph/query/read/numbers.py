"""Numeric clauses of a shopper's question: "under ₹20k", "at least 8GB of RAM", "between 300 and 400".

Numbers and units go through :mod:`dualgraph.skg.quantities`, so a question's numbers land in
the same canonical units the graph stores ("1TB" is 1000 GB, "6.7-inch" is 170.18 mm).

Conventions (documented decisions):

* "under/below/less than N" → ``<``; "over/more than/above/exceeding N" → ``>``;
  "at least N", "N or more", "N+", "minimum N" → ``>=``; "at most/up to/no more than N",
  "N or less", "maximum N" → ``<=``; "between A and B", "from A to B", "A-B" → ``between``
  (inclusive).
* A number with a unit but no comparator ("50MP camera", "1TB storage option") is ``=``.
  A bare number with no comparator and no unit ("iPhone 17", "Android 15") is no constraint.
* "k"/"thousand" ×1e3, "lakh"/"lac" ×1e5, "crore" ×1e7, "million" ×1e6. An amount with a
  lakh/crore multiplier, or a bare "20k" that nothing else names, is a price.
* A currency word or symbol makes the unit an ISO code; "pounds" is money, not mass.
* The attribute is the nearest attribute word after the number (up to three words, within the
  clause), else the last one before it in the clause; price words ("cost", "budget",
  "cheaper") name the price, and a currency amount with no attribute is the price.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

import yaml

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.read.model import NumericConstraint, Span
from dualgraph.skg import currencies
from dualgraph.skg.quantities import convert, normalise_unit, parse_quantity, unit_at

__all__ = ["PRICE_WORDS", "attribute_label", "find_numeric", "inverse_dimensions", "spoken_unit", "unit_word"]

PRICE_WORDS = frozenset(
    {
        "price",
        "cost",
        "costs",
        "costing",
        "priced",
        "budget",
        "spend",
        "pay",
        "cheaper",
        "pricier",
        "costlier",
        "cheap",
        "expensive",
    }
)

_MULT = {
    "k": 1e3,
    "thousand": 1e3,
    "lakh": 1e5,
    "lakhs": 1e5,
    "lac": 1e5,
    "lacs": 1e5,
    "crore": 1e7,
    "crores": 1e7,
    "cr": 1e7,
    "million": 1e6,
    "mn": 1e6,
    "grand": 1e3,  # general English for a thousand of money ("two grand"): a multiplier, so a price
}
_NOT_UNITS = frozenset({"in", "a", "an", "at", "to", "or", "and", "of", "on", "is", "A"})
# spoken units of questions, never of spec sheets (so kept here, not in units.yaml)
_SPOKEN_UNITS = {"gig": "GB", "gigs": "GB", "megs": "MB", "kilos": "kg", "kilo": "kg", "tera": "TB", "teras": "TB"}


@functools.cache
def _mention_re() -> re.Pattern[str]:
    """A number, with a currency sign or code before it ("SR 2,000", "SAR 1500", "₹20k") and a multiplier.

    Comma groups end in three digits ("12,499", Indian "1,72,999"); a comma before one or two
    digits that end the number is a decimal comma ("6,3 kg", "49,90 €"), as no locale groups so.
    Groups of three after a space ("10 000 dollars", "$10 000") are thousands in an amount of money
    ("iPhone 15 128 GB" is two numbers); groups after a dot ("2.000 dollars", "1.200,50 €") are read as thousands for an
    amount of money only (see :func:`_grouped`): a measurement may have three decimals."""
    table = currencies.table()
    signs = "|".join(re.escape(s) for s in sorted(table.symbols | table.codes, key=lambda s: (-len(s), s)))
    spelled = "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in sorted(table.spellings(), key=lambda s: -len(s)))
    return re.compile(
        rf"(?:(?<![\w])(?P<pre>{signs}))?\s*(?P<num>\d{{1,3}}(?:,\d{{2}})*(?:,\d{{3}})+(?:\.\d+)?"
        rf"|\d{{1,3}}(?:[ \u00a0\u202f]\d{{3}})+(?![\d.,])(?(pre)|(?=\s*(?:{spelled})(?![\w])))"
        r"|[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.,])"
        r"|\d+,\d{1,2}(?![\d,])|\d+(?:\.\d+)?)"
        r"(?:\s*(?P<mult>thousand|lakhs?|lacs?|crores?|million|mn|grand)\b|(?P<k>[kK])(?![\w]))?"
        r"(?P<plus1>\+)?",
        re.I,
    )


_DECIMAL_COMMA = re.compile(r"\d+,\d{1,2}")
_DOT_GROUPS = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?")


def _grouped(raw: str, *, money: bool) -> float:
    """The value of a number as written with its locale's grouping (see :func:`_mention_re`).

    >>> _grouped("12,499", money=False), _grouped("6,3", money=False), _grouped("10 000", money=False)
    (12499.0, 6.3, 10000.0)
    >>> _grouped("2.000", money=True), _grouped("1.200,50", money=True), _grouped("2.000", money=False)
    (2000.0, 1200.5, 2.0)
    """
    raw = re.sub(r"[ \u00a0\u202f]", "", raw)
    if _DOT_GROUPS.fullmatch(raw) and (money or "," in raw):
        return float(raw.replace(".", "").replace(",", "."))
    if _DECIMAL_COMMA.fullmatch(raw):
        return float(raw.replace(",", "."))
    return float(raw.replace(",", ""))


@functools.cache
def _currency_after() -> re.Pattern[str]:
    """Any spelling of a currency right after a number ("500 riyals", "2k SAR", "300 Saudi riyals")."""
    spellings = currencies.table().spellings()
    alts = "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in spellings)
    return re.compile(rf"\s*(?P<cur>{alts})(?![\w])", re.I)


_UNIT_AFTER = re.compile(r"(?:\s*-\s*|\s*)(?P<unit>\"|[^\W\d_][^\W\d_/²]*(?:/[a-z]+)?|%|°[CF])", re.I)
_CUE_WORDS = frozenset(
    {
        "under",
        "over",
        "above",
        "below",
        "between",
        "from",
        "at",
        "up",
        "to",
        "exactly",
        "max",
        "min",
        "maximum",
        "minimum",
        "within",
        "beneath",
        "sub",
        "than",
        "of",
        "with",
    }
)
# "8K video": a K that qualifies an image counts pixel columns; elsewhere ("under 20K") a thousand
_K_IMAGE = re.compile(r"\s*(?:video|recording|resolution|picture|image|imaging|footage|streaming|content)\b", re.I)

_BEFORE = [  # (pattern ending right before the number, op); the longest phrases first
    (
        r"(?:greater|more|higher|bigger|larger|heavier)\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+(?:greater|more)\s+than"
        r"|>=|≥",
        ">=",
    ),
    (
        r"(?:less|fewer|lower|smaller|lighter|cheaper)\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+(?:less|lower)\s+than"
        r"|<=|≤",
        "<=",
    ),
    (r"(?<![<>=])(?:<)", "<"),
    (r"(?<![<>=])(?:>)", ">"),
    (r"(?:no|not)\s+(?:more|greater|higher|bigger|larger|heavier)\s+than|not\s+exceeding", "<="),
    (r"(?:no|not)\s+(?:less|fewer|lower|smaller|lighter)\s+than", ">="),
    (r"at\s+least|minimum(?:\s+of)?|min\.?|starting\s+(?:at|from)|upwards\s+of", ">="),
    (r"at\s+most|up\s*to|maximum(?:\s+of)?|max\.?|within|tops", "<="),
    (
        r"under|below|beneath|less\s+than|fewer\s+than|lower\s+than|smaller\s+than|cheaper\s+than|lighter\s+than"
        r"|thinner\s+than|sub",
        "<",
    ),
    (
        r"over|above|more\s+than|greater\s+than|higher\s+than|bigger\s+than|larger\s+than|exceeding|beyond"
        r"|in\s+excess\s+of|pricier\s+than|costlier\s+than|heavier\s+than|faster\s+than|longer\s+than",
        ">",
    ),
    (r"exactly|precisely|of|with|equal\s+to", "="),
]


@functools.cache
def comparatives() -> dict[str, tuple[str, str | None]]:
    """``comparatives.yaml``: each comparative adjective → (``>`` or ``<``, the measure it names or None)."""
    raw = yaml.safe_load(resources.files("dualgraph.query.read").joinpath("comparatives.yaml").read_text("utf-8"))
    return {w: (op, noun) for key, op in (("more", ">"), ("less", "<")) for w, noun in raw[key].items()}


def _comparative_cues() -> list[tuple[str, str]]:
    """ "taller than", "no wider than", "narrower than or equal to" for every comparative of the table."""
    words = comparatives()
    alt = {op: "|".join(sorted((w for w, (o, _) in words.items() if o == op), key=len, reverse=True)) for op in "<>"}
    return [
        (rf"(?:no|not)\s+(?:{alt['>']})\s+than", "<="),
        (rf"(?:no|not)\s+(?:{alt['<']})\s+than", ">="),
        (rf"(?:{alt['>']})\s+than", ">"),
        (rf"(?:{alt['<']})\s+than", "<"),
    ]


# the table's comparatives after the fixed cues ("no more than" must not read as "more than")
_BEFORE = _BEFORE[:-1] + _comparative_cues() + _BEFORE[-1:]
# an article may sit between the cue and the number: "at least a 4500 mAh cell", "under a 100 W charger"
_BEFORE_RE = [(re.compile(rf"(?<![\w])(?:{p})(?:\s+(?:an?|the)(?=\s))?\s*$", re.I), op) for p, op in _BEFORE]
_AFTER_RE = [
    (
        re.compile(
            r"\s*(?:or|and)\s+(?:more|higher|above|greater|larger|bigger|over|up|better|faster|longer)\b"
            r"|(?-i:\s*plus)\b|\s*(?:minimum|min\.?|at\s+least)(?![\w])",
            re.I,
        ),
        ">=",
    ),
    (
        re.compile(
            r"\s*(?:or|and)\s+(?:less|fewer|lower|below|smaller|under|down|cheaper|lighter|thinner)\b"
            r"|\s*(?:maximum|max\.?|at\s+most|tops)(?![\w])",
            re.I,
        ),
        "<=",
    ),
]
_CLAUSE_STOP = re.compile(
    r"[,;?!:()]|\b(?:and|with|without|that|which|but|or|while|having|for|in|from|under|over"
    r"|than|who|where|by|at|on|to)\b",
    re.I,
)


@dataclass
class _Mention:
    start: int
    end: int
    value: float  # the number times its multiplier, in the unit as written
    unit: str | None  # the unit as written (a currency as its ISO code)
    mult: bool
    plus: bool


def _k_qualifies(q: str, end: int) -> bool:
    """Whether the word after "8K" is an image word or a catalog term ("8K TV", "4K display")."""
    if _K_IMAGE.match(q, end):
        return True
    nxt = re.match(r"\s*([\w-]+)", q[end:])
    if nxt is None:
        return False
    word, v = nxt.group(1), current()
    return bool(v.categories.fullmatch(word) or v.attributes.fullmatch(word) or word.casefold() in v.feature_words)


def _currency(text: str) -> str | None:
    """The ISO code ``text`` names: ambiguous spellings ("$", "riyals", "SR") read as the catalog's own
    price currencies (the compiler's :func:`~dualgraph.skg.currencies.hinted`), else their default."""
    return currencies.lookup(text)


def _other_unit(word: str) -> bool:
    """Whether a currency word is the wrong reading here: it also names a unit ("pounds" of mass) and
    the catalog prices nothing, or prices in none of the currencies the word may name."""
    known = normalise_unit(word)
    if known is None or known[1] == "currency":
        return False
    hint = currencies.hint()
    return currencies.prices_nothing() or (bool(hint) and not (currencies.table().candidates(word) & hint))


_FRACTION = re.compile(r"(?<![\w./,])(\d{1,3})/(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\d/,])")


def _fractions(q: str, blocked: list[tuple[int, int]]) -> list[_Mention]:
    """Proper fractions right before a measured unit ("1/4000 s", '1/2.3"'): one number each."""
    out = []
    for m in _FRACTION.finditer(q):
        num, den = float(m.group(1)), float(m.group(2).replace(",", ""))
        u = _UNIT_AFTER.match(q, m.end())
        measured = bool(u and _unit_ok(q, u, False) and normalise_unit(u.group("unit")) is not None)
        if u and measured and 0 < num < den and not any(a < u.end() and m.start() < b for a, b in blocked):
            out.append(_Mention(m.start(), u.end(), num / den, u.group("unit"), False, False))
    return out


def _mentions(q: str, blocked: list[tuple[int, int]]) -> list[_Mention]:
    out = _fractions(q, blocked) if "/" in q else []
    blocked = blocked + [(x.start, x.end) for x in out]
    for m in _mention_re().finditer(q):
        start, end = m.start("num"), m.end()
        if any(a < end and start < b for a, b in blocked):
            continue
        unit = _currency(m.group("pre")) if m.group("pre") else None
        if not unit and start and re.match(r"[\w.,]", q[start - 1]):
            continue  # inside a name or a number: "S25", "v2.1"
        if not unit and re.search(r"(?<![\w-])[^\W\d_][\w]*-$", q[:start]):
            continue  # the number of a model code after its letters and a hyphen: "i7-6900K", "E5-2699"
        if unit:
            start = m.start("pre")
        value = _grouped(m.group("num"), money=bool(unit) or bool(_currency_after().match(q, end)))
        k_token = m.group("k")
        if k_token:
            if k_token == "K" and not unit and _k_qualifies(q, end):
                continue  # "8K video" is a feature, not 8000
            if value >= 1000 and not unit:
                continue  # "6900K", "4790K": a model code; thousands are said "6.9 million", not "6900k"
            value *= 1e3
        elif m.group("mult"):
            value *= _MULT[m.group("mult").lower()]
        mult = bool(k_token or m.group("mult"))
        plus = bool(m.group("plus1"))
        if (
            unit is None
            and (c := _currency_after().match(q, end))
            and not _other_unit(c.group("cur"))
            and (code := _currency(c.group("cur")))
        ):
            unit, end = code, c.end()
        elif unit is None and (long := _long_unit(q, end)) is not None:
            unit, end = long
        elif unit is None and (u := _UNIT_AFTER.match(q, end)) and _unit_ok(q, u, mult):
            unit, end = _SPOKEN_UNITS.get(u.group("unit").lower(), u.group("unit")), u.end()
        elif unit is None and not mult and re.match(r"[^\W\d_]", q[end : end + 1]):
            continue  # glued to letters that are no unit: "5G", "S25", "2X"
        if (
            unit is None
            and not mult
            and (w := re.search(r"(?<![\w-])([A-Z][\w-]*)\s+$", q[:start]))
            and w.group(1).lower() not in _CUE_WORDS
        ):
            continue  # a model or version number: "Aero 5", "Android 15"
        if unit in ("x", "X") and value >= 1000 and not mult:
            continue  # "7820X": a model code, no ratio of thousands
        if not plus and q.startswith("+", end):
            plus, end = True, end + 1
        if out and start < out[-1].end:
            continue  # inside the unit just read: the "Ft 3" of "36 ft3" is no price in forints
        out.append(_Mention(start, end, value, unit, mult, plus))
    return sorted(out, key=lambda x: x.start)


def _long_unit(q: str, end: int) -> tuple[str, int] | None:
    """A unit of several words, or glued to a digit, right after a number ("36 cubic feet", "20 cu ft",
    "400 kWh a year", "36 ft3"), which the one-word reader would cut short: (its symbol, its end)."""
    found = unit_at(q, end)
    if found is None:
        return None
    symbol, stop = found
    text = q[end:stop].strip(" -")
    if " " not in text and not any(ch.isdigit() for ch in text):
        return None  # one plain word: the one-word reader's, which knows "20 in stock" is no length
    known = normalise_unit(symbol)
    return None if known is None or known[1] == "currency" else (symbol, stop)


def _inch_noun(q: str, at: int) -> bool:
    """Whether the word after "6.5 in" is what inches measure: a size word or one of the catalog's
    categories or attributes ("a 6.5 in screen", "55 in TVs"), not the start of a phrase ("in stock")."""
    m = re.match(r"\.?\s+([\w-]+)", q[at:])
    if m is None:
        return False
    word, v = m.group(1), current()
    return bool(
        re.fullmatch(r"(?i)size|diagonal", word) or v.product_nouns.fullmatch(word) or v.attributes.fullmatch(word)
    )


def _unit_ok(q: str, u: re.Match[str], mult: bool) -> bool:
    """Whether the word after a number is its unit. "in" is a preposition, except before a word of what
    inches measure ("a 6.5 in screen"); after a multiplier only a measured unit ("6k mAh"), never money."""
    known = normalise_unit(_SPOKEN_UNITS.get(u.group("unit").lower(), u.group("unit")))
    if known is None or (mult and known[1] == "currency"):
        return False
    if u.group("unit") in _NOT_UNITS:
        return u.group("unit") == "in" and _inch_noun(q, u.end())
    return True


def _canonical(value: float, unit: str | None) -> tuple[float, str | None, str | None]:
    if unit is None:
        return value, None, None
    canon, dim, _ = normalise_unit(unit) or (unit, None, 1.0)
    if dim == "currency":
        return value, canon, "currency"
    return convert(value, unit, canon) if canon else value, canon, dim


def attribute_label(word: str) -> str:
    """The attribute as recorded: price words become "price", acronyms stay upper-case."""
    w = re.sub(r"[\s-]+", " ", word.strip())
    if w.lower() in PRICE_WORDS:
        return "price"
    return w if w.isupper() else w.lower()


def _free(m: re.Match[str] | None, used: list[tuple[int, int]]) -> re.Match[str] | None:
    """``m`` unless another number used it or it modifies a category word ("wall mounts", "camera
    phones": the kind of product, not what the number measures)."""
    if m is None or m.span(1) in used:
        return None
    nxt = re.match(r"[\s-]+([^\W\d_]+)", m.string[m.end(1) :])
    return None if nxt and current().categories.fullmatch(nxt.group(1)) else m


def _measures_something_else(unit: str | None) -> bool:
    """Whether ``unit`` is a known non-currency unit (mAh, GB, inch …)."""
    if not unit:
        return False
    known = normalise_unit(unit)
    return known is not None and known[1] != "currency"


_OF_NOUN = re.compile(r"\s+of\s+(?:the\s+|its\s+)?([a-z][a-z-]{2,})\b")


def _attribute_after(q: str, pos: int, used: list[tuple[int, int]]) -> re.Match[str] | None:
    # "256 GB of storage": what a measure is "of" names its attribute, known to the catalog or not
    of = _OF_NOUN.match(q, pos)
    if of and of.group(1) not in general_words("function_words") and not current().product_nouns.fullmatch(of.group(1)):
        return _free(of, used)
    window = q[pos : pos + 40]
    window = re.sub(r"^\s*(?:of\s+)?(?:the\s+)?", lambda m: " " * len(m.group()), window, flags=re.I)
    stop = _CLAUSE_STOP.search(window)
    window = window[: stop.start()] if stop else window
    m = current().attributes.search(window)
    if m and len(window[: m.start()].split()) <= 2:
        return _free(current().attributes.search(q, pos + m.start()), used)
    return None


def _attribute_before(q: str, lo: int, pos: int, used: list[tuple[int, int]]) -> re.Match[str] | None:
    text = q[lo:pos]
    cut = 0
    for s in re.finditer(r"[,;?!:]|\b(?:and|with|without|that|which|but|or|while|having)\b", text, re.I):
        cut = s.end()
    found = None
    for m in current().attributes.finditer(q, lo + cut, pos):
        found = _free(m, used) or found
    return found


def _names_the_number(q: str, attr_m: re.Match[str] | None, start: int, end: int) -> bool:
    """Whether the attribute ``attr_m`` stands right before a bare number (nothing but "of", ":", "="
    or "is" between) and no word is glued to the number: "crop factor 1", "a crop factor of 1",
    not "crop factor for 2 people" nor "5G".

    >>> q = "cameras with a crop factor of 1"
    >>> _names_the_number(q, re.search(r"(crop factor)", q), 30, 31)
    True
    >>> q = "crop factor for 2 people"
    >>> _names_the_number(q, re.search(r"(crop factor)", q), 16, 17)
    False
    """
    if attr_m is None or attr_m.end(1) > start or re.match(r"[^\W\d_-]", q[end : end + 1]):
        return False
    return re.fullmatch(r"\s*(?:(?:of|is|:|=)\s*)?", q[attr_m.end(1) : start], re.I) is not None


def _attribute_of(q: str, lo: int, pos: int, used: list[tuple[int, int]]) -> re.Match[str] | None:
    """An attribute word right before "of"/":" and the number ("a screen of 10 inches", "RAM: 8GB").

    >>> _attribute_of("tablets with a screen of 10 inches", 0, 25, []).group(1)
    'screen'
    >>> _attribute_of("phones with a selfie camera of 32 MP", 0, 31, []).group(1)
    'selfie camera'
    """
    m = re.search(
        r"(\S+)\s*(?:\bof|:)\s*(?:(?:a|an|the|about|around|roughly|approximately|up\s+to|at\s+least|"
        r"at\s+most|over|under|more\s+than|less\s+than)\s+)*$",
        q[lo:pos],
        re.I,
    )
    if not m:
        return None
    at, end = lo + m.start(1), lo + m.end(1)
    # the longest attribute ending at that word: "a selfie camera of 32 MP" is the selfie camera
    for w in list(re.finditer(r"\S+", q[max(lo, at - 30) : at]))[-2:]:
        a = current().attributes.match(q, max(lo, at - 30) + w.start())
        if a and a.end() == end:
            return _free(a, used)
    a = current().attributes.match(q, at)
    if a and a.end() == end:
        return _free(a, used)
    # "a refresh rate of 120 Hz" in a catalog that never says "refresh rate": the plain words before
    # "of" are what the number measures (grounding reads them by meaning and by the unit)
    plain = re.search(r"(?:\b(?:a|an|the|its|their)\s+)((?:[a-z][a-z-]+\s+){0,2}[a-z][a-z-]+)$", q[lo:end])
    if plain is None or any(w in general_words("function_words") for w in plain.group(1).split()):
        return None
    if current().product_nouns.search(plain.group(1)):
        return None
    return _free(re.compile("(" + re.escape(plain.group(1)) + ")").match(q, lo + plain.start(1)), used)


def find_numeric(
    q: str, *, currency: str | None, blocked: list[tuple[int, int]], trace: list[str]
) -> tuple[list[NumericConstraint], list[tuple[int, int]]]:
    """Numeric constraints of question ``q`` (numbers in digits or in words: "more than four cores",
    "under two pounds", "half a kilo") and the spans of the attribute words they used.

    >>> cs, _ = find_numeric("laptops with more than four cores", currency=None, blocked=[], trace=[])
    >>> [(c.op, c.value, c.span.text) for c in cs]
    [('>', 4.0, 'more than four')]
    """
    text, spelled = spelled_numbers(q)
    out, used = _find_numeric(text, currency=currency, blocked=blocked, trace=trace)
    if spelled:
        for c in out:  # the spans cover the words as the question wrote them
            start, end = c.span.start, c.span.end
            for a, b in spelled:
                start = a if a < start < b else start
                end = b if a < end < b else end
            c.span = Span(start, end, q[start:end])
        # "an eight-core processor": a count in a compound word, read from the words themselves
        taken = blocked + [(c.span.start, c.span.end) for c in out]
        out = sorted(out + _counted_words(q, taken, used, trace), key=lambda c: c.span.start)
    return out, used


@functools.cache
def _spelled() -> re.Pattern[str]:
    """Numbers in words: :data:`NUMBER_WORDS`, "half a(n)" and "a dozen"."""
    words = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(half\s+an?|a\s+dozen|(?:{words}))\b", re.I)


def spelled_numbers(q: str) -> tuple[str, list[tuple[int, int]]]:
    """``q`` with numbers written as words in digits, right-aligned in the word's place so every
    offset stays the same, and the spans rewritten. "One" is a number only before a unit of
    measure ("one foot", "one hour"): elsewhere it is a pronoun ("the one with", "any one"); so is
    "a"/"an" before a unit or a multiplier ("a kilo", "a grand").

    >>> spelled_numbers("two or more ports, half a kilo")
    ('  2 or more ports,    0.5 kilo', [(0, 3), (19, 25)])
    >>> spelled_numbers("deeper than one foot, the one with one port")
    ('deeper than   1 foot, the one with one port', [(12, 15)])
    >>> spelled_numbers("under a grand, more than a kilo, a second card")
    ('under 1 grand, more than 1 kilo, a second card', [(6, 7), (25, 26)])
    """
    spans: list[tuple[int, int]] = []
    out = list(q)
    for m in _spelled().finditer(q):
        word = re.sub(r"\s+", " ", m.group(1).casefold())
        value = "0.5" if word.startswith("half") else "12" if word == "a dozen" else str(NUMBER_WORDS[word])
        if len(value) > m.end() - m.start():
            continue
        out[m.start() : m.end()] = list(value.rjust(m.end() - m.start()))
        spans.append((m.start(), m.end()))
    taken = list(spans)  # "half a kilo" is read already
    for m in _ONE_BEFORE_A_WORD.finditer(q):
        if any(a <= m.start() < b for a, b in taken):
            continue
        before = _WORD_BEFORE.search(q, 0, m.start())
        if m.group(1).casefold() != "one" and before and (before.group(1)[0].isdigit() or unit_word(before.group(1))):
            continue  # "400 kWh a year", "5 a day": after a number or a unit "a" is "per"
        if unit_word(m.group(2)) if m.group(1).casefold() == "one" else _one_unit(m.group(2)):
            out[m.start(1) : m.end(1)] = list("1".rjust(m.end(1) - m.start(1)))
            spans.append(m.span(1))
    spans.sort()
    return "".join(out), spans


_ONE_BEFORE_A_WORD = re.compile(r"(?<![\w-])(one|an?)\s+([^\W\d_]+)", re.I)


_WORD_BEFORE = re.compile(r"([\w/.]+)\s+$")


def _one_unit(word: str) -> bool:
    """Whether "a"/"an" before ``word`` is the number one: before a unit of measure, a currency or a
    multiplier ("under a grand", "more than a kilo", "at least a gig", "an hour"), spelled out (not
    "a K"), and not before the ordinal a time unit shares ("a second card")."""
    if len(word) < 3 or not word.islower() or word == "second":  # "a mAh rating" names no amount
        return False
    unit = normalise_unit(_SPOKEN_UNITS.get(word, word))
    # "give a percentage": a ratio is asked for, never one per cent
    return word in _MULT or (unit is not None and unit[1] not in ("ratio", "percent"))


def _comparator(
    q: str, ms: list[_Mention], i: int, prev_end: int
) -> tuple[int, int, str | None, _Mention | None, int | None, int]:
    """The comparison the ``i``-th number of ``q`` is part of: (start, end, operator, the range's upper
    number, where a cue after an attribute word ends, the index of the last number it took)."""
    m = ms[i]
    start, end, op, high_m, late_end = m.start, m.end, None, None, None
    # Ranges: "between A and B", "from A to B", "A to B", "A-B".
    if i + 1 < len(ms):
        n = ms[i + 1]
        gap = q[m.end : n.start]
        lead = re.search(r"(?<![\w])(between|from)\s*$", q[prev_end : m.start], re.I)
        if re.fullmatch(r"\s*(?:-|–|—|to)\s*", gap) or (
            lead and lead.group(1).lower() == "between" and re.fullmatch(r"\s*and\s*", gap, re.I)
        ):
            op, high_m, end = "between", n, n.end
            if lead:
                start = prev_end + lead.start()
            i += 1
    if op is None:
        before = q[prev_end:start]
        for rx, cue_op in _BEFORE_RE:
            if (b := rx.search(before)) is not None:
                op = cue_op
                if cue_op != "=":
                    start = prev_end + b.start()
                break
        for rx, cue_op in _AFTER_RE:
            if (a := rx.match(q, end)) is not None:
                op, end = cue_op, a.end()
                break
        else:  # "8GB RAM or more": the attribute word between the number and its cue
            named = re.match(r"\s*(?:of\s+)?", q[end:])
            at = end + (named.end() if named else 0)
            if (w := current().attributes.match(q, at)) is not None:
                for rx, cue_op in _AFTER_RE:
                    if (a := rx.match(q, w.end())) is not None:
                        op, late_end = cue_op, a.end()
                        break
        if m.plus and op in (None, "="):
            op = ">="
        cue = q[start : m.start] + " " + q[m.end : late_end or end]
        if op in _TURNED and m.unit and (u := normalise_unit(m.unit)) and u[1] in inverse_dimensions(cue):
            op = _TURNED[op]  # "1/1000 s or faster": a faster time is a shorter one
    return start, end, op, high_m, late_end, i


def _measure_of_cue(cue: str) -> str:
    """What a comparative cue itself measures: "cheaper than" a price, "taller than 2 m" a height."""
    if re.search(r"cheaper|pricier|costlier", cue):
        return "price"
    if adj := re.match(r"(?:no\s+|not\s+)?(\w+)\s+than\b", cue):
        return comparatives().get(adj.group(1), ("", None))[1] or ""
    return ""


def _find_numeric(
    q: str, *, currency: str | None, blocked: list[tuple[int, int]], trace: list[str]
) -> tuple[list[NumericConstraint], list[tuple[int, int]]]:
    """Numeric constraints of question ``q`` and the spans of the attribute words they used.

    >>> cs, _ = find_numeric("phones with at least 8GB of RAM under £500", currency=None, blocked=[], trace=[])
    >>> [(c.op, c.value, c.unit, c.attribute) for c in cs]
    [('>=', 8.0, 'GB', 'RAM'), ('<', 500.0, 'GBP', 'price')]
    """
    ms = _mentions(q, blocked)
    out: list[NumericConstraint] = []
    used: list[tuple[int, int]] = []
    i, prev_end = 0, 0
    while i < len(ms):
        m = ms[i]
        if m.start < prev_end:  # inside what an earlier number took ("2 Thunderbolt 4 ports")
            i += 1
            continue
        start, end, op, high_m, late_end, i = _comparator(q, ms, i, prev_end)
        unit = m.unit or (high_m.unit if high_m else None)
        value = m.value
        if high_m and not m.mult and high_m.mult:  # "from 10 to 15 thousand"
            value *= high_m.value / _strip_mult(q, high_m)
        op = op or "="
        # "a screen of 10 inches or more have a battery …": the attribute the number is "of" wins
        attr_m = _attribute_of(q, prev_end, start, used) or _attribute_after(q, end, used)
        if late_end is not None and attr_m is not None:
            end = late_end  # the span runs to the cue; the attribute inside it is recorded in ``used``
        if attr_m is not None and attribute_label(attr_m.group(1)) == "price" and _measures_something_else(unit):
            # "a battery of at least 5000 mAh costing under …": a non-currency unit is never the price
            attr_m = None
        attr_m = attr_m or _attribute_before(q, prev_end, start, used)
        attr = attribute_label(attr_m.group(1)) if attr_m else ""
        if attr_m is not None and attr != "price" and (mod := modifier_before(q, attr_m.start(1))):
            attr = f"{mod} {attr}"  # "a vlogging camera", "the cell capacity": the word says which one
        if op == "=" and unit is None and not m.mult and attr != "price":
            if (counted := counted_noun(q, m.start, m.end)) is not None:
                # "with 4 HDMI inputs", "has 2 Thunderbolt 4 ports": how many of a thing, an entry that counts
                noun, noun_end = counted
                span = Span(m.start, noun_end, q[m.start : noun_end])
                out.append(NumericConstraint(span, "=", m.value, None, None, "count", noun))
                used.append((m.end, noun_end))
                trace.append(f"numeric {span.text!r}: count of {noun!r} = {m.value}")
                prev_end = noun_end
                i += 1
                continue
            if not _names_the_number(q, attr_m, m.start, m.end):
                trace.append(f"number {q[m.start : m.end]!r}: bare, no comparator: not a constraint")
                i += 1
                continue
        if op == "=" and attr_m and attr_m.group(1).lower() == "budget":
            op = "<="  # "a budget of 30000" is a ceiling
        attr, end = _cue_attribute(q, start, end, attr, used)
        dim_unit = unit
        mult = m.mult or bool(high_m and high_m.mult)
        if dim_unit is None and (attr == "price" or (mult and not attr)):
            attr = "price"
            dim_unit = currency
            trace.append(
                f"number {q[m.start : m.end]!r}: a price" + (f" in the default {currency}" if currency else "")
            )
        val, canon, dim = _canonical(value, dim_unit)
        high = _canonical(high_m.value, dim_unit)[0] if high_m else None
        if dim == "currency" and attr != "price":
            attr, attr_m = "price", None
        span = Span(start, end, q[start:end])
        if attr_m:
            used.append(attr_m.span(1))
        out.append(NumericConstraint(span, op, val, high, canon, dim, attr))  # type: ignore[arg-type]
        trace.append(
            f"numeric {span.text!r}: {attr or '?'} {op} {val}"
            + (f"..{high}" if high is not None else "")
            + (f" {canon}" if canon else "")
        )
        prev_end = end
        i += 1
    out += _counted_words(q, blocked + [(c.span.start, c.span.end) for c in out], used, trace)
    out.sort(key=lambda c: c.span.start)
    return out, used


NUMBER_WORDS = {
    w: n for n, w in enumerate("two three four five six seven eight nine ten eleven twelve".split(), start=2)
}
"""Counts written as words (general English; "one" is left out: "the one with", "any one")."""
_WORD_COUNT = re.compile(rf"\b({'|'.join(NUMBER_WORDS)})(?:-([a-z]+?)s?\b)?", re.I)


def _counted_words(
    q: str, taken: list[tuple[int, int]], used: list[tuple[int, int]], trace: list[str]
) -> list[NumericConstraint]:
    """Counts written as words before the things a product has ("four HDMI inputs", "an eight-core
    processor" = processor cores): the same constraints as :func:`counted_noun` reads for digits."""
    out = []
    for m in _WORD_COUNT.finditer(q):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue
        value = float(NUMBER_WORDS[m.group(1).casefold()])
        if m.group(2):  # "eight-core processor": the cores of the processor
            head = re.match(r"\s+([a-z]+)", q[m.end() :])
            noun = f"{head.group(1)} {m.group(2)}s" if head else f"{m.group(2)}s"
            end = m.end() + (head.end() if head else 0)
        elif (counted := counted_noun(q, m.start(), m.end())) is not None:
            noun, end = counted
        else:
            continue
        span = Span(m.start(), end, q[m.start() : end])
        out.append(NumericConstraint(span, "=", value, None, None, "count", noun))
        used.append((m.end(), end))
        trace.append(f"numeric {span.text!r}: count of {noun!r} = {value}")
    return out


# a measure then the extent it is ("120 cm wide", "70 inches tall"): general English. "long" and
# "high" are left out: "10 hours long" is a duration, "high" goes with anything ("high res")
_EXTENTS = {
    "tall": "height",
    "wide": "width",
    "broad": "width",
    "across": "width",  # "1.2 metres across"
    "deep": "depth",
    "thick": "thickness",
}
_EXTENT_AFTER = re.compile(rf"\s+({'|'.join(_EXTENTS)})\b", re.I)


def _cue_attribute(q: str, start: int, end: int, attr: str, used: list[tuple[int, int]]) -> tuple[str, int]:
    """The attribute a number's cue names when no attribute word did ("cheaper than", "120 cm wide"),
    and where the comparison ends (past an extent word: it is read with its number)."""
    if attr or (attr := _measure_of_cue(q[start:end].lower())):
        return attr, end
    if attr := _extent_after(q, end, used):
        return attr, used[-1][1]
    return "", end


def _extent_after(q: str, end: int, used: list[tuple[int, int]]) -> str:
    """The attribute an extent adjective right after a measure names ("at most 120 cm wide" → width);
    "" when none follows. The adjective is marked read.

    >>> used = []
    >>> _extent_after("desks at most 120 cm wide", 20, used), used
    ('width', [(21, 25)])
    >>> _extent_after("a 120 cm desk", 8, [])
    ''
    """
    m = _EXTENT_AFTER.match(q, end)
    if m is None:
        return ""
    used.append(m.span(1))
    return _EXTENTS[m.group(1).casefold()]


def _strip_mult(q: str, m: _Mention) -> float:
    """The number of a mention as written, without its multiplier."""
    num = _mention_re().match(q, m.start)
    raw = num.group("num") if num else "1"
    return float(raw.replace(",", "")) or 1.0


def spoken_unit(word: str) -> str:
    """The unit symbol a spoken name stands for ("kilos" → "kg", "gigs" → "GB"), else ``word``.

    >>> spoken_unit("kilos"), spoken_unit("inches")
    ('kg', 'inches')
    """
    return _SPOKEN_UNITS.get(word.casefold(), word)


def unit_word(word: str) -> bool:
    """Whether ``word`` names a unit of measure or a currency ("grams", "mAh", "rupees"), not a thing.

    >>> [unit_word(w) for w in ("grams", "mAh", "GB", "rupees", "phones", "cores")]
    [True, True, True, True, False, False]
    """
    q = parse_quantity(f"1 {word}")
    if q is not None and q.unit is not None:
        return True
    return bool(currencies.table().candidates(word))


_MODIFIER = re.compile(r"(?<![\w'’-])([a-z][a-z]+(?:-[a-z]+)*)[\s-]+$")


@functools.cache
def _measure_blocks() -> dict[str, dict]:
    return yaml.safe_load(resources.files("dualgraph.query.read").joinpath("measure_words.yaml").read_text("utf-8"))


@functools.cache
def measure_words() -> dict[str, frozenset[str]]:
    """``measure_words.yaml``: each size/speed/duration word → the dimensions it points to."""
    out: dict[str, set[str]] = {}
    for block in _measure_blocks().values():
        for w in block["words"]:
            out.setdefault(w, set()).update(block["dimensions"])
    return {w: frozenset(d) for w, d in out.items()}


@functools.cache
def _inverse_words() -> dict[str, frozenset[str]]:
    """``measure_words.yaml``'s ``inverse``: each word → the dimensions on which it reads the other way."""
    return {w: frozenset(b["inverse"]) for b in _measure_blocks().values() if b.get("inverse") for w in b["words"]}


def inverse_dimensions(text: str) -> frozenset[str]:
    """The dimensions on which ``text``'s comparison words read the other way ("faster" on a time).

    >>> sorted(inverse_dimensions("Which camera has the faster shutter?")), inverse_dimensions("the longest")
    (['time'], frozenset())
    """
    table = _inverse_words()
    found = [table[w] for w in re.findall(r"[a-z]+", text.casefold()) if w in table]
    return frozenset().union(*found) if found else frozenset()


_TURNED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}


@functools.cache
def _not_modifiers() -> frozenset[str]:
    return general_words("question_scaffold") | frozenset(measure_words()) | PRICE_WORDS | _NOT_MODIFIER


_NOT_MODIFIER = frozenset(
    """average mean total overall minimum maximum min max least most more less better best good great nice
decent high higher highest low lower lowest new newer newest old older same similar different""".split()
)


def modifier_before(q: str, start: int) -> str:
    """A plain lower-case word right before an attribute word that says which one is meant ("vlogging
    camera", "cell capacity", "front-facing camera"); "" for function, measure, comparison or price words.

    >>> q = "phones with a vlogging camera of 32 MP"
    >>> modifier_before(q, q.index("camera")), modifier_before("the largest camera", 12)
    ('vlogging', '')
    """
    m = _MODIFIER.search(q[:start])
    if m is None or len(m.group(1)) < 3 or m.group(1) in _not_modifiers() or unit_word(m.group(1)):
        return ""
    return m.group(1)


_HAVING = re.compile(
    r"\b(?:have|has|having|with|offers?|offering|features?|featuring|comes?\s+with|sports?|packs?)\s+$", re.I
)
_COUNTED = re.compile(r"\s+((?:[\w.+-]+\s+){0,2}?[A-Za-z][\w-]*[a-z]s)\b(?!['’])")


def counted_noun(q: str, start: int, end: int) -> tuple[str, int] | None:
    """The things a bare number counts, when the question says a product has that many of them
    ("have 4 HDMI inputs", "with 2 Thunderbolt 4 ports"): (noun phrase, where it ends), else None.

    >>> q = "Which TVs have 4 HDMI inputs?"
    >>> counted_noun(q, q.index("4"), q.index("4") + 1)
    ('HDMI inputs', 28)
    >>> q = "Is the Galaxy S25 cheaper?"
    >>> counted_noun(q, q.index("25"), q.index("25") + 2) is None
    True
    """
    if not _HAVING.search(q[:start]):
        return None
    m = _COUNTED.match(q, end)
    if m is None or unit_word(m.group(1).split()[0]):
        return None
    return m.group(1), m.end(1)


def dimension_hint(question: str) -> frozenset[str]:
    """The dimensions the question's size/speed/duration words point to ("the smallest screen": length, ...).

    >>> sorted(dimension_hint("Which phone charges the fastest?"))[:2]
    ['byte_rate', 'data_rate']
    >>> dimension_hint("Which is the best?")
    frozenset()
    """
    table = measure_words()
    found = [table[w] for w in re.findall(r"[a-z]+", question.casefold()) if w in table]
    return frozenset().union(*found) if found else frozenset()
