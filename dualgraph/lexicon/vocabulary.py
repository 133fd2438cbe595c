"""What a question's words can name in one catalog: its categories, attributes, features, value
families and the words its product names go on with, read from the catalog's own pattern index.

The parser holds grammar (how English says "at least", "without", "the cheapest") and the general
English of :file:`general_words.yaml`; every word that belongs to a product domain comes from here.
A catalog of phones gives "phones", "RAM", "NFC" and "Snapdragon"; a catalog of TVs gives "TVs",
"HDMI" and "OLED"; neither list is written by hand.

>>> from dualgraph.lexicon.patterns import Pattern
>>> ps = [Pattern("c", "category", "", "", name="Smartphones"),
...       Pattern("n", "spec_numeric", "", "", name="Battery capacity", section="Battery"),
...       Pattern("f", "feature", "", "", name="NFC support"),
...       Pattern("v", "spec_value", "", "", name="Processor", values=[{"name": "Snapdragon 8 Gen 3"}])]
>>> v = QuestionVocabulary.from_patterns(ps)
>>> bool(v.categories.fullmatch("smartphones")), v.attributes.search("a big battery").group(1)
(True, 'battery')
>>> v.features.search("phones with NFC").group(), v.value_families("a Snapdragon chip")
('NFC', [(2, 12, 'Processor')])

The parser reads the vocabulary of the question being compiled from :func:`current`, which the
compiler sets with :func:`use`. A context variable rather than a parameter: some forty helpers in
seven parser modules read it, and threading it through each would put it in every signature; a
context variable is also private to each thread and task, so engines over different catalogs in
one process do not mix. Outside :func:`use` only general English is known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from typing import Any

import numpy as np

from dualgraph.lexicon.catalog_names import brand_words, category_heads, first_words, singular
from dualgraph.lexicon.earlier_price import cut_nouns, earlier_price_entry
from dualgraph.lexicon.english import general_words, how_adjectives
from dualgraph.lexicon.spelling import Spellings, candidates, respell
from dualgraph.lexicon.synonyms import synonym_words
from dualgraph.lexicon.value_names import ValueNames

__all__ = ["QuestionVocabulary", "catalog_values", "current", "general_words", "how_adjectives", "use"]

_NEVER = re.compile(r"(?!x)x")
_SEP = r"[\s-]*"
# "NFC-enabled", "5G-capable", "4G-only": a hyphen before an ability (or restricting) suffix does not
# glue the feature into a word
_ABLE = r"-(?:capable|enabled|ready|compatible|equipped|supported|support|powered|only)\b"
CATEGORY_COSINE = 0.6
# a question word one edit from a catalogue word is read as it when MiniLM puts them this close
# (spelling variants 0.83-0.97, other words one edit apart at most 0.73: dualgraph.lexicon.spelling)
SPELLING_COSINE = 0.8
"""A lower-case question word names a category when MiniLM puts it this close to a category's name
("handsets" ~ Mobile Phones 0.65, "notebooks" ~ Laptops 0.78; "cameras" ~ TVs 0.52 does not)."""
_MAX_TEXT_FEATURES = 4000


def _tokens(phrase: str) -> list[str]:
    """Lower-case tokens of a catalog name, split at spaces and hyphens, brackets dropped."""
    phrase = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", phrase)
    return [t for t in re.split(r"[\s\-–/]+", phrase.casefold().strip(" .,:;")) if t]


def name_phrase_tokens(text: str) -> list[str]:
    """Lower-case runs of letters and digits, bracketed parts dropped: "3-seat sofa-bed (791.50)" →
    ["3", "seat", "sofa", "bed"] (a product name and a question's words split alike)."""
    return re.findall(r"[^\W_]+", re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text).casefold())


