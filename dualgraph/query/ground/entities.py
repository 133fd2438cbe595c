"""Grounding the entities a question names: products, ranges, brands and categories.

- A product/range/unknown :class:`EntityRef` → range (all its variants) or product IRIs by a
  tolerant name match (case, spacing "Flip 7" = "Flip7", punctuation); a product whose full
  name is the mention wins over a range of the same name; an unknown word that is neither but
  a whole word in ≥ 2 product names ("Pixel" in "Acme Pixel 9") → a word-bounded REGEX on
  product names.
- A brand → a name-prefix filter ``STRSTARTS(LCASE(?name), "brand")`` on product names (brand
  nodes do not exist in the graph, and names start with the brand on the shop pages we index).
- A category → category patterns by name (singular/plural tolerant), dropped when it covers the
  whole catalog.
"""

from __future__ import annotations

import re
from dataclasses import replace

from dualgraph.lexicon.catalog_names import singular
from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.pattern import Pattern
from dualgraph.lexicon.synonyms import line_words
from dualgraph.lexicon.vocabulary import name_phrase_tokens
from dualgraph.query.ground.base import MIN_CONFIDENCE, Grounding, GroundingContext, literal, member_of, unresolved
from dualgraph.query.ground.name_match import name_heads, norm_tokens, squashed, token_match
from dualgraph.query.read.model import EntityRef

__all__ = ["EntityGrounder"]


def _stem(word: str) -> str:
    """A category word's singular ("bikes" and "bike" → "bike", "watches" → "watch").

    >>> _stem("bikes"), _stem("bike"), _stem("watches"), _stem("tvs")
    ('bike', 'bike', 'watch', 'tv')
    """
    return singular([word])[0]


def _node(p: Pattern) -> str:
    """The catalog node of a product or range pattern (the pattern index always records it)."""
    assert p.node_iri is not None, f"{p.kind} pattern {p.pattern_id} has no node"
    return p.node_iri


_Q_SCOPES = """
SELECT ?x ?k (MIN(STR(?n)) AS ?name) (COUNT(DISTINCT ?p) AS ?c) WHERE {
  { ?p skg:hasBrand ?x . BIND("brand" AS ?k) } UNION { ?p skg:inLine ?x . BIND("line" AS ?k) }
  ?p a skgt:Product . ?x skg:hasName ?n .
} GROUP BY ?x ?k
"""


def _key(tokens: list[str]) -> str:
    """Spacing- and case-blind key of a name ("One Plus" = "oneplus", "Galaxy S" = "galaxys")."""
    return "".join(tokens)


CATEGORY_COSINE = 0.6
"""A category word no category name holds means the category MiniLM puts at this cosine or closer
(all-MiniLM-L6-v2 on Icecat's names: "handsets" ~ "Mobile Phones" 0.65, "notebooks" ~ "Laptops" 0.78,
"slates" ~ "Tablets" 0.51, too far to trust)."""
SALES_NOUN_SHARE = 0.95
"""A category word held by the names of categories covering this share of the catalog names what the
whole catalog sells: no constraint (a part of it stays the beam's alternative). Not much less: "phones"
in a shop of Smartphones (90%) and Tablets names the smartphones."""
CATEGORY_MARGIN = 0.08
"""... together with every category within this margin of the closest ("computers": Laptops 0.68, PCs 0.60)."""


def kind_words(name: str, stop: frozenset[str]) -> list[str]:
    """The words a product name states its kind with, after its first word (the maker's or the
    range's), up to a comma, a bracket, a slash or a function word of general English.

    >>> stop = frozenset({"for", "with"})
    >>> kind_words("EKTORP 3-seat sofa, Hallarp grey", stop), kind_words("EKTORP Cover for armchair", stop)
    (['3-seat', 'sofa'], ['cover'])
    >>> kind_words("POÄNG Armchair (191.17)", stop), kind_words("SOLO", stop)
    (['armchair'], [])
    """
    out: list[str] = []
    for word in name.split()[1:]:
        bare = word.rstrip(",;:/")
        if word[:1] in "(/" or not bare or bare.casefold() in stop:
            break
        out.append(bare.casefold())
        if bare != word:
            break
    return out


