"""The question read once: its parse, and every cue the later stages decide by, each read from the
words here so that grounding, interpretation and SPARQL never look at the raw text again.

:func:`read_question` is the stage's one entry; the catalog's vocabulary is set by the caller
(``use(vocabulary)``) for the parse and for these cues alike.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.tokens import norm_tokens
from dualgraph.lexicon.vocabulary import current
from dualgraph.query.read.asked import asked_attribute, money_asked, named_unit, share_subject_end
from dualgraph.query.read.coverage import coverage_caps, unread_factor, unread_words
from dualgraph.query.read.dates import TimeOrder, time_superlative
from dualgraph.query.read.model import Direction, EntityRef, Intent, NumericConstraint, ParsedQuestion
from dualgraph.query.read.number_hints import attr_hint, verb_before
from dualgraph.query.read.numbers import dimension_hint
from dualgraph.query.read.parse import attribute_said, comparative_read, difference_asked, parse_question
from dualgraph.query.read.relative import average_reference, relative_phrase

__all__ = ["Reading", "counts_compared", "grouping_asked", "read_question", "subject_end"]


_LEAD = re.compile(
    r"\s*(?:which|what|list|show(?:\s+me)?|find(?:\s+me)?|name|give\s+me|are\s+there|is\s+there"
    r"|how\s+many|do\s+you\s+(?:have|sell)|i\s+(?:want|need))\b",
    re.I,
)
# alternatives offered: "A or B", "A vs B", "comparing A and B", "between A and B", "Of A, B and C, which …",
# "A and B, which one …"
_ALTERNATIVES = re.compile(
    r"\b(?:or|vs\.?|versus|compar(?:e|ed|ing)|between)\b|\bwhich\s+(?:of\s+the|one)\b|^\s*of\b", re.I
)
_OPENING = frozenset({"a", "an", "the", "any", "all", "some", "every"})


def subject_end(question: str) -> int:
    """Where the subject of the question ends: the first verb or preposition after its opening
    words ("Which GPUs came out in 2017" → before "out"; "Which phones with a ceramic back" →
    before "with"). Grammar words of general English only (``general_words.yaml``).

    >>> q = "Which phones with a ceramic back have 16 GB?"
    >>> q[: subject_end(q)]
    'Which phones '
    """
    lead = _LEAD.match(question)
    pos = lead.end() if lead else 0
    grammar = general_words("function_words")
    for w in re.finditer(r"[\w'’-]+", question[pos:]):
        word = w.group().casefold()
        if word in grammar and word not in _OPENING:
            return pos + w.start()
    return len(question)


@dataclass(frozen=True)
class Reading:
    """One question, read: the parse and the cues decided from its words."""

    text: str
    """The question as asked: kept for display and for the spans of its mentions."""
    parsed: ParsedQuestion
    time_order: TimeOrder | None = None
    """The ordering by date asked ("the newest", "which came out first")."""
    difference: tuple[Direction, str] | None = None
    """(direction, attribute) when the gap between two named products is asked."""
    comparative: tuple[Direction, str] | None = None
    """(direction, attribute) of a comparative outside the numeric clauses ("cheaper than")."""
    comparative_word: str = ""
    """The comparative word itself ("newer", "cheaper")."""
    asked_attribute: str = ""
    """The attribute asked of one product ("What is the price of X?" → price)."""
    named_unit: tuple[str, str] | None = None
    """(canonical unit, its symbol) the answer is asked in ("…, in inches?")."""
    dimensions: frozenset[str] = field(default_factory=frozenset)
    """The dimensions the question's size/speed/duration words point to."""
    subject_end: int = 0
    """Where the question's subject ends (see :func:`subject_end`)."""
    product_noun: bool = False
    """Whether it names "a product" in general English ("List all products")."""
    counts_compared: bool = False
    """Whether its comparative compares how many there are ("more CMOS models", "more common")."""
    alternatives: bool = False
    """Whether it offers alternatives to choose from ("Canon's or Nikon's", "PAX vs BESTÅ")."""
    share_end: int = 0
    """Where the products a share is taken of end in the question (see :func:`.asked.share_subject_end`)."""
    contrasted: bool = False
    """Whether it sets one thing against another with "than" outside its numeric clauses ("Are Leica
    cameras heavier on average than Sony's?")."""
    than_average: tuple[str, str, int, int] | None = None
    """(comparator, attribute, start, end) when products are compared with the mean of those in scope
    ("deeper than the average bookcase", "an above-average battery")."""
    grouping: tuple[str, Direction | None] | None = None
    """(kind, direction) when it ranks or counts the catalogue's groupings, not products: ("brand",
    "max") for "Which brand has the most fridges?", ("line", None) for "How many different lines…"."""

    @cached_property
    def said_attribute(self) -> str:
        """An attribute of the catalog said outside the names and numbers, as a plural or a verb too
        ("which travels more": travel), for a comparison that names none with its comparative."""
        return attribute_said(self.text, [*self.parsed.entities, *self.parsed.constraints])

    @cached_property
    def money_asked(self) -> bool:
        """Whether it asks its number in a currency (", in dollars"): the measure is money."""
        return money_asked(self.text)

    @cached_property
    def words(self) -> frozenset[str]:
        """The question's words, folded as catalog names are ("Wi-Fi 6" → wi, fi, 6)."""
        return frozenset(norm_tokens(self.text))

    def hint_after(self, end: int) -> str:
        """The words right after a number that ends at ``end`` (what it measures, when no attribute was read)."""
        return attr_hint(self.text, end)

    def verb_before(self, start: int) -> str:
        """The attribute a verb of measure right before a number starting at ``start`` names ("weighs
        under 1 kg" → weight, "holds at least 26 cubic feet" → capacity), else ""."""
        return verb_before(self.text, start)

    def relative_to(self, name_start: int) -> tuple[str, str, int] | None:
        """The comparison a product named at ``name_start`` is the reference of ("a bigger battery than
        the X"): (comparator, attribute, where its wording starts), else ``None``."""
        return relative_phrase(self.text, name_start, self.number_spans)

    def opens_sentence(self, e: Any) -> bool:
        """Whether an unresolved name is one plain word opening a sentence ("Gaming matters most …"):
        capitalised by grammar, no digit, not spelled like a model name.

        >>> from dualgraph.query.read.model import EntityRef, Span
        >>> q = "Gaming matters most. Which phone?"
        >>> r = Reading(q, ParsedQuestion(q, Intent("list")))
        >>> r.opens_sentence(EntityRef(Span(0, 6, "Gaming"), "Gaming", "unknown"))
        True
        >>> Reading("Is the Nova better?", r.parsed).opens_sentence(EntityRef(Span(7, 11, "Nova"), "Nova", "unknown"))
        False
        """
        if not isinstance(e, EntityRef) or e.kind != "unknown" or not re.fullmatch(r"[A-Z][a-z]+", e.phrase):
            return False
        before = self.text[: e.span.start]
        return not before.strip() or bool(re.search(r"[.!?:;]\s*$", before))

    def unread(self, intent: Intent, covered: list[str]) -> list[str]:
        """Content words outside the ``covered`` phrases, less those of the intent (:mod:`.coverage`)."""
        return unread_words(self.text, intent, covered)

    def coverage_caps(
        self, intent: Intent, covered: list[str], restricts: bool, *, order_named: bool, trace: list[str]
    ) -> list[float]:
        """Confidence caps for what the query did not read (:func:`.coverage.coverage_caps`)."""
        return coverage_caps(self.text, intent, covered, restricts, order_named=order_named, trace=trace)

    def unread_factor(self, intent: Intent, covered: list[str]) -> float:
        """The confidence kept for the words left unread (:func:`.coverage.unread_factor`)."""
        return unread_factor(self.text, intent, covered)

    def between(self, start: int, end: int) -> str:
        """The question's words from ``start`` to ``end``."""
        return self.text[start:end]

    @cached_property
    def number_spans(self) -> list[tuple[int, int]]:
        return number_spans(self.parsed)