def _name_phrases(products: Sequence[str], nouns: set[str]) -> set[str]:
    """The kinds product names state right after their first word (the maker's or the range's) when
    the kind ends in a category noun: "corner sofa" of "HOLMSUND Corner sofa-bed", "3 seat sofa" of
    "EKTORP 3-seat sofa" (not of "EKTORP Cover for 3-seat sofa": a cover), kept when two names or
    more state it. A question's "corner sofas" then asks for those names, where its "corner" would
    otherwise be taken for a maker or a product line. Only runs ending in a category noun are
    counted, so the table stays small on a large catalog; so is a run a category noun leads ("TV
    bench" of "BESTÅ TV bench, 120x40 cm", where "TV" names the category "TV & media furniture")."""
    counts: dict[str, int] = {}
    for name in products:
        toks = name_phrase_tokens(name)
        found = {" ".join(toks[1 : i + 1]) for i in (2, 3) if i < len(toks) and toks[i] in nouns}
        if len(toks) > 2 and toks[1] in nouns and toks[2].isalpha():
            found.add(f"{toks[1]} {toks[2]}")  # "TV bench" of "BESTÅ TV bench": a kind led by a category word
        for phrase in found:
            counts[phrase] = counts.get(phrase, 0) + 1
    return {p for p, c in counts.items() if c >= 2}


def _token_regex(tok: str, plural: bool) -> str:
    out = re.escape(tok)
    if plural and tok.isalpha() and len(tok) >= 3:
        out += r"(?:es|s)?" if not tok.endswith("s") else ""
    return out


