"""Grounding features and spec values, with the prose mentions as the last resort.

- A :class:`FeatureConstraint` → a ``feature`` pattern by name (``hasFeature``; negated →
  ``lacksFeature``, so missing data never satisfies "no X"; ``only`` with a coded
  feature such as "4G" → also lacks every code of the same letters and a higher number, e.g. 5G); failing
  that a ``spec_value`` value, failing that the prose facts (``skg:mentions``), low confidence.
- A :class:`ValueConstraint` → a ``spec_value`` pattern whose values name the phrase
  (exact value IRIs when the value list has it, else a word-bounded REGEX on value names).
"""

from __future__ import annotations

import re
from typing import Any

from dualgraph.lexicon.english import one_spelling
from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.tokens import joined_run
from dualgraph.query.caps import PROSE_ENTITIES, TWIN_ENTRIES, CapHit
from dualgraph.query.ground.base import AnyScope, Grounding, GroundingContext, literal, unresolved
from dualgraph.query.ground.entry_choice import keep_in_scope, none_in_scope
from dualgraph.query.ground.entry_presence import present_entry, zero_entry
from dualgraph.query.ground.name_match import norm_tokens, squashed, synonyms, token_match, word_set
from dualgraph.query.ground.numbers import NumberGrounder
from dualgraph.query.ground.price_cut import cut_snippet, earlier_price_entry, says_price_cut
from dualgraph.query.ground.text_features import (
    TextFeatureMatcher,
    agreeing,
    feature_constraint,
    lexical_score,
    stated_polarities,
)
from dualgraph.query.read.model import FeatureConstraint, NumericConstraint, ValueConstraint
from dualgraph.skg import ontology as O
from dualgraph.skg.coded_terms import split_code
from dualgraph.skg.quantities import parse_quantity
from dualgraph.tkg.merge import fold_plural

__all__ = ["NOTHING_NAMES_IT", "FeatureGrounder"]

TEXT_FEATURE_CONFIDENCE = {"lexical": 0.8, "embedding": 0.7, "cooccurrence": 0.6}
# a phrase that names more page entities than this says too little to constrain a question, and
# the list of them becomes the query's VALUES block
NOTHING_NAMES_IT = "nothing on the pages names it"
"""The note of a phrase no spec, value or page entity names: a condition no product is shown to meet."""
PROSE_ENTITY_CAP = 200
"""A prose feature matched by its name is as sure as a spec value by name; by meaning or by shared
products less so (the matcher's measured precision at its cosine floor is 0.78)."""


ALIAS_SCORE = 0.85
"""A feature named by one of its aligned page names (:attr:`Pattern.aliases`): surer than a shared word
(0.8), less than its own name; the judge accepted the link at its calibrated precision."""


MAX_TWIN_ENTRIES = 3
"""Other entries naming the value (as well as the first: same match level and lexical fit) also read (UNION)."""

ENTRY_NAMED = 0.9
"""The lexical score at which the words after a listed value name the entry listing it (see
:meth:`FeatureGrounder._value_of_named_entry`): the entry's own word, in any inflection."""


def _words_regex(tokens: list[str]) -> str:
    """A lower-case SPARQL REGEX for ``tokens`` as whole words, any spacing between them ("8Elite" too)."""
    sep = "[^a-z0-9]"
    return f"(^|{sep})" + f"{sep}*".join(re.escape(t) for t in tokens) + f"({sep}|$)"


def either(a: str, b: str) -> str:
    """A block that holds when either snippet does, for snippets that bind nothing the rest of the
    query reads (features). Measured on Oxigraph (1,084 products): for snippets that reach the
    product through a constant (``?p skg:hasFeature <F>``) EXISTS per product is 6 ms where a UNION
    in a sub-select took 20-900 ms (evaluated over every product before the join); but a snippet
    that lists values (``VALUES ?v {…}`` or ``IN (…)``: a spec value many products share) inside
    EXISTS is evaluated from the values, per product: 4-20 s, against 0.05-0.24 s as a sub-select
    UNION evaluated once.

    >>> either("?p skg:hasFeature <f> .", "?p skg:hasTextFeature <t> .").startswith("FILTER(EXISTS")
    True
    >>> either("?p skg:hasSpec ?s . ?s skg:hasValue ?v . VALUES ?v { <a> <b> }", "?p skg:x <t> .")[:25]
    '{ SELECT DISTINCT ?p WHER'
    """
    if any(_LISTS_VALUES.search(x) for x in (a, b)):
        return f"{{ SELECT DISTINCT ?p WHERE {{ {{ {values_first(a)} }} UNION {{ {values_first(b)} }} }} }}"
    return f"FILTER(EXISTS {{ {a} }} || EXISTS {{ {b} }})"


_LISTS_VALUES = re.compile(r"\bVALUES\b|\bIN\s*\(")
_TERM = re.compile(r'<[^<>]*>|"(?:[^"\\]|\\.)*"(?:\^\^<[^<>]*>|@[\w-]+)?|[^\s,]+')
_FILTER_IN = re.compile(r"FILTER\(\s*(\?\w+|\{s\}\w*)\s+IN\s*\(([^()]*)\)\s*\)")