def number_spans(parsed: ParsedQuestion) -> list[tuple[int, int]]:
    """The spans of the question's numeric clauses: words inside them are no comparison of their own."""
    return [(c.span.start, c.span.end) for c in parsed.constraints if isinstance(c, NumericConstraint)]


def read_question(question: str, *, currency: str | None, parsed: ParsedQuestion | None = None) -> Reading:
    """Read ``question`` (``parsed``: its parse, when a batch already made it)."""
    parsed = parsed or parse_question(question, currency=currency)
    cmp = comparative_read(question, number_spans(parsed))
    return Reading(
        question,
        parsed,
        time_order=time_superlative(question),
        difference=difference_asked(question),
        comparative=cmp[1:] if cmp else None,
        comparative_word=cmp[0] if cmp else "",
        asked_attribute=asked_attribute(question),
        named_unit=named_unit(question),
        dimensions=dimension_hint(question),
        subject_end=subject_end(question),
        product_noun=bool(general_words("product_nouns") & {w.casefold() for w in re.findall(r"\w+", question)}),
        counts_compared=counts_compared(question),
        alternatives=bool(_ALTERNATIVES.search(question)),
        share_end=share_subject_end(question),
        contrasted=any(
            not any(a <= m.start() < b for a, b in number_spans(parsed))
            for m in re.finditer(r"\bthan\b", question, re.I)
        ),
        grouping=grouping_asked(question),
        than_average=average_reference(question, number_spans(parsed)),
    )