def _trie(phrases: Iterable[Sequence[str]], *, plural: bool = True) -> str:
    """One alternation for many token sequences, shared prefixes factored (the regex engine tries
    a handful of first tokens per position instead of every phrase)."""
    root: dict[str, Any] = {}
    for toks in phrases:
        node = root
        for t in toks:
            node = node.setdefault(t, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = []
        for tok in sorted((t for t in node if t), key=lambda t: (-len(t), t)):
            child = node[tok]
            here = _token_regex(tok, plural and not any(child))
            rest = {k: v for k, v in child.items() if k}
            if not rest:
                alts.append(here)
            elif "" in child:
                alts.append(f"{_token_regex(tok, plural)}(?:{_SEP}{emit(rest)})?")
            else:
                alts.append(f"{here}{_SEP}{emit(rest)}")
        return "(?:" + "|".join(alts) + ")"

    return emit(root) if any(root) else ""


def _compile(phrases: Iterable[Sequence[str]], template: str, *, plural: bool = True) -> re.Pattern[str]:
    body = _trie({tuple(p) for p in phrases if p}, plural=plural)
    return re.compile(template.format(body), re.I) if body else _NEVER


def _joined_tokens(text: str) -> list[str]:
    """Lower-case words of ``text`` and its "&"s: how a category name that joins kinds is compared."""
    return re.findall(r"[^\W\d_]+|&", text.casefold())


def _kinds_joined(name: str) -> tuple[str, str] | None:
    """A category name that joins kinds ("Tables & desks", "Sofas and armchairs") spelt with each
    joining word, lower case; None for a name of one kind."""
    toks = _joined_tokens(name)
    if len(toks) < 3 or not any(t in ("&", "and") for t in toks[1:-1]):
        return None
    return " ".join("&" if t == "and" else t for t in toks), " ".join("and" if t == "&" else t for t in toks)


def _plain(tok: str) -> bool:
    return bool(re.fullmatch(r"[^\W\d_]{2,}", tok))


class QuestionVocabulary:
    """The catalog words a parser recognises (see the module notes). Build it with
    :meth:`from_patterns` (a catalog's pattern index) or :meth:`of` (words given directly)."""

    def __init__(
        self,
        *,
        categories: Iterable[str] = (),
        attributes: Iterable[str] = (),
        features: Iterable[str] = (),
        values: Mapping[str, str] | None = None,
        name_tails: Iterable[str] = (),
        brands: Iterable[str] = (),
        lines: Iterable[str] = (),
        name_phrases: Iterable[str] = (),
        name_starts: Iterable[str] = (),
        embed: Callable[[list[str]], Any] | None = None,
    ) -> None:
        self._category_names = sorted({c for c in categories if c.strip()})
        self._attribute_names = sorted({a for a in attributes if a.strip()})
        self._feature_names = sorted({f for f in features if f.strip()})
        self._values = {_compact(k): v for k, v in (values or {}).items()}
        self._value_names = tuple(values or {})
        self._spellings: Spellings | None = None
        self._not_respelled: frozenset[str] = frozenset()
        self.name_tails = frozenset(t.casefold() for t in name_tails) | {"+"}
        self.brands = frozenset(b.casefold() for b in brands)
        # words that start product names or follow the maker ("Google Pixel"): a name, whatever else
        self.name_words = self.brands | frozenset(w.casefold() for w in lines)
        # the first word of any product name, one product's included ("TUFFING Loft bed frame"), as
        # the name writes it: said so, it is that name's word, not a technical term the catalog does
        # not list ("DH" is no "Dh bike parts")
        self.name_starts = frozenset(name_starts)
        self.name_phrases = frozenset(" ".join(name_phrase_tokens(p)) for p in name_phrases)
        self._embed = embed
        self._word_vectors: dict[str, np.ndarray] = {}
        self._families_of: tuple[str | None, list[tuple[int, int, str]]] = (None, [])
        self._category_vectors: np.ndarray | None = None
        self.category_words = frozenset(self._category_forms(self._category_names))
        self._joined_categories = frozenset(w for c in self._category_names for w in _kinds_joined(c) or ())
        self.categories = _compile(
            (_tokens(c) for c in self.category_words), r"(?<![\w-])(?:{})(?![\w-])", plural=False
        )
        self.product_nouns = _compile(
            (_tokens(c) for c in self.category_words | general_words("product_nouns")),
            r"(?<![\w-])(?:{})(?![\w-])",
            plural=False,
        )
        # measures of anything, and the words general English says mean another attribute word
        # ("selfie" camera, "cell" capacity: dualgraph/lexicon/general_synonyms.yaml)
        measure = general_words("measure_nouns") | general_words("price_words") | synonym_words()
        # adjacent attribute words are one attribute ("refresh rate", "front camera resolution")
        words = _trie({tuple(_tokens(a)) for a in self._attribute_names} | {(w,) for w in measure}, plural=False)
        self.attributes = re.compile(rf"\b({words}(?:[\s-]+{words}){{0,2}})\b", re.I)
        self.features = _compile(
            (_tokens(f) for f in self._feature_names),
            rf"(?:(?<![\w-])|(?<=\bnon-))(?:{{}})(?:(?![\w-]|\.\d)|(?={_ABLE}))",
        )
        self._value_re = _compile((_tokens(v) for v in (values or {})), r"(?<![\w-])({})(?![\w-])", plural=False)
        self.feature_words = frozenset(t for f in self._feature_names for t in _tokens(f))
        self.attribute_words = frozenset(t for a in self._attribute_names for t in _tokens(a)) | measure

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def of(cls, **words: Any) -> QuestionVocabulary:
        """A vocabulary from words given directly (tests, examples, a catalog described by hand)."""
        return cls(**words)

    @classmethod
    def from_patterns(
        cls,
        patterns: Sequence[Any],
        *,
        text_features: Iterable[Any] = (),
        prose_words: Iterable[str] = (),
        values: Iterable[tuple[str, str]] = (),
        embed: Callable[[list[str]], Any] | None = None,
    ) -> QuestionVocabulary:
        """The vocabulary of the catalog ``patterns`` index: category names, numeric entries with
        their sections and labels (and their single words), value-list entries, feature names with
        and without their capability words ("NFC support" is also "NFC"), the first words of value
        lists ("Snapdragon" of "Snapdragon 8 Gen 3", for the entry that lists it), the words product
        names go on with ("Pro", "Lite"), and the :class:`~dualgraph.query.ground.text_features.TextFeature`
        nodes pages name (filtered: see :func:`_text_feature_names`). ``values``: (entry name, value
        name) pairs beyond the few each pattern lists (:func:`catalog_values` reads them from a store). ``prose_words``: page words mined as naming catalog words."""
        skip = (
            general_words("function_words")
            | general_words("qualifier_words")
            | general_words("product_nouns")
            | general_words("capability_words")
        )
        products = [p.name or "" for p in patterns if p.kind == "product"]
        brands = frozenset(brand_words(products))  # first words that start two products or more
        categories = [p.name or "" for p in patterns if p.kind == "category"]
        cat_words = {t for c in cls._category_forms(categories) for t in _tokens(c)}
        attributes: set[str] = set()
        for p in patterns:
            if p.kind == "spec_numeric":
                for name in (p.name, p.section, p.label):
                    if name and re.search(r"[^\W\d_]", name) and name.casefold() not in skip:
                        attributes.add(name)
                        attributes.update(t for t in _tokens(name) if _plain(t) and t not in skip)
            elif p.kind == "spec_value" and p.name and _says_yes_or_no(p):
                continue  # an entry valued Yes/No is a feature (rules derive it), not an attribute
            elif p.kind == "spec_value" and p.name and len(_tokens(p.name)) <= 3 and p.name.casefold() not in skip:
                attributes.add(p.name)
                if len(_tokens(p.name)) == 1 and p.name.casefold() not in skip:
                    attributes.add(p.name)
        attributes = {a for a in attributes if a.casefold() not in brands and a.casefold() not in cat_words}
        # words of entry and section names (not the labels beside quantities: "Android" of "Android
        # v15" is both a label and the family of an OS value), and words of many product names
        entry_words = {
            t
            for p in patterns
            if p.kind in ("spec_numeric", "spec_value")
            for name in (p.name, p.section)
            if name and name != p.label
            for t in _tokens(name)
        }
        name_counts: dict[str, int] = {}
        for n in products:  # the word after the maker names a line ("Galaxy", "Redmi"), never a value
            for t in _tokens(n)[1:2]:
                name_counts[t] = name_counts.get(t, 0) + 1
        common_name_words = {t for t, c in name_counts.items() if c >= 2}
        attributes |= {w for w in prose_words if _plain(w) and w not in skip}
        if earlier_price_entry(patterns) is not None:  # a catalogue that records earlier prices measures cuts
            attributes |= cut_nouns()
        capability = general_words("capability_words")
        features: set[str] = set()
        for p in patterns:
            if p.kind == "feature" and p.name and re.search(r"[^\W_]", p.name) and len(_tokens(p.name)) <= 4:
                # "5G Support" is read as "5G": a question's "5G support" then grounds on the
                # feature itself, not on a rule's summary of it
                core = [w for w in p.name.split() if w.casefold() not in capability]
                features.add(" ".join(core) if core else p.name)
        features |= _text_feature_names(
            text_features, brands=brands | common_name_words, avoid=attributes | cat_words, products=products
        )
        features = {f for f in features if f.casefold() not in skip and f.casefold() not in cat_words and _term(f)}
        return cls(
            categories=categories,
            attributes=attributes,
            features=features,
            values=_value_families(
                [
                    *(
                        (p.name, str(v.get("name", "")))
                        for p in patterns
                        if p.kind == "spec_value" and p.name
                        for v in p.values
                    ),
                    *values,
                ],
                avoid=brands | cat_words | skip | common_name_words,
                entry_words=frozenset(entry_words),
            ),
            name_tails=_name_tails(products) - skip - cat_words - brands,
            lines=common_name_words,
            name_phrases=_name_phrases(products, cat_words),
            brands=brands,
            name_starts=first_words(products, case=True),
            embed=embed,
        )

    @staticmethod
    def _category_forms(names: Iterable[str]) -> set[str]:
        """Each part of each category name, singular and plural, and its head alone ("Mobile
        Phone Cases" → "mobile phone cases", "mobile phone case", "cases", "case")."""
        out: set[str] = set()
        for name in names:
            # a name that joins kinds ("Tables & desks") is also a phrase of its own, with either
            # joining word: the whole category, where one part alone may be another's word too
            if whole := _kinds_joined(name):
                out.update(whole)
            for part in re.split(r"[/&,]|\band\b", name.casefold()):
                toks = re.findall(r"[^\W\d_]+", part)
                if not toks:
                    continue
                one = singular(toks)
                for seq in (toks, one, toks[-1:], one[-1:]):
                    out.add(" ".join(seq))
                    out.add(" ".join(seq[:-1] + [_plural(seq[-1])]))
        for head in category_heads(names):
            out.add(head)
        return {w for w in out if w}

    # -- reading ------------------------------------------------------------------------------

    def whole_joined_category(self, text: str) -> bool:
        """Whether ``text`` is the whole name of a category that joins kinds, in either spelling.

        >>> v = QuestionVocabulary.of(categories=["Tables & desks", "Beds"])
        >>> v.whole_joined_category("tables and  desks"), v.whole_joined_category("Beds"), v.whole_joined_category("desks")
        (True, False, False)
        """
        return " ".join(_joined_tokens(text)) in self._joined_categories

    def name_phrase(self, modifier: str, noun: str) -> str | None:
        """``modifier noun`` as product names write it ("corner sofas" → "corner sofa"), when two
        product names or more hold those words in a row; None otherwise (see :func:`_name_phrases`).

        >>> v = QuestionVocabulary.of(name_phrases=["corner sofa", "3 seat sofa"])
        >>> v.name_phrase("corner", "sofas"), v.name_phrase("3-seat", "sofa"), v.name_phrase("red", "sofas")
        ('corner sofa', '3 seat sofa', None)
        """
        head = name_phrase_tokens(modifier)
        noun_toks = name_phrase_tokens(noun)
        if not head or not noun_toks:
            return None
        for tail in (noun_toks, singular(noun_toks)):
            phrase = " ".join(head + tail)
            if phrase in self.name_phrases:
                return phrase
        return None

    def is_category(self, word: str) -> bool:
        return self.categories.fullmatch(word) is not None

    def not_brand(self, word: str) -> bool:
        """Whether a lower-case word before a category word is English or a catalog term, not a maker."""
        w = word.casefold()
        if w in self.brands:
            return False
        return (
            w in general_words("not_brand_words")
            or w in general_words("function_words")
            or w in self.category_words
            or w in self.feature_words
            or w in self.attribute_words
            or _compact(w) in self._values
        )

    def value_families(self, q: str) -> list[tuple[int, int, str]]:
        """(start, end, entry) of each catalog value family the question names, with the capitalised
        or numbered words that follow it ("Snapdragon 8 Gen 3"). A family that is a plain word must
        be written with its capital ("a Black phone"): lower case it is the English word, unless it
        stands right before what the question asks for, a category word or a product noun ("carbon
        enduro bikes", "steel frames" do not count: "frames" is neither)."""
        if self._families_of[0] != q:  # the parser asks for the same question several times
            self._families_of = (q, self._value_families(q))
        return list(self._families_of[1])

    def _value_families(self, q: str) -> list[tuple[int, int, str]]:
        out = []
        for m in self._value_re.finditer(q):
            lead = m.group(1)
            plain = lead.isalpha() and lead.islower()
            if plain and not self._before_kind(q, m.end()):
                continue
            end = m.end()
            # a plain word's next word is the category it qualifies ("desktop CPUs"), no more of the value
            while not plain and (t := re.match(r"(?-i:\s+(?:[A-Z0-9][\w+.]*[\w+]|[A-Z0-9]|\+))", q[end:])):
                end += t.end()
            out.append((m.start(), end, self._values[_compact(lead)]))
        return out

    def _before_kind(self, q: str, end: int) -> bool:
        """Whether a category word or a product noun follows ``q[:end]`` after one space."""
        gap = re.match(r" (?=\S)", q[end:])
        return gap is not None and bool(self.categories.match(q, end + 1) or self.product_nouns.match(q, end + 1))

    def for_question(self, q: str) -> QuestionVocabulary:
        """This vocabulary plus the question's lower-case words that name a category by meaning
        ("handsets" in a catalog of Mobile Phones); itself when there is nothing to add."""
        if self._embed is None or not self._category_names:
            return self
        words = self._unseen_words(q)
        if not words:
            return self
        found = self._names_category(sorted(words))
        if not found:
            return self
        clone = object.__new__(QuestionVocabulary)
        clone.__dict__.update(self.__dict__)
        forms = self.category_words | {f for w in found for f in (w, *singular([w]))}
        clone.category_words = frozenset(forms)
        clone.categories = _compile((_tokens(c) for c in forms), r"(?<![\w-])(?:{})(?![\w-])", plural=False)
        clone.product_nouns = _compile(
            (_tokens(c) for c in forms | general_words("product_nouns")), r"(?<![\w-])(?:{})(?![\w-])", plural=False
        )
        return clone

    def prefetch(self, questions: list[str]) -> int:
        """Embed in one call the words of all these questions that :meth:`for_question` would embed
        one question at a time; returns how many."""
        if self._embed is None or not self._category_names:
            return 0
        words = sorted({w for q in questions for w in self._unseen_words(q)} - set(self._word_vectors))
        if words:
            self._names_category(words)
        return len(words)

    def places(self, word: str) -> bool:
        """Whether the catalog's vocabulary knows ``word`` (lower-case): a category, attribute, feature
        or value word, a brand, or a word a category was found to mean."""
        return bool(
            self.categories.fullmatch(word)
            or self.attributes.fullmatch(word)
            or word in self.feature_words
            or _compact(word) in self._values
            or word in self.brands
        )

    def _unseen_words(self, q: str) -> set[str]:
        """The question's lower-case words the catalog's vocabulary does not place, and its plural
        acronyms ("GPUs", "SSDs": English writes a plural noun of capitals with a lower-case s)."""
        known = general_words("function_words") | general_words("product_nouns") | general_words("qualifier_words")
        found = re.findall(r"(?<![\w-])[a-z]{4,}(?![\w-])", q)
        found += [w.casefold() for w in re.findall(r"(?<![\w-])[A-Z]{2,}s(?![\w-])", q)]
        return {
            w
            for w in found
            if w not in known
            and w not in general_words("not_brand_words")
            and not self.categories.fullmatch(w)
            and not self.attributes.fullmatch(w)
            and w not in self.feature_words
            and _compact(w) not in self._values
            and w not in self.brands
        }

    def in_catalog_spelling(self, questions: list[str]) -> list[tuple[str, list[tuple[str, str]]]]:
        """Each question with its words written as the catalogue spells them ("aluminum" →
        "aluminium") where one inner edit (:mod:`~dualgraph.lexicon.spelling`) and the embedder
        (:data:`SPELLING_COSINE`) agree, and the (asked, catalogue) pairs; the questions as they
        are without an embedder. The words of the whole batch are embedded in one call."""
        if self._embed is None:
            return [(q, []) for q in questions]
        if self._spellings is None:
            words = {t for w in self.category_words for t in w.split()} | self.attribute_words | self.feature_words
            words |= {t for v in self._value_names for t in _tokens(v)}
            self._spellings = Spellings(words - self.name_words)
            self._not_respelled = self.name_words | general_words("function_words") | general_words("question_scaffold")
        found = [candidates(q, self._spellings, keep=self._not_respelled) for q in questions]
        new = sorted({w for pairs in found for a, b in pairs for w in (a.casefold(), b)} - set(self._word_vectors))
        if new:
            for w, vec in zip(new, _unit(np.asarray(self._embed(new), dtype=np.float32))):
                self._word_vectors[w] = vec
        out = []
        for q, pairs in zip(questions, found):
            ok = [
                (a, b)
                for a, b in pairs
                if float(self._word_vectors[a.casefold()] @ self._word_vectors[b]) >= SPELLING_COSINE
            ]
            out.append((respell(q, ok) if ok else q, ok))
        return out

    def prepare(self) -> None:
        """Embed the category names now (once per index) rather than for the first question that asks."""
        if self._embed is not None and self._category_names and self._category_vectors is None:
            self._category_vectors = _unit(np.asarray(self._embed(list(self._category_names)), dtype=np.float32))

    def _names_category(self, words: list[str]) -> list[str]:
        """The ``words`` MiniLM puts within :data:`CATEGORY_COSINE` of a category name (the words a
        vocabulary has not seen yet are embedded in one call)."""
        assert self._embed is not None
        if self._category_vectors is None:
            self._category_vectors = _unit(np.asarray(self._embed(list(self._category_names)), dtype=np.float32))
        new = [w for w in words if w not in self._word_vectors]
        if new:
            if len(self._word_vectors) > 20_000:
                self._word_vectors.clear()
            for w, vec in zip(new, _unit(np.asarray(self._embed(new), dtype=np.float32))):
                self._word_vectors[w] = vec
        return [w for w in words if float((self._category_vectors @ self._word_vectors[w]).max()) >= CATEGORY_COSINE]


def _says_yes_or_no(p: Any) -> bool:
    answers = general_words("answer_words")
    return bool(p.values) and all(str(v.get("name", "")).casefold() in answers for v in p.values)


def _term(name: str) -> bool:
    """Whether a feature name can stand for itself in a question: several words, or one written as
    a term ("NFC", "eSIM", "Wi-Fi", "5G"), not a plain English word ("Notes", "Box"), which a
    question would name after a verb of having ("comes with notes") and the phrase rules read."""
    return len(_tokens(name)) > 1 or bool(re.search(r"[A-Z].*[A-Z]|\d|-|[a-z][A-Z]", name))


def _compact(phrase: str) -> str:
    """A value family's key: folded, without spaces and hyphens ("Wi-Fi", "wifi" → "wifi")."""
    return re.sub(r"[\s\-–]+", "", phrase.casefold())


def _unit(m: np.ndarray) -> np.ndarray:
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)