def values_first(snippet: str) -> str:
    """``snippet`` with each ``FILTER(?x IN (...))`` of its outer group (not inside a nested block,
    such as a NOT EXISTS) as a ``VALUES ?x { ... }`` block.

    Inside a sub-select, which Oxigraph evaluates on its own before joining, a FILTER IN scans
    every triple of the predicate and keeps the listed objects (8.6 s over the text features of a
    10,000-product catalog), where a VALUES block starts from the listed nodes (0.13 s). In a flat
    pattern the FILTER is kept: there the question's selective conditions come first.

    A ``FILTER NOT EXISTS`` of the outer group that only checks a product for listed nodes becomes
    a ``MINUS`` from those nodes: Oxigraph runs a NOT EXISTS once per row (10.5 ms over the 657
    phones that state "5G" in prose), a MINUS once (2.8 ms); ``?p`` is bound on both sides, so the
    two keep the same rows. In a flat pattern the NOT EXISTS stays: there it runs on the few rows
    the question's other conditions leave, where a MINUS would first be joined with every product
    holding the feature (1.6 ms against 16 ms on one question, bench/results/serve_load.md).

    >>> values_first("?p skg:t {s} . FILTER({s} IN (<a>, <b>)) FILTER NOT EXISTS { ?p skg:u ?x . FILTER(?x IN (<a>)) }")
    '?p skg:t {s} . VALUES {s} { <a> <b> } MINUS { ?p skg:u ?x . VALUES ?x { <a> } }'
    """
    snippet = _minus_first(snippet)
    out, last = [], 0
    for m in _FILTER_IN.finditer(snippet):
        before = snippet[: m.start()].replace("{s}", "")
        if before.count("{") != before.count("}"):
            continue  # inside a nested block: evaluated per row there, where the FILTER is cheap
        items = " ".join(_TERM.findall(m.group(2)))
        out.append(snippet[last : m.start()] + f"VALUES {m.group(1)} {{ {items} }}")
        last = m.end()
    return "".join(out) + snippet[last:]


_NOT_LISTED = re.compile(r"FILTER NOT EXISTS \{ (\?\w+) (skg:\w+) (\?\w+|\{s\}\w*) \. FILTER\(\3 IN \(([^()]*)\)\) \}")


def _minus_first(snippet: str) -> str:
    """Each outer-level ``FILTER NOT EXISTS { ?p pred ?x . FILTER(?x IN (...)) }`` as a MINUS (see values_first)."""
    out, last = [], 0
    for m in _NOT_LISTED.finditer(snippet):
        before = snippet[: m.start()].replace("{s}", "")
        if before.count("{") != before.count("}"):
            continue
        items = " ".join(_TERM.findall(m.group(4)))
        out.append(snippet[last : m.start()] + f"MINUS {{ {m[1]} {m[2]} {m[3]} . VALUES {m[3]} {{ {items} }} }}")
        last = m.end()
    return "".join(out) + snippet[last:]


def _names_phrase(value: dict, want: str, wtok: list[str], spelled: str) -> bool:
    """Whether a listed value is what the phrase names: the same tokens (``want``), a name holding
    them (``wtok``), an aligned page name of it, or the same words in the other English spelling
    (``spelled``: the phrase's tokens through :func:`~dualgraph.lexicon.english.one_spelling`)."""
    name = value["name"]
    return (
        squashed(name) == want
        or token_match(wtok, norm_tokens(name))
        or _aliased(value, want)
        or squashed(one_spelling(name)) == spelled
    )


def _aliased(value: dict, want: str) -> bool:
    """``want`` (normalised) is one of the page names the aligner linked to this listed value."""
    return any(squashed(a) == want for a in value.get("aliases", ()))


FEATURE_PHRASE_COSINE = 0.55
"""A feature phrase sharing a word with a feature's name means it at this MiniLM cosine of the whole
phrases (all-MiniLM-L6-v2): "microSD card" ~ "Memory Card Support" 0.58, ~ "SIM card" 0.47; "sd card" ~
"Memory Card Support" 0.62, ~ "SIM card" 0.53."""


