"""Coded terms of a catalog as features: "5G", "8K", "3D", read from where the catalog writes them.

Spec tables name many capabilities by a short code, a number joined to letters that are no
unit ("5G NR", "UHD 8K @30fps", "Browsing time (4G)", "5G standard: Sub6"). A question asks
for the code ("5G phones"), not for the entry that holds it, and each catalog spreads it
over different entries. This module finds the codes and the products that state them, from
the catalog alone; no code and no entry name is written here.

**A code** is a token of one or two digits followed by one or two letters that
:func:`~dualgraph.skg.quantities.parse_quantity` does not read as an amount ("5G", "8K", "6E",
"3D"; not "5V", "2x" or "8GB"), standing alone: not inside a word ("Vo5G"), a decimal ("2.4G")
or a longer code ("18K" is not "8K").

**Sources.** A product states a code in an entry when

- a value of the entry holds the code ("Network Type: 5G NR"), or
- the entry's name holds it and the value is not a negative ("4G bands supported: 1800 MHz",
  "5G: Yes"); a negative ("5G standard: Not supported", "5G: No") states that it *lacks* it.

**Sense.** The same code can mean another thing in another entry (the Wi-Fi entry's "2.4G/5G"
band is no 5G network). The entry where most products state the code gives its sense; another
entry counts only where the products that state the code there and also have the main entry
mostly state it there too (the catalog says the two agree). A code needs two products.

Only explicit negatives make a product lack the code: a missing mention is no data.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from urllib.parse import unquote

from dualgraph.skg import ontology as O
from dualgraph.skg.names import feature_iri, section_iri
from dualgraph.skg.quantities import parse_quantity
from dualgraph.skg.rules import def_regex
from dualgraph.skg.spec_table import SpecTables, iter_rows
from dualgraph.skg.terms import iri, literal, quad
from dualgraph.stores.base import SparqlStore, select_paged

__all__ = [
    "CodedTerms",
    "code_tokens",
    "count_summary",
    "derive_coded_terms",
    "read_sources",
    "split_code",
    "to_nquads",
]

# not inside a word, a decimal ("2.4G", "2,4G"), a time ("00:01Z") or a hyphenated code; a list
# comma is fine ("4G,5G")
_CODE = re.compile(r"(?<![\w.:-])(?<!\d,)(\d{1,2})([A-Za-z]{1,2})(?!\w)")
_ORDINAL = re.compile(r"^\d+(st|nd|rd|th)$", re.IGNORECASE)
# Agreement a second entry needs with the code's main entry, over the products having both.
AGREEMENT = 0.5
MIN_PRODUCTS = 2


@lru_cache(maxsize=4096)
def _is_code(token: str) -> bool:
    return not _ORDINAL.match(token) and parse_quantity(token) is None


def split_code(text: str) -> tuple[int, str] | None:
    """(number, letters) when ``text`` is one code and nothing else, else None.

    >>> split_code("5G"), split_code("wi-fi 6e"), split_code("5V")
    ((5, 'G'), None, None)
    """
    codes = code_tokens(text)
    if len(codes) != 1 or codes[0] != text.strip().upper():
        return None
    m = _CODE.match(text.strip())
    assert m is not None
    return int(m.group(1)), m.group(2).upper()


def code_tokens(text: str) -> list[str]:
    """The codes a text holds, upper-cased, in order, each once.

    >>> code_tokens("GSM / HSPA / LTE / 5G"), code_tokens("UHD 8K (7680 x 4320)@30fps, 4K@60fps")
    (['5G'], ['8K', '4K'])
    >>> code_tokens("2.4G/5G Wi-Fi"), code_tokens("Vo5G, 5GHz, 18K gold, 2nd gen, 5V/2A, 8GB")
    (['5G'], ['18K'])
    """
    out: list[str] = []
    for m in _CODE.finditer(text):
        token = m.group(1) + m.group(2)
        if _is_code(token) and token.upper() not in out:
            out.append(token.upper())
    return out


@dataclass
class CodedTerms:
    """Which products have and lack each code, and the entries it was read from."""

    has: dict[str, set[str]] = field(default_factory=dict)
    lacks: dict[str, set[str]] = field(default_factory=dict)
    entries: dict[str, list[str]] = field(default_factory=dict)
    """Code -> the entries that count for it, the main one first."""


def derive_coded_terms(
    value_rows: Iterable[tuple[str, str, str]],
    name_rows: Iterable[tuple[str, str, str, list[str]]],
    entry_products: Callable[[str], Iterable[str]] | None = None,
    *,
    sections: Mapping[str, str] | None = None,
    agreement: float = AGREEMENT,
    min_products: int = MIN_PRODUCTS,
) -> CodedTerms:
    """The pure part: ``value_rows`` are (product, entry, value) for values holding a code,
    ``name_rows`` (product, entry, entry name, values) for entries whose name holds one, and
    ``entry_products`` gives every product of an entry (default: the products seen in the rows),
    ``sections`` each entry's section. A product's stated "no" outweighs a secondary entry that
    mentions the code; a secondary entry no product vouches for counts only when its name holds
    the code or it sits in the main entry's section.

    >>> t = derive_coded_terms(
    ...     [("a", "net", "5G NR"), ("b", "net", "5G NR"), ("c", "net", "4G LTE"), ("c", "wlan", "2.4G/5G")],
    ...     [("d", "5g", "5G", ["No"])])
    >>> sorted(t.has["5G"]), sorted(t.lacks["5G"]), t.entries["5G"]
    (['a', 'b'], ['d'], ['net'])
    """
    no = def_regex("negative")  # the "no" of the rules (no-feature), so both read a value alike
    sections = sections or {}
    held: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    named: set[str] = set()  # entries whose own name holds a code
    lacks: dict[str, set[str]] = defaultdict(set)
    seen: dict[str, set[str]] = defaultdict(set)
    for p, e, v in value_rows:
        seen[e].add(p)
        for code in code_tokens(v):
            held[code][e].add(p)
    for p, e, name, values in name_rows:
        seen[e].add(p)
        codes = code_tokens(name)
        named.add(e)
        negative = bool(values) and all(no.match(v) for v in values)
        for code in codes:
            if negative:
                lacks[code].add(p)
            elif values:
                held[code][e].add(p)
    everyone = entry_products or (lambda e: seen.get(e, ()))
    out = CodedTerms()
    for code in sorted(set(held) | set(lacks)):
        by_entry = held.get(code, {})
        ranked = sorted(by_entry, key=lambda e: (-len(by_entry[e]), e))
        kept: list[str] = []
        has: set[str] = set()
        if ranked:
            main = ranked[0]
            kept.append(main)
            has |= by_entry[main]
            # what the catalog already says: the main entry's products, and explicit negatives
            judged = set(everyone(main)) | lacks.get(code, set())
            for e in ranked[1:]:
                both = by_entry[e] & judged
                if not both and e not in named and sections.get(e, "") != sections.get(main, "-"):
                    continue  # a value elsewhere that nothing vouches for: maybe another sense
                if both and len(both & has) < agreement * len(both):
                    continue  # the main entry or a stated "no" disagrees for the products both describe
                kept.append(e)
                has |= by_entry[e]
        gone = lacks.get(code, set()) - has
        if len(has) + len(gone) < min_products:
            continue
        out.has[code] = has
        if gone:
            out.lacks[code] = gone
        out.entries[code] = kept
    return out


def to_nquads(terms: CodedTerms, *, graph: str = O.CATALOG_GRAPH) -> str:
    """Each code as a feature named by it, with the products that have and lack it."""
    g = graph
    lines: list[str] = []
    for code in sorted(set(terms.has) | set(terms.lacks)):
        f = feature_iri(code)
        lines.append(quad(f, O.TYPE, iri(O.FEATURE), g))
        lines.append(quad(f, O.HAS_NAME, literal(code), g))
        for p in sorted(terms.has.get(code, ())):
            lines.append(quad(p, O.HAS_FEATURE, iri(f), g))
        for p in sorted(terms.lacks.get(code, ())):
            lines.append(quad(p, O.LACKS_FEATURE, iri(f), g))
    return "".join(lines)


# A code is a digit touching a letter; the store narrows the rows, Python reads the codes.
Q_VALUES = """
SELECT ?s (MIN(STR(?p)) AS ?product) (MIN(STR(?e)) AS ?entry) (MIN(STR(?sec)) AS ?section)
       (GROUP_CONCAT(DISTINCT ENCODE_FOR_URI(STR(?vn)); separator=" ") AS ?values)
