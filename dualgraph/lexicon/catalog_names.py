"""Catalog names found in a question by looking them up, where the parser's capitalisation rules
cannot see them: full product/range names in any case ("is the nova lite cheaper than …") and
brands written in lower case or separated from the category word ("oneplus 5G phones",
"a vivo phone"). A brand is the first word of two or more product names, written exactly so.

>>> spot_brands("which acme 5g phones have nfc", {"acme": 3, "zed": 2}, [(11, 13)])
[(6, 10)]
>>> spot_brands("the best phones", {"best": 2}, [])  # an English word is never read as a brand
[]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from dualgraph.lexicon.english import general_words
from dualgraph.lexicon.tokens import arabic, norm_tokens, token_match

__all__ = ["brand_words", "first_words", "name_index", "singular", "spot_brands", "spot_names"]

# English words that are also brand names somewhere; lower case they are the word, not the brand.
# Category words are added by the caller (CatalogSpotter), from the catalog.
_NOT_BRAND = general_words("function_words") | general_words("not_brand_words") | general_words("measure_nouns")


def first_words(product_names: Iterable[str], *, case: bool = False) -> dict[str, int]:
    """First word of each product name (case-folded, or as written with ``case``) → how many
    products start with it."""
    counts: Counter[str] = Counter()
    for name in product_names:
        first = name.split(maxsplit=1)[0] if name.strip() else ""
        first = first if case else first.casefold()
        if re.fullmatch(r"[^\W\d_][\w-]*", first):
            counts[first] += 1
    return dict(counts)


def brand_words(product_names: Iterable[str]) -> dict[str, int]:
    """The first words (see :func:`first_words`) that start two product names or more: a maker's or
    a range's word, where one name alone may start with any word."""
    return {w: n for w, n in first_words(product_names).items() if n >= 2}


def spot_brands(
    question: str, brands: dict[str, int], taken: list[tuple[int, int]], *, words: Iterable[str] = ()
) -> list[tuple[int, int]]:
    """Spans of words outside ``taken`` that are a catalog brand (see :func:`brand_words`); a brand
    that is an English word or one of the catalog's own ``words`` (its categories) must be
    capitalised to count."""
    not_brand = _NOT_BRAND | frozenset(words)
    out = []
    for m in re.finditer(r"(?<![\w+-])[^\W\d_][\w-]*(?![\w+])", question):
        w = m.group().casefold()
        if (
            w in brands
            and (w not in not_brand or (m.group()[0].isupper() and m.start() > 0))
            and all(m.end() <= a or m.start() >= b for a, b in taken)
        ):
            out.append(m.span())
    return out


def name_index(names: Iterable[str]) -> dict[str, list[list[str]]]:
    """Product/range names as tolerant tokens, by first token (names of two or more tokens only)."""
    out: dict[str, list[list[str]]] = {}
    for full in names:
        name = norm_tokens(full or "")
        if len(name) >= 2:
            out.setdefault(name[0], []).append(name)
    return out


def spot_names(question: str, names: Iterable[str] | dict[str, list[list[str]]]) -> list[tuple[int, int]]:
    """Spans of the question that spell a product or range name (tolerant tokens), longest first.
    ``names``: the names, or their :func:`name_index` (built once per catalog: a question then
    looks only at the names starting with one of its words)."""
    index = names if isinstance(names, dict) else name_index(names)
    # a possessive "'s" ("the Orbit Phone 7's battery") is no model suffix "S": blanked, spans unchanged
    plain = re.sub(r"(?<=\w)['’]s\b", "  ", question)
    toks = [(m.group().casefold(), m.start(), m.end()) for m in re.finditer(r"[A-Za-z]+|\d+(?:\.\d+)?|\+", plain)]
    words = [arabic(t) for t, _, _ in toks]  # as the names were read: "Mark IV" is "mark 4"
    found: list[tuple[int, int, int]] = []
    for i, w in enumerate(words):
        for name in index.get(w, ()):
            n = len(name)
            if words[i : i + n] == name and token_match(name, words[i:]):
                found.append((n, toks[i][1], toks[i + n - 1][2]))
    spans: list[tuple[int, int]] = []
    for _, a, b in sorted(found, key=lambda x: (-x[0], x[1])):
        if all(b <= x or a >= y for x, y in spans):
            spans.append((a, b))
    return sorted(spans)


def singular(tokens: list[str]) -> list[str]:
    """The name tokens with a plural last word made singular ("iphones" → "iphone").

    >>> singular(["iphones"]), singular(["watches"]), singular(["galaxy", "s"]), singular(["tvs"]), singular(["bus"])
    (['iphone'], ['watch'], ['galaxy', 's'], ['tv'], ['bus'])
    """
    if not tokens or len(tokens[-1]) < 3 or not tokens[-1].isalpha() or not tokens[-1].endswith("s"):
        return tokens
    last = tokens[-1]
    if len(last) == 3 and re.search(r"[aeiouy]", last[:-1]):
        return tokens  # "gas", "bus"; but "pcs", "tvs" are acronyms in the plural
    if last.endswith(("ches", "shes", "sses", "xes")):
        last = last[:-2]
    elif not last.endswith("ss"):
        last = last[:-1]
    return tokens[:-1] + [last]


def category_heads(category_names: Iterable[str]) -> dict[str, set[str]]:
    """Head noun (singular) of each part of each category name → the words that may precede it.

    >>> sorted((k, sorted(v)) for k, v in category_heads(["Mobile Phone Cases", "PCs/Workstations"]).items())
    [('case', ['mobile', 'phone']), ('pc', []), ('workstation', [])]
    """
    heads: dict[str, set[str]] = {}
    for name in category_names:
        for part in re.split(r"[/&,]|\band\b|\s-\s", name.casefold()):  # "Ebikes - Mountain": two facets
            toks = [singular([t])[0] for t in re.findall(r"[^\W\d_]+", part)]
            if toks:
                heads.setdefault(toks[-1], set()).update(toks[:-1])
    return heads


def spot_categories(question: str, heads: dict[str, set[str]], taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans naming a catalog category by its head noun, with the modifiers its name has
    ("phone cases" → Mobile Phone Cases, "desktop PCs" → the "PCs" of PCs/Workstations).
    A span may cover ``taken`` spans only whole (the parser's "phone" inside "phone cases").

    >>> q = "Which phone cases and desktop PCs"
    >>> [q[a:b] for a, b in spot_categories(q, category_heads(["Mobile Phone Cases", "PCs/Workstations"]), [])]
    ['phone cases', 'PCs']
    """
    words = list(re.finditer(r"[^\W\d_]+", question))
    out: list[tuple[int, int]] = []
    for i, m in enumerate(words):
        head = singular([m.group().casefold()])[0]
        if i and question[words[i - 1].end() : m.start()] == "-":
            # "e-bikes" is the catalog's "Ebikes": a hyphenated word spelled as one
            joined = singular([(words[i - 1].group() + m.group()).casefold()])[0]
            if joined in heads and all(m.end() <= x or words[i - 1].start() >= y for x, y in taken):
                out.append((words[i - 1].start(), m.end()))
                continue
        if head not in heads:
            continue
        j = i
        while (
            j > 0
            and i - j < 2
            and singular([words[j - 1].group().casefold()])[0] in heads[head]
            and not question[words[j - 1].end() : words[j].start()].strip()
        ):
            j -= 1
        a, b = words[j].start(), m.end()
        if all(b <= x or a >= y or (a <= x and y <= b) for x, y in taken):
            out.append((a, b))
    return out
