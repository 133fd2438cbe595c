"""Brands, product lines and product types, derived from the catalog itself.

Questions intersect a brand, a product type and a product line ("Samsung tablets", "Pixel
phones", "Galaxy S phones"), but a catalog rarely states lines and often not brands: each
product is a name, a range, some categories and perhaps a brand entry. This module reads
those and nothing else. No brand, line or type is written in code or in a word list (the
data file ``catalog_facts.yaml`` holds only the English words that name a brand entry and
the sections that describe a whole product), so a catalog of tractors works as one of phones.

:func:`derive_facts` is the pure part, over plain :class:`ProductRecord` s. Its rules:

**Brand.** In order of trust:

1. A brand entry's value (``Brand``, ``Manufacturer``, ...; a "Processor: Brand" entry names
   a part's maker, so :func:`pick_brand_entries` keeps only entries that the section or the
   product names vouch for when reading from a store). Values are
   grouped case- and spacing-insensitively ("OnePlus", "one plus"); the displayed name is
   the casing the product names use most, else the one the entries use most. Where a
   product's name opens with another brand's name and never mentions its own entry's
   value, the name wins: listings often carry the reseller there ("mcare" on a Samsung).
2. Leading words that spell a brand some entry names ("Samsung Galaxy ..." with no entry).
3. A leading word learned from the products that have entries: when the products whose
   names open with "iPhone" are (almost) all Apple by their entries, "iPhone 15" without
   an entry is Apple too. The word after the brand's own words is learned as well
   ("Samsung Galaxy A15" teaches "Galaxy"). A word seen with several brands and no clear
   majority ("Smart Phone X" of one maker, "Smart Watch Y" of another) is no brand at all.
4. Otherwise the name's first word, when the names of at least ``min_brand_ranges``
   ranges open with it ("MOTOROLA Razr" and "Motorola Edge" share "Motorola") and it holds
   no digit. A word that opens fewer ranges, or one like "C65", is a model name.

**Line.** After the brand's own words, the family name (the range, else the product name)
up to the first digit or opening bracket, at most ``max_line_words`` words: "Galaxy S25
Ultra" gives "Galaxy S", "Redmi Note 13 Pro (8GB)" gives "Redmi Note", "iPhone 15"
gives "iPhone". Each prefix of those words ("Galaxy", "Galaxy S") shared by at least
``min_line_ranges`` ranges of the same brand is a line; the longest is the narrowest, each
shorter one its broader line. A prefix only one range has is a model name, not a line.
Lines meet case- and spacing-insensitively.

**Type.** A product's types are its categories, plus every broader category. Category A is
narrower than B when A's products (at least ``min_type_products``) are a strict subset of
B's, or, with ``broader_by_name``, when B's name is the tail of A's ("Gaming Laptops" under
"Laptops"; English puts the head noun last). Only direct links are kept as ``broader``.

:func:`derive_catalog_facts` reads the records from a store with a few aggregate queries,
runs :func:`derive_facts` and replaces the ``O.CATALOG_GRAPH`` named graph with the result:
``skg:hasBrand``, ``skgt:Brand``, ``skg:inLine`` (narrowest and every broader line),
``skgt:ProductLine`` (with its brand and ``skg:broader``), ``skg:hasType`` and category
``skg:broader``.

>>> facts = derive_facts([
...     ProductRecord("p1", "Acme Rocket R5 (8GB)", "Acme Rocket R5"),
...     ProductRecord("p2", "Acme Rocket R6", "Acme Rocket R6"),
...     ProductRecord("p3", "ACME Comet 2", "ACME Comet 2"),
... ])
>>> facts.brand_name("p3"), facts.line_names("p1")
('Acme', ['Rocket', 'Rocket R'])
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from dualgraph.skg.names import DEFAULT_SECTION, canonical

__all__ = [
    "CATALOG_FACTS_VERSION",
    "WORDS_FILE",
    "Brand",
    "CatalogFacts",
    "CatalogWords",
    "Line",
    "ProductRecord",
    "derive_facts",
    "load_words",
    "name_key",
    "pick_brand_entries",
]

CATALOG_FACTS_VERSION = "3"  # 2: coded terms as features; 3: their "no" is the rules' negative
"""Bumped when the derivation changes, so indexes built before recompute the catalog graph."""

WORDS_FILE = Path(__file__).with_name("catalog_facts.yaml")

# Characters that wrap a word without being part of it ("(2a)", "Samsung,").
_EDGE = ",;:|\"'“”‘’«»()[]{}<>"
# A line word also loses joining marks at its ends ("Moto E-40" reads as "Moto E").
_LINE_EDGE = _EDGE + "-+/&.*_~!?#"
# Where a family name stops naming a line: a model number or a variant bracket.
_LINE_STOP = re.compile(r"[\d(\[{]")
_TRAILING_NOTE = re.compile(r"\s*[(\[][^()\[\]]*[)\]]\s*$")


# -- keys and words -----------------------------------------------------------------------


def name_key(text: str) -> str:
    """The key names meet on: case-folded, NFKC, with all whitespace removed.

    >>> name_key(" One  Plus "), name_key("ONEPLUS"), name_key("Galaxy\u00a0S")
    ('oneplus', 'oneplus', 'galaxys')
    """
    return "".join(canonical(text).split())


def _words(text: str) -> list[str]:
    """Whitespace words with wrapping punctuation removed; empty ones dropped."""
    out = []
    for w in text.split():
        w = w.strip(_EDGE)
        if w:
            out.append(w)
    return out


def _has_letter(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _has_digit(text: str) -> bool:
    return any(ch.isdigit() for ch in text)


def _span(words: Sequence[str], key: str, *, start: int = 0, max_words: int = 3) -> int:
    """How many words from ``start`` spell ``key`` (0 if none do); the shortest match wins."""
    for n in range(1, max_words + 1):
        if start + n > len(words):
            break
        if name_key(" ".join(words[start : start + n])) == key:
            return n
    return 0


def _mentions(words: Sequence[str], key: str, *, max_words: int = 3) -> bool:
    return any(_span(words, key, start=i, max_words=max_words) for i in range(len(words)))


def _line_words(text: str, max_words: int) -> list[str]:
    """The words of ``text`` before its first digit or opening bracket (see the module doc).

    >>> _line_words("Galaxy S25 Ultra", 4), _line_words("Moto E-40", 4), _line_words("14 Pro", 4)
    (['Galaxy', 'S'], ['Moto', 'E'], [])
    """
    stop = _LINE_STOP.search(text)
    head = text[: stop.start()] if stop else text
    out = []
    for w in head.split():
        w = w.strip(_LINE_EDGE)
        if w and _has_letter(w):
            out.append(w)
    return out[:max_words]


def _display(forms: Counter[str]) -> str:
    """The most common form; ties go to the first in sort order, so runs agree."""
    return min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0]


# -- the data file --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CatalogWords:
    """The general English the derivation reads (see ``catalog_facts.yaml``)."""

    brand_entries: frozenset[str]
    general_sections: frozenset[str]

    def is_brand_entry(self, name: str) -> bool:
        """Whether a spec entry's name says it holds a brand.

        >>> w = load_words()
        >>> [w.is_brand_entry(n) for n in ("Brand", "Brand (as listed)", "Brand compatibility", "Processor brand")]
        [True, True, False, False]
        """
        return canonical(_TRAILING_NOTE.sub("", name)) in self.brand_entries

    def is_general_section(self, name: str) -> bool:
        return canonical(name) in self.general_sections


@functools.lru_cache(maxsize=8)
def load_words(path: str | Path = WORDS_FILE) -> CatalogWords:
    """Read the word lists (cached per path)."""
    doc = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    sections = {canonical(s) for s in doc.get("general_sections") or []}
    sections.add(canonical(DEFAULT_SECTION))  # where importers put unsectioned columns
    return CatalogWords(
        brand_entries=frozenset(canonical(w) for w in doc.get("brand_entries") or []),
        general_sections=frozenset(sections),
    )


# -- records and results --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ProductRecord:
    """What the derivation knows of one product."""

    iri: str
    name: str
    range: str = ""
    categories: tuple[str, ...] = ()
    brands: tuple[str, ...] = ()
    """Values of the product's brand entries (often none)."""

    @property
    def family(self) -> str:
        """The range name, which carries no variant suffix; the product name without one."""
        return self.range.strip() or self.name.strip()


