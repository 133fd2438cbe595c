"""What a question asks of one product or of a ranking's winner: a value or a product, which
attribute, and in which unit ("…, in inches?"). Read from the question's words and the catalog's
attribute names (:mod:`dualgraph.lexicon.vocabulary`); see :mod:`dualgraph.query.sparql.value_answer`
for the answer's number itself.
"""

from __future__ import annotations

import functools
import re

from dualgraph.lexicon.earlier_price import PRICE_CUT
from dualgraph.lexicon.english import general_words, words_alternation
from dualgraph.lexicon.synonyms import doer_nouns
from dualgraph.lexicon.vocabulary import current, how_adjectives
from dualgraph.query.read.dates import DATE_ATTRIBUTES, find_event
from dualgraph.query.read.numbers import PRICE_WORDS, spoken_unit, unit_word
from dualgraph.query.read.superlative import VERB_ATTRS
from dualgraph.skg import currencies
from dualgraph.skg.quantities import normalise_unit, unit_at, unit_symbol

__all__ = [
    "approximate",
    "asked_attribute",
    "asks_date",
    "asks_value",
    "asks_yes_no",
    "blank_names",
    "money_asked",
    "named_unit",
    "rounding",
    "same_attribute",
    "share_subject_end",
    "time_between",
]


_UNIT_ASKED = re.compile(r"\b(?:in|as|how\s+many(?:\s+more)?)\s+([^\W\d_][^\s,.;:?!]*)", re.I)

_HEAD = re.compile(
    r"\s*(?:(?P<size>how\s+(?:big|large|long|heavy|fast|quick|high|tall|thick|thin|wide|bright|small"
    r"|light)\s+(?:is|are|was|were|does|do|did)\b)|(?P<how>how\s+much)"
    r"|what(?:'s|\s+is|\s+was|\s+are|\s+would\s+be)?|who(?:'s|\s+is|\s+was|\s+are)"
    # a bare superlative phrase asks like "what is …": "Highest MP count among the X?"
    r"|(?=(?:the\s+)?(?:[a-z]+est|most|least|max(?:imum)?|min(?:imum)?|peak)\b))\b(?P<rest>.*)",
    re.I | re.S,
)
_WHEN = re.compile(r"\s*(?:when|(?:in\s+)?(?:what|which)\s+year)\s+(?:was|were|is|are|did|does|will)\b", re.I)
"""A question for the date of one product's event ("When was X released?", "In what year did X launch?")."""
_LEAD_CLAUSE = re.compile(r"\s*(?:among(?:st)?|across|of|for|in|from|within|between|considering)\b[^,?]*,\s*", re.I)
_HEAD_END = re.compile(
    r"\b(?:of|on|in|among|amongst|for|from|available|that|which|with|offered|do|does|can|"
    r"is|are|you|any|across)\b|[,?;:]",
    re.I,
)


_NAME_RUN = re.compile(r"\b[A-Z][\w+-]*(?:\s+(?:[A-Z0-9][\w+.-]*|\+))*\s+(?:[A-Z0-9][\w+.-]*|\+)")


def blank_names(text: str) -> str:
    """``text`` with runs of capitalised or numbered words blanked ("the Motorola Edge 60 Pro
    charge"): a catalog's attribute words inside a product name ("Edge", "Pro") are not asked."""
    return _NAME_RUN.sub(lambda m: " " * len(m.group()), text)


def named_unit(question: str) -> tuple[str, str] | None:
    """(canonical unit, the unit's own symbol) a question asks its answer in: "…, in inches?" → (mm, inch).

    >>> named_unit("What is the largest display size, in inches, of any phone?"), named_unit("phones in stock")
    (('mm', 'inch'), None)
    >>> named_unit("How many grams does the Nova weigh?"), named_unit("How many phones weigh over 1 kg?")
    (('g', 'g'), None)
    >>> named_unit("What is the largest capacity, in cubic feet?"), named_unit("How much does it use, in kWh a year?")
    (('l', 'ft³'), ('kWh/yr', 'kWh/yr'))
    >>> named_unit("What is the highest junction temperature, in degrees Fahrenheit?")
    ('°C', '°F')
    """
    found = _unit_asked(question)
    return None if found is None else found[:2]


