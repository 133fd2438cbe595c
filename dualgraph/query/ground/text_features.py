"""A question's feature phrase -> the prose feature nodes it means, and the SPARQL to filter on them.

Pages name a feature their own way ("microSD card", "IR blaster"); questions another
("memory card slot", "infrared remote blaster"). The text graph holds one node per TKG
entity with ``skg:hasTextFeature`` / ``skg:lacksTextFeature`` edges from products
(:mod:`dualgraph.tkg.text_features`). :class:`TextFeatureMatcher` finds the nodes a phrase
means by three kinds of evidence, each reported in :attr:`FeatureMatch.how`:

* ``lexical``: the names agree word for word (case, plurals, hyphens aside), or one holds
  all content words of the other ("NFC" in "contactless payments with NFC", "headphone
  jack" in "3.5mm headphone jack");
* ``embedding``: the cosine between the phrase and the name (``embed``: MiniLM in the
  pipeline, any L2-normalising callable in tests) reaches :data:`MIN_COSINE`;
* ``cooccurrence``: a feature stated for mostly the same products as the direct hits
  (Jaccard of product sets), and not unrelated in meaning ("TV remote" next to "IR blaster"
  on every page that mentions either).

:func:`feature_constraint` writes the graph pattern: ``?p skg:hasTextFeature ?tf .
VALUES ?tf {...}``, or ``skg:lacksTextFeature`` for "without" questions; products whose
pages never state the feature match neither (missing mention is unknown).

>>> import numpy as np
>>> def toy(texts):  # a 3-word embedder, enough for an offline example
...     rows = np.array([[w in t.lower() for w in ("card", "blaster", "remote")] for t in texts], "float32") + 0.01
...     return rows / np.linalg.norm(rows, axis=1, keepdims=True)
>>> feats = [TextFeature("http://x/f1", "microSD card", frozenset({"p1"})),
...          TextFeature("http://x/f2", "IR blaster", frozenset({"p2"}))]
>>> [(m.name, m.how) for m in TextFeatureMatcher(feats, embed=toy).match("memory card")]
[('microSD card', 'embedding')]
>>> print(feature_constraint(["http://x/f2"], negated=True, exclude_conflicts=False))
?p skg:lacksTextFeature ?tf . FILTER(?tf IN (<http://x/f2>))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dualgraph.skg import ontology as O
from dualgraph.skg.quantities import normalise_unit
from dualgraph.tkg.extract_heuristic import L
from dualgraph.tkg.merge import fold_plural
from dualgraph.tkg.polarity import denies, negated_words
from dualgraph.tkg.text_features import ABOUT_PRODUCT, HAS_TEXT_FEATURE, LACKS_TEXT_FEATURE, STATES_FEATURE

__all__ = [
    "MIN_COSINE",
    "Embed",
    "FeatureMatch",
    "TextFeature",
    "TextFeatureMatcher",
    "agreeing",
    "feature_constraint",
    "load_text_features",
    "read_text_features",
    "stated_polarities",
]

Embed = Callable[[list[str]], np.ndarray]
"""Texts -> one L2-normalised row each (``lambda t: embedder.embed(t, stage="query")``)."""

# Thresholds, measured with all-MiniLM-L6-v2 on the labelled pairs of
# tests/integration/test_text_features_index.py (14 question phrases x 48 page names: 29 pairs
# a shopper would call the same feature, 643 not). Cosine >= 0.55 found 21 of the 29 (72%)
# with 6 false pairs (0.9% of the negatives; precision 78%); 0.60 found 17 with 4, 0.50 found
# 22 with 8. 0.55 keeps "microSD card" for "memory card slot" (0.60) and "IR emitter" for
# "infrared remote blaster" (0.57) while "SIM card" (0.49) stays out. Below it lie paraphrases
# that need world knowledge ("IP68" for "water resistance": 0.07, "OIS": 0.11) which no
# threshold can separate from noise.
MIN_COSINE = 0.55
# Scores for lexical hits, above any paraphrase short of an exact name: a name that is the
# phrase, then a name inside the phrase or the phrase inside a name.
EXACT_SCORE = 1.0
CONTAINED_SCORE = 0.9
# Co-occurrence: a feature joins when at least MIN_SUPPORT products state both it and a
# direct hit, the product sets' Jaccard is at least MIN_JACCARD (most of either set is
# shared, so a hub feature stated for every product never qualifies), and its cosine to the
# phrase is at least COOCCURRENCE_MIN_COSINE: without that floor a brand's boilerplate, stated
# on exactly the pages of that brand's phones, would ride along. On the labelled pairs, 94% of
# the negatives score below 0.30; "IR blaster" for "TV remote" scores 0.35.
MIN_SUPPORT = 2
MIN_JACCARD = 0.5
HUB_SHARE = 0.4
"""A feature stated about more than this share of all products with statements names the
catalog's topic (a category word on every page), not a feature: it never joins by co-occurrence.
A feature that half the pages state (has or lacks) is a seed set that size, so a hub would pass
the Jaccard test against it. Only past HUB_MIN products: in a handful of pages every feature is
on a large share."""
HUB_MIN = 10
COOCCURRENCE_MIN_COSINE = 0.30
# Agreement: two names of one fact are stated the same way on every page that states both; a
# neighbour in meaning that is another fact is stated the other way on some ("makes its own ice but
# has no door dispenser"). Measured on the fridges catalogue for "ice maker": "automatic icemaker"
# 0 of 263 shared products the other way, "ice dispenser" 16 of 180, "Top Freezer" 115 of 122. A
# few disagreements are allowed for misread sentences.
MAX_DISAGREE_SHARE = 0.05
MIN_DISAGREE = 2


@dataclass(frozen=True, slots=True)
class TextFeature:
    """A text feature node: its IRI, name, and the products some sentence states it for."""

    iri: str
    name: str
    products: frozenset[str]


@dataclass(frozen=True, slots=True)
class FeatureMatch:
    iri: str
    name: str
    score: float
    how: str  # "lexical", "embedding" or "cooccurrence"
    cosine: float | None = None


def read_text_features(path: Path) -> list[TextFeature] | None:
    """What :func:`load_text_features` asks of the store, from the table the index writes beside the
    text graph (:func:`~dualgraph.tkg.text_features.write_stated`); None when there is none (an
    index built before it): the caller asks the store."""
    if not path.is_file():
        return None
    import pyarrow.parquet as pq

    t = pq.read_table(path)
    return _features(zip(t["feature"].to_pylist(), t["name"].to_pylist(), t["product"].to_pylist(), strict=True))


def load_text_features(store) -> list[TextFeature]:
    """Every feature node that some statement names, with the products stated about."""
    q = f"""SELECT DISTINCT ?f ?n ?p WHERE {{ GRAPH <{O.TEXT_GRAPH}> {{
        ?s <{STATES_FEATURE}> ?f ; <{ABOUT_PRODUCT}> ?p . ?f <{O.HAS_NAME}> ?n }} }}"""
    rows = store.select(q)["results"]["bindings"]
    return _features((b["f"]["value"], b["n"]["value"], b["p"]["value"]) for b in rows)


def _features(rows: Iterable[tuple[str, str, str]]) -> list[TextFeature]:
    """(feature, name, product) rows as one :class:`TextFeature` per feature, sorted by IRI."""
    names: dict[str, str] = {}
    products: dict[str, set[str]] = {}
    for f, n, p in rows:
        names[f] = n
        products.setdefault(f, set()).add(p)
    return [TextFeature(f, names[f], frozenset(products[f])) for f in sorted(names)]


def _words(text: str) -> list[str]:
    raw = "".join(ch if ch.isalnum() else " " for ch in text.lower()).split()
    return [fold_plural(w) for w in raw]


def _numbers(text: str) -> frozenset[str]:
    """The number-bearing tokens of a name ("Wi-Fi 6E" -> {"6e"}): names that differ in them are
    different things however close their meaning ("Wi-Fi 6" is not "Wi-Fi 6E")."""
    return frozenset(w for w in re.findall(r"[a-z0-9]+", text.lower()) if any(ch.isdigit() for ch in w))


def _content(words: list[str]) -> frozenset[str]:
    return frozenset(w for w in words if w not in L.STOPWORDS)


def lexical_score(phrase: str, name: str) -> float:
    """1.0 for the same words (spacing and hyphens aside), 0.9 when one holds all content words
    of the other, else 0.

    >>> lexical_score("Wi-Fi", "wifi"), lexical_score("contactless payments with NFC", "NFC")
    (1.0, 0.9)
    >>> lexical_score("memory card slot", "microSD card")
    0.0
    """
    return _lexical_keys(_keys(phrase), _keys(name))


Keys = tuple[str, frozenset[str], frozenset[str]]


def _identifying(words: list[str]) -> frozenset[str]:
    """Number-bearing words that name a version or model ("6e", "ax211", "5"), not a measure
    ("5mm", or "3" "5" before "mm")."""
    out = set()
    for i, w in enumerate(words):
        if not any(ch.isdigit() for ch in w):
            continue
        letters = re.sub(r"[\d.]", "", w)
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if (letters and normalise_unit(letters)) or (not letters and nxt.isalpha() and normalise_unit(nxt)):
            continue
        if not letters and nxt and nxt[0].isdigit() and normalise_unit(re.sub(r"[\d.]", "", nxt) or "-"):
            continue  # "3" of "3.5mm"
        out.add(w)
    return frozenset(out)


def _keys(text: str) -> Keys | None:
    """A name's joined words, content words and identifying numbers (what :func:`lexical_score` compares)."""
    words = _words(text)
    return ("".join(words), _content(words), _identifying(words)) if words else None


