"""The deterministic NL→SPARQL compiler: parse, ground each constraint, emit one query, run it.

No model calls and no tokens: :func:`~dualgraph.query.read.parse.parse_question` reads the question,
:class:`~dualgraph.query.ground.grounder.Grounder` grounds every constraint and entity on its own,
and :class:`Compiler` assembles one ``SELECT`` over products::

    SELECT DISTINCT ?p ?name WHERE {
      ?p a skgt:Product ; skg:hasName ?name .
      <one block per grounded constraint, fresh ?s1/?v1, ?s2/?v2 ...>  FILTER(...)
    } ORDER BY ?name

Everything is ANDed: named products/ranges (``VALUES ?p``), a brand (name prefix), a category,
and each constraint. Per intent:

- list → distinct product names; count → ``COUNT(DISTINCT ?p)`` (of ranges with ``count_ranges``);
- superlative → products grouped with ``MAX``/``MIN`` of the attribute's value, ordered; the
  top ``k`` are cut *in Python keeping ties* (every product whose value equals the k-th one).
  ``value`` is the extreme *number* when the question asks for it ("What is the lowest price
  of …", "How much does the cheapest … cost?"), else one product name (the first by name of
  the tied winners; every winner is in ``answer_list``); a number is given in the unit the question
  names, else the unit the catalog wrote it in (``Answer.unit``; :mod:`~dualgraph.query.sparql.value_answer`);
  A tie-breaker ("… the longest battery life *at the lowest price*") adds a second
  aggregate ``?value2`` ordered after ``?value``; products tie only when equal on both;
- compare → the same, restricted to the named products (k = 1, ties kept, ``value`` one name;
  asked as yes/no, "Is X heavier than Y?", ``value`` is "yes" when the first product named wins
  alone, else "no"; the winners stay in ``answer_list``).
  A question the parser read as a list becomes a compare when two or more catalog names
  resolve and it holds a comparative ("is the nova lite cheaper than the zenith basic");
- describe → the named product's specs (section, entry, value);
- a value lookup ("What is the price of the Nova Lite?", "How heavy is X?", one product named) is
  a superlative over that product alone: ``value`` is the number;
- yesno → the constrained list restricted to the named product: "yes" when it is in it; with no
  product named ("Do any zenith phones have NFC?") "yes" when the list is not empty.

Before grounding, :class:`~dualgraph.query.ground.spotting.CatalogSpotter` looks up what the parser
cannot know: catalog names in any case, category names ("phone cases"), lower-case brands, and
plain words that are values next to a word naming their entry ("wall mounts"). Several
categories are alternatives (united, not ANDed). Entries are chosen within the question's scope
and widened to same-named entries of other sections (:mod:`~dualgraph.query.ground.entry_choice`).

Confidence: the weakest resolved grounding's confidence (lexical/exact matches score high, a
prose-mention fallback 0.4, an entry matched only by the search 0.45), halved for each constraint
or named product that could not be grounded (and so was left out). A capitalised plain word
opening a sentence ("Gaming matters most …") that names nothing is not counted as an unresolved
name. Constraints whose grounding is unresolved are left out (and in the trace); an unresolved
named product makes compare/describe/yesno fail with ``error``.
Every query passes :func:`~dualgraph.query.sparql.safety.check_query` (via ``run_select``).

:class:`Compiler` decides; the parts it puts together each have a module of their own:

- :mod:`~dualgraph.query.read.number_hints`: what a number with no attribute measures;
- :mod:`~dualgraph.query.ground.names_and_scope`: the question's names and scope, grounded;
- :mod:`~dualgraph.query.sparql.emit`: the SPARQL text, per intent;
- :mod:`~dualgraph.query.sparql.read_answer`: the rows read into the answer, per intent.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from dualgraph.lexicon.pattern import fill, filled
from dualgraph.lexicon.patterns import PatternIndex
from dualgraph.lexicon.vocabulary import QuestionVocabulary, catalog_values, current, use
from dualgraph.query.caps import CAP_FACTOR, CONDITIONS, QUERY_ROWS, QUERY_TIMEOUT, CapHit, add_cap
from dualgraph.query.ground.entry_choice import keep_in_scope, kept_scope, scope_entries
from dualgraph.query.ground.features import NOTHING_NAMES_IT, either, values_first
from dualgraph.query.ground.grounder import MIN_CONFIDENCE, Grounder, Grounding
from dualgraph.query.ground.names_and_scope import ground_names
from dualgraph.query.ground.spotting import CatalogSpotter
from dualgraph.query.ground.text_features import TextFeature
from dualgraph.query.interpret import BeamConfig, Emission, reconsider
from dualgraph.query.interpret.beam import expects_members, phrase_of
from dualgraph.query.interpret.fitted import reader_config
from dualgraph.query.interpret.groups import Groups, compared_groups, either_scope
from dualgraph.query.interpret.sides import compared_sides
from dualgraph.query.read.dates import DATE_ATTRIBUTES, date_event, orders_by_date
from dualgraph.query.read.model import (
    DateConstraint,
    Direction,
    FeatureConstraint,
    Intent,
    NumericConstraint,
    ParsedQuestion,
    ValueConstraint,
)
from dualgraph.query.read.number_hints import attr_hint, measure_words
from dualgraph.query.read.numbers import PRICE_WORDS, dimension_hint, inverse_dimensions, unit_word
from dualgraph.query.read.parse import parse_question
from dualgraph.query.read.reading import Reading, read_question
from dualgraph.query.read.relative import average_blocks, relative_blocks
from dualgraph.query.read.spoken import said
from dualgraph.query.sparql.emit import order_block, select_query, where_clauses
from dualgraph.query.sparql.product_tables import tables_for
from dualgraph.query.sparql.read_answer import read_answer
from dualgraph.query.sparql.safety import QUERY_TIMEOUT_S, ROW_CAP, QueryResult, check_query, run_select
from dualgraph.skg import currencies
from dualgraph.stores.base import QueryTimeout

__all__ = ["MAX_CONDITIONS", "Answer", "Compiled", "Compiler"]

MAX_CONDITIONS = 24
"""Conditions (numbers, features, values, dates) one question is read for. Each costs grounding work
and a block of the query; past this many the question is no shopper's, and the rest are left
unread (reported, and halving the confidence as any unread mention does), never grounded."""


@dataclass(slots=True)
class Compiled:
    """One compiled question: the SPARQL (``None`` when it could not be compiled), and why."""

    question: str
    intent: Intent
    sparql: str | None
    parsed: ParsedQuestion
    groundings: list[Grounding] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    confidence: float = 0.0
    error: str | None = None
    named_products: list[str] = field(default_factory=list)
    named_groups: list[list[str]] = field(default_factory=list)
    covered: list[str] = field(default_factory=list)
    """The question's phrases read as constraints, names or scope (after catalog spotting)."""
    covered_extra: list[str] = field(default_factory=list)
    """The product IRIs of each resolved named product/range, in question order."""
    order_unit: str | None = None
    """The unit (canonical) of the superlative/compare ordering value; ``None`` for prices and counts."""
    order_snippet: str = ""
    emission: Emission | None = None
    """What ``sparql`` was written from, to write it again with other readings (the beam)."""
    unread: list[str] = field(default_factory=list)
    """Phrases of the question the query does not read: mentions left ungrounded, content words."""
    scope_where: str = ""
    """The graph pattern over ``?p`` of the question's grounded scope (brands, lines, categories):
    a text fallback answers within it (empty: the whole catalog)."""
    refused: str = ""
    """Why no query is asked: the question names nothing the catalog knows (see :data:`REFUSAL`)."""
    caps: list[CapHit] = field(default_factory=list)
    """The caps reading and grounding the question reached, and what they cut (:mod:`dualgraph.query.caps`)."""
    restricts: bool = True
    """Whether the query reads a condition beyond the scope (a category alone restricts nothing)."""