def unit_asked_words(question: str) -> frozenset[str]:
    """The words (lower-case) naming the unit a question asks its answer in: "…, in cubic feet?" →
    {"cubic", "feet"}; none when it names none. The answer reads them (:func:`named_unit`).

    >>> sorted(unit_asked_words("What is the largest capacity, in cubic feet?")), unit_asked_words("phones in stock")
    (['cubic', 'feet'], frozenset())
    """
    found = _unit_asked(question)
    return frozenset() if found is None else frozenset(w.casefold() for w in re.findall(r"[^\W\d_]+", found[2]))


def _unit_asked(question: str) -> tuple[str, str, str] | None:
    """(canonical unit, the unit's own symbol, the words that spell it) of :func:`named_unit`."""
    for m in _UNIT_ASKED.finditer(question):
        at = unit_at(question, m.start(1))  # a spelling of several words: "in cubic feet"
        name = question[m.start(1) : at[1]] if at is not None else m.group(1)
        end = at[1] if at is not None else m.end(1)
        if (nxt := re.match(r"\s+([^\W\d_]+)", question[end:])) and normalise_unit(nxt.group(1)) is not None:
            name = question[m.start(1) : end + nxt.end(1)]  # "in degrees Fahrenheit": the second word is the unit
            found = normalise_unit(nxt.group(1))
            if found is not None and found[1] != "currency":
                return found[0], unit_symbol(nxt.group(1)) or found[0], name
        found = normalise_unit(spoken_unit(name))  # "in kilos"
        if found is not None and found[1] != "currency":
            return found[0], unit_symbol(spoken_unit(name)) or found[0], name
    return None


def answer_unit_spans(question: str) -> list[tuple[int, int]]:
    """The spans that say how the answer is given, not what it is about: a currency asked after a
    comma at the end of a clause ("What's the average price of a Cotic, in dollars?") and the unit
    of a rounding ("to the nearest dollar"). "Priced in euros" is a condition, not one of these.

    >>> q = "What do all the Evil bikes add up to, in US dollars, to the nearest dollar?"
    >>> [q[a:b] for a, b in answer_unit_spans(q)], answer_unit_spans("Which bikes are priced in euros?")
    (['US dollars', 'dollar'], [])
    """
    spans = [m.span(1) for m in _currency_asked().finditer(question)]
    for m in _IN_UNIT.finditer(question):  # ", in GHz?", ", expressed in MWh", ", in centimetres, to one decimal"
        found = unit_at(question, m.end())
        if (
            found is not None
            and found[1] > m.end()
            and _CLAUSE_END.match(question, found[1])
            and (normalise_unit(found[0]) or ("", "currency"))[1] != "currency"  # money: _currency_asked
        ):
            spans.append((m.end(), found[1]))
    return spans + [m.span("near") for m in _ROUNDING.finditer(question) if m.group("near")]


_IN_UNIT = re.compile(r"(?:,\s*|\s+)(?:(?:expressed|given|measured|answered)\s+)?in\s+(?=\S)", re.I)
_CLAUSE_END = re.compile(r"\s*(?:[?.,;!(]|$|to\s+the\b|rounded\b|please\b|approx|approximately\b|roughly\b)", re.I)


def money_asked(question: str) -> bool:
    """Whether the question asks its number in a currency ("What does an Orange go for on average,
    in dollars (rounded)?"): an amount of money is the measure asked, said or not.

    >>> money_asked("What does an Orange go for on average here, in dollars (rounded)?"), money_asked("priced in euros?")
    (True, False)
    """
    return _currency_asked().search(question) is not None


@functools.cache
def _currency_asked() -> re.Pattern[str]:
    alts = "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in currencies.table().spellings() if len(s) > 1)
    return re.compile(
        rf",\s*in\s+((?:{alts}))(?=\s*(?:[?.,;!(]|$|to\s+the\b|rounded\b))",
        re.I,
    )


def same_attribute(a: str, b: str) -> bool:
    """Whether two attribute phrases name the same thing ("battery capacity" ~ "battery", "cost" ~
    "price", "charge" ~ "charging": a word and its inflections)."""
    wa, wb = ({"price" if w in PRICE_WORDS else _stem(w) for w in re.findall(r"[a-z]+", x.casefold())} for x in (a, b))
    return bool(wa & wb)