def _plural(word: str) -> str:
    if not word.isalpha() or word.endswith("s"):
        return word
    return word + ("es" if word.endswith(("ch", "sh", "x")) else "s")


def _name_tails(products: Iterable[str]) -> frozenset[str]:
    """Words that go on product names after their first word in at least two products, with no
    digit ("Pro", "Lite", "Plus"): a name written in lower case still goes on with them."""
    counts: dict[str, int] = {}
    for name in products:
        name = re.sub(r"\(.*", "", name)  # "(8GB RAM + 256GB)" lists a variant's specs, not its name
        for tok in set(name.split()[1:]):
            if tok.isalpha() and not _is_unit(tok):
                counts[tok.casefold()] = counts.get(tok.casefold(), 0) + 1
    return frozenset(t for t, n in counts.items() if n >= 2)


def _joined_name(words: list[str]) -> bool:
    """Capitalised words with grammar words between them ("IKEA of Sweden", "Bang and Olufsen").

    >>> _joined_name("IKEA of Sweden".split()), _joined_name("Nike Karlsson".split()), _joined_name("Black".split())
    (True, False, False)
    >>> _joined_name("Steel and wood".split()), _joined_name("Oak".split())
    (False, False)
    """
    inner = words[1:-1]
    return (
        len(words) >= 3
        and all(re.match(r"[A-Z]", t) for t in (words[0], words[-1]))
        and any(t.islower() for t in inner)
        and all(re.match(r"[A-Z]", t) or t in general_words("function_words") for t in inner)
    )