_KINDS = {"brand": "brand_words", "line": "range_words", "category": "section_words"}


@functools.cache
def _grouping_patterns() -> tuple[dict[str, str], re.Pattern[str], re.Pattern[str]]:
    """(grouping word → kind, "how many different brands", "which brand has the most …")."""
    words = {w: kind for kind, key in _KINDS.items() for w in general_words(key)}
    alts = "|".join(sorted(words, key=len, reverse=True))
    counted = re.compile(rf"\bhow\s+many\s+(?:different\s+|distinct\s+|separate\s+)?({alts})\b", re.I)
    ranked = re.compile(
        rf"\b(?:which|what)\s+({alts})\b[^?.,]*?\b(?:the\s+)?(most|fewest|least)\b(?:\s+([\w'’-]+))?", re.I
    )
    return words, counted, ranked


def grouping_asked(question: str) -> tuple[str, Direction | None] | None:
    """(kind, direction) when the question ranks the catalogue's brands, lines or sections by how many
    products they hold ("Which brand has the most fridges?": brand, max) or counts them ("How many
    different brands…": brand, ""). "Which brand has the most expensive phone?" ranks products.

    >>> grouping_asked("Which brand has the most models?"), grouping_asked("How many different brands are there?")
    (('brand', 'max'), ('brand', None))
    >>> grouping_asked("Which brand has the most expensive phone?") is None
    True
    """
    words, counted, ranked = _grouping_patterns()
    if m := counted.search(question):
        return words[m.group(1).casefold()], None
    m = ranked.search(question)
    if m is None:
        return None
    nxt = (m.group(3) or "").casefold()
    plain = general_words("product_nouns") | general_words("question_scaffold")  # "the most models", "the most in"
    if nxt and not (nxt in plain or current().is_category(nxt)):
        return None  # "the most expensive phone": a product is ranked
    return words[m.group(1).casefold()], "min" if m.group(2).casefold() in ("fewest", "least") else "max"


def counts_compared(question: str) -> bool:
    """Whether a comparative compares how many products there are: "more"/"fewer" before a noun for
    products or a category of the catalog ("more CMOS models", "more YT or Nukeproof bikes"), or
    before a word for how common something is ("more common").

    >>> counts_compared("Who has more CMOS models, Sony or Panasonic?"), counts_compared("Which is more expensive?")
    (True, False)
    """
    for m in re.finditer(r"\b(?:more|fewer|less)\s+((?:[\w'’-]+\s+){0,3}[\w'’-]+)\b", question, re.I):
        words = [w.casefold() for w in m.group(1).split()]
        if words[0] in general_words("count_words"):
            return True
        if any(w in general_words("product_nouns") or current().is_category(w) for w in words):
            return True
        if _things_counted(words[0], question[m.start(1) + len(words[0]) :]):
            return True
    return False


def _things_counted(word: str, after: str) -> bool:
    """Whether a word after "more"/"fewer" is a plural noun of things, not a measure: "more chips
    with Hyper-Threading", "fewer listings in Germany"; not "more cores" or "more threads" (what the
    catalog measures), nor "more expensive" (no plural), and said before a condition or the end.

    >>> _things_counted("chips", " with Hyper-Threading?"), _things_counted("expensive", " than the X?")
    (True, False)
    """
    plural = len(word) > 3 and word.isalpha() and word.endswith("s") and not word.endswith(("ss", "us"))
    vocabulary = current()
    return (
        plural
        and word not in vocabulary.attribute_words
        and word not in vocabulary.feature_words
        and re.match(
            r"\s*(?:with|without|that|which|in|on|among|here|listed|over|under|below|above|from|for|than|[?,;:.]|$)",
            after,
            re.I,
        )
        is not None
    )