def _joins_kinds(name: str) -> bool:
    """Whether a category's name joins two kinds ("Sofas & armchairs", "Tables and desks").

    >>> _joins_kinds("Sofas & armchairs"), _joins_kinds("Ebikes - Mountain")
    (True, False)
    """
    joins = general_words("joining_words")
    return any(j in name for j in joins if not j.isalpha()) or bool(
        set(re.findall(r"[a-z]+", name.casefold())) & {j for j in joins if j.isalpha()}
    )


def _regex_filter(rx: str) -> str:
    return f'REGEX(STR(?name), {literal(rx)}, "i")'


class EntityGrounder:
    """Grounds entity mentions on the catalog's product, range and category names."""

    def __init__(self, ctx: GroundingContext) -> None:
        self.ctx = ctx

    _scopes: dict[tuple[str, str], list[tuple[str, str, int]]] | None = None

    def catalog_scope(self, kind: str, tokens: list[str]) -> list[tuple[str, str, int]]:
        """Brand or product-line nodes (``kind``) whose name is ``tokens`` (any case and spacing, or
        the plural of it): ``(iri, name, products)``. Empty where the catalog facts were not derived."""
        if self._scopes is None:
            table: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
            for b in self.ctx.store.select(_Q_SCOPES)["results"]["bindings"]:
                key = (b["k"]["value"], _key(norm_tokens(b["name"]["value"])))
                table.setdefault(key, []).append((b["x"]["value"], b["name"]["value"], int(b["c"]["value"])))
            self._scopes = table
        for want in (tokens, singular(tokens)):
            if hit := self._scopes.get((kind, _key(want))):
                return hit
        return []

    def _line(self, e: EntityRef, tokens: list[str], trace: list[str]) -> Grounding | None:
        """A product line named ("iPhones", "Galaxy S", "pixel") → every product in it; unless the
        words are a kind that more names state than the lines hold (see :meth:`_kind_over_lines`)."""
        hits = self.catalog_scope("line", tokens)
        if not hits:
            return None
        n = sum(c for _, _, c in hits)
        line = Grounding(
            e,
            "line",
            snippet=member_of("skg:inLine", [x for x, _, _ in hits]),
            confidence=0.9,
            candidates=[(name, 0.9) for _, name, _ in hits],
        )
        if (kind := self._kind_over_lines(e, tokens, n, line, trace)) is not None:
            return kind
        trace.append(f"{e.phrase!r} → product line {[name for _, name, _ in hits]} ({n} products)")
        return line

    def _kind_over_lines(
        self, e: EntityRef, tokens: list[str], in_lines: int, line: Grounding, trace: list[str]
    ) -> Grounding | None:
        """The words of a line's name said without its maker ("tv bench") name a kind when more
        product names state that kind than the lines named so hold ("MOSJÖ TV bench" is in no
        line): every product of the kind, the lines kept as the runner-up reading. Lines that
        name a kind of their own ("Galaxy S": no name states it as its kind) stay lines."""
        found = self._kind_names(tokens, whole=True)
        if found is None or len(found[1]) <= in_lines:
            return None
        rx, hits = found
        trace.append(
            f"{e.phrase!r}: a kind {len(hits)} product names state, more than the {in_lines} products of "
            f"the lines named so {[n for n, _ in line.candidates]}: the kind, the lines as the runner-up"
        )
        return Grounding(
            e,
            "name-word",
            name_filter=_regex_filter(rx),
            confidence=0.85,
            candidates=[(n, 0.85) for n in hits[:5]],
            alternatives=[replace(line, note="the product lines named so")],
        )

    def _brand_line(self, e: EntityRef, tokens: list[str], trace: list[str]) -> Grounding | None:
        """A brand then one of its lines ("Vivo Y-series", "Oppo Reno models"), or a line followed by a
        word that says it is one ("Reno series"): the brand's products in that line."""
        toks = list(tokens)
        while toks and toks[-1] in line_words():
            toks.pop()
        for i in range(1, len(toks)):
            brand, line = self.catalog_scope("brand", toks[:i]), self.catalog_scope("line", toks[i:])
            if brand and line:
                trace.append(
                    f"{e.phrase!r} → brand {[n for _, n, _ in brand]} and its product line {[n for _, n, _ in line]}"
                )
                snippet = member_of("skg:hasBrand", [x for x, _, _ in brand])
                snippet += " " + member_of("skg:inLine", [x for x, _, _ in line]).replace("{s}", "{s}l")
                return Grounding(e, "line", snippet=snippet, confidence=0.9, candidates=[(n, 0.9) for _, n, _ in line])
        if len(toks) < len(tokens) and toks:
            return self._line(e, toks, trace)
        return None

    def entity(self, e: EntityRef, trace: list[str]) -> Grounding:
        if e.kind == "brand":
            return self._brand(e, trace)
        if e.kind == "category":
            return self._category(e, trace)
        if e.kind == "phrase":
            if (g := self._name_kind(e, trace)) is not None:
                return g
            e = EntityRef(e.span, e.phrase, "unknown")
        return self._named(e, trace)

    def _name_kind(self, e: EntityRef, trace: list[str]) -> Grounding | None:
        """Words names state as the product's kind, right after their first word ("corner sofas" →
        "HOLMSUND Corner sofa", not "… Cover for corner sofa" nor "… Corner sofa-bed"): a filter
        on those names, before any one range or product named like the words."""
        found = self._kind_names(name_phrase_tokens(e.phrase), whole=True)
        if found is None:
            return None
        rx, hits = found
        trace.append(f"{e.phrase!r}: the kind {len(hits)} product names state after their first word")
        return Grounding(
            e, "name-word", name_filter=_regex_filter(rx), confidence=0.8, candidates=[(n, 0.8) for n in hits[:5]]
        )

    _product_kinds: list[tuple[str, list[str]]] | None = None

    def _kind_names(self, tokens: list[str], *, whole: bool) -> tuple[str, list[str]] | None:
        """The kinds product names state after their first word (see :func:`kind_words`) that are
        ``tokens`` (``whole``) or end in them ("armchairs": "Armchair", "Swivel armchair"; not
        "Armchair cover"; "cross-country bikes": not "Mountain bike"), in singular or as written,
        and a regular expression for those names; None unless two names or more state one."""
        if not tokens:
            return None
        stop = general_words("function_words")
        if self._product_kinds is None:
            # each product name's kind and its tokens, once per grounder: they were worked out again
            # for every name on every question that named a kind (16 % of answering on 1,600 products)
            named = [" ".join(kind_words(p.name or "", stop)) for p in self.ctx.by_kind.get("product", [])]
            self._product_kinds = [(kind, name_phrase_tokens(kind)) for kind in named]
        for want in (tokens, singular(tokens)):
            kinds: dict[str, None] = {}
            for kind, toks in self._product_kinds:
                if toks and (toks == want if whole else toks[-len(want) :] == want and len(toks) <= len(want) + 2):
                    kinds[kind] = None
            if not kinds:
                continue
            ends = "|".join(sorted(re.escape(w) for w in stop))
            alts = "|".join(r"\s+".join(re.escape(w) for w in k.split()) for k in sorted(kinds))
            rx = rf"^\S+\s+(?:{alts})(?:\s*[,(/]|\s+(?:{ends})\b|$)"
            match = re.compile(rx, re.I).search
            hits = [p.name or "" for p in self.ctx.by_kind.get("product", []) if match(p.name or "")]
            if len(hits) >= 2:
                return rx, hits
        return None

    def _brand(self, e: EntityRef, trace: list[str]) -> Grounding:
        tokens = norm_tokens(e.phrase)
        if hits := self.catalog_scope("brand", tokens):
            # the brand facts read the whole catalog ("OPPO" and "Oppo" are one brand): exact, not a name prefix
            trace.append(f"brand {e.phrase!r} → brand {[n for _, n, _ in hits]} ({sum(c for *_, c in hits)} products)")
            return Grounding(e, "brand", snippet=member_of("skg:hasBrand", [x for x, _, _ in hits]), confidence=0.9)
        if (line := self._line(e, tokens, trace)) is not None:
            return line  # "Pixel phones": a line read as a brand by its capital
        if (line := self._brand_line(e, tokens, trace)) is not None:
            return line
        brand = e.phrase.casefold().strip()
        n = sum(1 for p in self.ctx.by_kind.get("product", []) if (p.name or "").casefold().startswith(brand))
        if not n:
            # a range, a product line word inside names ("Pixel phones"), or a category is the next best thing
            g = self._named(EntityRef(e.span, e.phrase, "unknown"), trace)
            if g.resolved:
                return g
            return unresolved(e, "brand", f"no product name starts with {brand!r}", trace)
        trace.append(f"brand {e.phrase!r} → product names starting with it ({n} products)")
        return Grounding(e, "brand", name_filter=f"STRSTARTS(LCASE(STR(?name)), {literal(brand)})", confidence=0.85)

    def _category(self, e: EntityRef, trace: list[str]) -> Grounding:
        word = _kind_words(e.phrase)
        stems = {_stem(w) for w in word if w not in ("smart", "mobile")} or set(word)
        glued = _stem(squashed(e.phrase))
        glued_names = [
            p
            for p in self.ctx.by_kind.get("category", [])
            if len(word) > 1 and glued in {_stem(t) for t in _kind_words(p.name or "")}
        ]
        if glued_names:
            stems = {glued}  # "e-bikes" is the catalog's one word "Ebikes", not any kind of bike
        hits = []
        for p in self.ctx.by_kind.get("category", []):
            toks = {_stem(t) for t in _kind_words(p.name or "")}
            joined = squashed(p.name or "")
            if stems & toks or any(s and s in joined for s in stems):
                hits.append(p)
        # one spelling for singular and plural on both sides: "downhill bike" is "Downhill Bikes"
        exact = [p for p in hits if {_stem(t) for t in _kind_words(p.name or "")} == stems]
        # "phone cases" is "Mobile Phone Cases", not also "Mobile Phones"
        full = [p for p in hits if len(stems) > 1 and stems <= {_stem(t) for t in _kind_words(p.name or "")}]
        full = full or glued_names  # the whole phrase is one word of the name
        headed = self._headed(e.phrase, stems, hits)
        hits = exact or full or headed or hits  # "laptops" is "Laptops", not also "Laptop Spare Parts"
        # a word only inside another category's name ("mobiles" in "Mobile Phone Cases") is weak: the
        # category the whole word means by MiniLM comes first
        weak = hits and not (exact or full or headed)
        if (not hits or weak) and (near := self._categories_by_meaning(e.phrase)):
            trace.append(f"category {e.phrase!r}: no category name holds the word; by MiniLM {[p.name for p in near]}")
            hits = near
        if not hits:
            trace.append(f"category {e.phrase!r}: no category node matches; not restricting (low confidence)")
            return Grounding(e, "category", resolved=False, confidence=0.5, note="no matching category")
        if not exact and self._sold_everywhere(stems):
            part = Grounding(
                e,
                "category",
                snippet=member_of("skg:belongs", [p.node_iri or "" for p in hits]),
                confidence=0.5,
                note=f"the categories {[p.name for p in hits]}",
            )
            trace.append(
                f"category {e.phrase!r}: the categories naming it hold {SALES_NOUN_SHARE:.0%} or more of the "
                "catalog: it names what the catalog sells, no restriction"
            )
            return Grounding(e, "category", confidence=0.85, note="whole catalog", alternatives=[part])
        covered = max(p.count for p in hits)
        if self.ctx.total_products and covered >= self.ctx.total_products:
            trace.append(f"category {e.phrase!r} → {hits[0].name!r} covers the whole catalog: no restriction")
            return Grounding(e, "category", resolved=True, confidence=0.9, note="whole catalog")
        trace.append(f"category {e.phrase!r} → {[p.name for p in hits]}")
        whole = Grounding(
            e,
            "category",
            snippet=member_of("skg:belongs", [p.node_iri or "" for p in hits]),
            confidence=0.85,
            candidates=[(p.name or "", 1.0) for p in hits],
        )
        # "armchairs" of "Sofas & armchairs": a part of the category's name; where product names state
        # it as their kind, those names, in whatever category a shop also lists them (an outdoor
        # armchair under "Outdoor furniture"); the whole category stays the beam's alternative
        # only where a category's name joins kinds: "e-bike" is the whole of "Ebikes - Mountain", though
        # two listings there write "E-bike" in their names
        of_joined_kinds = any(_joins_kinds(p.name or "") for p in hits)
        kind = None if exact or not of_joined_kinds else self._kind_names(norm_tokens(e.phrase), whole=False)
        if kind is None:
            return whole
        rx, names = kind
        trace.append(
            f"category {e.phrase!r}: a part of its category; {len(names)} product names state it as their kind"
        )
        return Grounding(
            e,
            "category",
            name_filter=_regex_filter(rx),
            confidence=0.8,
            candidates=whole.candidates,
            alternatives=[whole],
        )

    def _sold_everywhere(self, stems: set[str]) -> bool:
        """Whether categories whose names hold every one of ``stems`` (as a word, or ending a
        compound: "bike" in "Ebikes") hold :data:`SALES_NOUN_SHARE` of the catalog's category
        memberships: the word then names what the catalog sells ("bikes" in a shop of Trail,
        Enduro, Downhill, XC Bikes and Ebikes), not a part of it."""
        cats = self.ctx.by_kind.get("category", [])
        total = sum(p.count for p in cats)
        if not total or not stems:
            return False

        def holds(p: Pattern) -> bool:
            toks = {_stem(t) for t in norm_tokens(p.name or "")}
            return all(any(t == w or (len(t) > len(w) and t.endswith(w)) for t in toks) for w in stems)

        return sum(p.count for p in cats if holds(p)) >= SALES_NOUN_SHARE * total

    def _headed(self, phrase: str, stems: set[str], hits: list[Pattern]) -> list[Pattern]:
        """The categories of ``hits`` whose head noun holds the word ("phones" is "Smartphones", not
        "Mobile Phone Cases", a kind of case). Where it is the whole head of some ("phones": "Mobile
        Phones"), one holding it inside a longer word only where MiniLM puts it within
        :data:`CATEGORY_MARGIN` of the closest of those: "Smartphones" (0.86 against 0.90) is a kind
        of phone, "Headphones" (0.61) and "Earphones" (0.69) are things of their own."""
        headed = [p for p in hits if any(s and s in h for s in stems for h in name_heads(p.name or ""))]
        whole = [p for p in headed if any(s == _stem(h) for s in stems for h in name_heads(p.name or ""))]
        inside = [p for p in headed if p not in whole]
        if not whole or not inside:
            return headed
        cos = self.ctx.phrase_cosines(phrase, [p.name or "" for p in headed])
        best = max(c for p, c in zip(headed, cos, strict=True) if p in whole)
        return [p for p, c in zip(headed, cos, strict=True) if p in whole or c >= best - CATEGORY_MARGIN]

    def _categories_by_meaning(self, phrase: str) -> list[Pattern]:
        """Categories whose name means ``phrase`` by MiniLM ("handsets" ~ "Mobile Phones" 0.65,
        "televisions" ~ "TVs" 0.95): the closest at :data:`CATEGORY_COSINE` or more, and any within
        :data:`CATEGORY_MARGIN` of it."""
        cats = self.ctx.by_kind.get("category", [])
        cos = self.ctx.phrase_cosines(phrase, [p.name or "" for p in cats])
        best = max(cos, default=0.0)
        if best < CATEGORY_COSINE:
            return []
        return [p for p, c in zip(cats, cos, strict=True) if c >= best - CATEGORY_MARGIN]

    def _name_word(self, e: EntityRef, want: list[str], trace: list[str]) -> Grounding | None:
        """A bare word that is no product or range name but a whole token in several product names
        ("Pixel" in "Acme Pixel 9") → a word-bounded filter on product names, like a brand."""
        if not want or not all(w.isalpha() for w in want):
            return None
        hits = [
            p
            for p in self.ctx.by_kind.get("product", [])
            if any(
                t[i : i + len(want)] == want for t in [norm_tokens(p.name or "")] for i in range(len(t) - len(want) + 1)
            )
        ]
        if len(hits) < 2:
            return None
        rx = r"\b" + r"\s*".join(re.escape(w) for w in want) + r"\b"
        trace.append(
            f"name word {e.phrase!r}: no product or range of that name; a whole word in {len(hits)} "
            f"product names → name filter"
        )
        return Grounding(
            e,
            "name-word",
            name_filter=_regex_filter(rx),
            confidence=0.7,
            candidates=[(p.name or "", 0.7) for p in hits[:5]],
        )

    def _scored_names(self, want: list[str]) -> list[tuple[float, Pattern]]:
        scored: list[tuple[float, Pattern]] = []
        for kind, base in (("range", 1.0), ("product", 0.98)):
            for p in self.ctx.by_kind.get(kind, []):
                name = norm_tokens(p.name or "")
                if name == want:
                    scored.append((base, p))
                elif token_match(want, name):
                    scored.append((base - 0.1, p))
        return scored

    def _brand_prefix(self, want: list[str]) -> int:
        """How many product names start with the tokens ``want`` (a brand, when two or more)."""
        return sum(1 for p in self.ctx.by_kind.get("product", []) if norm_tokens(p.name or "")[: len(want)] == want)

    def _named(self, e: EntityRef, trace: list[str]) -> Grounding:
        want = norm_tokens(e.phrase)
        scored = self._scored_names(want)
        if (
            not any(s >= 0.9 for s, _ in scored)
            and (one := _singular_code(singular(want))) != want
            and (self._scored_names(one) or (e.kind == "unknown" and self._name_word(e, one, []) is not None))
        ):
            trace.append(f"entity {e.phrase!r}: read as the singular {' '.join(one)!r}")
            want, scored = one, self._scored_names(one)  # "iPhones" → the products named "iPhone …"
        if (
            e.kind == "unknown"
            and want
            and want[0].isalpha()
            and not any(s >= 0.98 for s, _ in scored)
            and self._brand_prefix(want) >= 2
        ):
            # a word every name of a brand starts with ("Xiaomi") is the brand, not the ranges containing it
            return self._brand(EntityRef(e.span, " ".join(want), "brand"), trace)
        if e.kind == "unknown" and not any(s >= 0.98 for s, _ in scored) and self.catalog_scope("brand", want):
            # a maker the catalogue's brand facts name exactly ("Orange"), where names put a year or a
            # size first: the brand, not every name that holds the word ("… Black/Orange")
            return self._brand(EntityRef(e.span, " ".join(want), "brand"), trace)
        exact = [p for s, p in scored if p.kind == "product" and norm_tokens(p.name or "") == want]
        if not any(s >= 0.98 for s, _ in scored) and (line := self._line(e, want, trace)) is not None:
            return line  # a line spelled whole ("Galaxy S", "iPhones") is all of it, not the names fuzzily like it
        if exact:  # a product spelled out in full is that product, even when a range has the same name
            names = sorted({p.name or "" for p in exact})
            products = sorted({_node(p) for p in exact})
            trace.append(f"entity {e.phrase!r} → product {names} (exact product name; not expanding a range)")
            return Grounding(
                e, "entity", products=products, confidence=0.98, candidates=[(p.name or "", 0.98) for p in exact[:5]]
            )
        if not scored and e.kind == "unknown" and (g := self._name_word(e, want, trace)) is not None:
            return g
        if not scored and want and want[-1] in line_words() and (g := self._brand_line(e, want, trace)):
            return g  # "Acme Terra series": a brand and its line
        if not scored:  # fuzzy: the fused search, accepted when most of the name's tokens agree
            for p, _ in self.ctx.search(e.phrase, ["range", "product"], k=10):
                name = set(norm_tokens(p.name or ""))
                share = len(set(want) & name) / max(1, len(set(want)))
                if share >= 0.75:
                    scored.append((0.5 * share, p))
        if not scored:
            return unresolved(e, "entity", f"no product or range named like {e.phrase!r}", trace)
        top = max(s for s, _ in scored)
        best = [p for s, p in scored if s == top]
        ranges = sorted({_node(p) for p in best if p.kind == "range"})
        products = sorted({_node(p) for p in best if p.kind == "product"})
        if ranges:
            products = []
            res = self.ctx.store.select(
                "SELECT DISTINCT ?p WHERE { VALUES ?r { "
                + " ".join(f"<{r}>" for r in ranges)
                + " } ?p skg:variantOf ?r }"
            )
            products = sorted(b["p"]["value"] for b in res["results"]["bindings"])
        trace.append(
            f"entity {e.phrase!r} → {'range' if ranges else 'product'} "
            f"{sorted({p.name or '' for p in best})} ({len(products)} products, score {top:.2f})"
        )
        conf = top if top >= 0.85 else top * 0.8
        return Grounding(
            e,
            "entity",
            products=products,
            ranges=ranges,
            confidence=conf,
            candidates=[(p.name or "", s) for s, p in sorted(scored, key=lambda x: -x[0])[:5]],
            resolved=conf >= MIN_CONFIDENCE and bool(products),
        )


def _kind_words(name: str) -> list[str]:
    """The tokens of a category name or phrase less the word joining its kinds: "Tables & desks"
    and "tables and desks" are one name."""
    return [t for t in norm_tokens(name) if t != "and"]


def _singular_code(tokens: list[str]) -> list[str]:
    """``tokens`` (as :func:`norm_tokens` splits them) with a model code's plural made singular ("i7s",
    split "i" "7" "s" → "i" "7"): the English plural of a code."""
    if len(tokens) >= 2 and tokens[-1] == "s" and tokens[-2].isdigit():
        return tokens[:-1]
    return tokens
