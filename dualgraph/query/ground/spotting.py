"""Catalog words a question holds that the (catalog-independent) parser cannot recognise, looked
up in the pattern index before grounding: full product/range names in any case, category names
("phone cases", "desktop PCs"), brands in lower case ("oneplus 5G phones"), and plain words that
are values of a value list next to a word naming their entry ("wall mounts", "a dedicated slot").
What they cover replaces the parser's reading of those words; every decision goes to the trace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dualgraph.lexicon.catalog_names import (
    brand_words,
    category_heads,
    name_index,
    singular,
    spot_brands,
    spot_categories,
    spot_names,
)
from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.patterns import Pattern
from dualgraph.query.read.asked import answer_unit_spans
from dualgraph.query.read.exclusions import excluded_names
from dualgraph.query.read.links import carry_negation, mark_only
from dualgraph.query.read.model import Constraint, EntityRef, FeatureConstraint, Span
from dualgraph.query.read.parse import LEFT_OUT
from dualgraph.query.read.value_words import ValueSpellings, spot_values

__all__ = ["CatalogSpotter"]


def _span(x: EntityRef | Constraint) -> tuple[int, int]:
    return x.span.start, x.span.end


def _overlaps(x: EntityRef | Constraint, a: int, b: int) -> bool:
    """Whether ``x`` shares a character with the question's ``a:b``."""
    return x.span.start < b and a < x.span.end


def _within(c: Constraint, v: Constraint) -> bool:
    return v.span.start <= c.span.start and c.span.end <= v.span.end


def _model_around(q: str, e: EntityRef, a: int, b: int) -> bool:
    """Whether the parser's name ``e`` holds ``a:b`` and goes on with a model number ("Lenovo Idea Tab
    A5500" around the line "Idea Tab"): then the longer name is meant."""
    if e.kind not in ("product", "range", "phrase", "unknown") or not (e.span.start <= a and b <= e.span.end):
        return False
    rest = q[e.span.start : a] + " " + q[b : e.span.end]
    return (e.span.end - e.span.start) > (b - a) and any(ch.isdigit() for ch in rest)


def _lone_code(phrase: str) -> bool:
    """One word of letters and digits ("GDDR5", "650B"): a model code or a listed value alike."""
    return re.fullmatch(r"(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+", phrase) is not None


