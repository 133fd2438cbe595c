"""Lower-case words of a question that are values of the catalog's value lists, tied to the entry
by the words around them ("*wall* mounts" → Mounting type: Wall, "a *dedicated* slot" → Memory
Card Slot: dedicated, "made of *silicone*" → Material: Silicone).

The parser reads capitalised value names ("Dynamic AMOLED", "Snapdragon 8"); plain words need the
catalog to be recognised, and a link to the entry so that a common word is not taken for a value
by chance: one of the next two words names the entry or its section ("slot" ~ "Memory Card
Slot", "mounts" ~ "Mounting"), or "made of/from" precedes a value of a material entry.
"rather than"/"instead of"/"not"/"outside" before the word negate it.

Two spellings need no link word, being unambiguous by construction: a money name said without an
amount ("priced in *euros*") where a value list holds that currency's code or sign ("EUR", "zł"),
and a capitalised initialism ("the *UK*") that spells the initials of exactly one multi-word value
("United Kingdom"). A word with digits ("*650B* wheels") is a value when it is one word of a listed
value ("27.5 in / 650B") and the entry is named next to it.
"""

from __future__ import annotations

import re

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.english import general_words, one_spelling
from dualgraph.lexicon.patterns import Pattern
from dualgraph.query.read.model import Span, ValueConstraint
from dualgraph.skg import currencies
from dualgraph.skg.quantities import normalise_unit

__all__ = ["ValueSpellings", "spot_values"]