def _lexical_keys(p: Keys | None, n: Keys | None) -> float:
    if p is None or n is None:
        return 0.0
    if p[0] == n[0]:
        return EXACT_SCORE
    pc, nc = p[1], n[1]
    if not p[2] <= nc:
        return 0.0  # the phrase's version or model number must be in the name: "Wi-Fi 6E" is not "Wi-Fi"
    if pc and nc and (pc <= nc or nc <= pc):
        return CONTAINED_SCORE
    return 0.0


class TextFeatureMatcher:
    """Ranks the text features a phrase means (see the module notes).

    Name embeddings are computed once, on the first :meth:`match`; ``embed=None`` leaves only
    lexical and co-occurrence evidence (co-occurrence then has no cosine floor to pass, so it
    is off too).
    """

    def __init__(
        self,
        features: Sequence[TextFeature],
        *,
        embed: Embed | None = None,
        min_cosine: float = MIN_COSINE,
        min_support: int = MIN_SUPPORT,
        min_jaccard: float = MIN_JACCARD,
        cooccurrence_min_cosine: float = COOCCURRENCE_MIN_COSINE,
    ) -> None:
        self.features = list(features)
        self.embed = embed
        self.min_cosine = min_cosine
        self.min_support = min_support
        self.min_jaccard = min_jaccard
        self.cooccurrence_min_cosine = cooccurrence_min_cosine
        self._names: np.ndarray | None = None
        self._all: int | None = None
        self._keys: list[Keys | None] | None = None
        self._denied: list[frozenset[str]] | None = None

    @classmethod
    def from_store(cls, store, **options) -> TextFeatureMatcher:
        return cls(load_text_features(store), **options)

    def prepare(self) -> None:
        """Embed and split the feature names now (once per index) rather than on the first question."""
        if self.embed is not None and self.features and self._names is None:
            self._names = np.asarray(self.embed([f.name for f in self.features]), dtype=np.float32)
        if self._keys is None:
            self._keys = [_keys(f.name) for f in self.features]
        if self.features:
            self._hub()

    def cosines(self, phrase: str) -> np.ndarray | None:
        """The phrase's cosine to every feature name, or None without an embedder."""
        if self.embed is None or not self.features:
            return None
        if self._names is None:
            self._names = np.asarray(self.embed([f.name for f in self.features]), dtype=np.float32)
        query = np.asarray(self.embed([phrase]), dtype=np.float32)[0]
        return self._names @ query

    def match(self, phrase: str, *, limit: int | None = None) -> list[FeatureMatch]:
        """Matches, best first (ties by name): direct hits, then co-occurring features."""
        cos = self.cosines(phrase)
        if self._keys is None:  # feature names are split once, not once per question
            self._keys = [_keys(f.name) for f in self.features]
        want = _keys(phrase)
        hub = self._hub()
        if self._denied is None:  # the words each name negates, read once: most names negate none
            self._denied = [negated_words(f.name) for f in self.features]
        direct: dict[int, FeatureMatch] = {}
        for i, f in enumerate(self.features):
            c = None if cos is None else float(cos[i])
            lex = _lexical_keys(want, self._keys[i])
            if len(f.products) > hub and lex < EXACT_SCORE:
                continue  # a topic on most pages ("Memory", "Card") is no paraphrase of a feature
            if self._denied[i] and denies(f.name, phrase):
                continue  # "use regular non-ECC RAM" is close to "ECC memory" and means its opposite
            if lex > 0:
                direct[i] = FeatureMatch(f.iri, f.name, max(lex, c or 0.0), "lexical", c)
            elif c is not None and c >= self.min_cosine and _numbers(phrase) == _numbers(f.name):
                direct[i] = FeatureMatch(f.iri, f.name, c, "embedding", c)
        out = list(direct.values()) + self._cooccurring(direct, cos)
        out.sort(key=lambda m: (-m.score, m.name))
        return out[:limit] if limit is not None else out

    def _hub(self) -> float:
        """How many products a feature may be stated for before it is a topic (see HUB_SHARE)."""
        if self._all is None:
            self._all = len(frozenset().union(*(f.products for f in self.features)))
        return max(HUB_SHARE * self._all, HUB_MIN)

    def _cooccurring(self, direct: dict[int, FeatureMatch], cos: np.ndarray | None) -> list[FeatureMatch]:
        if not direct or cos is None:
            return []
        seeds = frozenset().union(*(self.features[i].products for i in direct))
        hub = self._hub()
        out = []
        for i, f in enumerate(self.features):
            if i in direct or cos[i] < self.cooccurrence_min_cosine or len(f.products) > hub:
                continue
            shared = len(f.products & seeds)
            jaccard = shared / len(f.products | seeds)
            if shared >= self.min_support and jaccard >= self.min_jaccard:
                # below every direct hit (those score min_cosine or more): the link is indirect
                score = 0.5 * (jaccard + float(cos[i])) * self.min_cosine
                out.append(FeatureMatch(f.iri, f.name, score, "cooccurrence", float(cos[i])))
        return out