@dataclass(frozen=True, slots=True)
class Brand:
    key: str
    name: str
    products: int


@dataclass(frozen=True, slots=True)
class Line:
    brand: str
    """The brand's key, ``""`` for a line of products without a brand."""
    key: str
    name: str
    broader: str | None
    """The key of the next broader line of the same brand."""
    ranges: int
    products: int

    @property
    def id(self) -> tuple[str, str]:
        return (self.brand, self.key)


@dataclass
class CatalogFacts:
    """The result of :func:`derive_facts`; products are keyed by IRI."""

    brands: dict[str, Brand] = field(default_factory=dict)
    lines: dict[tuple[str, str], Line] = field(default_factory=dict)
    product_brand: dict[str, str] = field(default_factory=dict)
    brand_source: dict[str, str] = field(default_factory=dict)
    """How each product's brand was found: entry, name, learned or name-over-entry."""
    product_lines: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """Line ids of each product, broadest first."""
    product_types: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Category names of each product: its own and every broader one."""
    type_broader: tuple[tuple[str, str], ...] = ()
    """(narrower, broader) category names, direct links only."""

    def brand_name(self, product: str) -> str | None:
        key = self.product_brand.get(product)
        return self.brands[key].name if key is not None else None

    def line_names(self, product: str) -> list[str]:
        return [self.lines[i].name for i in self.product_lines.get(product, ())]


# -- the derivation -------------------------------------------------------------------------


def derive_facts(
    records: Iterable[ProductRecord],
    *,
    min_brand_ranges: int = 2,
    min_line_ranges: int = 2,
    max_line_words: int = 4,
    max_brand_words: int = 3,
    learn_min_ranges: int = 1,
    learn_purity: float = 0.8,
    min_type_products: int = 2,
    broader_by_name: bool = True,
) -> CatalogFacts:
    """Brands, lines and types of every product (the rules are in the module docstring).

    ``min_brand_ranges``: how many ranges' names must open with a word before it is a brand
    on the names' word alone. ``min_line_ranges``: how many ranges of one brand must share a
    prefix before it is a line. ``max_line_words``: the longest line name, in words.
    ``max_brand_words``: the most words a brand name spans in a product name.
    ``learn_min_ranges`` / ``learn_purity``: how many ranges with a brand entry must open
    with a word, and which share of them must agree on one brand, before the word implies
    that brand; below the share, a word seen with several brands is no brand.
    ``min_type_products``: the fewest products a category needs to be placed under another
    by product subset. ``broader_by_name``: also place "X Laptops" under "Laptops".

    >>> facts = derive_facts([
    ...     ProductRecord("a", "Zeta Phone 3", brands=("Zeta",)),
    ...     ProductRecord("b", "Zeta Phone 4", brands=("zeta",)),
    ...     ProductRecord("c", "Phone 5"),
    ... ])
    >>> [facts.brand_name(p) for p in "abc"], [facts.brand_source[p] for p in "abc"]
    (['Zeta', 'Zeta', 'Zeta'], ['entry', 'entry', 'learned'])
    >>> facts.line_names("c")
    ['Phone']
    """
    products: dict[str, ProductRecord] = {}
    for rec in records:
        if rec.iri in products:  # one product read twice: keep every category and brand value
            old = products[rec.iri]
            rec = ProductRecord(
                old.iri,
                old.name or rec.name,
                old.range or rec.range,
                tuple(dict.fromkeys(old.categories + rec.categories)),
                tuple(dict.fromkeys(old.brands + rec.brands)),
            )
        products[rec.iri] = rec
    facts = CatalogFacts()
    _brands(
        products,
        facts,
        min_brand_ranges=min_brand_ranges,
        max_brand_words=max_brand_words,
        learn_min_ranges=learn_min_ranges,
        learn_purity=learn_purity,
    )
    _lines(
        products, facts, min_line_ranges=min_line_ranges, max_line_words=max_line_words, max_brand_words=max_brand_words
    )
    _types(products, facts, min_type_products=min_type_products, broader_by_name=broader_by_name)
    return facts


def _brands(
    products: Mapping[str, ProductRecord],
    facts: CatalogFacts,
    *,
    min_brand_ranges: int,
    max_brand_words: int,
    learn_min_ranges: int,
    learn_purity: float,
) -> None:
    words = {p: _words(r.name) or _words(r.family) for p, r in products.items()}
    range_key = {p: canonical(r.family) for p, r in products.items()}

    # Entry values, grouped by key; how often each is used decides between several.
    entry_keys: dict[str, list[str]] = {}
    entry_forms: dict[str, Counter[str]] = defaultdict(Counter)
    used: Counter[str] = Counter()
    for p, r in products.items():
        keys: list[str] = []
        for value in r.brands:
            value = " ".join(value.split())
            k = name_key(value)
            if k and k not in keys:
                keys.append(k)
                entry_forms[k][value] += 1
        if keys:
            entry_keys[p] = keys
            used.update(keys)
    known = set(used)

    def own_entry(p: str) -> str:
        # Several values (a brand and a manufacturer entry that differ): the one the name
        # opens with, else the one the catalog uses most.
        ranked = sorted(entry_keys[p], key=lambda k: (-used[k], k))
        for k in ranked:
            if _span(words[p], k, max_words=max_brand_words):
                return k
        return ranked[0]

    entry_brand = {p: own_entry(p) for p in entry_keys}

    # Which brands the entries give to the ranges whose names open with each word.
    learned: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for p, b in entry_brand.items():
        ws = words[p]
        n = _span(ws, b, max_words=max_brand_words)
        opening = ws[:1] + (ws[n : n + 1] if n else [])
        # A model number ("14" of "Xiaomi 14") says nothing about the brand of another name.
        for w in opening:
            if _has_letter(w):
                learned[name_key(w)][b].add(range_key[p])

    def verdict(word: str) -> tuple[str | None, bool]:
        """(the brand the word implies, whether the word is claimed by several brands)."""
        seen = learned.get(word)
        if not seen:
            return None, False
        total = sum(len(s) for s in seen.values())
        top, n = min(((b, len(s)) for b, s in seen.items()), key=lambda bn: (-bn[1], bn[0]))
        if n >= learn_min_ranges and n / total >= learn_purity:
            return top, False
        return None, len(seen) > 1

    lead_ranges: dict[str, set[str]] = defaultdict(set)
    for p, ws in words.items():
        if ws and _has_letter(ws[0]):
            lead_ranges[name_key(ws[0])].add(range_key[p])

    def from_name(ws: Sequence[str]) -> tuple[str, str] | None:
        """(brand key, source) read from a name's leading words, if they say it."""
        if not ws:
            return None
        for n in range(min(max_brand_words, len(ws)), 0, -1):
            if name_key(" ".join(ws[:n])) in known:
                return name_key(" ".join(ws[:n])), "name"
        first = name_key(ws[0])
        alias, contested = verdict(first)
        if alias is not None:
            return alias, "learned"
        # A word with a digit ("C65") opens model names far more often than it names a maker.
        if contested or not _has_letter(ws[0]) or _has_digit(ws[0]) or len(lead_ranges[first]) < min_brand_ranges:
            return None
        return first, "name"

    name_forms: dict[str, Counter[str]] = defaultdict(Counter)
    for p in products:
        ws = words[p]
        got = from_name(ws)
        if p in entry_brand:
            b, source = entry_brand[p], "entry"
            if got and got[1] == "name" and got[0] != b and not _mentions(ws, b, max_words=max_brand_words):
                b, source = got[0], "name-over-entry"
        elif got:
            b, source = got[0], got[1]
        else:
            continue
        facts.product_brand[p] = b
        facts.brand_source[p] = source
        n = _span(ws, b, max_words=max_brand_words)
        if n:
            name_forms[b][" ".join(ws[:n])] += 1

    counts = Counter(facts.product_brand.values())
    for b, n in counts.items():
        forms = name_forms.get(b) or entry_forms.get(b) or Counter({b: 1})
        facts.brands[b] = Brand(key=b, name=_display(forms), products=n)