def _stem(word: str) -> str:
    """A word without its English inflection ("charging", "charges", "charged" → "charg")."""
    return re.sub(r"(?:ing|es|ed|e|s)$", "", word) if len(word) > 4 else word


_DATE_HEAD = re.compile(r"\s*(?:what(?:'s|\s+is|\s+was)?|which)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}(?:year|date)s?\b", re.I)


def asks_date(question: str) -> bool:
    """Whether a ranking by date asks for the date itself ("What's the earliest year of any X?", "In
    what year did the first X come out?", "When was the newest X released?") rather than the product.

    >>> [asks_date(q) for q in ("What's the earliest year of any Leica camera?", "When was the newest one released?",
    ...  "Which is the newest camera?", "Among zenith phones, what is the latest release date?")]
    [True, True, False, True]
    """
    lead = _LEAD_CLAUSE.match(question)
    at = lead.end() if lead else 0
    return bool(_DATE_HEAD.match(question, at) or _WHEN.match(question, at))


def asks_value(question: str, attribute: str = "") -> bool:
    """Whether a superlative question asks for the extreme *value* of ``attribute`` (its ordering
    attribute, "" = price) rather than for the product.

    "What is the lowest price of …", "What's the biggest battery capacity …", "How much does the
    cheapest … cost?" ask for a number; "Which …", "What is the cheapest phone …" for a product, and
    so does a question about another attribute ("What is the weight of the cheapest phone?").

    >>> [asks_value(q, a) for q, a in (("What is the lowest price of the Nova X1?", "price"),
    ...  ("What is the cheapest phone?", "price"), ("What's the biggest battery capacity on it?", "battery capacity"),
    ...  ("How much does the cheapest phone cost?", "price"), ("Which phone has the biggest battery?", "battery"),
    ...  ("What is the price of the cheapest tablet?", "price"), ("What is the weight of the cheapest one?", "price"),
    ...  ("How much does the phone with the biggest battery cost?", "battery"),
    ...  ("How many grams does the lightest phone weigh?", "weight"),
    ...  ("What is the smallest TV screen size, in inches?", "screen size"),
    ...  ("What's the heaviest camera in the catalogue weigh? Answer in grams.", "weight"),
    ...  ("What does the heaviest Pentax weigh in ounces?", "weight"), ("Which camera does weigh the most?", "weight"))]
    [True, False, True, True, False, True, False, False, True, True, True, True, False]
    """
    attribute = attribute or "price"
    lead = _LEAD_CLAUSE.match(question)  # "Among zenith phones, what is …"
    unit = re.match(r"\s*how\s+many\s+(?:more\s+)?([^\W\d_][\w/]*)", question[lead.end() if lead else 0 :], re.I)
    if unit and unit_word(unit.group(1)):
        return True  # "How many grams does the lightest phone weigh?": a measure in grams
    m = _HEAD.match(question) or (_HEAD.match(question, lead.end()) if lead else None)
    if not m:
        return False
    if m.group("size"):  # "how big is the biggest battery", "how heavy is the lightest phone": the value,
        named = current().attributes.search(blank_names(m.group("rest")))  # unless another attribute is asked first
        return named is None or same_attribute(named.group(), attribute)
    rest = m.group("rest")
    if re.match(r"\s*(?:does|do|did|would|will)\b.*\b(?:cost|costs|sell\s+for|retail\s+for)\b", rest, re.I | re.S):
        return same_attribute("price", attribute)  # "What does the cheapest tablet cost?"
    for verbs, measured in VERB_ATTRS:  # "What does the heaviest Pentax weigh?", "What's the biggest one hold?"
        if re.search(rf"\b(?:{verbs})\s*(?:in\s+[^\W\d_]+\s*)?(?:[?.!,;]|$)", rest, re.I) and not re.match(
            r"\s*(?:which|one|ones)\b", rest, re.I
        ):
            return same_attribute(measured, attribute)
    if m.group("how"):
        named = current().attributes.match(rest.strip())
        if named:  # "how much RAM does …"
            return same_attribute(named.group(), attribute)
        # "how much does … cost": the price
        return same_attribute("price", attribute) or not re.search(r"(?i)\b(?:cost|costs|pay|spend)\b", rest)
    rest = re.sub(r"^\s*(?:the|a|an)\b", "", rest, flags=re.I)
    end = _HEAD_END.search(rest)
    head = rest[: end.start()] if end else rest
    ends_named = [m for m in current().attributes.finditer(head) if not head[m.end() :].strip()]
    if current().product_nouns.search(head) and not ends_named:  # "the smallest TV screen size" asks the size
        return False
    if (
        end
        and end.group().casefold() == "of"
        and re.fullmatch(r"(?:\s*[a-z]+)?\s*(?:amount|number|quantity|level)\s*", head, re.I)
    ):
        # "the largest amount of RAM in …": the attribute comes after "of"
        after = rest[end.end() :]
        stop = _HEAD_END.search(after)
        head = after[: stop.start()] if stop else after
    named = current().attributes.search(head)
    if named is None:  # plain words the catalog names its own way ("the annual energy consumption")
        return bool(head.strip()) and same_attribute(head, attribute)
    return same_attribute(named.group(), attribute)


