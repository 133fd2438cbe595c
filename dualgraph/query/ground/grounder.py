"""Ground each parsed constraint and entity on the graph: which pattern answers it, and how.

Every constraint is grounded on its own (never the whole question at once), against the
:class:`~dualgraph.lexicon.patterns.PatternIndex` and, where exact names decide, against the
patterns' structured facts (names, units, value lists). The result is a :class:`Grounding`
holding a SPARQL snippet over ``?p`` with ``{s}``/``{v}`` placeholders (the compiler gives
each block fresh variables), FILTER expressions over ``{v}``, a confidence and a trace.

This module is the public entry point. :class:`Grounder` is composed of parts that share one
:class:`~dualgraph.query.ground.base.GroundingContext` (the store, the patterns by kind, the
lexicon); each part lives in a module of its own that says what each form grounds to, and a part
that needs another holds it (features hold numbers: "3.5 mm jack" is a measurement):

- :mod:`~dualgraph.query.ground.numbers`: prices, numeric constraints, ordering attributes;
- :mod:`~dualgraph.query.ground.features`: features and spec values (prose as the last resort);
- :mod:`~dualgraph.query.ground.entities`: products, ranges, brands, categories;
- :mod:`~dualgraph.query.ground.dates`: time conditions and orderings by date;
- :mod:`~dualgraph.query.ground.base`: the :class:`Grounding` result and the shared context;
- :mod:`~dualgraph.query.ground.name_match`: :func:`norm_tokens`, :func:`token_match` and the lexical
  score of an attribute against an entry's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.pattern_index import PatternIndex
from dualgraph.query.ground.base import MIN_CONFIDENCE, AnyScope, Grounding, GroundingContext
from dualgraph.query.ground.dates import DateGrounder
from dualgraph.query.ground.entities import EntityGrounder
from dualgraph.query.ground.features import FeatureGrounder
from dualgraph.query.ground.name_match import norm_tokens, token_match
from dualgraph.query.ground.numbers import NumberGrounder
from dualgraph.query.ground.text_features import TextFeature, TextFeatureMatcher
from dualgraph.query.read.model import DateConstraint, EntityRef, FeatureConstraint, NumericConstraint, ValueConstraint

__all__ = ["MIN_CONFIDENCE", "Grounder", "Grounding", "norm_tokens", "token_match"]


class Grounder:
    """Grounds constraints on one graph: ``store`` for catalog facts (currencies, product
    names), ``patterns`` for what can be asked. Each call appends its decisions to ``trace``.

    The parts are attributes (``numbers``, ``features``, ``entities``, ``dates``) over one
    ``context``; the methods here are the reader's whole use of them."""

    def __init__(
        self,
        store: Any,
        patterns: PatternIndex,
        *,
        currency: str | None = None,
        prose_synonyms: Mapping[str, list[str]] | None = None,
        text_features: list[TextFeature] | None = None,
    ) -> None:
        self.context = GroundingContext(
            store, patterns, currency=currency, prose_synonyms=prose_synonyms, text_features=text_features
        )
        self.numbers = NumberGrounder(self.context)
        self.features = FeatureGrounder(self.context, self.numbers)
        self.entities = EntityGrounder(self.context)
        self.dates = DateGrounder(self.context)

    def prepare(self) -> None:
        """Read and embed once per index what every question may need (see
        :meth:`GroundingContext.prepare`), the prose features' names included."""
        self.context.prepare()
        self.features.text_features().prepare()

    # -- what the catalogue holds --

    def currencies(self) -> list[tuple[str, int]]:
        """(currency, products priced in it), most used first."""
        return self.context.currencies()

    def patterns_of(self, *kinds: str) -> list[Pattern]:
        """The patterns of these kinds, the size axes included."""
        return self.context.patterns_of(*kinds)

    def lexical(self, attribute: str, p: Pattern, also: frozenset[str] = frozenset()) -> float:
        """How well ``attribute`` names ``p``'s entry."""
        return self.context.lexical(attribute, p, also)

    def text_features(self) -> TextFeatureMatcher:
        """The prose features the pages state, matched by name, MiniLM and co-occurrence."""
        return self.features.text_features()

    # -- one mention each --

    def numeric(self, c: NumericConstraint, trace: list[str], *, hint: str = "", scope: AnyScope = None) -> Grounding:
        """A number with its comparison (a price or a measured entry)."""
        return self.numbers.numeric(c, trace, hint=hint, scope=scope)

    def attribute(
        self,
        attribute: str,
        trace: list[str],
        *,
        scope: AnyScope = None,
        unit: str | None = None,
        prefer: frozenset[str] = frozenset(),
        direction: str | None = None,
        word: str = "",
        said: frozenset[str] = frozenset(),
    ) -> Grounding:
        """The entry a superlative, comparison or average orders by (``unit``: the one asked;
        ``prefer``: dimensions the question implies; ``said``: the question's words)."""
        return self.numbers.attribute(
            attribute, trace, scope=scope, unit=unit, prefer=prefer, direction=direction, word=word, said=said
        )

    def feature(self, c: FeatureConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        """A feature had or lacked (spec value, entry, or prose)."""
        return self.features.feature(c, trace, scope=scope)

    def value(self, c: ValueConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        """A spec value asked of an attribute."""
        return self.features.value(c, trace, scope=scope)

    def value_named(self, e: Any, trace: list[str]) -> Grounding | None:
        """A name-like word that is a spec value of the catalogue (None: it is none)."""
        return self.features.value_named(e, trace)

    def entity(self, e: EntityRef, trace: list[str]) -> Grounding:
        """A product, line, brand or category named."""
        return self.entities.entity(e, trace)

    def date(self, c: DateConstraint, trace: list[str]) -> Grounding:
        """A time condition."""
        return self.dates.date(c, trace)

    def date_order(self, event: str, trace: list[str], source: Any = None) -> Grounding:
        """The dated entry an ordering by ``event`` ("newest", "released first") reads."""
        return self.dates.date_order(event, trace, source)