def _lines(
    products: Mapping[str, ProductRecord],
    facts: CatalogFacts,
    *,
    min_line_ranges: int,
    max_line_words: int,
    max_brand_words: int,
) -> None:
    ranges: dict[tuple[str, str], set[str]] = defaultdict(set)
    forms: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    prefixes: dict[str, list[tuple[str, str]]] = {}
    for p, r in products.items():
        brand = facts.product_brand.get(p, "")
        family = r.family
        if brand:
            n = _span(_words(family), brand, max_words=max_brand_words)
            if n:
                parts = family.split(None, n)
                family = parts[n] if len(parts) > n else ""
        ws = _line_words(family, max_line_words)
        ids = []
        for n in range(1, len(ws) + 1):
            written = " ".join(ws[:n])
            line = (brand, name_key(written))
            if line[1] == brand:  # "Samsung Samsung ...": the brand is no line of itself
                continue
            ranges[line].add(canonical(r.family))
            forms[line][written] += 1
            ids.append(line)
        prefixes[p] = ids

    kept = {line for line, rs in ranges.items() if len(rs) >= min_line_ranges}
    broader: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    members: Counter[tuple[str, str]] = Counter()
    for p, ids in prefixes.items():
        mine = tuple(i for i in ids if i in kept)
        if not mine:
            continue
        facts.product_lines[p] = mine
        members.update(mine)
        for wide, narrow in zip(mine, mine[1:]):
            broader[narrow][wide[1]] += 1
    for line in sorted(kept):
        up = broader.get(line)
        facts.lines[line] = Line(
            brand=line[0],
            key=line[1],
            name=_display(forms[line]),
            broader=_display(up) if up else None,
            ranges=len(ranges[line]),
            products=members[line],
        )