class FeatureGrounder:
    """Grounds features, spec values and prose mentions. It holds the number grounder, because a
    feature phrase that holds a measurement ("3.5 mm headphone jack") is grounded as that number."""

    def __init__(self, ctx: GroundingContext, numbers: NumberGrounder) -> None:
        self.ctx, self.numbers = ctx, numbers

    def _feature_candidates(self, phrase: str) -> list[tuple[float, Pattern]]:
        want = norm_tokens(phrase)
        out = []
        for p in self.ctx.by_kind.get("feature", []):
            name = norm_tokens(p.name or "")
            if name == want:
                s = 1.0
            elif token_match(want, name) and name[: len(want)] == want:
                s = 0.9  # "5G" ↔ "5G Support"
            elif token_match(want, name):
                s = 0.8
            elif squashed(phrase) and squashed(phrase) == squashed(p.name or ""):
                s = 0.95
            elif any(norm_tokens(a) == want for a in p.aliases):
                s = ALIAS_SCORE  # the pages' own name for it, linked by the trained aligner
            else:
                continue
            out.append((s, p))
        out.sort(key=lambda x: (-x[0], -(x[1].count + (x[1].lacks_count or 0)), x[1].pattern_id))
        return out

    def feature(self, c: FeatureConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        if (cut := self._price_cut(c, trace)) is not None:
            return cut
        if c.negated and (one_word := self._without_as_less(c, trace, scope)) is not None:
            return one_word
        cands = self._feature_candidates(c.phrase)
        if not cands:  # the fused search, accepting only a strong name overlap
            said = word_set(c.phrase)
            partial = []
            for p, _ in self.ctx.search(c.phrase, ["feature"], k=5):
                overlap = (said | {s for w in said for s in synonyms(w, self.ctx.lexicon)}) & word_set(p.name or "")
                if overlap and len(overlap) >= len(said) * 0.6:
                    cands.append((0.6, p))
                elif overlap:
                    partial.append(p)
            if not cands and partial:
                # a shared word and the whole phrases close by MiniLM: "microSD card" ~ "Memory Card
                # Support" (0.58), not "SIM card" (0.47)
                cos = self.ctx.phrase_cosines(c.phrase, [p.name or "" for p in partial])
                best = max(range(len(partial)), key=lambda i: cos[i])
                if cos[best] >= FEATURE_PHRASE_COSINE:
                    cands.append((0.55, partial[best]))
        if cands and cands[0][0] < 0.95 and (better := self._over_loose(c, cands[0][1], trace, scope)) is not None:
            return better
        if cands:
            s, p = cands[0]
            snippet = p.lacks_sparql if c.negated else p.sparql
            parts = [snippet or ""]  # feature patterns always carry both snippets (pattern_collection)
            note = "lacksFeature (explicit no only)" if c.negated else "hasFeature"
            if c.only and not c.negated:
                gen = split_code(c.phrase)
                if gen:
                    for name, group in self._generations(*gen):
                        # any feature of that name stated as lacking (a tag list, a coded term) rules it out
                        parts.append(" UNION ".join("{ " + (q.lacks_sparql or "") + " }" for q in group))
                        note += f"; lacks {name} (only)"
                else:
                    trace.append(f"'only' on {c.phrase!r}: not a coded feature, treated as plain")
            trace.append(
                f"feature {c.phrase!r} → {p.name!r} ({note}; name score {s}, {p.count} have, {p.lacks_count} lack)"
            )
            return self._or_prose(
                Grounding(
                    c,
                    "feature",
                    snippet=" ".join(parts),
                    pattern=p,
                    candidates=[(q.name or "", sc) for sc, q in cands[:5]],
                    confidence=0.5 + 0.45 * s,
                ),
                c,
                trace,
                sure=s >= 0.9,
                # "require batteries" named most of "Batteries required": the pages must state that
                # fact, not merely mention a battery (a fuzzier match keeps the question's words)
                name=p.name if 0.8 <= s < 1.0 and not c.context else None,
            )
        v = self._value_grounding(c, c.phrase, "", c.negated, trace, quiet=True, scope=scope)
        if v is not None and v.resolved and v.confidence >= 0.6:
            trace.append(f"feature {c.phrase!r} → no feature node; a spec value instead")
            v.kind = "feature-value"
            return self._or_prose(v, c, trace, sure=v.confidence >= 0.9)
        if (z := zero_entry(self.ctx.index.patterns, c)) is not None:
            trace.append(
                f"feature {c.phrase!r} negated → {z.section} › {z.entry} stated as zero ({z.count} products state it)"
            )
            return Grounding(c, "feature-entry", snippet=f"{z.sparql} FILTER({{v}} = 0)", pattern=z, confidence=0.75)
        if not c.negated and (n := self._measured_feature(c, trace, scope)) is not None:
            return n
        if (e := present_entry(self.ctx.index.patterns, c)) is not None:
            trace.append(
                f"feature {c.phrase!r} → no feature node or value; products with an entry "
                f"{e.section} › {e.entry} have it ({e.count} products)"
            )
            return Grounding(c, "feature-entry", snippet=e.sparql, pattern=e, confidence=0.7)
        if (named := self._value_of_named_entry(c, trace, scope)) is not None:
            return named
        return self.prose(c, c.context or c.phrase, c.negated, trace)

    def _price_cut(self, c: FeatureConstraint, trace: list[str]) -> Grounding | None:
        """ "on sale", "discounted": the price now below the earlier one, where the catalogue states both."""
        if not says_price_cut(c.phrase) or (was := earlier_price_entry(self.ctx.index.patterns)) is None:
            return None
        trace.append(
            f"feature {c.phrase!r}: a price cut → the price now below {was.section} › {was.entry} "
            f"({was.count} products state one)" + (", negated" if c.negated else "")
        )
        return Grounding(c, "price-cut", snippet=cut_snippet(was, negated=c.negated), pattern=was, confidence=0.8)

    def _without_as_less(self, c: FeatureConstraint, trace: list[str], scope: AnyScope) -> Grounding | None:
        """ "without a freezer" where the catalogue says it in one word, "Freezerless" ("-less" is
        English for "without": cordless, fanless, tubeless): the products stated to have that."""
        words = c.phrase.lower().split()
        if not words or not words[-1].isalpha() or len(words[-1]) < 3:
            return None
        less = " ".join([*words[:-1], fold_plural(words[-1]) + "less"])
        found = [(s, p) for s, p in self._feature_candidates(less) if s >= 0.9]
        if found:
            s, p = found[0]
            trace.append(f"feature {c.phrase!r} negated → {p.name!r}, the catalogue's word for it (hasFeature)")
            return Grounding(c, "feature", snippet=p.sparql or "", pattern=p, confidence=0.5 + 0.45 * s)
        said = FeatureConstraint(span=c.span, phrase=less, negated=False, only=c.only, context="")
        v = self._value_grounding(said, less, "", False, [], quiet=True, scope=scope)
        if v is None or not v.resolved or v.confidence < 0.7:
            return None
        trace.append(f"feature {c.phrase!r} negated → the value {less!r}, the catalogue's word for it")
        v.source, v.kind = c, "feature-value"
        return v

    def _over_loose(self, c: FeatureConstraint, loose: Pattern, trace: list[str], scope: AnyScope) -> Grounding | None:
        """What reads the phrase better than a feature that only holds some of its words or is near
        them: a listed value of the very words ("bottom-freezer" is the Type "Bottom Freezer", not the
        feature "Refrigerator"), or a value with the entry the other words name."""
        value_said: list[str] = []  # the value's own trace lines, kept only when it wins
        v = self._value_grounding(c, c.phrase, "", c.negated, value_said, quiet=True, scope=scope)
        if v is not None and v.resolved and v.confidence >= 0.9:
            trace.append(f"feature {c.phrase!r}: the loose feature match {loose.name!r} gives way to an exact value")
            trace.extend(value_said)
            v.kind = "feature-value"
            return self._or_prose(v, c, trace, sure=True)
        # a value and the entry the rest of the words name read every word ("pentaprism
        # viewfinder"), where the loose feature ("Viewfinder") reads some of them
        named_said: list[str] = []
        if (named := self._value_of_named_entry(c, named_said, scope)) is not None:
            trace.append(f"feature {c.phrase!r}: the loose feature match {loose.name!r} gives way")
            trace.extend(named_said)
            return named
        return None

    def _value_of_named_entry(self, c: FeatureConstraint, trace: list[str], scope: AnyScope) -> Grounding | None:
        """A phrase that is a listed value followed by words naming the entry that lists it
        ("automatic defrost": the Defrost Type "Automatic"; "manual defrosting"), read as that value
        of that entry; None unless the value is listed exactly and the other words name its entry."""
        words = c.phrase.split()
        for k in range(1, len(words)):
            value, entry = " ".join(words[:k]), " ".join(words[k:])
            said: list[str] = []
            g = self._value_grounding(c, value, entry, c.negated, said, quiet=True, scope=scope)
            if g is None or not g.resolved or g.pattern is None:
                continue
            named = self.ctx.lexical(entry, g.pattern)
            # a value listed exactly, under an entry the words name; or a word inside values the entry
            # lists ("pentaprism" in "Optical (pentaprism)") under an entry the words name outright
            inside = named >= 1.0 and _listed_inside(value, g.pattern)
            if named < ENTRY_NAMED or g.confidence < (0.7 if inside else 0.9):
                continue
            trace.extend(said)
            trace.append(f"feature {c.phrase!r} → the value {value!r} of the entry that {entry!r} names")
            g.kind = "feature-value"
            return g
        return None

    def _measured_feature(self, c: FeatureConstraint, trace: list[str], scope: AnyScope) -> Grounding | None:
        """A feature phrase holding a measurement ("3.5 mm headphone jack") is that number on the entry
        its other words name, when one of them does."""
        m = re.search(r"(?<![\w.])\d+(?:\.\d+)?\s*[^\W\d_]+", c.phrase)
        q = parse_quantity(m.group()) if m else None
        if m is None or q is None or q.unit is None or q.value is None:
            return None
        words = (c.phrase[: m.start()] + " " + c.phrase[m.end() :]).strip()
        if not words:
            return None
        num = NumericConstraint(c.span, "=", q.value, unit=q.unit, dimension=q.dimension, attribute=words)
        sub: list[str] = []
        g = self.numbers.numeric(num, sub, scope=scope)
        if not g.resolved or g.pattern is None or self.ctx.lexical(words, g.pattern) <= 0:
            return None
        trace.extend(sub)
        trace.append(f"feature {c.phrase!r} → no feature node or value; the measurement it names instead")
        g.kind, g.source = "feature-numeric", c
        return g

    def _generations(self, n: int, letters: str) -> list[tuple[str, list[Pattern]]]:
        """Coded features of the same letters and a higher number ("5G" after "4G"), read as later
        generations of the same thing, which "4G only" rules out; grouped by name, since a catalog
        can state one code as several features (a tag-list value and a coded term)."""
        groups: dict[int, list[Pattern]] = {}
        for p in self.ctx.by_kind.get("feature", []):
            code = split_code(p.name or "")
            if code and code[1] == letters and code[0] > n and p.lacks_sparql:
                groups.setdefault(code[0], []).append(p)
        return [(ps[0].name or "", sorted(ps, key=lambda p: p.pattern_id)) for _, ps in sorted(groups.items())]

    _text_features: TextFeatureMatcher | None = None

    def _or_prose(
        self, g: Grounding, c: FeatureConstraint, trace: list[str], *, sure: bool = True, name: str | None = None
    ) -> Grounding:
        """A spec fact, or the same fact stated in prose: a catalog where some pages say "NFC" only in
        their text and others in a spec row answers from both (a product matches by either).
        ``name``: the spec fact's own name, when the question said only part of it."""
        if g.filters or c.only or not self.text_features().features:
            return g
        # the longer phrase the question said ("infrared remote blaster") is specific enough to match
        # by meaning; the short spec name only by the very same name
        text = self.prose(
            c, name or c.context or c.phrase, c.negated, [], lexical_only=sure and not c.context, beside_spec=True
        )
        aligned = self._aligned_prose(g, c, trace)
        if text.kind != "text-feature" and aligned is None:
            return g
        if text.kind == "text-feature":
            trace.append(f"{c.phrase!r}: also products whose pages state it ({text.candidates[0][0]!r}, …)")
            prose = text.snippet.replace("{s}", "{s}b")
            if aligned is not None:
                prose = "{ " + prose + " } UNION { " + aligned.replace("{s}", "{s}c") + " }"
        else:
            prose = (aligned or "").replace("{s}", "{s}c")
        if g.pattern is not None and g.pattern.kind == "spec_value" and g.pattern.entry_iri:
            # a product whose spec row names another value ("Manufacturer: NVIDIA") is not made a match
            # by its page mentioning this one ("… beats AMD's cards"): prose speaks for the silent rows
            prose = (
                f"{prose} FILTER NOT EXISTS {{ ?p skg:hasSpec {{s}}x . {{s}}x skg:inEntry <{g.pattern.entry_iri}> }}"
            )
        g.snippet = either(g.snippet.replace("{s}", "{s}a"), prose)
        return g

    def _aligned_prose(self, g: Grounding, c: FeatureConstraint, trace: list[str]) -> str | None:
        """Products whose pages state (or, negated, deny) what the trained aligner linked to the spec
        fact's node under another name ("3.5 mm audio port" for an entry "Headphone jack")."""
        p = g.pattern
        if p is None:
            return None
        if p.kind == "spec_value":  # only what was linked to the values the phrase names
            want, wtok = squashed(c.phrase), norm_tokens(c.phrase)
            named = [
                v
                for v in p.values
                if squashed(v["name"]) == want or token_match(wtok, norm_tokens(v["name"])) or _aliased(v, want)
            ]
            linked = [i for v in named for i in v.get("aligned", ())]
        else:
            linked = p.aligned
        stated = {f.iri for f in self.text_features().features}
        iris = [i for i in dict.fromkeys(linked) if i in stated]
        if not iris:
            return None
        trace.append(f"{c.phrase!r}: also products whose pages state what the aligner linked to {p.name or p.entry!r}")
        return (
            feature_constraint(iris, negated=c.negated, feature_var="ALX_")
            .replace("?ALX__not", "{s}_not")
            .replace("?ALX_", "{s}")
        )

    def text_features(self) -> TextFeatureMatcher:
        """The prose features the pages state (has / lacks), matched by name, MiniLM and co-occurrence."""
        if self._text_features is None:
            embedder = getattr(self.ctx.index, "embedder", None)
            embed = (lambda texts: embedder.embed(texts, stage="query")) if embedder is not None else None
            if self.ctx.stated_features is not None:
                self._text_features = TextFeatureMatcher(self.ctx.stated_features, embed=embed)
            else:
                self._text_features = TextFeatureMatcher.from_store(self.ctx.store, embed=embed)
        return self._text_features

    def prose(
        self,
        source: Any,
        phrase: str,
        negated: bool,
        trace: list[str],
        *,
        lexical_only: bool = False,
        beside_spec: bool = False,
    ) -> Grounding:
        """Prose features the pages state (has / lacks) that the phrase means; failing those, for a
        positive phrase, entities the pages mention whose name holds it (low confidence).
        ``lexical_only``: only features named like the phrase (beside a spec fact, meaning-only
        matches would widen a sure answer)."""
        matches = self.text_features().match(phrase)
        if lexical_only:  # the very name: "5G" beside a spec feature, not every "5G …" phrase of the pages
            matches = [m for m in matches if m.how == "lexical" and lexical_score(phrase, m.name) >= 1.0]
        elif beside_spec or any(m.how != "cooccurrence" for m in matches):
            # features that only ride along with the matches ("Notes" on the pages that mention an
            # S Pen) are a last resort, for a phrase nothing on the pages names or means
            matches = [m for m in matches if m.how != "cooccurrence"]
        if len(matches) > 1:
            # checked on the store: a neighbour in meaning stated the other way is another fact
            matches, notes = agreeing(matches, stated_polarities(self.ctx.store, [m.iri for m in matches]))
            trace.extend(f"{phrase!r}: {n}" for n in notes)
        if matches:
            how = {m.how for m in matches}
            conf = TEXT_FEATURE_CONFIDENCE[
                "lexical" if "lexical" in how else "embedding" if "embedding" in how else "cooccurrence"
            ]
            snippet = (
                feature_constraint(
                    [m.iri for m in matches],
                    negated=negated,
                    feature_var="TFX_",
                    conflicts=[m.iri for m in matches if m.how == "lexical"],
                )
                .replace("?TFX__not", "{s}_not")
                .replace("?TFX_", "{s}")
            )
            trace.append(
                f"{phrase!r}: no spec fact → prose features the pages state it "
                f"{'lacks' if negated else 'has'}: "
                + ", ".join(f"{m.name!r} ({m.how} {m.score:.2f})" for m in matches[:5])
            )
            return Grounding(
                source,
                "text-feature",
                snippet=snippet,
                candidates=[(m.name, m.score) for m in matches[:5]],
                confidence=conf,
                note="prose feature (stated has/lacks)",
            )
        if negated:
            trace.append(f"{phrase!r}: no structured fact; 'not mentioned in prose' is not evidence: unresolved")
            return Grounding(source, "prose", resolved=False, note="negated prose mention not usable")
        return self._mentions(source, phrase, trace)

    def _mentions(self, source: Any, phrase: str, trace: list[str]) -> Grounding:
        """The products whose pages mention entities named by the phrase (low confidence)."""
        # the entities are looked up here, not joined inside the final query: left to the store, two or
        # three such phrases were joined mention by mention (≈118 mentions per product, cubed) before any
        # name was tested, and one short question grew past 20 GB on 20 products
        entities = self.mentioned_entities(phrase)
        if not entities:
            # a condition no page states is still a condition: no product is shown to meet it, and
            # "none" is the credible answer (an empty VALUES block, which the store answers at once)
            trace.append(f"{phrase!r}: no feature or value in the specs, and no entity on the pages is named so")
            return Grounding(
                source,
                "prose",
                snippet="VALUES {s} { } ?p skg:mentions {s} .",
                confidence=0.4,
                note=NOTHING_NAMES_IT,
            )
        if len(entities) > PROSE_ENTITY_CAP:
            trace.append(
                f"{phrase!r}: names more than {PROSE_ENTITY_CAP} entities on the pages: too vague to constrain"
            )
            # left out, so the answer may be wider than asked: lowered as every unread mention is
            cut = PROSE_ENTITIES.hit(
                PROSE_ENTITY_CAP, f"{phrase!r} names more page entities than that: left unread", lowered=True
            )
            return Grounding(
                source, "prose", resolved=False, note=f"names over {PROSE_ENTITY_CAP} page entities", caps=[cut]
            )
        values = " ".join(f"<{iri}>" for iri in entities)
        block = f"VALUES {{s}} {{ {values} }} ?p skg:mentions {{s}} ."
        trace.append(
            f"{phrase!r}: no feature or value in the specs → products whose pages mention "
            f"{len(entities)} entit{'y' if len(entities) == 1 else 'ies'} named so (low confidence)"
        )
        return Grounding(source, "prose", snippet=block, confidence=0.4, note="prose mention")

    _entity_names: list[tuple[str, str]] | None = None

    def mentioned_entities(self, phrase: str) -> list[str]:
        """The text entities whose name holds the phrase, at most ``PROSE_ENTITY_CAP`` + 1 of them.

        The names are read from the store once (lower-cased, as SPARQL's ``LCASE``) and searched
        here: a ``CONTAINS`` filter in the store tested every entity name again for each phrase
        (about 20 ms a phrase on 1,600 products with full data sheets)."""
        if self._entity_names is None:
            entity = "skgt:" + O.TEXT_ENTITY.removeprefix(O.SKGT)
            res = self.ctx.store.select(f"SELECT ?s ?v WHERE {{ ?s a {entity} ; skg:hasName ?v }}")
            self._entity_names = [(b["v"]["value"].lower(), b["s"]["value"]) for b in res["results"]["bindings"]]
        needle = phrase.casefold()
        found: set[str] = set()
        for name, iri in self._entity_names:
            if needle in name:
                found.add(iri)
                if len(found) > PROSE_ENTITY_CAP:
                    break
        return sorted(found)

    # -- values --

    _version_labels: frozenset[str] | None = None

    def version(self, c: Any, phrase: str, trace: list[str]) -> Grounding | None:
        """ "Android 15", "Bluetooth 5.3": a name and a number that the catalog holds as a version
        quantity with that label ("Android v15" was read as version 15 labelled "android"). A whole
        number means the whole major version (15 matches 15.1)."""
        m = re.fullmatch(r"\s*([^\W\d_][\w\s.+-]*?)\s+v?(\d+(?:\.\d+)?)\s*", phrase)
        if m is None:
            return None
        if self._version_labels is None:
            res = self.ctx.store.select('SELECT DISTINCT ?l WHERE { ?q skg:hasDimension "version" ; skg:hasLabel ?l }')
            self._version_labels = frozenset(b["l"]["value"] for b in res["results"]["bindings"])
        label = " ".join(norm_tokens(m.group(1)))
        if label not in self._version_labels:
            return None
        number = m.group(2)
        high = f"{float(number) + 1:g}" if "." not in number else None
        filters = [f"{{v}} >= {number}", f"{{v}} < {high}"] if high else [f"{{v}} = {number}"]
        trace.append(f"{phrase!r} → version {number} labelled {label!r} (a version quantity in the specs)")
        return Grounding(
            c,
            "version",
            snippet=f"?p skg:hasSpec {{s}} . {{s}} skg:hasQuantity {{s}}_q . {{s}}_q skg:hasDimension "
            f'"version" ; skg:hasLabel {literal(label)} ; skg:hasNumericValue {{v}} .',
            filters=filters,
            confidence=0.85,
        )

    def value(self, c: ValueConstraint, trace: list[str], *, scope: AnyScope = None) -> Grounding:
        g = self._value_grounding(c, c.phrase, c.attribute, c.negated, trace, scope=scope, only=c.only)
        if not c.negated and (ver := self.version(c, c.phrase, trace)) is not None:
            if g is None or not g.resolved or g.filters:
                return ver
            # some products write "Android 15" as a value, others "Android v15" (a version): either will do
            ver_block = ver.snippet + " " + " ".join(f"FILTER({f})" for f in ver.filters)
            g.snippet = f"{{ SELECT ?p WHERE {{ {{ {g.snippet} }} UNION {{ {ver_block} }} }} }}"
            return g
        if g is None or not g.resolved:
            if c.negated:
                return g or unresolved(c, "value", f"no value {c.phrase!r}", trace)
            return self.prose(c, c.phrase, False, trace)
        return g

    def value_named(self, e: Any, trace: list[str]) -> Grounding | None:
        """A name no product or range carries, read as a spec value that products hold or as a
        feature their pages state by that name, or None."""
        g = self._value_grounding(e, e.phrase, "", False, trace, quiet=True)
        if g is None or not g.resolved:
            # "Galaxy AI": no product and no spec value, but a feature the pages state by that very name
            text = self.prose(e, e.phrase, False, [], lexical_only=True) if self.text_features().features else None
            if text is None or text.kind != "text-feature":
                return None
            trace.append(f"{e.phrase!r} names no product but a feature the pages state: products stating it")
            return text
        trace.append(f"{e.phrase!r} names no product but a spec value: products holding it")
        return g

    def _entries_holding(self, tokens: list[str]) -> dict[str, int]:
        """Entries with a value naming ``tokens`` (word-bounded, any spacing): entry IRI -> products."""
        if not tokens:
            return {}
        key = tuple(tokens)
        cache = self.ctx.held_values
        if key not in cache:
            rx = _words_regex(tokens)
            if self.ctx.value_names is not None:  # the index's table: each distinct name tested once
                cache[key] = self.ctx.value_names.entries_holding(rx)
                return cache[key]
            res = self.ctx.store.select(
                "SELECT ?e (COUNT(DISTINCT ?p) AS ?n) WHERE { ?v a skgt:Value ; skg:hasName ?vn . "
                f"FILTER(REGEX(LCASE(STR(?vn)), {literal(rx)})) ?s skg:hasValue ?v ; skg:inEntry ?e . ?p skg:hasSpec ?s }} "
                "GROUP BY ?e"
            )
            cache[key] = {b["e"]["value"]: int(b["n"]["value"]) for b in res["results"]["bindings"]}
        return cache[key]

    def _value_candidates(self, phrase: str, attribute: str, trace: list[str], *, scope: AnyScope) -> list[Any]:
        """The entries whose values name the phrase, as ((2 exact / 1 partial, lexical fit of the
        attribute, search score, products), pattern, the exact values); the store is asked when no
        listed value names it."""
        want, wtok = squashed(phrase), norm_tokens(phrase)
        spelled = squashed(one_spelling(phrase))  # "aluminum" is the listed "Aluminium"
        ranks = {p.pattern_id: s for p, s in self.ctx.search(f"{phrase} {attribute}".strip(), ["spec_value"])}
        cands = []
        for p in self.ctx.by_kind.get("spec_value", []):
            exact = [
                v
                for v in p.values
                if squashed(v["name"]) == want or _aliased(v, want) or squashed(one_spelling(v["name"])) == spelled
            ]
            partial = [v for v in p.values if v not in exact and token_match(wtok, norm_tokens(v["name"]))]
            if not exact and not partial and p.pattern_id not in ranks:
                continue
            level = 2 if exact else 1 if partial else 0
            cands.append(((level, self.ctx.lexical(attribute, p), ranks.get(p.pattern_id, 0.0), p.count), p, exact))
        cands = [x for x in cands if x[0][0] > 0]
        if none_in_scope(cands, scope):
            # "Snapdragon" listed under one shop's "Processor family", while the brand asked about
            # states its chips inside another entry's longer values: the store says which
            trace.append(f"value {phrase!r}: the entries listing it hold no product in scope")
            cands = []
        if not cands:
            # beyond an entry's most common values: ask the store which entries hold a value naming it
            held = self._entries_holding(wtok)
            cands = [
                ((1, self.ctx.lexical(attribute, p), ranks.get(p.pattern_id, 0.0), held[p.entry_iri]), p, [])
                for p in self.ctx.by_kind.get("spec_value", []) + self.ctx.by_kind.get("entry", [])
                if p.entry_iri in held
            ]
            if cands:
                trace.append(f"value {phrase!r}: beyond the listed values, held under {len(cands)} entries")
        return cands

    def _value_grounding(
        self,
        source: Any,
        phrase: str,
        attribute: str,
        negated: bool,
        trace: list[str],
        quiet: bool = False,
        scope: AnyScope = None,
        only: bool = False,
    ) -> Grounding | None:
        want, wtok = squashed(phrase), norm_tokens(phrase)
        if not want:
            return None
        cands = self._value_candidates(phrase, attribute, trace, scope=scope)
        if not cands:
            if not quiet:
                trace.append(f"value {phrase!r}: no value list names it")
            return None
        cands, _ = keep_in_scope(cands, scope)
        cands.sort(key=lambda x: (-x[0][0], -x[0][1], -x[0][2], -x[0][3], x[1].pattern_id))
        (level, lex, _, _), p, _ = cands[0]
        # the words as the question spells them, and as the listed values join or split them
        # ("CompactFlash" where the catalog writes "Compact Flash")
        spelled = squashed(one_spelling(phrase))
        runs = [wtok] + [r for x in cands for v in x[1].values if (r := joined_run(wtok, norm_tokens(v["name"])))]
        rx = "|".join(f"({_words_regex(list(r))})" for r in dict.fromkeys(tuple(r) for r in runs))
        match = f"{{v}} skg:hasName {{v}}_n . FILTER(REGEX(LCASE(STR({{v}}_n)), {literal(rx)}))"

        def body_of(pat) -> str:
            iris = _phrase_iris(pat, want, wtok, spelled)
            exact_ = ("VALUES {v} { " + " ".join(f"<{i}>" for i in iris) + " }") if iris is not None else None
            return pat.sparql + " " + (exact_ or match)

        body = body_of(p)
        # the same exact value listed under other entries that fit the question as well ("Wi-Fi 6E"
        # under "Top Wi-Fi standard" and under "Wi-Fi standards"): a product with it in either has it
        same = [x[1] for x in cands[1:] if x[0][:2] == (level, lex)]  # sorted: the best fits come first
        twins = same[:MAX_TWIN_ENTRIES]
        caps: list[CapHit] = []
        if len(same) > len(twins) and not negated:
            left = ", ".join(f"{q.section} › {q.entry}" for q in same[len(twins) :])
            # a product holding the value only under an entry left out is missing from the answer
            caps.append(TWIN_ENTRIES.hit(MAX_TWIN_ENTRIES, f"value {phrase!r} not read under {left}", lowered=True))
            trace.append(f"value {phrase!r}: listed under {len(same) - len(twins)} more entries, past the cap")
        if twins and not negated:
            body = " UNION ".join("{ " + body_of(q) + " }" for q in [p, *twins])
            trace.append(
                f"value {phrase!r} is also listed under "
                + ", ".join(f"{q.section} › {q.entry}" for q in twins)
                + ": either entry counts"
            )
        if negated:  # has the entry, with no value naming the phrase: missing data never counts
            inner = body.replace("{s}", "{s}x").replace("{v}", "{v}x")
            snippet = p.sparql + " MINUS { " + inner + " }"  # MINUS: see _only
        elif only:
            snippet = _only(body, p, _phrase_iris(p, want, wtok, spelled), rx)
            trace.append(f"value {phrase!r}: only it, no other value of {p.section} › {p.entry}")
        else:
            snippet = body
        # an attribute word that names no entry is doubt only when another entry could hold the value
        conf = {2: 0.9, 1: 0.7}[level] - (0.0 if lex > 0 or not attribute or len(cands) == 1 else 0.1)
        trace.append(
            f"value {phrase!r}{' (negated)' if negated else ''} → {p.section} › {p.entry} "
            f"({'exact value' if level == 2 else 'value names containing it'}; lexical={lex:.2f})"
        )
        return Grounding(
            source,
            "value",
            snippet=snippet,
            pattern=p,
            candidates=[(x[1].text, x[0][2]) for x in cands[:5]],
            confidence=conf,
            caps=caps,
        )


def _phrase_iris(pat: Pattern, want: str, wtok: list[str], spelled: str) -> list[str] | None:
    """The IRIs of ``pat``'s values naming the phrase, or None where a REGEX over names must reach them:
    the whole value list is known, or the phrase is an aligned page name of a value (its own name does
    not hold the phrase), then the IRIs are named."""
    listed = [v for v in pat.values if _names_phrase(v, want, wtok, spelled)]
    complete = pat.distinct_values is not None and pat.distinct_values <= len(pat.values)
    by_iri = complete or any(_aliased(v, want) for v in listed)
    return [v["iri"] for v in listed] if by_iri else None


def _only(body: str, p: Pattern, iris: list[str] | None, rx: str) -> str:
    """``body`` ("sold only in Canada") and no value of ``p``'s entry other than the phrase's: outside
    ``iris``, or (``iris`` None) with a name ``rx`` does not match. The test on the other value is a
    plain FILTER, and the products holding one are taken away with MINUS: on 1,000 fridges the store
    took 7 s over FILTER NOT EXISTS (it reads every product's specs again per row), 18 ms so.

    >>> p = Pattern("x", "spec_value", "", "?p skg:hasSpec {s} . {s} skg:hasValue {v} .")
    >>> _only("B", p, ["a", "b"], "")
    'B MINUS { ?p skg:hasSpec {s}o . {s}o skg:hasValue {v}o . FILTER({v}o NOT IN (<a>, <b>)) }'
    """
    other = p.sparql.replace("{s}", "{s}o").replace("{v}", "{v}o")
    if iris is not None:
        test = f"FILTER({{v}}o NOT IN ({', '.join(f'<{i}>' for i in iris)}))"
    else:
        test = f"{{v}}o skg:hasName {{v}}o_n . FILTER(!REGEX(LCASE(STR({{v}}o_n)), {literal(rx)}))"
    return f"{body} MINUS {{ {other} {test} }}"


def _listed_inside(word: str, pattern: Pattern) -> bool:
    """Whether ``word`` is a whole word of one of the values ``pattern`` lists.

    >>> p = Pattern("e", "spec_value", "Viewfinder", "", name="Viewfinder", values=[{"name": "Optical (pentaprism)"}])
    >>> _listed_inside("pentaprism", p), _listed_inside("penta", p)
    (True, False)
    """
    want = word.casefold()
    return any(
        re.search(rf"(?<![\w-]){re.escape(want)}(?![\w-])", str(v.get("name", "")).casefold())
        for v in (pattern.values or ())
    )
