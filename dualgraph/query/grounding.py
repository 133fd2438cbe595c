"""Ground each parsed constraint and entity on the graph: which pattern answers it, and how.

Every constraint is grounded on its own (never the whole question at once), against the
:class:`~dualgraph.query.patterns.PatternIndex` and, where exact names decide, against the
patterns' structured facts (names, units, value lists). The result is a :class:`Grounding`
holding a SPARQL snippet over ``?p`` with ``{s}``/``{v}`` placeholders (the compiler gives
each block fresh variables), FILTER expressions over ``{v}``, a confidence and a trace.

What each form grounds to:

- :class:`NumericConstraint` with a currency (or the attribute "price") → the product literals
  ``?p skg:hasPrice {v} ; skg:hasCurrency "XXX"`` (only in the question's currency; a
  currency the catalog does not price in is reported unresolved, never converted).
- other :class:`NumericConstraint` → a ``spec_numeric`` pattern of the same dimension (the
  value converted into the pattern's unit); a unitless number → patterns without a unit.
  Candidates rank by lexical match of the attribute with the entry/section names, then by the
  index's fused score, then by coverage (``count``).
- :class:`FeatureConstraint` → a ``feature`` pattern by name (``hasFeature``; negated →
  ``lacksFeature``, so missing data never satisfies "no X"; ``only`` with a generation
  feature such as "4G" → also lacks every *higher* generation feature, e.g. 5G); failing
  that a ``spec_value`` value, failing that the prose facts (``skg:mentions``), low confidence.
- :class:`ValueConstraint` → a ``spec_value`` pattern whose values name the phrase
  (exact value IRIs when the value list has it, else a word-bounded REGEX on value names).
- :class:`EntityRef` product/range/unknown → range (all its variants) or product IRIs by a
  tolerant name match (case, spacing "Flip 7" = "Flip7", punctuation); a product whose full
  name is the mention wins over a range of the same name; an unknown word that is neither but
  a whole word in ≥ 2 product names ("Pixel" in "Acme Pixel 9") → a word-bounded REGEX on
  product names; brand → a name-prefix
  filter ``STRSTARTS(LCASE(?name), "brand")`` on product names (brand nodes do not exist in the
  graph, and names start with the brand on the shop pages we index); category → category
  patterns by name (singular/plural tolerant), dropped when it covers the whole catalog.

>>> norm_tokens("Galaxy Z Flip7"), norm_tokens("galaxy z flip 7")
(['galaxy', 'z', 'flip', '7'], ['galaxy', 'z', 'flip', '7'])
>>> token_match(["galaxy", "s", "25"], norm_tokens("Samsung Galaxy S25 (8GB RAM)"))
True
>>> token_match(["galaxy", "s", "25"], norm_tokens("Samsung Galaxy S25 Ultra"))
False
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from dualgraph.query.catalog_names import singular
from dualgraph.query.entry_presence import present_entry
from dualgraph.query.entry_choice import LazyScope, Scope, keep_in_scope, same_named, widen
from dualgraph.query.model import EntityRef, FeatureConstraint, NumericConstraint, ValueConstraint
from dualgraph.query.patterns import Pattern, PatternIndex
from dualgraph.skg.quantities import convert, parse_quantity

__all__ = ["Grounding", "Grounder", "norm_tokens", "token_match", "MIN_CONFIDENCE"]

AnyScope = Scope | LazyScope | None
MIN_CONFIDENCE = 0.35
"""Below this a grounding is reported unresolved and its constraint is not emitted."""
EQ_TOLERANCE = 0.005
"""``=`` on numbers matches within ±0.5% (unit conversions round, e.g. inch → mm)."""
_SEARCH_K = 25
_MODEL_TAIL = frozenset("""pro max ultra plus mini lite fe edge neo prime note fold flip fit se s x r e
+ air""".split())
_SYNONYMS = {
    "display": ["screen", "size", "diagonal"], "screen": ["display", "size", "diagonal"],
    "battery": ["capacity"], "storage": ["internal", "rom", "memory", "capacity"], "rom": ["storage", "internal"],
    "ram": ["memory"], "memory": ["ram"], "camera": ["rear", "main", "resolution"], "weight": ["weight"],
    "thickness": ["depth", "thickness"], "size": ["display", "screen"], "processor": ["chipset", "cpu", "soc"],
    "chip": ["chipset", "processor"], "chipset": ["processor", "soc"], "cores": ["core", "cpu"],
    "refresh": ["rate", "hz"], "selfie": ["front"], "main": ["rear", "primary"],
    "primary": ["main", "rear"], "charging": ["charge", "wired", "fast"], "os": ["operating", "system"],
    "price": ["price", "mrp"], "microsd": ["memory", "card"], "sd": ["memory", "card"],
    "ssd": ["storage", "internal", "capacity"], "hdd": ["storage", "internal", "capacity"],
}
_QUALIFIERS = frozenset("""front selfie secondary sub ultrawide telephoto macro depth wireless reverse external
standby minimum number""".split())
"""Words that make an entry a special variant of its attribute (the plain one is what a bare word means)."""
_PRICE_WORDS = frozenset({"price", "priced", "cost", "costs", "costing", "budget", "mrp", "rrp", "cheap", "cheaper",
                          "cheapest", "expensive"})
_STOP = frozenset("a an the of with and or in on for to by at is are has have than more less".split())


# -- names --------------------------------------------------------------------------------


def norm_tokens(text: str) -> list[str]:
    """Lower-cased alphanumeric tokens, letters and digits split ("Flip7" → flip, 7)."""
    return re.findall(r"[a-z]+|\d+(?:\.\d+)?|\+", text.casefold())


def _norm(text: str) -> str:
    return "".join(norm_tokens(text))


def token_match(phrase: list[str], name: list[str]) -> bool:
    """``phrase`` occurs contiguously in ``name`` and is not followed by a model suffix."""
    n = len(phrase)
    if not n:
        return False
    for i in range(len(name) - n + 1):
        if name[i:i + n] == phrase:
            nxt = name[i + n] if i + n < len(name) else None
            if nxt is None or (nxt not in _MODEL_TAIL and not (nxt.isdigit() and phrase[-1].isalpha())):
                return True
    return False


def _words(text: str) -> set[str]:
    out = set()
    for w in norm_tokens(text):
        if w in _STOP:
            continue
        out.add(w)
        if len(w) > 3 and w.endswith("s"):
            out.add(w[:-1])
    return out


def _lexical(attribute: str, p: Pattern) -> float:
    """Share of the attribute's words (or their synonyms) found in the pattern's entry/section names."""
    attr = _words(attribute)
    if not attr:
        return 0.0
    names = _words(" ".join(x for x in (p.section, p.entry, p.name) if x))
    hit = 0.0
    for w in attr:
        if w in names:
            hit += 1.0
        elif any(s in names for s in _SYNONYMS.get(w, [])):
            hit += 0.6
    entry = _words(p.entry or p.name or "")
    # the entry itself (not only its section) names it, directly or by a synonym: "screen" → Display › Size
    named = attr & entry or any(s in entry for w in attr for s in _SYNONYMS.get(w, []))
    bonus = 0.1 if named else 0.0
    # an entry for a special variant nobody asked about ("Front Camera", "Wireless Charging") is second
    unasked = len((entry & _QUALIFIERS) - attr - {s for w in attr for s in _SYNONYMS.get(w, [])})
    return min(1.0, hit / len(attr)) + bonus - 0.05 * unasked


def _heads(name: str) -> list[str]:
    """The last word of each part of a category name ("TV Mounts & Stands" → mounts, stands)."""
    return [w[-1] for part in re.split(r"[/&,]|\band\b", name.casefold()) if (w := norm_tokens(part))]


def _lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _num(x: float) -> str:
    from dualgraph.skg.quantities import format_number

    return format_number(float(x))


# -- the result ---------------------------------------------------------------------------


@dataclass(slots=True)
class Grounding:
    """How one constraint or entity is expressed on the graph.

    ``snippet``: SPARQL over ``?p`` with ``{s}``/``{v}`` placeholders; ``filters``: FILTER
    expressions over ``{v}``; ``name_filter``: an expression over ``?name`` (brand scope);
    ``products``/``ranges``: IRIs an entity resolved to. ``resolved`` False → not emitted.
    """

    source: Any
    kind: str
    snippet: str = ""
    filters: list[str] = field(default_factory=list)
    name_filter: str | None = None
    products: list[str] = field(default_factory=list)
    ranges: list[str] = field(default_factory=list)
    pattern: Pattern | None = None
    candidates: list[tuple[str, float]] = field(default_factory=list)
    confidence: float = 0.0
    resolved: bool = True
    note: str = ""


def _fail(source: Any, kind: str, note: str, trace: list[str]) -> Grounding:
    trace.append(f"unresolved {kind}: {note}")
    return Grounding(source, kind, resolved=False, confidence=0.0, note=note)


def _ops(op: str, value: float, high: float | None) -> list[str]:
    if op == "between":
        lo, hi = sorted((value, high if high is not None else value))
        return [f"{{v}} >= {_num(lo)}", f"{{v}} <= {_num(hi)}"]
    if op == "=":
        lo, hi = sorted((value * (1 - EQ_TOLERANCE), value * (1 + EQ_TOLERANCE)))
        return [f"{{v}} >= {_num(lo)}", f"{{v}} <= {_num(hi)}"]
    return [f"{{v}} {op} {_num(value)}"]


# -- the grounder -------------------------------------------------------------------------


class Grounder:
    """Grounds constraints on one graph: ``store`` for catalog facts (currencies, product
    names), ``patterns`` for what can be asked. Each call appends its decisions to ``trace``."""

    def __init__(self, store, patterns: PatternIndex, *, currency: str | None = None) -> None:
        self.store = store
        self.index = patterns
        self.currency = currency
        self._currencies: list[tuple[str, int]] | None = None
        self._by_kind: dict[str, list[Pattern]] = {}
        for p in patterns.patterns:
            self._by_kind.setdefault(p.kind, []).append(p)
        self.total_products = len(self._by_kind.get("product", []))

    def named_patterns(self) -> list[Pattern]:
        """Range and product patterns (names a question may spell out)."""
        return self._by_kind.get("range", []) + self._by_kind.get("product", [])

    # -- catalog facts --

    def currencies(self) -> list[tuple[str, int]]:
        """(currency, products priced in it), most used first."""
        if self._currencies is None:
            res = self.store.select("SELECT ?c (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p skg:hasCurrency ?c } GROUP BY ?c")
            rows = [(b["c"]["value"], int(b["n"]["value"])) for b in res["results"]["bindings"]]
            self._currencies = sorted(rows, key=lambda r: (-r[1], r[0]))
        return self._currencies

    def _search(self, text: str, kinds: list[str], k: int = _SEARCH_K) -> list[tuple[Pattern, float]]:
        if not text.strip():
            return []
        return self.index.search([text], k=k, kinds=kinds)[0]

    # -- numbers --

    def is_price(self, c: NumericConstraint) -> bool:
        # price words name the price only for money or bare numbers, never for "5000 mAh"
        return c.dimension == "currency" or (c.dimension is None and bool(_words(c.attribute) & _PRICE_WORDS))

    def price(self, source: Any, trace: list[str], unit: str | None = None) -> Grounding | None:
        """The price literal in ``unit`` (else the configured currency, else the catalog's main one)."""
        known = dict(self.currencies())
        cur = unit or self.currency or (self.currencies()[0][0] if self.currencies() else None)
        if cur is None or cur not in known:
            have = ", ".join(c for c, _ in self.currencies()) or "none"
            return _fail(source, "price", f"no prices in {cur or 'any currency'} (catalog prices in: {have}); "
                                          "not converting between currencies", trace)
        trace.append(f"price → skg:hasPrice in {cur} ({known[cur]} products priced)")
        return Grounding(source, "price", snippet=f"?p skg:hasPrice {{v}} ; skg:hasCurrency {_lit(cur)} .",
                         confidence=0.95, note=f"price in {cur}")

    def numeric(self, c: NumericConstraint, trace: list[str], *, hint: str = "", scope: AnyScope = None
                ) -> Grounding:
        if self.is_price(c):
            g = self.price(c, trace, c.unit if c.dimension == "currency" else None)
            if g.resolved:
                g.filters = _ops(c.op, c.value, c.high)
            return g
        attribute = c.attribute or hint
        query = " ".join(x for x in (attribute, c.unit or "") if x) or c.span.text
        hits = self._search(query, ["spec_numeric"])
        seen = {p.pattern_id for p, _ in hits}
        # Lexical candidates the search may have missed (exact entry names always count).
        extra = [(p, 0.0) for p in self._by_kind.get("spec_numeric", [])
                 if p.pattern_id not in seen and _lexical(attribute, p) >= 0.5]
        cands = []
        for p, score in hits + extra:
            if c.unit:
                if p.dimension != c.dimension or p.unit is None:
                    continue
                try:
                    lo = convert(c.value, c.unit, p.unit)
                    hi = convert(c.high, c.unit, p.unit) if c.high is not None else None
                except ValueError:
                    continue
            else:
                if p.unit is not None:
                    continue
                lo, hi = c.value, c.high
            lex = _lexical(attribute, p)
            inside = p.min is not None and p.max is not None and p.min <= lo <= p.max
            cands.append(((lex, inside, score, p.count), p, lo, hi))
        if not c.unit and not attribute and not any(x[0][1] for x in cands) and self.currencies():
            # a bare number that fits no unitless entry: read it as a price, as the parser's currency rule would
            g = self.price(c, trace)
            if g.resolved:
                trace.append(f"{c.span.text!r}: bare number outside every unitless entry's range → price")
                g.filters, g.confidence = _ops(c.op, c.value, c.high), 0.5
                return g
        if not cands:
            return _fail(c, "numeric", f"no numeric pattern of dimension {c.dimension or 'unitless'} "
                                       f"for {attribute or c.span.text!r}", trace)
        cands, dropped = keep_in_scope(cands, scope)
        if dropped:
            trace.append(f"{dropped} candidate entries left out: none of the products in scope has them")
        cands.sort(key=lambda x: (-x[0][0], -x[0][1], -x[0][2], -x[0][3], x[1].pattern_id))
        (lex, inside, score, _), best, lo, hi = cands[0]
        also = same_named(best, [x[1] for x in cands if x[0][0] == lex], scope)
        if attribute:
            conf = 0.9 if lex >= 0.99 else 0.75 if lex > 0 else 0.45
        else:
            # one entry of that unit, or the only one whose range holds the number: "over 6.5 inches" is a screen
            alone = inside and not any(x[0][1] for x in cands[1:] if x[1].entry_iri != best.entry_iri)
            conf = 0.7 if len({x[1].entry_iri for x in cands}) == 1 or alone else 0.5
        if not inside:
            conf -= 0.05 if attribute else 0.25
        trace.append(f"numeric {c.span.text!r} (attribute {attribute!r}) → {best.section} › {best.entry} "
                     f"[{best.unit or 'no unit'}] lexical={lex:.2f} rrf={score:.4f} count={best.count}; "
                     f"value in pattern unit {lo}{'' if hi is None else f'..{hi}'}; "
                     f"{len(cands)} compatible candidates"
                     + (f"; with {len(also)} more entries of that name" if also else ""))
        return Grounding(c, "numeric", snippet=widen(best, also), filters=_ops(c.op, lo, hi), pattern=best,
                         candidates=[(x[1].text, x[0][2]) for x in cands[:5]], confidence=conf)

    def attribute(self, attribute: str, trace: list[str], source: Any = None, *, scope: AnyScope = None,
                  unit: str | None = None) -> Grounding:
        """The value an intent's attribute orders by (superlative, compare)."""
        if not attribute or _words(attribute) & _PRICE_WORDS:
            return self.price(source, trace)
        hits = self._search(attribute, ["spec_numeric"])
        seen = {p.pattern_id for p, _ in hits}
        hits += [(p, 0.0) for p in self._by_kind.get("spec_numeric", [])
                 if p.pattern_id not in seen and _lexical(attribute, p) >= 0.5]
        if not hits:
            return _fail(source, "attribute", f"no numeric pattern for {attribute!r}", trace)
        hits, dropped = keep_in_scope(hits, scope, pattern_of=lambda h: h[0])
        if dropped:
            trace.append(f"{dropped} candidate entries left out: none of the products in scope has them")
        # equally named: the unit the question names ("in mAh"), then a measured quantity (with a unit)
        # is what "bigger"/"most" compares, before a count
        ranked = sorted(hits, key=lambda h: (-_lexical(attribute, h[0]), unit is not None and h[0].unit != unit,
                                             h[0].unit is None, -h[1], -h[0].count, h[0].pattern_id))
        best, score = ranked[0]
        lex = _lexical(attribute, best)
        also = same_named(best, [p for p, _ in ranked if _lexical(attribute, p) == lex], scope)
        trace.append(f"attribute {attribute!r} → {best.section} › {best.entry} [{best.unit}] lexical={lex:.2f}"
                     + (f"; with {len(also)} more entries of that name" if also else ""))
        return Grounding(source, "attribute", snippet=widen(best, also), pattern=best,
                         candidates=[(p.text, s) for p, s in ranked[:5]], confidence=0.85 if lex > 0 else 0.45)

    # -- features --

    def _feature_candidates(self, phrase: str) -> list[tuple[float, Pattern]]:
        want = norm_tokens(phrase)
        out = []
        for p in self._by_kind.get("feature", []):
            name = norm_tokens(p.name or "")
            if name == want:
                s = 1.0
            elif token_match(want, name) and name[:len(want)] == want:
                s = 0.9  # "5G" ↔ "5G Support"
            elif token_match(want, name):
                s = 0.8
            elif _norm(phrase) and _norm(phrase) == _norm(p.name or ""):
                s = 0.95
            else:
                continue
            out.append((s, p))
        out.sort(key=lambda x: (-x[0], -(x[1].count + (x[1].lacks_count or 0)), x[1].pattern_id))
        return out

    def feature(self, c: FeatureConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        cands = self._feature_candidates(c.phrase)
        if not cands:  # the fused search, accepting only a strong name overlap
            for p, _ in self._search(c.phrase, ["feature"], k=5):
                said = _words(c.phrase)
                overlap = (said | {s for w in said for s in _SYNONYMS.get(w, [])}) & _words(p.name or "")
                if overlap and len(overlap) >= len(said) * 0.6:
                    cands.append((0.6, p))
        if cands:
            s, p = cands[0]
            snippet = p.lacks_sparql if c.negated else p.sparql
            parts = [snippet]
            note = "lacksFeature (explicit no only)" if c.negated else "hasFeature"
            if c.only and not c.negated:
                gen = re.fullmatch(r"(\d+)g", _norm(c.phrase))
                if gen:
                    for s2, q in self._generations(int(gen.group(1))):
                        parts.append(q.lacks_sparql or "")
                        note += f"; lacks {q.name} (only)"
                else:
                    trace.append(f"'only' on {c.phrase!r}: not a generation feature, treated as plain")
            trace.append(f"feature {c.phrase!r} → {p.name!r} ({note}; name score {s}, {p.count} have, "
                         f"{p.lacks_count} lack)")
            return Grounding(c, "feature", snippet=" ".join(parts), pattern=p,
                             candidates=[(q.name or "", sc) for sc, q in cands[:5]], confidence=0.5 + 0.45 * s)
        v = self._value_grounding(c, c.phrase, "", c.negated, trace, quiet=True, scope=scope)
        if v is not None and v.resolved and v.confidence >= 0.6:
            trace.append(f"feature {c.phrase!r} → no feature node; a spec value instead")
            v.kind = "feature-value"
            return v
        if not c.negated and (n := self._measured_feature(c, trace, scope)) is not None:
            return n
        if (e := present_entry(self.index.patterns, c)) is not None:
            trace.append(f"feature {c.phrase!r} → no feature node or value; products with an entry "
                         f"{e.section} › {e.entry} have it ({e.count} products)")
            return Grounding(c, "feature-entry", snippet=e.sparql, pattern=e, confidence=0.7)
        return self.prose(c, c.phrase, c.negated, trace)

    def _measured_feature(self, c: FeatureConstraint, trace: list[str], scope: AnyScope) -> Grounding | None:
        """A feature phrase holding a measurement ("3.5 mm headphone jack") is that number on the entry
        its other words name, when one of them does."""
        m = re.search(r"(?<![\w.])\d+(?:\.\d+)?\s*[^\W\d_]+", c.phrase)
        q = parse_quantity(m.group()) if m else None
        if q is None or q.unit is None or q.value is None:
            return None
        words = (c.phrase[:m.start()] + " " + c.phrase[m.end():]).strip()
        if not words:
            return None
        num = NumericConstraint(c.span, "=", q.value, unit=q.unit, dimension=q.dimension, attribute=words)
        sub: list[str] = []
        g = self.numeric(num, sub, scope=scope)
        if not g.resolved or g.pattern is None or _lexical(words, g.pattern) <= 0:
            return None
        trace.extend(sub)
        trace.append(f"feature {c.phrase!r} → no feature node or value; the measurement it names instead")
        g.kind, g.source = "feature-numeric", c
        return g

    def _generations(self, n: int) -> list[tuple[int, Pattern]]:
        out = []
        for p in self._by_kind.get("feature", []):
            m = re.match(r"(\d+)g\b", (p.name or "").casefold())
            if m and int(m.group(1)) > n and p.lacks_sparql:
                out.append((int(m.group(1)), p))
        return sorted(out, key=lambda x: (x[0], x[1].pattern_id))

    def prose(self, source: Any, phrase: str, negated: bool, trace: list[str]) -> Grounding:
        lit = _lit(phrase.casefold())
        block = f"?p skg:mentions {{s}} . {{s}} skg:hasName {{v}} . FILTER(CONTAINS(LCASE(STR({{v}})), {lit}))"
        if negated:
            trace.append(f"{phrase!r}: no structured fact; 'not mentioned in prose' is not evidence: unresolved")
            return Grounding(source, "prose", resolved=False, note="negated prose mention not usable")
        trace.append(f"{phrase!r}: no feature or value in the specs → prose mentions (low confidence)")
        return Grounding(source, "prose", snippet=block, confidence=0.4, note="prose mention")

    # -- values --

    def value(self, c: ValueConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        g = self._value_grounding(c, c.phrase, c.attribute, c.negated, trace, scope=scope)
        if g is None or not g.resolved:
            if c.negated:
                return g or _fail(c, "value", f"no value {c.phrase!r}", trace)
            return self.prose(c, c.phrase, False, trace)
        return g

    def _value_grounding(self, source: Any, phrase: str, attribute: str, negated: bool, trace: list[str],
                         quiet: bool = False, scope: AnyScope = None) -> Grounding | None:
        want, wtok = _norm(phrase), norm_tokens(phrase)
        if not want:
            return None
        ranks = {p.pattern_id: s for p, s in self._search(f"{phrase} {attribute}".strip(), ["spec_value"])}
        cands = []
        for p in self._by_kind.get("spec_value", []):
            exact = [v for v in p.values if _norm(v["name"]) == want]
            partial = [v for v in p.values if v not in exact and token_match(wtok, norm_tokens(v["name"]))]
            if not exact and not partial and p.pattern_id not in ranks:
                continue
            level = 2 if exact else 1 if partial else 0
            cands.append(((level, _lexical(attribute, p), ranks.get(p.pattern_id, 0.0), p.count), p, exact))
        cands = [x for x in cands if x[0][0] > 0]
        if not cands:
            if not quiet:
                trace.append(f"value {phrase!r}: no value list names it")
            return None
        cands, _ = keep_in_scope(cands, scope)
        cands.sort(key=lambda x: (-x[0][0], -x[0][1], -x[0][2], -x[0][3], x[1].pattern_id))
        (level, lex, score, _), p, exact = cands[0]
        sep = "[^a-z0-9]"
        rx = f"(^|{sep})" + f"{sep}*".join(re.escape(t) for t in wtok) + f"({sep}|$)"
        match = f"{{v}} skg:hasName {{v}}_n . FILTER(REGEX(LCASE(STR({{v}}_n)), {_lit(rx)}))"
        listed = [v for v in p.values if _norm(v["name"]) == want or token_match(wtok, norm_tokens(v["name"]))]
        complete = p.distinct_values is not None and p.distinct_values <= len(p.values)
        # the whole value list is known: name the IRIs; else a word-bounded REGEX reaches every value
        match_exact = ("VALUES {v} { " + " ".join(f"<{v['iri']}>" for v in listed) + " }") if complete else None
        body = p.sparql + " " + (match_exact or match)
        if negated:  # has the entry, with no value naming the phrase: missing data never counts
            inner = body.replace("{s}", "{s}x").replace("{v}", "{v}x")
            snippet = p.sparql + " FILTER NOT EXISTS { " + inner + " }"
        else:
            snippet = body
        conf = {2: 0.9, 1: 0.7}[level] - (0.0 if lex > 0 or not attribute else 0.1)
        trace.append(f"value {phrase!r}{' (negated)' if negated else ''} → {p.section} › {p.entry} "
                     f"({'exact value' if level == 2 else 'value names containing it'}; lexical={lex:.2f})")
        return Grounding(source, "value", snippet=snippet, pattern=p,
                         candidates=[(x[1].text, x[0][2]) for x in cands[:5]], confidence=conf)

    # -- entities --

    def entity(self, e: EntityRef, trace: list[str]) -> Grounding:
        if e.kind == "brand":
            return self._brand(e, trace)
        if e.kind == "category":
            return self._category(e, trace)
        return self._named(e, trace)

    def _brand(self, e: EntityRef, trace: list[str]) -> Grounding:
        brand = e.phrase.casefold().strip()
        n = sum(1 for p in self._by_kind.get("product", []) if (p.name or "").casefold().startswith(brand))
        if not n:
            # a range, a product line word inside names ("Pixel phones"), or a category is the next best thing
            g = self._named(EntityRef(e.span, e.phrase, "unknown"), trace)
            if g.resolved:
                return g
            return _fail(e, "brand", f"no product name starts with {brand!r}", trace)
        trace.append(f"brand {e.phrase!r} → product names starting with it ({n} products)")
        return Grounding(e, "brand", name_filter=f"STRSTARTS(LCASE(STR(?name)), {_lit(brand)})", confidence=0.85)

    def _category(self, e: EntityRef, trace: list[str]) -> Grounding:
        word = norm_tokens(e.phrase)
        stems = {re.sub(r"(es|s)$", "", w) for w in word if w not in ("smart", "mobile")} or set(word)
        hits = []
        for p in self._by_kind.get("category", []):
            toks = {re.sub(r"(es|s)$", "", t) for t in norm_tokens(p.name or "")}
            joined = _norm(p.name or "")
            if stems & toks or any(s and s in joined for s in stems):
                hits.append(p)
        exact = [p for p in hits if {re.sub(r"(es|s)$", "", t) for t in norm_tokens(p.name or "")} == stems]
        # "phone cases" is "Mobile Phone Cases", not also "Mobile Phones"
        full = [p for p in hits if len(stems) > 1 and stems <= {re.sub(r"(es|s)$", "", t)
                                                                 for t in norm_tokens(p.name or "")}]
        # "phones" is "Smartphones" (its head noun holds the word), not "Mobile Phone Cases" (a kind of case)
        headed = [p for p in hits if any(s and s in h for s in stems for h in _heads(p.name or ""))]
        hits = exact or full or headed or hits  # "laptops" is "Laptops", not also "Laptop Spare Parts"
        if not hits:
            trace.append(f"category {e.phrase!r}: no category node matches; not restricting (low confidence)")
            return Grounding(e, "category", resolved=False, confidence=0.5, note="no matching category")
        covered = max(p.count for p in hits)
        if self.total_products and covered >= self.total_products:
            trace.append(f"category {e.phrase!r} → {hits[0].name!r} covers the whole catalog: no restriction")
            return Grounding(e, "category", resolved=True, confidence=0.9, note="whole catalog")
        iris = " ".join(f"<{p.node_iri}>" for p in hits)
        trace.append(f"category {e.phrase!r} → {[p.name for p in hits]}")
        return Grounding(e, "category", snippet=f"VALUES {{s}} {{ {iris} }} ?p skg:belongs {{s}} .",
                         confidence=0.85, candidates=[(p.name or "", 1.0) for p in hits])

    def _name_word(self, e: EntityRef, want: list[str], trace: list[str]) -> Grounding | None:
        """A bare word that is no product or range name but a whole token in several product names
        ("Pixel" in "Acme Pixel 9") → a word-bounded filter on product names, like a brand."""
        if not want or not all(w.isalpha() for w in want):
            return None
        hits = [p for p in self._by_kind.get("product", [])
                if any(t[i:i + len(want)] == want for t in [norm_tokens(p.name or "")]
                       for i in range(len(t) - len(want) + 1))]
        if len(hits) < 2:
            return None
        rx = r"\b" + r"\s*".join(re.escape(w) for w in want) + r"\b"
        trace.append(f"name word {e.phrase!r}: no product or range of that name; a whole word in {len(hits)} "
                     f"product names → name filter")
        return Grounding(e, "name-word", name_filter=f"REGEX(STR(?name), {_lit(rx)}, \"i\")", confidence=0.7,
                         candidates=[(p.name or "", 0.7) for p in hits[:5]])

    def _scored_names(self, want: list[str]) -> list[tuple[float, Pattern]]:
        scored: list[tuple[float, Pattern]] = []
        for kind, base in (("range", 1.0), ("product", 0.98)):
            for p in self._by_kind.get(kind, []):
                name = norm_tokens(p.name or "")
                if name == want:
                    scored.append((base, p))
                elif token_match(want, name):
                    scored.append((base - 0.1, p))
        return scored

    def _brand_prefix(self, want: list[str]) -> int:
        """How many product names start with the tokens ``want`` (a brand, when two or more)."""
        return sum(1 for p in self._by_kind.get("product", []) if norm_tokens(p.name or "")[:len(want)] == want)

    def _named(self, e: EntityRef, trace: list[str]) -> Grounding:
        want = norm_tokens(e.phrase)
        scored = self._scored_names(want)
        if not scored and (one := singular(want)) != want and (
                self._scored_names(one) or e.kind == "unknown" and self._name_word(e, one, []) is not None):
            trace.append(f"entity {e.phrase!r}: read as the singular {' '.join(one)!r}")
            want, scored = one, self._scored_names(one)  # "iPhones" → the products named "iPhone …"
        if (e.kind == "unknown" and want and want[0].isalpha() and not any(s >= 0.98 for s, _ in scored)
                and self._brand_prefix(want) >= 2):
            # a word every name of a brand starts with ("Xiaomi") is the brand, not the ranges containing it
            return self._brand(EntityRef(e.span, " ".join(want), "brand"), trace)
        exact = [p for s, p in scored if p.kind == "product" and norm_tokens(p.name or "") == want]
        if exact:  # a product spelled out in full is that product, even when a range has the same name
            names = sorted({p.name or "" for p in exact})
            products = sorted({p.node_iri for p in exact})
            trace.append(f"entity {e.phrase!r} → product {names} (exact product name; not expanding a range)")
            return Grounding(e, "entity", products=products, confidence=0.98,
                             candidates=[(p.name or "", 0.98) for p in exact[:5]])
        if not scored and e.kind == "unknown" and (g := self._name_word(e, want, trace)) is not None:
            return g
        if not scored:  # fuzzy: the fused search, accepted when most of the name's tokens agree
            for p, _ in self._search(e.phrase, ["range", "product"], k=10):
                name = set(norm_tokens(p.name or ""))
                share = len(set(want) & name) / max(1, len(set(want)))
                if share >= 0.75:
                    scored.append((0.5 * share, p))
        if not scored:
            return _fail(e, "entity", f"no product or range named like {e.phrase!r}", trace)
        top = max(s for s, _ in scored)
        best = [p for s, p in scored if s == top]
        ranges = sorted({p.node_iri for p in best if p.kind == "range"})
        products = sorted({p.node_iri for p in best if p.kind == "product"})
        if ranges:
            products = []
            res = self.store.select("SELECT DISTINCT ?p WHERE { VALUES ?r { " + " ".join(f"<{r}>" for r in ranges)
                                    + " } ?p skg:variantOf ?r }")
            products = sorted(b["p"]["value"] for b in res["results"]["bindings"])
        trace.append(f"entity {e.phrase!r} → {'range' if ranges else 'product'} "
                     f"{sorted({p.name for p in best})} ({len(products)} products, score {top:.2f})")
        conf = top if top >= 0.85 else top * 0.8
        return Grounding(e, "entity", products=products, ranges=ranges, confidence=conf,
                         candidates=[(p.name or "", s) for s, p in sorted(scored, key=lambda x: -x[0])[:5]],
                         resolved=conf >= MIN_CONFIDENCE and bool(products))