def asked_attribute(question: str) -> str:
    """The attribute a question about one product's value asks for, or "": "What is the price of X?" →
    price, "How much RAM does X have?" → RAM, "How much is X?" / "How much does X cost?" → price,
    "How heavy is X?" → weight.

    >>> [asked_attribute(q) for q in ("What's the battery capacity of the Nova Lite?", "How much RAM does X have?",
    ...  "How much does the Nova Lite cost?", "How heavy is the Zenith Basic?", "What is the Nova Lite?")]
    ['battery capacity', 'RAM', 'price', 'weight', '']
    >>> [asked_attribute(q) for q in ("What does the Nova Lite cost?", "In what year was the Nova Lite released?",
    ...  "When was the Nova Lite announced?", "When did the Nova Lite arrive?", "How many inches wide is X?")]
    ['price', 'release date', 'announcement date', 'date', 'width']
    """
    lead = _LEAD_CLAUSE.match(question)
    at = lead.end() if lead else 0
    if said := _price_cut_asked(question[at:]):
        return said
    if m := _WHEN.match(question, at):
        # "When was X released?", "In what year did X come out?": the date of its event ("" = any)
        event, _ = find_event(question, m.end(), m.end())
        return DATE_ATTRIBUTES[event]
    if (m := _WHO.match(question, at)) and doer_nouns(m.group(1)):
        return _agent_attribute(m.group(1))
    if m := re.match(r"\s*what\s+(?:does|do|did)\b", question[at:], re.I):
        # "What does the X cost?": the verb at the end names what is asked
        tail = question[at + m.end() :]
        return next((attr for pat, attr in VERB_ATTRS if re.search(rf"\b(?:{pat})\b", tail, re.I)), "")
    if m := re.match(r"\s*how\s+(\w+)\s+(?:is|are|was|does|do)\b", question[at:], re.I):
        word = m.group(1).lower()
        if word in how_adjectives():
            return how_adjectives()[word]
        if word != "much" and (
            named := current().attributes.match(re.sub(r"^\s*(?:the|a|an)\s+", "", question[at + m.end() :]))
        ):
            return named.group(1)  # "How big is the battery of X?": the attribute follows the question words
        if word != "much":
            # "How fast does the X charge?": the verb at the end names what is measured
            tail = question[at + m.end() :]
            return next((attr for pat, attr in VERB_ATTRS if re.search(rf"\b(?:{pat})\b", tail, re.I)), "")
        rest = question[at + m.end() :]
        if verb := next(
            (attr for pat, attr in VERB_ATTRS if attr != "price" and re.search(rf"\b(?:{pat})\b", rest, re.I)), ""
        ):
            return verb  # "How much does the X weigh?": the weight, not the price
        return (
            "price"
            if re.search(r"\b(?:cost|costs|priced|sell|sells|retail|retails)\b", rest, re.I)
            or m.group(0).lower().rstrip().endswith(("is", "are", "was"))
            else ""
        )
    if m := re.match(r"\s*how\s+(?:much|many)\s+(.{1,40}?)\s+(?:does|do|is|are|can)\b", question[at:], re.I):
        named = current().attributes.search(blank_names(m.group(1)))
        if named:
            return named.group(1)
        words = m.group(1).split()
        if len(words) == 2 and unit_word(words[0]) and words[1].casefold() in how_adjectives():
            return how_adjectives()[words[1].casefold()]  # "How many inches tall is X?": its height, in inches
        if not re.fullmatch(r"[^\W\d_][\w/]*", m.group(1).strip()) or not unit_word(m.group(1).strip()):
            return ""
        # "How many grams does X weigh?", "How many mAh is X's battery rated at?": the attribute is named
        # after the product, or by the verb; else the unit alone says what is measured
        tail = question[at + m.end() :]
        if after := current().attributes.search(blank_names(tail)):
            return after.group(1)
        verb = next((attr for pat, attr in VERB_ATTRS if re.search(rf"\b(?:{pat})\b", tail, re.I)), "")
        return verb or m.group(1).strip()
    m = _HEAD.match(question, at)
    if not m or m.group("how") or m.group("size"):
        return ""
    rest = re.sub(r"^\s*(?:the|a|an)\b", "", m.group("rest"), flags=re.I)
    # "the battery of X", "the refresh rate on X", "what refresh rate does X have"
    end = re.search(r"\b(?:of|on|for|in|does|do|did|has|have|is|are)\b", rest, re.I)
    head = rest[: end.start()] if end else ""
    if not head.strip() or current().product_nouns.search(head):
        return ""
    names = [x.group(1) for x in current().attributes.finditer(head)]
    if names:
        return " ".join(names)
    # plain words the catalog may name its own way ("the annual energy consumption of X")
    plain = head.strip()
    return plain if re.fullmatch(r"[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,3}", plain) else ""


