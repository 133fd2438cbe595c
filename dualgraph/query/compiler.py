"""The deterministic NL→SPARQL compiler: parse, ground each constraint, emit one query, run it.

No model calls and no tokens: :func:`~dualgraph.query.parse.parse_question` reads the question,
:class:`~dualgraph.query.grounding.Grounder` grounds every constraint and entity on its own,
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
  names, else the unit the catalog wrote it in (``Answer.unit``; :mod:`~dualgraph.query.value_answer`);
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

Before grounding, :class:`~dualgraph.query.spotting.CatalogSpotter` looks up what the parser
cannot know: catalog names in any case, category names ("phone cases"), lower-case brands, and
plain words that are values next to a word naming their entry ("wall mounts"). Several
categories are alternatives (united, not ANDed). Entries are chosen within the question's scope
and widened to same-named entries of other sections (:mod:`~dualgraph.query.entry_choice`).

Confidence: the weakest resolved grounding's confidence (lexical/exact matches score high, a
prose-mention fallback 0.4, an entry matched only by the search 0.45), halved for each constraint
or named product that could not be grounded (and so was left out). A capitalised plain word
opening a sentence ("Gaming matters most …") that names nothing is not counted as an unresolved
name. Constraints whose grounding is unresolved are left out (and in the trace); an unresolved
named product makes compare/describe/yesno fail with ``error``.
Every query passes :func:`~dualgraph.query.safety.check_query` (via ``run_select``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dualgraph.query.entry_choice import scope_entries
from dualgraph.query.grounding import MIN_CONFIDENCE, Grounder, Grounding
from dualgraph.query.model import EntityRef, FeatureConstraint, Intent, NumericConstraint, ParsedQuestion, \
    ValueConstraint
from dualgraph.query.parse import comparative, parse_question
from dualgraph.query.patterns import PatternIndex
from dualgraph.query.coverage import coverage_caps
from dualgraph.query.relative import relative_blocks, relative_phrase
from dualgraph.query.safety import check_query, run_select
from dualgraph.query.spotting import CatalogSpotter
from dualgraph.query.value_answer import asked_attribute, asks_value, named_unit, number, value_in_unit

__all__ = ["Compiled", "Answer", "Compiler"]

_NAMED = ("product", "range", "unknown")
_HINT_STOP = frozenset("""and or but with without under over below above for that which in on at from than by to
is are does do has have can the a an of priced costing price phones phone""".split())


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


@dataclass(slots=True)
class Answer:
    """What the compiled query returned: names for lists, ``value`` for count/superlative/compare/yesno."""

    question: str
    intent: str
    answer_list: list[str] = field(default_factory=list)
    value: Any = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    sparql: str | None = None
    trace: list[str] = field(default_factory=list)
    confidence: float = 0.0
    error: str | None = None
    truncated: bool = False
    unit: str | None = None
    """The unit of a numeric ``value`` (see :mod:`dualgraph.query.value_answer`); ``None`` for prices/counts."""
    covered: list[str] = field(default_factory=list)
    """The question's phrases the compiler read as constraints, names or scope."""


def _attr_hint(q: str, end: int) -> str:
    """Words right after a number ("at least 8 *cores*"), when the parser found no attribute."""
    words = []
    for w in re.findall(r"[A-Za-z][\w-]*|[^\sA-Za-z]", q[end:])[:4]:
        if not re.match(r"[A-Za-z]", w) or w.casefold() in _HINT_STOP:
            break
        words.append(w)
    return " ".join(words[:3])


