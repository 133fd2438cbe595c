"""What every part of the grounder shares: the :class:`Grounding` result, the failure it reports
when nothing fits, and :class:`GroundingContext`, the grounder's view of one graph (its patterns by
kind, the catalog's currencies, the pattern search).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dualgraph.lexicon.mining import variants
from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.pattern_index import PatternIndex
from dualgraph.lexicon.synonyms import CatalogLexicon
from dualgraph.lexicon.value_names import ValueNames
from dualgraph.query.caps import CapHit
from dualgraph.query.ground.entry_choice import LazyScope, Scope, holders, use_holders
from dualgraph.query.ground.extents import extent_patterns
from dualgraph.query.ground.name_match import lexical_score
from dualgraph.query.ground.text_features import TextFeature

__all__ = ["MIN_CONFIDENCE", "Grounding", "GroundingContext", "member_of"]

AnyScope = Scope | LazyScope | None
MIN_CONFIDENCE = 0.35
"""Below this a grounding is reported unresolved and its constraint is not emitted."""
_SEARCH_K = 25


def literal(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def member_of(predicate: str, iris: list[str]) -> str:
    """``?p predicate`` one of ``iris`` (a category, brand or line): a constant for one; a FILTER IN
    for several. A ``VALUES`` block there made Oxigraph walk every product of the category before
    the selective conditions (0.5 s against 0.1 s on a thousand phones).

    >>> member_of("skg:belongs", ["http://x/a"]), member_of("skg:belongs", ["http://x/a", "http://x/b"])
    ('?p skg:belongs <http://x/a> .', '?p skg:belongs {s} . FILTER({s} IN (<http://x/a>, <http://x/b>))')
    """
    iris = list(dict.fromkeys(iris))
    if len(iris) == 1:
        return f"?p {predicate} <{iris[0]}> ."
    return f"?p {predicate} {{s}} . FILTER({{s}} IN ({', '.join(f'<{i}>' for i in iris)}))"


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
    alternatives: list[Grounding] = field(default_factory=list)
    """Runner-up groundings of the same mention, best first, for the reader's beam to try when
    the store contradicts this one (see :mod:`dualgraph.query.interpret`)."""
    alternatives_left: int = 0
    """Runner-ups past the cap on ``alternatives`` (the beam never sees them; see :mod:`dualgraph.query.caps`)."""
    caps: list[CapHit] = field(default_factory=list)
    """The caps grounding this mention reached, and what they cut (:mod:`dualgraph.query.caps`)."""
    parts: list[Grounding] = field(default_factory=list)
    """The mentions a scope said as alternatives was read from ("Canon or Nikon": either brand)."""
    covers: list[str] = field(default_factory=list)
    """Words of the question beyond its own span that this grounding read ("certified" naming the
    date entry of "in 2020"): read, so not reported as left unread."""


def unresolved(source: Any, kind: str, note: str, trace: list[str]) -> Grounding:
    trace.append(f"unresolved {kind}: {note}")
    return Grounding(source, kind, resolved=False, confidence=0.0, note=note)


class GroundingContext:
    """The state every part of the grounder reads: ``store`` for catalog facts (currencies, product
    names), ``patterns`` for what can be asked, grouped by kind once. One context is shared by the
    parts (numbers, features, entities, dates), which hold it rather than inherit from it."""

    def __init__(
        self,
        store,
        patterns: PatternIndex,
        *,
        currency: str | None = None,
        prose_synonyms: Mapping[str, list[str]] | None = None,
        text_features: list[TextFeature] | None = None,
    ) -> None:
        self.store = store
        # the features the pages state, as the index wrote them (None: asked of the store when first needed)
        self.stated_features = text_features
        use_holders(store, getattr(patterns, "holders", None))
        self.value_names: ValueNames | None = getattr(patterns, "value_names", None)
        self.prose_synonyms = dict(prose_synonyms or {})
        self.phrase_vectors: dict[str, np.ndarray] = {}
        self.index = patterns
        self.currency = currency
        self._currencies: list[tuple[str, int]] | None = None
        self.held_values: dict[tuple[str, ...], dict[str, int]] = {}  # value words -> entries holding them
        self.by_kind: dict[str, list[Pattern]] = {}
        for p in patterns.patterns:
            self.by_kind.setdefault(p.kind, []).append(p)
        # the axes of sizes stored as one three-part value ("93.5 x 56 x 20 mm"): one pattern per axis
        self.by_kind.setdefault("spec_numeric", []).extend(extent_patterns(store))
        self.total_products = len(self.by_kind.get("product", []))

    _lexicon: CatalogLexicon | None = None

    @property
    def lexicon(self) -> CatalogLexicon:
        """The catalog's synonyms: its own entry, section and label names, what its pages say beside
        their values, and the variants of its numeric attributes."""
        if self._lexicon is None:
            spec = [p for p in self.index.patterns if p.kind in ("spec_numeric", "spec_value", "feature")]
            names = [x for p in spec for x in (p.section, p.entry, p.name) if x]
            names += [p.label for p in spec if p.label]  # the words beside numbers ("front", "inbuilt")
            embedder = getattr(self.index, "embedder", None)
            embed = (lambda texts: embedder.embed(texts, stage="query")) if embedder is not None else None
            self._lexicon = CatalogLexicon(
                names, embed=embed, mined=self.prose_synonyms, variants=variants(self.index.patterns)
            )
        return self._lexicon

    def prepare(self) -> None:
        """What every question may need from the catalog, read and embedded once per index: the
        lexicon's words, the text features' names, the category names the cosine check compares
        with, and the products holding each entry. A cold embedding cache then costs the engine's
        start, not the first questions' answers."""
        self.lexicon.prepare()
        embedder = getattr(self.index, "embedder", None)
        names = [t for t in dict.fromkeys(p.name or "" for p in self.by_kind.get("category", [])) if t]
        missing = [t for t in names if t not in self.phrase_vectors]
        if embedder is not None and missing:
            v = embedder.embed(missing, stage="query")
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
            self.phrase_vectors.update(zip(missing, v, strict=True))
        holders(self.store, [])

    def phrase_cosines(self, phrase: str, names: list[str]) -> list[float]:
        """MiniLM cosine of ``phrase`` to each of ``names`` (0 without an embedder)."""
        embedder = getattr(self.index, "embedder", None)
        if embedder is None or not names:
            return [0.0] * len(names)
        # catalog names come back question after question: each is embedded once per grounder
        cache = self.phrase_vectors
        missing = [t for t in dict.fromkeys([phrase, *names]) if t not in cache]
        if missing:
            if len(cache) > 20_000:  # the questions' phrases would grow it without bound in bulk runs
                cache.clear()
            v = embedder.embed(missing, stage="query")
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
            cache.update(zip(missing, v, strict=True))
        return [float(cache[n] @ cache[phrase]) for n in names]

    def lexical(self, attribute: str, p: Pattern, also: frozenset[str] = frozenset()) -> float:
        """How well ``attribute`` names ``p``'s entry (see :func:`~dualgraph.query.ground.name_match._lexical`);
        ``also``: the question's other words, in their forms."""
        return lexical_score(attribute, p, self.lexicon, also)

    def patterns_of(self, *kinds: str) -> list[Pattern]:
        """The patterns of these kinds ("spec_numeric", "spec_value", …), the size axes included."""
        return [p for k in kinds for p in self.by_kind.get(k, [])]

    def named_patterns(self) -> list[Pattern]:
        """Range and product patterns (names a question may spell out)."""
        return self.by_kind.get("range", []) + self.by_kind.get("product", [])

    # -- catalog facts --

    def currencies(self) -> list[tuple[str, int]]:
        """(currency, products priced in it), most used first."""
        if self._currencies is None:
            res = self.store.select("SELECT ?c (COUNT(DISTINCT ?p) AS ?n) WHERE { ?p skg:hasCurrency ?c } GROUP BY ?c")
            rows = [(b["c"]["value"], int(b["n"]["value"])) for b in res["results"]["bindings"]]
            self._currencies = sorted(rows, key=lambda r: (-r[1], r[0]))
        return self._currencies

    def search(self, text: str, kinds: list[str], k: int = _SEARCH_K) -> list[tuple[Pattern, float]]:
        if not text.strip():
            return []
        return self.index.search([text], k=k, kinds=kinds)[0]