def _price_cut_asked(question: str) -> str:
    """ "price cut" where the question asks how much is saved ("How much do I save on X?", "What is
    the discount on X?"); "<word> price" where it asks the earlier price ("What was the original
    price of X?"); else "". The words are general English (:file:`general_words.yaml`).

    >>> [_price_cut_asked(q) for q in ("How many riyals do I save on the X compared with its old price?",
    ...  "How big is the discount on the X?", "What was the original price of the X?", "What is the price of X?")]
    ['price cut', 'price cut', 'original price', '']
    """
    if re.search(r"\b(?:i|you|we|one)\s+(?:would\s+|will\s+|can\s+)?save\b", question, re.I):
        return PRICE_CUT
    asks = (
        r"\s*(?:what(?:'s|\s+is|\s+was|\s+are|\s+were)?|how\s+(?:much|big|large)(?:\s+is|\s+was|\s+are)?)\s+(?:the\s+)?"
    )
    if re.match(rf"{asks}(?:{words_alternation('price_cut_words')})\s+(?:on|of|for)\b", question, re.I):
        return PRICE_CUT
    if m := re.match(rf"{asks}({words_alternation('price_before_words')})\s+(?:price|cost)\b", question, re.I):
        return f"{m.group(1).casefold()} price"
    return ""


_WHO = re.compile(r"\s*who\s+([^\W\d_]+)\b", re.I)
"""A question for whoever did a thing to one product ("Who designed X?", "Who makes X?")."""


def _agent_attribute(verb: str) -> str:
    """The entry "who <verb> X" asks: the agent noun of the verb the catalog names ("designed" → its
    "designer"), else the usual agent noun, for the grounder to match the catalog's own way."""
    said = doer_nouns(verb)  # "made": the maker, its manufacturer
    return next((n for n in said if current().attributes.fullmatch(n)), said[0] if said else "")


_PLACES = {"one": 1, "two": 2, "three": 3, "a": 1, "1": 1, "2": 2, "3": 3}
_NEAREST = {
    "ten": -1,
    "tens": -1,
    "hundred": -2,
    "hundreds": -2,
    "thousand": -3,
    "thousands": -3,
    "tenth": 1,
    "tenths": 1,
    "hundredth": 2,
    "hundredths": 2,
}
_ROUNDING = re.compile(
    r"\b(?:to|at)\s+(?:the\s+)?(?:nearest|closest)\s+(?:(?:whole\s+)?(?P<near>[^\W\d_]+)|(?P<step>\d+(?:\.\d+)?))"
    r"|(?:\b(?:to|at|with)\s+(?P<a>a)|\b(?P<places>one|two|three|\d))\s+decimal(?:\s+places?|s)?\b"
    r"|\b(?:rounded|round(?:\s+it)?)\s+(?:off\s+|up\s+|down\s+)?(?:to\s+)?(?:a\s+)?whole(?:\s+number)?\b"
    r"|\b(?P<plain>round(?:ed)?(?:\s+(?:off|up|down))?(?=\s*(?:[).,;!?]|$|pls\b|please\b))|round\s+(?:number|figure))\b",
    re.I,
)
# "approx.", "roughly": a number the asker wants short, not to the last decimal; "about 500 g" is a
# condition, so a word before a number is none of these
_APPROXIMATE = re.compile(r"\b(?:approx(?:imately)?|roughly|ballpark)\b(?!\.?\s*[$€£₹]?\s*\d)", re.I)