class Compiler:
    """Compile questions over ``store`` with the pattern index built from it.

    ``currency``: the currency of bare prices ("under 20k"); ``row_cap``: rows kept per query.
    """

    def __init__(self, store, patterns: PatternIndex, *, currency: str | None = None, row_cap: int = 1000,
                 timeout_s: float = 20.0, count_ranges: bool = False) -> None:
        self.count_ranges = count_ranges  # counts over product ranges (answers name ranges), not variants
        self.store = store
        self.patterns = patterns
        self.currency = currency
        self.row_cap = row_cap
        self.timeout_s = timeout_s
        self.grounder = Grounder(store, patterns, currency=currency)
        self.spotter = CatalogSpotter(patterns.patterns)

    # -- compile ----------------------------------------------------------------------------

    def compile(self, question: str) -> Compiled:
        parsed = parse_question(question, currency=self.currency)
        intent, trace = parsed.intent, [f"parse: {t}" for t in parsed.trace]
        trace.append(f"intent {intent.kind}" + (f" {intent.direction} {intent.attribute!r} k={intent.k}"
                                                  if intent.direction else ""))
        out = Compiled(question, intent, None, parsed, trace=trace)
        g = self.grounder
        constraints = list(parsed.constraints)
        groundings: list[Grounding] = []
        penalty = 1.0

        entities, constraints = self.spotter.apply(question, list(parsed.entities), constraints, trace)
        # an unknown word right after a number with no attribute says what it measures: "a 1 TB SSD"
        hints: dict[int, str] = {}
        for c in constraints:
            if isinstance(c, NumericConstraint) and not c.attribute and c.unit:
                nxt = [e for e in entities if e.kind == "unknown" and e.span.start > c.span.end
                       and not question[c.span.end:e.span.start].strip()]
                if nxt:
                    entities.remove(nxt[0])
                    hints[id(c)] = nxt[0].phrase
                    trace.append(f"{nxt[0].phrase!r} after {c.span.text!r}: what it measures, not a name")

        # entities (a "=" number right after a name is part of it: "Alpha One 128GB")
        named: list[Grounding] = []
        scope: list[Grounding] = []
        for e in entities:
            if e.kind in _NAMED:
                after = [c for c in constraints if isinstance(c, NumericConstraint) and c.op == "="
                         and c.span.start >= e.span.end and not question[e.span.end:c.span.start].strip()]
                if after:
                    c = after[0]
                    merged = EntityRef(type(e.span)(e.span.start, c.span.end, question[e.span.start:c.span.end]),
                                       question[e.span.start:c.span.end], e.kind)
                    gm = g.entity(merged, trace)
                    if gm.resolved:
                        trace.append(f"{c.span.text!r} read as part of the name {merged.phrase!r}")
                        constraints.remove(c)
                        named.append(gm)
                        continue
                ge = g.entity(e, trace)
                named.append(ge)
            else:
                scope.append(g.entity(e, trace))
        scope = _union_categories(scope, trace)
        groundings += named + scope

        # the entries the products in scope have (category, named products, brand): see entry_choice
        within = [ge for ge in named + scope if ge.resolved]
        in_scope = scope_entries(self.store, [gr.snippet.replace("{s}", f"?sc{i}") for i, gr in enumerate(within)
                                              if gr.snippet]
                                 + (["VALUES ?p { " + " ".join(f"<{p}>" for ge in named if ge.resolved
                                                               for p in ge.products) + " }"]
                                    if any(ge.resolved and ge.products for ge in named) else []),
                                 [gr.name_filter for gr in within if gr.name_filter])
        for c in constraints:
            if isinstance(c, NumericConstraint):
                hint = "" if c.attribute else hints.get(id(c)) or _attr_hint(question, c.span.end)
                gc = g.numeric(c, trace, hint=hint, scope=in_scope)
            elif isinstance(c, FeatureConstraint):
                gc = g.feature(c, trace, scope=in_scope)
            elif isinstance(c, ValueConstraint):
                gc = g.value(c, trace, scope=in_scope)
            else:  # pragma: no cover - the parser makes only these
                continue
            if gc.resolved and gc.confidence < MIN_CONFIDENCE:
                gc.resolved = False
                trace.append(f"{c.span.text!r}: best grounding below {MIN_CONFIDENCE}, left out")
            groundings.append(gc)
        out.groundings = groundings

        # compare is decided once names are resolved: "is the nova lite cheaper than the zenith basic"
        named_ok = [ge for ge in named if ge.resolved and ge.products]
        if intent.kind == "list" and len(named_ok) >= 2:
            cmp = comparative(question, [(c.span.start, c.span.end) for c in constraints
                                         if isinstance(c, NumericConstraint)])
            if cmp:
                intent = Intent("compare", cmp[1], cmp[0])  # type: ignore[arg-type]
                out.intent = intent
                trace.append(f"intent list → compare: {len(named_ok)} catalog names and a comparative "
                             f"({cmp[0]} {cmp[1] or '?'})")

        # "What is the price of the Nova Lite?": one product's value is the top of a one-product ranking
        if intent.kind == "list" and len(named_ok) == 1 and len(named_ok[0].products) == 1 \
                and (asked := asked_attribute(question)):
            intent = out.intent = Intent("superlative", asked, "max")
            trace.append(f"intent list → value lookup: the {asked!r} of one named product")

        # "a bigger battery than the Nova Lite": the name is a reference to compare with, not the answer
        rel = None
        if intent.kind in ("list", "count") and len(named_ok) == 1:
            ref = named_ok[0]
            nums = [(c.span.start, c.span.end) for c in constraints if isinstance(c, NumericConstraint)]
            if how := relative_phrase(question, ref.source.span.start, nums):
                gr = g.attribute(how[1], trace, scope=in_scope)
                if gr.resolved:
                    rel = (how[0], gr, list(ref.products), id(ref))
                    trace.append(f"{ref.source.phrase!r} is a reference: products whose {how[1] or 'price'} "
                                 f"is {how[0]} its value")
                    # words of the comparison itself ("same", "bigger battery") are no conditions
                    inside = [i for i, gc in enumerate(groundings) if gc.source in constraints
                              and how[2] <= gc.source.span.start < ref.source.span.start
                              and not isinstance(gc.source, NumericConstraint)]
                    for i in inside:
                        groundings[i].resolved = False
                        groundings[i].kind = "relative"
                        trace.append(f"{groundings[i].source.span.text!r} is part of the comparison, not a condition")
                    out.covered_extra = [question[how[2]:ref.source.span.start], how[1]]
        # named products
        needs_named = intent.kind in ("compare", "describe") or intent.kind == "yesno" and bool(named)
        if intent.kind == "yesno" and not named:  # "Do any zenith phones have NFC?": does any product qualify
            trace.append("yes/no with no product named: yes when any product in scope qualifies")
        products: list[str] = []
        for ge in named:
            if rel is not None and id(ge) == rel[3]:
                continue
            if ge.resolved:
                products += [p for p in ge.products if p not in products]
            elif _sentence_word(question, ge.source):
                trace.append(f"{ge.source.phrase!r}: a capitalised first word of a sentence, not a name")
            else:
                penalty *= 0.5
        bad = [ge for ge in named if not ge.resolved]
        if needs_named and (bad or not products):
            what = ", ".join(repr(ge.source.phrase) for ge in bad) or "no product named"
            out.error = f"could not find the product(s): {what}"
            out.trace.append(out.error)
            out.confidence = 0.1
            return out
        out.named_products = products
        out.named_groups = [list(ge.products) for ge in named if ge.resolved and ge.products
                            and (rel is None or id(ge) != rel[3])]
        # what of the question became constraints, names or scope: a phrase outside these was not read
        out.covered = [x.span.text for x in [*constraints, *entities]] + [
            c.attribute for c in constraints if getattr(c, "attribute", "")] + out.covered_extra

        blocks: list[str] = []
        filters: list[str] = []
        if products:
            blocks.append("VALUES ?p { " + " ".join(f"<{p}>" for p in products) + " }")
        filters += [ge.name_filter for ge in named if ge.resolved and ge.name_filter]
        i = 0
        for gr in scope + groundings[len(named) + len(scope):]:
            if not gr.resolved:
                if gr.kind not in ("category", "relative"):
                    penalty *= 0.5
                continue
            if gr.name_filter:
                filters.append(gr.name_filter)
            if gr.snippet:
                i += 1
                s, v = f"?s{i}", f"?v{i}"
                blocks.append(gr.snippet.replace("{s}", s).replace("{v}", v))
                filters += [f.replace("{v}", v) for f in gr.filters]

        confs = [gr.confidence for gr in groundings if gr.resolved] or [0.9]
        if rel is not None:
            rel_blocks, rel_filter = relative_blocks(rel[0], rel[1].snippet, rel[2])
            blocks += rel_blocks
            filters.append(rel_filter)
            confs.append(rel[1].confidence)
        order = then = None
        if intent.kind in ("superlative", "compare", "average"):
            attr = intent.attribute
            if not attr:
                nums = [gr for gr in groundings if gr.kind == "numeric" and gr.resolved]
                if nums:
                    order = Grounding(None, "attribute", snippet=nums[0].snippet, pattern=nums[0].pattern,
                                      confidence=nums[0].confidence)
                    trace.append("no attribute named: ordering by the question's numeric constraint")
            if order is None:
                asked = named_unit(question)
                order = g.attribute(attr, trace, scope=in_scope, unit=asked[0] if asked else None)
            if not order.resolved:
                out.error = f"cannot order by {attr or 'price'!r}: {order.note}"
                out.trace.append(out.error)
                out.confidence = 0.1
                return out
            confs.append(order.confidence)
            if order.pattern is not None and order.kind == "attribute":
                out.order_unit, out.order_snippet = order.pattern.unit, order.snippet
            blocks.append(order.snippet.replace("{s}", "?so").replace("{v}", "?val"))
            if intent.kind == "superlative" and intent.then_direction:
                tie = g.attribute(intent.then_attribute, trace, scope=in_scope)
                if tie.resolved and tie.snippet != order.snippet:
                    then = tie
                    blocks.append(tie.snippet.replace("{s}", "?so2").replace("{v}", "?val2"))
                    trace.append(f"ties on {attr or 'price'!r} broken by {intent.then_direction} "
                                 f"{intent.then_attribute!r}")

        where = ["?p a skgt:Product ; skg:hasName ?name ."] + blocks
        where += [f"FILTER({f})" for f in filters]
        body = "\n  ".join(where)
        if intent.kind == "count" and self.count_ranges:
            # a variant without a range counts as its own range
            sparql = (f"SELECT (COUNT(DISTINCT ?unit) AS ?count) WHERE {{\n  {body}\n"
                      f"  OPTIONAL {{ ?p skg:variantOf ?range }} BIND(COALESCE(?range, ?p) AS ?unit)\n}}")
        elif intent.kind == "count":
            sparql = f"SELECT (COUNT(DISTINCT ?p) AS ?count) WHERE {{\n  {body}\n}}"
        elif intent.kind == "average" and order is not None:
            # one value per product first (a product may carry several rows), then their mean
            sparql = (f"SELECT (AVG(?pv) AS ?value) (COUNT(?p) AS ?count) WHERE {{\n"
                      f"  {{ SELECT ?p (MAX(?val) AS ?pv) WHERE {{\n  {body}\n  }} GROUP BY ?p }}\n}}")
        elif order is not None:
            agg, sort = ("MAX", "DESC") if intent.direction != "min" else ("MIN", "ASC")
            agg2, sort2 = ("MAX", "DESC") if intent.then_direction == "max" else ("MIN", "ASC")
            second = f" ({agg2}(?val2) AS ?value2)" if then is not None else ""
            sparql = (f"SELECT ?p ?name ({agg}(?val) AS ?value){second} WHERE {{\n  {body}\n}}\n"
                      f"GROUP BY ?p ?name\nORDER BY {sort}(?value) "
                      + (f"{sort2}(?value2) " if then is not None else "") + "?name")
        elif intent.kind == "describe":
            sparql = ("SELECT ?p ?name ?section ?entry ?value WHERE {\n  " + body +
                      "\n  ?p skg:hasSpec ?s . ?s skg:inEntry ?e ; skg:hasValue ?vv .\n"
                      "  ?e skg:hasName ?entry . OPTIONAL { ?e skg:inSection/skg:hasName ?section }\n"
                      "  ?vv skg:hasName ?value .\n}\nORDER BY ?name ?section ?entry ?value")
        else:
            sparql = f"SELECT DISTINCT ?p ?name WHERE {{\n  {body}\n}}\nORDER BY ?name ?p"
        check_query(sparql)
        out.sparql = sparql
        confs += coverage_caps(question, intent, out.covered, bool(products) or rel is not None or any(
            gr.resolved and gr.kind != "category" and (gr.snippet or gr.filters or gr.name_filter)
            for gr in groundings), order_named=bool(intent.attribute) or order is None
            or any(gr.kind == "numeric" and gr.resolved for gr in groundings), trace=trace)
        out.confidence = round(max(0.0, min(1.0, min(confs) * penalty)), 3)
        trace.append(f"confidence {out.confidence} (weakest grounding {min(confs):.2f}, penalty {penalty})")
        return out

    # -- answer -----------------------------------------------------------------------------

    def answer(self, question: str, *, compiled: Compiled | None = None) -> Answer:
        """Compile (unless ``compiled`` is this question's :meth:`compile` result, not yet
        answered: it is consumed) and run the query."""
        try:
            comp = compiled if compiled is not None and compiled.question == question else self.compile(question)
        except Exception as e:  # a bug or a refused query must not take the caller down
            return Answer(question, "unknown", error=f"{type(e).__name__}: {e}")
        intent = comp.intent
        ans = Answer(question, intent.kind, sparql=comp.sparql, trace=comp.trace, confidence=comp.confidence,
                     error=comp.error, covered=comp.covered)
        if comp.sparql is None:
            return ans
        try:
            res = run_select(self.store, comp.sparql, row_cap=self.row_cap, timeout_s=self.timeout_s)
        except Exception as e:
            ans.error = f"{type(e).__name__}: {e}"
            ans.confidence = 0.0
            return ans
        ans.rows, ans.truncated = res.rows, res.truncated
        if res.truncated:
            ans.trace.append(f"result cut at {res.row_cap} of {res.total_rows} rows")
        names = _distinct(r["name"]["value"] for r in res.rows if "name" in r)
        if intent.kind == "count":
            ans.value = int(res.rows[0]["count"]["value"]) if res.rows else 0
        elif intent.kind in ("superlative", "compare"):
            k = 1 if intent.kind == "compare" else max(1, intent.k)
            top = _top_with_ties(res.rows, k)
            ans.answer_list = _distinct(r["name"]["value"] for r in top)
            if intent.kind == "superlative" and top and asks_value(question, intent.attribute):
                ans.value = number(top[0]["value"]["value"])  # "what is the lowest price …": the number
                ans.value, ans.unit = value_in_unit(self.store, question, ans.value, comp.order_unit,
                                                    comp.order_snippet, top[0].get("p", {}).get("value"), ans.trace)
                ans.trace.append(f"the question asks for the value: {ans.value}")
            elif intent.kind == "compare" and _YESNO_OPEN.match(question) and len(comp.named_groups) >= 2:
                # "Is X heavier than Y?": yes when the first product named wins alone
                won = {r["p"]["value"] for r in top if "p" in r}
                first, rest = set(comp.named_groups[0]), {p for g in comp.named_groups[1:] for p in g}
                ans.value = "yes" if won & first and not won & rest else "no"
                ans.trace.append("a yes/no comparison: the first product named "
                                 + ("wins" if ans.value == "yes" else "does not win"))
            elif k == 1:  # one name; ties stay in answer_list, the first by name is the value
                ans.value = ans.answer_list[0] if ans.answer_list else None
            else:
                ans.value = ans.answer_list or None
            if len(top) > k:
                ans.trace.append(f"ties kept: {len(top)} products share the top {k} values")
        elif intent.kind == "average":
            row = res.rows[0] if res.rows else {}
            n = int(row["count"]["value"]) if "count" in row else 0
            if n and "value" in row:
                mean = round(float(row["value"]["value"]), 4)
                ans.value, ans.unit = value_in_unit(self.store, question, mean, comp.order_unit, "", None, ans.trace)
                ans.trace.append(f"average over {n} products: {ans.value}")
            ans.answer_list = None
        elif intent.kind == "describe":
            ans.answer_list = names
            ans.value = names[0] if len(names) == 1 else names
        elif intent.kind == "yesno":
            ans.answer_list = names
            ans.value = "yes" if names else "no"
        else:
            ans.answer_list = names
        return ans