class CatalogSpotter:
    """Looks catalog names up in questions (built once per pattern index)."""

    def __init__(self, patterns: list[Pattern], *, lines: Iterable[str] = ()) -> None:
        """``lines``: product-line names ("Galaxy A", "Redmi Note"), spotted like product names: the
        parser would read "Galaxy A phones" as "Galaxy" and an article."""
        self.patterns = patterns
        self.spellings = ValueSpellings(patterns)
        self.names = name_index([*(p.name or "" for p in patterns if p.kind in ("range", "product")), *lines])
        self.brands = brand_words(p.name or "" for p in patterns if p.kind == "product")
        self.heads = category_heads(p.name or "" for p in patterns if p.kind == "category")
        self.category_words = set(self.heads) | {w for ws in self.heads.values() for w in ws}
        # what the catalog sells, by the words its categories and general English name it
        self.nouns = frozenset(singular(sorted(self.category_words | general_words("product_nouns"))))

    def apply(
        self, q: str, entities: list[EntityRef], constraints: list[Constraint], trace: list[str]
    ) -> tuple[list[EntityRef], list[Constraint]]:
        # catalog names spelled out in the question win over the parser's split of them
        for a, b in spot_names(q, self.names):
            if any(_model_around(q, e, a, b) for e in entities):
                trace.append(f"catalog name {q[a:b]!r} is part of the longer name the parser read around it")
                continue
            entities = [e for e in entities if not _overlaps(e, a, b)]
            dropped = [c for c in constraints if _overlaps(c, a, b)]
            constraints = [c for c in constraints if not _overlaps(c, a, b)]
            entities.append(EntityRef(Span(a, b, q[a:b]), q[a:b], "product"))
            trace.append(
                f"catalog name {q[a:b]!r} found in the question"
                + (f" (absorbs {[c.span.text for c in dropped]})" if dropped else "")
            )
        # categories named as the catalog names them: "phone cases", "desktop PCs", "workstation"
        fixed = [_span(x) for x in entities if x.kind in ("product", "range")]
        fixed += [_span(c) for c in constraints if not isinstance(c, FeatureConstraint)]
        for a, b in spot_categories(q, self.heads, [_span(x) for x in [*entities, *constraints]]):
            if any(a <= x and y <= b for x, y in fixed):
                continue
            if LEFT_OUT.search(q[:a]):
                trace.append(f"catalog category {q[a:b]!r} is said to be left out, not the scope")
                continue
            absorbed = [x for x in [*entities, *constraints] if a <= x.span.start and x.span.end <= b]
            if (
                len(absorbed) == 1
                and isinstance(absorbed[0], EntityRef)
                and absorbed[0].kind == "category"
                and _span(absorbed[0]) == (a, b)
            ):
                continue  # the parser found the same words
            entities = [x for x in entities if x not in absorbed]
            constraints = [x for x in constraints if x not in absorbed]
            entities.append(EntityRef(Span(a, b, q[a:b]), q[a:b], "category"))
            trace.append(
                f"catalog category {q[a:b]!r} found in the question"
                + (f" (absorbs {[x.span.text for x in absorbed]})" if absorbed else "")
            )
        # brands the parser cannot tell from other words: "oneplus 5G phones", "a vivo phone"
        for a, b in spot_brands(
            q, self.brands, [_span(x) for x in [*entities, *constraints]], words=self.category_words
        ):
            entities.append(EntityRef(Span(a, b, q[a:b]), q[a:b], "brand"))
            trace.append(f"catalog brand {q[a:b]!r} found in the question")
        entities.sort(key=lambda e: e.span.start)
        entities = excluded_names(q, entities, trace)  # "anything but sony": a brand found here is left out too
        # plain words that are values of a value list, next to a word naming its entry ("wall mounts");
        # they may sit inside a category mention, never be a word of a category name
        # a lone coded word the parser took for a name ("GDDR5") may be a listed value said with its
        # entry ("GDDR5 memory"): the value spotter reads it only with that entry word next to it
        coded = [e for e in entities if e.kind in ("product", "unknown") and _lone_code(e.phrase)]
        taken = [
            _span(x)
            for x in [*entities, *constraints]
            if not (isinstance(x, EntityRef) and (x.kind == "category" or x in coded))
        ]
        taken += [
            m.span() for m in re.finditer(r"[^\W\d_]+", q) if singular([m.group().casefold()])[0] in self.category_words
        ]
        taken += answer_unit_spans(q)  # "…, in US dollars?": the answer's unit, not a currency the products list
        for v in spot_values(q, self.patterns, taken, spellings=self.spellings, nouns=self._nouns_said(entities)):
            if named := [e for e in coded if _overlaps(e, v.span.start, v.span.end)]:
                entities = [e for e in entities if e not in named]
                trace.append(f"{named[0].phrase!r} is a value of {v.attribute!r} said with its entry, not a name")
            inside = [c for c in constraints if isinstance(c, FeatureConstraint) and _within(c, v)]
            constraints = [c for c in constraints if c not in inside] + [v]
            trace.append(
                f"value word {v.phrase!r} of {v.attribute!r} found in the question"
                + (" (negated)" if v.negated else "")
                + (f" (absorbs {[c.span.text for c in inside]})" if inside else "")
            )
        joined = mark_only(q, carry_negation(q, constraints))
        for before, after in zip(constraints, joined):
            if getattr(after, "negated", False) and not getattr(before, "negated", False):
                trace.append(f"{after.span.text!r} is negated with the condition it is joined to")
        return entities, joined

    def _nouns_said(self, entities: list[EntityRef]) -> frozenset[str]:
        """The words the catalog's products are named by, with the noun the question names them by
        ("the compact *fridges*"), in whatever words it puts it: a short list's value before one
        qualifies the products."""
        said = [w for e in entities if e.kind == "category" for w in re.findall(r"[^\W\d_]+", e.phrase)[-1:]]
        return self.nouns | frozenset(singular([w.casefold() for w in said]))