def _head_words(name: str) -> list[str]:
    words = re.findall(r"\w+", canonical(name))
    # A plural head noun meets its singular ("Laptop" / "Laptops").
    if words and len(words[-1]) > 3 and words[-1].endswith("s"):
        words[-1] = words[-1][:-1]
    return words


def _types(
    products: Mapping[str, ProductRecord], facts: CatalogFacts, *, min_type_products: int, broader_by_name: bool
) -> None:
    members: dict[str, set[str]] = defaultdict(set)
    for p, r in products.items():
        for c in r.categories:
            if c.strip():
                members[c].add(p)
    # Candidates come from the data, not from every pair, so thousands of categories stay cheap:
    # a superset holds any one product of A; a broader name is a tail of A's words.
    by_head: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for c in sorted(members):
        by_head[tuple(_head_words(c))].append(c)
    edges: set[tuple[str, str]] = set()
    for a in sorted(members):
        if len(members[a]) >= min_type_products:
            some = next(iter(members[a]))
            for b in products[some].categories:
                if b != a and b in members and members[a] < members[b]:
                    edges.add((a, b))
        if broader_by_name:
            head = _head_words(a)
            for n in range(1, len(head)):
                edges.update((a, b) for b in by_head.get(tuple(head[n:]), ()) if b != a)
    # Where the subset and the name point opposite ways, neither is believed.
    edges = {(a, b) for a, b in edges if (b, a) not in edges}
    up: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        up[a].add(b)

    @functools.cache
    def above(c: str) -> frozenset[str]:
        seen: set[str] = set()
        stack = list(up.get(c, ()))
        while stack:
            x = stack.pop()
            if x not in seen and x != c:
                seen.add(x)
                stack.extend(up.get(x, ()))
        return frozenset(seen)

    # Keep the direct links only: a category two steps up is reached through the one between.
    direct = {(a, b) for a, b in edges if not any(b in above(m) for m in up[a] if m != b)}
    facts.type_broader = tuple(sorted(direct))
    for p, r in products.items():
        own = [c for c in dict.fromkeys(r.categories) if c.strip()]
        if own:
            wider = sorted({x for c in own for x in above(c)} - set(own))
            facts.product_types[p] = tuple(own + wider)