_YESNO_OPEN = re.compile(r"\s*(?:is|are|was|does|do|did|has|have|can|will|would)\b", re.I)


def _sentence_word(question: str, e: Any) -> bool:
    """Whether an unresolved name is one plain word opening a sentence ("Gaming matters most …"):
    capitalised by grammar, no digit, not spelled like a model name."""
    if not isinstance(e, EntityRef) or e.kind != "unknown" or not re.fullmatch(r"[A-Z][a-z]+", e.phrase):
        return False
    return not question[:e.span.start].strip() or bool(re.search(r"[.!?:;]\s*$", question[:e.span.start]))


def _union_categories(scope: list[Grounding], trace: list[str]) -> list[Grounding]:
    """Several categories in one question are alternatives ("laptops or desktop PCs"), never all
    at once: their products are united in one block."""
    cats = [gr for gr in scope if gr.kind == "category" and gr.resolved and gr.snippet]
    if len(cats) < 2:
        return scope
    iris = list(dict.fromkeys(re.findall(r"<[^>]+>", " ".join(gr.snippet for gr in cats))))
    merged = Grounding(cats[0].source, "category",
                       snippet=f"VALUES {{s}} {{ {' '.join(iris)} }} ?p skg:belongs {{s}} .",
                       confidence=min(gr.confidence for gr in cats),
                       candidates=[c for gr in cats for c in gr.candidates])
    trace.append(f"categories {[gr.source.phrase for gr in cats]} united: a product of any of them")
    rest = [gr for gr in scope if gr not in cats]
    return [merged, *rest]


def _distinct(items) -> list[str]:
    seen: dict[str, None] = {}
    for x in items:
        seen.setdefault(x, None)
    return list(seen)


def _top_with_ties(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """Rows (already ordered best first) up to the ``k``-th product, plus every row tied with it.

    >>> r = [{"value": {"value": v}} for v in ("9", "7", "7", "5")]
    >>> len(_top_with_ties(r, 2)), len(_top_with_ties(r, 1)), len(_top_with_ties(r, 4))
    (3, 1, 4)
    """
    rows = [r for r in rows if "value" in r]
    if len(rows) <= k:
        return rows

    def key(r: dict[str, Any]) -> tuple[float, ...]:  # a tie-breaker's value is part of the rank
        return tuple(float(r[v]["value"]) for v in ("value", "value2") if v in r)

    cut = key(rows[k - 1])
    out = rows[:k]
    for r in rows[k:]:
        if key(r) == cut:
            out.append(r)
        else:
            break
    return out