def _value_families(
    values: Iterable[tuple[str, str]], *, avoid: frozenset[str], entry_words: frozenset[str]
) -> dict[str, str]:
    """Leading words of value-list values → the entry that lists them: the capitalised words before
    the first number or lower-case word, and the first of them ("Qualcomm Snapdragon 8 Gen 3" →
    "qualcomm snapdragon", "qualcomm"). None holds an English yes/no, a maker, a line, a category
    or a bare unit; one made only of entry-name words ("Rear Camera") counts only when a version
    follows it in the value ("Wi-Fi 6E", "Android v15")."""
    answers = general_words("answer_words")
    counts: dict[str, dict[str, int]] = {}
    for entry, value in values:
        toks = value.split()
        lead: list[str] = []
        for tok in toks:
            if not re.fullmatch(r"[A-Za-z][\w+]*(?:-[\w+]+)*", tok) or any(c.isdigit() for c in tok):
                break
            lead.append(tok)
        versioned = len(toks) > len(lead) and re.match(r"v?\d", toks[len(lead)]) is not None
        if _joined_name(lead):
            # "IKEA of Sweden", "House of Hackney": capitalised words joined by a grammar word are one
            # name, whole; a maker's word inside it ("IKEA") is then part of the value, not the maker
            key = " ".join(lead).casefold()
            counts.setdefault(key, {})[entry] = counts.get(key, {}).get(entry, 0) + 1
            continue
        if lead and not versioned and not all(re.match(r"[A-Z]|[a-z]+[A-Z]", t) for t in lead):
            continue  # a lower-case lead is a family only before a model number ("exynos 1580")
        for key in {" ".join(lead).casefold(), lead[0].casefold() if lead else ""}:
            words = _tokens(key)
            if not key or len(key) < 2 or _is_unit(key) or any(t in avoid or t in answers for t in words):
                continue
            if all(t in entry_words for t in words) and not versioned:
                continue
            counts.setdefault(key, {})[entry] = counts.get(key, {}).get(entry, 0) + 1
    # a family several entries hold belongs to the one that lists it most ("Snapdragon" → Chipset)
    return {key: max(by, key=lambda e: (by[e], e)) for key, by in counts.items()}