def rounding(question: str) -> int | None:
    """The decimal places a question asks a number rounded to ("to the nearest gram" → 0, "to one
    decimal place" → 1, "to the nearest hundred" → -2), else ``None``. General English: "the nearest
    <unit>" is a whole number of that unit, whatever the unit.

    >>> [rounding(q) for q in ("What is the average weight, to the nearest gram?", "… to one decimal place?",
    ...  "… rounded to the nearest hundred?", "… to the nearest 0.5 kg?", "What is the average weight?",
    ...  "to the nearest tenth of a second", "… rounded to a whole number", "… in inches? Two decimals is fine.",
    ...  "… in dollars (rounded)?", "how many inch wide? round number pls")]
    [0, 1, -2, None, None, 1, 0, 2, 0, 0]
    """
    m = _ROUNDING.search(question)
    if m is None:
        return None
    if m.group("plain"):  # "(rounded)", "round number pls": a whole number
        return 0
    if m.group("places") or m.group("a"):  # "to one decimal place", "Two decimals is fine"
        return _PLACES[(m.group("places") or m.group("a")).casefold()]
    if m.group("step"):
        step = m.group("step")
        return None if "." in step or (step != "1" and not re.fullmatch(r"10+", step)) else 1 - len(step)
    near = (m.group("near") or "").casefold()
    return _NEAREST.get(near, 0)


def approximate(question: str) -> bool:
    """Whether the question wants its number approximately ("in ounces approx.?", "roughly how
    heavy"), with no rounding said (see :func:`rounding`).

    >>> [approximate(q) for q in ("avg weight, in ounces approx.?", "roughly how heavy is it?",
    ...  "cameras of approx. 500 g", "what is the average weight?")]
    [True, True, False, False]
    """
    return bool(_APPROXIMATE.search(question))


_TIME_BETWEEN = re.compile(r"\bhow\s+(?:many\s+(years|months|weeks|days)|long)\b", re.I)


def time_between(question: str) -> str:
    """The unit a gap between two dates is asked in ("how many months after …": "months"; "how long
    after …": "years").

    >>> time_between("How many months after the A did the B come out?"), time_between("How long after A was B?")
    ('months', 'years')
    """
    m = _TIME_BETWEEN.search(question)
    return (m.group(1) or "years").lower() if m else "years"


_YES_NO = re.compile(r"\s*(?:are|is|was|were|do|does|did|can|could|will|would|has|have|should)\b", re.I)


def asks_yes_no(question: str) -> bool:
    """Whether the question (after a leading clause) is put for a yes or a no ("Are Leica cameras
    heavier on average than Sony's?", "Among bottom freezers, is …").

    >>> asks_yes_no("Are Leica cameras heavier on average than Sony's?"), asks_yes_no("Which brand is heavier?")
    (True, False)
    """
    lead = _LEAD_CLAUSE.match(question)
    return bool(_YES_NO.match(question, lead.end() if lead else 0))


_SHARE_OF = re.compile(r"\b(?:share|proportion|percentage|fraction|percent|%)\s+of\s+", re.I)


def share_subject_end(question: str) -> int:
    """Where the products a share is taken of end: after the first noun for products ("What share of the
    Galanz units meet …" → after "units"), else before the first grammar word; 0 when no share is asked.

    >>> q = "What share of the compact Galanz units meet the criteria?"
    >>> q[: share_subject_end(q)]
    'What share of the compact Galanz units'
    """
    m = _SHARE_OF.search(question)
    if m is None:
        return 0
    grammar = general_words("function_words")
    for w in re.finditer(r"[\w'’-]+", question[m.end() :]):
        word = w.group().casefold()
        if current().product_nouns.fullmatch(word) or current().categories.fullmatch(word):
            return m.end() + w.end()
        if word in grammar and word not in ("the", "a", "an", "all", "its", "their"):
            return m.end() + w.start()
    return len(question)
