"""The two sides the aligner links, read from the store: SKG nodes a page phrase may mean
(features, entries, categories, spec values) and TKG entities, each with its name, the text that
gets embedded, and the products it belongs to.

Products are the bridge between the sides: a spec entry and a page phrase that hold for the same
products are likely the same property, whatever their names. So each node carries the indices of
its products into one shared product list.

Values are shared nodes ("Yes" is the value of dozens of entries): a value held under more than
:data:`MAX_VALUE_ENTRIES` entries names nothing on its own and is left out; the others are embedded
with their commonest entry ("Display Type: AMOLED"). TKG entities that name a product or a range
(linked by exact name at index time) or that are bare numbers are left out too: they are the
catalog's names and measurements, not properties.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from dualgraph.skg import ontology as O

__all__ = ["MAX_VALUE_ENTRIES", "Side", "is_date", "is_numberish", "is_yes_no", "load_sides", "product_groups"]

MAX_VALUE_ENTRIES = 2
"""A value held under more entries than this ("Yes", "No", "1") is a hub, not a property."""

_NUMBERISH = re.compile(r"^\d[\d.,]*(?:\s*[x×/]\s*\d[\d.,]*)*(?:\s+[^\W\d_]{1,5})?$")


@dataclass
class Side:
    """Nodes of one graph: parallel lists, one row per node."""

    iris: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    products: list[frozenset[int]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.iris)

    def add(self, iri: str, name: str, text: str, kind: str, description: str, products: set[int]) -> None:
        self.iris.append(iri)
        self.names.append(name)
        self.texts.append(text)
        self.kinds.append(kind)
        self.descriptions.append(description)
        self.products.append(frozenset(products))


def _rows(store, query: str) -> list[dict[str, str]]:
    res = store.select(query)["results"]["bindings"]
    return [{k: v["value"] for k, v in b.items()} for b in res]


def is_numberish(name: str) -> bool:
    """A bare number or measurement ("4200 mAh", "10999 INR", "8"), not a property name; a code
    such as "5G" is a name.

    >>> [is_numberish(x) for x in ("4200 mAh", "8", "1920 x 1080", "5G", "Wi-Fi 6E", "3.5 mm audio port")]
    [True, True, True, False, False, False]
    """
    return bool(_NUMBERISH.match(name.strip()))


def is_yes_no(name: str) -> bool:
    """A value that only says yes or no ("No", "Not supported"): the entry's feature node stands for it.

    >>> [is_yes_no(x) for x in ("No", "Yes (optional)", "Not supported", "Nano SIM")]
    [True, True, True, False]
    """
    from dualgraph.skg.rules import def_regex

    return bool(def_regex("affirmative").match(name) or def_regex("negative").match(name))


def is_date(name: str) -> bool:
    """A short name that is a date ("December 2022", "Q3 2021"): a measurement, not a property.

    >>> [is_date(x) for x in ("December 2022", "2021, Q3", "Dolby Atmos")]
    [True, True, False]
    """
    from dualgraph.skg.dates import spot_dates

    return len(name.split()) <= 3 and bool(spot_dates(name))


def product_groups(store, products: list[str]) -> list[int]:
    """Each product's family (its range; itself when it has none), as an index: one page states a
    phrase for every variant it lists, so agreement between a phrase and a spec fact counts per family."""
    ranges = {r["p"]: r["r"] for r in _rows(store, "SELECT ?p ?r WHERE { ?p a skgt:Product ; skg:variantOf ?r }")}
    ids: dict[str, int] = {}
    return [ids.setdefault(ranges.get(p, p), len(ids)) for p in products]


def load_sides(store) -> tuple[Side, Side, list[str]]:
    """``(skg, tkg, products)``: the SKG targets, the TKG entities and the product IRIs both index into."""
    # only products: features and entries also hold for ranges, which pages do not mention
    plist = sorted(r["p"] for r in _rows(store, "SELECT ?p WHERE { ?p a skgt:Product }"))
    products = {p: i for i, p in enumerate(plist)}
    pid = products.get

    skg = Side()
    # features: what the rules derived or the tag lists stated
    held: dict[str, set[int]] = defaultdict(set)
    names: dict[str, str] = {}
    for r in _rows(
        store, "SELECT ?x ?n ?p WHERE { ?x a skgt:Feature ; skg:hasName ?n . OPTIONAL { ?p skg:hasFeature ?x } }"
    ):
        names[r["x"]] = r["n"]
        if (i := pid(r.get("p", ""))) is not None:
            held[r["x"]].add(i)
    for x in sorted(names):
        if held[x]:
            skg.add(x, names[x], names[x], "feature", "", held[x])
    # entries, with their section, and the products holding one
    entry_rows = _rows(
        store,
        "SELECT ?e ?n ?sn (COUNT(DISTINCT ?s) AS ?c) WHERE { ?e a skgt:Entry ; skg:hasName ?n . "
        "OPTIONAL { ?e skg:inSection ?sec . ?sec skg:hasName ?sn } OPTIONAL { ?s skg:inEntry ?e } } GROUP BY ?e ?n ?sn",
    )
    entry_name: dict[str, str] = {}
    entry_text: dict[str, str] = {}
    for r in entry_rows:
        if r["e"] in entry_name:
            continue
        entry_name[r["e"]] = r["n"]
        sec = r.get("sn", "")
        entry_text[r["e"]] = f"{sec} › {r['n']}" if sec and sec.casefold() != r["n"].casefold() else r["n"]
    entry_products: dict[str, set[int]] = defaultdict(set)
    value_entries: dict[str, Counter[str]] = defaultdict(Counter)
    value_products: dict[str, set[int]] = defaultdict(set)
    value_name: dict[str, str] = {}
    for r in _rows(
        store,
        "SELECT ?p ?e ?v ?vn WHERE { ?p skg:hasSpec ?s . ?s skg:inEntry ?e . "
        "OPTIONAL { ?s skg:hasValue ?v . ?v skg:hasName ?vn } }",
    ):
        i = pid(r["p"])
        if i is None:
            continue
        entry_products[r["e"]].add(i)
        if "v" in r:
            value_entries[r["v"]][r["e"]] += 1
            value_products[r["v"]].add(i)
            value_name[r["v"]] = r["vn"]
    for e in sorted(entry_name):
        if entry_products[e]:
            skg.add(e, entry_name[e], entry_text[e], "entry", "", entry_products[e])
    for v in sorted(value_name):
        entries = value_entries[v]
        if len(entries) > MAX_VALUE_ENTRIES or is_numberish(value_name[v]) or is_yes_no(value_name[v]):
            continue
        top = sorted(entries.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        context = entry_name.get(top, "")
        skg.add(v, value_name[v], f"{context}: {value_name[v]}" if context else value_name[v], "value", context,
                value_products[v])  # fmt: skip
    cats: dict[str, set[int]] = defaultdict(set)
    cat_name: dict[str, str] = {}
    for r in _rows(store, "SELECT ?c ?n ?p WHERE { ?p skg:belongs ?c . ?c a skgt:Category ; skg:hasName ?n }"):
        cat_name[r["c"]] = r["n"]
        if (i := pid(r["p"])) is not None:
            cats[r["c"]].add(i)
    for c in sorted(cat_name):
        if cats[c]:
            skg.add(c, cat_name[c], cat_name[c], "category", "", cats[c])

    tkg = Side()
    named = {
        r["e"]
        for r in _rows(
            store,
            "SELECT DISTINCT ?e WHERE { ?e skg:alignsWith ?x . VALUES ?t { skgt:Product skgt:ProductRange } ?x a ?t }",
        )
    }
    ent_name: dict[str, str] = {}
    ent_desc: dict[str, str] = {}
    ent_products: dict[str, set[int]] = defaultdict(set)
    text = f"<{O.TEXT_GRAPH}>"
    for r in _rows(
        store,
        f"SELECT ?e ?n ?d ?p WHERE {{ GRAPH {text} {{ ?e a skgt:UTKG_Entity ; skg:hasName ?n . "
        "OPTIONAL { ?e skg:hasDescription ?d } OPTIONAL { ?p skg:mentions ?e } } }",
    ):
        e = r["e"]
        if e in named or is_numberish(r["n"]) or is_date(r["n"]):
            continue
        ent_name[e] = r["n"]
        ent_desc.setdefault(e, r.get("d", ""))
        if (i := pid(r.get("p", ""))) is not None:
            ent_products[e].add(i)
    for e in sorted(ent_name):
        if ent_products[e]:
            tkg.add(e, ent_name[e], ent_name[e], "text", ent_desc[e], ent_products[e])
    return skg, tkg, plist