def catalog_values(store: Any, *, limit: int = 200_000, names: ValueNames | None = None) -> list[tuple[str, str]]:
    """(entry name, value name) of the store's capitalised text values and of those that lead to a
    model number ("mediatek dimensity 6300"): the value families of long value lists ("Snapdragon
    8 Elite" among a thousand chip names) that patterns do not list. From the index's table of
    value names when given (``names``), else from the store."""
    if names is not None:
        return names.named_values(_CATALOG_VALUE, limit=limit)
    res = store.select(
        "SELECT DISTINCT ?en ?vn WHERE { ?v a skgt:Value ; skg:hasName ?vn . "
        f"FILTER(REGEX(STR(?vn), '{_CATALOG_VALUE}')) "
        f"?s skg:hasValue ?v ; skg:inEntry ?e . ?e skg:hasName ?en }} LIMIT {int(limit)}"
    )
    return [(b["en"]["value"], b["vn"]["value"]) for b in res["results"]["bindings"]]


_CATALOG_VALUE = "^[A-Z]|^[a-z][a-z+-]*( [a-z][a-z+-]*)* v?[0-9]"
"""A capitalised value, or lower-case words before a (version) number; the same in Python and SPARQL."""


def _is_unit(word: str) -> bool:
    from dualgraph.skg.quantities import normalise_unit

    return normalise_unit(word) is not None