# -- choosing the brand entries -------------------------------------------------------------


def pick_brand_entries(
    entries: Mapping[str, tuple[str, Mapping[str, Sequence[str]]]],
    names: Mapping[str, str],
    *,
    words: CatalogWords | None = None,
    agreement: float = 0.5,
) -> list[str]:
    """Which brand-named entries give the product's own brand, not a part's maker.

    ``entries``: entry id -> (section name, {product: values}); ``names``: product -> name.
    A "Brand" entry may name a processor's maker. An entry is trusted when its section
    describes the whole product (``general_sections`` in the data file) or when the product
    names confirm it: at least ``agreement`` of its products have a name that mentions one
    of its values. Of several trusted entries, those scoring at least ``agreement`` times
    the best score are kept (all of them when no name mentions any value).

    >>> entries = {"spec": ("Specifications", {"p": ["acme"], "q": ["zeta"]}),
    ...            "cpu": ("Processor", {"p": ["chipco"], "q": ["acme"]})}
    >>> pick_brand_entries(entries, {"p": "Acme Rocket 5", "q": "Zeta Nova"})
    ['spec']
    >>> pick_brand_entries(entries, {"p": "Rocket 5", "q": "Nova"})
    ['spec']
    >>> pick_brand_entries({"cpu": entries["cpu"]}, {"p": "Rocket 5", "q": "Nova"})
    []
    """
    words = words or load_words()
    score = {}
    for e, (_, values) in entries.items():
        hits = 0
        for p, vals in values.items():
            ws = _words(names.get(p, ""))
            if any(_mentions(ws, name_key(v)) for v in vals if name_key(v)):
                hits += 1
        score[e] = hits / max(1, len(values))
    trusted = [e for e, (section, _) in entries.items() if words.is_general_section(section) or score[e] >= agreement]
    best = max((score[e] for e in trusted), default=0.0)
    return sorted(e for e in trusted if score[e] >= agreement * best)