Polarities = dict[str, dict[str, bool]]
"""Feature IRI -> product IRI -> True where the pages say it has the feature, False where they say it
lacks it (a product stated both ways is left out: it says nothing of agreement)."""


def stated_polarities(store, iris: Iterable[str]) -> Polarities:
    """What the pages state of each feature in ``iris``, product by product (one query)."""
    listed = " ".join(f"<{i}>" for i in dict.fromkeys(iris))
    out: Polarities = {}
    if not listed:
        return out
    # the features bound first and each predicate named: an open predicate walked every quad (1.2 s a
    # question on 1,600 heavy pages)
    q = f"""SELECT ?f ?p ?has WHERE {{ VALUES ?f {{ {listed} }}
        {{ ?p <{HAS_TEXT_FEATURE}> ?f . BIND(1 AS ?has) }} UNION {{ ?p <{LACKS_TEXT_FEATURE}> ?f . BIND(0 AS ?has) }} }}"""
    both: set[tuple[str, str]] = set()
    for b in store.select(q)["results"]["bindings"]:
        f, p, has = b["f"]["value"], b["p"]["value"], b["has"]["value"] == "1"
        said = out.setdefault(f, {})
        if said.get(p, has) != has:
            both.add((f, p))
        said[p] = has
    for f, p in both:
        del out[f][p]
    return out


