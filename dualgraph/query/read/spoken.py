"""Numbers as people say or abbreviate them, written as digits before the question is read.

A question dictated to an assistant, or typed in a hurry, spells its numbers ("seven hundred
fifty kilowatt hours", "five point five cubic feet"), says a year in two halves ("twenty
thirteen"), a code digit by digit ("r four four one a"), shortens a year ("announced in '24",
"'07–'09") or corrects itself ("thirty six no forty inches", "under thirty no wait under thirty
five"), after a word that says nothing ("um", "hey", "so"). The reader's number rules read
digits; :func:`said` writes these as digits first, and drops the opening filler, so every
later rule reads them as it reads any number. General English only: no catalogue's words.

What is left alone, because the reader reads it better as it is: a number word of twelve or less
said on its own ("two grand", "a third", "one camera": the reader's own words for these), a bare
multiplier ("a hundred bucks", "a couple hundred", "thousands of"), and any word that is not a
number. Spelled numbers are parsed by ``text2num`` (MIT), not by hand.
"""

from __future__ import annotations

import re

from text_to_num import alpha2digit

from dualgraph.skg.dates import full_year
from dualgraph.skg.quantities import normalise_unit

__all__ = ["said"]

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ("hundred", "thousand", "million")
_DIGITS = {w: str(i) for i, w in enumerate(_UNITS[:10])} | {"oh": "0"}
_WORD = rf"(?:{'|'.join(_UNITS + _TENS + list(_SCALES))}|oh|point)"
# a run of number words joined by spaces, hyphens or "and" (never starting or ending with "and")
_RUN = re.compile(rf"\b{_WORD}(?:(?:[\s-]+|\s+and\s+){_WORD})*\b", re.I)
# words a speaker opens with that say nothing of the question ("um does any …", "hey which …")
_FILLERS = re.compile(r"^\s*(?:(?:u+m+|u+h+|e+r+m*|h+m+|hey|ok(?:ay)?|so|well|oh|like)\b[\s,.!-]*)+", re.I)
_UNIT = r"(?:[^\W\d_][\w./²³]*|\"|″)"
_RESTATED = re.compile(
    rf"(?P<said>\d[\d,.]*\s?(?P<u1>{_UNIT}(?:\s{_UNIT}){{0,2}}))\s*\(\s*(?:about|approx\.?|approximately|roughly|around|circa|"
    rf"ca\.|~|≈|i\.e\.,?|or)?\s*\d[\d,.]*\s?(?P<u2>{_UNIT})\.?\s*\)",
    re.I,
)
_SHORT_YEAR = re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’])")
_CORRECTION = re.compile(
    r"(?P<said>(?<![\w.])\d+(?:\.\d+)?(?:\s+[^\W\d_]+){0,2}?)\s*,?\s+"
    r"(?:no\s+wait|no|wait|sorry|i\s+mean|make\s+that|or\s+rather|scratch\s+that)\s*,?\s+(?=\S)",
    re.I,
)


def said(question: str) -> str:
    """``question`` with spelled, halved, digit-by-digit and shortened numbers written as digits,
    and a number the speaker corrected left out (see the module notes).

    >>> said("which fridges use over seven hundred fifty kilowatt hours a year")
    'which fridges use over 750 kilowatt hours a year'
    >>> said("um which fridges got certified back in twenty thirteen or earlier")
    'which fridges got certified back in 2013 or earlier'
    >>> said("which fridge uses r four four one a as the refrigerant")
    'which fridge uses r 441 a as the refrigerant'
    >>> said("Find every camera announced in '24; models from '07–'09 too")
    'Find every camera announced in 2024; models from 2007–2009 too'
    >>> said("wider than thirty six no forty inches"), said("under thirty no wait under thirty five inches tall")
    ('wider than 40 inches', 'under 35 inches tall')
    >>> said("two grand, a third less, under a hundred bucks, one camera, thousands of them")
    'two grand, a third less, under a hundred bucks, one camera, thousands of them'
    >>> said("at least five point five cubic feet, the twenty twenty one criteria, twenty one models")
    'at least 5.5 cubic feet, the 2021 criteria, 21 models'
    >>> said("cameras at 1,000 g (about 35.3 oz) or more"), said("over 2 lb (907.2 g) before 2010")
    ('cameras at 1,000 g or more', 'over 2 lb before 2010')
    >>> said("4K (3840 px wide or more)"), said("a 6 in (rear) screen")
    ('4K (3840 px wide or more)', 'a 6 in (rear) screen')
    >>> said("um does any frigidaire have wifi"), said("Hey, so which one is lighter?")
    ('does any frigidaire have wifi', 'which one is lighter?')
    """
    text = _RUN.sub(_number, _FILLERS.sub("", question, count=1))
    text = _SHORT_YEAR.sub(lambda m: str(full_year(int(m.group(1)))), text)
    return _corrected(_RESTATED.sub(_once, text))


def _once(m: re.Match[str]) -> str:
    """An amount with the same amount again in brackets in another unit ("2 lb (907.2 g)", "500 g
    (roughly 17.6 oz)"): the amount once; brackets that say something else stay."""
    first, second = normalise_unit(m.group("u1")), normalise_unit(m.group("u2"))
    return m.group("said") if first and second and first[1] == second[1] else m.group()


def _number(m: re.Match[str]) -> str:
    run = m.group()
    words = [w.casefold() for w in re.split(r"[\s-]+", run) if w.casefold() != "and"]
    if len(words) == 1 and (words[0] in _SCALES or words[0] in _UNITS[:13] or words[0] in ("oh", "point")):
        return run  # "two grand", "a hundred bucks": the reader's own words
    if (year := _year(words)) is not None:
        return year
    if len(words) >= 2 and all(w in _DIGITS for w in words):
        return "".join(_DIGITS[w] for w in words)  # a code said digit by digit
    if words[0] in _SCALES or words[-1] == "point":
        return run
    digits = alpha2digit(run.replace("-", " "), "en")
    return digits if re.fullmatch(r"\d+(?:\.\d+)?", digits) else run


def _year(words: list[str]) -> str | None:
    """A year said in two halves: "twenty thirteen", "nineteen ninety nine", "twenty oh nine"."""
    if len(words) < 2 or words[0] not in ("nineteen", "twenty"):
        return None
    rest = words[1:]
    if rest[0] == "oh" and len(rest) == 2 and rest[1] in _UNITS[1:10]:
        low = int(_DIGITS[rest[1]])
    else:
        digits = alpha2digit(" ".join(rest), "en")
        if not digits.isdigit() or not 10 <= int(digits) <= 99:
            return None  # "twenty one" is 21
        low = int(digits)
    return str((19 if words[0] == "nineteen" else 20) * 100 + low)


def _corrected(text: str) -> str:
    """``text`` less each number the speaker took back: "36 no 40 inches" → "40 inches"; where the
    correction says again the words before the number ("under 30 no wait under 35"), those too."""
    while m := _CORRECTION.search(text):
        after = text[m.end() :]
        if not re.match(r"[$€£₹]?\d", after):
            before = re.findall(r"[^\W\d_]+", text[: m.start()])[-2:]
            again = [w for w in before if re.match(rf"{re.escape(w)}\b", after, re.I)]
            if not again:
                return text  # "2 no frost": no number said again, no correction
            start = text.rfind(again[0], 0, m.start())
            return _corrected(text[:start] + after)
        return _corrected(text[: m.start()] + after)
    return text