@dataclass(slots=True)
class Answer:
    """What the compiled query returned: names for lists, ``value`` for count/superlative/compare/yesno."""

    question: str
    intent: str
    answer_list: list[str] | None = field(default_factory=list)
    value: Any = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    sparql: str | None = None
    trace: list[str] = field(default_factory=list)
    confidence: float = 0.0
    error: str | None = None
    truncated: bool = False
    unit: str | None = None
    """The unit of a numeric ``value`` (see :mod:`dualgraph.query.sparql.value_answer`); ``None`` for prices/counts."""
    covered: list[str] = field(default_factory=list)
    """The question's phrases the compiler read as constraints, names or scope."""
    unread: list[str] = field(default_factory=list)
    """The question's phrases the answer did not read (see :attr:`Compiled.unread`)."""
    scope_where: str = ""
    """See :attr:`Compiled.scope_where`."""
    refused: str = ""
    """See :attr:`Compiled.refused`: set, the answer lists nothing and says why."""
    caps: list[CapHit] = field(default_factory=list)
    """The caps the question reached, reading, grounding, checking readings and running the query."""
    restricts: bool = True
    """See :attr:`Compiled.restricts`."""


_REFUSABLE = ("list", "count", "yesno")
_KINDS = {NumericConstraint: "numeric", FeatureConstraint: "feature", ValueConstraint: "value", DateConstraint: "date"}
"""The grounding kind of each kind of condition (for one left unread past :data:`MAX_CONDITIONS`)."""
REFUSED_CONFIDENCE = 0.05
"""The confidence of a refusal: low, so that the text gets its turn (it answers if a phrase anchors it)."""

_MEANS = frozenset({"with", "via", "using", "through", "by"})
"""A preposition joining two features into one capability ("contactless payments with NFC")."""


def means_of(reading: Reading, groundings: list[Grounding], trace: list[str]) -> list[Grounding]:
    """Two positive features joined by "with"/"via"/"using" name one capability and its means
    ("contactless payments with NFC", "streaming via Chromecast"): a page may state either, so
    the two groundings become one that either satisfies."""
    out = list(groundings)
    feats = [
        g
        for g in out
        if isinstance(g.source, FeatureConstraint)
        and not g.source.negated
        and g.resolved
        and g.snippet
        and not g.filters
    ]
    for a, b in zip(feats, feats[1:]):
        gap = reading.between(a.source.span.end, b.source.span.start).strip().casefold()
        if gap in _MEANS and a in out and b in out:
            a.snippet = either(a.snippet.replace("{s}", "{s}a"), b.snippet.replace("{s}", "{s}b"))
            a.confidence = max(a.confidence, b.confidence)
            out.remove(b)
            trace.append(f"{a.source.phrase!r} {gap} {b.source.phrase!r}: one capability, either fact will do")
    return out


_OR_GAP = re.compile(r"\s*(?:,|,?\s*(?:and/)?or)\s*(?:(?:in|from|of|the|a|an)\s+)?", re.I)
"""What joins alternatives of one list: "steel or chromoly", "Wales, Scotland or Ireland", "in Wales or in Spain"."""


def alternatives_of(reading: Reading, groundings: list[Grounding], trace: list[str]) -> list[Grounding]:
    """Values of one entry joined by "or" (and commas before an "or") are one condition that
    either satisfies: "steel or chromoly frames", "for sale in Wales or Scotland". Read as two
    conditions, a product would need both values of the entry, and a one-value entry holds none
    that do. A negated run ("neither steel nor carbon") stays as it is: each negation holds."""
    out = list(groundings)
    values = [
        g
        for g in out
        if isinstance(g.source, ValueConstraint) and not g.source.negated and g.resolved and g.snippet and not g.filters
    ]
    runs: list[list[Grounding]] = []
    for a, b in zip(values, values[1:]):
        gap = reading.between(a.source.span.end, b.source.span.start)
        same = a.pattern is not None and b.pattern is not None and a.pattern.entry_iri == b.pattern.entry_iri
        if not same or not _OR_GAP.fullmatch(gap):
            continue
        if runs and runs[-1][-1] is a:
            runs[-1].append(b)
        else:
            runs.append([a, b])
    for run in runs:
        gaps = [reading.between(x.source.span.end, y.source.span.start) for x, y in zip(run, run[1:])]
        if not any(re.search(r"\bor\b", g, re.I) for g in gaps):
            continue  # commas alone list conditions that all hold ("NFC, 5G")
        branches = [
            values_first(g.snippet.replace("{s}", "{s}" + chr(97 + i)).replace("{v}", "{v}" + chr(97 + i)))
            for i, g in enumerate(run)
        ]
        first = run[0]
        first.parts = [replace(g, parts=[]) for g in run]  # each value alone, for a question that compares them
        first.snippet = "{ SELECT DISTINCT ?p WHERE { " + " UNION ".join(f"{{ {b} }}" for b in branches) + " } }"
        first.confidence = min(g.confidence for g in run)
        for g in run[1:]:
            out.remove(g)
        said = " or ".join(repr(g.source.phrase) for g in run)
        trace.append(f"{said}: values of one entry joined by 'or', either will do")
    return out


REFUSAL = "The question names nothing this catalogue knows: no product, scope, attribute or feature could be read."
"""What a question with nothing to read ("{{{{", "the the the", words of no language the catalog
uses) is answered: a list of every product would be a confident answer to a question nobody asked."""


def _known(word: str) -> bool:
    """Whether a word the query did not read still means something here: the catalog's vocabulary
    places it, or it names a unit, a currency, a price or a measure ("centimetres", "euros", "tall")."""
    return (
        current().places(word)
        or unit_word(word)
        or word in PRICE_WORDS
        or currencies.lookup(word) is not None
        or bool(dimension_hint(word))
    )