def agreeing(matches: Sequence[FeatureMatch], said: Polarities) -> tuple[list[FeatureMatch], list[str]]:
    """The matches that agree with the surest ones, and a note for each left out.

    The surest are the matches named exactly like the phrase; without one, all are kept (which of
    several near names is the phrase's own meaning is not known, so none is a yardstick). Another
    match is left out when the pages state it the other way on more than :data:`MAX_DISAGREE_SHARE`
    (and at least :data:`MIN_DISAGREE`) of the products that state both: it is a neighbouring fact,
    not another name of this one. A match stated on no product the surest are stated on is kept (no
    evidence either way).

    >>> a, b, c = (FeatureMatch(f"http://x/{n}", n, s, "lexical") for n, s in (("ice maker", 1.0), ("icemaker", 0.9), ("freezer", 0.6)))
    >>> said = {a.iri: {"p1": False, "p2": True, "p3": False}, b.iri: {"p1": False, "p2": True},
    ...         c.iri: {"p1": True, "p2": False, "p3": True}}
    >>> kept, notes = agreeing([a, b, c], said)
    >>> [m.name for m in kept], notes
    (['ice maker', 'icemaker'], ["'freezer' left out: the pages state it the other way on 3 of 3 products that state both"])
    """
    sure = [m for m in matches if m.how == "lexical" and m.score >= EXACT_SCORE]
    if not sure or len(sure) == len(matches):
        return list(matches), []
    anchor: dict[str, bool] = {}
    mixed: set[str] = set()
    for m in sure:
        for p, has in said.get(m.iri, {}).items():
            if anchor.get(p, has) != has:
                mixed.add(p)
            anchor[p] = has
    for p in mixed:
        del anchor[p]
    kept, notes = [], []
    for m in matches:
        if m in sure:
            kept.append(m)
            continue
        mine = said.get(m.iri, {})
        shared = [p for p in mine if p in anchor]
        other = sum(mine[p] != anchor[p] for p in shared)
        if other >= MIN_DISAGREE and other > MAX_DISAGREE_SHARE * len(shared):
            notes.append(
                f"{m.name!r} left out: the pages state it the other way on {other} of {len(shared)} "
                "products that state both"
            )
        else:
            kept.append(m)
    return kept, notes