WHERE { ?v skg:hasName ?vn . FILTER(REGEX(STR(?vn), "[0-9][A-Za-z]"))
        ?s skg:hasValue ?v ; skg:inEntry ?e . ?p skg:hasSpec ?s . ?p a skgt:Product .
        ?e skg:inSection ?sec .
        #page
}
GROUP BY ?s
"""
Q_NAMED = """
SELECT ?s (MIN(STR(?p)) AS ?product) (MIN(STR(?e)) AS ?entry) (MIN(STR(?en)) AS ?name) (MIN(STR(?sec)) AS ?section)
       (GROUP_CONCAT(DISTINCT ENCODE_FOR_URI(STR(?vn)); separator=" ") AS ?values)
WHERE { ?e a skgt:Entry ; skg:hasName ?en . FILTER(REGEX(STR(?en), "[0-9][A-Za-z]"))
        ?s skg:inEntry ?e ; skg:hasValue ?v . ?v skg:hasName ?vn . ?p skg:hasSpec ?s . ?p a skgt:Product .
        ?e skg:inSection ?sec .
        #page
}
GROUP BY ?s
"""
# Entries of the same name in other sections count as the same entry (a catalog of several shops).
Q_ENTRY_PRODUCTS = """
SELECT DISTINCT ?p WHERE { <%s> skg:hasName ?n . ?e skg:hasName ?n ; a skgt:Entry .
                           ?s skg:inEntry ?e . ?p skg:hasSpec ?s . ?p a skgt:Product . #page
}
"""


_CODE_TEXT = re.compile(r"[0-9][A-Za-z]")  # the filter of Q_VALUES and Q_NAMED


def sources_from_tables(specs: SpecTables) -> CodedTerms:
    """The rows :func:`read_sources` reads, from the converter's spec tables
    (:mod:`dualgraph.skg.spec_table`) instead of three passes over the store."""
    sections: dict[str, str] = {}
    value_rows: list[tuple[str, str, str]] = []
    name_rows: list[tuple[str, str, str, list[str]]] = []
    by_name: dict[str, set[str]] = defaultdict(set)
    names: dict[str, str] = {}
    one: dict[str, str] = {}  # one string object per product, however many rows name it
    for product, entry, section, name, value in iter_rows(
        specs.values, ("product", "entry", "section_name", "entry_name", "value_name")
    ):
        product = one.setdefault(product, product)
        by_name[name].add(product)
        names[entry] = name
        if _CODE_TEXT.search(value):
            sections[entry] = section_iri(section)
            value_rows.append((product, entry, value))
        if _CODE_TEXT.search(name) and code_tokens(name):
            sections[entry] = section_iri(section)
            name_rows.append((product, entry, name, [value]))

    def entry_products(entry: str) -> frozenset[str]:
        # every entry of the same name counts (a catalog of several shops), as in Q_ENTRY_PRODUCTS
        return frozenset(by_name.get(names.get(entry, ""), ()))

    return derive_coded_terms(value_rows, name_rows, entry_products, sections=sections)


def read_sources(store: SparqlStore, *, page_size: int | None = None) -> CodedTerms:
    """Read the rows from ``store`` (paged by spec) and derive the codes."""

    def split(values: str) -> list[str]:
        return [unquote(x) for x in values.split() if x]

    sections: dict[str, str] = {}
    value_rows = []
    for r in select_paged(store, Q_VALUES, "s", page_size):
        sections[r["entry"]] = r.get("section", "")
        value_rows += [(r["product"], r["entry"], v) for v in split(r.get("values", ""))]
    name_rows = []
    for r in select_paged(store, Q_NAMED, "s", page_size):
        if code_tokens(r.get("name", "")):
            sections[r["entry"]] = r.get("section", "")
            name_rows.append((r["product"], r["entry"], r.get("name", ""), split(r.get("values", ""))))

    @cache
    def entry_products(entry: str) -> frozenset[str]:
        # asked only for each code's main entry: a few queries, not one per entry
        return frozenset(r["p"] for r in select_paged(store, Q_ENTRY_PRODUCTS % entry, "p", page_size))

    return derive_coded_terms(value_rows, name_rows, entry_products, sections=sections)


def count_summary(terms: CodedTerms, *, examples: int = 8) -> dict[str, object]:
    """Counts for the manifest: codes, facts, and the codes most products state."""
    top = Counter({c: len(ps) for c, ps in terms.has.items()}).most_common(examples)
    return {
        "codes": len(set(terms.has) | set(terms.lacks)),
        "has": sum(len(v) for v in terms.has.values()),
        "lacks": sum(len(v) for v in terms.lacks.values()),
        "examples": [f"{c} ({n})" for c, n in top],
    }