def scope_pattern(scope: list[Grounding]) -> str:
    """The graph pattern selecting the products of every resolved scope grounding (their own
    variables, so two scopes never share one).

    >>> scope_pattern([Grounding(None, "brand", snippet="?p skg:hasBrand {s} .", name_filter="true")])
    '?p skg:hasBrand ?sc0 . FILTER(true)'
    """
    parts = [fill(gr.snippet, f"?sc{i}", f"?scv{i}") for i, gr in enumerate(scope) if gr.snippet]
    parts += [f"FILTER({gr.name_filter})" for gr in scope if gr.name_filter]
    return " ".join(parts)


@dataclass(slots=True)
class _Work:
    """What one compile has settled so far, handed from step to step."""

    out: Compiled
    reading: Reading
    constraints: list[Any]
    entities: list[Any] = field(default_factory=list)
    named: list[Grounding] = field(default_factory=list)
    scope: list[Grounding] = field(default_factory=list)
    named_ok: list[Grounding] = field(default_factory=list)
    groundings: list[Grounding] = field(default_factory=list)
    rest: list[Grounding] = field(default_factory=list)
    in_scope: Any = None
    rel: tuple[str, Grounding, list[str], int] | None = None
    """(comparator, the attribute's grounding, the reference's products, id of its name grounding)"""
    products: list[str] = field(default_factory=list)
    blocks: list[str] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    n_blocks: int = 0
    n_filters: int = 0
    confs: list[float] = field(default_factory=list)
    penalty: float = 1.0
    order: Grounding | None = None
    then: Grounding | None = None
    value_entry: Any = None
    """The value list a one-product lookup reads ("What is the sensor type of X?"), else None."""
    groups: Groups | None = None
    """The groups of products the question compares (see :mod:`~dualgraph.query.interpret.groups`)."""
    sides: tuple[list[list[str]], list[Grounding]] | None = None
    """A comparison's sides already found, one product each (see :meth:`Compiler._one_product_a_side`)."""

    def kinds_named(self) -> list[Grounding]:
        """The name groundings with no products of their own: a kind said by name words."""
        return [ge for ge in self.named if ge.resolved and not ge.products]