def feature_constraint(
    iris: Iterable[str],
    *,
    negated: bool = False,
    product_var: str = "p",
    feature_var: str = "tf",
    exclude_conflicts: bool = True,
    conflicts: Iterable[str] | None = None,
) -> str:
    """A SPARQL group-pattern snippet: ``?p`` has (or, ``negated``, lacks) one of the features.

    ``exclude_conflicts`` also drops products stated the other way for one of them (a page
    that lacks "infrared port" but has "IR blaster" answers neither question). Use a distinct
    ``feature_var`` per constraint in one query.

    >>> print(feature_constraint(["http://x/a", "http://x/b"]))
    ?p skg:hasTextFeature ?tf . FILTER(?tf IN (<http://x/a>, <http://x/b>))
    FILTER NOT EXISTS { ?p skg:lacksTextFeature ?tf_not . FILTER(?tf_not IN (<http://x/a>, <http://x/b>)) }
    """
    values = " ".join(f"<{i}>" for i in dict.fromkeys(iris))
    if not values:
        raise ValueError("feature_constraint needs at least one feature IRI")
    yes, no = (LACKS_TEXT_FEATURE, HAS_TEXT_FEATURE) if negated else (HAS_TEXT_FEATURE, LACKS_TEXT_FEATURE)
    yes_p, no_p = ("skg:" + p[len(O.SKG) :] for p in (yes, no))
    # FILTER IN rather than VALUES: a VALUES block made Oxigraph start from every product stating the
    # feature before the question's other conditions
    listed = ", ".join(f"<{i}>" for i in dict.fromkeys(iris))
    out = f"?{product_var} {yes_p} ?{feature_var} . FILTER(?{feature_var} IN ({listed}))"
    against = listed if conflicts is None else ", ".join(f"<{i}>" for i in dict.fromkeys(conflicts))
    if exclude_conflicts and against:
        # ``conflicts``: the features a product must not be stated the other way for (by default all;
        # a caller passes only the sure matches, so a loose one cannot veto a product)
        other = f"{feature_var}_not"
        out += f"\nFILTER NOT EXISTS {{ ?{product_var} {no_p} ?{other} . FILTER(?{other} IN ({against})) }}"
    return out