_MAX_VALUES = 50
_QUALIFIER_VALUES = 12  # a value said as an adjective comes from a short list (segments, types, kinds)
_STOP = frozenset(
    """the and with without for from that which have has are not yes no any all other more less most
least best good new old one two""".split()
)
_NEG = re.compile(
    r"\b(?:rather\s+than|instead\s+of|not|no|without|except|outside(?:\s+of)?)\b"
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


def _free(m: re.Match[str], taken: list[tuple[int, int]]) -> bool:
    return not any(a < m.end() and m.start() < b for a, b in taken)


def _negated(question: str, at: int) -> bool:
    return bool(_NEG.search(question[max(0, at - 30) : at]))


class ValueSpellings:
    """The value lists' spellings looked up by code, initials and coded word, built once per index
    (a question then costs a few dictionary lookups, not a pass over every listed value)."""

    def __init__(self, patterns: list[Pattern]) -> None:
        self.values = sorted((p for p in patterns if p.kind == "spec_value"), key=lambda p: -p.count)
        self.money: dict[str, tuple[str, Pattern]] = {}  # ISO code -> (value name, its most held list)
        self.initials: dict[str, set[tuple[str, int]]] = {}  # "UK" -> {("United Kingdom", list index)}
        self.coded: dict[str, list[Pattern]] = {}  # "650b" -> the lists with a value holding that word
        # a coded value whole, its letters and digits run together ("R-441A" → "r441a"): said with
        # other spacing ("r 441 a", "R441A") it is still that value
        self.squashed: dict[str, tuple[str, Pattern]] = {}
        for i, p in enumerate(self.values):
            for v in p.values:
                name = v["name"]
                key = _squash(name)
                if len(key) >= 4 and re.search(r"\d", key) and re.search(r"[^\W\d_]", key):
                    self.squashed.setdefault(key, (name, p))
                if (code := currencies.lookup(name, hint=())) is not None:
                    self.money.setdefault(code, (name, p))
                for short in _initials(name):
                    self.initials.setdefault(short, set()).add((name, i))
                for t in _value_tokens(name):
                    if re.search(r"\d", t) and re.search(r"[^\W\d_]", t):
                        lists = self.coded.setdefault(t, [])
                        if p not in lists:
                            lists.append(p)


def spot_values(
    question: str,
    patterns: list[Pattern],
    taken: list[tuple[int, int]],
    *,
    spellings: ValueSpellings | None = None,
    nouns: frozenset[str] = frozenset(),
) -> list[ValueConstraint]:
    """Value constraints for plain words outside ``taken`` that a value list names (see the module);
    ``spellings``: :class:`ValueSpellings` of ``patterns`` when the caller keeps one; ``nouns``: the
    words the catalog's categories are named by (singular), before which a value word qualifies
    the products ("*desktop* processors")."""
    spellings = spellings or ValueSpellings(patterns)
    out = _plain_words(question, spellings.values, taken, nouns)
    taken = taken + [(v.span.start, v.span.end) for v in out]
    out += _coded_words(question, spellings, taken)
    return sorted(out, key=lambda v: v.span.start)


def _value_tokens(name: str) -> list[str]:
    return re.findall(r"\w[\w.]*\w|\w", name.casefold())


def _initials(name: str) -> set[str]:
    """ "United Kingdom" → {"UK"}; "United States of America" → {"USA", "USOA"}; one word → none."""
    words = re.findall(r"[^\W\d_]+", name)
    if len(words) < 2:
        return set()
    full = "".join(w[0] for w in words).upper()
    major = "".join(w[0] for w in words if w.casefold() not in _STOP and w.casefold() not in ("of", "on", "in"))
    return {full, major.upper()} - {""}


def _coded_words(question: str, sp: ValueSpellings, taken: list[tuple[int, int]]) -> list[ValueConstraint]:
    """Money names said without an amount, initialisms of a value, words with digits in a value."""
    out: list[ValueConstraint] = []
    # a code is one word with its digits ("GDDR5", "650B"), not its letters and then a number
    words = list(re.finditer(r"[^\W\d_]+\d[^\W_]*|[^\W\d_][^\W\d_-]*|\w+", question))
    for i, m in enumerate(words):
        if not _free(m, taken) or any(v.span.start <= m.start() < v.span.end for v in out):
            continue
        w = m.group()
        found = None
        # "priced in euros", "listed in Polish zloty": two words, then one; never beside an amount
        if sp.money and not re.search(r"\d", question[max(0, m.start() - 12) : m.end() + 12]):
            for j in (i - 1, i):
                if j < 0 or found is not None or not _free(words[j], taken):
                    continue
                said = question[words[j].start() : m.end()]
                code = None if said.casefold() in _STOP else currencies.lookup(said)
                if code in sp.money:
                    found = (words[j].start(), *sp.money[code])
        if (
            found is None
            and re.fullmatch(r"[A-Z]{2,4}", w)
            and len({n for n, _ in sp.initials.get(w, ())}) == 1
            and normalise_unit(w) is None  # "MP" is megapixels, not "Multi Pattern"
        ):
            name, i_list = next(iter(sp.initials[w]))
            found = (m.start(), name, sp.values[i_list])
        if found is None and (run := _squashed_run(question, words, i, sp)) is not None:
            found, m = run
        if found is None and (lists := sp.coded.get(w.casefold())):
            link = next((p for p in lists if any(_names_entry(x.group(), p) for x in words[i + 1 : i + 3])), None)
            if link is not None:
                found = (m.start(), w, link)
        if found is not None:
            start, name, p = found
            span = Span(start, m.end(), question[start : m.end()])
            out.append(ValueConstraint(span, name, p.entry or "", _negated(question, start)))
    return out


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def _squashed_run(
    question: str, words: list[re.Match[str]], i: int, sp: ValueSpellings
) -> tuple[tuple[int, str, Pattern], re.Match[str]] | None:
    """A coded value said with other spacing from word ``i`` on, two to four words apart only by
    spaces or hyphens ("r 441 a" for "R-441A"): (start, the value, its list) and the last word."""
    for n in (4, 3, 2):
        run = words[i : i + n]
        if len(run) < n or any(question[a.end() : b.start()].strip(" -") for a, b in zip(run, run[1:])):
            continue
        if hit := sp.squashed.get(_squash("".join(x.group() for x in run))):
            return (run[0].start(), hit[0], hit[1]), run[-1]
    return None


def _spaced(text: str) -> str:
    """``text`` folded, hyphens read as spaces ("Bottom Freezer" and "bottom-freezer" alike), in one
    English spelling ("Aluminium" and "aluminum" alike)."""
    return one_spelling(" ".join(re.split(r"[\s-]+", text)).strip())


_COORDINATORS = frozenset({"and", "or", "nor"})


def _subject_modifiers(question: str, words: list[re.Match[str]]) -> set[int]:
    """The words before the head of the question's subject ("Which *steel* or *chromoly* hardtails
    are …", "How many *aluminium* frames …"): the run after "which"/"what"/"how many" (or "list"/
    "show"/"find" and a determiner) up to the first grammar word, joined by "and"/"or"/commas,
    less its last word, the noun they qualify. A value of a short list said there qualifies the
    products as an adjective does, whatever noun follows."""
    folded = [m.group().casefold() for m in words]
    if folded[:1] in (["which"], ["what"]):
        start = 1
    elif folded[:2] == ["how", "many"]:
        start = 2
    elif folded[:1] and folded[0] in ("list", "show", "find"):
        start = 1
        while start < len(folded) and folded[start] in ("me", "all", "the", "any"):
            start += 1
    else:
        return set()
    grammar = general_words("function_words") | general_words("price_words")
    run: list[int] = []
    for i in range(start, len(words)):
        if i > start and question[words[i - 1].end() : words[i].start()].strip(" ,"):
            break  # a digit, a sign or a stop between them ends the phrase
        if folded[i] in _COORDINATORS:
            continue
        if folded[i] in grammar:
            break
        run.append(i)
    return set(run[:-1])


def _plain_words(
    question: str, patterns: list[Pattern], taken: list[tuple[int, int]], nouns: frozenset[str] = frozenset()
) -> list[ValueConstraint]:
    words = list(re.finditer(r"[^\W\d_][\w-]*", question))
    modifiers = _subject_modifiers(question, words)
    out: list[ValueConstraint] = []
    for i, m in enumerate(words):
        w = m.group()
        if len(w) < 3 or not w.islower() or w in _STOP or not _free(m, taken):
            continue
        made_of = bool(_MADE_OF.search(question[: m.start()]))
        # said of the products and ending the clause: the word is the value, whatever entry lists it
        said_of = bool(_SAID_OF.search(question[: m.start()])) and re.match(r"\s*(?:[?.,!]|$)", question[m.end() :])
        # "bottom-freezer" is the listed "Bottom Freezer": a compound of two words or more is too
        # particular to be a value by chance, and needs no word naming its entry
        compound = "-" in w.strip("-")
        # "desktop processors", "server CPUs": a value of a short list said right before what the
        # catalog sells qualifies those products, as an adjective does
        nxt = words[i + 1] if i + 1 < len(words) else None
        qualifies = (
            nxt is not None and not question[m.end() : nxt.start()].strip() and _stem(nxt.group()) in nouns
        ) or i in modifiers
        holders = [
            p
            for p in patterns
            if ((p.distinct_values or 0) <= _MAX_VALUES or said_of or made_of or compound)
            and any(_spaced(v["name"]) == _spaced(w) for v in p.values)
        ]
        if not holders and compound and (named := _value_and_entry(w, patterns)) is not None:
            # "manual-defrost": a value ("Manual") joined to a word naming its entry ("Defrost Type")
            neg = _negated(question, m.start())
            out.append(ValueConstraint(Span(m.start(), m.end(), w), named[0], named[1].entry or "", neg))
            continue
        for p in sorted(holders, key=lambda p: -p.count):
            link = next((x for x in words[i + 1 : i + 3] if _names_entry(x.group(), p)), None)
            if (
                link is not None
                or compound
                or (qualifies and (p.distinct_values or 0) <= _QUALIFIER_VALUES)
                or (made_of and re.search(r"material", f"{p.section} {p.entry}", re.I))
                or (said_of and not made_of)
            ):
                neg = _negated(question, m.start())
                # the span runs to the entry's word: "hybrid SIM slot" is one phrase about the slot
                end = link.end() if link is not None else m.end()
                out.append(ValueConstraint(Span(m.start(), end, question[m.start() : end]), w, p.entry or "", neg))
                break
    return out


def _value_and_entry(word: str, patterns: list[Pattern]) -> tuple[str, Pattern] | None:
    """A hyphenated word whose last part names an entry of a short value list and whose first parts
    are one of its values ("manual-defrost" → ("manual", Defrost Type)): the value and the list."""
    head, _, tail = word.strip("-").rpartition("-")
    if not head:
        return None
    for p in sorted(patterns, key=lambda p: -p.count):
        if (
            (p.distinct_values or 0) <= _MAX_VALUES
            and _names_entry(tail, p)
            and any(_spaced(v["name"]) == _spaced(head) for v in p.values)
        ):
            return head, p
    return None