class Compiler:
    """Compile questions over ``store`` with the pattern index built from it.

    ``currency``: the currency of bare prices ("under 20k"); ``row_cap``: rows kept per query;
    ``prose_synonyms``: page words -> catalog words mined from the index's pages
    (:func:`~dualgraph.lexicon.mining.load_prose_synonyms`).
    """

    def __init__(
        self,
        store,
        patterns: PatternIndex,
        *,
        currency: str | None = None,
        row_cap: int = ROW_CAP,
        timeout_s: float = QUERY_TIMEOUT_S,
        count_ranges: bool = False,
        prose_synonyms: Mapping[str, list[str]] | None = None,
        beam: BeamConfig | None = None,
        text_features: list[TextFeature] | None = None,
    ) -> None:
        self.beam = beam or reader_config().beam
        self.count_ranges = count_ranges  # counts over product ranges (answers name ranges), not variants
        self.store = store
        self.patterns = patterns
        self.currency = currency
        self.row_cap = row_cap
        self.timeout_s = timeout_s
        self.grounder = Grounder(
            store, patterns, currency=currency, prose_synonyms=prose_synonyms, text_features=text_features
        )
        embedder = getattr(patterns, "embedder", None)
        self.vocabulary = QuestionVocabulary.from_patterns(
            patterns.patterns,
            text_features=self.grounder.text_features().features,
            prose_words=list(prose_synonyms or {}),
            values=catalog_values(store, names=getattr(patterns, "value_names", None)),
            embed=(lambda texts: embedder.embed(texts, stage="query")) if embedder is not None else None,
        )
        lines = store.select("SELECT DISTINCT ?n WHERE { ?l a skgt:ProductLine ; skg:hasName ?n }")
        self.spotter = CatalogSpotter(patterns.patterns, lines=[b["n"]["value"] for b in lines["results"]["bindings"]])
        self._parsed: dict[str, ParsedQuestion] = {}  # the batch's parses from prefetch, each used once
        self.tables = tables_for(store, timeout_s=timeout_s)
        """Lists and counts answered from per-product tables (None: every query runs on the store)."""

    @contextmanager
    def _reading(self, question: str) -> Iterator[None]:
        """Read ``question`` with its own vocabulary and the catalog's price currencies (an ambiguous
        "$", "SR" or "riyals" names the currency this catalog prices in)."""
        prices = [self.currency] if self.currency else [c for c, _ in self.grounder.currencies()]
        with use(self.vocabulary.for_question(question)), currencies.hinted(prices):
            yield

    def prepare(self) -> None:
        """Do now the per-index work questions would otherwise start lazily (see Grounder.prepare)."""
        self.grounder.prepare()
        self.vocabulary.prepare()
        if self.tables is not None:
            self.tables.prepare()

    def prefetch(self, questions: list[str]) -> int:
        """Embed, in one call, the phrases grounding these questions will look up (attributes,
        features, values, names), so a batch's compiles find them in the embedder's memory instead
        of each paying a model call and a cache round trip, and score them against the whole
        pattern index in one pass (:meth:`PatternIndex.prefetch`); returns how many texts were
        asked for.

        A guess from the parse alone: a phrase grounding settles on later (a hint the spotter adds)
        is embedded when it is met, as before. Answers do not change, only when the work is done.
        """
        self.vocabulary.prefetch(questions)  # the words each question's own vocabulary embeds
        self._parsed.clear()  # a question the last batch routed to the text never compiled
        texts: list[str] = []
        for q in map(said, questions):
            try:
                with self._reading(q):
                    parsed = parse_question(q, currency=self.currency)
            except Exception:  # compiling the question says what is wrong with it
                continue
            self._parsed[q] = parsed  # compiling reads it instead of parsing again
            texts += [parsed.intent.attribute, parsed.intent.then_attribute]
            texts += [e.phrase for e in parsed.entities]
            for c in parsed.constraints:
                if isinstance(c, NumericConstraint):
                    attribute = c.attribute or attr_hint(q, c.span.end)
                    texts.append(" ".join(x for x in (attribute, c.unit or "") if x) or c.span.text)
                elif isinstance(c, FeatureConstraint):
                    texts.append(c.phrase)
                elif isinstance(c, ValueConstraint):
                    texts += [c.phrase, f"{c.phrase} {c.attribute}".strip()]
        phrases = [t for t in dict.fromkeys(t.strip() for t in texts) if t]
        # their words too: the lexicon looks each up on its own for the catalog's synonyms
        words = [w.casefold() for t in phrases for w in re.findall(r"[^\W\d_]{2,}", t)]
        wanted = list(dict.fromkeys(phrases + words))
        embedder = getattr(self.patterns, "embedder", None)
        if wanted and embedder is not None:
            embedder.embed(wanted, stage="query")
        scores = getattr(self.patterns, "prefetch", None)
        if callable(scores):
            scores(phrases)  # and the phrases ranked against the whole pattern index in one pass
        return len(wanted)

    # -- compile ----------------------------------------------------------------------------

    def compile(self, question: str) -> Compiled:
        """Compile ``question`` as read with its numbers written as digits (:func:`said`)."""
        text = said(question)
        with self._reading(text):
            out = self._compile(text)
        if text != question:
            out.trace.insert(0, f"numbers written as digits: {text!r}")
        return out

    def _compile(self, question: str) -> Compiled:
        reading = read_question(question, currency=self.currency, parsed=self._parsed.pop(question, None))
        parsed = reading.parsed
        intent, trace = parsed.intent, [f"parse: {t}" for t in parsed.trace]
        trace.append(
            f"intent {intent.kind}"
            + (f" {intent.direction} {intent.attribute!r} k={intent.k}" if intent.direction else "")
        )
        w = _Work(Compiled(question, intent, None, parsed, trace=trace), reading, list(parsed.constraints))
        self._ground(w)
        self._settle_intent(w)
        self._compare_groups(w)
        self._by_grouping(w)
        self._relative(w)
        if not self._name_products(w) or not self._order(w):
            return w.out
        if self._refuse(w):
            return w.out
        self._emit(w)
        self._confide(w)
        return w.out

    def _ground(self, w: _Work) -> None:
        """Every mention grounded: names and scope first, then each constraint within that scope."""
        question, trace, g = w.out.question, w.out.trace, self.grounder
        entities, w.constraints = self.spotter.apply(question, list(w.out.parsed.entities), w.constraints, trace)
        # an unknown word right after a number with no attribute says what it measures: "a 1 TB SSD"
        entities, hints = measure_words(question, entities, w.constraints, trace)
        w.entities = entities
        w.named, w.scope, w.constraints = ground_names(g, question, entities, w.constraints, trace)
        w.scope = either_scope(w.reading, w.scope, trace)
        w.groundings = w.named + w.scope
        w.in_scope = self._in_scope(w)
        w.out.scope_where = scope_pattern([gr for gr in w.scope if gr.resolved])
        past = w.constraints[MAX_CONDITIONS:]
        if past:
            what = f"{len(past)} more left unread: " + ", ".join(repr(c.span.text) for c in past)
            add_cap(w.out.caps, CONDITIONS.hit(MAX_CONDITIONS, what, lowered=True))
            trace.append(f"more than {MAX_CONDITIONS} conditions: {what}")
        for i, c in enumerate(w.constraints):
            if i >= MAX_CONDITIONS:
                w.groundings.append(Grounding(c, _KINDS.get(type(c), "feature"), resolved=False, note="past the cap"))
                continue
            if isinstance(c, NumericConstraint):
                hint = (
                    ""
                    if c.attribute
                    else hints.get(id(c)) or w.reading.hint_after(c.span.end) or w.reading.verb_before(c.span.start)
                )
                gc = g.numeric(c, trace, hint=hint, scope=w.in_scope)
            elif isinstance(c, FeatureConstraint):
                gc = g.feature(c, trace, scope=w.in_scope)
            elif isinstance(c, ValueConstraint):
                gc = g.value(c, trace, scope=w.in_scope)
            elif isinstance(c, DateConstraint):
                gc = g.date(c, trace)
            else:  # pragma: no cover - the parser makes only these
                continue
            if gc.resolved and gc.confidence < MIN_CONFIDENCE:
                gc.resolved = False
                trace.append(f"{c.span.text!r}: best grounding below {MIN_CONFIDENCE}, left out")
            w.groundings.append(gc)
        w.groundings = alternatives_of(w.reading, means_of(w.reading, w.groundings, trace), trace)
        _read_by_gloss(w.reading, w.groundings, trace)
        w.out.groundings = w.groundings
        for gr in w.groundings:
            for hit in gr.caps:
                add_cap(w.out.caps, hit)
        w.named_ok = [ge for ge in w.named if ge.resolved and ge.products]

    def _in_scope(self, w: _Work) -> Any:
        """The entries the products in scope have (category, named products, brand): see entry_choice."""
        within = [ge for ge in w.named + w.scope if ge.resolved]
        scope_snippets = list(dict.fromkeys(gr.snippet for gr in within if gr.snippet))  # a scope said twice is one
        named_products = list(dict.fromkeys(f"<{p}>" for ge in w.named if ge.resolved for p in ge.products))
        return scope_entries(
            self.store,
            [fill(snippet, f"?sc{i}", f"?scv{i}") for i, snippet in enumerate(scope_snippets)]
            + (["VALUES ?p { " + " ".join(named_products) + " }"] if named_products else []),
            list(dict.fromkeys(gr.name_filter for gr in within if gr.name_filter)),
        )

    def _settle_intent(self, w: _Work) -> None:
        """The intent decided once names are resolved: a comparison of named products, a value lookup."""
        reading, out, trace = w.reading, w.out, w.out.trace
        intent, named_ok = out.intent, w.named_ok
        # "is the nova lite cheaper than the zenith basic" (the parser may have seen no product names)
        if intent.kind in ("list", "yesno") and len(named_ok) >= 2:
            cmp = reading.comparative
            if (ts := reading.time_order) is not None and (cmp is None or not cmp[1]):
                cmp = (ts.direction, DATE_ATTRIBUTES[ts.event])  # "is the nova lite newer than the zenith basic"
            if gap := reading.difference:
                cmp = gap  # "How much more does the A cost than the B?": the gap, not the winner
            if cmp:
                attr = cmp[1] or reading.said_attribute  # "which travels more, A or B": the verb's attribute
                word = reading.comparative_word if gap is None else ""
                intent = out.intent = Intent("compare", attr, cmp[0], difference=gap is not None, word=word)
                trace.append(
                    f"intent list → compare: {len(named_ok)} catalog names and a comparative ({cmp[0]} {cmp[1] or '?'})"
                )
        if (
            intent.kind == "compare"
            and not (intent.attribute or intent.direction or intent.difference)
            and len(named_ok) >= 2
            and any(gr.resolved and gr.kind != "category" for gr in w.groundings[len(w.named) + len(w.scope) :])
        ):
            # "Which one has an ice maker, the A or the B?": nothing to rank by, a condition to meet;
            # the answer is the named products that meet it (none, one or both)
            intent = out.intent = Intent("list")
            trace.append("intent compare → list: names and a condition but nothing to rank by; the named that meet it")
        elif (
            intent.kind == "compare"
            and not (intent.difference or intent.direction or reading.alternatives)
            and len(named_ok) < 2
        ):
            # "Heads up for builders: which i7s …": one of the two 'names' was a capitalised interjection
            intent = out.intent = Intent("list")
            trace.append("intent compare → list: fewer than two products named to compare, nothing to rank by")
        if intent.kind == "superlative" and date_event(intent.attribute) is not None and len(named_ok) >= 2:
            # "which came out first, the nova a1 or the nova b2": names the parser could not see
            intent = out.intent = Intent("compare", intent.attribute, intent.direction)
            trace.append("intent superlative by date → compare: two or more catalog names")
        # "What is the price of the Nova Lite?": one product's value is the top of a one-product ranking
        if (
            intent.kind in ("list", "count")  # "How many threads does the X have?" counts no products
            and len(named_ok) == 1
            and len(named_ok[0].products) == 1
            and (asked := reading.asked_attribute)
        ):
            if date_event(asked) is None and (entry := self._worded_entry(asked, w)) is not None:
                w.value_entry = entry
                out.intent = Intent("describe", asked, lookup=True)
                trace.append(f"intent list → value lookup: the {asked!r} of one named product, a worded value")
                return
            out.intent = Intent("superlative", asked, "max", lookup=True)
            trace.append(f"intent list → value lookup: the {asked!r} of one named product")

    def _compare_groups(self, w: _Work) -> None:
        """A comparison of groups ("Canon's or Nikon's"): the groups' scope mentions stop restricting
        the query, which reads every group at once (see :mod:`~dualgraph.query.interpret.groups`)."""
        kinds = ("value", "feature-value", "feature", "text-feature")
        values = [gr for gr in w.groundings[len(w.named) + len(w.scope) :] if gr.kind in kinds]
        if w.named_ok or self._one_product_a_side(w):
            return
        if (found := compared_groups(w.reading, w.out.intent, w.scope + values, w.out.trace)) is None:
            return
        w.out.intent, w.groups = found
        for gr in w.groups.used:
            neutral = w.groups.neutral(gr)
            w.scope = [neutral if x is gr else x for x in w.scope]
            w.groundings = [neutral if x is gr else x for x in w.groundings]
        w.out.groundings = w.groundings
        w.out.scope_where = scope_pattern([gr for gr in w.scope if gr.resolved])

    @staticmethod
    def _by_grouping(w: _Work) -> None:
        """A ranking or count of the catalogue's brands, lines or sections ("Which brand has the most
        fridges?", "How many different brands are the e-bikes from?"): the products in scope are
        grouped by it."""
        if w.named_ok or w.groups is not None or (asked := w.reading.grouping) is None:
            return
        kind, direction = asked
        if direction:
            w.out.intent = Intent("superlative", direction=direction, by=kind)
            w.out.trace.append(f"intent → the {kind} with the {'most' if direction == 'max' else 'fewest'} products")
        else:
            w.out.intent = Intent("count", by=kind)
            w.out.trace.append(f"intent → how many {kind}s the products in scope come from")

    def _worded_entry(self, asked: str, w: _Work) -> Any:
        """The value list (words, not numbers) that names ``asked`` better than any numeric entry the
        products in scope hold ("sensor type": Sensor › Sensor type, not Sensor › Sensor size), else None."""
        g = self.grounder
        worded, _ = keep_in_scope(
            [(p, g.lexical(asked, p)) for p in g.patterns_of("spec_value", "entry")],
            w.in_scope,
            pattern_of=lambda h: h[0],
        )
        numeric, _ = keep_in_scope(
            [(p, g.lexical(asked, p)) for p in g.patterns_of("spec_numeric")], w.in_scope, pattern_of=lambda h: h[0]
        )
        if not worded:
            return None
        best, lex = max(worded, key=lambda h: (h[1], h[0].count))
        beaten = max((x for _, x in numeric), default=0.0)
        return best if lex >= 0.5 and lex > beaten else None

    def _relative(self, w: _Work) -> None:
        """ "a bigger battery than the Nova Lite": the name is a reference to compare with, not the answer."""
        reading, out, trace = w.reading, w.out, w.out.trace
        if out.intent.kind in ("list", "count") and not w.named_ok and (avg := reading.than_average):
            gr = self.grounder.attribute(avg[1], trace, scope=w.in_scope, prefer=reading.dimensions)
            if gr.resolved:  # "deeper than the average bookcase": the mean of the products in scope
                w.rel = (avg[0], gr, [], 0)
                out.covered_extra = [reading.between(avg[2], avg[3]), avg[1]]
                trace.append(f"products whose {avg[1] or 'price'} is {avg[0]} the mean of the products in scope")
                self._within_comparison(w, avg[2], avg[3])
            return
        if out.intent.kind not in ("list", "count") or len(w.named_ok) != 1:
            return
        ref = w.named_ok[0]
        how = reading.relative_to(ref.source.span.start)
        if not how:
            return
        ts = reading.time_order if not how[1] else None  # "newer than the Nova Lite"
        gr = (
            self.grounder.date_order(ts.event, trace, ts)
            if ts is not None
            else self.grounder.attribute(how[1], trace, scope=w.in_scope, prefer=reading.dimensions)
        )
        if not gr.resolved:
            return
        w.rel = (how[0], gr, list(ref.products), id(ref))
        trace.append(f"{ref.source.phrase!r} is a reference: products whose {how[1] or 'price'} is {how[0]} its value")
        self._within_comparison(w, how[2], ref.source.span.start)
        out.covered_extra = [reading.between(how[2], ref.source.span.start), how[1]]

    @staticmethod
    def _within_comparison(w: _Work, start: int, end: int) -> None:
        """Words of the comparison itself ("same", "bigger battery", "above-average weight") are no conditions."""
        for gc in w.groundings:
            if (
                gc.source in w.constraints
                and start <= gc.source.span.start < end
                and not isinstance(gc.source, NumericConstraint)
            ):
                gc.resolved = False
                gc.kind = "relative"
                w.out.trace.append(f"{gc.source.span.text!r} is part of the comparison, not a condition")

    def _name_products(self, w: _Work) -> bool:
        """The named products answered about; ``False`` (with the error set) when one the intent needs
        could not be found."""
        out, trace, intent, named = w.out, w.out.trace, w.out.intent, w.named
        needs_named = intent.kind in ("compare", "describe") or (intent.kind == "yesno" and bool(named))
        if intent.kind == "yesno" and not named:  # "Do any zenith phones have NFC?": does any product qualify
            trace.append("yes/no with no product named: yes when any product in scope qualifies")
        reference = w.rel[3] if w.rel is not None else None
        for ge in named:
            if id(ge) == reference:
                continue
            if ge.resolved:
                w.products += [p for p in ge.products if p not in w.products]
            elif w.reading.opens_sentence(ge.source):
                trace.append(f"{ge.source.phrase!r}: a capitalised first word of a sentence, not a name")
            else:
                w.penalty *= 0.5
        bad = [ge for ge in named if not ge.resolved and not w.reading.opens_sentence(ge.source)]
        n_scope = len(w.scope)
        if intent.kind == "compare" and not bad and len(w.products) < 2:
            self._sides(w)
        if needs_named and (bad or not w.products):
            what = ", ".join(repr(ge.source.phrase) for ge in bad) or "no product named"
            return self._fail(out, f"could not find the product(s): {what}")
        out.named_products = w.products
        out.named_groups = [list(ge.products) for ge in named if ge.resolved and ge.products and id(ge) != reference]
        # what of the question became constraints, names or scope: a phrase outside these was not read
        cs = w.constraints
        out.covered = (
            [x.span.text for x in [*cs, *w.entities]]
            + [c.context for c in cs if isinstance(c, FeatureConstraint) and c.context]
            + [c.attribute for c in cs if isinstance(c, (NumericConstraint, ValueConstraint)) and c.attribute]
            + [c.event_span.text for c in cs if isinstance(c, DateConstraint) and c.event_span]
            + [word for gr in w.groundings if gr.resolved for word in gr.covers]
            + out.covered_extra
        )
        w.rest = w.scope + w.groundings[len(named) + n_scope :]
        for gr in w.rest:
            if not gr.resolved and gr.kind not in ("category", "relative"):
                w.penalty *= 0.5
        w.blocks, w.filters = where_clauses(w.products, named, w.rest)
        w.n_blocks, w.n_filters = len(w.blocks), len(w.filters)
        if w.groups is not None:
            w.blocks.append(w.groups.block)
        w.confs = [gr.confidence for gr in w.groundings if gr.resolved] or [0.9]
        if w.rel is not None:
            rel_blocks, rel_filter = (
                relative_blocks(w.rel[0], w.rel[1].snippet, w.rel[2])
                if w.rel[2]
                else average_blocks(w.rel[0], w.rel[1].snippet, w.out.scope_where)
            )
            w.blocks += rel_blocks
            w.filters.append(rel_filter)
            w.confs.append(w.rel[1].confidence)
        return True

    def _one_product_a_side(self, w: _Work) -> bool:
        """Whether a comparison's alternatives are one product each ("brimnes tv bench or hemnes tv
        bench"): products compared, not groups by their mean."""
        intent, cmp = w.out.intent, w.reading.comparative
        asks = intent.kind == "compare" or (intent.kind == "list" and w.reading.alternatives and cmp is not None)
        if not asks or sum(1 for gr in w.scope if gr.kind in ("brand", "line")) < 2:
            return False
        said_of: list[str] = []
        w.sides = compared_sides(self.store, w.kinds_named(), w.scope, said_of, cap=1)
        if w.sides is None:
            return False
        w.out.trace += said_of
        if intent.kind == "list" and cmp is not None:  # "odda tv bench or halva tv bench, which is taller?"
            w.out.intent = Intent("compare", cmp[1], cmp[0], word=w.reading.comparative_word)
            w.out.trace.append(f"intent compare: one product a side, {cmp[0]} {cmp[1] or '?'}")
        return True

    def _sides(self, w: _Work) -> None:
        """A comparison between makers' words and a shared kind ("brimnes tv bench and hemnes tv
        bench"): each side's products become the products named, when the store finds each side
        (see :mod:`~dualgraph.query.interpret.sides`)."""
        found = w.sides or compared_sides(self.store, w.kinds_named(), w.scope, w.out.trace)
        if found is None:
            return
        groups, w.scope = found
        w.products = list(dict.fromkeys([*w.products, *(p for g in groups for p in g)]))

    @staticmethod
    def _fail(out: Compiled, error: str) -> bool:
        out.error = error
        out.trace.append(error)
        out.confidence = 0.1
        return False

    def _order(self, w: _Work) -> bool:
        """The ordering a superlative, comparison or average reads; ``False`` (with the error set)
        when the attribute cannot be grounded."""
        reading, out, trace, intent, g = w.reading, w.out, w.out.trace, w.out.intent, self.grounder
        if intent.kind not in ("superlative", "compare", "average") or intent.by:
            return True
        attr = intent.attribute
        order = None
        if (event := date_event(attr)) is not None:  # newest/oldest/"came out first": by date
            order = g.date_order(event, trace)
        elif not attr:
            numeric = [gr for gr in w.groundings if gr.kind == "numeric" and gr.resolved]
            if numeric:
                first = numeric[0]
                order = Grounding(
                    None, "attribute", snippet=first.snippet, pattern=first.pattern, confidence=first.confidence
                )
                trace.append("no attribute named: ordering by the question's numeric constraint")
        if order is None:
            unit_asked = reading.named_unit
            order = g.attribute(
                attr,
                trace,
                scope=w.in_scope,
                unit=unit_asked[0] if unit_asked else None,
                prefer=reading.dimensions,
                direction=intent.direction,
                word=intent.word,
                said=reading.words,
            )
        if orders_by_date(intent.word, attr) and (dated := g.date_order("", trace)).resolved:
            order = dated
            trace.append(f"{intent.word!r} orders by date, not by {attr!r}")
        if not order.resolved:
            return self._fail(out, f"cannot order by {attr or 'price'!r}: {order.note}")
        dim = order.pattern.dimension if order.pattern is not None else None
        if intent.direction and dim and dim in inverse_dimensions(intent.word):
            turned: Direction = "min" if intent.direction == "max" else "max"
            intent = out.intent = replace(intent, direction=turned)
            trace.append(f"{intent.word!r} on a {dim}: {turned}, as a faster time is a shorter one")
        w.order = order
        w.confs.append(order.confidence)
        if order.pattern is not None and order.kind == "attribute":
            out.order_unit, out.order_snippet = order.pattern.unit, order.snippet
        w.blocks.append(order_block(order.snippet, "?so", "?val", named=bool(w.products)))
        if intent.kind == "superlative" and intent.then_direction:
            tie = g.attribute(intent.then_attribute, trace, scope=w.in_scope)
            if tie.resolved and tie.snippet != order.snippet:
                w.then = tie
                w.blocks.append(order_block(tie.snippet, "?so2", "?val2", named=bool(w.products)))
                trace.append(f"ties on {attr or 'price'!r} broken by {intent.then_direction} {intent.then_attribute!r}")
        return True

    def _refuse(self, w: _Work) -> bool:
        """Whether nothing of the question could be read ("the the the"): "List all products" asks
        for the whole catalog and is answered."""
        out, intent = w.out, w.out.intent
        if (
            out.covered
            or w.products
            or w.order is not None
            or w.rel is not None
            or intent.kind not in _REFUSABLE
            or w.reading.product_noun
            or any(_known(x) for x in w.reading.unread(intent, []))
        ):
            return False
        out.refused = REFUSAL
        out.confidence = REFUSED_CONFIDENCE
        out.unread = w.reading.unread(intent, [])
        out.trace.append(f"nothing read: {REFUSAL}")
        return True

    def _emit(self, w: _Work) -> None:
        intent, ordered, tie_broken = w.out.intent, w.order is not None, w.then is not None
        if w.value_entry is not None and w.value_entry.entry_iri:
            w.blocks.append(f"VALUES ?e {{ <{w.value_entry.entry_iri}> }}")  # the one entry the lookup reads
        share_of = None
        if intent.share:  # the products the share is of: the scope and what the subject says of them
            within = [gr for gr in w.rest if gr in w.scope or _ends_by(gr, w.reading.share_end)]
            share_of = where_clauses(w.products, w.named, within)
            w.out.trace.append(f"share of the products of {len(within)} mention(s) said before it is asked of")
        sparql = select_query(
            intent,
            w.blocks,
            w.filters,
            ordered=ordered,
            tie_broken=tie_broken,
            count_ranges=self.count_ranges,
            share_of=share_of,
        )
        check_query(filled(sparql))
        w.out.sparql = sparql
        w.out.emission = Emission(
            intent,
            w.products,
            w.named,
            w.rest,
            extra_blocks=w.blocks[w.n_blocks :],
            extra_filters=w.filters[w.n_filters :],
            ordered=ordered,
            tie_broken=tie_broken,
            count_ranges=self.count_ranges,
            subject_end=w.reading.subject_end,
            share_of=share_of,
        )

    def _confide(self, w: _Work) -> None:
        """The confidence (the weakest grounding, lowered for what was not read) and the unread phrases."""
        out, intent, groundings = w.out, w.out.intent, w.groundings
        restricts = (
            bool(w.products)
            or w.rel is not None
            or any(
                gr.resolved and gr.kind != "category" and (gr.snippet or gr.filters or gr.name_filter)
                for gr in groundings
            )
        )
        if intent.kind == "yesno":  # the named products are what is asked about, not a condition on them
            restricts = w.rel is not None or any(
                gr.resolved and gr.kind != "category" and (gr.snippet or gr.filters or gr.name_filter) for gr in w.rest
            )
        order_named = (
            bool(intent.attribute or intent.by)
            or w.reading.money_asked
            or w.order is None
            or any(gr.kind == "numeric" and gr.resolved for gr in groundings)
        )
        out.restricts = restricts
        w.confs += w.reading.coverage_caps(intent, out.covered, restricts, order_named=order_named, trace=out.trace)
        w.penalty *= w.reading.unread_factor(intent, out.covered)
        # a cap that cut part of a mention the query reads (a mention it left unread is halved above)
        cut = sorted({hit.name for gr in groundings if gr.resolved for hit in gr.caps if hit.lowered})
        for name in cut:
            w.penalty *= CAP_FACTOR
            out.trace.append(f"cap {name} cut part of what the query reads: confidence × {CAP_FACTOR}")
        out.unread = [phrase_of(gr) for gr in w.named if not gr.resolved and not w.reading.opens_sentence(gr.source)]
        out.unread += [phrase_of(gr) for gr in w.rest if not gr.resolved and gr.kind != "relative"]
        out.unread += [x for x in w.reading.unread(intent, out.covered) if x not in " ".join(out.unread)]
        out.confidence = round(max(0.0, min(1.0, min(w.confs) * w.penalty)), 3)
        out.trace.append(f"confidence {out.confidence} (weakest grounding {min(w.confs):.2f}, penalty {w.penalty})")

    # -- answer -----------------------------------------------------------------------------

    def answer(self, question: str, *, compiled: Compiled | None = None) -> Answer:
        """Compile (unless ``compiled`` is this question's :meth:`compile` result, not yet
        answered: it is consumed) and run the query."""
        text = said(question)  # as compile reads it: the spans of the reading are this text's
        try:
            comp = compiled if compiled is not None and compiled.question == text else self.compile(question)
        except Exception as e:  # a bug or a refused query must not take the caller down
            return Answer(text, "unknown", error=f"{type(e).__name__}: {e}")
        question = text
        intent = comp.intent
        ans = Answer(
            question,
            _answer_kind(intent),
            sparql=comp.sparql,
            trace=comp.trace,
            confidence=comp.confidence,
            error=comp.error,
            covered=comp.covered,
            unread=list(comp.unread),
            scope_where=comp.scope_where,
            caps=list(comp.caps),
            restricts=comp.restricts,
        )
        if comp.refused:
            ans.refused, ans.answer_list = comp.refused, []
            return ans
        if comp.sparql is None:
            return ans
        try:
            res = self._from_tables(comp) or run_select(
                self.store, comp.sparql, row_cap=self.row_cap, timeout_s=self.timeout_s
            )
        except Exception as e:
            ans.error = f"{type(e).__name__}: {e}"
            ans.confidence = 0.0
            self._timed_out(e, ans.caps, "the question's query")
            return ans
        ans.rows, ans.truncated = res.rows, res.truncated
        if res.truncated:
            ans.trace.append(f"result cut at {res.row_cap} of {res.total_rows} rows")
            self._cut(ans)
        with self._reading(question):
            read_answer(self.store, question, comp, ans)
        if self._contradicted(comp, ans):
            return self._reconsidered(question, comp, ans)
        return ans

    def _from_tables(self, comp: Compiled) -> QueryResult | None:
        """The rows of ``comp``'s query read from :attr:`tables`, or None when it is for the store
        (no tables, a form they do not read, or a query changed after it was emitted)."""
        em = comp.emission
        if self.tables is None or em is None or comp.sparql is None or em.share_of is not None:
            return None  # a share counts two sets of products: the store's query reads both
        blocks, filters = em.where()
        if em.query(blocks, filters) != comp.sparql:
            return None
        res = self.tables.result(
            comp.sparql,
            em.intent,
            blocks,
            filters,
            ordered=em.ordered,
            count_ranges=em.count_ranges,
            row_cap=self.row_cap,
        )
        if res is not None:
            comp.trace.append(
                "the query's rows read from the per-product tables (the store's answer, without its scans)"
            )
        return res

    def _timed_out(self, error: Exception, caps: list[CapHit], what: str) -> bool:
        """Whether ``error`` is a query past :attr:`timeout_s`; if so it is named in ``caps`` (the
        store stopped the query, and none of its rows were read)."""
        if not isinstance(error, QueryTimeout):
            return False
        what = f"{what} did not finish: none of its rows were read"
        add_cap(caps, QUERY_TIMEOUT.hit(self.timeout_s, what, lowered=True))
        return True

    def _cut(self, ans: Answer) -> None:
        """A result past :attr:`row_cap`, named in the answer's caps: a list read from it is missing
        products (its confidence is lowered); a count, ranking or lookup reads its first rows only."""
        lowered = ans.intent == "list"
        what = f"the query returned more than {self.row_cap} rows; the answer read the first {self.row_cap}"
        add_cap(ans.caps, QUERY_ROWS.hit(self.row_cap, what, lowered=lowered))
        if lowered:
            ans.confidence = round(ans.confidence * CAP_FACTOR, 3)
            ans.trace.append(f"a list cut at {self.row_cap} rows: confidence × {CAP_FACTOR}")

    def scope_names(self, where: str) -> frozenset[str]:
        """The names of the products ``where`` (a :attr:`Compiled.scope_where`) selects; the last
        few scopes asked are kept (an index does not change under a reader, and a bulk run asks the
        same scopes again and again)."""

        def read() -> frozenset[str]:
            query = f"SELECT DISTINCT ?name WHERE {{ ?p a skgt:Product ; skg:hasName ?name . {where} }}"
            res = run_select(self.store, query, row_cap=1_000_000, timeout_s=self.timeout_s)
            return frozenset(r["name"]["value"] for r in res.rows if "name" in r)

        return kept_scope(self.__dict__.setdefault("_scope_names", OrderedDict()), where, read)

    def _contradicted(self, comp: Compiled, ans: Answer) -> bool:
        """Whether the store's answer is evidence against the reading: no product where the
        question expects members (see :mod:`dualgraph.query.interpret.beam`)."""
        if ans.error or comp.emission is None or self.beam.width == 0:
            return False
        if not expects_members(comp.intent, bool(comp.named_products)):
            return False
        if comp.intent.kind == "count":
            return not ans.value
        return not ans.rows

    @staticmethod
    def _pages_read_instead(emission: Emission, ans: Answer) -> None:
        """An empty answer whose conditions were read from the pages' features by another name
        ("ridden" as "ridden once") or by a mention: those phrases are what the pages may say some
        other way ("has never been ridden", "unridden"), so they go to the text as unread (halving the
        confidence, as any unread mention does), and the specs' empty answer restricts nothing the
        text must keep to."""
        guessed = [
            phrase_of(gr)
            for gr in emission.rest
            if gr.resolved and gr.kind in ("text-feature", "prose") and not any(s >= 1.0 for _, s in gr.candidates)
        ]
        if guessed:
            ans.unread += [g for g in guessed if g not in ans.unread]
            ans.restricts = False
            # unread now, so halved as every mention left unread is: the text is asked to read it
            ans.confidence = round(ans.confidence * 0.5 ** len(guessed), 3)
            ans.trace.append(
                f"the pages' features read {guessed} by another name and found no product: left to the text "
                f"(confidence {ans.confidence})"
            )

    def _reconsidered(self, question: str, comp: Compiled, first: Answer) -> Answer:
        """The answer of the best other reading the store confirms, else ``first`` as it was."""
        assert comp.emission is not None
        cut: list[CapHit] = []
        chosen = reconsider(self.store, comp.emission, self.beam, first.trace, row_timeout_s=self.timeout_s, caps=cut)
        factor = CAP_FACTOR ** sum(1 for hit in cut if hit.lowered)
        for hit in cut:
            add_cap(first.caps, hit)
            first.trace.append(f"beam: cap {hit.name} reached ({hit.what}): confidence × {CAP_FACTOR}")
        if chosen is None:
            first.trace.append("beam: no other reading finds a product; the empty answer stands")
            first.confidence = round(first.confidence * factor, 3)
            self._pages_read_instead(comp.emission, first)
            return first
        sparql = comp.emission.sparql(chosen.rest)
        try:
            res = run_select(self.store, sparql, row_cap=self.row_cap, timeout_s=self.timeout_s)
        except Exception as e:
            first.trace.append(f"beam: the chosen reading's query failed ({type(e).__name__}); keeping the first")
            if self._timed_out(e, first.caps, "the chosen reading's query"):
                factor *= CAP_FACTOR  # a reading was confirmed, but its answer could not be read
            first.confidence = round(first.confidence * factor, 3)
            return first
        ans = Answer(
            question,
            _answer_kind(comp.intent),
            sparql=sparql,
            trace=first.trace,
            confidence=round(first.confidence * chosen.score * factor, 3),
            covered=first.covered,
            unread=first.unread + [u for u in chosen.unread if u not in first.unread],
            scope_where=first.scope_where,
            rows=res.rows,
            truncated=res.truncated,
            caps=first.caps,
        )
        ans.trace.append(f"confidence {ans.confidence} (the first reading's × {chosen.score:.2f})")
        if res.truncated:
            ans.trace.append(f"result cut at {res.row_cap} of {res.total_rows} rows")
            self._cut(ans)
        with self._reading(question):
            read_answer(self.store, question, replace(comp, sparql=sparql), ans)
        return ans