def _text_feature_names(
    features: Iterable[Any], *, brands: frozenset[str], avoid: set[str], products: Sequence[str]
) -> set[str]:
    """The feature names pages give that can name a feature in a question: stated for two products
    at least, at most four words, none a number, a version or an ordinal ("v14", "2nd") and no
    quantity ("50 MP"), not led by a maker or a line ("Galaxy AI" is the line and "AI"), not made only of product-name, attribute, category or
    general words (pages also name "Price", "Samsung" and "Product Name"), and a single word only
    when it is written as a term ("NFC", "eSIM", "Wi-Fi"), not as an English word ("Box")."""
    from dualgraph.skg.quantities import parse_quantity

    name_words = {t for n in products for t in _tokens(n)}
    general = general_words("function_words") | general_words("qualifier_words") | general_words("product_nouns")
    plain = {a.casefold() for a in avoid} | general | brands | general_words("measure_nouns")
    out: set[str] = set()
    for f in features:
        name = f.name
        toks = _tokens(name)
        if not toks or len(toks) > 4 or len(out) >= _MAX_TEXT_FEATURES or len(f.products) < 2:
            continue
        if any(re.fullmatch(r"v?[\d.,]+|\d+(?:st|nd|rd|th)|0x\w+|\d+x\d+\S*", t) for t in toks):
            continue
        if parse_quantity(name) is not None or toks[0] in brands or not any(re.search(r"[^\W\d_]{3}", t) for t in toks):
            continue
        if not _term(name):
            continue
        if all(t in plain or t in name_words for t in toks) or name.casefold() in plain:
            continue
        out.add(name)
    return out


@contextmanager
def use(vocabulary: QuestionVocabulary) -> Iterator[QuestionVocabulary]:
    """Parse with ``vocabulary`` inside the block (see the module notes)."""
    token = _CURRENT.set(vocabulary)
    try:
        yield vocabulary
    finally:
        _CURRENT.reset(token)


def current() -> QuestionVocabulary:
    """The vocabulary set by :func:`use`, else general English only."""
    v = _CURRENT.get()
    return v if v is not None else _general_vocabulary()


@cache
def _general_vocabulary() -> QuestionVocabulary:
    return QuestionVocabulary()


_CURRENT: ContextVar[QuestionVocabulary | None] = ContextVar("dualgraph_question_vocabulary", default=None)
