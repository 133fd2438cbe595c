"""Grounding numbers: prices and measured spec values, and the attribute an intent orders by.

- A :class:`NumericConstraint` with a currency (or the attribute "price") → the product literals
  ``?p skg:hasPrice {v} ; skg:hasCurrency "XXX"`` (only in the question's currency; a
  currency the catalog does not price in is reported unresolved, never converted).
- Any other :class:`NumericConstraint` → a ``spec_numeric`` pattern of the same dimension (the
  value converted into the pattern's unit); a unitless number → patterns without a unit.
  Candidates rank by lexical match of the attribute with the entry/section names, then by the
  index's fused score, then by coverage (``count``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.pattern import Pattern
from dualgraph.query.ground.base import AnyScope, Grounding, GroundingContext, literal, unresolved
from dualgraph.query.ground.entry_choice import LazyScope, holders, keep_in_scope, same_named, widen
from dualgraph.query.ground.name_match import word_forms, word_set
from dualgraph.query.ground.price_cut import cut_amount_snippet, earlier_price_entry, says_price_cut
from dualgraph.query.read.model import NumericConstraint
from dualgraph.query.read.numbers import inverse_dimensions
from dualgraph.skg.quantities import convert, normalise_unit

__all__ = ["EQ_TOLERANCE", "NumberGrounder"]

EQ_TOLERANCE = 0.005
FELLOW_MARGIN = 0.45
"""An entry whose name fits the attribute within this lexical margin of the best one holds the same
attribute ("charging" under Battery and under "USB charging power"): all of them are read, not one.
Below it an entry names something else that shares a word (0.6 is one synonym hit against 1.1 for a
direct name plus the entry bonus)."""
"""``=`` on numbers matches within ±0.5% (unit conversions round, e.g. inch → mm)."""
_PRICE_WORDS = frozenset(
    {"price", "priced", "cost", "costs", "costing", "budget", "mrp", "rrp", "cheap", "cheaper", "cheapest", "expensive"}
)


RUNNERS_UP = 2
"""Other entries a numeric constraint keeps as alternatives for the reader's beam (the next best
entries whose unit can hold the number; see :mod:`dualgraph.query.interpret`)."""

NAMED = 0.99
"""A lexical score at or above this: the question's attribute words name the entry itself ("cores" for
"Cores"). Then an empty result on that entry is believed: no entry the question names less well is
offered to the beam as another reading of its number (see :meth:`NumberGrounder._numeric_alternatives`)."""

APART_SHARE = 0.2
"""Two entries on the same products beyond this share of the smaller one are two attributes."""


def fellows(
    best: Pattern,
    ranked: list[tuple[float, Pattern]],
    *,
    fits: Callable[[Pattern], bool] = lambda p: True,
    apart: Callable[[Pattern, list[Pattern]], bool] = lambda p, chosen: True,
    named: bool = True,
) -> list[Pattern]:
    """Entries besides ``best``'s that hold the same attribute: same dimension and unit, a name that
    fits nearly as well, the asked number within their values (``fits``), and never on the same
    products as an entry already chosen (``apart``): two entries one product has both of are two
    attributes ("RAM capacity" and "Virtual RAM"), the better named one is meant. ``ranked`` is
    best first; an entry is represented by its first (best) pattern only, since two labels in one
    entry are two attributes ("RAM" and "inbuilt" in one memory value). ``named=False``: the
    question named no attribute, only a unit ("45 W or faster"): every entry of that unit fits."""
    lex_best = ranked[0][0] if ranked else 0.0
    seen: set[str | None] = {best.entry_iri}
    out: list[Pattern] = []
    for lex, p in ranked:
        if p.entry_iri in seen or p.entry_iri is None:
            continue
        seen.add(p.entry_iri)
        if (
            p.unit == best.unit
            and p.dimension == best.dimension
            and (not named or (lex > 0 and lex >= lex_best - FELLOW_MARGIN))
            and fits(p)
            and apart(p, [best, *out])
        ):
            out.append(p)
    return out


_QUANTITY = re.compile(
    r"\?p skg:hasSpec \{s\} \. \{s\} skg:inEntry <([^>]+)> ; skg:hasQuantity \{s\}_q \. "
    r"\{s\}_q((?: skg:hasUnit \"[^\"]*\" ;)?) skg:hasNumericValue \{v\} \.(.*)",
    re.S,
)


def union_snippet(first: str, others: list[Pattern], patterns: list[Pattern] | None = None) -> str:
    """One block matching any of several entries' quantities (same ``{s}``/``{v}`` placeholders).

    ``patterns`` (all of them, ``first``'s included) written the usual way become one spec with
    its entry in a ``FILTER IN`` and each entry's own conditions (its label) tied to it; else the
    snippets go into a UNION inside a sub-select. Measured on a 1,100-product catalog: the FILTER
    IN form 36 ms, the sub-select 150 ms, a bare UNION 5.6 s (Oxigraph evaluates the branches
    against every product before the rest of the query)."""
    if not others:
        return first
    parts = [_QUANTITY.fullmatch(p.sparql.strip()) for p in patterns or []]
    if parts and all(parts) and len({m.group(2) for m in parts if m}) == 1:
        entries = [m.group(1) for m in parts if m]
        head = parts[0]
        assert head is not None
        out = (
            f"?p skg:hasSpec {{s}} . {{s}} skg:inEntry {{s}}_e ; skg:hasQuantity {{s}}_q . "
            f"{{s}}_q{head.group(2)} skg:hasNumericValue {{v}} . "
            f"FILTER({{s}}_e IN ({', '.join(f'<{e}>' for e in dict.fromkeys(entries))}))"
        )
        for m in parts:
            assert m is not None
            if cond := m.group(3).strip():
                out += f" FILTER({{s}}_e != <{m.group(1)}> || EXISTS {{ {cond} }})"
        return out
    branches = " UNION ".join("{ " + x + " }" for x in [first, *(p.sparql for p in others)])
    return f"{{ SELECT ?p {{v}} WHERE {{ {branches} }} }}"


def _num(x: float) -> str:
    from dualgraph.skg.quantities import format_number

    return format_number(float(x))


def _ops(op: str, value: float, high: float | None) -> list[str]:
    if op == "between":
        lo, hi = sorted((value, high if high is not None else value))
        return [f"{{v}} >= {_num(lo)}", f"{{v}} <= {_num(hi)}"]
    if op == "=":
        lo, hi = sorted((value * (1 - EQ_TOLERANCE), value * (1 + EQ_TOLERANCE)))
        return [f"{{v}} >= {_num(lo)}", f"{{v}} <= {_num(hi)}"]
    return [f"{{v}} {op} {_num(value)}"]


class NumberGrounder:
    """Grounds prices, numeric constraints and the attribute a superlative or comparison orders by."""

    def __init__(self, ctx: GroundingContext) -> None:
        self.ctx = ctx

    def _apart(self, p: Pattern, chosen: list[Pattern]) -> bool:
        """Whether ``p``'s entry shares (almost) no product with the entries ``chosen``."""
        held = holders(self.ctx.store, [(x.entry_iri or "", None) for x in [p, *chosen]])
        mine = held[(p.entry_iri or "", None)]
        for q in chosen:
            theirs = held[(q.entry_iri or "", None)]
            # a few products carrying both is noise (a merged listing); a real sibling attribute is on most
            if len(mine & theirs) > APART_SHARE * min(len(mine), len(theirs)):
                return False
        return True

    def is_price(self, c: NumericConstraint) -> bool:
        # price words name the price only for money or bare numbers, never for "5000 mAh"
        return c.dimension == "currency" or (c.dimension is None and bool(word_set(c.attribute) & _PRICE_WORDS))

    def _scope_currency(self, scope: AnyScope) -> str | None:
        """The currency most products in the question's scope are priced in ("the cheapest tablet"
        where tablets are priced in USD and phones in INR), or None without a scope."""
        if not isinstance(scope, LazyScope) or len(self.ctx.currencies()) < 2:
            return None
        mine = scope.products()
        if self._priced_in is None:
            res = self.ctx.store.select("SELECT ?p ?c WHERE { ?p skg:hasCurrency ?c }")
            self._priced_in = {b["p"]["value"]: b["c"]["value"] for b in res["results"]["bindings"]}
        counts: dict[str, int] = {}
        for p in mine:
            if (c := self._priced_in.get(p)) is not None:
                counts[c] = counts.get(c, 0) + 1
        return max(counts, key=lambda c: (counts[c], c)) if counts else None

    _priced_in: dict[str, str] | None = None
    _offers: bool | None = None

    def _has_offers(self) -> bool:
        """Whether the catalog keeps prices per market (``skg:hasOffer``); asked once."""
        if self._offers is None:
            self._offers = bool(self.ctx.store.ask("ASK { ?p skg:hasOffer ?o }"))
        return self._offers

    def price(self, source: Any, trace: list[str], unit: str | None = None, *, scope: AnyScope = None) -> Grounding:
        """The price literal in ``unit`` (else the configured currency, else the one the products in
        scope are priced in, else the catalog's main one)."""
        known = dict(self.ctx.currencies())
        cur = (
            unit
            or self.ctx.currency
            or self._scope_currency(scope)
            or (self.ctx.currencies()[0][0] if self.ctx.currencies() else None)
        )
        if cur is None or cur not in known:
            have = ", ".join(c for c, _ in self.ctx.currencies()) or "none"
            return unresolved(
                source,
                "price",
                f"no prices in {cur or 'any currency'} (catalog prices in: {have}); not converting between currencies",
                trace,
            )
        trace.append(f"price → skg:hasPrice in {cur} ({known[cur]} products priced)")
        snippet = f"?p skg:hasPrice {{v}} ; skg:hasCurrency {literal(cur)} ."
        if self._has_offers():
            # a product sold in several markets holds a price per market: amount and currency must
            # come from the same offer, or a EUR amount could pass for a GBP one
            snippet = f"?p skg:hasOffer {{v}}_offer . {{v}}_offer skg:hasPrice {{v}} ; skg:hasCurrency {literal(cur)} ."
        return Grounding(
            source,
            "price",
            snippet=snippet,
            confidence=0.95,
            note=f"price in {cur}",
        )

    def _numeric_candidates(self, c: NumericConstraint, attribute: str) -> list[Any]:
        """Each entry that can hold the number, as ((lexical, number inside its values, search score,
        products), pattern, low, high), the number converted into the entry's unit."""
        query = " ".join(x for x in (attribute, c.unit or "") if x) or c.span.text
        hits = self.ctx.search(query, ["spec_numeric"])
        seen = {p.pattern_id for p, _ in hits}
        # Lexical candidates the search may have missed (exact entry names always count).
        extra = [
            (p, 0.0)
            for p in self.ctx.by_kind.get("spec_numeric", [])
            if p.pattern_id not in seen and self.ctx.lexical(attribute, p) >= 0.5
        ]
        named = (
            []
            if not c.unit
            else [(p, 0.0) for p in self.ctx.by_kind.get("spec_numeric", []) if _named_by(p, c.dimension)]
        )
        cands = []
        for p, score in hits + extra + [x for x in named if x[0].pattern_id not in seen]:
            if c.unit and p.unit is None and (unit := _named_by(p, c.dimension)):
                # "5MP or more" and an entry named "Megapixels" holding bare numbers: in the unit its name says
                lo = convert(c.value, c.unit, unit)
                hi = convert(c.high, c.unit, unit) if c.high is not None else None
                inside = p.min is not None and p.max is not None and p.min <= lo <= p.max
                cands.append(((max(self.ctx.lexical(attribute, p), 1.0), inside, score, p.count), p, lo, hi))
                continue
            if c.unit:
                if p.dimension != c.dimension or p.unit is None:
                    continue
                try:
                    lo = convert(c.value, c.unit, p.unit)
                    hi = convert(c.high, c.unit, p.unit) if c.high is not None else None
                except ValueError:
                    continue
            else:
                if p.unit is not None or (c.dimension == "count" and p.dimension not in (None, "count")):
                    continue  # "4 HDMI inputs" counts ports: not the HDMI version
                lo, hi = c.value, c.high
            lex = self.ctx.lexical(attribute, p)
            inside = p.min is not None and p.max is not None and p.min <= lo <= p.max
            cands.append(((lex, inside, score, p.count), p, lo, hi))
        return cands

    @staticmethod
    def _numeric_alternatives(
        c: NumericConstraint, cands: list[Any], taken: set[str], attribute: str, conf: float
    ) -> tuple[list[Grounding], int]:
        """The runner-up entries (at most :data:`RUNNERS_UP`, none already read) for the beam, and how
        many more entries there were past that cap. When the question's own words name the best entry
        (:data:`NAMED`), only entries they name as well: "more than four cores" with no product over
        four cores is "none", not a condition on some other unitless entry ("Model number > 4"). An
        attribute only inferred (from a verb, "hold at least 50 litres") keeps every runner-up."""
        alternatives: list[Grounding] = []
        left = 0
        named = bool(c.attribute) and cands[0][0][0] >= NAMED
        for (lex2, inside2, _, _), p, lo2, hi2 in cands[1:]:
            if p.entry_iri in taken or (named and lex2 < NAMED):
                continue
            taken.add(p.entry_iri)
            if len(alternatives) == RUNNERS_UP:
                left += 1
                continue
            conf2 = (0.75 if lex2 > 0 else 0.45) if attribute else 0.5
            conf2 -= 0 if inside2 else 0.05 if attribute else 0.25
            alternatives.append(
                Grounding(
                    c,
                    "numeric",
                    snippet=widen(p, []),
                    filters=_ops(c.op, lo2, hi2),
                    pattern=p,
                    confidence=min(conf2, conf),
                    note=f"{p.section} › {p.entry} [{p.unit or 'no unit'}]",
                )
            )
        return alternatives, left

    def _earlier_price(self, source: Any, attribute: str, trace: list[str]) -> Grounding | None:
        """The catalogue's earlier price where ``attribute`` names it ("original price"), or the
        cut from it to the price now ("price cut", "discount"); None where it names neither or the
        catalogue records no earlier price (:mod:`~dualgraph.query.ground.price_cut`)."""
        words = word_set(attribute)
        cut = says_price_cut(attribute)
        if not cut and not (words & general_words("price_before_words") and words & _PRICE_WORDS):
            return None
        if (was := earlier_price_entry(self.ctx.by_kind.get("spec_numeric", []))) is None:
            return None
        what = "the cut from it to the price now" if cut else "that price"
        trace.append(f"attribute {attribute!r} → the earlier price {was.section} › {was.entry}: {what}")
        snippet = cut_amount_snippet(was) if cut else was.sparql
        return Grounding(source, "attribute", snippet=snippet, pattern=was, confidence=0.85)

    def numeric(self, c: NumericConstraint, trace: list[str], *, hint: str = "", scope: AnyScope = None) -> Grounding:
        if says_price_cut(c.attribute) and (cut := self._earlier_price(c, c.attribute, trace)) is not None:
            cut.filters = _ops(c.op, c.value, c.high)
            return cut
        if self.is_price(c):
            g = self.price(c, trace, c.unit if c.dimension == "currency" else None, scope=scope)
            if g.resolved:
                g.filters = _ops(c.op, c.value, c.high)
            return g
        attribute = c.attribute or hint
        cands = self._numeric_candidates(c, attribute)
        if not c.unit and not attribute and not any(x[0][1] for x in cands) and self.ctx.currencies():
            # a bare number that fits no unitless entry: read it as a price, as the parser's currency rule would
            g = self.price(c, trace, scope=scope)
            if g.resolved:
                trace.append(f"{c.span.text!r}: bare number outside every unitless entry's range → price")
                g.filters, g.confidence = _ops(c.op, c.value, c.high), 0.5
                return g
        if not cands:
            return unresolved(
                c,
                "numeric",
                f"no numeric pattern of dimension {c.dimension or 'unitless'} for {attribute or c.span.text!r}",
                trace,
            )
        cands, dropped = keep_in_scope(cands, scope)
        if dropped:
            trace.append(f"{dropped} candidate entries left out: none of the products in scope has them")
        cands.sort(key=lambda x: (-x[0][0], -x[0][1], -x[0][2], -x[0][3], x[1].pattern_id))
        (lex, inside, score, _), best, lo, hi = cands[0]
        also = same_named(best, [x[1] for x in cands if x[0][0] == lex], scope)
        more = (
            [
                p
                for p in fellows(
                    best,
                    [(x[0][0], x[1]) for x in cands],
                    fits=lambda p: p.min is not None and p.max is not None and p.min <= lo <= p.max,
                    apart=self._apart,
                    named=bool(attribute),
                )
                if p not in also
            ]
            if attribute or c.unit
            else []
        )
        # one entry of that unit, or the only one whose range holds the number: "over 6.5 inches" is a screen
        alone = inside and not any(x[0][1] for x in cands[1:] if x[1].entry_iri != best.entry_iri)
        single = len({x[1].entry_iri for x in cands}) == 1
        if attribute:
            # an attribute the catalog never names ("refresh rate" where it writes "120 Hz Display"): the unit
            # and the catalog's value ranges still say which entry holds it
            conf = 0.9 if lex >= NAMED else 0.75 if lex > 0 else 0.7 if single or alone else 0.45
        else:
            conf = 0.7 if single or alone else 0.5
        if not inside:
            conf -= 0.05 if attribute else 0.25
        trace.append(
            f"numeric {c.span.text!r} (attribute {attribute!r}) → {best.section} › {best.entry} "
            f"[{best.unit or 'no unit'}] lexical={lex:.2f} rrf={score:.4f} count={best.count}; "
            f"value in pattern unit {lo}{'' if hi is None else f'..{hi}'}; "
            f"{len(cands)} compatible candidates"
            + (f"; with {len(also)} more entries of that name" if also else "")
            + (f"; also read from {[f'{p.section} › {p.entry}' for p in more]}" if more else "")
        )
        taken = {p.entry_iri for p in [best, *also, *more]}
        alternatives, left = self._numeric_alternatives(c, cands, taken, attribute, conf)
        return Grounding(
            c,
            "numeric",
            snippet=union_snippet(widen(best, also), more, [best, *also, *more]),
            filters=_ops(c.op, lo, hi),
            pattern=best,
            candidates=[(x[1].text, x[0][2]) for x in cands[:5]],
            confidence=conf,
            alternatives=alternatives,
            alternatives_left=left,
        )

    @staticmethod
    def _furthest(
        ranked: list[Pattern], direction: str | None, word: str, lexical: Callable[[Pattern], float]
    ) -> Pattern:
        """The first of ``ranked``, unless other entries tie with it on the attribute's name, unit and
        dimension: then the one whose values reach furthest the way the question orders. "The longest
        exposure" between "Min. shutter speed" (up to 30 s) and "Max. shutter speed" (up to 1/2 s) is
        the first; "the fastest shutter" (a shorter time) the second. A search score had decided. An
        attribute that names none of them (``lexical`` 0) is not told apart so: nothing was named."""
        best = ranked[0]
        lex = lexical(best)
        tied = [
            p
            for p in ranked
            if lexical(p) == lex
            and (p.unit, p.dimension) == (best.unit, best.dimension)
            and p.min is not None
            and p.max is not None
        ]
        if not direction or lex <= 0 or best.unit is None or len(tied) < 2 or best not in tied:
            return best
        if best.dimension in inverse_dimensions(word):
            direction = "min" if direction == "max" else "max"
        if direction == "max":
            return max(tied, key=lambda p: p.max or 0.0)
        return min(tied, key=lambda p: p.min or 0.0)

    def attribute(
        self,
        attribute: str,
        trace: list[str],
        source: Any = None,
        *,
        scope: AnyScope = None,
        unit: str | None = None,
        prefer: frozenset[str] = frozenset(),
        direction: str | None = None,
        word: str = "",
        said: frozenset[str] = frozenset(),
    ) -> Grounding:
        """The value an intent's attribute orders by (superlative, compare); ``prefer``: dimensions the
        question's words point to, which decide between equally named quantities of one attribute;
        ``direction`` (and the ``word`` that set it): which way the question orders, which decides
        between entries the attribute names equally well (:meth:`_furthest`); ``said``: the question's
        words (folded), which an entry's words beyond the attribute may be ("uses the least energy":
        Annual Energy *Use*, not ENERGY STAR Unique ID)."""
        if (cut := self._earlier_price(source, attribute, trace)) is not None:
            return cut
        if not attribute or word_set(attribute) & _PRICE_WORDS:
            return self.price(source, trace, scope=scope)
        if unit is None and (named := normalise_unit(attribute)) is not None and named[1] != "currency":
            unit, prefer = named[0], prefer | {named[1]}  # "the highest MP count": what is measured in MP
        forms = word_forms(said)
        scores: dict[str, float] = {}  # each entry scored once: the ranking, the ties and the trace ask again

        def lexical(p: Pattern) -> float:
            if p.pattern_id not in scores:
                scores[p.pattern_id] = self.ctx.lexical(attribute, p, forms)
            return scores[p.pattern_id]

        hits = self.ctx.search(attribute, ["spec_numeric"])
        seen = {p.pattern_id for p, _ in hits}
        hits += [
            (p, 0.0)
            for p in self.ctx.by_kind.get("spec_numeric", [])
            if p.pattern_id not in seen and (lexical(p) >= 0.5 or (unit is not None and _measured_in(p, unit)))
        ]
        if not hits:
            return unresolved(source, "attribute", f"no numeric pattern for {attribute!r}", trace)
        hits, dropped = keep_in_scope(hits, scope, pattern_of=lambda h: h[0])
        if dropped:
            trace.append(f"{dropped} candidate entries left out: none of the products in scope has them")
        labels = [h for h in hits if _labels(h[0], attribute)]
        if labels and len(labels) < len(hits):  # an identifier's numbers label products, they measure nothing
            hits = [h for h in hits if h not in labels]
            trace.append(f"{len(labels)} identifier entries left out: {[h[0].entry for h in labels][:3]}")
        # equally named: the unit the question names ("in mAh"), then a measured quantity (with a unit)
        # is what "bigger"/"most" compares, before a count
        ranked = sorted(
            hits,
            key=lambda h: (
                -lexical(h[0]),
                unit is not None and not _measured_in(h[0], unit),
                bool(prefer) and h[0].dimension not in prefer,
                h[0].unit is None,
                -h[1],
                -h[0].count,
                h[0].pattern_id,
            ),
        )
        best = self._furthest([p for p, _ in ranked], direction, word, lexical)
        lex = lexical(best)
        also = same_named(best, [p for p, _ in ranked if lexical(p) == lex], scope)
        more = [p for p in fellows(best, [(lexical(p), p) for p, _ in ranked], apart=self._apart) if p not in also]
        trace.append(
            f"attribute {attribute!r} → {best.section} › {best.entry}{' (' + best.label + ')' if best.label else ''} [{best.unit}] lexical={lex:.2f}"
            + (f"; with {len(also)} more entries of that name" if also else "")
            + (f"; also read from {[f'{p.section} › {p.entry}' for p in more]}" if more else "")
        )
        return Grounding(
            source,
            "attribute",
            snippet=union_snippet(widen(best, also), more, [best, *also, *more]),
            pattern=best,
            candidates=[(p.text, s) for p, s in ranked[:5]],
            confidence=0.85 if lex > 0 else 0.45,
        )


def _labels(p: Pattern, attribute: str) -> bool:
    """Whether an entry identifies products rather than measures them ("ENERGY STAR Unique ID",
    "Serial number"; ``identifier_words``), and the attribute asked does not say so itself."""
    said = general_words("identifier_words")
    return bool(word_set(p.entry or "") & said) and not word_set(attribute) & said


def _measured_in(p: Pattern, unit: str) -> bool:
    """Whether an entry holds amounts in ``unit``: by its values' unit, or by its name when that is the
    unit spelled out ("Megapixels" holds bare numbers of MP)."""
    return p.unit == unit or (p.unit is None and (_unit_named(p.entry or "") or ("",))[0] == unit)


def _named_by(p: Pattern, dimension: str | None) -> str | None:
    """The unit an entry of bare numbers is named by ("Megapixels" → MP), when it measures ``dimension``."""
    named = _unit_named(p.entry or "") if p.unit is None and dimension else None
    return named[0] if named is not None and named[1] == dimension else None


@functools.lru_cache(maxsize=4096)
def _unit_named(entry: str) -> tuple[str, str, float] | None:
    """The unit an entry's whole name spells, read once per name (every numeric question asks of every entry)."""
    return normalise_unit(entry)