_OPENS_GLOSS = re.compile(r"\s*\([^()]*")


def _read_by_gloss(reading: Any, groundings: list[Grounding], trace: list[str]) -> None:
    """A phrase nothing in the catalogue names, glossed in brackets right after it by a condition the
    catalogue reads ("a full-frame sensor (crop factor 1)"): the gloss says what it means, so the
    phrase adds no condition of its own (it would have matched no product)."""
    for gr in groundings:
        if not (gr.resolved and gr.kind == "prose" and gr.note == NOTHING_NAMES_IT and gr.source is not None):
            continue
        end = gr.source.span.end
        gloss = next(
            (
                other
                for other in groundings
                if other is not gr
                and other.resolved
                and other.source is not None
                and getattr(other.source, "span", None) is not None
                and other.source.span.start >= end
                and _OPENS_GLOSS.fullmatch(reading.between(end, other.source.span.start))
            ),
            None,
        )
        if gloss is not None:
            gr.snippet, gr.confidence, gr.note = "", gloss.confidence, f"read by its gloss {gloss.source.span.text!r}"
            trace.append(f"{gr.source.span.text!r}: {gr.note} in brackets after it")


def _answer_kind(intent: Intent) -> str:
    """The kind of answer an intent gives: a sum for an average that totals, a median or a spread, a
    choice for groups compared."""
    if intent.groups:
        return "compare"
    if intent.kind == "average" and intent.statistic != "mean":
        return intent.statistic
    return "sum" if intent.total else intent.kind


def _ends_by(gr: Grounding, end: int) -> bool:
    """Whether a mention's words end by ``end`` in the question."""
    span = getattr(gr.source, "span", None)
    return span is not None and span.end <= end
